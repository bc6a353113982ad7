#!/usr/bin/env node
// The report test must be able to fail: run it on copies of bench/ with one
// deliberate break each, the post's `>` to `>=` in spirit:
//   load      the trust check lets a run that started at load 1.4 through
//             (`load <= 1` becomes `load <= 2`)
//   verdict   an interval that only reaches below 1 is called faster
//             (`interval.hi < 1` becomes `interval.lo < 1`)
// Exits 0 only if the copied test fails on every one, and says what it caught.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const MUTANTS = [
    { name: 'load', file: 'lib/results.mjs', from: '!(load <= 1))', to: '!(load <= 2))', expect: /load above 1/ },
    { name: 'verdict', file: 'lib/stats.mjs', from: 'if (interval.hi < 1) return', to: 'if (interval.lo < 1) return', expect: /within noise|inside the noise/ },
];
let allCaught = true;
for (const m of MUTANTS) {
    const copy = mkdtempSync(join(tmpdir(), 'bx-report-mutant-'));
    try {
        for (const part of ['lib', 'test', 'floor', 'table.mjs', 'plot.mjs', 'pin.mjs']) cpSync(join(bench, part), join(copy, 'bench', part), { recursive: true });
        const file = join(copy, 'bench', m.file);
        const text = readFileSync(file, 'utf8');
        const mutated = text.replace(m.from, m.to);
        if (mutated === text) { console.log(`report mutant ${m.name}: the mutation point is gone (update this script)`); process.exit(1); }
        writeFileSync(file, mutated);
        const r = spawnSync(process.execPath, [join(copy, 'bench', 'test', 'report.test.mjs')], { encoding: 'utf8' });
        const caught = r.status !== 0 && m.expect.test(r.stdout);
        console.log(r.stdout.trim());
        console.log(caught ? `report mutant ${m.name}: caught` : `report mutant ${m.name}: NOT caught`);
        allCaught &&= caught;
    } finally {
        rmSync(copy, { recursive: true, force: true });
    }
}
process.exitCode = allCaught ? 0 : 1;
