#!/usr/bin/env node
// Instructions per forward pass, per stage and runtime, counted by valgrind
// (cachegrind without its cache model: it counts the x86 instructions the
// process executes, JIT-compiled wasm included). Unlike a time, a count does not
// care what else runs on the machine, so the two cores count two stages at once.
//
// A count covers the whole process: the runtime starting, compiling the module,
// loading the tokenizer. So each (stage, runtime) is counted twice, as
// `cli bench --runs 1` and `--runs 3` on the same windows (no warm-up, no hash
// pass): the difference is exactly two forward passes, over windows 1 and 2 of
// a fixed text (the eval corpus's texts joined into one, written to
// build/bench/instructions.jsonl), both full: 256 live positions. Half of it is
// the figure: instructions per full window. Everything else cancels.
//
// --repeat counts every (stage, runtime) a second time, to show how far a count
// moves between two runs of the same thing (V8's and wasmtime's own threads and
// timers move it a little).
//
// usage: node bench/instructions.mjs [--stages 00,09] [--runtimes wasmtime,v8] [--repeat]
//          [--jobs 2] [--build build/wasm] [--out bench/results]
// Prints the results file's path first.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtStages, compiler, gitInfo, guestCommand, machine, modelInfo, runtimeInfo } from './lib/guest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const CORPUS = 'build/bench/instructions.jsonl';
const RUNS = [1, 3];
const VALGRIND = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file'];
// V8 on one thread where it can be (its compiler and GC threads would add
// instructions that vary from run to run), TurboFan only (as bench.mjs times it).
const V8_COUNT_FLAGS = ['--single-threaded'];

function parseArgs(argv) {
    const o = { stages: null, runtimes: ['wasmtime', 'v8'], repeat: false, jobs: Math.max(1, Math.min(2, cpus().length)),
                build: 'build/wasm', out: 'bench/results', tiering: 'turbofan' };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
        if (a === '--stages') o.stages = next().split(',').filter(Boolean);
        else if (a === '--runtimes') o.runtimes = next().split(',').filter(Boolean);
        else if (a === '--repeat') o.repeat = true;
        else if (a === '--jobs') o.jobs = Number(next());
        else if (a === '--build') o.build = next();
        else if (a === '--out') o.out = next();
        else throw new Error(`unknown argument ${a}`);
    }
    for (const r of o.runtimes) if (!['wasmtime', 'v8'].includes(r)) throw new Error(`unknown runtime ${r}`);
    return o;
}

// The fixed text: every eval text, joined by newlines, as one corpus line.
function writeCorpus() {
    const texts = readFileSync(join(root, 'assets/corpora/eval.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).text);
    mkdirSync(join(root, dirname(CORPUS)), { recursive: true });
    writeFileSync(join(root, CORPUS), `${JSON.stringify({ text: texts.join('\n') })}\n`);
}

// One count: valgrind around the runtime around `cli bench`.
function count(o, stage, runtime, runs) {
    const module = resolve(root, o.build, 'stages', stage, 'cli.wasm');
    const config = { runtime, mode: runtime === 'wasmtime' ? 'epoch' : 'plain' };
    const [cmd, args] = guestCommand(o, config, module,
        ['bench', '--corpus', CORPUS, '--runs', String(runs), '--warmup', '0', '--tok-loads', '1', '--hash-pass', '0']);
    const full = runtime === 'v8' ? [cmd, ...V8_COUNT_FLAGS, ...args] : [cmd, ...args];
    return new Promise((done) => {
        const child = spawn('valgrind', [...VALGRIND, ...full], { cwd: root });
        let stdout = '', stderr = '';
        child.stdout.on('data', (d) => { stdout += d; });
        child.stderr.on('data', (d) => { stderr += d; });
        child.on('close', (status) => {
            const refs = stderr.match(/I\s+refs:\s+([\d,]+)/);
            const json = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
            if (status !== 0 || !refs || !json) {
                done({ error: `exit ${status}: ${(stderr.split('\n').filter((l) => !l.startsWith('==')).join(' ') || stderr).slice(-300)}` });
                return;
            }
            const data = JSON.parse(json);
            done({ instructions: Number(refs[1].replaceAll(',', '')), live: data.live, windows: data.windows });
        });
    });
}

// Runs `tasks` (functions returning promises) `jobs` at a time, in order.
async function pool(tasks, jobs) {
    const results = new Array(tasks.length);
    let next = 0;
    const worker = async () => { while (next < tasks.length) { const i = next++; results[i] = await tasks[i](); } };
    await Promise.all(Array.from({ length: jobs }, worker));
    return results;
}

async function main() {
    const o = parseArgs(process.argv.slice(2));
    const stages = builtStages(o.build, o.stages);
    if (!stages.length) throw new Error('no stages built');
    writeCorpus();
    const started = new Date();
    const record = {
        schema: 'bitexact-instructions/1',
        date: started.toISOString(),
        git: gitInfo(),
        machine: { ...machine(), loadavg_before: loadavg().map((x) => +x.toFixed(2)) },
        runtimes: runtimeInfo(o, o.runtimes),
        v8_count_flags: V8_COUNT_FLAGS,
        valgrind: VALGRIND,
        compiler: compiler(o.build),
        model: modelInfo(),
        settings: { corpus: CORPUS, made_from: 'assets/corpora/eval.jsonl (texts joined by newlines)', runs: RUNS,
                    windows_counted: 'windows 1 and 2 (the difference of --runs 3 and --runs 1)', repeat: o.repeat },
        results: [],
    };
    const passes = o.repeat ? 2 : 1;
    const tasks = [];
    const keys = [];
    for (const stage of stages) for (const runtime of o.runtimes) for (let pass = 0; pass < passes; pass++) for (const runs of RUNS) {
        keys.push({ stage, runtime, pass, runs });
        tasks.push(async () => {
            const t0 = performance.now();
            const r = await count(o, stage, runtime, runs);
            console.error(`[instructions] ${stage} ${runtime}${pass ? ' (repeat)' : ''} --runs ${runs}: ` +
                          `${r.error ?? `${(r.instructions / 1e9).toFixed(3)}e9 instructions`} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
            return r;
        });
    }
    const counts = await pool(tasks, o.jobs);
    let failed = false;
    for (const stage of stages) for (const runtime of o.runtimes) {
        const get = (pass, runs) => counts[keys.findIndex((k) => k.stage === stage && k.runtime === runtime && k.pass === pass && k.runs === runs)];
        const perWindow = (pass) => {
            const a = get(pass, RUNS[0]), b = get(pass, RUNS[1]);
            if (a.error || b.error) return { error: a.error ?? b.error };
            // The windows counted must be full: every run's window has the same live count.
            const live = b.live.slice(RUNS[0]);
            if (!live.every((x) => x === b.live[0])) return { error: `the counted windows are not full (live ${b.live.join(', ')})` };
            return { per_window: (b.instructions - a.instructions) / (RUNS[1] - RUNS[0]), totals: [a.instructions, b.instructions], live: live[0] };
        };
        const first = perWindow(0);
        const res = { stage, runtime, ...first };
        if (o.repeat && !first.error) {
            const again = perWindow(1);
            res.repeat = again;
            if (!again.error) res.repeat_change = again.per_window / first.per_window - 1;
        }
        if (res.error || res.repeat?.error) failed = true;
        record.results.push(res);
    }
    record.machine.loadavg_after = loadavg().map((x) => +x.toFixed(2));
    const stamp = started.toISOString().slice(0, 16).replace(':', '');
    const label = o.stages ? `instructions-${stages.map((s) => s.slice(0, 2)).join('+')}` : 'instructions';
    mkdirSync(resolve(root, o.out), { recursive: true });
    const file = resolve(root, o.out, `${stamp}-${label}${o.repeat ? '-repeat' : ''}.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
    console.log(relative(process.cwd(), file));
    for (const r of record.results) {
        console.log(`${r.stage.padEnd(22)} ${r.runtime.padEnd(9)} ${r.error ?? `${(r.per_window / 1e9).toFixed(4)}e9 per window`}` +
                    (r.repeat_change !== undefined ? `, repeat ${(r.repeat_change * 100).toFixed(3)}%` : ''));
    }
    return failed ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (e) => { console.error(`instructions: ${e.message}`); process.exitCode = 2; });
