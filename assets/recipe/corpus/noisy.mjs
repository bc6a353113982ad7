#!/usr/bin/env node
// noisy.mjs: labelled texts again, with a run of hostile characters written between two sentences.
//
//   node assets/recipe/corpus/noisy.mjs --in A.jsonl,B.jsonl --out OUT/noisy.jsonl [--count 4000]
//
// Users paste text with control characters, format characters, odd spaces, compatibility forms and
// strings that look like the tokenizer's special tokens in it. Some of these the normaliser removes;
// others reach the model as pieces of their own (`<unk>`, a bare `▁`). A name must stay a name
// beside them: the service's minimum score is a threshold, so a name the model is sure of only
// in clean text can drop under it when such a run comes before it. Each text here is a labelled
// text of the inputs with one run (1 to 24 characters of one kind) at a sentence boundary, the
// start or the end, never inside an entity; the run is O and the entities keep their labels.
//
// Deterministic: no clock, no Math.random.
import fs from 'node:fs';
import * as V from './values.mjs';

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
// The kinds of run, as code points (or whole strings for the special tokens).
const KINDS = {
  c0: range(0x01, 0x1f).filter((c) => c !== 0x0a && c !== 0x0d),
  c1: range(0x80, 0x9f),
  format: [0xad, 0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x70f, 0x8e2, 0x180e, ...range(0x200b, 0x200f), ...range(0x202a, 0x202e),
    ...range(0x2060, 0x2064), ...range(0x206a, 0x206f), 0xfeff, 0xfff9, 0xfffa, 0xfffb, ...range(0x13430, 0x13438),
    ...range(0x1d173, 0x1d17a), ...range(0xe0020, 0xe007f)],
  space: [0xa0, ...range(0x2000, 0x200a), 0x202f, 0x205f, 0x3000, 0x1680],
  compat: [0xfb01, 0xfb02, 0x2167, 0x2f67, 0x1d36, 0x32a3, 0x335c, 0xfc47, 0x587, 0xfec5, 0xff88, 0xff21, 0xff41, 0x2460, 0x24b6, 0x3392],
  special: ['<s>', '</s>', '<pad>', '<unk>', '<mask>'],
};
const cpLen = (s) => [...s].length;

function run(r) {
  const kind = r.pick(Object.keys(KINDS));
  const n = r.int(1, 24);
  const pick = () => { const x = r.pick(KINDS[kind]); return typeof x === 'string' ? x : String.fromCodePoint(x); };
  return Array.from({ length: kind === 'special' ? Math.ceil(n / 4) : n }, pick).join('');
}

// Where a run may go: the start, the end, or just after a sentence's end (". ", "!\n"), outside entities.
function boundaries(row) {
  const cps = [...row.text];
  const inside = (i) => row.entities.some((e) => e.start < i && i < e.end);
  const at = [0, cps.length];
  for (let i = 2; i < cps.length; i++) if (/\s/.test(cps[i - 1]) && /[.!?:;,]/.test(cps[i - 2])) at.push(i);
  return at.filter((i) => !inside(i));
}

// Its own option reader: importing prose.mjs's would load faker's locales for nothing.
function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : dflt;
}
const r = new V.Rng(9191);
const rows = arg('in').split(',').flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)))
  .filter((row) => row.entities.length);
const count = Number(arg('count', '4000'));
const out = [];
for (let k = 0; k < count; k++) {
  const row = r.pick(rows);
  const at = r.pick(boundaries(row));
  const noise = run(r);
  const cps = [...row.text];
  const shift = cpLen(noise);
  out.push({ text: cps.slice(0, at).join('') + noise + cps.slice(at).join(''), lang: row.lang, kind: 'noisy',
    entities: row.entities.map((e) => (e.start >= at ? { ...e, start: e.start + shift, end: e.end + shift } : e)) });
}
fs.writeFileSync(arg('out'), out.map((x) => JSON.stringify(x)).join('\n') + '\n');
console.error(`${arg('out')}: ${out.length} texts from ${rows.length} labelled ones`);
