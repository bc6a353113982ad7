// Reading our own machine code: a wasm module's functions and loops
// (wasm-objdump -d, Debian's wabt) and the x86-64 code V8's TurboFan makes of a
// function (node --print-wasm-code). Used by bench/tile-code.mjs and
// bench/simd-listing.mjs, so the book's listings come from the build, never
// from a paste.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// wasm-objdump -d: "<offset>: <bytes> | <indent><instruction>"; nesting is the indent.
export function wasmFunctions(module) {
    const text = execFileSync('wasm-objdump', ['-d', module], { encoding: 'utf8', maxBuffer: 1 << 30 });
    const functions = [];
    let current = null;
    for (const line of text.split('\n')) {
        const head = /^[0-9a-f]+ func\[(\d+)\] <(.*)>:$/.exec(line);
        if (head) { current = { index: Number(head[1]), name: head[2], body: [] }; functions.push(current); continue; }
        const m = /^ [0-9a-f]+: [0-9a-f ]+\|( *)(\S.*)$/.exec(line);
        if (current && m) current.body.push({ depth: m[1].length, text: m[2].trim() });
    }
    return functions;
}

// `loop ... end` regions of a wasm body, with their instructions: the
// innermost ones, or with { innermost: false } every one.
export function wasmLoops(body, { innermost = true } = {}) {
    const loops = [];
    for (let i = 0; i < body.length; i++) {
        if (body[i].text !== 'loop') continue;
        let j = i + 1;
        while (j < body.length && !(body[j].depth === body[i].depth && body[j].text === 'end')) j++;
        const inner = body.slice(i + 1, j);
        if (!innermost || !inner.some((x) => x.text === 'loop')) loops.push(inner);
    }
    return loops;
}

// x86 code of one wasm function, as V8's TurboFan compiled it while the
// module ran `args` (a command that calls the function: V8 compiles on first call).
// An epoch-instrumented module (bench/epoch/instrument.mjs) runs under the
// bench's host, which provides the bx_epoch import; the others under the CLI host.
export function x86Code(module, index, args = ['eval', '--runs', '1']) {
    const host = /\.epoch\.wasm$/.test(module) ? 'bench/e2e/wasi-host.mjs' : 'common/host/wasi-run.mjs';
    const r = spawnSync(process.execPath, ['--no-liftoff', `--print-wasm-code-function-index=${index}`, '--single-threaded-gc',
        '--disable-warning=ExperimentalWarning', join(root, host), module, ...args],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`${module}: ${args.join(' ')} exited ${r.status}`);
    const out = [];
    for (const line of r.stdout.split('\n')) {
        const m = /^0x([0-9a-f]+)\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S.*?)\s*$/.exec(line);
        if (m) out.push({ address: BigInt(`0x${m[1]}`), text: m[2] });
    }
    if (out.length === 0) throw new Error(`${module}: V8 printed no code for function ${index}`);
    return out;
}

// Loops of x86 code (a branch back to an earlier address closes one): the
// innermost ones, or with { innermost: false } every one.
export function x86Loops(code, { innermost = true } = {}) {
    const loops = [];
    code.forEach((ins, end) => {
        const m = /^j\w+ 0x([0-9a-f]+)/.exec(ins.text);
        if (!m) return;
        const target = BigInt(`0x${m[1]}`);
        if (target > ins.address) return;
        const start = code.findIndex((x) => x.address === target);
        if (start >= 0) loops.push({ start, end, body: code.slice(start, end + 1) });
    });
    return innermost ? loops.filter((l) => !loops.some((o) => o !== l && o.start >= l.start && o.end <= l.end)) : loops;
}

export const count = (list, re) => list.filter((x) => re.test(x.text)).length;

// Moves between a register and a frame slot ([rbp-..], [rsp+..]) in V8's x86
// code: values the register allocator did not keep in registers.
export const xmmStackMove = /xmm\d+.*\[(rbp|rsp)|\[(rbp|rsp)[^\]]*\].*xmm\d+/;   // a vector, either way
export const xmmStackStore = /\[(rbp|rsp)[^\]]*\],xmm\d+/;                       // a vector written to its slot
export const gprStackMove = /^(REX\.W )?movl?q? (r\w+|e\w+),\[(rbp|rsp)|^(REX\.W )?movl?q? \[(rbp|rsp)[^\]]*\],(r|e)\w+/;
export const best = (loops, re) => loops.reduce((a, b) => (count(b, re) > count(a ?? [], re) ? b : a), null);
