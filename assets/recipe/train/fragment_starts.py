"""Where do the eval corpus's entities start? A diagnostic for the decoding question
(do entities begin inside a word?).

Reads stage 00's committed logits (assets/baselines/eval.bin: the committed model, every token of
every one-window eval text) and the reference tokenizer's offsets (tokenize.mjs's output), takes
the per-token argmax (not the service's decoding: a first look only), groups same-type B/I/E/S runs
into spans, and lists every span that starts on a piece inside a word (the character before it is
a letter or digit) together with the label of the word's first piece. Such a span, widened to the
whole word by the service, reports a word whose start the model did not label.

  /usr/bin/python3 assets/recipe/train/fragment_starts.py   (make fragment-starts; -> assets/model/fragment-starts.txt)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from agree import read_eval_bin  # noqa: E402
from evaluate import find_tokenizer, tokenize_texts  # noqa: E402


def main():
    texts = [json.loads(line) for line in open('assets/corpora/eval.jsonl')]
    tokens = tokenize_texts([t['text'] for t in texts], find_tokenizer())
    inside = 0
    for ti, (_ids_hash, logits) in read_eval_bin('assets/baselines/eval.bin')[2].items():
        text, offsets = texts[ti]['text'], tokens[ti]['offsets']
        if len(offsets) != len(logits):
            print(f'text {ti}: {len(logits)} rows over several windows, {len(offsets)} tokens: left out')
            continue
        label = logits.argmax(1)
        kind = lambda t: (label[t] - 1) // 4           # entity type, or -1 for O
        i = 0
        while i < len(label):
            if label[i] == 0:
                i += 1
                continue
            j = i
            while j + 1 < len(label) and kind(j + 1) == kind(i) and (label[j + 1] - 1) % 4 in (1, 2):
                j += 1
            a, z = offsets[i][0], offsets[j][1]
            if a > 0 and text[a - 1].isalnum() and text[a].isalnum():
                w = a
                while w > 0 and not text[w - 1].isspace():
                    w -= 1
                first = next(t for t in range(len(offsets)) if offsets[t][1] > w and t > 0)
                word_start = 'O' if label[first] == 0 else f'type {kind(first)}'
                print(f'text {ti}: span {text[a:z]!r} starts inside {text[w:z]!r}; the word\'s first piece: {word_start}')
                inside += 1
            i = j + 1
    print(f'{inside} spans start inside a word')


if __name__ == '__main__':
    main()
