// The floor kernels issue exactly the products their constants claim: inside
// each kernel's loop, count the product instructions and the adds that keep
// them, and check that a window's count divides into whole trips. The floor
// table, the bound row of `make bench-peer` and the book's multiples all
// divide a window's products by these constants, so a kernel that issued one
// product fewer per trip would make every floor look faster than it is.
// The exps kernel takes EXPS_PER_TRIP exponentials per trip: one table read
// per lane, one narrowing per two lanes, one store per four.
// Then the products a stage's pass computes (passDots, passFloatPairs, passExps): whole
// trips for every count of live rows, growing with it, and a full window when
// every row is live.
//
//   node kernels.test.mjs                  passes
//   node kernels.test.mjs --mutant         drops one product from `chains`; must fail
//   node kernels.test.mjs --mutant=rows    a pass that forgets the live rows' products; must fail
import { CHAIN_DOTS_PER_TRIP, CHAIN_FLOAT_PAIRS_PER_TRIP, EXPS_PER_TRIP, FLOAT_PAIRS_PER_TRIP, LOAD_DOTS_PER_TRIP, REGISTER_DOTS_PER_TRIP,
         WINDOW_DOTS, WINDOW_EXPS, WINDOW_FLOAT_PAIRS, passDots, passExps, passFloatPairs, wasmBytes, wat } from '../kernels.mjs';

const expected = {
    registers: { product: 'i32x4.dot_i16x8_s', add: 'i32x4.add', perTrip: REGISTER_DOTS_PER_TRIP, window: WINDOW_DOTS },
    loads: { product: 'i32x4.dot_i16x8_s', add: 'i32x4.add', perTrip: LOAD_DOTS_PER_TRIP, window: WINDOW_DOTS },
    chains: { product: 'i32x4.dot_i16x8_s', add: 'i32x4.add', perTrip: CHAIN_DOTS_PER_TRIP, window: WINDOW_DOTS },
    floats: { product: 'f32x4.mul', add: 'f32x4.add', perTrip: FLOAT_PAIRS_PER_TRIP, window: WINDOW_FLOAT_PAIRS },
    float_chains: { product: 'f32x4.mul', add: 'f32x4.add', perTrip: CHAIN_FLOAT_PAIRS_PER_TRIP, window: WINDOW_FLOAT_PAIRS },
};

// The mutant: the first product statement of `chains` removed from the text.
function mutate(text) {
    const start = text.indexOf('(func (export "chains")');
    const at = text.indexOf('(local.set $s0 (i32x4.add', start);
    const end = text.indexOf('\n', at);
    return text.slice(0, at) + text.slice(end + 1);
}

const count = (text, word) => text.split(word).length - 1;
const mutant = process.argv.find((a) => a.startsWith('--mutant'))?.split('=')[1] ?? (process.argv.includes('--mutant') ? 'chains' : null);
const text = mutant === 'chains' ? mutate(wat()) : wat();
const failures = [];
for (const [name, want] of Object.entries(expected)) {
    const start = text.indexOf(`(func (export "${name}")`);
    if (start < 0) { failures.push(`${name}: not exported`); continue; }
    const loop = text.slice(text.indexOf('(loop $trip', start), text.indexOf('(br $trip)', start));
    const products = count(loop, want.product), adds = count(loop, want.add);
    if (products !== want.perTrip) failures.push(`${name}: ${products} ${want.product} per trip, its constant says ${want.perTrip}`);
    if (adds !== products) failures.push(`${name}: ${adds} ${want.add} for ${products} products`);
    if (want.window % want.perTrip !== 0) failures.push(`${name}: a window's ${want.window} products are not whole trips of ${want.perTrip}`);
    else console.log(`${name}: ${products} × ${want.product} per trip, each kept by ${want.add}; ${want.window / want.perTrip} trips per window`);
}
{
    const start = text.indexOf('(func (export "exps")');
    const loop = start < 0 ? '' : text.slice(text.indexOf('(loop $trip', start), text.indexOf('(br $trip)', start));
    const reads = count(loop, 'i64.load offset='), narrows = count(loop, 'f32x4.demote_f64x2_zero'), stores = count(loop, 'v128.store');
    if (start < 0) failures.push('exps: not exported');
    else if (reads !== EXPS_PER_TRIP || 2 * narrows !== EXPS_PER_TRIP || 4 * stores !== EXPS_PER_TRIP)
        failures.push(`exps: ${reads} table reads, ${narrows} narrowings and ${stores} stores per trip, its constant says ${EXPS_PER_TRIP} exponentials`);
    else if (WINDOW_EXPS % EXPS_PER_TRIP !== 0) failures.push(`exps: a window's ${WINDOW_EXPS} exponentials are not whole trips of ${EXPS_PER_TRIP}`);
    else console.log(`exps: ${EXPS_PER_TRIP} exponentials per trip (a table read per lane); ${WINDOW_EXPS / EXPS_PER_TRIP} trips per window`);
}
// The pass's products. The mutant `rows` drops the live rows' term, as a
// formula that forgot the last layer's queries would.
const dotsOf = mutant === 'rows' ? () => passDots(0) : passDots;
for (const [name, of, window, trip] of [['passDots', dotsOf, WINDOW_DOTS, 48], ['passFloatPairs', passFloatPairs, WINDOW_FLOAT_PAIRS, 48],
                                        ['passExps', passExps, WINDOW_EXPS, EXPS_PER_TRIP]]) {
    for (let live = 0; live <= 256; live++) {
        if (of(live) % trip !== 0) { failures.push(`${name}(${live}) is not whole trips of ${trip}`); break; }
        if (live > 0 && of(live) <= of(live - 1)) { failures.push(`${name}(${live}) does not grow with the live rows`); break; }
    }
    if (of(256) !== window) failures.push(`${name}(256) = ${of(256)}, not the window's ${window}`);
    else console.log(`${name}: whole trips for 0 to 256 live rows, the full window at 256`);
}
if (!mutant) await wasmBytes();  // assembles and validates, or throws
for (const f of failures) console.log(`FAILED: ${f}`);
console.log(failures.length ? `${failures.length} check(s) failed` : 'every floor kernel issues what it claims, and every pass counts its products');
process.exitCode = failures.length ? 1 : 0;
