// Reading bench results files (bench/results/*.json, written by bench/e2e/bench.mjs).
// The plot and the table show, for every (stage, mode), the newest result found
// among the files given; each row keeps the run it came from, so a figure and
// its machine, load and commit are never separated.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { modelHashAt } from './guest.mjs';

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

// Map "stage|mode" -> { run, result }, newest run wins: V8's results only
// (runs before wasmtime recorded no runtime; they were all V8's). Sweep results
// (a stage's variants, bench.mjs --sweep) are not the stage: they are left out.
export function latestByStageMode(runs) {
    const latest = new Map();
    for (const run of runs) for (const result of run.results) {
        if (!result.sweep && (result.runtime ?? 'v8') === 'v8') latest.set(`${result.stage}|${result.mode}`, { run, result });
    }
    return latest;
}

export function stagesOf(latest) {
    return [...new Set([...latest.values()].map((e) => e.result.stage))].sort();
}

export const fmt = (x, digits = 1) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));

// Why a run's numbers should not be trusted as this project's figures: a tree
// with uncommitted stage or common code, a load above 1 when it started (two
// cores: something else was running), or a model other than the committed
// assets/model/model.bxm (`currentModel` is that file's sha256). Empty when
// the run is sound. Tables print these on the table itself. Noise between
// rounds is not a warning any more: it is what the ratios' bootstrap intervals
// measure (bench/lib/stats.mjs), and a step inside it is called within noise.
// The request-level runs (bench/e2e/serve.mjs, bench/limits.mjs) record the same facts in
// flat fields (commit, dirty, model_sha256, machine.loadavg_1m): read either shape.
export function trustProblems(run, currentModel) {
    const problems = [];
    const tree = run.git ?? (run.commit ? { commit: run.commit, dirty: run.dirty } : undefined);
    if (tree?.dirty !== false) problems.push(tree?.dirty ? 'measured from a tree with uncommitted changes' : 'the tree state is not recorded');
    const load = run.machine?.loadavg_before?.[0] ?? run.machine?.loadavg_1m?.before;
    // A count of instructions does not care what else ran; a time does.
    if (run.schema !== 'bitexact-instructions/1' && !(load <= 1)) problems.push(load === undefined ? 'the load average is not recorded' : `the load average was ${load} when it started (above 1: other work shared the CPU)`);
    // Older files lack the model: a clean run at a commit ran that commit's model.
    const model = run.model?.sha256 ?? run.model_sha256 ?? (tree?.dirty === false ? modelHashAt(tree.commit) : null);
    if (!model) problems.push('the model it ran is not recorded');
    else if (currentModel && model !== currentModel) problems.push('it ran a different model than the committed assets/model/model.bxm');
    else if (run.model?.committed === false) problems.push('the model file had uncommitted changes');
    return problems;
}

// The warning line a reader cannot miss, or nothing.
export function trustWarning(runs, currentModel) {
    const lines = [];
    for (const run of runs) {
        const problems = trustProblems(run, currentModel);
        if (problems.length) lines.push(`**Warning: the run of ${run.date.slice(0, 16).replace('T', ' ')} UTC is not a trustworthy measurement: ${problems.join('; ')}.**`);
    }
    return lines.length ? `${lines.join('\n\n')}\n\n` : '';
}
