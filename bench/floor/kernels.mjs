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
//   exps(trips, args, out)    the exponentials softmax must take: 16 per trip,
//                             in four groups of four lanes, each as every
//                             stage from 10 on takes them (softmax.hpp): the
//                             argument p - m (f32x4.sub), widened to two
//                             f64x2, bx_expf's main path on each (the same
//                             double operations, the 2^(i/32) table read one
//                             lane at a time from memory), narrowed back and
//                             stored, and the lanes off the main path noted
//                             (one compare, kept in an accumulator, no branch).
//                             Arguments come from a 1 KiB buffer of values
//                             softmax sees (0 down to -25.5) and the results go
//                             to another; both stay in L1.
//
// Each trip ends at one back-edge, where wasmtime checks its epoch; its
// accumulators stay in registers within the trip. All return a lane sum, so
// no product is dead code.
import { readFileSync } from 'node:fs';
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
// The exponentials softmax takes in one window: one per score, 256 keys for
// each query row of each of the 12 heads in the 6 layers; from stage 01 on the
// last layer's query rows are the live ones only.
export const WINDOW_EXPS = 6 * 256 * 12 * 256;
export function passExps(live, allRows = false) {
    if (allRows) return WINDOW_EXPS;
    return (5 * 256 + live) * 12 * 256;
}
export const EXPS_PER_TRIP = 16;
// Where exps finds its table, its arguments and room for its results (the
// integer kernels use the first 4 KiB).
export const EXP_TABLE_AT = 4096, EXP_ARGS_AT = 8192, EXP_OUT_AT = 9216, EXP_ARG_BYTES = 1024;
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

// bx_expf's constants (common/maths/expf_constants.hpp), read from the header
// so the kernel multiplies by the numbers the stages multiply by.
function expConstants() {
    const text = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../common/maths/expf_constants.hpp'), 'utf8');
    const table = [...text.slice(text.indexOf('kPow2Table[kTableSize] = {'), text.indexOf('};')).matchAll(/0x([0-9a-f]+)/gi)].map((m) => BigInt(`0x${m[1]}`));
    if (table.length !== 32) throw new Error(`expf_constants.hpp: ${table.length} table entries, not 32`);
    const hexFloat = (name) => {
        const m = text.match(new RegExp(`${name} = 0x1\\.([0-9a-f]+)p([-+]?\\d+)`));
        if (!m) throw new Error(`expf_constants.hpp: no ${name}`);
        return (1 + parseInt(m[1], 16) / 2 ** (4 * m[1].length)) * 2 ** Number(m[2]);
    };
    return { table, invLn2Times32: hexFloat('kInvLn2Times32') * 32, roundShift: 1.5 * 2 ** 52,
             poly3: hexFloat('kPoly3') / 32 ** 3, poly2: hexFloat('kPoly2') / 32 ** 2, poly1: hexFloat('kPoly1') / 32 };
}

// Bytes of a data segment, as WAT escapes.
const dataBytes = (buffer) => [...new Uint8Array(buffer)].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');

function expsData() {
    const { table } = expConstants();
    const t = new BigUint64Array(table), args = new Float32Array(EXP_ARG_BYTES / 4);
    for (let i = 0; i < args.length; i++) args[i] = -(i % 256) / 10;
    return `(data (i32.const ${EXP_TABLE_AT}) "${dataBytes(t.buffer)}")
  (data (i32.const ${EXP_ARGS_AT}) "${dataBytes(args.buffer)}")`;
}

// bx_expf's main path on the two f64 lanes of local $xd, into local $y
// (softmax.hpp's exp_main_path, operation for operation).
function expMainPath() {
    const lookup = (lane) => `(i64.load offset=${EXP_TABLE_AT} (i32.shl (i32.and (i32.wrap_i64 (i64x2.extract_lane ${lane} (local.get $shifted))) (i32.const 31)) (i32.const 3)))`;
    return `(local.set $z (f64x2.mul (local.get $c_inv) (local.get $xd)))
      (local.set $shifted (f64x2.add (local.get $z) (local.get $c_shift)))
      (local.set $r (f64x2.sub (local.get $z) (f64x2.sub (local.get $shifted) (local.get $c_shift))))
      (local.set $s (i64x2.add (i64x2.replace_lane 1 (i64x2.splat ${lookup(0)}) ${lookup(1)}) (i64x2.shl (local.get $shifted) (i32.const 47))))
      (local.set $y (f64x2.mul (f64x2.add (f64x2.mul (f64x2.add (f64x2.mul (local.get $c3) (local.get $r)) (local.get $c2)) (f64x2.mul (local.get $r) (local.get $r)))
                                          (f64x2.add (f64x2.mul (local.get $c1) (local.get $r)) (local.get $one)))
                               (local.get $s)))`;
}

function expsFunc() {
    const c = expConstants();
    const body = [];
    for (let g = 0; g < EXPS_PER_TRIP / 4; g++) {
        body.push(`(local.set $x (f32x4.sub (v128.load offset=${16 * g} (local.get $ap)) (local.get $m)))`,
                  `(local.set $xd (f64x2.promote_low_f32x4 (local.get $x)))`, expMainPath(), `(local.set $low (local.get $y))`,
                  `(local.set $xd (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x))))`, expMainPath(),
                  `(v128.store offset=${16 * g} (local.get $op) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (f32x4.demote_f64x2_zero (local.get $low)) (f32x4.demote_f64x2_zero (local.get $y))))`,
                  `(local.set $edges (v128.or (local.get $edges) (f32x4.ge (f32x4.abs (local.get $x)) (local.get $bound))))`);
    }
    const step = 4 * EXPS_PER_TRIP;
    return `(func (export "exps") (param $trips i32) (param $args i32) (param $out i32) (result i32)
    (local $t i32) (local $ap i32) (local $op i32) (local $x v128) (local $xd v128) (local $z v128) (local $shifted v128) (local $r v128) (local $s v128)
    (local $y v128) (local $low v128) (local $edges v128) (local $m v128) (local $bound v128)
    (local $c_inv v128) (local $c_shift v128) (local $c3 v128) (local $c2 v128) (local $c1 v128) (local $one v128)
    (local.set $m (f32x4.splat (f32.convert_i32_s (i32.and (local.get $trips) (i32.const 0)))))
    (local.set $bound (f32x4.splat (f32.const 88)))
    (local.set $c_inv (f64x2.splat (f64.const ${c.invLn2Times32})))
    (local.set $c_shift (f64x2.splat (f64.const ${c.roundShift})))
    (local.set $c3 (f64x2.splat (f64.const ${c.poly3})))
    (local.set $c2 (f64x2.splat (f64.const ${c.poly2})))
    (local.set $c1 (f64x2.splat (f64.const ${c.poly1})))
    (local.set $one (f64x2.splat (f64.const 1)))
    (block $done (loop $trip
      (br_if $done (i32.ge_u (local.get $t) (local.get $trips)))
      (local.set $ap (i32.add (local.get $args) (i32.and (i32.mul (local.get $t) (i32.const ${step})) (i32.const ${EXP_ARG_BYTES - 1}))))
      (local.set $op (i32.add (local.get $out) (i32.and (i32.mul (local.get $t) (i32.const ${step})) (i32.const ${EXP_ARG_BYTES - 1}))))
      ${body.join('\n      ')}
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $trip)))
    (i32.add (i32x4.bitmask (local.get $edges)) (i32.trunc_f32_s (f32x4.extract_lane 0 (v128.load (local.get $out))))))`;
}

export function wat() {
    return `(module
  (memory (export "memory") 1)
  ${expsData()}
  ${registersFunc()}
  ${loadsFunc()}
  ${floatsFunc()}
  ${chainsFunc('chains', 'i32x4.dot_i16x8_s', 'i32x4.add', CHAIN_DOTS_PER_TRIP, 'i32')}
  ${expsFunc()}
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
