"""Hugging Face layout helpers: safetensors reading/writing by hand, BERT name mapping.

safetensors: u64 little-endian header length N, then N bytes of JSON
{name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__": {...}}
(offsets relative to the end of the header), then the raw little-endian tensor bytes.
"""
import json
import struct

import numpy as np

import bxm

_DT = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64, "I32": np.int32,
       "I8": np.int8, "U8": np.uint8}


def write_safetensors(path, tensors, metadata=None):
    header, blobs, off = {}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        code = {np.dtype(np.float32): "F32", np.dtype(np.int64): "I64"}[a.dtype]
        b = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        header[name] = {"dtype": code, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = metadata or {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode("utf-8")
    h += b" " * ((-len(h)) % 8)  # pad so the data starts 8-aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def _bf16_to_f32(raw):
    u = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
    return u.view(np.float32)


def read_safetensors(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack_from("<Q", data, 0)
    header = json.loads(data[8:8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        raw = data[base + b:base + e]
        if info["dtype"] == "BF16":
            a = _bf16_to_f32(raw)
        elif info["dtype"] in _DT:
            a = np.frombuffer(raw, dtype=np.dtype(_DT[info["dtype"]]).newbyteorder("<"))
        else:
            raise ValueError(f"{name}: dtype {info['dtype']} not supported")
        out[name] = a.reshape(info["shape"])
    return out


def hf_name_map(layers=bxm.LAYERS):
    """float-tensor name (model.float_tensors / export_bxm naming) -> HF name."""
    m = {"emb.word": "bert.embeddings.word_embeddings.weight",
         "emb.pos": "bert.embeddings.position_embeddings.weight",
         "emb.type": "bert.embeddings.token_type_embeddings.weight",
         "emb.ln.gamma": "bert.embeddings.LayerNorm.weight",
         "emb.ln.beta": "bert.embeddings.LayerNorm.bias",
         "cls.weight": "classifier.weight", "cls.bias": "classifier.bias"}
    sub = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
           "o": "attention.output.dense", "ffn_in": "intermediate.dense", "ffn_out": "output.dense"}
    for l in range(layers):
        p = f"bert.encoder.layer.{l}."
        for ours, theirs in sub.items():
            m[f"L{l}.{ours}.weight"] = p + theirs + ".weight"
            m[f"L{l}.{ours}.bias"] = p + theirs + ".bias"
        m[f"L{l}.attn_ln.gamma"] = p + "attention.output.LayerNorm.weight"
        m[f"L{l}.attn_ln.beta"] = p + "attention.output.LayerNorm.bias"
        m[f"L{l}.ffn_ln.gamma"] = p + "output.LayerNorm.weight"
        m[f"L{l}.ffn_ln.beta"] = p + "output.LayerNorm.bias"
    return m


def hf_config(vocab, type_vocab):
    return {
        "architectures": ["BertForTokenClassification"], "model_type": "bert",
        "vocab_size": vocab, "hidden_size": bxm.HIDDEN, "num_hidden_layers": bxm.LAYERS,
        "num_attention_heads": bxm.HEADS, "intermediate_size": bxm.FFN, "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
        "max_position_embeddings": bxm.MAX_POS, "type_vocab_size": type_vocab,
        "initializer_range": 0.02, "layer_norm_eps": 1e-12, "pad_token_id": bxm.PAD,
        "bos_token_id": bxm.BOS, "eos_token_id": bxm.EOS, "position_embedding_type": "absolute",
        "classifier_dropout": None, "torch_dtype": "float32",
        "id2label": {str(i): n for i, n in enumerate(bxm.LABELS)},
        "label2id": {n: i for i, n in enumerate(bxm.LABELS)},
    }
