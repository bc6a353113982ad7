// Times the floor kernels (kernels.mjs) under V8, in this Node process:
//   node v8-host.mjs FILE.wasm ROUNDS [registers|loads|floats|exps]   one JSON object on stdout
// (a kernel named: only that one runs, for an instruction count)
import { readFileSync } from 'node:fs';
import { EXP_ARGS_AT, EXP_OUT_AT, EXPS_PER_TRIP, FLOAT_PAIRS_PER_TRIP, LOAD_DOTS_PER_TRIP, PAIR_BYTES, REGISTER_DOTS_PER_TRIP, WEIGHT_BYTES, WINDOW_DOTS, WINDOW_EXPS, WINDOW_FLOAT_PAIRS } from './kernels.mjs';

const [file, roundsText, only] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(file));
const { registers, loads, floats, exps, memory } = instance.exports;
const bytes = new Int8Array(memory.buffer);
for (let i = 0; i < 4096; i++) bytes[i] = ((i * 37) % 255) - 127;
const time = (f) => { const t0 = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - t0); };
const reg = [], load = [], float = [], exp = [];
for (let round = -1; round < Number(roundsText); round++) {
    const a = only && only !== 'registers' ? 0 : time(() => registers(WINDOW_DOTS / REGISTER_DOTS_PER_TRIP));
    const b = only && only !== 'loads' ? 0 : time(() => loads(WINDOW_DOTS / LOAD_DOTS_PER_TRIP, 0, WEIGHT_BYTES));
    const c = only && only !== 'floats' ? 0 : time(() => floats(WINDOW_FLOAT_PAIRS / FLOAT_PAIRS_PER_TRIP));
    const d = only && only !== 'exps' ? 0 : time(() => exps(WINDOW_EXPS / EXPS_PER_TRIP, EXP_ARGS_AT, EXP_OUT_AT));
    if (round >= 0) { reg.push(a); load.push(b); float.push(c); exp.push(d); }
}
console.log(JSON.stringify({ registers_ns: reg, loads_ns: load, floats_ns: float, exps_ns: exp, buffers: [WEIGHT_BYTES, PAIR_BYTES] }));
