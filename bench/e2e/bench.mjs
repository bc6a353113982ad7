#!/usr/bin/env node
// End-to-end timing of the stages' WASM CLIs under Node (V8), in two modes:
//   plain  the module as built
//   epoch  the module with wasmtime-style deadline checks (bench/epoch/instrument.mjs)
//
// For every (stage, mode), in this order:
//   1. check: `cli check` on the eval corpus against stage 00's reference, run by
//      the very module that will be timed (the instrumented one in epoch mode).
//      A non-zero exit records the result as failed, with no times at all.
//   2. bench: `cli bench` in a fresh Node process: tokenizer loads, then one
//      pass over every window of the corpus (warm-up and logit hash), more
//      warm-up forwards, then the timed forwards (common/harness/bench_cmd.cpp).
//
// Warm-up: V8 starts wasm in its baseline compiler (Liftoff) and tiers up to
// TurboFan while it runs. By default the child runs with `--no-liftoff`, so
// every function is compiled by TurboFan before it first runs, and tier-up
// cannot land inside the timed runs; the warm-up forwards then only warm caches
// and the allocator. The warm-up times are kept in the results, so a reader can
// see they settle. `--tiering dynamic` measures V8's default instead.
//
// All stages and modes of one invocation go into one results file, so stage
// ratios are taken side by side under the same conditions. The machine's load
// is recorded before and after: numbers taken while something else runs (a
// training job, a build) are noisy, and the file says so.
//
// usage: node bench/e2e/bench.mjs [--stage NN[,NN..] | --all] [--modes plain,epoch]
//          [--runs 20] [--warmup 5] [--rounds 1] [--tiering turbofan|dynamic]
//          [--corpus assets/corpora/eval.jsonl] [--ref assets/baselines/eval.ref]
//          [--build build/wasm] [--out bench/results] [--name LABEL] [--no-check]

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrument } from '../epoch/instrument.mjs';
import { summarize } from '../lib/stats.mjs';
import { V8_FLAGS, benchOnce, check, compiler, gitInfo, machine, modelInfo, stageFlags } from '../lib/guest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

function parseArgs(argv) {
    const o = {
        stages: null, all: false, modes: ['plain', 'epoch'], runs: 20, warmup: 5, rounds: 1, tokLoads: 10,
        tiering: 'turbofan', corpus: 'assets/corpora/eval.jsonl', ref: 'assets/baselines/eval.ref',
        build: 'build/wasm', out: 'bench/results', name: null, check: true, sweep: false,
    };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
        if (a === '--stage') o.stages = next().split(',').filter(Boolean);
        else if (a === '--all') o.all = true;
        else if (a === '--modes') o.modes = next().split(',').filter(Boolean);
        else if (a === '--runs') o.runs = Number(next());
        else if (a === '--warmup') o.warmup = Number(next());
        else if (a === '--rounds') o.rounds = Number(next());
        else if (a === '--tok-loads') o.tokLoads = Number(next());
        else if (a === '--tiering') o.tiering = next();
        else if (a === '--corpus') o.corpus = next();
        else if (a === '--ref') o.ref = next();
        else if (a === '--build') o.build = next();
        else if (a === '--out') o.out = next();
        else if (a === '--name') o.name = next();
        else if (a === '--no-check') o.check = false;
        else if (a === '--sweep') o.sweep = true;
        else throw new Error(`unknown argument ${a}`);
    }
    for (const m of o.modes) if (m !== 'plain' && m !== 'epoch') throw new Error(`unknown mode ${m}`);
    if (!['turbofan', 'dynamic'].includes(o.tiering)) throw new Error(`unknown tiering ${o.tiering}`);
    if (!(o.runs >= 1 && o.warmup >= 0 && o.rounds >= 1 && o.tokLoads >= 1)) throw new Error('bad --runs/--warmup/--rounds/--tok-loads');
    return o;
}

// ---- stages ------------------------------------------------------------------

function findStages(o) {
    const dir = resolve(root, o.build, 'stages');
    const built = existsSync(dir) ? readdirSync(dir).filter((d) => /^\d\d-/.test(d) && existsSync(join(dir, d, 'cli.wasm'))).sort() : [];
    if (o.all) return built;
    if (!o.stages) throw new Error('give --stage NN or --all');
    return o.stages.map((nn) => {
        const match = built.find((d) => d === nn || d.startsWith(`${nn}-`));
        if (!match) throw new Error(`stage ${nn}: no ${o.build}/stages/${nn}-*/cli.wasm (build it first)`);
        return match;
    });
}

// --sweep: the stage and its exact variants (bx_stage SWEEP), as CMake listed
// them in variants.json: [{variant, label, defs}], the stage itself first.
function sweepOf(o, stage) {
    const file = resolve(root, o.build, 'stages', stage, 'variants.json');
    if (!existsSync(file)) throw new Error(`${stage}: no ${relative(root, file)} (reconfigure the wasm build)`);
    const v = JSON.parse(readFileSync(file, 'utf8'));
    const entries = Object.entries(v.sweep);
    if (entries.length === 0) throw new Error(`${stage}: bx_stage() lists no SWEEP variants`);
    return [{ variant: null, label: v.sweep_base || 'stage', defs: 'the stage as built' },
            ...entries.map(([variant, defs]) => ({ variant, label: variant, defs }))];
}

// The module to run for a mode; epoch modules are written next to the original.
function moduleFor(o, stage, mode, variant = null) {
    const name = variant ? `cli-${variant}` : 'cli';
    const plain = resolve(root, o.build, 'stages', stage, `${name}.wasm`);
    if (!existsSync(plain)) throw new Error(`${relative(root, plain)} is missing (build it first)`);
    if (mode === 'plain') return { path: plain };
    const out = resolve(root, o.build, 'stages', stage, `${name}.epoch.wasm`);
    const { bytes, stats } = instrument(readFileSync(plain));
    if (!WebAssembly.validate(bytes)) throw new Error(`${stage}: the instrumented module does not validate`);
    writeFileSync(out, bytes);
    return { path: out, instrument: { functions: stats.functions, loops: stats.loops, checks: stats.checks } };
}

// ---- main ----------------------------------------------------------------------

function main() {
    const o = parseArgs(process.argv.slice(2));
    const stages = findStages(o);
    if (stages.length === 0) throw new Error(`no stage CLIs under ${o.build}/stages (run the wasm build first)`);
    const started = new Date();
    const record = {
        schema: 'bitexact-bench/1',
        date: started.toISOString(),
        git: gitInfo(),
        machine: { ...machine(), loadavg_before: loadavg().map((x) => +x.toFixed(2)) },
        runtime: { node: process.version, v8: process.versions.v8, flags: V8_FLAGS[o.tiering], tiering: o.tiering },
        compiler: compiler(o.build),
        model: modelInfo(),
        settings: { runs: o.runs, warmup: o.warmup, rounds: o.rounds, tok_loads: o.tokLoads, corpus: o.corpus, ref: o.check ? o.ref : null },
        results: [],
    };

    // Prepare every (stage, mode) and check it before any timing.
    const jobs = [];
    // --sweep sweeps the last stage listed; any stage before it is timed beside
    // the sweep as it is built (`make bench-sweep STAGE=07 BESIDE=06`), so the
    // step from the previous stage is measured in the same run.
    const swept = stages[stages.length - 1];
    const buildsOf = (stage) => (!o.sweep ? [{ variant: null }]
        : stage === swept ? sweepOf(o, stage) : [{ variant: null, label: stage, defs: 'a previous stage, beside the sweep' }]);
    for (const stage of stages) for (const one of buildsOf(stage)) {
        for (const mode of o.modes) {
            const result = { stage, mode, status: 'ok', compile_flags: stageFlags(o.build, stage) };
            // A sweep's results carry their variant, so the forward table (one row per
            // stage) never mistakes them for the stage itself.
            if (o.sweep) Object.assign(result, { sweep: true, sweep_of: swept.slice(0, 2), variant: one.variant, label: one.label, defs: one.defs });
            const job = { stage, mode, result };
            try {
                const m = moduleFor(o, stage, mode, one.variant);
                job.module = m.path;
                if (m.instrument) job.result.instrument = m.instrument;
            } catch (e) {
                job.result.status = 'failed';
                job.result.reason = `instrument: ${e.message}`;
            }
            if (job.result.status === 'ok') {
                if (o.check) {
                    const c = check(o, job.module);
                    job.result.check = c;
                    if (c.exit !== 0) { job.result.status = 'failed'; job.result.reason = `check exited ${c.exit}`; }
                } else {
                    job.result.status = 'unchecked';
                }
            }
            console.error(`[bench] ${stage}${one.variant ? ` ${one.variant}` : ''} ${mode}: ${job.result.status}${job.result.reason ? ` (${job.result.reason})` : ''}`);
            jobs.push(job);
        }
    }

    // Rounds interleave the jobs, so slow drifts in machine load hit every stage alike.
    const raw = new Map(jobs.map((j) => [j, []]));
    for (let round = 0; round < o.rounds; round++) {
        for (const job of jobs) {
            if (job.result.status === 'failed') continue;
            const r = benchOnce(o, job.module);
            if (r.error) { job.result.status = 'failed'; job.result.reason = r.error; continue; }
            raw.get(job).push(r.data);
            const fwd = summarize(r.data.forward_ms);
            const cpuNote = r.data.forward_cpu_ms ? `, CPU median ${summarize(r.data.forward_cpu_ms).median.toFixed(1)} ms` : '';
            console.error(`[bench] ${job.stage}${job.result.variant ? ` ${job.result.variant}` : ''} ${job.mode} round ${round + 1}: forward median ${fwd.median.toFixed(1)} ms, min ${fwd.min.toFixed(1)} ms${cpuNote}`);
        }
    }

    for (const job of jobs) {
        const res = job.result;
        const runs = raw.get(job);
        if (res.status !== 'failed' && runs.length) {
            const forward = runs.flatMap((d) => d.forward_ms);
            const cpu = runs.flatMap((d) => d.forward_cpu_ms ?? []);
            const phase = (k) => runs.reduce((s, d) => s + d.profile_ms[k], 0) / runs.length;
            Object.assign(res, {
                forward_ms: { ...summarize(forward), runs: forward },
                // Each round's median: how far the same build moves between rounds (the noise).
                round_medians_ms: runs.map((d) => summarize(d.forward_ms).median),
                // CPU time of the wasm thread: leaves out time the thread sat descheduled.
                forward_cpu_ms: cpu.length ? { ...summarize(cpu), runs: cpu } : null,
                profile_ms: { matmul: phase('matmul'), attention: phase('attention'), other: phase('other') },
                tok_load_ms: summarize(runs.flatMap((d) => d.tok_load_ms)),
                tok_parse_ms: summarize(runs.flatMap((d) => d.tok_parse_ms ?? [])),
                tok_read_ms: summarize(runs.flatMap((d) => d.tok_read_ms ?? [])),
                model_load_ms: runs[0].model_load_ms,
                encode_ms: summarize(runs.map((d) => d.encode_ms)),
                warmup_ms: runs.map((d) => d.warmup_ms),
                live: runs[0].live,
                corpus: { texts: runs[0].texts, windows: runs[0].windows },
                logits_fnv: [...new Set(runs.map((d) => d.logits_fnv))],
            });
        } else if (res.status === 'failed') {
            delete res.forward_ms;
        }
        record.results.push(res);
    }
    // Plain and epoch builds of one stage must compute the same bits.
    for (const res of record.results) {
        if (res.mode !== 'epoch' || !res.logits_fnv) continue;
        const plain = record.results.find((r) => r.stage === res.stage && r.variant === res.variant && r.mode === 'plain' && r.logits_fnv);
        if (plain) res.logits_match_plain = plain.logits_fnv.join() === res.logits_fnv.join();
    }
    record.machine.loadavg_after = loadavg().map((x) => +x.toFixed(2));
    record.machine.note = 'loadavg over 1/5/15 min; with 2 cores, a load above ~1 means other work shared the CPU and the times are inflated';

    const label = o.name ?? (o.all ? 'all' : `${o.sweep ? 'sweep-' : ''}${stages.join('+')}`);
    const stamp = started.toISOString().slice(0, 16).replace(':', '');
    const outDir = resolve(root, o.out);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `${stamp}-${label}.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
    console.log(relative(process.cwd(), file));
    for (const res of record.results) {
        const f = res.forward_ms;
        console.log(`${res.stage.padEnd(16)} ${(res.label ?? '').padEnd(8)} ${res.mode.padEnd(6)} ${res.status.padEnd(9)} ` +
            (f ? `forward median ${f.median.toFixed(1)} ms (min ${f.min.toFixed(1)}, max ${f.max.toFixed(1)}, n=${f.n})` +
                 (res.forward_cpu_ms ? `, CPU median ${res.forward_cpu_ms.median.toFixed(1)} ms` : '') : res.reason ?? ''));
    }
    return record.results.some((r) => r.status === 'failed') ? 1 : 0;
}

try {
    process.exitCode = main();
} catch (e) {
    console.error(`bench: ${e.message}`);
    process.exitCode = 2;
}
