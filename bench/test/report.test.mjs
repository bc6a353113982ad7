#!/usr/bin/env node
// The plot and the table render the sample results file (made-up numbers) with
// every element they promise: both modes, the ratio, the failed stage, the phases.
// Then a made-up run of two runtimes: every step's ratio carries its interval,
// and the verdict calls a step faster, slower or within noise as its interval says.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRuns, trustWarning } from '../lib/results.mjs';
import { renderSvg } from '../plot.mjs';
import { renderTable } from '../table.mjs';
import { renderRuntimeForward, renderVerdict } from '../lib/runtime-tables.mjs';
import { ratioInterval, verdict } from '../lib/stats.mjs';

// The committed model's hash, as the tables see it: a made-up one, so the test needs no model file.
const sound = 'a'.repeat(64);
process.env.BENCH_TABLE_MODEL = sound;
const runs = loadRuns([join(dirname(fileURLToPath(import.meta.url)), 'sample-results.json')]);
const failures = [];
const table = renderTable(runs);
for (const want of ['| 00-naive | 1000.0 (970.0–1050.0) | 1500.0 (1455.0–1575.0) | 1.50× (min 1.50×) | – / – | 800.0 | 150.0 | 50.0 | 30.0 |',
                    '| 02-broken | **failed** (check exited 1) |', 'load 0.1 → 0.2'])
    if (!table.includes(want)) failures.push(`table lacks: ${want}`);
// A table from an untrustworthy run says so on the table itself, and a sound run carries no warning.
const variant = (change) => { const run = structuredClone(runs[0]); change(run); return [run]; };
const warned = (table) => table.includes('is not a trustworthy measurement');
const base = (run) => { run.model = { sha256: sound, committed: true }; };
if (warned(renderTable(variant(base)))) failures.push('a sound run got a warning');
for (const [why, change, words] of [
    ['no model recorded', (run) => { delete run.model; }, 'model it ran is not recorded'],
    ['another model', (run) => { run.model.sha256 = 'b'.repeat(64); }, 'different model'],
    ['a dirty tree', (run) => { run.git.dirty = true; }, 'uncommitted changes'],
    ['load above 1', (run) => { run.machine.loadavg_before = [1.4, 1, 1]; }, 'load average was 1.4'],
]) {
    const table = renderTable(variant((run) => { base(run); change(run); }));
    if (!warned(table) || !table.includes(words)) failures.push(`${why}: the table carries no warning saying '${words}'`);
}
// The request-level runs (serve, limits) keep the same facts in flat fields: the same warnings.
const flat = { date: '2026-12-07T10:00:00Z', commit: 'c'.repeat(40), dirty: false, model_sha256: sound, machine: { loadavg_1m: { before: 0.2 } } };
if (trustWarning([flat], sound)) failures.push(`a sound request-level run got a warning: ${trustWarning([flat], sound)}`);
if (!trustWarning([{ ...flat, model_sha256: 'b'.repeat(64) }], sound).includes('different model')) failures.push('a request-level run of another model carries no warning');
if (!trustWarning([{ ...flat, dirty: true }], sound).includes('uncommitted changes')) failures.push('a request-level run from a dirty tree carries no warning');
const svg = renderSvg(runs);
for (const want of ['<svg', '00-naive', '01-blocked', 'epoch ×1.50', 'failed', 'Matmul', 'Attention', 'Other', '</svg>'])
    if (!svg.includes(want)) failures.push(`svg lacks: ${want}`);
if ((svg.match(/<rect /g) ?? []).length < 12) failures.push('svg: too few bars');

// Intervals: the same times give exactly 1; a tenth faster in every round, under
// noise that moves both builds alike, is faster; a difference smaller than the
// noise between rounds is within noise.
const noise = [1.00, 1.21, 0.93, 1.12, 1.05, 0.97, 1.18, 1.02, 0.95, 1.09];
const old = noise.map((n) => 100 * n);
const same = ratioInterval(old, old);
if (same.ratio !== 1 || same.lo !== 1 || same.hi !== 1) failures.push(`identical rounds: ${JSON.stringify(same)}`);
const tenth = ratioInterval(old.map((x) => x * 0.9), old);
if (verdict(tenth) !== 'faster' || !(tenth.hi < 1)) failures.push(`a tenth faster every round: ${JSON.stringify(tenth)} ${verdict(tenth)}`);
const jitter = [1.03, 0.96, 1.04, 0.98, 1.02, 0.97, 1.05, 0.99, 1.01, 0.95];
const small = ratioInterval(old.map((x, i) => x * jitter[i]), old);
if (verdict(small) !== 'within noise') failures.push(`a difference inside the noise: ${JSON.stringify(small)} ${verdict(small)}`);
if (verdict(ratioInterval(old.map((x) => x * 1.1), old)) !== 'slower') failures.push('a tenth slower every round is not called slower');

// A two-runtime run: stage 01 a tenth faster under wasmtime, the same within noise under V8.
const result = (stage, runtime, mode, rounds) => ({
    stage, runtime, mode, status: 'ok', round_medians_ms: rounds,
    forward_ms: { median: rounds.slice().sort((a, b) => a - b)[5], min: Math.min(...rounds), max: Math.max(...rounds) },
    profile_ms: { matmul: 1, attention: 1, other: 1 },
});
const two = {
    runtimes: { wasmtime: {}, v8: {} }, settings: { rounds: 10, runs: 4 },
    results: [result('00-a', 'wasmtime', 'epoch', old), result('01-b', 'wasmtime', 'epoch', old.map((x) => x * 0.9)),
              result('00-a', 'v8', 'plain', old), result('01-b', 'v8', 'plain', old.map((x, i) => x * jitter[i]))],
};
const instr = { results: [{ stage: '00-a', runtime: 'wasmtime', per_window: 2e9 }, { stage: '01-b', runtime: 'wasmtime', per_window: 2e9 },
                          { stage: '00-a', runtime: 'v8', per_window: 1e9 }, { stage: '01-b', runtime: 'v8', per_window: 1e9 }] };
const forward = renderRuntimeForward(two, instr);
if (!/\| 01-b \| \d+\.\d \| 0\.900× \[0\.900, 0\.900\] \|/.test(forward)) failures.push(`runtime forward table lacks stage 01's wasmtime step:\n${forward}`);
if (!forward.includes('2.000e9')) failures.push('runtime forward table lacks the instructions');
const line = renderVerdict(two, instr, '01');
if (!/wasmtime[^;]*0\.900×[^;]*faster/.test(line)) failures.push(`verdict: wasmtime's step is not called faster: ${line}`);
if (!/V8 [^;]*within noise/.test(line)) failures.push(`verdict: V8's step is not called within noise: ${line}`);
if (/gains nothing/.test(line)) failures.push(`verdict: a step faster under wasmtime is said to gain nothing: ${line}`);
two.results[1].round_medians_ms = old.map((x, i) => x * jitter[i]);
if (!/Under wasmtime this step gains nothing/.test(renderVerdict(two, instr, '01'))) failures.push('verdict: a step within noise with the same instructions does not say it gains nothing');

for (const f of failures) console.log(`FAIL: ${f}`);
console.log(failures.length ? 'report test: FAIL' : 'report test: PASS');
process.exitCode = failures.length ? 1 : 0;
