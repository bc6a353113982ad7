// Stage 00 is single-threaded (a WASI program cannot start another), and
// dumping the equivalence corpus's reference takes it about twenty minutes.
// `make baseline` therefore deals the corpus's texts round-robin into N part
// files, runs one `dump` per part at the same time, and merges the part
// references into the one file `check` reads (format: assets/baselines/README.md).
//
//   node ref-parts.mjs split CORPUS N DIR         -> DIR/part-K.jsonl, K = 0..N-1
//   node ref-parts.mjs merge CORPUS N DIR OUT.ref <- DIR/part-K.ref
//
// Text i of the corpus (counting non-blank lines, as the harness does) goes to
// part i % N. The merged header names the whole corpus's FNV-1a 64 fingerprint;
// every part must come from the same model and from the part file as split.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

function fnv64(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

function texts(corpus) {
  return readFileSync(corpus, 'utf8').split('\n').filter((line) => /[^ \t\r]/.test(line));
}

function fail(message) {
  console.error(`ref-parts: ${message}`);
  process.exit(1);
}

function parseRef(file) {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const field = (i, key) => {
    const [k, v] = lines[i].split(' ');
    if (k !== key) fail(`${file}: line ${i + 1} should start with "${key}"`);
    return v;
  };
  if (lines[0] !== 'bxref 1') fail(`${file}: not a "bxref 1" file`);
  const ref = { model: field(1, 'model'), corpus: field(2, 'corpus'), texts: Number(field(3, 'texts')) };
  ref.records = lines.slice(4);
  if (ref.records.length !== ref.texts) fail(`${file}: ${ref.records.length} records for ${ref.texts} texts`);
  return ref;
}

const [command, corpus, nText, dir, out] = process.argv.slice(2);
const n = Number(nText);
if (!['split', 'merge'].includes(command) || !corpus || !(n >= 1) || !dir || (command === 'merge' && !out)) {
  fail('usage: ref-parts.mjs split CORPUS N DIR | merge CORPUS N DIR OUT.ref');
}
const all = texts(corpus);
const partFile = (k, ext) => path.join(dir, `part-${k}.${ext}`);
const partTexts = (k) => all.filter((_, i) => i % n === k);

if (command === 'split') {
  mkdirSync(dir, { recursive: true });
  for (let k = 0; k < n; ++k) writeFileSync(partFile(k, 'jsonl'), partTexts(k).map((l) => l + '\n').join(''));
  console.log(`ref-parts: ${all.length} texts of ${corpus} dealt into ${n} parts in ${dir}`);
} else {
  const parts = [];
  for (let k = 0; k < n; ++k) {
    const ref = parseRef(partFile(k, 'ref'));
    if (ref.corpus !== fnv64(readFileSync(partFile(k, 'jsonl')))) fail(`${partFile(k, 'ref')}: made from another part file`);
    if (ref.texts !== partTexts(k).length) fail(`${partFile(k, 'ref')}: ${ref.texts} texts, the part has ${partTexts(k).length}`);
    if (parts.length && ref.model !== parts[0].model) fail(`${partFile(k, 'ref')}: made with another model`);
    parts.push(ref);
  }
  const records = all.map((_, i) => parts[i % n].records[Math.floor(i / n)]);
  const header = ['bxref 1', `model ${parts[0].model}`, `corpus ${fnv64(readFileSync(corpus))}`, `texts ${all.length}`];
  writeFileSync(out, [...header, ...records].join('\n') + '\n');
  console.log(`ref-parts: ${n} parts merged -> ${out} (${all.length} texts)`);
}
