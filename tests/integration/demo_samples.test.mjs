// ctest-labels: integration;wasm;model
// `make demo` is the first thing a newcomer runs: its five samples (assets/corpora/demo.txt) must
// come back exactly right through POST /redact of the stage the demo serves (the last one). Each
// sample's personal data is listed below by hand; the answer's "redacted" must equal the sample
// with exactly those strings replaced and every other character kept: no PII left, no ordinary
// word redacted, no punctuation swallowed by an entity. Labels are not compared (a name's two
// halves may come back as one entity or two: placeholders separated only by spaces count as one).
//
// The check can fail: BX_DEMO_MUTATE=forget-pii drops the last listed string of every sample from
// what is expected, so the service's (right) redaction of it reads as an ordinary word redacted.
// CTest's "node: demo_samples mutant is caught" runs it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, stageNames } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';

process.env.BX_REDACT_STAGE ??= stageNames().at(-1);
const { checkAnswer, component, postRedact, stage } = await import('./redact_lib.mjs');

// The personal data of each line of demo.txt, in order of appearance.
const PII = [
  ['Laura', 'Bennett', '(415) 555-0132', 'laura.bennett@outlook.com'],
  ['Markus', 'Schmidt', 'DE89 3704 0044 0532 0130 00'],
  ['Sophie', 'Martin', '12', 'rue de la République', '13001', 'Marseille'],
  ['4539 5787 6362 1486', 'Pablo', 'García', '83.44.197.12'],
  [],
];
const FORGET = process.env.BX_DEMO_MUTATE === 'forget-pii';

const PLACEHOLDER = '\u0000';
const merged = (s) => s.replace(new RegExp(`${PLACEHOLDER}(?:\\s+${PLACEHOLDER})+`, 'gu'), PLACEHOLDER);
// The sample with each listed string, searched left to right, replaced by one placeholder.
function expectedRedaction(text, pii) {
  let out = '', rest = text;
  for (const s of pii) {
    const at = rest.indexOf(s);
    assert.ok(at >= 0, `"${s}" is not in "${text}" after the strings before it`);
    out += rest.slice(0, at) + PLACEHOLDER;
    rest = rest.slice(at + s.length);
  }
  return merged(out + rest);
}

const samples = readFileSync(path.join(root, 'assets/corpora/demo.txt'), 'utf8').split('\n').filter((l) => l.trim());
let server;
before(async () => { server = await startServer(component); });
after(async () => { if (server) await server.stop(); });

test(`the demo's samples come back with exactly their personal data redacted (${stage})`, { timeout: 300_000 }, async () => {
  assert.equal(samples.length, PII.length, 'demo.txt and the lists here must have one line each');
  const faults = [], faulty = [];
  for (const [i, text] of samples.entries()) {
    const res = await postRedact(server.url, JSON.stringify({ text }));
    assert.equal(res.status, 200);
    const answer = await res.json();
    checkAnswer(text, answer);
    const expected = expectedRedaction(text, FORGET ? PII[i].slice(0, -1) : PII[i]);
    const got = merged(answer.redacted.replace(/\[[A-Z_]+\]/g, PLACEHOLDER));
    if (got !== expected) {
      faulty.push(i + 1);
      faults.push(`sample ${i + 1}: expected ${JSON.stringify(expected.replaceAll(PLACEHOLDER, '[…]'))}\n` +
        `            got      ${JSON.stringify(got.replaceAll(PLACEHOLDER, '[…]'))} (${answer.redacted})`);
    }
  }
  if (faulty.length) console.log(`faulty samples: ${JSON.stringify(faulty)}`);
  assert.deepEqual(faults, [], `the demo redacts something other than its personal data:\n${faults.join('\n')}`);
});
