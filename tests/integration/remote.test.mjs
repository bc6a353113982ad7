// bench/remote.mjs (make bench-remote) against `make serve`'s host on loopback,
// standing in for a deployment: it must write a bitexact-serve/1 results file
// with a median of every Server-Timing field and of the client's time per
// text; and it must refuse a server that is not ours.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { root, stageNames, wasmBuild } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import { TIMING_NAMES } from './redact_lib.mjs';

const stage = stageNames().at(-1);
const dir = mkdtempSync(path.join(os.tmpdir(), 'bx-remote-'));
let server;
before(async () => { server = await startServer(path.join(wasmBuild, 'stages', stage, 'component.wasm')); });
after(async () => { if (server) await server.stop(); rmSync(dir, { recursive: true, force: true }); });

function remote(...args) {
  return spawnSync(process.execPath, [path.join(root, 'bench/remote.mjs'), ...args], { cwd: root, encoding: 'utf8' });
}

test('a served stage: one results file in the serve format', () => {
  const out = path.join(dir, 'remote.json');
  const r = remote(server.url, '--stage', stage.slice(0, 2), '--repeats', '2', '--out', out);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(result.schema, 'bitexact-serve/1');
  assert.equal(result.remote_url, server.url);
  assert.equal(result.stages.length, 1);
  const name = result.stages[0];
  assert.ok(name.startsWith(stage), name);
  assert.ok(result.components[name].sha256.match(/^[0-9a-f]{64}$/));
  for (const label of ['short', 'long']) {
    const t = result.texts[label];
    assert.equal(t.requests_per_stage, 2);
    assert.ok(t.windows >= 1);
    const m = t.stages[name].median_ms;
    for (const k of [...TIMING_NAMES, 'client']) assert.ok(Number.isFinite(m[k]) && m[k] >= 0, `${label}.${k} = ${m[k]}`);
    assert.ok(m.client >= m.total - 1, `the client's time includes the server's (${m.client} vs ${m.total})`);
  }
});

test('a server that is not a bitexact deployment is refused', async () => {
  const other = http.createServer((req, res) => { res.writeHead(404); res.end('nope'); });
  await new Promise((r) => other.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${other.address().port}`;
    // Asynchronously: a blocking spawn would stop this process's own server answering.
    const r = await new Promise((resolve) => execFile(process.execPath,
      [path.join(root, 'bench/remote.mjs'), url, '--repeats', '1', '--out', path.join(dir, 'x.json')],
      { cwd: root }, (error, stdout, stderr) => resolve({ code: error?.code ?? 0, stderr })));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /did not answer pong \(status 404\): is it a bitexact deployment\?/);
  } finally {
    other.close();
  }
  assert.equal(remote('not-a-url').status, 1);
});
