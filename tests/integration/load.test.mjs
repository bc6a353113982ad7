// ctest-labels: integration;wasm;slow
// A short run of the load test (bench/load.mjs, `make load` runs it for 60 s):
// four clients for a few seconds against the latest stage must pass, and with
// --mutate (one lone answer changed by a byte) it must fail, naming the
// mismatch. The results files go to a temporary directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib/env.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bx-load-'));
const run = (...extra) => spawnSync(process.execPath, [path.join(root, 'bench/load.mjs'), '--seconds', '5', '--clients', '4', ...extra],
  { cwd: root, encoding: 'utf8' });

test('four clients, a mix of requests: every answer as when sent alone', () => {
  const out = path.join(dir, 'load.json');
  const r = run('--out', out);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(result.requests.sent, result.requests.answered);
  assert.ok(result.requests.answered > 4, JSON.stringify(result.requests));
  assert.deepEqual(result.problems, []);
  for (const kind of ['short', 'bad_json', 'over_windows', 'page']) assert.ok(result.per_kind[kind], kind);
});

test('the mutant (one lone answer changed) is caught', () => {
  const r = run('--mutate', '--out', path.join(dir, 'mutant.json'));
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /short: answer differs from the one sent alone/);
});
