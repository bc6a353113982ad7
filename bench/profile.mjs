#!/usr/bin/env node
// Where a stage's time goes, function by function: the share of CPU samples
// (Linux perf, a software clock, so it works in a VM) in each wasm function
// V8 compiled, for the stage given and the stage before it, each running the
// eval corpus through the CLI. Shares are of all the process's samples, so
// Node's start-up, the model's load and the tokenizer are in the rest; the
// ratio of two functions' shares in one run does not depend on how fast the
// machine happened to be, which is what makes small gains visible on a noisy
// host. Kernels that forward() inlines are inside its share (make
// float-loops lists its loops).
//
//   node bench/profile.mjs --stage 17 [--runs 2] [--rounds 5] [-o FILE]
//   make profile STAGE=17      (writes bench/results/check-17-profile.txt)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageByNumber, stageNames } from '../tests/integration/lib/env.mjs';
import { captureHeader } from './lib/capture-header.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
    const o = { stage: null, out: null, runs: 2, rounds: 5, build: 'build/wasm' };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--stage') o.stage = argv[++i];
        else if (argv[i] === '--runs') o.runs = Number(argv[++i]);
        else if (argv[i] === '--rounds') o.rounds = Number(argv[++i]);
        else if (argv[i] === '-o') o.out = argv[++i];
        else if (argv[i] === '--build') o.build = argv[++i];
        else throw new Error(`unknown argument ${argv[i]}`);
    }
    if (!o.stage) throw new Error('usage: profile.mjs --stage NN [--runs N] [--rounds N] [-o FILE]');
    return o;
}

// A wasm function's name as V8's perf map gives it ("JS:name-index-turbofan"),
// without its parameter list, namespaces or index.
function shortName(symbol) {
    let name = symbol.replace(/^JS:/, '').replace(/-\d+-(turbofan|liftoff)$/, '');
    let depth = 0, cut = -1;
    for (let i = 0; i < name.length; i++) {  // the first top-level '('
        if (name[i] === '<') depth++;
        else if (name[i] === '>') depth--;
        else if (name[i] === '(' && depth === 0 && !name.startsWith('(anonymous', i)) { cut = i; break; }
    }
    if (cut >= 0) name = name.slice(0, cut);
    return name.replace(/\(anonymous namespace\)::/g, '').replace(/^bx::/, '');
}

// symbol -> share (%) of the samples of one run of the stage's CLI.
function profile(module, runs) {
    const dir = mkdtempSync(join(tmpdir(), 'bx-profile-'));
    const perfMaps = () => new Set(readdirSync('/tmp').filter((f) => /^perf-\d+\.map$/.test(f)));
    const mapsBefore = perfMaps();
    const data = join(dir, 'perf.data');
    const rec = spawnSync('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '2000', '-o', data, '--',
        process.execPath, '--perf-basic-prof', `--logfile=${join(dir, 'v8.log')}`, '--no-logfile-per-isolate', '--no-liftoff', '--single-threaded-gc', '--disable-warning=ExperimentalWarning',
        join(root, 'common/host/wasi-run.mjs'), module, 'eval', '--runs', String(runs)], { cwd: root, encoding: 'utf8' });
    if (rec.status !== 0) throw new Error(`perf record: ${rec.stderr}`);
    const report = execFileSync('perf', ['report', '-i', data, '--sort', 'symbol', '--stdio'],
        { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    rmSync(dir, { recursive: true, force: true });
    // V8's symbol map for perf (--perf-basic-prof): remove ours, not another process's.
    for (const f of perfMaps()) if (!mapsBefore.has(f)) rmSync(join('/tmp', f), { force: true });
    const shares = new Map();
    for (const line of report.split('\n')) {
        const m = /^\s*([\d.]+)%\s+\[[.k]\]\s+(.*?)\s*$/.exec(line);
        if (!m || !m[2].startsWith('JS:')) continue;
        const name = shortName(m[2]);
        shares.set(name, (shares.get(name) ?? 0) + Number(m[1]));
    }
    return shares;
}

function main() {
    const o = parseArgs(process.argv.slice(2));
    const stage = stageByNumber(o.stage);
    const dirs = stageNames().slice(0, stageNames().indexOf(stage) + 1).slice(-2);
    const modules = dirs.map((dir) => {
        const module = join(root, o.build, 'stages', dir, 'cli.wasm');
        if (!existsSync(module)) throw new Error(`${relative(root, module)} is missing (make build-wasm)`);
        return module;
    });
    // Rounds alternate the two stages, so that a spell of a busy host falls on
    // both; each function's share is the median over the rounds.
    const rounds = dirs.map(() => []);
    for (let r = 0; r < o.rounds; r++) modules.forEach((module, i) => rounds[i].push(profile(module, o.runs)));
    const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v[Math.floor((v.length - 1) / 2)]; };
    const results = rounds.map((list) => {
        const names = new Set(list.flatMap((m) => [...m.keys()]));
        return new Map([...names].map((name) => [name, median(list.map((m) => m.get(name) ?? 0))]));
    });
    const names = [...new Set(results.flatMap((r) => [...r.keys()]))]
        .map((name) => ({ name, top: Math.max(...results.map((r) => r.get(name) ?? 0)) }))
        .filter((x) => x.top >= 0.3).sort((a, b) => b.top - a.top);
    const cpu = execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: 'utf8' }).trim();
    const lines = [
        captureHeader(`node ${process.version} (V8 ${process.versions.v8}, --no-liftoff), ${cpu} ` +
                      `(node bench/profile.mjs --stage ${o.stage} --runs ${o.runs} --rounds ${o.rounds})`, ['bench/profile.mjs']),
        `Share of CPU samples (perf, cpu-clock) in each wasm function: the eval corpus run ${o.runs} times through each stage's CLI,`,
        `in ${o.rounds} rounds that alternate the stages; the median share over the rounds, for functions with at least 0.3% in either`,
        'stage. The rest of 100% is Node, V8\'s compiler, the kernel and smaller functions.',
        '',
        `| function | ${dirs.join(' | ')} |`,
        `|---|${dirs.map(() => '--:').join('|')}|`,
        ...names.map(({ name }) => `| \`${name}\` | ${results.map((r) => (r.has(name) ? `${r.get(name).toFixed(1)}%` : '')).join(' | ')} |`),
    ];
    const text = `${lines.join('\n')}\n`;
    if (o.out) writeFileSync(resolve(root, o.out), text);
    process.stdout.write(text);
}

main();
