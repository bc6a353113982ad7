#!/usr/bin/env node
// make_equivalence.mjs: the equivalence corpus, assets/corpora/equivalence.jsonl.
//
//   node assets/recipe/corpora/make_equivalence.mjs [--out assets/corpora/equivalence.jsonl]
//
// Every stage must give bit-identical logits on these texts. They are meant to reach every
// corner of the tokenizer and the windowing, not to be realistic: one line per text, {"text"},
// of every length from nothing to several 256-token windows, in all corpus languages, with
// Unicode edge cases (CJK, emoji and ZWJ sequences, fullwidth forms, ligatures, combining marks,
// a literal ▁, special tokens written as text, whitespace-only texts, control characters).
// Deterministic: a fixed seed, no clock.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import { Rng } from '../corpus/values.mjs';
import { generateSplit } from '../corpus/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? process.argv[outArg + 1] : path.resolve(here, '../../corpora/equivalence.jsonl');

// Hand-picked edge cases (written out, not generated).
const EDGE = [
  '', ' ', '  ', '\n', '\t', ' \n\t ', '\r\n', '.', 'a', 'A', '0', '▁', '▁▁', ' ▁ ', '▁hello', 'hello▁world',
  '<s>', '</s>', '<pad>', '</pad>', '<unk>', '<mask>', '<s></s>', '<s> Hello </s>', 'text <pad><pad> text', '＜s＞',
  'Ｈｅｌｌｏ　Ｗｏｒｌｄ！', 'ＡＢＣ１２３', 'ﬁnance ﬂower ﬀ ﬃ', '½ ¼ ¾ ⅞', '² ³ ¹ ⁴', '㍿ ㌔ ㎞ ㏄', 'Ⅻ ⅻ ℃ ℉ № ™',
  'e\u0301te\u0301', 'n\u0303', 'a\u0300\u0301\u0302\u0303', 'Z\u0351\u0352\u0353\u0354a\u0355\u0356lgo', '\u0301 starts with a mark',
  '東京都千代田区丸の内1-9-1', '北京市海淀区', '서울특별시 강남구', 'こんにちは、世界。カタカナ ﾊﾝｶｸ',
  '😀', '😀😀😀', '👍🏽 ok', '👨‍👩‍👧‍👦 family', '🇫🇷🇩🇪🇪🇸🇮🇹', '❤️ love', '🏳️‍🌈', 'call me 📞 +33 6 12 34 56 78 😊',
  '𝐁𝐨𝐥𝐝 𝑰𝒕𝒂𝒍𝒊𝒄 𝔉𝔯𝔞𝔨𝔱𝔲𝔯', '𝟙𝟚𝟛 𝟘', '\u{10FFFD}', '\u{1F600}\u{E0067}',
  'مرحبا بالعالم', 'שלום עולם', 'Привет, мир! Москва', 'Γειά σου Κόσμε', 'नमस्ते दुनिया', 'สวัสดีชาวโลก', 'Ελληνικά and English and 中文',
  'zero\u200bwidth', 'no\u00a0break\u00a0space', 'soft\u00adhyphen', '\ufeffBOM at start', 'replacement \ufffd char', 'word\u2028line\u2029para',
  'ctrl\u0001\u0002\u0003chars', 'bell\u0007 and\u001b[0m escape', 'del\u007f', 'nul\u0000byte', 'next\u0085line', 'tab\tseparated\tvalues',
  'a' + ' '.repeat(40) + 'b', ' '.repeat(300), '\n'.repeat(50), 'x'.repeat(600), '😀'.repeat(300), '中'.repeat(400), 'ab '.repeat(200),
  'Ǆ ǅ ǆ ŉ İ ı ß ẞ ﬅ', 'Å Å Ω Ω K K', 'İstanbul\u0307', '\u2126\u212b\u212a',
  'email: JOSÉ.GARCÍA@EXAMPLE.ES', 'ＩＢＡＮ： ＤＥ８９ ３７０４ ００４４ ０５３２ ０１３０ ００', 'Tél.\u00a0: 06\u00a012\u00a034\u00a056\u00a078',
  '4111\u20091111\u20091111\u20091111', 'http://例え.テスト/パス?q=値', 'user@bücher.de', '192.168.0.1\u200b', '2001:db8::1%eth0',
];

// A character from a mix of ranges, astral ones included.
function randomChar(r) {
  const ranges = [
    [0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x6ff], [0x900, 0x97f],
    [0xe00, 0xe7f], [0x1e00, 0x1eff], [0x2000, 0x206f], [0x2100, 0x218f], [0x2460, 0x24ff], [0x3000, 0x30ff],
    [0x3300, 0x33ff], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfb00, 0xfb4f], [0xfe30, 0xfe4f],
    [0xff00, 0xffef], [0x1d400, 0x1d7ff], [0x1f300, 0x1faff], [0x20000, 0x2a6df], [0x0, 0x1f],
  ];
  const [lo, hi] = r.pick(ranges);
  let cp = r.int(lo, hi);
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x41;
  return String.fromCodePoint(cp);
}
const randomText = (r, n) => { let s = ''; for (let i = 0; i < n; i++) s += r.chance(0.15) ? ' ' : randomChar(r); return s; };

// Insert edge-case characters into a realistic text at code-point boundaries.
function sprinkle(r, text) {
  const cps = Array.from(text);
  const k = r.int(1, 6);
  for (let i = 0; i < k; i++) {
    const at = r.int(0, cps.length);
    const what = r.pick(['▁', '<s>', '</s>', '<pad>', '😀', '👍🏽', '　', 'ｆｕｌｌ', 'ﬁ', 'e\u0301', '\u200b', '\u00a0', '   ', '\t', '中文', '½', '\u0007', randomChar(r)]);
    cps.splice(at, 0, what);
  }
  return cps.join('');
}

const r = new Rng(4242);
const texts = [...EDGE];
// Realistic texts of every length, all languages (a corpus split of its own: seed 44).
// Most of them fit one window, to keep a check run short; the long ones come further down.
const realistic = generateSplit(44, 1100).map((x) => x.text);
for (let i = 0; i < 700; i++) if (realistic[i].length < 900 || i % 8 === 0) texts.push(realistic[i]);
const nRealistic = texts.length - EDGE.length;
// Single words and very short texts (one or two tokens).
for (let i = 0; i < 60; i++) {
  const words = realistic[700 + i].split(/\s+/).filter(Boolean);
  texts.push(words.length ? r.pick(words) : 'x');
}
// Realistic texts with edge cases sprinkled in.
for (let i = 0; i < 150; i++) texts.push(sprinkle(r, realistic[760 + i]));
// Random code points, short and long.
for (let i = 0; i < 100; i++) texts.push(randomText(r, r.wpick([[5, r.int(1, 10)], [4, r.int(10, 200)], [1, r.int(200, 1500)]])));
// Long texts: several 256-token windows (about 4 characters a token).
for (let i = 0; i < 24; i++) {
  let s = '';
  const target = r.int(1100, 6000);
  let j = 910 + i * 7;
  while (s.length < target) s += (s ? r.pick(['\n\n', ' ', '\n']) : '') + realistic[j++ % realistic.length];
  texts.push(s);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, texts.map((t) => JSON.stringify({ text: t })).join('\n') + '\n');
console.error(`${out}: ${texts.length} texts (${EDGE.length} edge cases, ${nRealistic} realistic, 60 words, 150 sprinkled, 100 random, 24 long)`);
