#!/usr/bin/env node
// make limits [STAGES=00,12]: every stage's component against Akamai Functions'
// limits (bench/lib/limits.mjs): its size, the instance's peak linear memory
// for the largest request we accept, for an 8 MiB body and for 8 MiB bodies of
// the worst JSON shapes (bench/lib/limits.mjs: worstShapes), and the time of the
// largest accepted request (the slowest of --repeats, each a fresh instance).
// Writes bench/results/<date>-limits.json with machine, Node, commit and model;
// exit status 1 when any stage breaks a limit.
//
//   node bench/limits.mjs [--stages 00,12] [--repeats 3] [--with wasmtime|jco] [--out FILE]
//
// The host is `wasmtime serve` as Spin configures it (common/host/wasmtime-serve.toml), whose
// engine enforces the 128 MiB cap itself: a request that needs more traps, and the host's
// error page, which is no JSON answer, is a broken limit. --with jco serves with jco instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, stageByNumber, stageNames, wasmBuild } from '../tests/integration/lib/env.mjs';
import { git, provenance } from '../tests/integration/redact_lib.mjs';
import { MAX_WINDOW_TOKENS, PLATFORM, limitProblems, measureLimits, textOfTokens } from './lib/limits.mjs';

function parseArgs(argv) {
  const o = { stages: null, repeats: 3, out: null, with: 'wasmtime' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stages') o.stages = argv[++i].split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--repeats') o.repeats = Number(argv[++i]);
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--with') o.with = argv[++i];
    else throw new Error(`limits.mjs: unknown argument ${a}`);
  }
  if (!(o.repeats >= 1)) throw new Error('--repeats must be at least 1');
  return o;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  process.env.BX_SERVE_WITH = o.with;  // every server started here, and the provenance, name this host
  const stages = o.stages ? o.stages.map(stageByNumber) : stageNames();
  const loadBefore = os.loadavg()[0];
  const texts = await textOfTokens(MAX_WINDOW_TOKENS);
  const results = {};
  let broken = 0;
  for (const stage of stages) {
    const m = await measureLimits(path.join(wasmBuild, 'stages', stage, 'component.wasm'), { repeats: o.repeats, texts });
    const problems = limitProblems(m);
    broken += problems.length > 0;
    results[stage] = { ...m, problems };
    const mib = (b) => (b / 1048576).toFixed(1);
    console.log(`${stage}: ${mib(m.component_bytes)} MiB; largest request (${m.largest.tokens} tokens, ${m.largest.windows} windows) ` +
      `${m.largest.slowest_client_ms} ms, ${mib(m.largest.memory_bytes)} MiB; 8 MiB body ${mib(m.body.memory_bytes)} MiB; ` +
      `over the limit: ${m.over.status}${problems.length ? `; BREAKS: ${problems.join('; ')}` : ''}`);
    for (const [name, r] of Object.entries(m.shapes)) {
      console.log(`  ${name} (${mib(r.bytes)} MiB): ${r.status}${r.json_answer ? ' JSON' : ' NOT JSON'}, ${mib(r.memory_bytes)} MiB`);
    }
  }
  const base = provenance(loadBefore);
  delete base.component;
  delete base.component_sha256;
  const result = {
    schema: 'bitexact-limits/1',
    what: "each stage's component against Akamai Functions' limits: size, the instance's linear memory (x-bx-linear-memory-bytes) and the slowest of the largest accepted request, each request to a fresh instance",
    host: o.with,
    ...base,
    dirty: (git('status', '--porcelain', '--', 'stages', 'common') ?? '') !== '',
    platform: PLATFORM,
    largest_text: { tokens: texts.tokens, chars: [...texts.text].length },
    repeats: o.repeats,
    stages: results,
  };
  const stamp = new Date().toISOString().slice(0, 16).replace(':', '');  // as bench.mjs: 2026-12-01T0252
  const out = o.out ?? path.join(root, 'bench/results', `${stamp}-limits.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`wrote ${path.relative(root, out)}`);
  if (broken) process.exitCode = 1;
}

main().catch((e) => { console.error(`limits.mjs: ${e.stack ?? e}`); process.exitCode = 1; });
