"""What the model says about each token, tag by tag: the service's view one level down.

The service scores a token by the probability of its argmax label's entity *type* (B, I, E and S
of that type together; common/service/bioes.hpp). This prints, for every token the model does not
call O with certainty, its three likeliest labels, that type probability and what the tag alone
would have given, computed as common/service/bioes.cpp computes them: stage 00's logits (bxm.py's
exact mode with our expf/erff), then in f32 m = max, e_j = bx_expf(l_j - m), z and the type's mass
summed in label order from 0. So the numbers are the service's own, bit for bit.

    /usr/bin/python3 assets/recipe/train/tag_probe.py --model assets/model/model.bxm \
        --in texts.jsonl [--maths build/harness/libbxmaths.so] [--out FILE]

Texts ({"text": ...} per line) must fit one window (254 content tokens).
"""
import argparse
import hashlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bxm  # noqa: E402
from evaluate import find_tokenizer, tokenize_texts  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SURE_O = np.float32(0.99)  # tokens that are O at least this surely are not printed


def type_of(label):
    return label[2:] if label != "O" else "O"


def token_choice(logits, labels):
    """(argmax, tag probability, type probability), in the order bioes.cpp uses."""
    best = 0
    for j in range(1, len(logits)):
        if logits[j] > logits[best]:
            best = j
    e = bxm.exp32(logits - logits[best])  # bx_expf when --maths is loaded
    z = np.float32(0.0)
    mass = np.float32(0.0)
    for j in range(len(logits)):
        z = np.float32(z + e[j])
        if type_of(labels[j]) == type_of(labels[best]):
            mass = np.float32(mass + e[j])
    return best, np.float32(e[best] / z), np.float32(mass / z), e / z


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=os.path.join(ROOT, "assets/model/model.bxm"))
    ap.add_argument("--in", dest="inp", required=True)
    ap.add_argument("--maths", default=os.path.join(ROOT, "build/harness/libbxmaths.so"))
    ap.add_argument("--out")
    a = ap.parse_args()
    if not os.path.exists(a.maths):
        sys.exit(f"tag_probe: {a.maths} is missing (make recipe-maths)")
    bxm.use_bx_maths(a.maths)
    model = bxm.Int8Model(a.model)
    labels = list(model.labels)
    texts = [json.loads(l)["text"] for l in open(a.inp, encoding="utf-8") if l.strip()]
    sha = hashlib.sha256(open(a.model, "rb").read()).hexdigest()
    lines = [f"# tag_probe.py: model sha256 {sha[:16]}..., stage 00's logits (exact mode), "
             f"tokens not O at {SURE_O}: three likeliest labels, then type and tag probability as bioes.cpp computes them"]
    for text, enc in zip(texts, tokenize_texts(texts, find_tokenizer())):
        ids, offsets = enc["ids"], enc["offsets"]
        if len(ids) - 2 > bxm.WINDOW - 2:
            sys.exit("tag_probe: a text is longer than one window")
        logits = model.forward(np.array(bxm.window_ids(ids[1:-1])), exact=True)
        lines.append(json.dumps(text, ensure_ascii=True))
        for i in range(1, len(ids) - 1):
            best, tag_p, type_p, p = token_choice(logits[i], labels)
            if labels[best] == "O" and tag_p >= SURE_O:
                continue
            s, e = offsets[i]
            top = np.argsort(-p, kind="stable")[:3]
            tops = "  ".join(f"{labels[j]} {p[j]:.3f}" for j in top)
            lines.append(f"    {json.dumps(text[s:e], ensure_ascii=True):<16} {tops}   "
                         f"type {type_p:.3f}  tag {tag_p:.3f}")
    out = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(out)
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
