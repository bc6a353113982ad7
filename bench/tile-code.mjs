#!/usr/bin/env node
// What each tile shape turns into, in wasm and in the x86 code V8 makes of it:
// for every build of a stage's sweep (bench.mjs --sweep's builds), the inner
// loop of the int8 GEMM, found as the loop with the most integer dot products,
//   wasm (wasm-objdump -d, Debian's wabt): instructions, i32x4.dot_i16x8_s,
//        v128.load in the loop body;
//   x86  (node --print-wasm-code, TurboFan): instructions, vpmaddwd, and SIMD
//        stack traffic: moves between an xmm register and a frame slot
//        ([rbp-...] or [rsp+...]), i.e. values that did not fit the 16
//        registers and were spilled or reloaded inside the loop;
// then the first lines of the wasm loop for the stage's own shape and for the
// shape given by --excerpt. Only the innermost loop counts: tails and set-up
// run once per tile, the loop body once per 16 bytes of k.
//
// With --epoch, every build is first instrumented with the bench's epoch
// checks (bench/epoch/instrument.mjs, as `make bench` does for epoch mode) and
// the instrumented module's loop is counted instead.
//
//   node bench/tile-code.mjs --stage 05 [--excerpt t4x4] [--lines 40] [--function REGEX] [--epoch] [-o FILE]
//   make tile-code      (writes bench/results/check-05-tile-code.txt)
//   make tile-code STAGE=16 EPOCH=1   (writes bench/results/check-16-tile-code-epoch.txt)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { best, count, gprStackMove, wasmFunctions, wasmLoops, x86Code, x86Loops, xmmStackMove } from './lib/wasm-code.mjs';
import { instrument } from './epoch/instrument.mjs';
import { captureHeader } from './lib/capture-header.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

function parseArgs(argv) {
    // --function: the function holding the GEMM (stage 05's linear(); later stages keep gemm() apart).
    const o = { stage: null, excerpt: 't4x4', lines: 40, out: null, build: 'build/wasm', fn: /::linear\(bx::LinearView const&/ };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--stage') o.stage = argv[++i];
        else if (a === '--excerpt') o.excerpt = argv[++i];
        else if (a === '--lines') o.lines = Number(argv[++i]);
        else if (a === '-o') o.out = argv[++i];
        else if (a === '--build') o.build = argv[++i];
        else if (a === '--function') o.fn = new RegExp(argv[++i]);
        else if (a === '--epoch') o.epoch = true;
        else throw new Error(`unknown argument ${a}`);
    }
    if (!o.stage) throw new Error('usage: tile-code.mjs --stage NN [--excerpt NAME] [--lines N] [-o FILE]');
    return o;
}

function builds(o) {
    const stageDir = readdirSync(resolve(root, o.build, 'stages')).find((d) => d.startsWith(`${o.stage}-`));
    if (!stageDir) throw new Error(`no ${o.build}/stages/${o.stage}-*`);
    const variants = JSON.parse(readFileSync(resolve(root, o.build, 'stages', stageDir, 'variants.json'), 'utf8'));
    const dir = join(o.build, 'stages', stageDir);
    // The tile of each build: its definitions, else the stage's (the base's label, "t4x2").
    const base = /^t(\d+)x(\d+)$/.exec(variants.sweep_base ?? '');
    if (!base) throw new Error(`${stageDir}: SWEEP_BASE must name the stage's tile as tMxN`);
    const tile = (defs) => ({
        m: Number(/BX_TILE_TOKENS=(\d+)/.exec(defs)?.[1] ?? base[1]),
        n: Number(/BX_TILE_OUTPUTS=(\d+)/.exec(defs)?.[1] ?? base[2]),
    });
    return { stageDir, list: [{ label: variants.sweep_base, module: join(dir, 'cli.wasm'), ...tile('') },
        ...Object.entries(variants.sweep).map(([v, defs]) => ({ label: v, module: join(dir, `cli-${v}.wasm`), ...tile(defs) }))] };
}

function main() {
    const o = parseArgs(process.argv.slice(2));
    const { stageDir, list } = builds(o);
    const rows = [];
    const excerpts = {};
    for (const b of list) {
        if (!existsSync(resolve(root, b.module))) throw new Error(`${b.module} is missing (make build-wasm)`);
        if (o.epoch) {  // the module the bench times in epoch mode, written where the bench writes it
            const epoch = b.module.replace(/\.wasm$/, '.epoch.wasm');
            writeFileSync(resolve(root, epoch), instrument(readFileSync(resolve(root, b.module))).bytes);
            b.module = epoch;
        }
        const fn = wasmFunctions(resolve(root, b.module)).find((f) => o.fn.test(f.name));
        if (!fn) throw new Error(`${b.module}: no function matching ${o.fn} in the name section`);
        const wasmLoop = best(wasmLoops(fn.body), /^i32x4\.dot_i16x8_s$/);
        const x86Loop = best(x86Loops(x86Code(b.module, fn.index)).map((l) => l.body), /pmaddwd/);
        const isStack = xmmStackMove;
        const stack = count(x86Loop, isStack);
        // An address computed by an instruction of its own: wasm's one
        // addressing form is base + constant offset, anything else is a lea.
        const leas = count(x86Loop, /^leal? /);
        // General registers saved to or reloaded from the frame: values V8 keeps
        // in memory across the loop (pointers, counters, the epoch check's state).
        const gprStack = count(x86Loop, gprStackMove);
        // One step of k (16 bytes of every row) is 2 x M x N dot products.
        const perStep = 2 * b.m * b.n;
        const wasmSteps = count(wasmLoop, /^i32x4\.dot_i16x8_s$/) / perStep;
        const x86Steps = count(x86Loop, /pmaddwd/) / perStep;
        rows.push(`| ${b.label} | ${b.m}×${b.n} | ${b.m * b.n + 2 * b.m + 2} | ${wasmLoop.length} | ${wasmSteps} | ` +
                  `${x86Loop.length} | ${x86Steps} | ${(x86Loop.length / x86Steps).toFixed(1)} | ${stack} | ` +
                  `${(stack / x86Steps).toFixed(1)} | ${(leas / x86Steps).toFixed(1)} | ${(gprStack / x86Steps).toFixed(1)} |`);
        if (b === list[0] || b.label === o.excerpt) excerpts[b.label] = { fn: fn.name, loop: wasmLoop, x86: x86Loop, isStack };
    }
    const lines = [
        captureHeader(`node ${process.version} (V8 ${process.versions.v8}, --no-liftoff), ` +
                      `wasm-objdump ${execFileSync('wasm-objdump', ['--version'], { encoding: 'utf8' }).trim()} ` +
                      `(node bench/tile-code.mjs --stage ${o.stage}${o.epoch ? ' --epoch' : ''})`, ['bench/tile-code.mjs']),
        `The inner loop of ${stageDir}'s int8 GEMM in each build${o.epoch ? ', instrumented with the epoch checks' : ''}: ` +
        'wasm body, and the x86-64 code V8 made of it.',
        '',
        '| build | tile | v128 in hand (M×N+2M+2) | wasm loop: instructions | k steps | x86 loop: instructions | k steps | ' +
            'x86 instructions per k step | xmm↔stack moves | per k step | address `lea`s per k step | ' +
            'general-register↔stack moves per k step |',
        '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
        ...rows,
        '',
        'k steps: 16-byte steps of k per trip round the loop (dot products in the loop / 2MN); V8 unrolls small loops,',
        'so an x86 trip can be several wasm trips. xmm↔stack moves: instructions in the x86 loop that move a vector',
        'between a register and a stack slot ([rbp-..], [rsp+..]): values that did not fit the 16 registers.',
        'address leas: `lea` instructions in the x86 loop, each an address computed apart from the load that uses it',
        '(wasm addresses memory only as a value plus a constant offset, which x86 folds into the load).',
        'general-register↔stack moves: 64- or 32-bit moves between a general register and a frame slot in the loop',
        '(a pointer, counter or other scalar V8 did not keep in a register across the loop).',
    ];
    for (const [label, e] of Object.entries(excerpts)) {
        lines.push('', `wasm, ${label}: the loop in ${e.fn}, first ${Math.min(o.lines, e.loop.length)} of ${e.loop.length} instructions`);
        for (const ins of e.loop.slice(0, o.lines)) lines.push(`  ${'  '.repeat(Math.max(0, ins.depth - e.loop[0].depth))}${ins.text}`);
        const moves = e.x86.filter((x) => e.isStack.test(x.text));
        lines.push('', `x86-64, ${label}: the loop's xmm↔stack moves (${moves.length} of ${e.x86.length} instructions)`);
        for (const ins of moves.slice(0, o.lines)) lines.push(`  ${ins.text}`);
    }
    const text = `${lines.join('\n')}\n`;
    if (o.out) { writeFileSync(resolve(root, o.out), text); console.log(`wrote ${relative(process.cwd(), resolve(root, o.out))}`); } else process.stdout.write(text);
}

try { main(); } catch (e) { console.error(`tile-code: ${e.message}`); process.exitCode = 1; }
