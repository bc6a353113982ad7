"""Float checkpoint -> Hugging Face BertForTokenClassification layout in a directory:
config.json (with id2label), model.safetensors (written by hand, see hf.py), tokenizer.json.

  export_hf.py --ckpt assets/work/ckpt/last.pt --out build/hf

With transformers installed, BertForTokenClassification.from_pretrained(out) loads it; call it
WITHOUT an attention mask (or with all ones), as the pads take part in attention here.
"""
import argparse
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf  # noqa: E402
from export_bxm import ROOT, TOKENIZER, load_ckpt_float  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", default=os.path.join(ROOT, "assets/work/ckpt/last.pt"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build/hf"))
    ap.add_argument("--tokenizer", default=TOKENIZER)
    a = ap.parse_args()
    ft, vocab, type_vocab, _ = load_ckpt_float(a.ckpt)
    names = hf.hf_name_map()
    os.makedirs(a.out, exist_ok=True)
    hf.write_safetensors(os.path.join(a.out, "model.safetensors"), {names[k]: v for k, v in ft.items()})
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(hf.hf_config(vocab, type_vocab), f, indent=2)
        f.write("\n")
    if os.path.exists(a.tokenizer):
        shutil.copy(a.tokenizer, os.path.join(a.out, "tokenizer.json"))
    print(f"wrote {a.out}: config.json, model.safetensors ({len(ft)} tensors)"
          + (", tokenizer.json" if os.path.exists(a.tokenizer) else " (no tokenizer.json found)"))


if __name__ == "__main__":
    main()
