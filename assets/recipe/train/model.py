"""The float model in PyTorch: exactly the network the int8 stages run, minus the quantisation.

BERT with post-LayerNorm, no attention mask (pads are keys and values like every other token),
exact erf GELU, token type 0 only. Parameter names here are ours; `to_bxm_tensors` maps them
to the .bxm names and `hf_names` to Hugging Face BertForTokenClassification names.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

HIDDEN, LAYERS, HEADS, FFN, MAX_POS, N_LABELS = 384, 6, 12, 1536, 256, 81
HEAD_DIM = HIDDEN // HEADS
LN_EPS = 1e-12


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(HIDDEN, HIDDEN)
        self.k = nn.Linear(HIDDEN, HIDDEN)
        self.v = nn.Linear(HIDDEN, HIDDEN)
        self.o = nn.Linear(HIDDEN, HIDDEN)
        self.attn_ln = nn.LayerNorm(HIDDEN, eps=LN_EPS)
        self.ffn_in = nn.Linear(HIDDEN, FFN)
        self.ffn_out = nn.Linear(FFN, HIDDEN)
        self.ffn_ln = nn.LayerNorm(HIDDEN, eps=LN_EPS)

    def forward(self, x):
        B, T, _ = x.shape
        def heads(t):
            return t.view(B, T, HEADS, HEAD_DIM).transpose(1, 2)
        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        s = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(HEAD_DIM))
        p = torch.softmax(s.float(), dim=-1)  # fp32 softmax, also under bf16 autocast
        ctx = torch.matmul(p, v).transpose(1, 2).reshape(B, T, HIDDEN)
        a = self.attn_ln(x + self.o(ctx))
        return self.ffn_ln(a + self.ffn_out(F.gelu(self.ffn_in(a))))


class TokenClassifier(nn.Module):
    def __init__(self, vocab, type_vocab=1):
        super().__init__()
        self.vocab, self.type_vocab = vocab, type_vocab
        self.word = nn.Embedding(vocab, HIDDEN)
        self.pos = nn.Embedding(MAX_POS, HIDDEN)
        self.tok_type = nn.Embedding(type_vocab, HIDDEN)
        self.emb_ln = nn.LayerNorm(HIDDEN, eps=LN_EPS)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.cls = nn.Linear(HIDDEN, N_LABELS)
        self.apply(self._init)

    def init_positions_sinusoidal(self, scale):
        """Start the (learned, absolute) position table from the Transformer's sinusoids times
        `scale`: relative offsets are then linear maps of it, so attention to neighbours can be
        learned in a few hundred steps instead of having to emerge from random vectors."""
        pos = torch.arange(MAX_POS, dtype=torch.float64)[:, None]
        i = torch.arange(0, HIDDEN, 2, dtype=torch.float64)[None, :]
        ang = pos / torch.pow(10000.0, i / HIDDEN)
        table = torch.zeros(MAX_POS, HIDDEN, dtype=torch.float64)
        table[:, 0::2], table[:, 1::2] = torch.sin(ang), torch.cos(ang)
        with torch.no_grad():
            self.pos.weight.copy_((table * scale).float())

    @staticmethod
    def _init(m):
        # BERT's initialisation: N(0, 0.02) weights, zero biases, LayerNorm 1 / 0.
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
        if isinstance(m, nn.Linear):
            nn.init.zeros_(m.bias)
        if isinstance(m, nn.LayerNorm):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)

    def forward(self, ids):
        T = ids.shape[1]
        x = self.word(ids) + self.pos.weight[:T] + self.tok_type.weight[0]
        x = self.emb_ln(x)
        for layer in self.layers:
            x = layer(x)
        return self.cls(x)


def n_params(model, trainable=False):
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable)


def linear_names():
    """(our prefix, bxm prefix) for every Linear."""
    out = []
    for l in range(LAYERS):
        for m in ("q", "k", "v", "o", "ffn_in", "ffn_out"):
            out.append((f"layers.{l}.{m}", f"L{l}.{m}"))
    out.append(("cls", "cls"))
    return out


def float_tensors(model_or_sd):
    """Our state dict -> dict of float32 numpy arrays under .bxm-like names (unquantised):
    emb.word, emb.pos, emb.type, emb.ln.*, L{l}.{m}.weight/.bias, L{l}.*_ln.*, cls.*"""
    sd = model_or_sd.state_dict() if isinstance(model_or_sd, nn.Module) else model_or_sd
    g = lambda k: sd[k].detach().float().cpu().numpy()
    out = {"emb.word": g("word.weight"), "emb.pos": g("pos.weight"), "emb.type": g("tok_type.weight"),
           "emb.ln.gamma": g("emb_ln.weight"), "emb.ln.beta": g("emb_ln.bias")}
    for ours, bx in linear_names():
        out[bx + ".weight"] = g(ours + ".weight")
        out[bx + ".bias"] = g(ours + ".bias")
    for l in range(LAYERS):
        for ln in ("attn_ln", "ffn_ln"):
            out[f"L{l}.{ln}.gamma"] = g(f"layers.{l}.{ln}.weight")
            out[f"L{l}.{ln}.beta"] = g(f"layers.{l}.{ln}.bias")
    return out
