#!/usr/bin/env node
// make bench-remote URL=https://... [STAGE=NN]: the post's measurement of a
// deployed service: POST /redact with a short sentence and a long text, 20
// times each after one discarded request, median of every Server-Timing field
// and of the client's round trip (bench/lib/serving.mjs). Writes a results
// file in the format of `make bench-serve` (bitexact-serve/1), so the book can
// set the deployment beside the local run.
//
//   node bench/remote.mjs URL [--stage NN] [--repeats 20] [--name LABEL] [--out FILE]
//
// --stage names the stage that was deployed: its local component's size and
// sha256 are recorded, so a reader can tell what ran. The client's round trip
// includes the network; the Server-Timing fields are the instance's own.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { root, stageByNumber, wasmBuild } from '../tests/integration/lib/env.mjs';
import { git, provenance } from '../tests/integration/redact_lib.mjs';
import { measureTexts } from './lib/serving.mjs';

function parseArgs(argv) {
  const o = { url: null, stage: null, repeats: 20, name: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stage') o.stage = argv[++i];
    else if (a === '--repeats') o.repeats = Number(argv[++i]);
    else if (a === '--name') o.name = argv[++i];
    else if (a === '--out') o.out = argv[++i];
    else if (!a.startsWith('--') && !o.url) o.url = a;
    else throw new Error(`remote.mjs: unknown argument ${a}`);
  }
  if (!o.url || !(o.repeats >= 1)) throw new Error('usage: remote.mjs URL [--stage NN] [--repeats N] [--name LABEL] [--out FILE]');
  o.url = o.url.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(o.url)) throw new Error(`remote.mjs: ${o.url} is not an http(s) URL`);
  return o;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const loadBefore = os.loadavg()[0];
  // Is it our service? GET /ping answers "pong" before any model work.
  const ping = await fetch(`${o.url}/ping`).catch((e) => { throw new Error(`cannot reach ${o.url}: ${e.cause?.message ?? e.message}`); });
  if (ping.status !== 200 || (await ping.text()) !== 'pong') throw new Error(`${o.url}/ping did not answer pong (status ${ping.status}): is it a bitexact deployment?`);

  let stage = null, component = null;
  if (o.stage) {
    stage = stageByNumber(o.stage);
    const file = path.join(wasmBuild, 'stages', stage, 'component.wasm');
    if (existsSync(file)) {
      component = { path: path.relative(root, file), bytes: statSync(file).size,
                    sha256: createHash('sha256').update(readFileSync(file)).digest('hex') };
    }
  }
  const name = o.name ?? (stage ? `${stage}@${new URL(o.url).host}` : new URL(o.url).host);
  const texts = await measureTexts({ [name]: o.url }, o.repeats);
  const base = provenance(loadBefore);
  delete base.component;
  delete base.component_sha256;
  const result = {
    schema: 'bitexact-serve/1',
    what: `POST /redact to a deployment (${o.url}); medians per Server-Timing field and of the client's round trip (network included) after one discarded request per text`,
    ...base,
    runtime: `remote: ${o.url} (client: Node ${process.version})`,
    remote_url: o.url,
    dirty: (git('status', '--porcelain', '--', 'stages', 'common') ?? '') !== '',
    stages: [name],
    components: component ? { [name]: component } : {},
    texts,
  };
  const stamp = new Date().toISOString().slice(0, 16).replace(':', '');
  const safe = name.replace(/[^A-Za-z0-9._@-]+/g, '_');
  const out = o.out ?? path.join(root, 'bench/results', `${stamp}-remote-${safe}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`wrote ${path.relative(root, out)}`);
}

main().catch((e) => { console.error(`remote.mjs: ${e.message ?? e}`); process.exitCode = 1; });
