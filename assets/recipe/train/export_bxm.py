"""Float model -> int8 .bxm (assets/model/FORMAT.md).

  export_bxm.py --random [--vocab N] [--out F ...]     random BERT-initialised weights (numpy only)
  export_bxm.py --ckpt assets/work/ckpt/last.pt --out assets/model/model.bxm

Quantisation (FORMAT.md): every Linear weight and the word embedding, per output / vocabulary
row: scale = max|w| / 127 in f32, q = round_half_away(w / scale) clamped to +-127 (an all-zero
row: scale 1, zeros). Biases, position and type embeddings and LayerNorm parameters stay f32.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bxm  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TOKENIZER = os.path.join(ROOT, "assets", "tokenizer", "tokenizer.json")


def tokenizer_vocab_size(path=TOKENIZER):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        tj = json.load(f)
    n = len(tj["model"]["vocab"])
    ids = [t["id"] for t in tj.get("added_tokens", [])]
    return max([n - 1] + ids) + 1


def random_float_tensors(vocab, type_vocab=1, seed=0):
    """BERT initialisation: N(0, 0.02) weights and embeddings, zero biases, LayerNorm 1 / 0."""
    rng = np.random.default_rng(seed)
    n = lambda *s: (rng.standard_normal(s, dtype=np.float32) * np.float32(0.02))
    H, F = bxm.HIDDEN, bxm.FFN
    out = {"emb.word": n(vocab, H), "emb.pos": n(bxm.MAX_POS, H), "emb.type": n(type_vocab, H),
           "emb.ln.gamma": np.ones(H, np.float32), "emb.ln.beta": np.zeros(H, np.float32)}
    for l in range(bxm.LAYERS):
        for m, (o, i) in {"q": (H, H), "k": (H, H), "v": (H, H), "o": (H, H),
                          "ffn_in": (F, H), "ffn_out": (H, F)}.items():
            out[f"L{l}.{m}.weight"] = n(o, i)
            out[f"L{l}.{m}.bias"] = np.zeros(o, np.float32)
        for ln in ("attn_ln", "ffn_ln"):
            out[f"L{l}.{ln}.gamma"] = np.ones(H, np.float32)
            out[f"L{l}.{ln}.beta"] = np.zeros(H, np.float32)
    out["cls.weight"] = n(bxm.N_LABELS, H)
    out["cls.bias"] = np.zeros(bxm.N_LABELS, np.float32)
    return out


def quantize_all(ft):
    """float tensors (model.float_tensors naming) -> .bxm tensors."""
    t = {}
    t["emb.word.w"], t["emb.word.scale"] = bxm.quantize_weight_rows(ft["emb.word"])
    t["emb.pos"] = ft["emb.pos"].astype(np.float32)
    t["emb.type"] = ft["emb.type"].astype(np.float32)
    for k, v in ft.items():
        if k.endswith(".weight"):
            p = k[:-len(".weight")]
            t[p + ".w"], t[p + ".scale"] = bxm.quantize_weight_rows(v)
        elif k.endswith(".bias") or k.endswith(".gamma") or k.endswith(".beta"):
            t[k] = np.asarray(v, np.float32).reshape(-1)
    return t


def count_params(ft):
    return int(sum(np.asarray(v).size for v in ft.values()))


def export(ft, outs, vocab, type_vocab):
    t = quantize_all(ft)
    for out in outs:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        size = bxm.write_bxm(out, t, vocab, type_vocab)
        bxm.read_bxm(out)  # round trip through the checking reader
        print(f"wrote {out}: {size} bytes")
    n = count_params(ft)
    print(f"parameters: {n} ({n / 1e6:.2f}M); vocabulary: {vocab}")
    if not 22e6 <= n <= 24e6:
        print("WARNING: parameter count outside 22-24M", file=sys.stderr)
    if not 30000 <= vocab <= 32000:
        print("WARNING: vocabulary outside 30,000-32,000", file=sys.stderr)
    return n


def load_ckpt_float(path):
    import torch
    from model import float_tensors
    ck = torch.load(path, map_location="cpu")
    sd = ck["model"] if "model" in ck else ck
    vocab = sd["word.weight"].shape[0]
    type_vocab = sd["tok_type.weight"].shape[0]
    return float_tensors(sd), vocab, type_vocab, ck


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--random", action="store_true")
    ap.add_argument("--vocab", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt", default=os.path.join(ROOT, "assets/work/ckpt/last.pt"))
    ap.add_argument("--out", action="append", default=None)
    a = ap.parse_args()
    if a.random:
        vocab = a.vocab or tokenizer_vocab_size() or 31000
        outs = a.out or [os.path.join(ROOT, "build/model/random.bxm"),
                         os.path.join(ROOT, "assets/model/model.bxm")]
        export(random_float_tensors(vocab, 1, a.seed), outs, vocab, 1)
    else:
        ft, vocab, type_vocab, ck = load_ckpt_float(a.ckpt)
        print(f"checkpoint {a.ckpt}: step {ck.get('step')}, tokens {ck.get('tokens_seen')}")
        outs = a.out or [os.path.join(ROOT, "assets/model/model.bxm")]
        export(ft, outs, vocab, type_vocab)


if __name__ == "__main__":
    main()
