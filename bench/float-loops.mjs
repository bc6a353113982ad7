#!/usr/bin/env node
// Where a forward pass's float loops keep their values: for each stage given,
// every innermost loop of the x86-64 code V8 makes of forward() that
// multiplies floats (vmulps), with its instruction count, its float
// multiplications and additions, and its moves of vectors between a register
// and a stack slot ([rbp-..] or [rsp+..]), i.e. values that did not fit the
// fifteen xmm registers V8 allocates. Attention, GELU, softmax and LayerNorm
// are all inlined into forward(), so the loops are listed by what they do:
// a loop with as many additions as multiplications is a product's sum.
//
//   node bench/float-loops.mjs --stage 15 [-o FILE]   (stage 15 and the stage before it)
//   make float-loops STAGE=15        (writes bench/results/check-15-float-loops.txt)
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, wasmFunctions, x86Code, x86Loops, xmmStackMove, xmmStackStore } from './lib/wasm-code.mjs';
import { stageByNumber, stageNames } from '../tests/integration/lib/env.mjs';
import { captureHeader } from './lib/capture-header.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
    const o = { stage: null, out: null, build: 'build/wasm' };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--stage') o.stage = argv[++i];
        else if (argv[i] === '-o') o.out = argv[++i];
        else if (argv[i] === '--build') o.build = argv[++i];
        else throw new Error(`unknown argument ${argv[i]}`);
    }
    if (!o.stage) throw new Error('usage: float-loops.mjs --stage NN [-o FILE]');
    return o;
}

function main() {
    const o = parseArgs(process.argv.slice(2));
    const stage = stageByNumber(o.stage);
    const dirs = stageNames().slice(0, stageNames().indexOf(stage) + 1).slice(-2);  // the one before, and it
    const lines = [
        captureHeader(`node ${process.version} (V8 ${process.versions.v8}, --no-liftoff) (node bench/float-loops.mjs --stage ${o.stage})`,
                      ['bench/float-loops.mjs']),
        'The innermost x86-64 loops of forward() that multiply floats, as V8 compiles each stage, in code order.',
        '',
        '| stage | loop | instructions | vmulps | vaddps | xmm↔stack moves | of which stores | share of the loop |',
        '|---|--:|--:|--:|--:|--:|--:|--:|',
    ];
    for (const dir of dirs) {
        const module = join(o.build, 'stages', dir, 'cli.wasm');
        if (!existsSync(resolve(root, module))) throw new Error(`${module} is missing (make build-wasm)`);
        const fn = wasmFunctions(resolve(root, module)).find((f) => /^bx::stage::forward\(/.test(f.name));
        if (!fn) throw new Error(`${module}: no bx::stage::forward in the name section`);
        let n = 0;
        for (const { body } of x86Loops(x86Code(module, fn.index))) {
            const mul = count(body, /^vmulps /);
            if (mul === 0) continue;
            const stack = count(body, xmmStackMove);
            const stores = count(body, xmmStackStore);
            lines.push(`| ${dir} | ${++n} | ${body.length} | ${mul} | ${count(body, /^vaddps /)} | ${stack} | ${stores} | ` +
                       `${Math.round((100 * stack) / body.length)}% |`);
        }
    }
    lines.push('', 'xmm↔stack moves: instructions in the loop that move a vector between a register and a stack slot;',
               'stores: those that write the slot (a value that changes in the loop and did not fit), the rest reload it.');
    const text = `${lines.join('\n')}\n`;
    if (o.out) { writeFileSync(resolve(root, o.out), text); console.log(`wrote ${relative(process.cwd(), resolve(root, o.out))}`); } else process.stdout.write(text);
}

try { main(); } catch (e) { console.error(`float-loops: ${e.message}`); process.exitCode = 1; }
