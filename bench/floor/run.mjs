// make bench-floor: the GEMM's floor and attention's float floor (kernels.mjs) under each runtime the
// harness has (wasmtime with epoch interruption, as Spin runs it; wasmtime
// without; V8) and natively (native.cpp), in rounds interleaved across the
// four, one fresh process each. Writes bench/results/<date>-floor.json
// (machine, compilers, commit, runtimes, load before and after), prints its
// path first and then the table `node bench/table.mjs floor FILE` renders.
//
//   node bench/floor/run.mjs [--rounds 10] [--inner 3] [--no-count]
//
// Then, unless --no-count, the instructions one window's pass of each kernel
// executes under wasmtime (epoch on) and V8, counted by valgrind as
// bench/instructions.mjs counts the stages: the difference between a process
// that runs the kernel twice and one that runs it once (the warm-up pass, the
// runtime's start and its compilation cancel).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compiler, configName, gitInfo, machine, modelInfo, parseConfigs, runtimeInfo, V8_FLAGS, wasmtimePython } from '../lib/guest.mjs';
import { WINDOW_DOTS, WINDOW_EXPS, WINDOW_FLOAT_PAIRS, wasmBytes, wat } from './kernels.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const o = { rounds: 10, inner: 3, tiering: 'turbofan', count: true };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') o.rounds = Number(argv[++i]);
    else if (argv[i] === '--inner') o.inner = Number(argv[++i]);
    else if (argv[i] === '--no-count') o.count = false;
    else { console.error('usage: run.mjs [--rounds N] [--inner N]'); process.exit(2); }
}
const configs = parseConfigs('wasmtime:epoch,wasmtime:plain,v8:plain');
const native = join(root, 'build/native/bench/floor-native');
if (!existsSync(native)) { console.error(`${native}: not built (make bench-floor builds it)`); process.exit(1); }
const module = join(root, 'build/floor/floor-kernels.wasm');
mkdirSync(dirname(module), { recursive: true });
writeFileSync(module, await wasmBytes());
writeFileSync(module.replace(/\.wasm$/, '.wat'), `${wat()}\n`);

function once(config, inner = o.inner, only = null, wrap = []) {
    const cmd = !config ? [native, [String(inner)]]
        : config.runtime === 'v8' ? [process.execPath, [...V8_FLAGS[o.tiering], join(here, 'v8-host.mjs'), module, String(inner), ...(only ? [only] : [])]]
        : [wasmtimePython(), [join(here, 'wasmtime-host.py'), ...(config.mode === 'epoch' ? [] : ['--no-epoch']), ...(only ? ['--only', only] : []),
                              module, String(inner), String(WINDOW_DOTS), String(WINDOW_FLOAT_PAIRS), String(WINDOW_EXPS)]];
    const r = spawnSync(wrap.length ? wrap[0] : cmd[0], wrap.length ? [...wrap.slice(1), cmd[0], ...cmd[1]] : cmd[1], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (wrap.length) {
        const refs = (r.stderr || '').match(/I\s+refs:\s+([\d,]+)/);
        if (r.status !== 0 || !refs) throw new Error(`valgrind ${config ? configName(config) : 'native'}: exit ${r.status}: ${(r.stderr || '').slice(-400)}`);
        return Number(refs[1].replaceAll(',', ''));
    }
    const line = (r.stdout || '').trim().split('\n').reverse().find((l) => l.startsWith('{'));
    if (r.status !== 0 || !line) throw new Error(`${config ? configName(config) : 'native'}: exit ${r.status}: ${(r.stderr || '').slice(-400)}`);
    const data = JSON.parse(line);
    const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
    return { registers_ns: median(data.registers_ns), loads_ns: median(data.loads_ns), floats_ns: median(data.floats_ns), exps_ns: data.exps_ns ? median(data.exps_ns) : null };  // native.cpp has no exps
}

const record = {
    schema: 'bitexact-floor/1',
    date: new Date().toISOString(),
    git: gitInfo(),
    model: modelInfo(),
    machine: { ...machine(), loadavg_before: loadavg().map((x) => +x.toFixed(2)) },
    compiler: { native: compiler('build/native') },
    runtimes: runtimeInfo(o, ['wasmtime', 'v8']),
    settings: { rounds: o.rounds, inner: o.inner, kernels: 'bench/floor/kernels.mjs (wasm written by hand), bench/floor/native.cpp' },
    window_dots: WINDOW_DOTS,
    window_float_pairs: WINDOW_FLOAT_PAIRS,
    window_exps: WINDOW_EXPS,
    results: {},
};
const names = [...configs.map(configName), 'native'];
for (const n of names) record.results[n] = { registers_ns: [], loads_ns: [], floats_ns: [], exps_ns: [] };
for (let round = 0; round < o.rounds; round++) {
    for (const [i, name] of names.entries()) {
        const r = once(configs[i] ?? null);
        record.results[name].registers_ns.push(r.registers_ns);
        record.results[name].loads_ns.push(r.loads_ns);
        record.results[name].floats_ns.push(r.floats_ns);
        if (r.exps_ns !== null) record.results[name].exps_ns.push(r.exps_ns);
    }
    process.stderr.write(`[floor] round ${round + 1}/${o.rounds}\n`);
}
record.machine.loadavg_after = loadavg().map((x) => +x.toFixed(2));
if (o.count) {
    // Counted after the timing (a count does not care what else runs; a time does).
    const VALGRIND = ['valgrind', '--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file'];
    record.instructions = { valgrind: VALGRIND.slice(1) };
    for (const config of configs.filter((c) => c.mode === 'epoch' || c.runtime === 'v8')) {
        for (const kernel of ['registers', 'loads', 'floats', 'exps']) {
            const one = once(config, 1, kernel, VALGRIND), two = once(config, 2, kernel, VALGRIND);
            (record.instructions[configName(config)] ??= {})[kernel] = two - one;
            process.stderr.write(`[floor] ${configName(config)} ${kernel}: ${(two - one).toLocaleString('en-US')} instructions per window\n`);
        }
    }
}
const stamp = record.date.slice(0, 16).replace(/[-:]/g, '').replace(/^(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
const file = join(root, 'bench/results', `${stamp}-floor.json`);
writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
console.log(file);  // first line of stdout: make bench-floor pins it
const r = spawnSync(process.execPath, [join(root, 'bench/table.mjs'), 'floor', file], { encoding: 'utf8' });
process.stdout.write(r.stdout + r.stderr);
