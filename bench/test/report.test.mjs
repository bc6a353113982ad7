#!/usr/bin/env node
// The plot and the table render the sample results file (made-up numbers) with
// every element they promise: both modes, the ratio, the failed stage, the phases.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRuns } from '../lib/results.mjs';
import { renderSvg } from '../plot.mjs';
import { renderTable } from '../table.mjs';

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
    ['unsteady rounds', (run) => { run.results[0].round_medians_ms = [100, 100, 115]; }, 'not steady'],
]) {
    const table = renderTable(variant((run) => { base(run); change(run); }));
    if (!warned(table) || !table.includes(words)) failures.push(`${why}: the table carries no warning saying '${words}'`);
}
const svg = renderSvg(runs);
for (const want of ['<svg', '00-naive', '01-blocked', 'epoch ×1.50', 'failed', 'Matmul', 'Attention', 'Other', '</svg>'])
    if (!svg.includes(want)) failures.push(`svg lacks: ${want}`);
if ((svg.match(/<rect /g) ?? []).length < 12) failures.push('svg: too few bars');
for (const f of failures) console.log(`FAIL: ${f}`);
console.log(failures.length ? 'report test: FAIL' : 'report test: PASS');
process.exitCode = failures.length ? 1 : 0;
