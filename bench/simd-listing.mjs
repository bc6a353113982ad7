#!/usr/bin/env node
// One of our inner loops as the machine sees it, for the book's chapter on
// wasm SIMD: the innermost loop of a stage's function that holds the most of
// a marker instruction, in wasm (wasm-objdump -d, Debian's wabt) and in the
// x86-64 code V8's TurboFan makes of the same function (the loop with the most
// of the x86 marker), each with a count of its opcodes and its first lines.
// Nothing here is pasted: `make simd-listings` rewrites every listing.
//
//   node bench/simd-listing.mjs (--stage NN | --module FILE) --function REGEX --marker REGEX
//        --x86-marker REGEX [--run 'CLI ARGS' (eval --runs 1)] [--outer] [--title TEXT]
//        [--lines 28] [-o FILE]
// --module: any WASI command instead of a stage's CLI (the primer's own loops, run with
// no arguments unless --run says otherwise); --run: a command of the stage's CLI that calls
// the function (V8 compiles it on first call); --outer: the loop may hold other loops (a
// fallback path's).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, wasmFunctions, wasmLoops, x86Code, x86Loops } from './lib/wasm-code.mjs';
import { captureHeader } from './lib/capture-header.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
    const o = { stage: null, module: null, fn: null, marker: null, x86: null, title: null, lines: 28, out: null, build: 'build/wasm',
                run: null, innermost: true };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
        if (a === '--stage') o.stage = next();
        else if (a === '--module') o.module = next();
        else if (a === '--function') o.fn = new RegExp(next());
        else if (a === '--marker') o.marker = new RegExp(next());
        else if (a === '--x86-marker') o.x86 = new RegExp(next());
        else if (a === '--title') o.title = next();
        else if (a === '--run') o.run = next().split(' ').filter(Boolean);
        else if (a === '--outer') o.innermost = false;
        else if (a === '--lines') o.lines = Number(next());
        else if (a === '-o') o.out = next();
        else if (a === '--build') o.build = next();
        else throw new Error(`unknown argument ${a}`);
    }
    if (!(o.stage || o.module) || !o.fn || !o.marker || !o.x86) throw new Error('give --stage or --module, --function, --marker and --x86-marker');
    o.run ??= o.module ? [] : ['eval', '--runs', '1'];
    return o;
}

// "opcode ×n" for the most frequent opcodes of a listing, most frequent first.
function histogram(list, opcode) {
    const counts = new Map();
    for (const x of list) counts.set(opcode(x.text), (counts.get(opcode(x.text)) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([op, n]) => `${op} ×${n}`).join(', ');
}

function main() {
    const o = parseArgs(process.argv.slice(2));
    const stageDir = o.module ? null : readdirSync(resolve(root, o.build, 'stages')).find((d) => d.startsWith(`${o.stage}-`));
    if (!o.module && !stageDir) throw new Error(`no ${o.build}/stages/${o.stage}-* (make build-wasm)`);
    const module = o.module ?? join(o.build, 'stages', stageDir, 'cli.wasm');
    if (!existsSync(resolve(root, module))) throw new Error(`no ${module} (make build-wasm)`);
    const functions = wasmFunctions(resolve(root, module));
    const fn = functions.find((f) => o.fn.test(f.name));
    if (!fn) throw new Error(`${module}: no function matches ${o.fn}`);
    // The loop with the most markers; among equals, the shortest (the tightest around them).
    const pick = (loops, marker) => loops.reduce((a, b) => (!a || count(b, marker) > count(a, marker) ||
        (count(b, marker) === count(a, marker) && b.length < a.length) ? b : a), null);
    const wasmLoop = pick(wasmLoops(fn.body, { innermost: o.innermost }), o.marker);
    if (!wasmLoop || count(wasmLoop, o.marker) === 0) throw new Error(`${fn.name}: no ${o.innermost ? 'innermost ' : ''}loop holds ${o.marker}`);
    const x86Loop = pick(x86Loops(x86Code(resolve(root, module), fn.index, o.run), { innermost: o.innermost }).map((l) => l.body), o.x86);
    if (!x86Loop || count(x86Loop, o.x86) === 0) throw new Error(`${fn.name}: no x86 loop holds ${o.x86}`);

    const wabt = execFileSync('wasm-objdump', ['--version'], { encoding: 'utf8' }).trim();
    const lines = [
        captureHeader(`node ${process.version} (V8 ${process.versions.v8}, --no-liftoff), ` +
                      `wasm-objdump ${wabt} (node bench/simd-listing.mjs ${o.module ? `--module ${o.module}` : `--stage ${o.stage}`} ...)`,
                      ['bench/simd-listing.mjs', 'book/primer']),
        `${o.title ?? 'A loop'}: ${stageDir ?? basename(module)}, ${fn.name.replace(/\(anonymous namespace\)::/g, '').replace(/\(.*$/, '(...)')}`,
        '',
        `wasm, the ${o.innermost ? 'innermost ' : ''}loop with the most ${o.marker.source}: ${wasmLoop.length} instructions per trip`,
        `  ${histogram(wasmLoop, (t) => t.split(/\s+/)[0])}`,
        '',
    ];
    const base = wasmLoop[0].depth;
    for (const ins of wasmLoop.slice(0, o.lines)) lines.push(`  ${'  '.repeat(Math.max(0, ins.depth - base))}${ins.text}`);
    if (wasmLoop.length > o.lines) lines.push(`  ... (${wasmLoop.length - o.lines} more)`);
    // TurboFan unrolls small loops itself: its loop may hold several trips of the wasm one.
    const trips = count(x86Loop, o.x86) / count(wasmLoop, o.marker);
    const unrolled = Number.isInteger(trips) && trips > 1 ? ` (${trips} trips of the wasm loop: V8 unrolled it)` : '';
    lines.push('', `x86-64 from V8, the loop with the most ${o.x86.source}: ${x86Loop.length} instructions per trip${unrolled}`,
               `  ${histogram(x86Loop, (t) => t.replace(/^REX\.W\s+/, '').split(/\s+/)[0])}`, '');
    // A jump's absolute target moves with every run; its offset in the function does not.
    for (const ins of x86Loop.slice(0, o.lines)) lines.push(`  ${ins.text.replace(/ 0x[0-9a-f]+\s+(<\+0x[0-9a-f]+>)/, ' $1')}`);
    if (x86Loop.length > o.lines) lines.push(`  ... (${x86Loop.length - o.lines} more)`);
    const text = `${lines.join('\n')}\n`;
    if (o.out) { writeFileSync(resolve(root, o.out), text); console.log(`wrote ${relative(process.cwd(), resolve(root, o.out))}`); } else process.stdout.write(text);
}

try { main(); } catch (e) { console.error(`simd-listing: ${e.message}`); process.exitCode = 1; }
