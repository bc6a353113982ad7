"""The reference tokenizer's answers for a corpus, for check-tok to compare with.

    build/venv/bin/python common/harness/tokref.py TOKENIZER_JSON CORPUS_JSONL [--scores]
                                                   [--scores-tsv FILE]

The reference is Hugging Face's own `tokenizers` wheel from PyPI, pinned in the
Makefile (TOKENIZERS_VERSION) and installed by `make setup` into build/venv.

CORPUS_JSONL: one text per line, as a JSON string or an object with "text".
Output (stdout), one JSON line per text, in order:
    {"ids":[...],"tokens":[...],"offsets":[[begin,end],...]}
with offsets in code points (the Python binding's str indices, which are Rust
chars). With --scores, a first line {"scores":[...]} holds the vocabulary's
scores as the reference holds them in memory: read back from its own
serialisation (shortest round-trip digits), so they parse to the same bits.
With --scores-tsv FILE, the same scores go to FILE as the golden table
assets/corpora/tokcheck.scores.tsv holds them: id, the f64's bits (16 hex
digits), the decimal text exactly as the reference wrote it, the piece.
"""
import json
import re
import struct
import sys

from tokenizers import Tokenizer


def texts_of(path):
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                value = json.loads(line)
                yield value if isinstance(value, str) else value["text"]


def scores_table(serialised):
    """Each vocabulary entry's score as written in the reference's own JSON."""
    start = serialised.index('"vocab":[', serialised.index('"type":"Unigram"')) + len('"vocab":[')
    entry = re.compile(r'\[("(?:[^"\\]|\\.)*"),(-?[0-9.eE+-]+)\]')
    rows, pos = [], start
    while True:
        m = entry.match(serialised, pos)
        if not m:
            break
        bits = struct.pack(">d", float(m.group(2))).hex()
        rows.append(f"{len(rows)}\t{bits}\t{m.group(2)}\t{m.group(1)}")
        pos = m.end()
        if serialised[pos] != ",":
            break
        pos += 1
    return rows


def main(argv):
    if len(argv) < 2:
        print("usage: tokref.py TOKENIZER_JSON CORPUS_JSONL [--scores]", file=sys.stderr)
        return 2
    tokenizer = Tokenizer.from_file(argv[0])
    out = sys.stdout
    dumps = lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if "--scores-tsv" in argv[2:]:
        rows = scores_table(tokenizer.to_str())
        if len(rows) != tokenizer.get_vocab_size(with_added_tokens=False):
            print(f"tokref.py: read {len(rows)} scores for a vocabulary of "
                  f"{tokenizer.get_vocab_size(with_added_tokens=False)}", file=sys.stderr)
            return 1
        with open(argv[argv.index("--scores-tsv") + 1], "w", encoding="utf-8") as tsv:
            tsv.write("\n".join(rows) + "\n")
    if "--scores" in argv[2:]:
        vocab = json.loads(tokenizer.to_str())["model"]["vocab"]
        out.write(dumps({"scores": [score for _, score in vocab]}) + "\n")
    texts = list(texts_of(argv[1]))
    batch = 512
    for start in range(0, len(texts), batch):
        for e in tokenizer.encode_batch(texts[start:start + batch]):
            out.write(dumps({"ids": e.ids, "tokens": e.tokens, "offsets": [list(o) for o in e.offsets]}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
