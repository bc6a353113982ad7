#!/usr/bin/python3
"""Train the SentencePiece Unigram tokenizer (Debian python3-sentencepiece; run with /usr/bin/python3).

    /usr/bin/python3 assets/recipe/tokenizer/train_spm.py --corpus assets/work/corpus/train.jsonl --out assets/work/tokenizer

Training text = the synthetic corpus (train split only) + general multilingual text from Debian
packages: the word lists in /usr/share/dict (wamerican wfrench wngerman wspanish witalian
wdutch), shuffled into lines of words, and the fortune cookies (fortunes, -de, -it, -es).
Writes OUT/train.txt, OUT/spm.model, OUT/spm.vocab. Deterministic for a given input.
"""
import argparse, glob, json, os, random
import sentencepiece as spm

DICTS = ["american-english", "french", "ngerman", "spanish", "italian", "dutch"]


def dict_lines(rng):
    for name in DICTS:
        p = os.path.join("/usr/share/dict", name)
        if not os.path.exists(p):
            print("missing", p)
            continue
        with open(p, encoding="utf-8", errors="replace") as f:
            words = [w.strip() for w in f if w.strip() and "'s" not in w]
        rng.shuffle(words)
        for i in range(0, len(words), 12):
            yield " ".join(words[i:i + 12])


def fortune_lines():
    files = []
    for p in sorted(glob.glob("/usr/share/games/fortunes/**/*", recursive=True)):
        if os.path.isdir(p) or p.endswith(".dat"):
            continue
        # prefer the .u8 (UTF-8) variant where there is one
        if os.path.exists(p + ".u8"):
            continue
        files.append(p)
    for p in files:
        with open(p, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        for cookie in text.split("\n%\n"):
            line = " ".join(cookie.split())
            if line:
                yield line


def corpus_lines(path):
    with open(path, encoding="utf-8") as f:
        for row in f:
            for line in json.loads(row)["text"].split("\n"):
                line = line.strip()
                if line:
                    yield line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--vocab", type=int, default=31000)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(1234)
    txt = os.path.join(a.out, "train.txt")
    counts = {}
    with open(txt, "w", encoding="utf-8") as out:
        for name, gen in (("corpus", corpus_lines(a.corpus)), ("dict", dict_lines(rng)), ("fortunes", fortune_lines())):
            n = 0
            for line in gen:
                out.write(line + "\n")
                n += 1
            counts[name] = n
    print("training lines:", counts)
    spm.SentencePieceTrainer.train(
        input=txt,
        model_prefix=os.path.join(a.out, "spm"),
        model_type="unigram",
        vocab_size=a.vocab,
        normalization_rule_name="nmt_nfkc",
        character_coverage=0.9999,
        bos_id=0, pad_id=1, eos_id=2, unk_id=3,
        bos_piece="<s>", pad_piece="<pad>", eos_piece="</s>", unk_piece="<unk>",
        byte_fallback=False,
        input_sentence_size=2000000,
        shuffle_input_sentence=True,
        seed_sentencepiece_size=1000000,
        max_sentence_length=8192,
        num_threads=a.threads,
        train_extremely_large_corpus=False,
    )


if __name__ == "__main__":
    main()
