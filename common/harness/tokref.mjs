// The reference tokenizer's answers for a corpus, for check-tok to compare with.
//
//   node common/harness/tokref.mjs TOKENIZER_JSON CORPUS_JSONL [--scores]
//
// CORPUS_JSONL: one text per line, as a JSON string or an object with "text".
// Output (stdout), one JSON line per text, in order:
//   {"ids":[...],"tokens":[...],"offsets":[[begin,end],...]}
// offsets in code points (Rust chars), as the reference reports them.
// With --scores, a first line {"scores":[...]} holds the vocabulary scores as
// the reference holds them in memory: its own re-serialisation (shortest
// round-trip digits), so they read back bit-exactly.
import { createRequire } from 'node:module';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { Tokenizer } = require(path.join(here, '../node/node_modules/@anush008/tokenizers'));

const [tokenizerPath, corpusPath, ...flags] = process.argv.slice(2);
if (!tokenizerPath || !corpusPath) {
  console.error('usage: node tokref.mjs TOKENIZER_JSON CORPUS_JSONL [--scores]');
  process.exit(2);
}
const tokenizer = Tokenizer.fromFile(tokenizerPath);
const out = [];
const flush = () => { if (out.length) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; } };

if (flags.includes('--scores')) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tokref-'));
  const saved = path.join(dir, 'tokenizer.json');
  tokenizer.save(saved, false);
  const scores = JSON.parse(readFileSync(saved, 'utf8')).model.vocab.map(([, score]) => score);
  rmSync(dir, { recursive: true });
  out.push(JSON.stringify({ scores }));
}

const texts = readFileSync(corpusPath, 'utf8').split('\n').filter((l) => l.length > 0).map((line) => {
  const v = JSON.parse(line);
  return typeof v === 'string' ? v : v.text;
});
const kBatch = 512;
for (let i = 0; i < texts.length; i += kBatch) {
  const encodings = await tokenizer.encodeBatch(texts.slice(i, i + kBatch));
  for (const e of encodings) {
    out.push(JSON.stringify({ ids: e.getIds(), tokens: e.getTokens(), offsets: e.getOffsets() }));
  }
  if (out.length >= 4096) flush();
}
flush();
