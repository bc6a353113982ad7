#!/usr/bin/python3
"""Encode sample texts with sentencepiece itself, for verify.mjs.

    /usr/bin/python3 assets/recipe/tokenizer/spm_ids.py SPM_MODEL SAMPLES.jsonl OUT.jsonl
SAMPLES.jsonl holds {"text"} lines; OUT.jsonl gets {"text","ids"} lines (no <s>/</s>).
"""
import json, sys
import sentencepiece as spm

sp = spm.SentencePieceProcessor(model_file=sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as f, open(sys.argv[3], "w", encoding="utf-8") as out:
    for line in f:
        t = json.loads(line)["text"]
        out.write(json.dumps({"text": t, "ids": sp.encode(t)}, ensure_ascii=False) + "\n")
