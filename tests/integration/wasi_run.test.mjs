// ctest-labels: wasm;quick
// common/host/wasi-run.mjs runs a WASI preview1 command (the first stage's
// cli.wasm): the module's exit status comes through, stdout is the module's,
// and Node's "WASI is experimental" warning does not reach stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { firstStage, root, wasmBuild } from './lib/env.mjs';

const cli = path.join(wasmBuild, 'stages', firstStage, 'cli.wasm');
const run = (...args) => spawnSync(process.execPath, [path.join(root, 'common/host/wasi-run.mjs'), cli, ...args],
  { encoding: 'utf8', cwd: root });

test('exit status and output pass through, without the experimental warning', { skip: !existsSync(cli) && `${cli} not built` }, () => {
  const usage = run();  // no command: the harness prints usage and exits 2
  assert.equal(usage.status, 2, usage.stderr);
  assert.doesNotMatch(usage.stderr, /ExperimentalWarning/);
  const help = run('help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /usage: cli\.wasm/);
  assert.doesNotMatch(help.stderr, /ExperimentalWarning/);
});
