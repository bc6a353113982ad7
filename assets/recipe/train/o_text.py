"""Ordinary text with no personal data, for the trainer: the fortune cookies (en, de, it, es).

The generated corpus's non-entity text comes from a few hundred templates, so a model trained on
it alone meets every other word of real prose for the first time at inference, and guesses
(measured on the eval texts after 7,341 steps: every PII string found but 83 spurious entities
on words such as "Failed", "wrote", "instead"). These texts, labelled all `O`, teach it what
ordinary words look like. Kept out: attributions (" -- Author"), cookies with an address, a URL
or digits, and cookies with a capitalised word inside a sentence (most are names, which must
not be taught as `O`). Every tenth kept cookie goes to the dev file instead of the train file.

    /usr/bin/python3 assets/recipe/train/o_text.py --out assets/work/data
writes OUT/o_text.train.tok.jsonl and OUT/o_text.dev.tok.jsonl ({"ids","labels","lang","kind"}).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tokenizer"))
from train_spm import fortune_lines  # noqa: E402

INNER_CAPITAL = re.compile(r"(?<![.!?:;\"'«»(\-]) (?!I\b|I'|O\b)[A-ZÀ-ÖØ-Þ]")


def keep(cookie):
    text = cookie.split(" -- ")[0].strip()
    if not 20 <= len(text) <= 400:
        return None
    if re.search(r"[@0-9]|https?:|www\.", text) or INNER_CAPITAL.search(text):
        return None
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "work", "data"))
    ap.add_argument("--tokenizer", default=os.path.join(HERE, "..", "..", "tokenizer", "tokenizer.json"))
    a = ap.parse_args()
    texts = sorted({t for t in map(keep, fortune_lines()) if t})
    inp = "".join(json.dumps({"text": t}) + "\n" for t in texts)
    r = subprocess.run(["node", os.path.join(HERE, "tokenize.mjs"), a.tokenizer], input=inp,
                       capture_output=True, text=True, check=True)
    encodings = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    assert len(encodings) == len(texts)
    files = {name: open(os.path.join(a.out, f"o_text.{name}.tok.jsonl"), "w", encoding="utf-8")
             for name in ("train", "dev")}
    counts = {"train": 0, "dev": 0}
    for i, enc in enumerate(encodings):
        ids = enc["ids"][1:-1][:254]  # without <s> and </s>; one window each
        name = "dev" if i % 10 == 9 else "train"
        files[name].write(json.dumps({"ids": ids, "labels": [0] * len(ids), "lang": "?", "kind": "otext"}) + "\n")
        counts[name] += 1
    print(f"o_text: {len(texts)} cookies kept -> {counts}")


if __name__ == "__main__":
    main()
