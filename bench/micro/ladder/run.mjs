// The kernel ladders, run: each ladder natively (Google Benchmark, build/native)
// and as a WASI module under each runtime the harness has (wasmtime with epoch
// interruption, as Spin runs it; wasmtime without; V8), every rung checked bit
// for bit against stage 00's arithmetic before it is timed (a rung that fails
// is reported, left out, and the run exits 1). Writes
// bench/results/<date>-ladders.json (machine, compiler, commit, runtimes, load),
// pins a full run in bench/results/book-runs.json ("ladders") and renders
// bench/results/ladders.md from the pinned run.
//
//   node bench/micro/ladder/run.mjs [--rounds 15] [--configs wasmtime:epoch,wasmtime:plain,v8:plain]
//                                   [--kernels gemm,gelu,exp,quantise,attention,layernorm] [--no-native] [--table-only]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compiler, configName, gitInfo, guestCommand, machine, parseConfigs, runtimeInfo } from '../../lib/guest.mjs';
import { pinnedFile, PINS_FILE, readPins } from '../../pin.mjs';

function pin(table, file) {
    const pins = readPins();
    pins.tables[table] = file.split('/').pop();
    writeFileSync(PINS_FILE, `${JSON.stringify(pins, null, 1)}\n`);
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const results = join(root, 'bench/results');
const KERNELS = ['gemm', 'gelu', 'exp', 'quantise', 'attention', 'layernorm'];

function options(argv) {
    const o = { rounds: 15, configs: 'wasmtime:epoch,wasmtime:plain,v8:plain', kernels: KERNELS.join(','), native: true, tableOnly: false,
                wasmBuild: 'build/wasm', nativeBuild: 'build/native', tiering: 'turbofan' };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--rounds') o.rounds = Number(argv[++i]);
        else if (a === '--configs') o.configs = argv[++i];
        else if (a === '--kernels') o.kernels = argv[++i];
        else if (a === '--no-native') o.native = false;
        else if (a === '--table-only') o.tableOnly = true;
        else throw new Error(`unknown argument ${a}`);
    }
    o.configs = parseConfigs(o.configs);
    o.kernels = o.kernels.split(',');
    for (const k of o.kernels) if (!KERNELS.includes(k)) throw new Error(`unknown kernel ${k}`);
    return o;
}

// Google Benchmark's JSON: one entry per rung, named "<kernel>/<stage> [<stages>]".
function runNative(o, kernel) {
    const exe = join(root, o.nativeBuild, 'bench', `bench_ladder_${kernel}`);
    if (!existsSync(exe)) throw new Error(`${exe}: not built (cmake --build ${o.nativeBuild} --target bench_ladders)`);
    const r = spawnSync(exe, ['--benchmark_format=json', '--benchmark_repetitions=5', '--benchmark_report_aggregates_only=true'],
                        { encoding: 'utf8', maxBuffer: 64 << 20 });
    process.stderr.write(r.stderr);
    const data = JSON.parse(r.stdout);
    const rungs = {};
    for (const b of data.benchmarks.filter((b) => b.aggregate_name === 'median')) {
        const stage = b.run_name.split('/')[1].split(' ')[0];
        rungs[stage] = { median_ns: b.real_time * { ns: 1, us: 1e3, ms: 1e6 }[b.time_unit] };
    }
    return { exit: r.status, rungs };
}

function runWasm(o, kernel, config) {
    const module = join(root, o.wasmBuild, 'bench', `ladder-${kernel}.wasm`);
    if (!existsSync(module)) throw new Error(`${module}: not built (cmake --build ${o.wasmBuild} --target bench_ladders)`);
    const [cmd, args] = guestCommand(o, config, module, ['--rounds', String(o.rounds)]);
    const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
    process.stderr.write(r.stderr.split('\n').filter((l) => /FAILED/.test(l)).map((l) => `${configName(config)}: ${l}\n`).join(''));
    const line = (r.stdout || '').trim().split('\n').reverse().find((l) => l.startsWith('{'));
    if (!line) throw new Error(`${configName(config)} ladder-${kernel}: no JSON (exit ${r.status}): ${(r.stderr || '').slice(-400)}`);
    const ladder = JSON.parse(line).ladders[0];
    return { exit: r.status, ladder };
}

function measure(o) {
    const record = {
        schema: 'bitexact-ladders/1',
        date: new Date().toISOString(),
        git: gitInfo(),
        machine: { ...machine(), loadavg_before: loadavg().map((x) => +x.toFixed(2)) },
        compiler: { wasm: compiler(o.wasmBuild), native: compiler(o.nativeBuild) },
        runtimes: runtimeInfo(o, [...new Set(o.configs.map((c) => c.runtime))]),
        rounds: o.rounds,
        configs: o.configs.map(configName).concat(o.native ? ['native'] : []),
        ladders: [],
    };
    let failed = false;
    for (const kernel of o.kernels) {
        const entry = { kernel, workload: null, rungs: [] };
        const byStage = new Map();
        for (const config of o.configs) {
            const { exit, ladder } = runWasm(o, kernel, config);
            if (exit !== 0) failed = true;
            entry.workload = ladder.workload;
            for (const rung of ladder.rungs) {
                if (!byStage.has(rung.stage)) byStage.set(rung.stage, { stage: rung.stage, stages: rung.stages, code: rung.code, median_ns: {} });
                byStage.get(rung.stage).median_ns[configName(config)] = rung.median_ns;
            }
        }
        if (o.native) {
            const { exit, rungs } = runNative(o, kernel);
            if (exit !== 0) failed = true;
            for (const [stage, r] of Object.entries(rungs)) byStage.get(stage) && (byStage.get(stage).median_ns.native = r.median_ns);
        }
        entry.rungs = [...byStage.values()].sort((a, b) => a.stage.localeCompare(b.stage));
        record.ladders.push(entry);
    }
    record.machine.loadavg_after = loadavg().map((x) => +x.toFixed(2));
    record.failed = failed;
    return record;
}

// The newest results file, as Markdown: per kernel, each rung's median pass in
// microseconds per configuration, and its ratio to the scalar rung (stage 00).
function table() {
    // The pinned run (bench/results/book-runs.json, "ladders"): a full run pins
    // itself; a narrowed one (--kernels, --configs, --no-native) does not.
    const pinned = pinnedFile('ladders');
    const files = pinned ? [pinned.split('/').pop()] : readdirSync(results).filter((f) => /-ladders\.json$/.test(f)).sort();
    if (!files.length) throw new Error('no ladders results (make bench-ladders)');
    const run = JSON.parse(readFileSync(join(results, files.at(-1)), 'utf8'));
    const us = (ns) => (ns === undefined ? '–' : (ns / 1000).toFixed(ns < 1e6 ? 1 : 0));
    const lines = [`Kernel ladders, ${run.date.slice(0, 16).replace('T', ' ')} UTC at ${run.git.commit?.slice(0, 10)}` +
                   `${run.git.dirty ? ' (uncommitted changes)' : ''}: ${run.machine.cpu}, ${run.machine.cores} cores, ` +
                   `load ${run.machine.loadavg_before[0]} → ${run.machine.loadavg_after[0]}. Median of ${run.rounds} interleaved passes ` +
                   `(wasm) or of 5 repetitions (native, SIMDe); every rung checked bit for bit against stage 00's arithmetic first. ` +
                   `Source: \`bench/results/${files.at(-1)}\`.`, ''];
    for (const ladder of run.ladders) {
        const base = ladder.rungs[0];
        lines.push(`**${ladder.kernel}**: ${ladder.workload}`, '',
                   `| Rung | stages | ${run.configs.map((c) => `${c} (µs)`).join(' | ')} | ${run.configs[0]} ÷ scalar |`,
                   `|---|---|${run.configs.map(() => '--:').join('|')}|--:|`);
        for (const r of ladder.rungs) {
            const ratio = r.median_ns[run.configs[0]] / base.median_ns[run.configs[0]];
            lines.push(`| ${r.stage} | ${r.stages} | ${run.configs.map((c) => us(r.median_ns[c])).join(' | ')} | ${ratio.toFixed(2)}× |`);
        }
        lines.push('');
    }
    writeFileSync(join(results, 'ladders.md'), `${lines.join('\n')}`);
    return lines.join('\n');
}

const o = options(process.argv.slice(2));
if (!o.tableOnly) {
    const record = measure(o);
    const stamp = record.date.slice(0, 16).replace(/[-:]/g, '').replace('T', 'T').replace(/^(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
    const file = join(results, `${stamp}-ladders.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
    console.error(`[ladders] wrote ${file}`);
    const full = o.native && o.kernels.length === KERNELS.length && o.configs.length === 3 && !record.failed;
    if (full) pin('ladders', file);
    else console.error('[ladders] a narrowed run: not pinned, ladders.md keeps the pinned one');
    if (record.failed) {
        console.log(table());
        console.error('[ladders] a rung failed its check (above): it was not timed');
        process.exit(1);
    }
}
console.log(table());
