"""Any Hugging Face BertForTokenClassification checkpoint of this shape -> .bxm.

  convert_hf.py DIR --out model.bxm [--compare-ckpt assets/work/ckpt/last.pt]

DIR holds config.json and model.safetensors (or pytorch_model.bin, read with torch). The shape
must be 6 layers, hidden 384, 12 heads, FFN 1536, 81 labels, gelu, absolute positions; a longer
position table is cut to its first 256 rows and only token type 0 is kept (the only one used).
The labels must be ours, in FORMAT.md's order (checked against config.json's id2label).
With --compare-ckpt, the result is compared byte for byte with a direct export of that checkpoint.
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bxm  # noqa: E402
import hf  # noqa: E402
from export_bxm import export, load_ckpt_float  # noqa: E402


def load_hf(d):
    cfg = json.load(open(os.path.join(d, "config.json")))
    want = {"hidden_size": bxm.HIDDEN, "num_hidden_layers": bxm.LAYERS, "num_attention_heads": bxm.HEADS,
            "intermediate_size": bxm.FFN}
    for k, v in want.items():
        if cfg.get(k) != v:
            raise SystemExit(f"config {k} = {cfg.get(k)}, want {v}")
    if cfg.get("hidden_act", "gelu") != "gelu":
        raise SystemExit(f"hidden_act {cfg.get('hidden_act')}: only exact erf gelu is supported")
    if cfg.get("position_embedding_type", "absolute") != "absolute":
        raise SystemExit("only absolute position embeddings are supported")
    if abs(cfg.get("layer_norm_eps", 1e-12) - 1e-12) > 1e-15:
        raise SystemExit(f"layer_norm_eps {cfg.get('layer_norm_eps')}, want 1e-12")
    id2label = cfg.get("id2label")
    if id2label and [id2label[str(i)] for i in range(len(id2label))] != bxm.LABELS:
        raise SystemExit("id2label differs from FORMAT.md's 81 labels")
    st = os.path.join(d, "model.safetensors")
    if os.path.exists(st):
        raw = hf.read_safetensors(st)
    else:
        import torch
        raw = {k: v.float().numpy() for k, v in torch.load(os.path.join(d, "pytorch_model.bin"), map_location="cpu").items()}
    names = hf.hf_name_map()
    ft = {}
    for ours, theirs in names.items():
        a = raw.get(theirs, raw.get(theirs[len("bert."):]) if theirs.startswith("bert.") else None)
        if a is None:
            raise SystemExit(f"missing tensor {theirs}")
        ft[ours] = np.asarray(a, dtype=np.float32)
    if ft["emb.pos"].shape[0] < bxm.MAX_POS:
        raise SystemExit(f"only {ft['emb.pos'].shape[0]} positions, need {bxm.MAX_POS}")
    ft["emb.pos"] = ft["emb.pos"][:bxm.MAX_POS]
    type_vocab = ft["emb.type"].shape[0]
    if type_vocab > 2:
        ft["emb.type"], type_vocab = ft["emb.type"][:1], 1
    if ft["cls.weight"].shape[0] != bxm.N_LABELS:
        raise SystemExit(f"classifier has {ft['cls.weight'].shape[0]} labels, want {bxm.N_LABELS}")
    return ft, ft["emb.word"].shape[0], type_vocab


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--out", required=True)
    ap.add_argument("--compare-ckpt", default=None)
    a = ap.parse_args()
    ft, vocab, type_vocab = load_hf(a.dir)
    export(ft, [a.out], vocab, type_vocab)
    if a.compare_ckpt:
        ft2, v2, t2, _ = load_ckpt_float(a.compare_ckpt)
        with tempfile.TemporaryDirectory() as td:
            ref = os.path.join(td, "direct.bxm")
            export(ft2, [ref], v2, t2)
            same = open(ref, "rb").read() == open(a.out, "rb").read()
        print("round trip: " + ("IDENTICAL to the direct export" if same else "DIFFERS from the direct export"))
        sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
