// Reading bench results files (bench/results/*.json, written by bench/e2e/bench.mjs).
// The plot and the table show, for every (stage, mode), the newest result found
// among the files given; each row keeps the run it came from, so a figure and
// its machine, load and commit are never separated.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export function resultFiles(dir) {
    if (!existsSync(dir)) return [];
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
}

export function loadRuns(files) {
    const runs = [];
    for (const file of files) {
        let run;
        try { run = JSON.parse(readFileSync(file, 'utf8')); } catch (e) { throw new Error(`${file}: ${e.message}`); }
        // Other JSON may share the directory (e.g. Server-Timing captures): skip it.
        if (run?.schema !== 'bitexact-bench/1') { console.error(`(skipping ${file}: not a bench results file)`); continue; }
        run.file = file;
        runs.push(run);
    }
    return runs.sort((a, b) => a.date.localeCompare(b.date));
}

// Map "stage|mode" -> { run, result }, newest run wins. Sweep results (a
// stage's variants, bench.mjs --sweep) are not the stage: they are left out.
export function latestByStageMode(runs) {
    const latest = new Map();
    for (const run of runs) for (const result of run.results) {
        if (!result.sweep) latest.set(`${result.stage}|${result.mode}`, { run, result });
    }
    return latest;
}

export function stagesOf(latest) {
    return [...new Set([...latest.values()].map((e) => e.result.stage))].sort();
}

export const fmt = (x, digits = 1) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
