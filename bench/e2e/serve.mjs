#!/usr/bin/env node
// The whole request as a user sees it, for several stages side by side: each
// stage's component served by `jco serve --isolate-requests instance` (a fresh
// instance per request, as Spin; common/host/serve.mjs), timed the post's way
// by bench/lib/serving.mjs (stages alternate in rounds; every answer checked,
// and the stages' answers must be identical, or no times are written).
//
//   node bench/e2e/serve.mjs --stages 03,04 [--repeats 20] [--out FILE]
//   make bench-serve STAGES=03,04
//
// Writes bench/results/serve-<stages>.json: per stage the component's size and
// sha256, and per text the median of every Server-Timing field and of the
// client's round trip, with machine, load, Node and commit.
import { existsSync, mkdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { root, stageByNumber, wasmBuild } from '../../tests/integration/lib/env.mjs';
import { startServer } from '../../tests/integration/lib/server.mjs';
import { git, provenance } from '../../tests/integration/redact_lib.mjs';
import { measureTexts } from '../lib/serving.mjs';

function parseArgs(argv) {
  const o = { stages: null, repeats: 20, out: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stages') o.stages = argv[++i].split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--repeats') o.repeats = Number(argv[++i]);
    else if (a === '--out') o.out = argv[++i];
    else throw new Error(`serve.mjs: unknown argument ${a}`);
  }
  if (!o.stages?.length || !(o.repeats >= 1)) throw new Error('usage: serve.mjs --stages 03,04 [--repeats N] [--out FILE]');
  return o;
}


async function main() {
  const o = parseArgs(process.argv.slice(2));
  const stages = o.stages.map(stageByNumber);
  const loadBefore = os.loadavg()[0];
  const servers = {};
  const components = {};
  for (const stage of stages) {
    const file = path.join(wasmBuild, 'stages', stage, 'component.wasm');
    if (!existsSync(file)) throw new Error(`${file} is missing: make build-wasm`);
    components[stage] = {
      path: path.relative(root, file),
      bytes: statSync(file).size,
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    };
  }
  try {
    for (const stage of stages) servers[stage] = await startServer(path.join(root, components[stage].path));
    const texts = await measureTexts(Object.fromEntries(stages.map((s) => [s, servers[s].url])), o.repeats);
    const base = provenance(loadBefore);
    delete base.component;
    delete base.component_sha256;
    const result = {
      schema: 'bitexact-serve/1',
      what: 'POST /redact through jco serve, a fresh instance per request; medians per Server-Timing field after one discarded request per stage and text; stages alternate within each round',
      ...base,
      // As bench.mjs: uncommitted changes to the code (stages/, common/), not to results files.
      dirty: (git('status', '--porcelain', '--', 'stages', 'common') ?? '') !== '',
      stages,
      components,
      texts,
    };
    const out = o.out ?? path.join(root, 'bench/results', `serve-${o.stages.join('-')}.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`wrote ${path.relative(root, out)}`);
  } finally {
    for (const s of Object.values(servers)) await s.stop();
  }
}

main().catch((e) => { console.error(`serve.mjs: ${e.stack ?? e}`); process.exitCode = 1; });
