#!/usr/bin/env node
// The report test must be able to fail: run it on a copy of bench/ whose trust
// check lets a run that started at load 1.4 through (`load <= 1` becomes
// `load <= 2`, the post's `>` to `>=` in spirit). Exits 0 only if the copied
// test then fails, and says what it caught.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const copy = mkdtempSync(join(tmpdir(), 'bx-report-mutant-'));
try {
    for (const part of ['lib', 'test', 'table.mjs', 'plot.mjs']) cpSync(join(bench, part), join(copy, 'bench', part), { recursive: true });
    const file = join(copy, 'bench', 'lib', 'results.mjs');
    const text = readFileSync(file, 'utf8');
    const mutated = text.replace('if (!(load <= 1))', 'if (!(load <= 2))');
    if (mutated === text) { console.log('report mutant: the mutation point is gone (update this script)'); process.exit(1); }
    writeFileSync(file, mutated);
    const r = spawnSync(process.execPath, [join(copy, 'bench', 'test', 'report.test.mjs')], { encoding: 'utf8' });
    const caught = r.status !== 0 && /load above 1/.test(r.stdout);
    console.log(r.stdout.trim());
    console.log(caught ? 'report mutant: caught (the test fails on a trust check that ignores the load)' : 'report mutant: NOT caught');
    process.exitCode = caught ? 0 : 1;
} finally {
    rmSync(copy, { recursive: true, force: true });
}
