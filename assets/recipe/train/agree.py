"""Does the recipe's int8 evaluation compute what stage 00 computes?

evaluate.py scores the model with bxm.Int8Model (exact mode, our expf/erff loaded). Its F1 is
the shipped model's F1 only if that arithmetic picks the same label as stage 00 for every
token. This script runs it on the eval corpus, cut into windows exactly as evaluate.py and the
service do, and compares every compared row (<s>, content, </s> of each window) with stage 00's
logits in assets/baselines/eval.bin: label agreement, and the largest logit difference (0 in
exact mode; --fast shows what bxm's fast mode gives). Any label that differs fails the check.

    /usr/bin/python3 assets/recipe/train/agree.py [--fast] [--mutate] [--corpus eval.jsonl] ...
(`make recipe-agree`, `make recipe-agree-mutant`.) --mutate quantises the activations with one
scale for the whole matrix instead of one per row, a plausible slip, and must fail the check.
"""
import argparse
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bxm  # noqa: E402
from evaluate import find_tokenizer, tokenize_texts  # noqa: E402
from windows import text_windows  # noqa: E402


def fnv64(data: bytes) -> int:
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_eval_bin(path):
    """assets/baselines/README.md's BXLOGS1 layout -> (model fp, corpus fp, {text: (ids hash, logits)})."""
    buf = open(path, "rb").read()
    assert buf[:8] == b"BXLOGS1\n", f"{path}: not a BXLOGS1 file"
    model_fp, corpus_fp, n_texts, n_labels, _rows, _agree, entries = struct.unpack_from("<QQIIQQI", buf, 8)
    off = 8 + struct.calcsize("<QQIIQQI")
    out = {}
    for _ in range(entries):
        text, rows, ids_hash = struct.unpack_from("<IIQ", buf, off)
        off += 16
        logits = np.frombuffer(buf, "<f4", rows * n_labels, off).reshape(rows, n_labels)
        off += rows * n_labels * 4
        out[text] = (ids_hash, logits)
    return model_fp, corpus_fp, out


def quantize_per_matrix(x):
    """The mutation: one scale for the whole activation matrix (wrong: stage 00 uses one per row)."""
    amax = np.abs(x).max()
    scale = np.float32(amax / np.float32(127.0)) if amax > 0 else np.float32(1.0)
    q = np.clip(bxm.round_half_away(x / scale), -127, 127).astype(np.float64)
    return q, np.full(x.shape[:-1], scale, np.float32)


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=os.path.join(root, "assets/model/model.bxm"))
    ap.add_argument("--corpus", default=os.path.join(root, "assets/corpora/eval.jsonl"))
    ap.add_argument("--baseline", default=os.path.join(root, "assets/baselines/eval.bin"))
    ap.add_argument("--maths", default=os.path.join(root, "build/harness/libbxmaths.so"))
    ap.add_argument("--fast", action="store_true", help="bxm's fast mode instead of the exact one")
    ap.add_argument("--mutate", action="store_true")
    a = ap.parse_args()
    if not a.fast:
        bxm.use_bx_maths(a.maths)

    model_bytes = open(a.model, "rb").read()
    corpus_bytes = open(a.corpus, "rb").read()
    model_fp, corpus_fp, base = read_eval_bin(a.baseline)
    if model_fp != fnv64(model_bytes) or corpus_fp != fnv64(corpus_bytes):
        sys.exit(f"agree: {a.baseline} was made from another model or corpus; run `make baseline` first")
    if a.mutate:
        bxm.quantize_activations = quantize_per_matrix

    texts = [json.loads(l)["text"] for l in corpus_bytes.decode("utf-8").splitlines() if l.strip()]
    encodings = tokenize_texts(texts, find_tokenizer())
    model = bxm.Int8Model(a.model)
    rows = agree = 0
    max_d, sum_d, n_d = 0.0, 0.0, 0
    for t, enc in enumerate(encodings):
        ids = enc["ids"]
        want_hash, want = base[t]
        if fnv64(struct.pack(f"<{len(ids)}I", *ids)) != want_hash:
            sys.exit(f"agree: text {t}: the reference tokenizer's ids differ from stage 00's")
        got = []
        for _, content in text_windows(ids[1:-1]):  # ids without <s> and </s>
            logits = model.forward(np.array(bxm.window_ids(content)), exact=not a.fast)
            got.append(logits[:len(content) + 2])  # the compared rows: <s>, content, </s>
        got = np.concatenate(got)
        assert got.shape == want.shape, f"text {t}: {got.shape} rows vs stage 00's {want.shape}"
        same = got.argmax(-1) == want.argmax(-1)
        d = np.abs(got.astype(np.float64) - want.astype(np.float64))
        rows += len(same)
        agree += int(same.sum())
        max_d, sum_d, n_d = max(max_d, float(d.max())), sum_d + float(d.sum()), n_d + d.size
        if not same.all():
            print(f"text {t}: {int((~same).sum())} of {len(same)} labels differ")
    mode = ("fast" if a.fast else "exact") + (", MUTATED" if a.mutate else "")
    print(f"recipe int8 (bxm.py, {mode} mode) vs stage 00 on "
          f"{os.path.relpath(a.corpus, root)}: label agreement {agree}/{rows} ({100.0 * agree / rows:.2f}%), "
          f"max |dlogit| {max_d:.2e}, mean |dlogit| {sum_d / n_d:.2e}")
    sys.exit(0 if agree == rows else 1)


if __name__ == "__main__":
    main()
