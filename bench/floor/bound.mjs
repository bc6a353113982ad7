// The least time a forward pass could take on this core, measured rather
// than argued: for each window, the integer products a stage's pass computes
// (`chains`, kernels.mjs), attention's float products (`float_chains`) and
// softmax's exponentials (`exps`), back to back, each kernel with nothing else
// in it. Every stage from 01 on computes at least these (passDots,
// passFloatPairs, passExps: the last layer on the live rows only), each
// product with the add that keeps its sum, and its loads, quantisation,
// softmax sums, LayerNorms and GELU besides; a stage could only beat the
// bound by issuing them faster than these kernels, which do nothing else.
//
// `make bench-peer` runs it in a fresh process per round beside the stages and
// ONNX Runtime (peer.mjs), once under V8 (this Node) and once under wasmtime
// with epoch interruption, configured as the stages are (wasmtime-host.py
// --plan). Like the stages it cycles over the windows, one per run:
//   node bound.mjs [--runtime v8|wasmtime] RUNS WARMUP WINDOWS.json   one JSON line on stdout
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wasmtimePython } from '../lib/guest.mjs';
import { CHAIN_DOTS_PER_TRIP, CHAIN_FLOAT_PAIRS_PER_TRIP, EXP_ARGS_AT, EXP_OUT_AT, EXPS_PER_TRIP, passDots, passExps, passFloatPairs,
         wasmBytes } from './kernels.mjs';

const argv = process.argv.slice(2);
let runtime = 'v8';
if (argv[0] === '--runtime') { runtime = argv[1]; argv.splice(0, 2); }
const [runsText, warmupText, windowsPath] = argv;
const runs = Number(runsText), warmup = Number(warmupText);
if (!(runs >= 1) || !(warmup >= 0) || !windowsPath || !['v8', 'wasmtime'].includes(runtime)) {
    console.error('usage: bound.mjs [--runtime v8|wasmtime] RUNS WARMUP WINDOWS.json');
    process.exit(2);
}
const live = JSON.parse(readFileSync(windowsPath, 'utf8')).windows.map((w) => w.live);

// The calls of run i: one window's products and exponentials, as [export, args...].
const callsOf = (i) => {
    const rows = live[i % live.length];
    return [['chains', passDots(rows) / CHAIN_DOTS_PER_TRIP], ['float_chains', passFloatPairs(rows) / CHAIN_FLOAT_PAIRS_PER_TRIP],
            ['exps', passExps(rows) / EXPS_PER_TRIP, EXP_ARGS_AT, EXP_OUT_AT]];
};
const warmupCalls = [...Array(warmup).keys()].map(callsOf);
const runCalls = [...Array(runs).keys()].map(callsOf);

// ns per call, per run: [[dots, floats, exps], ...] for the warm-up runs and the timed ones.
async function timeV8() {
    return WebAssembly.instantiate(await wasmBytes()).then(({ instance }) => {
        const bytes = new Int8Array(instance.exports.memory.buffer);
        for (let i = 0; i < 4096; i++) bytes[i] = ((i * 37) % 255) - 127;
        const timed = (calls) => calls.map(([name, ...args]) => {
            const t0 = process.hrtime.bigint();
            instance.exports[name](...args);
            return Number(process.hrtime.bigint() - t0);
        });
        return { warmup_ns: warmupCalls.map(timed), ns: runCalls.map(timed) };
    });
}
async function timeWasmtime() {
    const dir = mkdtempSync(join(tmpdir(), 'bx-bound-'));
    try {
        writeFileSync(join(dir, 'kernels.wasm'), await wasmBytes());
        writeFileSync(join(dir, 'plan.json'), JSON.stringify({ warmup: warmupCalls, runs: runCalls }));
        const host = join(dirname(fileURLToPath(import.meta.url)), 'wasmtime-host.py');
        const r = spawnSync(wasmtimePython(), [host, '--plan', join(dir, 'plan.json'), join(dir, 'kernels.wasm')], { encoding: 'utf8', maxBuffer: 64 << 20 });
        const line = (r.stdout || '').trim().split('\n').reverse().find((l) => l.startsWith('{'));
        if (r.status !== 0 || !line) throw new Error(`wasmtime-host.py: exit ${r.status}: ${(r.stderr || '').slice(-400)}`);
        const data = JSON.parse(line);
        return { warmup_ns: data.warmup_ns, ns: data.ns, settings: data.settings };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

const timing = runtime === 'v8' ? await timeV8() : await timeWasmtime();
const msOf = (ns) => ns / 1e6;
const total = (run) => run.reduce((a, b) => a + b, 0) / 1e6;
const rowsOf = runCalls.map((_, i) => live[i % live.length]);
console.log(JSON.stringify({
    kernels: 'bench/floor/kernels.mjs: chains, float_chains, exps',
    runtime, ...(timing.settings ? { settings: timing.settings } : {}),
    warmup_ms: timing.warmup_ns.map(total), forward_ms: timing.ns.map(total),
    dots_ms: timing.ns.map((r) => msOf(r[0])), floats_ms: timing.ns.map((r) => msOf(r[1])), exps_ms: timing.ns.map((r) => msOf(r[2])),
    live: rowsOf, dots_per_run: rowsOf.map((r) => passDots(r)), float_pairs_per_run: rowsOf.map((r) => passFloatPairs(r)),
    exps_per_run: rowsOf.map((r) => passExps(r)),
}));
