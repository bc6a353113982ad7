// Times the floor kernels (kernels.mjs) under V8, in this Node process:
//   node v8-host.mjs FILE.wasm ROUNDS [registers|loads]   one JSON object on stdout
// (a kernel named: only that one runs, for an instruction count)
import { readFileSync } from 'node:fs';
import { LOAD_DOTS_PER_TRIP, PAIR_BYTES, REGISTER_DOTS_PER_TRIP, WEIGHT_BYTES, WINDOW_DOTS } from './kernels.mjs';

const [file, roundsText, only] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(file));
const { registers, loads, memory } = instance.exports;
const bytes = new Int8Array(memory.buffer);
for (let i = 0; i < 4096; i++) bytes[i] = ((i * 37) % 255) - 127;
const time = (f) => { const t0 = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - t0); };
const reg = [], load = [];
for (let round = -1; round < Number(roundsText); round++) {
    const a = only === 'loads' ? 0 : time(() => registers(WINDOW_DOTS / REGISTER_DOTS_PER_TRIP));
    const b = only === 'registers' ? 0 : time(() => loads(WINDOW_DOTS / LOAD_DOTS_PER_TRIP, 0, WEIGHT_BYTES));
    if (round >= 0) { reg.push(a); load.push(b); }
}
console.log(JSON.stringify({ registers_ns: reg, loads_ns: load, buffers: [WEIGHT_BYTES, PAIR_BYTES] }));
