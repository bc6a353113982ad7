#!/usr/bin/env node
// make_tokcheck.mjs: the check-tok corpus and its golden outputs from the REFERENCE tokenizer.
//
//   node assets/recipe/corpora/make_tokcheck.mjs [--tokenizer assets/tokenizer/tokenizer.json]
//        [--out assets/corpora] [--n 40003]
//
// Writes (gzip, deterministic bytes), the names common/harness/check-tok.mk looks for:
//   OUT/tokcheck.jsonl.gz         {"text", "kind"} per line
//   OUT/tokcheck.golden.jsonl.gz  {"ids", "tokens", "offsets"} per line, same order: the
//                                 reference's encode(text) with <s>/</s> (offsets [0,0]);
//                                 offsets in Unicode code points
//   OUT/tokcheck.scores.tsv.gz    id <TAB> f64 bits (16 hex digits) <TAB> score as the reference
//                                 writes it <TAB> piece (JSON string), one line per vocabulary
//                                 entry, from the reference's own save() of the tokenizer
//   OUT/tokcheck.manifest.json    counts, sha256 of the tokenizer.json used, reference version
// The C++ tokenizer must reproduce ids, tokens and offsets exactly (see assets/corpora/README.md
// for the offset unit and its traps).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { Rng } from '../corpus/values.mjs';
import { generateSplit } from '../corpus/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// The reference: Hugging Face's tokenizers wheel from PyPI in build/venv (make setup),
// run by common/harness/tokref.py, the same program check-tok runs.
const root = path.resolve(here, '../../..');
const python = process.env.BX_REFERENCE_PYTHON || path.join(root, 'build/venv/bin/python');
const tokref = path.join(root, 'common/harness/tokref.py');

function arg(name, dflt) { const i = process.argv.indexOf('--' + name); return i > 0 ? process.argv[i + 1] : dflt; }
const tokPath = arg('tokenizer', path.resolve(here, '../../tokenizer/tokenizer.json'));
const outDir = arg('out', path.resolve(here, '../../corpora'));
const N = +arg('n', 40003);

// ---------------------------------------------------------------------------------------
// Text makers, one per kind. Each takes the random source and returns one string.
const r = new Rng(777);
const cp = (lo, hi) => String.fromCodePoint(r.int(lo, hi));
const rep = (n, f) => { let s = ''; for (let i = 0; i < n; i++) s += f(); return s; };
const len = () => r.wpick([[4, r.int(1, 8)], [5, r.int(8, 40)], [3, r.int(40, 100)], [1, r.int(100, 250)]]);

const RANGES = [ // [lo, hi, weight]
  [0x20, 0x7e, 8], [0x0, 0x1f, 1], [0x7f, 0x9f, 1], [0xa0, 0xff, 3], [0x100, 0x24f, 3], [0x250, 0x2ff, 1], [0x300, 0x36f, 2],
  [0x370, 0x3ff, 2], [0x400, 0x4ff, 2], [0x530, 0x58f, 1], [0x590, 0x5ff, 1], [0x600, 0x6ff, 2], [0x900, 0x97f, 1],
  [0xe00, 0xe7f, 1], [0x10a0, 0x10ff, 1], [0x1100, 0x11ff, 1], [0x1e00, 0x1eff, 2], [0x2000, 0x206f, 2], [0x2070, 0x209f, 1],
  [0x20a0, 0x20cf, 1], [0x2100, 0x218f, 2], [0x2190, 0x23ff, 1], [0x2460, 0x24ff, 2], [0x2500, 0x27bf, 1], [0x2e80, 0x2fdf, 1],
  [0x3000, 0x303f, 1], [0x3040, 0x30ff, 2], [0x3130, 0x318f, 1], [0x3200, 0x33ff, 2], [0x4e00, 0x9fff, 4], [0xa000, 0xa4cf, 1],
  [0xac00, 0xd7a3, 2], [0xe000, 0xf8ff, 1], [0xf900, 0xfaff, 1], [0xfb00, 0xfb4f, 2], [0xfb50, 0xfdff, 1], [0xfe00, 0xfe0f, 1],
  [0xfe30, 0xfe6f, 1], [0xff00, 0xffef, 3], [0xfff0, 0xfffd, 1], [0x10000, 0x1007f, 1], [0x1d400, 0x1d7ff, 2],
  [0x1f000, 0x1f0ff, 1], [0x1f100, 0x1f1ff, 1], [0x1f300, 0x1faff, 3], [0x20000, 0x2a6df, 1], [0x2f800, 0x2fa1f, 1],
  [0xe0000, 0xe007f, 1], [0xf0000, 0xffffd, 1], [0x100000, 0x10fffd, 1],
];
const RW = RANGES.map(([lo, hi, w]) => [w, [lo, hi]]);
function anyChar() { const [lo, hi] = r.wpick(RW); const c = r.int(lo, hi); return c >= 0xd800 && c <= 0xdfff ? 'a' : String.fromCodePoint(c); }

const EMOJI = ['😀', '😂', '🥲', '😍', '👍', '👎', '🙏', '🔥', '✨', '🎉', '❤', '❤️', '💔', '🤖', '🧠', '🚀', '🌍', '☕', '🍕', '🐍', '🦀',
  '👋🏻', '👋🏼', '👋🏽', '👋🏾', '👋🏿', '👨‍💻', '👩‍🔬', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🏴‍☠️', '🇫🇷', '🇩🇪', '🇪🇸', '🇮🇹', '🇳🇱', '🇬🇧', '🇺🇸', '1️⃣', '#️⃣',
  '©️', '®', '™️', '↔️', '☀️', '⭐', '🫠', '🫶🏽', '🧑🏽‍🤝‍🧑🏻', '🏻', '\u200d', '\ufe0f', '\u{e0067}\u{e0062}'];
const CJK_WORDS = ['東京', '大阪', '北京', '上海', '中文', '日本語', '漢字', '个人信息', '電話番号', '住所', '氏名', '田中太郎', '山田花子',
  'こんにちは', 'ありがとう', 'カタカナ', 'ｶﾀｶﾅ', 'ひらがな', '서울', '한국어', '전화번호', '김민준', '。', '、', '「', '」', '（', '）', '！', '？'];
const NFKC = ['ﬁ', 'ﬂ', 'ﬀ', 'ﬃ', 'ﬄ', 'ﬅ', 'ﬆ', '½', '⅓', '¼', '¾', '⅞', '²', '³', '¹', '⁰', '⁴', '₀', '₁', '₂', 'ª', 'º', 'µ',
  '℃', '℉', '№', '™', '℡', 'Ⅰ', 'Ⅱ', 'Ⅻ', 'ⅰ', 'ⅻ', '①', '②', '⑳', '⒜', '⒈', '㈱', '㍿', '㌔', '㎞', '㎏', '㏄', '㍻', 'ﷺ', 'ﷻ', '﷽',
  'ｶﾞ', 'ﾊﾟ', 'ｱ', '…', '‥', '′', '″', 'Ǆ', 'ǅ', 'Ǉ', 'ŉ', 'ſ', 'ẛ', 'Ω', 'K', 'Å', '︵', '︷', '﹏', '﹐', 'ℌ', 'ℍ', 'ℕ', '𝐀', '𝑎', '𝔸', '𝟘',
  '\u00a0', '\u2002', '\u2003', '\u3000', '\u2009', '\u202f', 'Ꭰ', 'ꭰ', 'İ', 'ı', 'ß', 'ẞ', 'ﾟ', '゛', '゜', 'ゟ', 'ヿ', '〜'];
const toFullwidth = (s) => Array.from(s).map((c) => { const x = c.codePointAt(0); return x > 0x20 && x < 0x7f ? String.fromCodePoint(x + 0xfee0) : x === 0x20 ? '\u3000' : c; }).join('');
const SPECIAL = ['<s>', '</s>', '<pad>', '<unk>', '</pad>', '<mask>', '<S>', '< s >', '<s', 's>', '<<s>>', '</s></s>', '<pad><pad><pad>', '[CLS]', '[SEP]', '<|endoftext|>', '＜s＞', '‹s›'];
const SCRIPTS = [
  ['Москва', 'привет', 'данные', 'Иван', 'Петров'], ['Αθήνα', 'γεια', 'σου', 'Νίκος'], ['مرحبا', 'بيانات', 'محمد', 'القاهرة'],
  ['שלום', 'ירושלים', 'דוד'], ['नमस्ते', 'दिल्ली', 'राहुल'], ['สวัสดี', 'กรุงเทพ'], ['ქართული', 'თბილისი'], ['Հայաստան'],
  ['hello', 'world', 'Paris', 'Zürich', 'São', 'Paulo', 'Łódź', 'Ærøskøbing', 'naïve', 'façade', 'smörgåsbord', 'Dvořák'],
  ['東京', 'ソウル', '北京'], ['email', 'test@example.com', '+33 6 12 34 56 78', 'DE89 3704 0044 0532 0130 00', '192.168.1.1'],
];
const COMBINING = () => String.fromCodePoint(r.pick([0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x30a, 0x30b, 0x30c, 0x327, 0x328, 0x331, 0x338, 0x20d7, 0x1ab0, 0x1dc0, 0xfe20, 0x3099, 0x309a]));
const SPACES = [' ', ' ', ' ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\u2002', '\u2003', '\u2009', '\u200b', '\u200a', '\u205f', '\u1680', '\u000b', '\u000c', '\u0085', '\u2028', '\ufeff'];

let pii = null, piiAt = 0;
function realistic() {
  if (!pii) pii = generateSplit(55, 14000).map((x) => x.text);
  const t = pii[piiAt++ % pii.length];
  if (t.length <= 280) return t;
  const cps = Array.from(t);
  const start = r.int(0, cps.length - 200);
  return cps.slice(start, start + r.int(40, 280)).join('');
}
const words = () => realistic().split(/\s+/).filter(Boolean);

const KINDS = {
  pii: [12000, () => realistic()],
  random: [6000, () => rep(len(), anyChar)],
  cjk: [3000, () => rep(r.int(1, 30), () => r.wpick([[6, () => r.pick(CJK_WORDS)], [3, () => cp(0x4e00, 0x9fff)], [1, () => ' '], [1, () => r.pick(words())]])())],
  emoji: [3000, () => rep(r.int(1, 25), () => r.wpick([[5, () => r.pick(EMOJI)], [3, () => ' '], [3, () => r.pick(words())], [1, () => cp(0x1f300, 0x1faff)]])())],
  nfkc: [4000, () => r.wpick([
    [3, () => toFullwidth(realistic().slice(0, r.int(5, 200)))],
    [4, () => rep(r.int(1, 30), () => r.wpick([[4, () => r.pick(NFKC)], [3, () => r.pick(words())], [2, () => ' '], [1, () => cp(0xff01, 0xff5e)]])())],
    [1, () => realistic().slice(0, 300).replace(/fi|fl|1\/2| /g, (m) => ({ fi: 'ﬁ', fl: 'ﬂ', '1/2': '½', ' ': r.pick([' ', ' ', '\u3000', '\u00a0']) })[m])]])()],
  metaspace: [2000, () => rep(r.int(1, 20), () => r.wpick([[4, () => '▁'], [1, () => '▁▁▁'], [4, () => r.pick(words())], [3, () => ' '], [1, () => '_'], [1, () => '\u2581x']])())],
  special: [2000, () => rep(r.int(1, 16), () => r.wpick([[4, () => r.pick(SPECIAL)], [4, () => r.pick(words())], [3, () => ' '], [1, () => '']])())],
  mixed: [3000, () => rep(r.int(1, 25), () => r.wpick([[6, () => r.pick(r.pick(SCRIPTS))], [4, () => ' '], [1, () => r.pick(['.', ',', '-', '/', ':', '!', '?', '…', '«', '»', '"', "'", '(', ')'])], [1, () => anyChar()]])())],
  whitespace: [3000, () => rep(r.int(1, 24), () => r.wpick([[4, () => r.pick(SPACES).repeat(r.wpick([[5, 1], [3, r.int(2, 5)], [1, r.int(6, 80)]]))], [4, () => r.pick(words())], [1, () => ' '.repeat(r.int(100, 400))]])())],
  repeat: [2000, () => { const u = r.wpick([[3, () => r.pick(['x', 'a', 'e', 'o', 's', '0', '1', '9', '.', '-', '=', '*', 'ab', 'la', 'xx', 'aa', 'ss', 'na'])], [1, () => r.pick(words())], [1, () => anyChar()]])(); return rep(r.int(2, 80), () => u) + (r.chance(0.3) ? ' ' + u.repeat(r.int(1, 9)) : ''); }],
  combining: [2000, () => rep(r.int(1, 30), () => r.wpick([[5, () => (r.chance(0.8) ? r.pick('aeiouncAEIOUNCzs'.split('')) : anyChar()) + rep(r.wpick([[6, 1], [3, 2], [1, r.int(3, 8)]]), COMBINING)], [2, () => ' '], [2, () => r.pick(words()).normalize('NFD')], [1, () => cp(0x1100, 0x1112) + cp(0x1161, 0x1175) + (r.chance(0.5) ? cp(0x11a8, 0x11c2) : '')]])())],
};

function makeTexts() {
  const total = Object.values(KINDS).reduce((a, [n]) => a + n, 0);
  const scale = N / total;
  const out = [];
  for (const [kind, [n, f]] of Object.entries(KINDS)) {
    const k = kind === 'pii' ? N - Object.values(KINDS).slice(1).reduce((a, [m]) => a + Math.round(m * scale), 0) : Math.round(n * scale);
    for (let i = 0; i < k; i++) out.push({ text: f(), kind });
  }
  // Interleave kinds deterministically so any prefix of the file samples every kind.
  for (let i = out.length - 1; i > 0; i--) { const j = r.int(0, i); [out[i], out[j]] = [out[j], out[i]]; }
  return out;
}

// ---------------------------------------------------------------------------------------
const gz = (s) => zlib.gzipSync(Buffer.from(s, 'utf8'), { level: 9 });
const texts = makeTexts();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bx-tokcheck-'));
const corpusFile = path.join(work, 'corpus.jsonl');
const tsvFile = path.join(work, 'scores.tsv');
fs.writeFileSync(corpusFile, texts.map((t) => JSON.stringify(t)).join('\n') + '\n');
const run = spawnSync(python, [tokref, tokPath, corpusFile, '--scores-tsv', tsvFile],
                      { encoding: 'utf8', maxBuffer: 1 << 30 });
if (run.status !== 0) throw new Error(`${python} ${tokref} failed (${run.status}): ${run.stderr}`);
const golden = run.stdout.split('\n').filter((l) => l.length > 0);
if (golden.length !== texts.length) throw new Error(`reference: ${golden.length} encodings for ${texts.length} texts`);
let ntok = 0, nunk = 0;
for (const line of golden) {
  const { ids } = JSON.parse(line);
  ntok += ids.length; nunk += ids.filter((x) => x === 3).length;
}
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'tokcheck.jsonl.gz'), gz(texts.map((t) => JSON.stringify(t)).join('\n') + '\n'));
fs.writeFileSync(path.join(outDir, 'tokcheck.golden.jsonl.gz'), gz(golden.join('\n') + '\n'));

// Scores as the reference holds them: the decimal text of each, as its own tokenizer.json writes it.
const lines = fs.readFileSync(tsvFile, 'utf8').split('\n').filter((l) => l.length > 0);
fs.rmSync(work, { recursive: true });
// Cross-check: the same f64 as our own tokenizer.json gives.
const f64 = new DataView(new ArrayBuffer(8));
const ours = JSON.parse(fs.readFileSync(tokPath, 'utf8')).model.vocab;
let differ = 0;
lines.forEach((l, i) => { f64.setFloat64(0, ours[i][1]); if (f64.getBigUint64(0).toString(16).padStart(16, '0') !== l.split('\t')[1]) differ++; });
fs.writeFileSync(path.join(outDir, 'tokcheck.scores.tsv.gz'), gz(lines.join('\n') + '\n'));
const version = spawnSync(python, ['-c', 'import tokenizers; print(tokenizers.__version__)'], { encoding: 'utf8' }).stdout.trim();

const counts = {};
for (const t of texts) counts[t.kind] = (counts[t.kind] || 0) + 1;
const manifest = {
  tokenizer_sha256: crypto.createHash('sha256').update(fs.readFileSync(tokPath)).digest('hex'),
  reference: `tokenizers ${version} (Hugging Face, PyPI wheel)`,
  texts: texts.length, tokens: ntok, unk_tokens: nunk, kinds: counts,
  offsets: 'Unicode code points of the text, end exclusive; <s> and </s> are [0,0]',
  scores: lines.length, scores_differing_from_tokenizer_json: differ,
};
fs.writeFileSync(path.join(outDir, 'tokcheck.manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.error(JSON.stringify(manifest));
