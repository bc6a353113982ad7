// What bench/e2e/bench.mjs, bench/instructions.mjs and bench/peer/peer.mjs
// share: the record of what we run on (machine, compiler, commit, runtime), and
// running a stage's CLI as a guest (`check`, then `bench`), one fresh process
// per call, under one of two runtimes:
//   wasmtime  common/host/wasmtime-run.py (wasmtime-py, pinned, in build/venv):
//             Cranelift, SIMD, epoch interruption on (mode "epoch", what Spin
//             runs) or compiled out (mode "plain")
//   v8        Node: bench/e2e/wasi-host.mjs (mode "plain"; mode "epoch" is a
//             module instrumented with emulated epoch checks, bench/epoch/)
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const wasiHost = join(root, 'bench/e2e/wasi-host.mjs');
const wasmtimeHost = join(root, 'common/host/wasmtime-run.py');

export const RUNTIMES = ['wasmtime', 'v8'];
// The venv's Python (the Makefile exports WASMTIME_PY; the default is its path).
export const wasmtimePython = () => resolve(root, process.env.WASMTIME_PY || 'build/venv/bin/python');

// A config is one runtime and one mode, written "runtime:mode" (wasmtime:epoch).
export function parseConfigs(text) {
    return text.split(',').filter(Boolean).map((c) => {
        const [runtime, mode] = c.split(':');
        if (!RUNTIMES.includes(runtime) || !['plain', 'epoch'].includes(mode)) throw new Error(`unknown config ${c} (runtime:mode, runtime wasmtime|v8, mode plain|epoch)`);
        return { runtime, mode };
    });
}
export const configName = (c) => `${c.runtime}:${c.mode}`;

// --single-threaded-gc: Node 20 sometimes segfaults at exit after a module has
// grown its memory by tens of MB while concurrent GC threads run (see
// common/harness/harness.mk); a crash would read as a failed check.
export const V8_FLAGS = { turbofan: ['--no-liftoff', '--single-threaded-gc'], dynamic: ['--single-threaded-gc'] };

function sh(cmd, args, options = {}) {
    try { return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], ...options }).trim(); } catch { return null; }
}

export function machine() {
    let info = '';
    try { info = readFileSync('/proc/cpuinfo', 'utf8'); } catch { /* not Linux */ }
    const field = (name) => info.match(new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm'))?.[1] ?? null;
    // A virtual machine's model name can hide the generation ("AMD EPYC"); the
    // family and model numbers and AVX-512 tell hosts apart, and the JIT
    // compilers pick instructions by what the CPU has.
    const flags = (field('flags') ?? '').split(' ');
    return { cpu: field('model name'), cpu_family: field('cpu family'), cpu_model: field('model'),
             avx512: info ? flags.includes('avx512f') : null, cores: cpus().length };
}

// The compiler the wasm build used (CMake records what the toolchain file chose
// under CMakeFiles/<cmake version>/), and its configured flags.
export function compiler(buildDir) {
    const dir = resolve(root, buildDir);
    const cache = join(dir, 'CMakeCache.txt');
    if (!existsSync(cache)) return null;
    const text = readFileSync(cache, 'utf8');
    const get = (key) => text.match(new RegExp(`^${key}:[A-Z]+=(.*)$`, 'm'))?.[1] ?? '';
    let cxx = get('CMAKE_CXX_COMPILER');
    const filesDir = join(dir, 'CMakeFiles');
    for (const sub of existsSync(filesDir) ? readdirSync(filesDir) : []) {
        const f = join(filesDir, sub, 'CMakeCXXCompiler.cmake');
        if (!cxx && existsSync(f)) cxx = readFileSync(f, 'utf8').match(/^set\(CMAKE_CXX_COMPILER "([^"]*)"\)/m)?.[1] ?? '';
    }
    const type = get('CMAKE_BUILD_TYPE');
    return {
        cxx,
        version: cxx ? sh(cxx, ['--version'])?.split('\n')[0] ?? null : null,
        build_type: type,
        flags: [get('CMAKE_CXX_FLAGS'), type ? get(`CMAKE_CXX_FLAGS_${type.toUpperCase()}`) : ''].join(' ').trim(),
        toolchain: get('CMAKE_TOOLCHAIN_FILE') ? relative(root, get('CMAKE_TOOLCHAIN_FILE')) : null,
    };
}

// The exact flags a stage's library was compiled with (CMake's flags.make).
export function stageFlags(buildDir, stage) {
    const f = resolve(root, buildDir, 'stages', stage, 'CMakeFiles', `stage_${stage.slice(0, 2)}.dir`, 'flags.make');
    if (!existsSync(f)) return null;
    return readFileSync(f, 'utf8').match(/^CXX_FLAGS = (.*)$/m)?.[1]?.trim() ?? null;
}

export function gitInfo() {
    const commit = sh('git', ['-C', root, 'rev-parse', 'HEAD']);
    const dirty = sh('git', ['-C', root, 'status', '--porcelain', '--', 'stages', 'common']);
    return { commit, dirty: dirty === null ? null : dirty.length > 0 };
}

// The stages the build has a CLI for (directory names NN-name, in order); with
// `wanted` (NN or NN-name each), just those, in that order, or an error naming
// the first one not built.
export function builtStages(buildDir, wanted = null) {
    const dir = resolve(root, buildDir, 'stages');
    const built = existsSync(dir) ? readdirSync(dir).filter((d) => /^\d\d-/.test(d) && existsSync(join(dir, d, 'cli.wasm'))).sort() : [];
    if (!wanted) return built;
    return wanted.map((nn) => {
        const match = built.find((d) => d === nn || d.startsWith(`${nn}-`));
        if (!match) throw new Error(`stage ${nn}: no ${buildDir}/stages/${nn}-*/cli.wasm (build it first)`);
        return match;
    });
}

// What each runtime is, for the results file: Node and V8's versions and flags;
// wasmtime's version and settings as its host reports them (--describe).
export function runtimeInfo(o, runtimes) {
    const info = {};
    if (runtimes.includes('v8')) info.v8 = { node: process.version, v8: process.versions.v8, flags: V8_FLAGS[o.tiering], tiering: o.tiering };
    if (runtimes.includes('wasmtime')) {
        const r = spawnSync(wasmtimePython(), [wasmtimeHost, '--describe'], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`wasmtime host: ${(r.stderr || r.error?.message || '').trim().slice(0, 300)} (make setup-wasmtime)`);
        info.wasmtime = { ...JSON.parse(r.stdout), python: sh(wasmtimePython(), ['--version']) };
    }
    return info;
}

// The command line that runs a module under a config.
export function guestCommand(o, config, modulePath, args) {
    if (config.runtime === 'wasmtime') {
        return [wasmtimePython(), [wasmtimeHost, ...(config.mode === 'epoch' ? [] : ['--no-epoch']), modulePath, ...args]];
    }
    return [process.execPath, [...V8_FLAGS[o.tiering], '--disable-warning=ExperimentalWarning', wasiHost, modulePath, ...args]];
}

// A guest killed by a signal (the runtime itself crashing, not the guest
// failing) is run again, up to twice; the retries are recorded.
export function runGuest(o, modulePath, args, config = { runtime: 'v8', mode: 'plain' }) {
    const [cmd, cmdArgs] = guestCommand(o, config, modulePath, args);
    let crashes = 0;
    for (;;) {
        const t0 = performance.now();
        const r = spawnSync(cmd, cmdArgs, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
        const result = { status: r.status ?? -1, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: performance.now() - t0, crashes };
        if (!r.signal || crashes === 2) return result;
        crashes++;
        console.error(`[bench] ${config.runtime} was killed by ${r.signal}; running it again`);
    }
}

const tail = (text, lines = 6) => text.trim().split('\n').slice(-lines).join('\n');

export function check(o, modulePath, config) {
    const r = runGuest(o, modulePath, ['check', '--ref', o.ref, '--corpus', o.corpus], config);
    return { exit: r.status, signal: r.signal ?? undefined, crashes: r.crashes || undefined, ms: Math.round(r.ms), output: tail(r.stdout + r.stderr) };
}

// hashPass: the first pass over every window, which hashes the logits (bench.mjs
// asks for it in the first round only).
export function benchOnce(o, modulePath, config, { hashPass = true } = {}) {
    const r = runGuest(o, modulePath, ['bench', '--corpus', o.corpus, '--runs', String(o.runs), '--warmup', String(o.warmup),
                                       '--tok-loads', String(o.tokLoads), '--hash-pass', hashPass ? '1' : '0'], config);
    if (r.status !== 0) return { error: `bench exited ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${tail(r.stderr || r.stdout, 3).slice(0, 400)}` };
    const line = r.stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
    if (!line) return { error: 'bench printed no JSON' };
    return { data: JSON.parse(line), wall_ms: r.ms };
}

// The model the stages embed (assets/model/model.bxm): its hash, and whether it
// is the committed one. Tables refuse to pass off a run on another model as ours.
export const MODEL_FILE = 'assets/model/model.bxm';
export function modelHash() {
    return createHash('sha256').update(readFileSync(join(root, MODEL_FILE))).digest('hex');
}
export function modelInfo() {
    const changed = sh('git', ['-C', root, 'status', '--porcelain', '--', MODEL_FILE]);
    return { file: MODEL_FILE, sha256: modelHash(), committed: changed === null ? null : changed.length === 0 };
}

// The model committed at `commit` (for results files written before runs
// recorded their model: a clean run at that commit ran that file). Null when
// git cannot tell.
const modelAtCommit = new Map();
export function modelHashAt(commit) {
    if (!/^[0-9a-f]{7,40}$/.test(commit ?? '')) return null;
    if (!modelAtCommit.has(commit)) {
        let hash = null;
        try {
            const bytes = execFileSync('git', ['-C', root, 'show', `${commit}:${MODEL_FILE}`], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
            hash = createHash('sha256').update(bytes).digest('hex');
        } catch { /* not in this clone */ }
        modelAtCommit.set(commit, hash);
    }
    return modelAtCommit.get(commit);
}

