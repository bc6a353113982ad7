#!/usr/bin/env node
// `make bench-peer`: our stages beside what a web developer would run
// instead, in one run, on the same windows, under the same Node:
//   onnxruntime-web   wasm backend with SIMD, one thread (a Spin component has
//                     no threads either): what transformers.js runs
//   onnxruntime-node  native CPU, one thread: what a native server would run
// Both run our trained model exported to ONNX (export_onnx.py: the same int8
// weights and per-row scales, ONNX Runtime's own dynamic activation quantiser,
// float elsewhere), fed the windows stage 00's `cli windows` cut from the
// corpus. The stage is checked against stage 00 first and records no time if
// it fails; the peers are not bit-exact by design, so for them we record how
// far they are: label agreement and logit distance to stage 00.
//
// Beside them runs the bound (bench/floor/bound.mjs): the integer and float
// products and the exponentials a stage computes for each window, alone, the
// least time a stage's pass could take under this V8 on this core. It says,
// in the same run, how near to ONNX Runtime any stage could ever come.
//
// Each stage and the bound also run under wasmtime with epoch interruption, as
// Spin runs them (the stage's `(wasmtime)` rows, `bound (wasmtime)`), in the
// same rounds: how far each stage is from its bound, on both runtimes, from
// one run. --no-wasmtime leaves those rows out.
//
// Rounds interleave stage, web, node and bound (fresh Node process each), so a
// drift in machine load hits all of them alike; the ratios come from one file.
//
// usage: node bench/peer/peer.mjs --onnx build/peer/model-int8.onnx --windows build/peer/eval-windows.json
//          [--stage NN[,MM] (09, the last of the post's steps, and the last built)] [--runs 20] [--warmup 5] [--rounds 3]
//          [--corpus assets/corpora/eval.jsonl] [--ref build/bench/eval.ref] [--build build/wasm] [--out bench/results]
//          [--no-wasmtime]
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { V8_FLAGS, benchOnce, check, compiler, gitInfo, machine, modelInfo, runtimeInfo } from '../lib/guest.mjs';
import { summarize } from '../lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

function parseArgs(argv) {
    const o = { stage: null, runs: 20, warmup: 5, rounds: 3, tokLoads: 3, tiering: 'turbofan', corpus: 'assets/corpora/eval.jsonl',
                ref: 'build/bench/eval.ref', build: 'build/wasm', out: 'bench/results', onnx: null, windows: null, wasmtime: true };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
        if (a === '--stage') o.stage = next();
        else if (a === '--runs') o.runs = Number(next());
        else if (a === '--warmup') o.warmup = Number(next());
        else if (a === '--rounds') o.rounds = Number(next());
        else if (a === '--corpus') o.corpus = next();
        else if (a === '--ref') o.ref = next();
        else if (a === '--build') o.build = next();
        else if (a === '--out') o.out = next();
        else if (a === '--onnx') o.onnx = next();
        else if (a === '--windows') o.windows = next();
        else if (a === '--no-wasmtime') o.wasmtime = false;
        else throw new Error(`unknown argument ${a}`);
    }
    if (!o.onnx || !o.windows) throw new Error('give --onnx MODEL.onnx and --windows WINDOWS.json');
    if (!(o.runs >= 1 && o.warmup >= 0 && o.rounds >= 1)) throw new Error('bad --runs/--warmup/--rounds');
    return o;
}

// The stages to time: --stage NN[,MM], or stage 09 (where the post ends) and
// the last built stage.
function stagesOf(o) {
    const dir = resolve(root, o.build, 'stages');
    const built = existsSync(dir) ? readdirSync(dir).filter((d) => /^\d\d-/.test(d) && existsSync(join(dir, d, 'cli.wasm'))).sort() : [];
    const wanted = o.stage ? o.stage.split(',') : [...new Set(['09', built[built.length - 1]?.slice(0, 2)])].filter(Boolean);
    const stages = wanted.map((nn) => built.find((d) => d.startsWith(`${nn}-`)));
    if (stages.length === 0 || stages.some((s) => !s)) throw new Error(`no built stage ${wanted.join(',')} under ${o.build}/stages (run make build-wasm)`);
    return stages;
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

// One measurement in a fresh Node with the V8 flags the stages get: a script
// that prints one JSON line last, or an error naming it.
function runNode(o, name, script, args, cwd) {
    const r = spawnSync(process.execPath, [...V8_FLAGS[o.tiering], script, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
    const line = (r.stdout ?? '').trim().split('\n').reverse().find((l) => l.startsWith('{'));
    if (r.status !== 0 || !line) return { error: `${name} exited ${r.status}: ${(r.stderr ?? '').trim().slice(-400)}` };
    return { data: JSON.parse(line) };
}

// A peer: ONNX Runtime (run-ort.mjs) on the windows.
const runPeer = (o, runtime) => runNode(o, `run-ort ${runtime}`, join(here, 'run-ort.mjs'),
    [runtime, resolve(root, o.onnx), resolve(root, o.windows), String(o.runs), String(o.warmup)], here);

// The bound: the products a stage computes for each of the windows, alone.
const runBound = (o, runtime) => runNode(o, 'bound.mjs', join(root, 'bench/floor/bound.mjs'),
    ['--runtime', runtime, String(o.runs), String(o.warmup), resolve(root, o.windows)], root);
const WASMTIME_EPOCH = { runtime: 'wasmtime', mode: 'epoch' };

function main() {
    const o = parseArgs(process.argv.slice(2));
    const stages = stagesOf(o);
    for (const f of [o.onnx, o.windows, `${o.windows}.f32`, o.ref])
        if (!existsSync(resolve(root, f))) throw new Error(`${f} is missing (make bench-peer makes it)`);
    const windows = JSON.parse(readFileSync(resolve(root, o.windows), 'utf8'));
    const record = {
        schema: 'bitexact-peer/1',
        date: new Date().toISOString(),
        git: gitInfo(),
        machine: { ...machine(), loadavg_before: loadavg().map((x) => +x.toFixed(2)) },
        runtime: { node: process.version, v8: process.versions.v8, flags: V8_FLAGS[o.tiering], tiering: o.tiering },
        ...(o.wasmtime ? { runtimes: runtimeInfo(o, ['wasmtime', 'v8']) } : {}),
        compiler: compiler(o.build),
        settings: { runs: o.runs, warmup: o.warmup, rounds: o.rounds, corpus: o.corpus, ref: o.ref },
        model: { ...modelInfo(), onnx: o.onnx, onnx_sha256: sha256(resolve(root, o.onnx)) },
        windows: { file: o.windows, made_by: windows.stage, model_fnv: windows.model_fnv, count: windows.windows.length },
        results: [],
    };

    // Each stage must be bit-exact before it is timed, as in bench.mjs.
    const configs = [null, ...(o.wasmtime ? [WASMTIME_EPOCH] : [])];  // null: V8, this Node's flags
    const ours = configs.flatMap((config) => stages.map((stage) => {
        const module = resolve(root, o.build, 'stages', stage, 'cli.wasm');
        const checked = check(o, module, config ?? undefined);
        const name = config ? `${stage} (wasmtime)` : stage;
        const entry = { name, stage, kind: 'stage', runtime: config ? 'wasmtime:epoch' : 'v8', module, config,
                        status: checked.exit === 0 ? 'ok' : 'failed', check: checked };
        console.error(`[peer] ${name}: check ${entry.status}`);
        return entry;
    }));
    const peers = [{ name: 'onnxruntime-web', kind: 'web', status: 'ok' }, { name: 'onnxruntime-node', kind: 'node', status: 'ok' },
                   { name: 'bound', kind: 'bound', runtime: 'v8', status: 'ok' },
                   ...(o.wasmtime ? [{ name: 'bound (wasmtime)', kind: 'bound', runtime: 'wasmtime:epoch', status: 'ok' }] : [])];
    const entries = [...ours, ...peers];
    const raw = new Map(entries.map((e) => [e, []]));
    for (let round = 0; round < o.rounds; round++) {
        for (const e of entries) {
            if (e.status !== 'ok') continue;
            const r = e.kind === 'stage' ? benchOnce(o, e.module, e.config ?? undefined)
                : e.kind === 'bound' ? runBound(o, e.runtime === 'v8' ? 'v8' : 'wasmtime') : runPeer(o, e.kind);
            if (r.error) { e.status = 'failed'; e.reason = r.error; continue; }
            raw.get(e).push(r.data);
            const m = summarize(r.data.forward_ms).median;
            console.error(`[peer] ${e.name} round ${round + 1}: forward median ${m.toFixed(1)} ms`);
        }
    }
    for (const e of entries) {
        const runs = raw.get(e);
        if (e.status === 'ok' && runs.length) {
            const forward = runs.flatMap((d) => d.forward_ms);
            const cpu = runs.flatMap((d) => d.forward_cpu_ms ?? []);
            Object.assign(e, {
                forward_ms: { ...summarize(forward), runs: forward },
                forward_cpu_ms: cpu.length ? { ...summarize(cpu), runs: cpu } : null,
                round_medians_ms: runs.map((d) => summarize(d.forward_ms).median),
                warmup_ms: runs.map((d) => d.warmup_ms),
            });
            if (e.kind === 'stage') {
                e.profile_ms = ['matmul', 'attention', 'other'].reduce(
                    (p, k) => ({ ...p, [k]: runs.reduce((s, d) => s + d.profile_ms[k], 0) / runs.length }), {});
            } else if (e.kind === 'bound') {
                const d = runs[0];
                const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
                Object.assign(e, { kernels: d.kernels, live: d.live, dots_per_run: mean(d.dots_per_run), float_pairs_per_run: mean(d.float_pairs_per_run),
                                   exps_per_run: mean(d.exps_per_run), ...(d.settings ? { settings: d.settings } : {}),
                                   dots_ms: summarize(runs.flatMap((x) => x.dots_ms)), floats_ms: summarize(runs.flatMap((x) => x.floats_ms)),
                                   exps_ms: summarize(runs.flatMap((x) => x.exps_ms)) });
            } else {
                const d = runs[0];  // the comparison is the same in every round
                Object.assign(e, { version: d.version, options: d.options, session_ms: summarize(runs.map((x) => x.session_ms)),
                                   rows: d.rows, label_agree: d.label_agree, rows_bit_identical: d.rows_bit_identical,
                                   max_abs_dlogit: d.max_abs_dlogit, mean_abs_dlogit: d.mean_abs_dlogit });
            }
        }
        delete e.module;
        delete e.config;
        record.results.push(e);
    }
    record.machine.loadavg_after = loadavg().map((x) => +x.toFixed(2));
    record.machine.note = 'loadavg over 1/5/15 min; with 2 cores, a load above ~1 means other work shared the CPU and the times are inflated';

    const stamp = record.date.slice(0, 16).replace(':', '');
    mkdirSync(resolve(root, o.out), { recursive: true });
    const file = resolve(root, o.out, `${stamp}-peer-${stages.map((st) => st.slice(0, 2)).join('+')}.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
    console.log(relative(process.cwd(), file));
    const base = ours.filter((e) => e.runtime === 'v8').at(-1).forward_cpu_ms?.median;  // the last stage's, under V8
    for (const e of entries) {
        const f = e.forward_ms;
        const agreement = e.kind === 'stage' ? 'bit-exact' : e.kind === 'bound' ? 'products and exps only' : e.rows ? `labels ${e.label_agree}/${e.rows}` : '';
        console.log(`${e.name.padEnd(20)} ${e.status.padEnd(7)} ` + (f
            ? `forward median ${f.median.toFixed(1)} ms` + (e.forward_cpu_ms ? `, CPU ${e.forward_cpu_ms.median.toFixed(1)} ms` : '') +
              (base && e.kind !== 'stage' && e.runtime !== 'wasmtime:epoch' ? `, last stage's CPU / this ${(base / f.median).toFixed(2)}x` : '') + `  ${agreement}`
            : e.reason ?? ''));
    }
    return entries.some((e) => e.status !== 'ok') ? 1 : 0;
}

try {
    process.exitCode = main();
} catch (e) {
    console.error(`peer: ${e.message}`);
    process.exitCode = 2;
}
