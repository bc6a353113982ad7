#!/usr/bin/env node
// The plot and the table render the sample results file (made-up numbers) with
// every element they promise: both modes, the ratio, the failed stage, the phases.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRuns } from '../lib/results.mjs';
import { renderSvg } from '../plot.mjs';
import { renderTable } from '../table.mjs';

const runs = loadRuns([join(dirname(fileURLToPath(import.meta.url)), 'sample-results.json')]);
const failures = [];
const table = renderTable(runs);
for (const want of ['| 00-naive | 1000.0 (970.0–1050.0) | 1500.0 (1455.0–1575.0) | 1.50× (min 1.50×) | – / – | 800.0 | 150.0 | 50.0 | 30.0 |',
                    '| 02-broken | **failed** (check exited 1) |', 'load 0.1 → 0.2'])
    if (!table.includes(want)) failures.push(`table lacks: ${want}`);
const svg = renderSvg(runs);
for (const want of ['<svg', '00-naive', '01-blocked', 'epoch ×1.50', 'failed', 'Matmul', 'Attention', 'Other', '</svg>'])
    if (!svg.includes(want)) failures.push(`svg lacks: ${want}`);
if ((svg.match(/<rect /g) ?? []).length < 12) failures.push('svg: too few bars');
for (const f of failures) console.log(`FAIL: ${f}`);
console.log(failures.length ? 'report test: FAIL' : 'report test: PASS');
process.exitCode = failures.length ? 1 : 0;
