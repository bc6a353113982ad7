// ctest-labels: wasm;slow
// bx_expf and bx_erff against wasi-libc's expf and erff (musl's algorithms)
// on all 2^32 f32 inputs, result bits compared, in the wasm build: every one
// must match. About 10 minutes. (Natively the same command compares with
// glibc, which differs on some inputs: that is why we carry our own.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = process.env.BX_ROOT ?? process.cwd();
const wasmBuild = process.env.BX_WASM_BUILD ?? path.join(root, 'build/wasm');

test('bx_expf and bx_erff equal wasi-libc on every input', { timeout: 3600 * 1000 }, () => {
  const r = spawnSync(process.execPath,
    ['--single-threaded-gc', 'common/host/wasi-run.mjs', path.join(wasmBuild, 'stages/00-naive/cli.wasm'), 'check-maths'],
    { cwd: root, encoding: 'utf8' });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /expf: 0 of 4294967296 inputs differ/);
  assert.match(r.stdout, /erff: 0 of 4294967296 inputs differ/);
});
