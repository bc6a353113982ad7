#!/usr/bin/env node
// make load [STAGE=NN] [LOAD_SECONDS=60] [LOAD_CLIENTS=4] [HOST=jco]: a bounded load test
// of one stage's component behind `make serve`'s host, wasmtime serve unless
// --with jco (loopback only; it stops
// by itself). Several clients send, for the given time, a mix of requests:
//   short, long (the eval corpus's longest text), multi (three windows), empty
//   text, the page, /ping, and invalid ones: bad JSON, a wrong Content-Type,
//   invalid UTF-8, a text one window over the limit, an unknown route.
// Every valid request must answer 200 with exactly the body it gets when sent
// alone (taken first, one at a time); every invalid one its status; no request
// may be lost (each client counts sent and answered); the host must be alive
// at the end and answer /ping; the host's memory (resident set of its process
// tree, sampled every 250 ms) must stay bounded: its peak in the second half of
// the run may not exceed the first half's by more than 10% (a leak grows).
// --mutate adds one byte to the lone short answer: the run must fail.
// Reports requests per second, p50 and p99 per kind, and writes
// bench/results/<date>-load-<stage>.json.
import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, stageByNumber, stageNames, wasmBuild } from '../tests/integration/lib/env.mjs';
import { hostRecord, startServer } from '../tests/integration/lib/server.mjs';
import { evalTexts, git } from '../tests/integration/redact_lib.mjs';
import { summarize } from './lib/stats.mjs';

function parseArgs(argv) {
  const o = { stage: null, seconds: 60, clients: 4, out: null, mutate: false, with: 'wasmtime' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stage') o.stage = argv[++i];
    else if (a === '--seconds') o.seconds = Number(argv[++i]);
    else if (a === '--clients') o.clients = Number(argv[++i]);
    else if (a === '--with') o.with = argv[++i];
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--mutate') o.mutate = true;  // the check must be able to fail: expect another short answer
    else throw new Error(`load.mjs: unknown argument ${a}`);
  }
  if (!(o.seconds > 0) || !(o.clients >= 1)) throw new Error('usage: load.mjs [--stage NN] [--seconds S] [--clients N] [--with wasmtime|jco] [--out FILE]');
  return o;
}

const JSON_TYPE = { 'content-type': 'application/json' };
function requestKinds() {
  const texts = evalTexts();
  const long = texts.reduce((a, b) => (b.length > a.length ? b : a));
  const multi = texts.join('\n\n').slice(0, 2400);  // a few windows of real prose
  const over = (texts.join('\n\n') + ' ').repeat(40);  // far more than the window limit, under 64 KiB
  const post = (body, headers = JSON_TYPE) => ({ method: 'POST', path: '/redact', headers, body });
  return {
    short: { ...post(JSON.stringify({ text: 'Hi, my name is Sarah Whitfield; call me on (541) 555-0187.' })), status: 200 },
    long: { ...post(JSON.stringify({ text: long })), status: 200 },
    multi: { ...post(JSON.stringify({ text: multi })), status: 200 },
    empty: { ...post(JSON.stringify({ text: '' })), status: 200 },
    page: { method: 'GET', path: '/', status: 200 },
    ping: { method: 'GET', path: '/ping', status: 200 },
    bad_json: { ...post('{"text": "unterminated'), status: 400 },
    wrong_type: { ...post(JSON.stringify({ text: 'x' }), { 'content-type': 'text/plain' }), status: 415 },
    bad_utf8: { ...post(Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), status: 400 },
    over_windows: { ...post(JSON.stringify({ text: over.slice(0, 30000) })), status: 413 },
    unknown: { method: 'GET', path: '/nowhere', status: 404 },
  };
}

async function send(url, r) {
  const t0 = performance.now();
  const res = await fetch(url + r.path, { method: r.method, headers: r.headers, body: r.body });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - t0 };
}

// Resident memory of a process and all its descendants (the host: serve.mjs,
// and wasmtime, or jco and its worker), from /proc.
function treeRssBytes(pid) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  let total = 0;
  for (const [p] of parent) {
    let q = p;
    while (q && q !== pid) q = parent.get(q);
    if (q !== pid) continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch { /* gone */ }
  }
  return total;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const stage = o.stage ? stageByNumber(o.stage) : stageNames().at(-1);
  const kinds = requestKinds();
  const loadBefore = os.loadavg()[0];
  const server = await startServer(path.join(wasmBuild, 'stages', stage, 'component.wasm'), { with: o.with });
  const problems = [];
  try {
    // Each kind alone first: the answer every later one must equal.
    const solo = {};
    for (const [name, r] of Object.entries(kinds)) {
      const a = await send(server.url, r);
      if (a.status !== r.status) throw new Error(`${name} alone: status ${a.status}, expected ${r.status}: ${a.body.slice(0, 200)}`);
      solo[name] = a.body;
    }
    if (o.mutate) solo.short += ' ';
    const names = Object.keys(kinds);
    const memory = [];
    const sampler = setInterval(() => memory.push({ t: performance.now(), rss: treeRssBytes(server.pid) }), 250);
    const started = performance.now();
    const deadline = started + o.seconds * 1000;
    const latencies = Object.fromEntries(names.map((n) => [n, []]));
    let sent = 0, answered = 0, mismatched = 0;
    async function client(c) {
      for (let i = c; performance.now() < deadline; i += o.clients) {
        const name = names[(i * 7 + c) % names.length];  // every client walks the mix in its own order
        sent++;
        let a;
        try { a = await send(server.url, kinds[name]); } catch (e) { problems.push(`${name}: lost (${e.cause?.code ?? e.message})`); continue; }
        answered++;
        latencies[name].push(a.ms);
        if (a.status !== kinds[name].status) { mismatched++; problems.push(`${name}: status ${a.status}, expected ${kinds[name].status}`); }
        else if (a.body !== solo[name]) { mismatched++; problems.push(`${name}: answer differs from the one sent alone`); }
      }
    }
    await Promise.all(Array.from({ length: o.clients }, (_, c) => client(c)));
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const ping = await send(server.url, kinds.ping).catch((e) => ({ status: 0, body: e.message }));
    if (ping.status !== 200 || ping.body !== 'pong') problems.push(`the host did not answer /ping after the run (${ping.status})`);
    const half = started + (o.seconds * 1000) / 2;
    const peak = (xs) => Math.max(0, ...xs.map((m) => m.rss));
    const firstPeak = peak(memory.filter((m) => m.t < half)), secondPeak = peak(memory.filter((m) => m.t >= half));
    if (secondPeak > firstPeak * 1.10) problems.push(`host memory grew: peak ${(firstPeak / 1048576).toFixed(0)} MiB in the first half, ${(secondPeak / 1048576).toFixed(0)} MiB in the second`);
    if (sent !== answered) problems.push(`${sent - answered} of ${sent} requests lost`);
    const perKind = Object.fromEntries(names.map((n) => {
      const s = summarize(latencies[n]);
      const sorted = [...latencies[n]].sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)];
      return [n, { requests: latencies[n].length, p50_ms: +s.median.toFixed(1), p99_ms: +(p99 ?? NaN).toFixed(1), status: kinds[n].status }];
    }));
    const all = Object.values(latencies).flat().sort((a, b) => a - b);
    const result = {
      schema: 'bitexact-load/1',
      what: `${o.clients} concurrent clients for ${o.seconds} s against make serve's host (a fresh instance per request), a mix of valid and invalid requests; every answer compared with the one sent alone`,
      stage, date: new Date().toISOString(), commit: git('rev-parse', 'HEAD'),
      dirty: (git('status', '--porcelain', '--', 'stages', 'common') ?? '') !== '',
      host: o.with,
      runtime: hostRecord(o.with),
      machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadavg_1m: { before: +loadBefore.toFixed(2), after: +os.loadavg()[0].toFixed(2) } },
      clients: o.clients, seconds: +elapsed.toFixed(1),
      requests: { sent, answered, mismatched },
      requests_per_second: +(answered / elapsed).toFixed(2),
      latency_ms: { p50: +all[Math.floor(all.length / 2)].toFixed(1), p99: +all[Math.min(all.length - 1, Math.ceil(0.99 * all.length) - 1)].toFixed(1) },
      per_kind: perKind,
      host_rss_mib: { first_half_peak: +(firstPeak / 1048576).toFixed(1), second_half_peak: +(secondPeak / 1048576).toFixed(1) },
      problems: [...new Set(problems)],
    };
    console.log(`${stage}: ${answered}/${sent} answered in ${result.seconds} s by ${o.clients} clients: ${result.requests_per_second} requests/s, ` +
                `p50 ${result.latency_ms.p50} ms, p99 ${result.latency_ms.p99} ms; host RSS peak ${result.host_rss_mib.first_half_peak} -> ${result.host_rss_mib.second_half_peak} MiB`);
    for (const [n, k] of Object.entries(perKind)) console.log(`  ${n.padEnd(13)} ${String(k.requests).padStart(5)} requests, status ${k.status}, p50 ${k.p50_ms} ms, p99 ${k.p99_ms} ms`);
    const stamp = new Date().toISOString().slice(0, 16).replace(':', '');
    const out = o.out ?? path.join(root, 'bench/results', `${stamp}-load-${stage}.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`wrote ${path.relative(root, out)}`);
    if (result.problems.length) { console.log(`FAIL:\n  ${result.problems.slice(0, 20).join('\n  ')}`); process.exitCode = 1; }
  } finally {
    await server.stop();
  }
}

main().catch((e) => { console.error(`load.mjs: ${e.stack ?? e}`); process.exitCode = 1; });
