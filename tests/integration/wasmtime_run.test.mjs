// ctest-labels: wasm;quick;wasmtime
// common/host/wasmtime-run.py runs a stage's cli.wasm under wasmtime configured
// as Spin configures it. Its settings are what it says; the guest's exit status
// comes through; and epoch interruption is really on: with a deadline of one
// tick the guest traps mid-run (exit 134, "interrupt"), while with the default
// deadline the same command finishes (the eval checks under wasmtime).
//
// BX_WASMTIME_MUTATE=no-epoch runs the deadline test with the checks compiled
// out (--no-epoch): then nothing interrupts the guest and that test must fail
// (tests/CMakeLists.txt expects it to).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { firstStage, root, wasmBuild, wasmtimeHost, wasmtimePython } from './lib/env.mjs';

const cli = path.join(wasmBuild, 'stages', firstStage, 'cli.wasm');
const mutate = process.env.BX_WASMTIME_MUTATE ?? '';
const host = (...args) => spawnSync(wasmtimePython, [wasmtimeHost, ...args], { encoding: 'utf8', cwd: root });
const missing = (!existsSync(wasmtimePython) && `${wasmtimePython} missing (make setup-wasmtime)`)
  || (!existsSync(cli) && `${cli} not built`);

test('the settings: Cranelift at speed, SIMD, epoch interruption with a deadline that never fires', { skip: missing }, () => {
  const r = host('--describe');
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.equal(s.runtime, 'wasmtime');
  assert.match(s.wasmtime, /^\d+\.\d+\.\d+$/);
  assert.equal(s.strategy, 'cranelift');
  assert.equal(s.cranelift_opt_level, 'speed');
  assert.equal(s.wasm_simd, true);
  assert.equal(s.epoch_interruption, true);
  // 10 ms ticks for 2^40 ticks: centuries.
  assert.ok(s.epoch_deadline_ticks * s.epoch_tick_ms / 1000 > 1e9, JSON.stringify(s));
});

test('exit status and output pass through', { skip: missing }, () => {
  const usage = host(cli);  // no command: the harness prints usage and exits 2
  assert.equal(usage.status, 2, usage.stderr);
  assert.match(usage.stdout, /usage: cli\.wasm/);
  const help = host('--root', cli, 'help');
  assert.equal(help.status, 0, help.stderr);
});

test('a deadline of one tick fires: the guest traps with an interrupt, exit 134', { skip: missing }, () => {
  const epoch = mutate === 'no-epoch' ? ['--no-epoch'] : [];
  const t0 = performance.now();
  // Stage 00's eval takes seconds; 1 ms ticks, a deadline of one tick.
  const r = host('--root', ...epoch, '--tick-ms', '1', '--deadline-ticks', '1', cli, 'eval', '--runs', '1');
  const ms = performance.now() - t0;
  assert.equal(r.status, 134, `the guest was not interrupted: exit ${r.status}\n${r.stderr.slice(-400)}`);
  assert.match(r.stderr, /the guest trapped: [\s\S]*interrupt/);
  assert.doesNotMatch(r.stdout, /label agreement/, 'the eval ran to its end');
  console.log(`interrupted after ${ms.toFixed(0)} ms (host start and compilation included)`);
});
