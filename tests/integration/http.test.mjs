// ctest-labels: integration;wasm
// The HTTP binding end to end, through a real server and a real client:
// `jco serve --isolate-requests instance` (via common/host/serve.mjs) running
// the first stage's test component (test routes compiled in), fetch() as the
// client. BX_HTTP_COMPONENT overrides the component (the mutant check uses it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { firstStage, wasmBuild } from './lib/env.mjs';
import { startServer, portAccepts } from './lib/server.mjs';

const component = process.env.BX_HTTP_COMPONENT ??
  path.join(wasmBuild, 'stages', firstStage, 'component_test.wasm');
const MiB = 1024 * 1024;
const LIMIT = 8 * MiB;  // bx::http::kMaxRequestBodyBytes

let server;
before(async () => { server = await startServer(component); });
after(async () => { if (server) await server.stop(); });

async function errorOf(res, status) {
  assert.equal(res.status, status);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  const body = await res.json();
  assert.equal(body.error.status, status);
  assert.equal(typeof body.error.message, 'string');
  return body.error.message;
}

test('GET /ping answers 200 pong', async () => {
  const res = await fetch(`${server.url}/ping`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'pong');
});

test('every request gets a fresh instance', async () => {
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${server.url}/ping`);
    await res.text();
    assert.equal(res.headers.get('x-bx-instance-requests'), '1', `request ${i + 1}`);
  }
});

test('a 5 MiB request body is read completely', async () => {
  const body = randomBytes(5 * MiB);
  const res = await fetch(`${server.url}/__test/echo-length`, { method: 'POST', body });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { length: body.length });
});

test('empty strings and lists from the host are fine (empty header value, empty body)', async () => {
  // The host hands us zero-length strings/lists through cabi_realloc too; we
  // free() them like any other, so they must be real allocations.
  const res = await fetch(`${server.url}/__test/echo-length`, {
    method: 'POST', headers: { 'x-empty': '' }, body: '',
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { length: 0 });
});

test('a body of exactly the limit is accepted', async () => {
  const res = await fetch(`${server.url}/__test/echo-length`, { method: 'POST', body: Buffer.alloc(LIMIT, 7) });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { length: LIMIT });
});

test('a response far larger than one 4096-byte write arrives whole', async () => {
  const n = 3 * MiB + 17;
  const res = await fetch(`${server.url}/__test/bytes?n=${n}`);
  assert.equal(res.status, 200);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(bytes.length, n);
  for (const i of [0, 4095, 4096, 4097, n - 1]) assert.equal(bytes[i], 97 + (i % 26), `byte ${i}`);
});

test('a body over the limit is 413 with a JSON error', async () => {
  const res = await fetch(`${server.url}/__test/echo-length`, { method: 'POST', body: Buffer.alloc(LIMIT + 1) });
  assert.match(await errorOf(res, 413), /8388608/);
});

test('an unknown route is 404 with a JSON error', async () => {
  await errorOf(await fetch(`${server.url}/no/such/route`), 404);
});

test('a wrong method is 405 with Allow', async () => {
  const res = await fetch(`${server.url}/ping`, { method: 'PUT', body: 'x' });
  assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  await errorOf(res, 405);
});

test('the server stops when its process is signalled', async () => {
  const { url } = server;
  const { signal, code } = await server.stop();
  server = null;
  assert.ok(code === 0 || signal === 'SIGTERM', `exit ${signal ?? code}`);
  assert.equal(await portAccepts(url), false, 'port still accepts connections');
});
