// ctest-labels: integration;wasm;model
// Characters that render as nothing, inside the words of PII sentences, must
// not let any of the PII through: what a reader reads as a name is redacted.
//
// A web page's soft hyphens, a PDF's zero-width spaces, a word processor's
// joiners: "An\u00ADna We\u200Bber" renders as "Anna Weber". The service takes
// every Default_Ignorable code point out of what the model reads
// (common/service/visible_text.hpp); this test generates the cases.
//
// Classes: the runs of consecutive Default_Ignorable code points in Node's
// Unicode data (the soft hyphen, the combining grapheme joiner, the zero-width
// characters and bidi marks, the word joiner and invisible operators,
// variation selectors, the BOM, Hangul fillers, tag characters, ...), each a
// class of its own. Placements, inside every word of two or more letters or
// digits of the sentence: one character at a random inner position ("once"),
// a run of 2 to 8 at one inner position ("repeated"), or one between every
// two characters of each word ("every"). Each case is a sentence whose PII is
// listed; no listed string may be readable in "redacted" once the invisible
// characters are taken out of it.
//
// The cases are packed several to a text (each text one window of the model
// once the invisible characters are out), so that stage 00 runs them all in
// minutes; every text goes through stage 00 and the last stage, whose answers
// must also be the same.
//
// BX_INVISIBLE_CLI=FILE runs the cases through another CLI alone: CTest's
// mutant run gives it the last stage built with the removal switched off
// (cli-ignorables-mutant.wasm), which must leak.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nodeTools, root, stageNames, wasmBuild } from './lib/env.mjs';
import { redactAll, shown } from './redact_lib.mjs';
import { generator } from '../../bench/lib/random.mjs';

const require = createRequire(import.meta.url);
const { Tokenizer } = require(path.join(nodeTools, 'node_modules/@anush008/tokenizers'));
const tokenizer = Tokenizer.fromFile(path.join(root, 'assets/tokenizer/tokenizer.json'));

const stages = stageNames();
const cliOf = (stage) => path.join(wasmBuild, 'stages', stage, 'cli.wasm');
const mutantCli = process.env.BX_INVISIBLE_CLI;
const ROUNDS = Number(process.env.BX_INVISIBLE_ROUNDS ?? 4);

// Sentences in the six languages, each with the strings a reader would read
// as personal data.
const SENTENCES = [
  { text: 'Call Anna Weber on 030 1234567.', pii: ['Anna', 'Weber', '030 1234567'] },
  { text: 'La tarjeta 4539 5787 6362 1486 es de Pablo García.', pii: ['4539 5787 6362 1486', 'Pablo', 'García'] },
  { text: 'Please send the refund to Emily Clarke at IBAN GB29 NWBK 6016 1331 9268 19.',
    pii: ['Emily', 'Clarke', 'GB29 NWBK 6016 1331 9268 19'] },
  { text: "Hi, I'm Laura Bennett. Write to laura.bennett@outlook.com.", pii: ['Laura', 'Bennett', 'laura.bennett@outlook.com'] },
  { text: 'Bitte überweisen Sie 250 € an Markus Schmidt, IBAN DE89 3704 0044 0532 0130 00.',
    pii: ['Markus', 'Schmidt', 'DE89 3704 0044 0532 0130 00'] },
  { text: "Je m'appelle Sophie Martin et j'habite au 12 rue de la République, 13001 Marseille.",
    pii: ['Sophie', 'Martin', '12 rue de la République', '13001', 'Marseille'] },
  { text: 'Il signor Giuseppe Rossi abita in Via Roma 15, 00184 Roma.', pii: ['Giuseppe', 'Rossi', 'Via Roma 15', '00184'] },
  { text: 'Mijn naam is Daan de Vries, bel me op 06 12345678.', pii: ['Daan', 'de Vries', '06 12345678'] },
  { text: 'The server at 83.44.197.12 was opened by Michael Johnson.', pii: ['83.44.197.12', 'Michael', 'Johnson'] },
  { text: 'Contact Maria Schneider at maria.schneider@gmail.com today.', pii: ['Maria', 'Schneider', 'maria.schneider@gmail.com'] },
];

// The classes: runs of consecutive Default_Ignorable code points.
function classes() {
  const out = [];
  const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (!ignorable.test(String.fromCodePoint(cp))) continue;
    const last = out.at(-1);
    if (last && last.last === cp - 1) { last.last = cp; last.members.push(String.fromCodePoint(cp)); }
    else out.push({ first: cp, last: cp, members: [String.fromCodePoint(cp)] });
  }
  return out.map((c) => ({ ...c, name: `U+${c.first.toString(16).toUpperCase().padStart(4, '0')}` +
                                        (c.last > c.first ? `..${c.last.toString(16).toUpperCase()}` : '') }));
}

const WORD = /[\p{L}\p{N}]{2,}/gu;
const PLACEMENTS = ['once', 'repeated', 'every'];

// `text` with invisible characters (drawn by `draw`) inside each of its words.
function hide(text, placement, random, draw) {
  return text.replace(WORD, (word) => {
    const chars = [...word];
    if (placement === 'every') return chars.map((c, i) => (i === 0 ? c : draw() + c)).join('');
    const at = 1 + Math.floor(random() * (chars.length - 1));
    const run = placement === 'once' ? draw() : Array.from({ length: 2 + Math.floor(random() * 7) }, draw).join('');
    return chars.slice(0, at).join('') + run + chars.slice(at).join('');
  });
}

function makeCases() {
  const random = generator(58);
  const cases = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const cls of classes()) {
      const draw = () => cls.members[Math.floor(random() * cls.members.length)];
      for (const placement of PLACEMENTS) {
        for (const s of SENTENCES) {
          cases.push({ cls: cls.name, placement, text: hide(s.text, placement, random, draw), pii: s.pii, clean: s.text });
        }
      }
    }
  }
  return cases;
}

// Packs cases into texts, one per line, each text's visible form at most
// `budget` content tokens (one window holds 254) and no sentence twice in one
// text: a text that says the same thing twice is not one a user sends, and the
// model reads a repeated sentence otherwise (it left the first "Johnson" of
// two copies of the same sentence O).
async function pack(cases, budget = 240) {
  const tokens = new Map();
  for (const c of cases) if (!tokens.has(c.clean)) tokens.set(c.clean, (await tokenizer.encode(c.clean)).getIds().length - 2);
  const texts = [];
  for (const c of cases) {
    let t = texts.find((x) => x.tokens + tokens.get(c.clean) <= budget && !x.parts.some((p) => p.clean === c.clean));
    if (!t) texts.push((t = { parts: [], tokens: 0 }));
    t.parts.push(c);
    t.tokens += tokens.get(c.clean);
  }
  return texts.map((t) => ({ cases: t.parts, text: t.parts.map((c) => c.text).join('\n') }));
}

const visible = (s) => s.replace(/\p{Default_Ignorable_Code_Point}/gu, '');

// Every listed PII string of each case must be gone from the text's answer.
// The answer's lines are the cases' lines (an entity never spans a newline:
// words break at White_Space).
function leaks(packed, answers) {
  const out = [];
  packed.forEach((p, i) => {
    const lines = visible(answers[i].redacted).split('\n');
    assert.equal(lines.length, p.cases.length, `one line per case in ${shown(answers[i].redacted)}`);
    p.cases.forEach((c, k) => {
      for (const s of c.pii) {
        if (lines[k].includes(s)) out.push({ c, s, line: lines[k] });
      }
    });
  });
  return out;
}

const caseCount = (packed) => packed.reduce((n, p) => n + p.cases.length, 0);

function report(where, packed, found) {
  const byClass = {};
  for (const { c } of found) byClass[c.cls] = (byClass[c.cls] ?? 0) + 1;
  const strings = packed.reduce((n, p) => n + p.cases.reduce((m, c) => m + c.pii.length, 0), 0);
  console.log(`${where}: ${caseCount(packed)} cases in ${packed.length} texts, ${strings} PII strings, ` +
              `${found.length} readable${found.length ? ` ${JSON.stringify(byClass)}` : ''}`);
  const shownCount = Number(process.env.BX_INVISIBLE_SHOW ?? 8);
  return found.slice(0, shownCount).map(({ c, s, line }) => `readable: ${shown(s)} (${c.cls}, ${c.placement}) in ${shown(line)}`);
}

if (mutantCli) {
  test(`inside-word cases through ${path.relative(root, mutantCli)}: no PII string readable`, async () => {
    const packed = await pack(makeCases());
    const found = leaks(packed, redactAll(mutantCli, packed.map((p) => p.text)));
    assert.equal(found.length, 0, report('mutant', packed, found).join('\n'));
  });
} else {
  test(`inside-word cases at ${stages[0]} and ${stages.at(-1)}: no PII string readable, the same answers`, async () => {
    const packed = await pack(makeCases());
    assert.ok(caseCount(packed) >= 2000, `${caseCount(packed)} cases`);
    const classCount = new Set(packed.flatMap((p) => p.cases.map((c) => c.cls))).size;
    assert.equal(classCount, classes().length, 'every class has cases');
    // The model must find every listed string in the texts as they read without the invisible
    // characters; a string it misses there is the model's miss (assets/model/REPORT.md measures
    // those), not something an invisible character let through.
    const clean = packed.map((p) => ({ cases: p.cases.map((c) => ({ ...c, text: c.clean })), text: p.cases.map((c) => c.clean).join('\n') }));
    const missed = report(`${stages.at(-1)}, the texts without their invisible characters`, clean,
                          leaks(clean, redactAll(cliOf(stages.at(-1)), clean.map((p) => p.text))));
    assert.deepEqual(missed, [], 'the model misses PII in the visible texts themselves');
    const texts = packed.map((p) => p.text);
    const answers = Object.fromEntries([stages[0], stages.at(-1)].map((s) => [s, redactAll(cliOf(s), texts)]));
    const faults = [];
    for (const [stage, got] of Object.entries(answers)) faults.push(...report(stage, packed, leaks(packed, got)));
    assert.deepEqual(faults, []);
    const [first, last] = Object.values(answers);
    first.forEach((a, i) => assert.equal(JSON.stringify(last[i]), JSON.stringify(a), `text ${i}: the stages answer differently`));
  });
}
