// Akamai Functions' limits, measured on a served component: the application
// size, the instance's memory and the request time. Shared by `make limits`
// (bench/limits.mjs, every stage, into a results file) and by the test that
// runs in `make test` (tests/integration/limits.test.mjs, the latest stage).
//
// Three requests, each to a fresh instance (common/host/serve.mjs; its host,
// wasmtime serve or jco, from BX_SERVE_WITH):
//   largest  the most tokens a request may hold (kMaxWindowTokens, kMaxWindows windows),
//            as real prose: the eval corpus's texts, repeated and cut at a word
//   over     that text plus a few words: must be refused with 413, quickly
//   body     a body of exactly the transport limit (8 MiB, a short text and a
//            padding member): the most memory a request can make us hold
//   shapes   bodies of the transport limit shaped to make a JSON parser build
//            the most: arrays of numbers, deep arrays, deep objects, many keys,
//            strings of escapes; each must get a JSON answer (a success or an
//            error) with the security headers, within the memory limit
// The component reports its linear memory in x-bx-linear-memory-bytes
// (router.cpp); memory only grows, so that is the instance's peak.
import { statSync } from 'node:fs';
import { startServer } from '../../tests/integration/lib/server.mjs';
import { checkServerTiming, contentTokens, evalTexts, postRedact } from '../../tests/integration/redact_lib.mjs';

export const PLATFORM = {
  // Akamai Functions "Quotas and limits" (techdocs.akamai.com/akamai-functions/docs/quotas-and-limits):
  // memory per execution, app size, request handler duration. (Request and
  // response: 10 MiB, above our own 8 MiB transport limit.)
  app_bytes: 50 * 1024 * 1024,
  memory_bytes: 128 * 1024 * 1024,
  request_ms: 30_000,
};
export const MAX_WINDOWS = 10;                                 // common/service/windows.hpp: kMaxWindows
export const MAX_WINDOW_TOKENS = 190 * (MAX_WINDOWS - 1) + 254;  // kMaxWindowTokens
export const MAX_BODY_BYTES = 8 * 1024 * 1024;    // common/http/http.hpp: kMaxRequestBodyBytes

// The longest prefix (whole words) of the eval texts, repeated, with at most
// `tokens` content tokens by the reference tokenizer.
export async function textOfTokens(tokens) {
  const words = evalTexts().join('\n\n').split(/(?<=\s)/);  // keeps each word's trailing space
  let all = [];
  while ((await contentTokens(all.join(''))) < tokens) all = all.concat(words);
  let lo = 0, hi = all.length;  // the largest n with tokens(all[0..n)) <= tokens
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((await contentTokens(all.slice(0, mid).join('').trimEnd())) <= tokens) lo = mid; else hi = mid - 1;
  }
  const text = all.slice(0, lo).join('').trimEnd();
  return { text, tokens: await contentTokens(text), overText: all.slice(0, lo + 8).join('').trimEnd() };
}

// Bodies of exactly `bytes` bytes, each shaped to make a JSON parser build as
// much as it can: the worst cases for memory per byte we know of.
export function worstShapes(bytes = MAX_BODY_BYTES) {
  const fill = (head, unit, tail, sep = ',') => {
    let n = Math.floor((bytes - head.length - tail.length + sep.length) / (unit.length + sep.length));
    let body = head + Array(n).fill(unit).join(sep) + tail;
    return body + ' '.repeat(bytes - body.length);  // whitespace tops it up to the byte
  };
  const deep = (open, close, depth) => open.repeat(depth) + close.repeat(depth);
  const keys = () => {
    let body = '{"text":"Anna Weber"';
    for (let i = 0; body.length < bytes - 16; i++) body += `,"k${i}":0`;
    return body + '}' + ' '.repeat(Math.max(0, bytes - body.length - 1));
  };
  return {
    'array of numbers': fill('{"text":"Anna Weber","pad":[', '0', ']}'),
    'deep arrays': fill('{"text":"Anna Weber","pad":[', deep('[', ']', 500), ']}'),
    'deep objects': fill('{"text":"Anna Weber","pad":[', `${'{"a":'.repeat(499)}{}${'}'.repeat(499)}`, ']}'),
    'many keys': keys(),
    'string of \\u0001 escapes': fill('{"text":"Anna Weber","pad":"', '\\u0001', '"}', ''),
    'string of surrogate pairs': fill('{"text":"Anna Weber","pad":"', '\\ud83d\\ude00', '"}', ''),
  };
}

// A request that gets no answer (the instance trapped and the host closed the
// connection, as wasmtime serve does) is recorded as status 0: no JSON answer.
async function timed(url, body) {
  const t0 = performance.now();
  let res, text;
  try {
    res = await postRedact(url, body);
    text = await res.text();
  } catch (e) {
    return { status: 0, client_ms: +(performance.now() - t0).toFixed(1), memory_bytes: NaN, server_timing: null,
             json_answer: false, body: `no answer: ${e.cause?.code ?? e.message}` };
  }
  return {
    status: res.status,
    client_ms: +(performance.now() - t0).toFixed(1),
    memory_bytes: Number(res.headers.get('x-bx-linear-memory-bytes')),
    server_timing: res.headers.get('server-timing'),
    json_answer: isJsonAnswer(res, text),
    body: text,
  };
}

// A JSON success or error with the headers every answer carries.
function isJsonAnswer(res, text) {
  if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return false;
  if (res.headers.get('x-content-type-options') !== 'nosniff' || !res.headers.get('content-security-policy')) return false;
  try {
    const body = JSON.parse(text);
    return res.status === 200 ? typeof body.redacted === 'string' : body?.error?.status === res.status;
  } catch {
    return false;
  }
}

// Measures one component. repeats: how many times the largest request is sent
// (each to a fresh instance); the slowest is kept, as the limit is a maximum.
export async function measureLimits(component, { repeats = 1, texts = null } = {}) {
  const t = texts ?? await textOfTokens(MAX_WINDOW_TOKENS);
  const server = await startServer(component);
  try {
    const largest = [];
    for (let i = 0; i < repeats; i++) largest.push(await timed(server.url, JSON.stringify({ text: t.text })));
    const over = await timed(server.url, JSON.stringify({ text: t.overText }));
    const head = JSON.stringify({ text: 'Anna Weber, 030 1234567.', pad: '' });
    const body = head.slice(0, -2) + 'x'.repeat(MAX_BODY_BYTES - head.length) + '"}';
    const big = await timed(server.url, body);
    const shapes = {};
    for (const [name, shaped] of Object.entries(worstShapes())) {
      const r = await timed(server.url, shaped);
      shapes[name] = { bytes: Buffer.byteLength(shaped), status: r.status, json_answer: r.json_answer,
                       client_ms: r.client_ms, memory_bytes: r.memory_bytes,
                       message: r.status === 200 || !r.json_answer ? null : JSON.parse(r.body).error.message };
    }
    const slowest = largest.reduce((a, b) => (b.client_ms > a.client_ms ? b : a));
    const timing = slowest.status === 200 ? checkServerTiming(slowest.server_timing) : null;
    return {
      component_bytes: statSync(component).size,
      largest: {
        tokens: t.tokens, windows: timing?.windows ?? null, status: slowest.status,
        requests: repeats, slowest_client_ms: slowest.client_ms, slowest_total_ms: timing?.total ?? null,
        memory_bytes: Math.max(...largest.map((r) => r.memory_bytes)),
      },
      over: { status: over.status, message: over.status === 200 || !over.json_answer ? null : JSON.parse(over.body).error.message, client_ms: over.client_ms, memory_bytes: over.memory_bytes },
      body: { bytes: body.length, status: big.status, client_ms: big.client_ms, memory_bytes: big.memory_bytes },
      shapes,
    };
  } finally {
    await server.stop();
  }
}

// The limits a measurement breaks, as sentences (empty when it fits).
export function limitProblems(m, platform = PLATFORM) {
  const problems = [];
  const mib = (b) => `${(b / 1048576).toFixed(1)} MiB`;
  if (!(m.component_bytes <= platform.app_bytes)) problems.push(`component ${mib(m.component_bytes)} > ${mib(platform.app_bytes)}`);
  if (m.largest.status !== 200) problems.push(`the largest accepted request answered ${m.largest.status}`);
  if (m.largest.windows !== MAX_WINDOWS) problems.push(`the largest accepted request used ${m.largest.windows} windows, not ${MAX_WINDOWS}`);
  for (const [what, r] of [['largest request', m.largest], ['over-limit request', m.over], ['8 MiB body', m.body]]) {
    if (!(r.memory_bytes > 0 && r.memory_bytes <= platform.memory_bytes)) problems.push(`${what}: linear memory ${mib(r.memory_bytes)} > ${mib(platform.memory_bytes)}`);
  }
  if (!(m.largest.slowest_client_ms < platform.request_ms)) problems.push(`largest request took ${m.largest.slowest_client_ms} ms >= ${platform.request_ms} ms`);
  if (m.over.status !== 413) problems.push(`one window over the limit answered ${m.over.status}, not 413`);
  if (m.body.status !== 200) problems.push(`an 8 MiB body with a short text answered ${m.body.status}`);
  for (const [name, r] of Object.entries(m.shapes ?? {})) {
    if (!r.json_answer) problems.push(`${name}: answered ${r.status} without a JSON answer and the security headers`);
    if (!(r.memory_bytes > 0 && r.memory_bytes <= platform.memory_bytes)) problems.push(`${name}: linear memory ${mib(r.memory_bytes)} > ${mib(platform.memory_bytes)}`);
  }
  return problems;
}
