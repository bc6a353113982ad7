// ctest-labels: integration;wasm;slow
// The post's Part 1 measurement, reproduced: the Server-Timing breakdown of
// POST /redact under `jco serve --isolate-requests instance` (an instance per
// request, as Spin), for a ~20-token sentence and for the long paragraph of
// assets/corpora/eval.jsonl. Each text: one request discarded (first run,
// compile caches, Liftoff), then the median of 20, per Server-Timing field and
// for the client-side round trip. Written to bench/results/server-timing-<stage>.json
// with the machine, Node version, date, commit and the component's sha256.
//
// BX_TIMING_REPEATS overrides 20 (for a quick look); BX_TIMING_OUT the output path.
// Note: V8 under jco, not wasmtime: no epoch interruption (see bench/epoch/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import {
  TIMING_NAMES, checkAnswer, checkServerTiming, component, contentTokens, evalTexts, postRedact, provenance, stage,
} from './redact_lib.mjs';

const REPEATS = Number(process.env.BX_TIMING_REPEATS || 20);
const OUT = process.env.BX_TIMING_OUT || path.join(root, 'bench/results', `server-timing-${stage}.json`);
const SHORT = 'Hi, my name is Sarah Whitfield; call me on (541) 555-0187.';
const LONG = evalTexts().reduce((a, b) => (b.length > a.length ? b : a));

let server;
before(async () => { server = await startServer(component); });
after(async () => { if (server) await server.stop(); });

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function measure(text) {
  const samples = [];
  for (let i = 0; i <= REPEATS; i++) {
    const t0 = performance.now();
    const res = await postRedact(server.url, JSON.stringify({ text }));
    const answer = await res.json();
    const clientMs = performance.now() - t0;
    assert.equal(res.status, 200);
    const timing = checkServerTiming(res.headers.get('server-timing'));
    checkAnswer(text, answer);
    if (i > 0) samples.push({ ...timing, client: clientMs });  // request 0 is discarded
  }
  const medians = {};
  for (const name of [...TIMING_NAMES, 'client']) medians[name] = Number(median(samples.map((s) => s[name])).toFixed(2));
  return {
    text,
    content_tokens: await contentTokens(text),
    windows: samples[0].windows,
    requests: samples.length,
    median_ms: medians,
    min_total_ms: Math.min(...samples.map((s) => s.total)),
    max_total_ms: Math.max(...samples.map((s) => s.total)),
  };
}

test(`Server-Timing medians of ${REPEATS} requests (${stage})`, { timeout: 1_800_000 }, async () => {
  const loadBefore = os.loadavg()[0];
  const short = await measure(SHORT);
  const long = await measure(LONG);
  const result = {
    stage,
    what: 'POST /redact Server-Timing, median per field after one discarded request',
    ...provenance(loadBefore),
    texts: { short, long },
  };
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');
  console.log(`wrote ${path.relative(root, OUT)}`);
  for (const [name, r] of Object.entries(result.texts)) {
    console.log(`${name} (${r.content_tokens} tokens, ${r.windows} window(s)): ` +
      [...TIMING_NAMES, 'client'].map((k) => `${k} ${r.median_ms[k]}`).join(', '));
  }
  assert.ok(short.windows === 1 && long.windows >= 2);
});
