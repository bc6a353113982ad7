// ctest-labels: integration;wasm;wasmtime
// Every stage's component, served by `wasmtime serve` as Spin configures
// wasmtime (common/host/wasmtime-serve.toml), answers the demo's samples and
// the README's request with the same status and the same JSON as under
// `jco serve`, and the process serving it is wasmtime itself.
//
// Both hosts run the same component.wasm; what could differ is the host's
// side of wasi:http (how the body arrives, what the headers hold) and the
// engine (Cranelift against V8). The logits are the same bits on both, so the
// answers must be too, byte for byte.
//
// BX_SERVE_HOSTS_MUTATE=binding serves the first stage's deliberately broken
// HTTP binding (component_mutant.wasm, make mutant-http) under wasmtime: its
// answers must differ. CTest's "node: serve_hosts mutant is caught" runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, stageNames, wasmBuild } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import { postRedact } from './redact_lib.mjs';

const samples = [
  'Call Anna Weber on 030 1234567.',
  ...readFileSync(path.join(root, 'assets/corpora/demo.txt'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')),
];
const stages = process.env.BX_SERVE_HOSTS_STAGES?.split(',') ?? stageNames();

async function answers(server) {
  const out = [];
  for (const text of samples) {
    const res = await postRedact(server.url, JSON.stringify({ text }));
    out.push({ status: res.status, body: await res.text() });
  }
  return out;
}

for (const stage of stages) {
  test(`${stage}: wasmtime serve answers as jco serve`, async () => {
    const component = path.join(wasmBuild, 'stages', stage, 'component.wasm');
    const served = process.env.BX_SERVE_HOSTS_MUTATE === 'binding'
      ? path.join(wasmBuild, 'stages', stage, 'component_mutant.wasm') : component;
    const [wasmtime, jco] = await Promise.all([startServer(served, { with: 'wasmtime' }), startServer(component, { with: 'jco' })]);
    try {
      const comm = readFileSync(`/proc/${wasmtime.serverPid()}/comm`, 'utf8').trim();
      assert.equal(comm, 'wasmtime', 'the process that serves is wasmtime');
      const [a, b] = [await answers(wasmtime), await answers(jco)];
      samples.forEach((text, i) => {
        assert.equal(a[i].status, 200, `wasmtime: "${text}": ${a[i].body}`);
        assert.equal(a[i].body, b[i].body, `"${text}": wasmtime and jco answer differently`);
      });
    } finally {
      await Promise.all([wasmtime.stop(), jco.stop()]);
    }
  });
}
