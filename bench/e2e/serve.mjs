#!/usr/bin/env node
// The whole request as a user sees it, for several stages side by side: each
// stage's component served by `jco serve --isolate-requests instance` (a fresh
// instance per request, as Spin; common/host/serve.mjs), POST /redact with a
// short sentence and with the eval corpus's longest text. Requests alternate
// between the stages in every round (the order flips each round), so drifts in
// machine load hit them alike; the first request of each stage and text is
// discarded. Every answer is checked (checkAnswer) and the stages' answers
// must be identical: they are bit-exact, so any difference is a failure and
// no times are written.
//
//   node bench/e2e/serve.mjs --stages 03,04 [--repeats 20] [--out FILE]
//   make bench-serve STAGES=03,04
//
// Writes bench/results/serve-<stages>.json: per stage the component's size and
// sha256, and per text the median of every Server-Timing field and of the
// client's round trip, with machine, load, Node and commit.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { root, wasmBuild } from '../../tests/integration/lib/env.mjs';
import { startServer } from '../../tests/integration/lib/server.mjs';
import {
  TIMING_NAMES, checkAnswer, checkServerTiming, contentTokens, evalTexts, git, postRedact, provenance,
} from '../../tests/integration/redact_lib.mjs';
import { summarize } from '../lib/stats.mjs';

const SHORT = 'Hi, my name is Sarah Whitfield; call me on (541) 555-0187.';

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

// "03" -> "03-simd-attention", from the stage directories (the only place names live).
function stageName(nn) {
  const dir = readdirSync(path.join(root, 'stages')).find((d) => d.startsWith(`${nn}-`) || d === nn);
  if (!dir) throw new Error(`no stage directory for ${nn}`);
  return dir;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const stages = o.stages.map(stageName);
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
    const longest = evalTexts().reduce((a, b) => (b.length > a.length ? b : a));
    const texts = {};
    for (const [name, text] of [['short', SHORT], ['long', longest]]) {
      const samples = Object.fromEntries(stages.map((s) => [s, []]));
      let windows = null;
      for (let round = 0; round <= o.repeats; round++) {
        const order = round % 2 ? [...stages].reverse() : stages;
        let first = null;
        for (const stage of order) {
          const t0 = performance.now();
          const res = await postRedact(servers[stage].url, JSON.stringify({ text }));
          const body = await res.text();
          const client = performance.now() - t0;
          if (res.status !== 200) throw new Error(`${stage}: status ${res.status}: ${body}`);
          const answer = JSON.parse(body);
          checkAnswer(text, answer);
          if (first === null) first = body;
          else if (body !== first) throw new Error(`${name} text: ${stage}'s answer differs from ${order[0]}'s`);
          const timing = checkServerTiming(res.headers.get('server-timing'));
          windows = timing.windows;
          if (round > 0) samples[stage].push({ ...timing, client });  // round 0 is discarded
        }
      }
      texts[name] = {
        text,
        content_tokens: await contentTokens(text),
        windows,
        requests_per_stage: o.repeats,
        stages: Object.fromEntries(stages.map((stage) => {
          const fields = {};
          for (const k of [...TIMING_NAMES, 'client']) fields[k] = summarize(samples[stage].map((s) => s[k]));
          return [stage, { median_ms: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, +v.median.toFixed(2)])),
                           total_ms: { min: fields.total.min, max: fields.total.max } }];
        })),
      };
      for (const stage of stages) {
        const m = texts[name].stages[stage].median_ms;
        console.log(`${name} (${texts[name].content_tokens} tokens, ${windows} window(s)) ${stage}: total ${m.total} ms, tok_load ${m.tok_load} ms, forward ${m.forward} ms`);
      }
    }
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
