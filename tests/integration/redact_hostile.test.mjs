// ctest-labels: integration;wasm;model
// Hostile characters around PII must not move what gets redacted.
//
// The cases are generated, not picked: runs of characters drawn from whole
// Unicode categories (Cc controls, Cf format characters, Mn combining marks,
// Zs spaces, compatibility forms that NFKC rewrites) and the special-token
// strings (<s>, </s>, <pad>, <mask>, <unk>), placed after, around and between
// sentences full of PII. Each case has a clean twin: the same text without the
// run. All cases go through the last stage's `cli redact --tokens` in one
// process (seeded, so every run makes the same cases), and every answer must
// hold two properties:
//
//   reads true  each entity's text, normalised by the reference tokenizer's
//               own normaliser, holds the text of every labelled token that
//               starts in it (the entity is made of what the model read; a
//               token's sentence punctuation past the entity's end aside);
//   no leak     when the model labelled the same tokens as in the twin (same
//               pieces, same labels, in order), no string the twin's answer
//               redacts is left in the case's "redacted" more often than in
//               the twin's: the run must not shift what is hidden.
// Where the run changed what the model read (a combining mark, a fullwidth
// letter or a typed <s> is a different token; a tab or vertical tab a
// different space), the model may label otherwise: such cases are counted
// and printed, and "reads true" still holds for them.
//
// Two requests that once leaked also go through POST /redact and `cli redact`
// at stage 00 and at the last stage.
//
// BX_HOSTILE_CLI=FILE runs the cases through another CLI: CTest's mutant run
// gives it the last stage built with the kept-range mutation (Hugging Face's
// offsets after a deleted character), which must leak.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nodeTools, root, stageNames, wasmBuild } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import { postRedact, redactAll, shown } from './redact_lib.mjs';
import { generator } from '../../bench/lib/random.mjs';

const require = createRequire(import.meta.url);
const { Tokenizer } = require(path.join(nodeTools, 'node_modules/@anush008/tokenizers'));
const normalizer = Tokenizer.fromFile(path.join(root, 'assets/tokenizer/tokenizer.json')).getNormalizer();

const stages = stageNames();
const first = stages[0];
const last = stages.at(-1);
const cliOf = (stage) => path.join(wasmBuild, 'stages', stage, 'cli.wasm');
const hostileCli = process.env.BX_HOSTILE_CLI ?? cliOf(last);

const SENTENCES = [
  'Call Anna Weber on 030 1234567.',
  'my name is Anna Weber and my IBAN is DE89 3704 0044 0532 0130 00.',
  "Hi, I'm Laura Bennett. Call me on (415) 555-0132 or write to laura.bennett@outlook.com.",
  'Bitte überweisen Sie 250 € an Markus Schmidt, IBAN DE89 3704 0044 0532 0130 00, bis Freitag.',
  "Je m'appelle Sophie Martin et j'habite au 12 rue de la République, 13001 Marseille.",
  'La tarjeta 4539 5787 6362 1486 de Pablo García fue rechazada desde la IP 83.44.197.12.',
];
const CASES_PER_CATEGORY = Number(process.env.BX_HOSTILE_PER_CATEGORY ?? 340);
const LAYOUTS = ['after', 'spaced', 'around', 'between'];

// Every code point of each category, from the Unicode data Node carries.
function categories() {
  const tests = { Cc: /^\p{Cc}$/u, Cf: /^\p{Cf}$/u, Mn: /^\p{Mn}$/u, Zs: /^\p{Zs}$/u };
  const out = { Cc: [], Cf: [], Mn: [], Zs: [], compat: [] };
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    let found = false;
    for (const [name, re] of Object.entries(tests)) {
      if (re.test(c)) { out[name].push(c); found = true; break; }
    }
    // Compatibility forms: assigned characters that NFKC writes otherwise
    // (fullwidth letters, ligatures, fractions, circled digits, ...).
    if (!found && /^\P{Cn}$/u.test(c) && c.normalize('NFKC') !== c && c.normalize('NFC') === c) out.compat.push(c);
  }
  out.special = ['<s>', '</s>', '<pad>', '<mask>', '<unk>'];
  return out;
}

function makeCases() {
  const random = generator(37);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const cases = [];
  for (const [category, members] of Object.entries(categories())) {
    for (let i = 0; i < CASES_PER_CATEGORY; i++) {
      const length = i % 8 === 0 ? 40 : 1 + Math.floor(random() * 40);
      let run = '';
      for (let k = 0; k < length; k++) run += pick(members);
      const s = pick(SENTENCES);
      const layout = LAYOUTS[i % LAYOUTS.length];
      let text, twin;
      if (layout === 'after') { text = run + s; twin = s; }
      else if (layout === 'spaced') { text = `${run} ${s}`; twin = ` ${s}`; }
      else if (layout === 'around') { text = run + s + run; twin = s; }
      else {
        const s2 = pick(SENTENCES);
        text = `${s} ${run}${s2}`;
        twin = `${s} ${s2}`;
      }
      cases.push({ category, layout, length, text, twin });
    }
  }
  return cases;
}

// common/service/entities.cpp: is_sentence_punctuation, and the closing brackets and quotes of kPairs
// (one the entity did not open is the sentence's too).
const SENTENCE_PUNCTUATION = /^[.,;:!?\u3002\u3001\uFF0E\uFF0C\uFF1B\uFF1A\uFF01\uFF1F\u2026)\]}\u00BB\u203A\u201D\u201C\u2019\u2018"'\uFF09\uFF3D\u300D\u300F\u3011\u300B\u3009]+$/u;

// What the model labelled, in order, without positions.
const readingOf = (answer) => JSON.stringify((answer.tokens ?? []).map(([, , token, label]) => [token, label]));
const squeeze = (s) => s.replace(/[\s\u2581]+/gu, '');
// The faults of one case's answer against its twin's, as sentences.
function faults(c, answer, twinAnswer) {
  const out = [];
  if (!answer.redacted) return [`no answer: ${JSON.stringify(answer).slice(0, 300)}`];
  const sameReading = readingOf(answer) === readingOf(twinAnswer);
  // A string the twin hid must not be left more often than the twin left it.
  const count = (haystack, needle) => haystack.split(needle).length - 1;
  for (const e of sameReading ? twinAnswer.entities : []) {
    if (count(answer.redacted, e.text) > count(twinAnswer.redacted, e.text)) {
      out.push(`leak: ${shown(e.text)} (${e.label}) is still in "redacted" ${shown(answer.redacted)}`);
    }
  }
  const chars = [...c.text];
  for (const e of answer.entities) {
    // The model read the entity without its invisible characters (visible_text.hpp).
    const read = squeeze(normalizer.normalizeString(e.text.replace(/\p{Default_Ignorable_Code_Point}/gu, '')));
    for (const [start, end, token] of answer.tokens) {
      // The tokens inside the entity. One that runs past its end is the
      // entity's only when what lies past is the sentence's punctuation
      // ("67." of "030 1234567."), which the entity leaves out on purpose;
      // otherwise it is a span of its own (another label, or a fragment the
      // entity rules drop), as is one that starts before the entity.
      if (start < e.start || start >= e.end) continue;
      if (end > e.end && !SENTENCE_PUNCTUATION.test(chars.slice(e.end, end).join(''))) continue;
      const t = end > e.end ? squeeze(token).replace(/\p{P}+$/u, '') : squeeze(token);
      if (t && !read.includes(t)) {
        out.push(`entity ${shown(e.text)} reads ${shown(read)}, not the token ${shown(token)} labelled in it (${shown(chars.slice(start, end).join(''))})`);
      }
    }
  }
  return out;
}

test(`${CASES_PER_CATEGORY} generated cases per category: no leak, every entity reads as its tokens (${path.relative(root, hostileCli)})`, () => {
  const cases = makeCases();
  const twins = [...new Set(cases.map((c) => c.twin))];
  const answers = redactAll(hostileCli, [...twins, ...cases.map((c) => c.text)]);
  const twinAnswer = new Map(twins.map((t, i) => [t, answers[i]]));
  const byCategory = {};
  const examples = [];
  let failed = 0;
  cases.forEach((c, i) => {
    const answer = answers[twins.length + i];
    const found = faults(c, answer, twinAnswer.get(c.twin));
    const tally = (byCategory[c.category] ??= { cases: 0, failed: 0, read_otherwise: 0 });
    tally.cases++;
    if (readingOf(answer) !== readingOf(twinAnswer.get(c.twin))) tally.read_otherwise++;
    if (found.length) {
      tally.failed++;
      failed++;
      if (examples.length < 8) examples.push(`${c.category}/${c.layout} x${c.length} ${shown(c.text)}: ${found[0]}`);
    }
  });
  console.log(`hostile cases: ${cases.length}, ${failed} with a fault; ${JSON.stringify(byCategory)}`);
  if (!process.env.BX_HOSTILE_PER_CATEGORY) assert.ok(cases.length >= 2000);
  assert.equal(failed, 0, `cases with a fault:\n${examples.join('\n')}`);
});

// Two requests that once leaked (runs of U+0001 before the PII), at stage 00 and at the last stage, through the
// CLI and through POST /redact: none of the PII may stay in "redacted".
const LEAKED_TEXTS = [
  { text: '\u0001'.repeat(40) + 'Call Anna Weber on 030 1234567.', pii: ['Anna', 'Weber', '030 1234567'] },
  { text: `Hello <s>${'\u0001'.repeat(20)}my name is Anna Weber and my IBAN is DE89 3704 0044 0532 0130 00.`,
    pii: ['Anna', 'Weber', 'DE89 3704 0044 0532 0130 00'] },
];
const noPii = (answer, pii, where) => {
  for (const p of pii) assert.ok(!answer.redacted.includes(p), `${where}: ${shown(p)} left in ${shown(answer.redacted)}`);
};

for (const stage of process.env.BX_HOSTILE_CLI ? [] : [first, last]) {
  test(`${stage}: the two requests that once leaked, through cli redact and POST /redact`, async () => {
    const answers = redactAll(cliOf(stage), LEAKED_TEXTS.map((t) => t.text));
    LEAKED_TEXTS.forEach((t, i) => noPii(answers[i], t.pii, `${stage} cli`));
    const server = await startServer(path.join(wasmBuild, 'stages', stage, 'component.wasm'));
    try {
      for (const t of LEAKED_TEXTS) {
        const res = await postRedact(server.url, JSON.stringify({ text: t.text }));
        assert.equal(res.status, 200);
        noPii(await res.json(), t.pii, `${stage} POST /redact`);
      }
    } finally {
      await server.stop();
    }
  });
}
