// ctest-labels: integration;wasm
// POST /redact through a real server: the stage's component under
// `jco serve --isolate-requests instance` (common/host/serve.mjs, an instance
// per request as Spin does), fetch() as the client.
//   - every eval text (assets/corpora/eval.jsonl) gets a well-formed answer
//     and a Server-Timing header whose window count matches the reference
//     tokenizer's token count;
//   - every bad input gets its status and message, and the host keeps serving.
// With the random-weight model the entities are nonsense: only their
// consistency with the text is checked here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib/server.mjs';
import {
  checkAnswer, checkServerTiming, component, contentTokens, evalTexts, expectedWindows, postRedact,
} from './redact_lib.mjs';

let server;
before(async () => { server = await startServer(component); });
after(async () => { if (server) await server.stop(); });

async function pingStillAnswers() {
  const res = await fetch(`${server.url}/ping`);
  assert.equal(res.status, 200, 'the host survived');
  assert.equal(await res.text(), 'pong');
}

test('every eval text: 200, a consistent answer, a Server-Timing breakdown', async () => {
  for (const text of evalTexts()) {
    const res = await postRedact(server.url, JSON.stringify({ text }));
    assert.equal(res.status, 200, text.slice(0, 60));
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    const timing = checkServerTiming(res.headers.get('server-timing'));
    assert.equal(timing.windows, expectedWindows(await contentTokens(text)), `windows for: ${text.slice(0, 60)}`);
    checkAnswer(text, await res.json());
  }
});

test('"min_score": 0 reports every entity; the default keeps those scoring 0.5 or more', async () => {
  let below = 0;
  for (const text of evalTexts()) {
    const usual = await (await postRedact(server.url, JSON.stringify({ text }))).json();
    const all = await (await postRedact(server.url, JSON.stringify({ text, min_score: 0 }))).json();
    checkAnswer(text, usual);
    checkAnswer(text, all);
    assert.equal(usual.min_score, 0.5);
    assert.equal(all.min_score, 0);
    assert.deepEqual(usual.entities, all.entities.filter((e) => e.score >= 0.5), text.slice(0, 60));
    below += all.entities.length - usual.entities.length;
  }
  console.log(`# entities below the default minimum on the eval texts: ${below}`);
});

test('no Content-Type is accepted; an empty text has no windows', async () => {
  const res = await postRedact(server.url, Buffer.from(JSON.stringify({ text: '' })), {});
  assert.equal(res.status, 200);
  assert.equal(checkServerTiming(res.headers.get('server-timing')).windows, 0);
  assert.deepEqual(await res.json(), { redacted: '', entities: [], min_score: 0.5 });
});

const JSON_TYPE = { 'content-type': 'application/json' };
const BAD_INPUTS = [
  { what: 'invalid JSON', body: '{"text": "x"', status: 400,
    message: /^request body is not valid JSON: .+ at line 1, column 13 \(byte 12\)$/ },
  { what: 'an empty body', body: '', status: 400, message: /^request body is not valid JSON: / },
  { what: 'a JSON array', body: '["text"]', status: 400,
    message: 'request body must be a JSON object {"text": "..."}, got an array' },
  { what: 'no "text"', body: '{"txt": "x"}', status: 400,
    message: 'missing "text": the body must be {"text": "..."}' },
  { what: 'a number "text"', body: '{"text": 42}', status: 400, message: '"text" must be a string, got a number' },
  { what: 'a null "text"', body: '{"text": null}', status: 400, message: '"text" must be a string, got null' },
  { what: 'an array "text"', body: '{"text": ["x"]}', status: 400, message: '"text" must be a string, got an array' },
  { what: 'invalid UTF-8', body: Buffer.concat([Buffer.from('{"text":"ab'), Buffer.from([0xff]), Buffer.from('"}')]),
    status: 400, message: 'request body is not valid UTF-8 (first bad byte at line 1, column 12 (byte 11))' },
  { what: 'a lone surrogate in UTF-8', body: Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    status: 400, message: /^request body is not valid UTF-8 / },
  { what: 'text/plain', body: '{"text":"x"}', headers: { 'content-type': 'text/plain' }, status: 415,
    message: 'Content-Type must be application/json (got "text/plain"); with curl, add -H \'Content-Type: application/json\'' },
  { what: 'a form', body: 'text=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415,
    message: /^Content-Type must be application\/json / },
  { what: 'charset latin1', body: '{"text":"x"}', headers: { 'content-type': 'application/json; charset=latin1' },
    status: 415, message: 'Content-Type charset must be utf-8 (got "latin1")' },
  { what: 'a string "min_score"', body: '{"text": "x", "min_score": "0.5"}', status: 400,
    message: '"min_score" must be a number from 0 to 1, got a string' },
  { what: 'a "min_score" above 1', body: '{"text": "x", "min_score": 50}', status: 400,
    message: '"min_score" must be a number from 0 to 1, got 50' },
  { what: 'text over 64 KiB', body: JSON.stringify({ text: 'a'.repeat(65537) }), status: 413,
    message: 'text is 65537 bytes of UTF-8; the limit is 65536 bytes (64 KiB)' },
  { what: 'a body over the transport limit', body: Buffer.alloc(8 * 1024 * 1024 + 1, 0x20), status: 413,
    message: /8388608/ },
];

for (const bad of BAD_INPUTS) {
  test(`${bad.what}: ${bad.status}, and the host survives`, async () => {
    const res = await postRedact(server.url, bad.body, bad.headers ?? JSON_TYPE);
    assert.equal(res.status, bad.status);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = await res.json();
    assert.equal(body.error.status, bad.status);
    if (typeof bad.message === 'string') assert.equal(body.error.message, bad.message);
    else assert.match(body.error.message, bad.message);
    await pingStillAnswers();
  });
}

test('GET /redact is 405 with Allow: POST, OPTIONS', async () => {
  const res = await fetch(`${server.url}/redact`);
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
  await res.body?.cancel();
});

test('after all that, a good request still works', async () => {
  const text = 'Call Anna Weber on 030 1234567.';
  const res = await postRedact(server.url, JSON.stringify({ text }));
  assert.equal(res.status, 200);
  checkServerTiming(res.headers.get('server-timing'));
  checkAnswer(text, await res.json());
});
