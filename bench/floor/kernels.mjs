// The GEMM's floor, written in WebAssembly text by hand so that no compiler
// stands between the count of dot products and the runtime: a C++ version was
// rewritten by LLVM (pmaddwd is commutative, so dot(a, w) and dot(w, a) became
// one; each accumulator's adds were grouped, keeping every splat of a trip
// alive at once, and Cranelift then spilled). Each exported kernel issues
// `trips` x its products per trip, each followed by the add that keeps its sum:
//
//   registers(trips)          48 dots per trip: six accumulators, six weight
//                             vectors and one splat of the trip's counter (a
//                             new value per group of six, so nothing can be
//                             hoisted): 13 vector registers live.
//   loads(trips, w, a)        32 dots per trip, with the loads the GEMM's data
//                             layout needs (stages 25 on): per eight dots two
//                             v128.load8x8_s of weights and four
//                             v128.load32_splat of activation pairs, from 2 KiB
//                             and 1 KiB buffers at w and a that stay in L1.
//
//   chains(trips)             48 dots per trip with no splat: twelve
//                             accumulators, each the left operand of its own
//                             next dot (s += dot(s, w)), over two weight
//                             vectors: 14 vector registers live, twelve chains
//                             of dot-then-add. Without the splats of
//                             `registers` nothing else competes for the vector
//                             ports, so it comes closer to the core's own
//                             rate; `make bench-peer` uses it for the lower
//                             bound of a pass (bound.mjs).
//   floats(trips)             the float floor that attention is set against:
//                             48 f32x4.mul, each followed by the f32x4.add
//                             that keeps its sum (never fused: the stages'
//                             sums are not), per trip; six accumulators (so
//                             six chains hide the add's latency), six vectors
//                             made from `trips` at the start, and one splat
//                             of the trip's counter per group of six.
//   float_chains(trips)       `chains` for attention's products: 48 f32x4.mul,
//                             each followed by its f32x4.add, twelve chains
//                             s = s + s * w over two vectors, no splat. The
//                             values grow to infinity within a few hundred
//                             trips and stay there, which costs the float units
//                             nothing (only subnormals are slow on x86).
//
// Each trip ends at one back-edge, where wasmtime checks its epoch; its
// accumulators stay in registers within the trip. All return a lane sum, so
// no product is dead code.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), '../../common/node/package.json'));

// Multiply-adds per row and layer: the four 384 x 384 projections (queries,
// keys, values, output) and the feed-forward block's two 384 x 1536.
const PROJECTION_MACS = 384 * 384, FEED_FORWARD_MACS = 2 * 384 * 1536;
const ROW_MACS = 4 * PROJECTION_MACS + FEED_FORWARD_MACS;
export const WINDOW_DOTS = 6 * 256 * ROW_MACS / 8;
// Attention's float products in one window: queries x keys for the scores and
// weights x values for the output, 256 x 256 per head and dimension, over 384
// dimensions (12 heads of 32) and 6 layers, four lanes to an f32x4.mul.
export const WINDOW_FLOAT_PAIRS = 2 * 6 * 256 * 256 * 384 / 4;

// The products a stage's pass really computes for a window with `live` real
// tokens. Stage 00 computes every layer on all 256 rows (allRows). From stage
// 01 on, the last layer computes its queries, output projection and
// feed-forward block, and its attention's queries, for the live rows only; its
// keys and values still for all 256. Every term is a whole number of trips of
// the kernels' 48 products.
export function passDots(live, allRows = false) {
    if (allRows) return WINDOW_DOTS;
    return (5 * 256 * ROW_MACS + 256 * 2 * PROJECTION_MACS + live * (2 * PROJECTION_MACS + FEED_FORWARD_MACS)) / 8;
}
export function passFloatPairs(live, allRows = false) {
    if (allRows) return WINDOW_FLOAT_PAIRS;
    return (5 * 256 + live) * 2 * 256 * 384 / 4;
}
export const FLOAT_PAIRS_PER_TRIP = 48;
export const REGISTER_DOTS_PER_TRIP = 48, LOAD_DOTS_PER_TRIP = 32, CHAIN_DOTS_PER_TRIP = 48, CHAIN_FLOAT_PAIRS_PER_TRIP = 48;
export const WEIGHT_BYTES = 2048, PAIR_BYTES = 1024;

const lanesum = (v) => `(i32.add (i32.add (i32x4.extract_lane 0 ${v}) (i32x4.extract_lane 1 ${v})) (i32.add (i32x4.extract_lane 2 ${v}) (i32x4.extract_lane 3 ${v})))`;

function registersFunc() {
    const w = [0, 1, 2, 3, 4, 5], s = w;
    const body = [];
    for (let g = 0; g < REGISTER_DOTS_PER_TRIP / 6; g++) {
        body.push(`(local.set $a (i32x4.splat (i32.add (local.get $t) (i32.const ${g}))))`);
        for (const k of s) body.push(`(local.set $s${k} (i32x4.add (local.get $s${k}) (i32x4.dot_i16x8_s (local.get $a) (local.get $w${k}))))`);
    }
    return `(func (export "registers") (param $trips i32) (result i32)
    (local $t i32) (local $a v128) ${w.map((k) => `(local $w${k} v128) (local $s${k} v128)`).join(' ')}
    ${w.map((k) => `(local.set $w${k} (v128.load offset=${16 * k} (i32.const 0)))`).join('\n    ')}
    (block $done (loop $trip
      (br_if $done (i32.ge_u (local.get $t) (local.get $trips)))
      ${body.join('\n      ')}
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $trip)))
    ${s.map((k) => lanesum(`(local.get $s${k})`)).reduce((x, y) => `(i32.add ${x} ${y})`)})`;
}

function loadsFunc() {
    const body = [];
    for (let u = 0; u < LOAD_DOTS_PER_TRIP / 8; u++) {
        body.push(`(local.set $w0 (v128.load8x8_s offset=${16 * u} (local.get $wp)))`,
                  `(local.set $w1 (v128.load8x8_s offset=${16 * u + 8} (local.get $wp)))`);
        for (let r = 0; r < 4; r++) {
            body.push(`(local.set $p (v128.load32_splat offset=${16 * u + 4 * r} (local.get $ap)))`);
            for (const v of [0, 1]) body.push(`(local.set $s${r}${v} (i32x4.add (local.get $s${r}${v}) (i32x4.dot_i16x8_s (local.get $p) (local.get $w${v}))))`);
        }
    }
    const step = 16 * (LOAD_DOTS_PER_TRIP / 8);
    const accs = [0, 1, 2, 3].flatMap((r) => [0, 1].map((v) => `${r}${v}`));
    return `(func (export "loads") (param $trips i32) (param $w i32) (param $a i32) (result i32)
    (local $t i32) (local $wp i32) (local $ap i32) (local $w0 v128) (local $w1 v128) (local $p v128) ${accs.map((k) => `(local $s${k} v128)`).join(' ')}
    (block $done (loop $trip
      (br_if $done (i32.ge_u (local.get $t) (local.get $trips)))
      (local.set $wp (i32.add (local.get $w) (i32.and (i32.mul (local.get $t) (i32.const ${step})) (i32.const ${WEIGHT_BYTES - 1}))))
      (local.set $ap (i32.add (local.get $a) (i32.and (i32.mul (local.get $t) (i32.const ${step})) (i32.const ${PAIR_BYTES - 1}))))
      ${body.join('\n      ')}
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $trip)))
    ${accs.map((k) => lanesum(`(local.get $s${k})`)).reduce((x, y) => `(i32.add ${x} ${y})`)})`;
}

function floatsFunc() {
    const k6 = [0, 1, 2, 3, 4, 5];
    const body = [];
    for (let g = 0; g < FLOAT_PAIRS_PER_TRIP / 6; g++) {
        body.push(`(local.set $a (f32x4.splat (f32.convert_i32_s (i32.add (local.get $t) (i32.const ${g})))))`);
        for (const k of k6) body.push(`(local.set $s${k} (f32x4.add (local.get $s${k}) (f32x4.mul (local.get $a) (local.get $w${k}))))`);
    }
    const lanes = (v) => `(f32.add (f32.add (f32x4.extract_lane 0 ${v}) (f32x4.extract_lane 1 ${v})) (f32.add (f32x4.extract_lane 2 ${v}) (f32x4.extract_lane 3 ${v})))`;
    return `(func (export "floats") (param $trips i32) (result f32)
    (local $t i32) (local $a v128) ${k6.map((k) => `(local $w${k} v128) (local $s${k} v128)`).join(' ')}
    ${k6.map((k) => `(local.set $w${k} (f32x4.splat (f32.convert_i32_s (i32.add (local.get $trips) (i32.const ${k + 1})))))`).join('\n    ')}
    (block $done (loop $trip
      (br_if $done (i32.ge_u (local.get $t) (local.get $trips)))
      ${body.join('\n      ')}
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $trip)))
    ${k6.map((k) => lanes(`(local.get $s${k})`)).reduce((x, y) => `(f32.add ${x} ${y})`)})`;
}

// s = s + op(s, w) on twelve accumulators over two operand vectors: `chains`
// (i32x4.dot_i16x8_s) and `float_chains` (f32x4.mul). Each product feeds only
// its own chain, so twelve are in flight at once, more than the multiplier's
// latency times its issue rate needs. The integer kernel starts from memory
// (any bits are integers); the float one from whole numbers made from `trips`,
// so no lane starts as a subnormal or a NaN and nothing is a constant.
function chainsFunc(name, product, add, perTrip, result) {
    const acc = [...Array(12).keys()], w = [0, 1];
    const init = result === 'i32'
        ? (k) => `(v128.load offset=${16 * k} (i32.const 0))`
        : (k) => `(f32x4.splat (f32.convert_i32_s (i32.add (local.get $trips) (i32.const ${k + 1}))))`;
    const body = [];
    for (let g = 0; g < perTrip / acc.length; g++)
        for (const k of acc) body.push(`(local.set $s${k} (${add} (local.get $s${k}) (${product} (local.get $s${k}) (local.get $w${k % 2}))))`);
    const lane = result === 'i32' ? 'i32x4.extract_lane 0' : 'f32x4.extract_lane 0';
    return `(func (export "${name}") (param $trips i32) (result ${result})
    (local $t i32) ${w.map((k) => `(local $w${k} v128)`).join(' ')} ${acc.map((k) => `(local $s${k} v128)`).join(' ')}
    ${w.map((k) => `(local.set $w${k} ${init(k)})`).join('\n    ')}
    ${acc.map((k) => `(local.set $s${k} ${init(k + 2)})`).join('\n    ')}
    (block $done (loop $trip
      (br_if $done (i32.ge_u (local.get $t) (local.get $trips)))
      ${body.join('\n      ')}
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $trip)))
    ${acc.map((k) => `(${lane} (local.get $s${k}))`).reduce((x, y) => `(${result}.add ${x} ${y})`)})`;
}

export function wat() {
    return `(module
  (memory (export "memory") 1)
  ${registersFunc()}
  ${loadsFunc()}
  ${floatsFunc()}
  ${chainsFunc('chains', 'i32x4.dot_i16x8_s', 'i32x4.add', CHAIN_DOTS_PER_TRIP, 'i32')}
  ${chainsFunc('float_chains', 'f32x4.mul', 'f32x4.add', CHAIN_FLOAT_PAIRS_PER_TRIP, 'f32')})`;
}

// The module's bytes, assembled and validated by binaryen (common/node).
export async function wasmBytes() {
    const binaryen = (await import(require.resolve('binaryen'))).default;
    const module = binaryen.parseText(wat());
    module.setFeatures(binaryen.Features.MVP | binaryen.Features.SIMD128);
    if (!module.validate()) throw new Error('floor kernels: invalid module');
    const bytes = module.emitBinary();
    module.dispose();
    return bytes;
}
