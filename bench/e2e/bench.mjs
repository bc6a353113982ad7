#!/usr/bin/env node
// End-to-end timing of the stages' WASM CLIs, under each runtime and mode asked
// for (--configs runtime:mode,...; bench/lib/guest.mjs):
//   wasmtime:epoch  wasmtime as Spin runs it: Cranelift, epoch interruption on
//   wasmtime:plain  the same without the epoch checks (what the checks cost)
//   v8:plain        Node/V8, the module as built (what a browser runs)
//   v8:epoch        Node/V8, the module with emulated deadline checks
//                   (bench/epoch/instrument.mjs; from before wasmtime was here)
//
// For every (stage, config), in this order:
//   1. check: `cli check` on the eval corpus against stage 00's reference, run by
//      the very module and runtime that will be timed. A non-zero exit records
//      the result as failed, with no times at all.
//   2. bench: `cli bench` in a fresh process, once per round: tokenizer loads,
//      in the first round one pass over every window of the corpus (warm-up and
//      logit hash), warm-up forwards, then the timed forwards
//      (common/harness/bench_cmd.cpp).
//
// Rounds: this host is shared and noisy (10-25% between rounds), so a run is
// many short rounds, each of which runs every (stage, config) once, in the same
// order. A ratio between two builds is then taken round by round, and
// bench/lib/stats.mjs gives it a 95% bootstrap interval over the rounds; the
// tables call a step whose interval contains 1 "within noise".
//
// Warm-up: V8 starts wasm in its baseline compiler (Liftoff) and tiers up to
// TurboFan while it runs. By default the child runs with `--no-liftoff`, so
// every function is compiled by TurboFan before it first runs; wasmtime compiles
// the whole module with Cranelift before it starts. Warm-up forwards then only
// warm caches and the allocator. `--tiering dynamic` measures V8's default.
//
// All stages and configs of one invocation go into one results file, so ratios
// are taken side by side under the same conditions. The machine's load is
// recorded before and after.
//
// usage: node bench/e2e/bench.mjs [--stage NN[,NN..] | --all] [--configs wasmtime:epoch,v8:plain]
//          [--runs 4] [--warmup 1] [--rounds 10]
//          [--tiering turbofan|dynamic] [--corpus assets/corpora/eval.jsonl] [--ref assets/baselines/eval.ref]
//          [--build build/wasm] [--out bench/results] [--name LABEL] [--no-check]

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrument } from '../epoch/instrument.mjs';
import { summarize } from '../lib/stats.mjs';
import { benchOnce, builtStages, check, compiler, configName, gitInfo, machine, modelInfo, parseConfigs, runtimeInfo, stageFlags } from '../lib/guest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

function parseArgs(argv) {
    const o = {
        stages: null, all: false, configs: parseConfigs('wasmtime:epoch,v8:plain'), runs: 4, warmup: 1, rounds: 10, tokLoads: 3,
        tiering: 'turbofan', corpus: 'assets/corpora/eval.jsonl', ref: 'assets/baselines/eval.ref',
        build: 'build/wasm', out: 'bench/results', name: null, check: true, sweep: false,
    };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
        if (a === '--stage') o.stages = next().split(',').filter(Boolean);
        else if (a === '--all') o.all = true;
        else if (a === '--configs') o.configs = parseConfigs(next());
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
    if (!['turbofan', 'dynamic'].includes(o.tiering)) throw new Error(`unknown tiering ${o.tiering}`);
    if (!(o.runs >= 1 && o.warmup >= 0 && o.rounds >= 1 && o.tokLoads >= 1)) throw new Error('bad --runs/--warmup/--rounds/--tok-loads');
    return o;
}

// ---- stages ------------------------------------------------------------------

function findStages(o) {
    if (o.all) return builtStages(o.build);
    if (!o.stages) throw new Error('give --stage NN or --all');
    return builtStages(o.build, o.stages);
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

// The module to run for a config: wasmtime compiles its epoch checks itself; V8's
// epoch modules are instrumented copies written next to the original.
function moduleFor(o, stage, config, variant = null) {
    const name = variant ? `cli-${variant}` : 'cli';
    const plain = resolve(root, o.build, 'stages', stage, `${name}.wasm`);
    if (!existsSync(plain)) throw new Error(`${relative(root, plain)} is missing (build it first)`);
    if (config.runtime === 'wasmtime' || config.mode === 'plain') return { path: plain };
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
        runtimes: runtimeInfo(o, [...new Set(o.configs.map((c) => c.runtime))]),
        compiler: compiler(o.build),
        model: modelInfo(),
        settings: { runs: o.runs, warmup: o.warmup, rounds: o.rounds, tok_loads: o.tokLoads, corpus: o.corpus, ref: o.check ? o.ref : null,
                    configs: o.configs.map(configName), hash_pass: 'first round only' },
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
        for (const config of o.configs) {
            const { runtime, mode } = config;
            const result = { stage, runtime, mode, status: 'ok', compile_flags: stageFlags(o.build, stage) };
            // A sweep's results carry their variant, so the forward table (one row per
            // stage) never mistakes them for the stage itself.
            if (o.sweep) Object.assign(result, { sweep: true, sweep_of: swept.slice(0, 2), variant: one.variant, label: one.label, defs: one.defs });
            const job = { stage, config, result };
            try {
                const m = moduleFor(o, stage, config, one.variant);
                job.module = m.path;
                if (m.instrument) job.result.instrument = m.instrument;
            } catch (e) {
                job.result.status = 'failed';
                job.result.reason = `instrument: ${e.message}`;
            }
            if (job.result.status === 'ok') {
                if (o.check) {
                    const c = check(o, job.module, config);
                    job.result.check = c;
                    if (c.exit !== 0) { job.result.status = 'failed'; job.result.reason = `check exited ${c.exit}`; }
                } else {
                    job.result.status = 'unchecked';
                }
            }
            console.error(`[bench] ${stage}${one.variant ? ` ${one.variant}` : ''} ${configName(config)}: ${job.result.status}${job.result.reason ? ` (${job.result.reason})` : ''}`);
            jobs.push(job);
        }
    }

    // Rounds interleave the jobs, so slow drifts in machine load hit every stage alike.
    const raw = new Map(jobs.map((j) => [j, []]));
    for (let round = 0; round < o.rounds; round++) {
        for (const job of jobs) {
            if (job.result.status === 'failed') continue;
            const r = benchOnce(o, job.module, job.config, { hashPass: round === 0 });
            if (r.error) { job.result.status = 'failed'; job.result.reason = r.error; continue; }
            raw.get(job).push(r.data);
            const fwd = summarize(r.data.forward_ms);
            const cpuNote = r.data.forward_cpu_ms?.some((x) => x > 0) ? `, CPU median ${summarize(r.data.forward_cpu_ms).median.toFixed(1)} ms` : '';
            console.error(`[bench] ${job.stage}${job.result.variant ? ` ${job.result.variant}` : ''} ${configName(job.config)} round ${round + 1}: forward median ${fwd.median.toFixed(1)} ms, min ${fwd.min.toFixed(1)} ms${cpuNote}`);
        }
    }

    for (const job of jobs) {
        const res = job.result;
        const runs = raw.get(job);
        if (res.status !== 'failed' && runs.length) {
            const forward = runs.flatMap((d) => d.forward_ms);
            // wasmtime's WASI has no thread CPU clock (the guest reads 0): no CPU figures then.
            const cpuOf = (d) => (d.forward_cpu_ms ?? []).filter((x) => x > 0);
            const cpu = runs.flatMap(cpuOf);
            const phase = (k) => runs.reduce((s, d) => s + d.profile_ms[k], 0) / runs.length;
            Object.assign(res, {
                forward_ms: { ...summarize(forward), runs: forward },
                // Each round's median, in round order: ratios and their bootstrap
                // intervals pair two builds' medians round by round (bench/lib/stats.mjs).
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
                logits_fnv: [...new Set(runs.map((d) => d.logits_fnv).filter(Boolean))],
            });
        } else if (res.status === 'failed') {
            delete res.forward_ms;
        }
        record.results.push(res);
    }
    // Every config of one stage must compute the same bits (the first config's are the yardstick).
    for (const res of record.results) {
        if (!res.logits_fnv) continue;
        const first = record.results.find((r) => r.stage === res.stage && r.variant === res.variant && r.logits_fnv);
        if (first === res) continue;
        res.logits_match = { config: configName(first), same: first.logits_fnv.join() === res.logits_fnv.join() };
        if (!res.logits_match.same) Object.assign(res, { status: 'failed', reason: `its logit hash differs from ${res.logits_match.config}'s` });
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
        console.log(`${res.stage.padEnd(16)} ${(res.label ?? '').padEnd(8)} ${configName(res).padEnd(14)} ${res.status.padEnd(9)} ` +
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
