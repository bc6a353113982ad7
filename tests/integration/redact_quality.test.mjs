// ctest-labels: integration;wasm;model
// Does the served model find the personal data in the eval texts? Each text of
// assets/corpora/eval.jsonl lists, by hand, the PII strings in it ("pii"; the
// no-PII sentence lists none). Served with a fresh instance per request, POST
// /redact must answer every text consistently, and its entities must cover at
// least BX_QUALITY_MIN (default 0.85, the recipe's bar for hand-written text)
// of the listed strings. Spurious entities (overlapping no listed string) are
// counted and reported, not bounded. Written to build/redact-eval-<stage>.json
// with the answers, what was missed, and where it ran (so `make test` leaves the
// tree clean); the committed bench/results/redact-eval-00-naive.json comes from
//   BX_QUALITY_OUT=bench/results/redact-eval-00-naive.json node tests/integration/redact_quality.test.mjs
// Labelled `model`: it measures the weights, not the code.
//
// Every answer must also be consistent with its text (checkAnswer), which
// includes: no entity starts or ends inside a word (tests/integration/lib/words.mjs).
//
// The checks can fail: BX_QUALITY_MUTATE=off-by-one scores every entity one code
// point to the right (an offset bug in the service) and must fail the share;
// BX_QUALITY_MUTATE=cut-word drops the last code point of every longer entity
// before the answer is checked and must fail the word rule. CTest's
// "node: redact_quality mutant is caught" and "... mutant cut-word ..." run them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import { checkAnswer, component, detection, evalRows, postRedact, provenance, stage } from './redact_lib.mjs';

const MIN = Number(process.env.BX_QUALITY_MIN || 0.85);
const MUTATE = process.env.BX_QUALITY_MUTATE === 'off-by-one';
const CUT_WORD = process.env.BX_QUALITY_MUTATE === 'cut-word';

// The answer with the last code point of every entity longer than one cut off,
// the text and the redaction kept consistent (the cut-word mutant).
function cutEntityEnds(text, answer) {
  const cps = [...text];
  const entities = answer.entities.map((e) => (e.end - e.start > 1
    ? { ...e, end: e.end - 1, text: cps.slice(e.start, e.end - 1).join('') } : e));
  let redacted = '';
  let copied = 0;
  for (const e of entities) { redacted += cps.slice(copied, e.start).join('') + `[${e.label}]`; copied = e.end; }
  redacted += cps.slice(copied).join('');
  return { ...answer, entities, redacted };
}
const OUT = process.env.BX_QUALITY_OUT ||
  path.join(root, 'build', `redact-eval-${stage}${MUTATE || CUT_WORD ? '-mutant' : ''}.json`);

let server;
before(async () => { server = await startServer(component); });
after(async () => { if (server) await server.stop(); });

test(`POST /redact finds the eval texts' PII (${stage})`, { timeout: 600_000 }, async () => {
  const loadBefore = os.loadavg()[0];
  const texts = [];
  for (const row of evalRows()) {
    const res = await postRedact(server.url, JSON.stringify({ text: row.text }));
    assert.equal(res.status, 200);
    const answer = await res.json();
    checkAnswer(row.text, CUT_WORD ? cutEntityEnds(row.text, answer) : answer);
    const scored = MUTATE ? answer.entities.map((e) => ({ ...e, start: e.start + 1, end: e.end + 1 })) : answer.entities;
    const d = detection(row.text, row.pii ?? [], scored);
    texts.push({
      text: row.text, redacted: answer.redacted,
      entities: answer.entities.map((e) => `${e.label}: ${e.text}`),
      pii: d.pii, detected: d.detected, missed: d.missed, spurious: d.spurious.map((e) => `${e.label}: ${e.text}`),
    });
  }
  const pii = texts.reduce((n, t) => n + t.pii, 0);
  const detected = texts.reduce((n, t) => n + t.detected, 0);
  const spurious = texts.reduce((n, t) => n + t.spurious.length, 0);
  const result = {
    stage,
    what: 'POST /redact on assets/corpora/eval.jsonl: listed PII strings covered by entities, spurious entities',
    ...provenance(loadBefore),
    pii, detected, detected_share: Number((detected / pii).toFixed(4)), spurious,
    texts,
  };
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');
  console.log(`wrote ${path.relative(root, OUT)}: ${detected}/${pii} PII strings detected ` +
              `(${(100 * detected / pii).toFixed(1)}%), ${spurious} spurious entities`);
  for (const t of texts) if (t.missed.length) console.log(`  missed in "${t.text.slice(0, 40)}...": ${t.missed.join(' | ')}`);
  assert.ok(detected / pii >= MIN, `${detected}/${pii} detected, below ${MIN}`);
});
