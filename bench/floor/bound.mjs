// The least time a forward pass could take under V8 on this core, measured
// rather than argued: one window's integer products (`chains`, kernels.mjs)
// and attention's float products (`float_chains`), back to back, with their
// operands in registers and nothing else. Every stage must issue at least
// these products, each with the add that keeps its sum, and do its loads,
// softmax, LayerNorms and GELU besides; so no stage's pass can be faster than
// one sample here, whatever its loops look like.
//
// `make bench-peer` runs it in a fresh Node per round beside the stages and
// ONNX Runtime (peer.mjs), timed the way run-ort.mjs times a window:
//   node bound.mjs RUNS WARMUP   one JSON line on stdout
import { CHAIN_DOTS_PER_TRIP, CHAIN_FLOAT_PAIRS_PER_TRIP, WINDOW_DOTS, WINDOW_FLOAT_PAIRS, wasmBytes } from './kernels.mjs';

const [runs, warmup] = process.argv.slice(2).map(Number);
if (!(runs >= 1) || !(warmup >= 0)) {
    console.error('usage: bound.mjs RUNS WARMUP');
    process.exit(2);
}
const { instance } = await WebAssembly.instantiate(await wasmBytes());
const { chains, float_chains: floatChains, memory } = instance.exports;
const bytes = new Int8Array(memory.buffer);
for (let i = 0; i < 4096; i++) bytes[i] = ((i * 37) % 255) - 127;

const ms = (f) => { const t0 = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - t0) / 1e6; };
function pass() {
    const dots = ms(() => chains(WINDOW_DOTS / CHAIN_DOTS_PER_TRIP));
    const floats = ms(() => floatChains(WINDOW_FLOAT_PAIRS / CHAIN_FLOAT_PAIRS_PER_TRIP));
    return { dots, floats };
}
const warmupMs = [];
for (let i = 0; i < warmup; i++) { const p = pass(); warmupMs.push(p.dots + p.floats); }
const forward = [], dots = [], floats = [];
for (let i = 0; i < runs; i++) {
    const p = pass();
    forward.push(p.dots + p.floats);
    dots.push(p.dots);
    floats.push(p.floats);
}
console.log(JSON.stringify({
    kernels: 'bench/floor/kernels.mjs: chains, float_chains',
    window_dots: WINDOW_DOTS, window_float_pairs: WINDOW_FLOAT_PAIRS,
    warmup_ms: warmupMs, forward_ms: forward, dots_ms: dots, floats_ms: floats,
}));
