#!/usr/bin/python3
"""Convert a SentencePiece Unigram model into a Hugging Face tokenizer.json in XLM-R layout.

    /usr/bin/python3 assets/recipe/tokenizer/to_hf.py assets/work/tokenizer/spm.model assets/tokenizer/tokenizer.json

Layout (what the reference `tokenizers` library loads, and what our C++ tokenizer reads):
  normalizer     Sequence[Precompiled{precompiled_charsmap: base64 of the spm NFKC blob},
                          Replace{Regex " {2,}" -> " "}]
  pre_tokenizer  Metaspace{replacement "▁", prepend_scheme "always", split true}
  model          Unigram{unk_id 3, vocab [[piece, score], ...] in spm id order, byte_fallback false}
  post_processor TemplateProcessing "<s> $A </s>" (pair: "<s> $A </s> </s> $B </s>")
  decoder        Metaspace (same settings)
  added_tokens   <s>=0 <pad>=1 </s>=2 <unk>=3, special, not normalised.
"""
import base64, json, sys
from sentencepiece import sentencepiece_model_pb2 as pb

SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]


def main(src, dst):
    m = pb.ModelProto()
    with open(src, "rb") as f:
        m.ParseFromString(f.read())
    assert m.trainer_spec.model_type == pb.TrainerSpec.UNIGRAM
    vocab = [[p.piece, p.score] for p in m.pieces]
    for i, s in enumerate(SPECIALS):
        assert vocab[i][0] == s, (i, vocab[i])
    charsmap = base64.b64encode(m.normalizer_spec.precompiled_charsmap).decode("ascii")
    meta = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}
    tok = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True}
            for i, s in enumerate(SPECIALS)
        ],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Precompiled", "precompiled_charsmap": charsmap},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ]},
        "pre_tokenizer": meta,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "<s>", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}},
            ],
            "pair": [
                {"SpecialToken": {"id": "<s>", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}},
                {"Sequence": {"id": "B", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}},
            ],
            "special_tokens": {
                "<s>": {"id": "<s>", "ids": [0], "tokens": ["<s>"]},
                "</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]},
            },
        },
        "decoder": dict(meta),
        "model": {"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": False},
    }
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"{dst}: {len(vocab)} pieces, charsmap {len(m.normalizer_spec.precompiled_charsmap)} bytes")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
