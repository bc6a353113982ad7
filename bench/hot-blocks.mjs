#!/usr/bin/env node
// The hottest basic blocks of a stage under wasmtime, as Cranelift compiled
// them, from wasmtime's own profiler: `wasmtime hot-blocks` (the pinned CLI of
// make setup-wasmtime) runs the stage's cli.wasm on the eval corpus under Linux
// perf and prints each block that holds a share of the samples, its machine
// code beside the wasm each instruction came from, with the samples per line.
//
//   node bench/hot-blocks.mjs --stage 29 [--percent 50] [--epoch|--no-epoch] [-o FILE]
//   make hot-blocks STAGE=29      (writes bench/results/check-29-hot-blocks.txt)
//
// Epoch interruption is on by default, as Spin configures wasmtime: the checks
// at loops' back-edges, and what they make Cranelift do with the registers, are
// in the code shown. What this answers that make profile and make
// cranelift-loop do not: which block is hot, measured, with the wasm opcode
// behind each instruction. What it does not answer, so those tools stay: the
// share of each function under V8 (make profile), and counts of one loop across
// a stage's builds with the checks on and off (make cranelift-loop).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageByNumber } from '../tests/integration/lib/env.mjs';
import { captureHeader } from './lib/capture-header.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
    const o = { stage: null, out: null, percent: 50, epoch: true };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--stage') o.stage = argv[++i];
        else if (argv[i] === '--percent') o.percent = Number(argv[++i]);
        else if (argv[i] === '--epoch') o.epoch = true;
        else if (argv[i] === '--no-epoch') o.epoch = false;
        else if (argv[i] === '-o') o.out = argv[++i];
        else throw new Error(`unknown argument ${argv[i]}`);
    }
    if (!o.stage || !(o.percent > 0 && o.percent <= 100)) throw new Error('usage: hot-blocks.mjs --stage NN [--percent P] [--epoch|--no-epoch] [-o FILE]');
    return o;
}

function main() {
    const o = parseArgs(process.argv.slice(2));
    const stage = stageByNumber(o.stage);
    const cli = join(root, 'build/wasm/stages', stage, 'cli.wasm');
    const wasmtime = process.env.WASMTIME_CLI ? resolve(root, process.env.WASMTIME_CLI) : join(root, 'build/venv/bin/wasmtime');
    for (const f of [cli, wasmtime]) if (!existsSync(f)) throw new Error(`${relative(root, f)} is missing: make build-wasm setup-wasmtime`);
    const corpus = 'assets/corpora/eval.jsonl';
    // With epoch interruption on, the CLI's timeout is what sets a deadline and ticks the epoch
    // (without one the deadline is the first tick, and the guest traps at its first check).
    const epoch = o.epoch ? ['-W', 'epoch-interruption=y', '-W', 'timeout=600s'] : ['-W', 'epoch-interruption=n'];
    const args = ['hot-blocks', '--percent', String(o.percent), ...epoch,
                  '--dir', `${root}::/`, cli, 'redact', '--jsonl', `/${corpus}`];
    const r = spawnSync(wasmtime, args, { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, RUST_BACKTRACE: '0' } });
    if (r.status !== 0) throw new Error(`wasmtime hot-blocks failed (${r.status}): ${r.stderr.slice(-600)}`);
    const version = execFileSync(wasmtime, ['--version'], { encoding: 'utf8' }).trim();
    const header = [
        captureHeader(`${version}, ${os.cpus()[0].model.trim()} x${os.cpus().length}`, ['bench/hot-blocks.mjs']),
        `# wasmtime hot-blocks (perf, cpu-cycles), epoch interruption ${o.epoch ? 'on' : 'off'}, blocks covering ${o.percent}% of the samples`,
        `# stage ${stage}: cli.wasm redact --jsonl ${corpus}`,
    ];
    const text = `${header.join('\n')}\n${r.stdout.trimEnd()}\n`;
    if (o.out) {
        writeFileSync(resolve(root, o.out), text);
        console.log(`wrote ${o.out}`);
    } else {
        process.stdout.write(text);
    }
}

main();
