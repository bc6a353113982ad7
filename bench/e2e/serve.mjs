#!/usr/bin/env node
// The whole request as a user sees it, for several stages side by side, each
// stage's component served by `wasmtime serve` as Spin configures wasmtime
// (common/host/wasmtime-serve.toml) and, beside it, by `jco serve` (the
// component run by V8): a fresh instance per request on both
// (common/host/serve.mjs). Timed the post's way by bench/lib/serving.mjs: every
// (stage, host) target alternates within each round, every answer is checked,
// and all answers must be identical, or no times are written.
//
//   node bench/e2e/serve.mjs --stages 00,04,09,29 [--hosts wasmtime,jco] [--repeats 20] [--out FILE]
//   make bench-serve STAGES=00,04,09,29
//
// Texts: a short sentence (one window) and prose of three windows (the eval
// texts repeated, cut at a word). Writes bench/results/<date>-serve-<stages>.json:
// per stage the component's size and sha256; per text and target the median of
// every Server-Timing field and of the client's round trip; per text and stage,
// what the host adds outside the component (client - total, per round) and
// the ratio of each host's times to the other's, paired by round, with 95%
// bootstrap intervals; per text and host, each stage's times over the stage
// listed before it's (steps), paired the same way; machine, load, hosts'
// versions, Node and commit.
import { existsSync, mkdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { root, stageByNumber, wasmBuild } from '../../tests/integration/lib/env.mjs';
import { hostRecord, startServer } from '../../tests/integration/lib/server.mjs';
import { git, provenance } from '../../tests/integration/redact_lib.mjs';
import { SHORT, measureTexts } from '../lib/serving.mjs';
import { textOfTokens } from '../lib/limits.mjs';
import { ratioInterval, summarize } from '../lib/stats.mjs';

function parseArgs(argv) {
  const o = { stages: null, repeats: 20, out: null, hosts: ['wasmtime', 'jco'] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stages') o.stages = argv[++i].split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--repeats') o.repeats = Number(argv[++i]);
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--hosts') o.hosts = argv[++i].split(',').map((h) => h.trim()).filter(Boolean);
    else throw new Error(`serve.mjs: unknown argument ${a}`);
  }
  if (!o.stages?.length || !(o.repeats >= 1)) throw new Error('usage: serve.mjs --stages 03,04 [--hosts wasmtime,jco] [--repeats N] [--out FILE]');
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
  // Three windows: at most 254 + 2 x 190 content tokens (common/service/windows.hpp).
  const three = await textOfTokens(600);
  const target = (stage, host) => `${stage} ${host}`;
  try {
    for (const stage of stages) {
      for (const host of o.hosts) servers[target(stage, host)] = await startServer(path.join(root, components[stage].path), { with: host });
    }
    const texts = await measureTexts(Object.fromEntries(Object.entries(servers).map(([t, s]) => [t, s.url])), o.repeats,
                                     { texts: [['short', SHORT], ['three windows', three.text]], rounds: true });
    // What each host adds outside the component, and the hosts against each other, per stage.
    for (const t of Object.values(texts)) {
      t.hosts = {};
      for (const stage of stages) {
        const per = {};
        for (const host of o.hosts) {
          const r = t.rounds[target(stage, host)];
          per[host] = { outside_component_ms: summarize(r.map((x) => x.client - x.total)) };
        }
        if (o.hosts.length === 2) {
          const [a, b] = o.hosts.map((h) => t.rounds[target(stage, h)]);
          per[`${o.hosts[0]} / ${o.hosts[1]}`] = Object.fromEntries(['client', 'total', 'forward', 'tok_load'].map((k) =>
            [k, ratioInterval(a.map((x) => x[k]), b.map((x) => x[k]))]));
        }
        t.hosts[stage] = per;
      }
      // Each stage against the one listed before it, on each host, paired by round.
      t.steps = {};
      for (const host of o.hosts) {
        for (let i = 1; i < stages.length; i++) {
          const [a, b] = [t.rounds[target(stages[i], host)], t.rounds[target(stages[i - 1], host)]];
          t.steps[`${stages[i]} / ${stages[i - 1]} ${host}`] = Object.fromEntries(
            ['client', 'total', 'forward', 'tok_load'].map((k) => [k, ratioInterval(a.map((x) => x[k]), b.map((x) => x[k]))]));
        }
      }
      delete t.rounds;
    }
    const base = provenance(loadBefore);
    delete base.component;
    delete base.component_sha256;
    const result = {
      schema: 'bitexact-serve/2',
      what: 'POST /redact through each host, a fresh instance per request; medians per Server-Timing field after one discarded request per target and text; targets (stage, host) alternate within each round; ratios between hosts and between consecutive listed stages paired by round with 95% bootstrap intervals',
      ...base,
      runtime: Object.fromEntries(o.hosts.map((h) => [h, hostRecord(h)])),
      // As bench.mjs: uncommitted changes to the code (stages/, common/), not to results files.
      dirty: (git('status', '--porcelain', '--', 'stages', 'common') ?? '') !== '',
      stages,
      hosts: o.hosts,
      components,
      texts,
    };
    const stamp = new Date().toISOString().slice(0, 16).replace(':', '');  // as bench.mjs: 2026-12-01T0252
    const out = o.out ?? path.join(root, 'bench/results', `${stamp}-serve-${o.stages.join('-')}.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`wrote ${path.relative(root, out)}`);
  } finally {
    for (const s of Object.values(servers)) await s.stop();
  }
}

main().catch((e) => { console.error(`serve.mjs: ${e.stack ?? e}`); process.exitCode = 1; });
