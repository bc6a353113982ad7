#!/usr/bin/env node
// Runs the fuzz targets (tests/fuzz/fuzz_<name>.cpp, built in build/sanitize)
// and reports what each did. The targets are the fuzz_*.cpp files here: this
// script finds them, so a new target needs no edit of it.
//
//   node tests/fuzz/fuzz.mjs [--targets a,b] [--seconds 60] [--jobs 2]
//        [--fresh DIR] [--record FILE] [--mutant]
//
// Each target starts from its committed seeds (tests/fuzz/seeds/<name>/) and
// its working corpus (build/fuzz/corpus/<name>/, kept between runs, where new
// inputs go; --fresh DIR uses DIR/<name> emptied first, as CTest does). A
// finding is saved as build/fuzz/findings/<name>/crash-<hash> (or leak-,
// timeout-, oom-); replay it with `build/sanitize/tests/fuzz/fuzz_<name> FILE`.
//
// Exit status: 0 when no target found anything. With --mutant the targets'
// mutant twins run instead, and the status is 0 only when every one of them
// was caught (a mutant that survives means the check cannot fail). A target
// may have further mutants, fuzz_<name>_mutant_<variant>, named <name>/<variant>
// in --targets; --mutant without --targets runs every mutant that is built.
// --record writes the executions, speed, coverage and findings of every
// target, with the machine, compiler and commit (bench/results/...-fuzz.json).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { compiler, gitInfo, machine } from '../../bench/lib/guest.mjs';
import { root } from '../integration/lib/env.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);

const here = join(root, 'tests/fuzz');
const all = readdirSync(here)
    .map((f) => f.match(/^fuzz_(.+)\.cpp$/)?.[1])
    .filter((name) => name && name !== 'support')
    .sort();
const seconds = Number(option('seconds', '60'));
const jobs = Number(option('jobs', '1'));
const mutant = flag('mutant');
const build = resolve(root, option('build', 'build/sanitize'));
// Every mutant twin built, as <name> or <name>/<variant>.
const builtMutants = () => (existsSync(join(build, 'tests/fuzz')) ? readdirSync(join(build, 'tests/fuzz')) : [])
    .map((f) => f.match(/^fuzz_(.+?)_mutant(?:_(.+))?$/))
    .filter((m) => m && all.includes(m[1]))
    .map((m) => (m[2] ? `${m[1]}/${m[2]}` : m[1]))
    .sort();
const targets = option('targets') ? option('targets').split(',') : mutant ? builtMutants() : all;
for (const t of targets) {
    const [name, variant] = t.split('/');
    if (!all.includes(name) || (variant && !mutant)) throw new Error(`no fuzz target '${t}' (have: ${all.join(', ')}; <name>/<variant> only with --mutant)`);
}
const fresh = option('fresh');
const record = option('record');

// A path inside the repository relative to it, any other as it is.
const shown = (p) => (p.startsWith(`${root}/`) ? relative(root, p) : p);

const env = {
    ...process.env,
    ASAN_OPTIONS: 'abort_on_error=0:detect_leaks=1',
    UBSAN_OPTIONS: 'print_stacktrace=1',
};

function runTarget(target) {
    const [name, variant] = target.split('/');
    const binary = join(build, 'tests/fuzz', `fuzz_${name}${mutant ? '_mutant' : ''}${variant ? `_${variant}` : ''}`);
    if (!existsSync(binary)) throw new Error(`${binary} is not built (make build-sanitize)`);
    const corpus = fresh ? join(resolve(fresh), target) : join(root, 'build/fuzz/corpus', name);
    if (fresh) rmSync(corpus, { recursive: true, force: true });
    const findings = join(fresh ? resolve(fresh) : join(root, 'build/fuzz'), mutant ? 'mutant-findings' : 'findings', target);
    mkdirSync(corpus, { recursive: true });
    mkdirSync(findings, { recursive: true });
    const seeds = join(here, 'seeds', name);
    const argv = [`-max_total_time=${seconds}`, '-print_final_stats=1', '-timeout=10', `-artifact_prefix=${findings}/`, corpus];
    if (existsSync(seeds)) argv.push(seeds);
    const started = Date.now();
    return new Promise((done) => {
        const child = spawn(binary, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let log = '';
        child.stdout.on('data', (d) => (log += d));
        child.stderr.on('data', (d) => (log += d));
        child.on('close', (code, signal) => {
            const stat = (key) => Number(log.match(new RegExp(`stat::${key}:\\s*(\\d+)`))?.[1] ?? NaN);
            const last = [...log.matchAll(/^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/gm)].at(-1);
            const report = log.match(/==bx-fuzz== property broken: .*|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): .*|runtime error: .*/)?.[0] ?? null;
            const artifacts = readdirSync(findings).filter((f) => /^(crash|leak|timeout|oom|slow-unit)-/.test(f));
            done({
                target,
                binary: shown(binary),
                seconds_asked: seconds,
                wall_s: (Date.now() - started) / 1000,
                exit: code ?? signal,
                executions: stat('number_of_executed_units'),
                exec_per_s: stat('average_exec_per_sec'),
                new_units: stat('new_units_added'),
                peak_rss_mb: stat('peak_rss_mb'),
                coverage: last ? { cov: Number(last[2]), ft: Number(last[3]), corpus: Number(last[4]) } : null,
                seeds: existsSync(seeds) ? readdirSync(seeds).length : 0,
                found: report !== null || code !== 0,
                report,
                artifacts: artifacts.map((f) => shown(join(findings, f))),
                log_tail: log.split('\n').slice(-40).join('\n'),
            });
        });
    });
}

const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
const results = [];
const queue = [...targets];
await Promise.all(Array.from({ length: Math.max(1, jobs) }, async () => {
    while (queue.length) {
        const name = queue.shift();
        const r = await runTarget(name);
        results.push(r);
        const what = r.found ? `FOUND ${r.report ?? `exit ${r.exit}`}${r.artifacts.length ? ` (input: ${r.artifacts.join(', ')})` : ''}` : 'nothing found';
        console.log(`fuzz ${mutant ? 'mutant ' : ''}${name}: ${r.executions} inputs in ${r.wall_s.toFixed(1)} s ` +
                    `(${r.exec_per_s}/s), cov ${r.coverage?.cov ?? '?'}, corpus ${r.coverage?.corpus ?? '?'}: ${what}`);
        if (r.found && !mutant) console.log(r.log_tail);
    }
}));
results.sort((a, b) => a.target.localeCompare(b.target));

if (record) {
    const file = resolve(root, record);
    writeFileSync(file, JSON.stringify({
        schema: 'bitexact-fuzz/1',
        date: new Date().toISOString(),
        git: gitInfo(),
        machine: { ...machine(), loadavg_before: loadBefore },
        compiler: compiler('build/sanitize'),
        settings: { seconds, jobs, mutant },
        results: results.map(({ log_tail, ...r }) => r),
    }, null, 2) + '\n');
    console.log(`fuzz: wrote ${record}`);
}

const failed = mutant ? results.filter((r) => !r.found) : results.filter((r) => r.found);
if (failed.length) {
    console.log(mutant ? `fuzz: mutant(s) NOT caught: ${failed.map((r) => r.target).join(', ')}`
                       : `fuzz: findings in ${failed.map((r) => r.target).join(', ')}`);
    process.exit(1);
}
console.log(mutant ? 'fuzz: every mutant was caught' : 'fuzz: no findings');
