// The least time a forward pass could take under V8 on this core, measured
// rather than argued: the integer products a stage's pass computes for a
// window (`chains`, kernels.mjs) and attention's float products
// (`float_chains`), back to back, with their operands in registers and nothing
// else. Every stage from 01 on computes at least these products
// (passDots, passFloatPairs: the last layer on the live rows only), each with
// the add that keeps its sum, and its loads, quantisation, softmax, LayerNorms
// and GELU besides; a stage could only beat the bound by issuing its products
// faster than these kernels, which do nothing else.
//
// `make bench-peer` runs it in a fresh Node per round beside the stages and
// ONNX Runtime (peer.mjs). Like them it cycles over the windows, one per run:
//   node bound.mjs RUNS WARMUP WINDOWS.json   one JSON line on stdout
import { readFileSync } from 'node:fs';
import { CHAIN_DOTS_PER_TRIP, CHAIN_FLOAT_PAIRS_PER_TRIP, passDots, passFloatPairs, wasmBytes } from './kernels.mjs';

const [runsText, warmupText, windowsPath] = process.argv.slice(2);
const runs = Number(runsText), warmup = Number(warmupText);
if (!(runs >= 1) || !(warmup >= 0) || !windowsPath) {
    console.error('usage: bound.mjs RUNS WARMUP WINDOWS.json');
    process.exit(2);
}
const live = JSON.parse(readFileSync(windowsPath, 'utf8')).windows.map((w) => w.live);
const { instance } = await WebAssembly.instantiate(await wasmBytes());
const { chains, float_chains: floatChains, memory } = instance.exports;
const bytes = new Int8Array(memory.buffer);
for (let i = 0; i < 4096; i++) bytes[i] = ((i * 37) % 255) - 127;

const ms = (f) => { const t0 = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - t0) / 1e6; };
function pass(i) {
    const rows = live[i % live.length];
    const dots = ms(() => chains(passDots(rows) / CHAIN_DOTS_PER_TRIP));
    const floats = ms(() => floatChains(passFloatPairs(rows) / CHAIN_FLOAT_PAIRS_PER_TRIP));
    return { dots, floats, rows };
}
const warmupMs = [];
for (let i = 0; i < warmup; i++) { const p = pass(i); warmupMs.push(p.dots + p.floats); }
const forward = [], dots = [], floats = [], rows = [];
for (let i = 0; i < runs; i++) {
    const p = pass(i);
    forward.push(p.dots + p.floats);
    dots.push(p.dots);
    floats.push(p.floats);
    rows.push(p.rows);
}
console.log(JSON.stringify({
    kernels: 'bench/floor/kernels.mjs: chains, float_chains',
    warmup_ms: warmupMs, forward_ms: forward, dots_ms: dots, floats_ms: floats, live: rows,
    dots_per_run: rows.map((r) => passDots(r)), float_pairs_per_run: rows.map((r) => passFloatPairs(r)),
}));
