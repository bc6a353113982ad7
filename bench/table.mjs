#!/usr/bin/env node
// Markdown table of the bench results, for the book: one row per stage, plain
// and epoch side by side, the epoch/plain ratio, the phase split and the
// tokenizer load. Below it, where and how the numbers were taken.
//
//   node bench/table.mjs [forward|epoch] [results.json ...] [-o FILE.md]
//   node bench/table.mjs tokenizer NN MM ...   tok_load of those stages, one run
//   node bench/table.mjs serve NN MM ...       bench/results/serve-NN-MM.json
//   node bench/table.mjs sweep NN              stage NN's SWEEP variants, one run
//   node bench/table.mjs step NN               stage NN against the stage before it and stage 00, one run
//   node bench/table.mjs peer                  the newest bench-peer run (bench/peer/peer.mjs)
//   node bench/table.mjs limits                the newest `make limits` run (bench/limits.mjs)
//   node bench/table.mjs verdict NN            stage NN's closing line: its step under each runtime
//   node bench/table.mjs picture               per step: the post's figure, ours on both runtimes, the proof
// Which run: the one bench/results/book-runs.json names for the table
// (bench/pin.mjs): "forward" for forward, epoch, step, verdict and picture,
// "instructions" for their instruction columns, "peer", "limits", "sweep NN",
// "tokenizer NN MM". A table with no pin falls back to the newest run that fits.
// Runs that measured several runtimes (wasmtime, V8) get the tables of
// bench/lib/runtime-tables.mjs; older V8-only runs keep the ones below.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, latestByStageMode, loadRuns, resultFiles, stagesOf, trustWarning } from './lib/results.mjs';
import { modelHash } from './lib/guest.mjs';
import { pinnedFile } from './pin.mjs';
import { ratioInterval, summarize, verdict } from './lib/stats.mjs';
import { configOf, intervalText, isRuntimeRun, renderPicture, renderRuntimeEpoch, renderRuntimeForward, renderRuntimeStep, renderVerdict } from './lib/runtime-tables.mjs';
import { WINDOW_DOTS, WINDOW_EXPS, WINDOW_FLOAT_PAIRS, passDots, passExps, passFloatPairs } from './floor/kernels.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function renderTable(runs) {
    const latest = latestByStageMode(runs);
    const lines = [
        '| Stage | Forward, plain (ms) | Forward, epoch (ms) | Epoch / plain, medians (mins) | CPU, plain / epoch (ms) | Matmul (ms) | Attention (ms) | Other (ms) | tok_load (ms) |',
        '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ];
    const cell = (entry) => {
        if (!entry) return '–';
        const r = entry.result;
        if (r.status === 'failed') return `**failed** (${r.reason ?? 'check'})`;
        const f = r.forward_ms;
        return `${fmt(f.median)} (${fmt(f.min)}–${fmt(f.max)})${r.status === 'unchecked' ? ' unchecked' : ''}`;
    };
    const usedRuns = new Set();
    for (const stage of stagesOf(latest)) {
        const plain = latest.get(`${stage}|plain`);
        const epoch = latest.get(`${stage}|epoch`);
        for (const e of [plain, epoch]) if (e) usedRuns.add(e.run);
        const ok = (e) => e && e.result.status !== 'failed' && e.result.forward_ms;
        // Ratio of medians, and of minimums: noise only ever adds time, so under load the
        // minimums are the steadier pair.
        const ratio = ok(plain) && ok(epoch)
            ? `${fmt(epoch.result.forward_ms.median / plain.result.forward_ms.median, 2)}× (min ${fmt(epoch.result.forward_ms.min / plain.result.forward_ms.min, 2)}×)`
            : '–';
        // Phases and tokenizer load from the plain build (epoch's are in the results file).
        const p = ok(plain) ? plain.result : ok(epoch) ? epoch.result : null;
        const cpu = (e) => (ok(e) && e.result.forward_cpu_ms ? fmt(e.result.forward_cpu_ms.median) : '–');
        lines.push(`| ${stage} | ${cell(plain)} | ${cell(epoch)} | ${ratio} | ${cpu(plain)} / ${cpu(epoch)} | ${fmt(p?.profile_ms.matmul)} | ` +
                   `${fmt(p?.profile_ms.attention)} | ${fmt(p?.profile_ms.other)} | ${fmt(p?.tok_load_ms.median)} |`);
    }
    lines.push('');
    lines.push('Forward: wall time of one window through the encoder, median (min–max), Node/V8; CPU: median CPU time of the ' +
               'wasm thread for the same runs (leaves out time spent descheduled); phases from the plain build.');
    const used = [...usedRuns].sort((a, b) => a.date.localeCompare(b.date));
    for (const run of used) lines.push(provenanceLine(run));
    return `${trustWarning(used, currentModel())}${lines.join('\n')}\n`;
}

// The committed model's hash, which every run's recorded model must match.
// BENCH_TABLE_MODEL overrides it (the report test uses it).
const currentModel = () => process.env.BENCH_TABLE_MODEL ?? modelHash();

// One line per results run: where and how its numbers were taken.
export function provenanceLine(run) {
    const m = run.machine;
    const file = run.file ? ` (bench/results/${run.file.split('/').pop()})` : '';
    const counted = run.schema === 'bitexact-instructions/1';
    return `${counted ? 'Counted' : 'Measured'} ${run.date.slice(0, 16).replace('T', ' ')} UTC at ${run.git.commit?.slice(0, 10) ?? '?'}${run.git.dirty ? ' (uncommitted changes)' : ''}${file}: ` +
           `${m.cpu ?? 'unknown CPU'}, ${m.cores} cores, load ${m.loadavg_before?.[0] ?? '?'} → ${m.loadavg_after?.[0] ?? '?'}; ` +
           `${runtimesText(run)}; ` +
           `${run.compiler?.version ?? 'compiler unknown'} ${run.compiler?.flags ?? ''}` +
           (counted ? `; valgrind ${run.valgrind.join(' ')}.` : `; ${run.settings.runs} runs × ${run.settings.rounds} round(s).`);
}

function runtimesText(run) {
    const v8 = (r) => `Node ${r.node} (V8 ${r.v8}${r.flags.length ? `, ${r.flags.join(' ')}` : ''})`;
    if (!run.runtimes) return v8(run.runtime);
    const parts = [];
    const w = run.runtimes.wasmtime;
    if (w) parts.push(`wasmtime ${w.wasmtime} (wasmtime-py, ${w.strategy} opt ${w.cranelift_opt_level}, SIMD, epoch ticks ${w.epoch_tick_ms} ms, deadline never reached)`);
    if (run.runtimes.v8) parts.push(v8(run.runtimes.v8));
    return parts.join(', ');
}

// Attention's bound for one stage's pass, in ms: the float products at the
// float floor's rate, plus (when the floor run has them) the exponentials at
// the exps kernel's; `floor` holds each kernel's window median in ns. Stage
// 00 computes every layer on all 256 rows; later stages' last layer the live
// rows only.
export function attentionBoundMs(floor, stage, live) {
    const allRows = stage.startsWith('00-');
    const products = (floor.floats / 1e6) * passFloatPairs(live, allRows) / WINDOW_FLOAT_PAIRS;
    return floor.exps === undefined ? products : products + (floor.exps / 1e6) * passExps(live, allRows) / WINDOW_EXPS;
}

// Two runs on the same kind of CPU (family and model as /proc/cpuinfo gives
// them): only then may a time of one be divided by a time of the other.
export const cpuOf = (run) => `${run.machine?.cpu ?? '?'} family ${run.machine?.cpu_family ?? '?'} model ${run.machine?.cpu_model ?? '?'}`;
export const sameCpu = (a, b) => cpuOf(a) === cpuOf(b);

// What a floor run says each phase must cost, per runtime: `phaseBounds(floorRun)`
// maps a config (`wasmtime:epoch`, `v8:plain`, ...) to a function
// (phase, stage, result) -> ms, or null for a phase the run has no kernel for;
// `result` is the stage's record in a forward run (its windows' live rows).
// The matmul's is the registers floor scaled to the dots the stage's pass
// computes; attention's is attentionBoundMs().
export function phaseBounds(floorRun) {
    const median = (xs) => summarize(xs).median;
    const out = {};
    for (const [name, r] of Object.entries(floorRun.results)) {
        const dots = median(r.registers_ns);
        const floats = r.floats_ns?.length ? median(r.floats_ns) : undefined;
        const exps = r.exps_ns?.length && floorRun.window_exps ? median(r.exps_ns) : undefined;
        out[name] = (phase, stage, result) => {
            const live = result?.live?.length ? result.live.reduce((a, b) => a + b, 0) / result.live.length : 256;
            if (phase === 'matmul') return (dots / 1e6) * passDots(live, stage.startsWith('00-')) / WINDOW_DOTS;
            if (phase === 'attention' && floats !== undefined) return attentionBoundMs({ floats, exps }, stage, live);
            return null;
        };
    }
    return out;
}

// `floor [FILE]`: the GEMM's floor (bench/floor) under each runtime and
// natively: one window's dot products with their operands in registers, and
// with the loads the GEMM's layout needs; then every stage's matmul phase in
// the pinned forward run as a multiple of the registers floor of the same
// runtime. Medians over the floor run's processes (each its own median pass);
// the spread is the fastest and slowest process.
export function renderFloorTable(floorRun, forwardRun, part = 'all') {
    const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
    const ms = (ns) => fmt(ns / 1e6, 1);
    const label = { 'wasmtime:epoch': 'wasmtime, epoch on', 'wasmtime:plain': 'wasmtime, epoch off', 'v8:plain': 'V8', native: 'native (clang, SIMDe, x86-64 baseline)' };
    const lines = [`| Runtime | floor, operands in registers: ms per window [fastest, slowest] | dots per ns | floor with the GEMM's loads: ms [fastest, slowest] | dots per ns |`,
                   '|---|--:|--:|--:|--:|'];
    const floorOf = {}, floatFloorOf = {}, expFloorOf = {};
    for (const [name, r] of Object.entries(floorRun.results)) {
        const reg = med(r.registers_ns), load = med(r.loads_ns);
        floorOf[name] = reg;
        if (r.floats_ns?.length) floatFloorOf[name] = med(r.floats_ns);
        if (r.exps_ns?.length) expFloorOf[name] = med(r.exps_ns);
        lines.push(`| ${label[name] ?? name} | ${ms(reg)} [${ms(Math.min(...r.registers_ns))}, ${ms(Math.max(...r.registers_ns))}] | ` +
                   `${fmt(floorRun.window_dots / reg, 2)} | ${ms(load)} [${ms(Math.min(...r.loads_ns))}, ${ms(Math.max(...r.loads_ns))}] | ${fmt(floorRun.window_dots / load, 2)} |`);
    }
    // Attention's bound: its float products (f32x4.mul, each with its
    // f32x4.add) at the rate of the float kernel, operands in registers.
    // With the exps kernel (floor runs from 2026-12-07 on), the bound adds
    // softmax's exponentials at that kernel's rate.
    const floats = Object.keys(floatFloorOf).length > 0 && floorRun.window_float_pairs;
    const exps = Object.keys(expFloorOf).length > 0 && floorRun.window_exps;
    if (floats) {
        lines.push('', `| Runtime | attention's float floor, operands in registers: ms per window [fastest, slowest] | mul+add pairs per ns |${exps ? ' softmax\'s exps: ms per window [fastest, slowest] | exps per ns |' : ''}`,
                   `|---|--:|--:|${exps ? '--:|--:|' : ''}`);
        for (const [name, r] of Object.entries(floorRun.results)) {
            if (!floatFloorOf[name]) continue;
            const expCells = !exps ? '' : expFloorOf[name]
                ? ` ${ms(expFloorOf[name])} [${ms(Math.min(...r.exps_ns))}, ${ms(Math.max(...r.exps_ns))}] | ${fmt(floorRun.window_exps / expFloorOf[name], 2)} |` : ' – | – |';
            lines.push(`| ${label[name] ?? name} | ${ms(floatFloorOf[name])} [${ms(Math.min(...r.floats_ns))}, ${ms(Math.max(...r.floats_ns))}] | ` +
                       `${fmt(floorRun.window_float_pairs / floatFloorOf[name], 2)} |${expCells}`);
        }
    }
    if (floorRun.instructions) {
        lines.push('', '| Instructions per window (valgrind) | operands in registers | per dot | with the GEMM\'s loads | per dot |', '|---|--:|--:|--:|--:|');
        for (const [name, c] of Object.entries(floorRun.instructions)) {
            if (name === 'valgrind') continue;
            lines.push(`| ${label[name] ?? name} | ${(c.registers / 1e9).toFixed(3)}e9 | ${fmt(c.registers / floorRun.window_dots, 2)} | ` +
                       `${(c.loads / 1e9).toFixed(3)}e9 | ${fmt(c.loads / floorRun.window_dots, 2)} |`);
        }
        if (floats) {
            lines.push('', `| Instructions per window (valgrind) | attention's float floor | per mul+add pair |${exps ? ' softmax\'s exps | per exp |' : ''}`,
                       `|---|--:|--:|${exps ? '--:|--:|' : ''}`);
            for (const [name, c] of Object.entries(floorRun.instructions)) {
                if (name === 'valgrind' || c.floats === undefined) continue;
                lines.push(`| ${label[name] ?? name} | ${(c.floats / 1e9).toFixed(3)}e9 | ${fmt(c.floats / floorRun.window_float_pairs, 2)} |` +
                           (c.exps === undefined ? '' : ` ${(c.exps / 1e9).toFixed(3)}e9 | ${fmt(c.exps / floorRun.window_exps, 2)} |`));
            }
        }
    }
    lines.push('', `One window is ${floorRun.window_dots.toLocaleString('en-US')} \`i32x4.dot_i16x8_s\` (x86 \`pmaddwd\`), each with the \`i32x4.add\` that keeps its sum` +
               (floats ? `, and ${floorRun.window_float_pairs.toLocaleString('en-US')} \`f32x4.mul\` in attention's two products, each with its \`f32x4.add\`` : '') + '. ' +
               `Medians of ${floorRun.settings.rounds} processes per runtime, interleaved, each the median of ${floorRun.settings.inner} passes.`, '');
    const perStageFrom = lines.length;  // part 'floors' stops here, part 'stages' starts here
    if (forwardRun && !sameCpu(floorRun, forwardRun)) {
        lines.push(`The pinned forward run was measured on another CPU (${cpuOf(forwardRun)}) than this floor run (${cpuOf(floorRun)}), ` +
                   'so no stage is divided by this floor: a ratio across two machines measures the machines.', '');
    } else if (forwardRun) {
        const keys = [['wasmtime:epoch', 'wasmtime, epoch on'], ['v8:plain', 'V8']].filter(([k]) => floorOf[k]);
        lines.push(`| Stage | ${keys.map(([, l]) => `matmul, ${l} (ms) | ÷ its floor`).join(' | ')} |`, `|---|${keys.map(() => '--:|--:').join('|')}|`);
        // Each bound is scaled to the products a stage's pass really computes
        // (stage 00 on all 256 rows, later stages' last layer on the live rows).
        const bounds = phaseBounds(floorRun);
        const stages = [...new Set(forwardRun.results.filter((r) => !r.sweep).map((r) => r.stage))].sort();
        const runOf = (stage, k) => forwardRun.results.find((x) => !x.sweep && x.stage === stage && configOf(x) === k && x.status === 'ok');
        for (const stage of stages) {
            const cells = keys.map(([k]) => {
                const r = runOf(stage, k);
                const m = r?.profile_ms?.matmul;
                return m ? `${fmt(m, 1)} | ${fmt(m / bounds[k]('matmul', stage, r), 2)}×` : '– | –';
            });
            lines.push(`| ${stage} | ${cells.join(' | ')} |`);
        }
        lines.push('', 'The matmul phase is the mean per forward in the forward run (bench/results/book-runs.json), over windows with few live ' +
                   'rows; from stage 01 on, the last layer computes most of its products for those rows only, so each stage\'s floor is ' +
                   'the window\'s floor scaled to the products its forward pass computes. The phase also holds the quantisation of the ' +
                   'activations and the dequantising epilogue besides the products, so a multiple near or under 1 means that the stage issues its ' +
                   'products faster than the floor kernel does.', '');
        const floatKeys = keys.filter(([k]) => floatFloorOf[k]);
        if (floats && floatKeys.length) {
            lines.push(`| Stage | ${floatKeys.map(([, l]) => `attention, ${l} (ms) | its bound (ms) | ÷ its bound`).join(' | ')} |`, `|---|${floatKeys.map(() => '--:|--:|--:').join('|')}|`);
            for (const stage of stages) {
                const cells = floatKeys.map(([k]) => {
                    const r = runOf(stage, k);
                    const m = r?.profile_ms?.attention;
                    const bound = bounds[k]('attention', stage, r);
                    return m ? `${fmt(m, 1)} | ${fmt(bound, 1)} | ${fmt(m / bound, 2)}×` : '– | – | –';
                });
                lines.push(`| ${stage} | ${cells.join(' | ')} |`);
            }
            lines.push('', exps
                ? 'Attention\'s bound is what every exact stage must compute for it, each part in a kernel that does nothing else, on the same runtime: ' +
                  'its two float products (scores and weighted values) at the float floor\'s rate, and softmax\'s exponentials, one per score, at the ' +
                  'exps kernel\'s rate; both scaled, as the matmul floor is, to the queries each stage computes. The phase also holds the scaling of ' +
                  'the scores, the row maxima, sums and divisions and the moves between the kernels, which the bound leaves out.'
                : 'Attention\'s bound is its two float products (scores and weighted values) at the float floor of the same runtime, ' +
                  'scaled as the matmul floor is to the queries each stage computes. The phase also holds the softmax, its exponentials ' +
                  'and the scaling of the scores, which the bound leaves out, so a multiple of 1 is out of reach here too.', '');
        }
    }
    const floorLine = `Floor measured ${floorRun.date.slice(0, 16).replace('T', ' ')} UTC at ${floorRun.git.commit?.slice(0, 10) ?? '?'}${floorRun.git.dirty ? ' (uncommitted changes)' : ''}` +
        ` (bench/results/${floorRun.file.split('/').pop()}): ${floorRun.machine.cpu}, ${floorRun.machine.cores} cores, load ${floorRun.machine.loadavg_before[0]} → ${floorRun.machine.loadavg_after[0]}; ` +
        `${runtimesText(floorRun)}; wasm kernels written by hand (bench/floor/kernels.mjs); native: ${floorRun.compiler?.native?.version ?? '?'} ${floorRun.compiler?.native?.flags ?? ''}.`;
    const withStages = forwardRun && part !== 'floors';
    const body = part === 'floors' ? lines.slice(0, perStageFrom) : part === 'stages' ? lines.slice(perStageFrom) : lines;
    body.push(floorLine);
    if (withStages) body.push(provenanceLine(forwardRun));
    return `${trustWarning([floorRun, ...(withStages ? [forwardRun] : [])], currentModel())}${body.join('\n')}\n`;
}

// `tokenizer NN MM ...`: the tokenizer's load per stage, plain and epoch, from
// the newest run that has every listed stage in both modes (so the ratios are
// side by side), and the first stage's load split into parsing tokenizer.json,
// reading it into a config, and the rest (the stage indexing the vocabulary).
export function renderTokenizerTable(runs, prefixes) {
    const wanted = (stage) => prefixes.some((p) => stage.startsWith(`${p}-`));
    // Two columns: wasmtime with epoch checks and V8 (runs before wasmtime: V8 plain and emulated epoch).
    const columnsOf = (run) => (run.runtimes ? [['wasmtime:epoch', 'wasmtime'], ['v8:plain', 'V8']] : [['v8:plain', 'plain'], ['v8:epoch', 'epoch']]);
    const has = (run, stage, key) => run.results.find((r) => !r.sweep && r.stage === stage && configOf(r) === key && r.status === 'ok' && r.tok_load_ms);
    const complete = (run) => {
        const stages = [...new Set(run.results.map((r) => r.stage))].filter(wanted);
        return stages.length === prefixes.length && stages.every((s) => columnsOf(run).every(([k]) => has(run, s, k)));
    };
    const run = [...runs].reverse().find(complete);
    if (!run) throw new Error(`no results run has stages ${prefixes.join(', ')} with tok_load under both columns`);
    const [[k1, n1], [k2, n2]] = columnsOf(run);
    const stages = [...new Set(run.results.map((r) => r.stage))].filter(wanted).sort();
    const r = (stage, key) => has(run, stage, key);
    const span = (s) => `${fmt(s.median, 2)} (${fmt(s.min, 2)}–${fmt(s.max, 2)})`;
    const first = stages[0];
    const lines = [
        `| Stage | tok_load, ${n1} (ms) | tok_load, ${n2} (ms) | ${n1}, vs ${first} | ${n2}, vs ${first} |`,
        '|---|--:|--:|--:|--:|',
    ];
    for (const stage of stages) {
        const ratio = (key) => `${fmt(r(stage, key).tok_load_ms.median / r(first, key).tok_load_ms.median, 3)}×`;
        lines.push(`| ${stage} | ${span(r(stage, k1).tok_load_ms)} | ${span(r(stage, k2).tok_load_ms)} | ${ratio(k1)} | ${ratio(k2)} |`);
    }
    lines.push('');
    if (r(first, k1).tok_parse_ms?.n) {
        lines.push(`| ${first}'s load, medians | ${n1} (ms) | ${n2} (ms) |`, '|---|--:|--:|');
        const part = (key) => {
            const x = r(first, key);
            return { parse: x.tok_parse_ms.median, read: x.tok_read_ms.median, load: x.tok_load_ms.median };
        };
        const p = part(k1), e = part(k2);
        lines.push(`| parse tokenizer.json (JSON text → values) | ${fmt(p.parse, 2)} | ${fmt(e.parse, 2)} |`);
        lines.push(`| read the values into a config (31,000 pieces and scores, the charsmap) | ${fmt(p.read, 2)} | ${fmt(e.read, 2)} |`);
        lines.push(`| the rest: the stage builds its hash map and trie (tok_load − both) | ${fmt(p.load - p.parse - p.read, 2)} | ${fmt(e.load - e.parse - e.read, 2)} |`);
        lines.push(`| tok_load | ${fmt(p.load, 2)} | ${fmt(e.load, 2)} |`);
        lines.push('');
    }
    const n = r(first, k1).tok_load_ms.n;
    lines.push(`tok_load: \`load_tokenizer()\` in the stage's CLI, a new tokenizer each time, median (min–max) of ${n}; ` +
               'parse and read are timed on their own in the same process, the rest is the difference of medians.');
    lines.push(provenanceLine(run));
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// `serve NN MM ...`: bench/results/serve-NN-MM.json (bench/e2e/serve.mjs).
export function renderServeTable(prefixes) {
    const file = join(here, 'results', `serve-${prefixes.join('-')}.json`);
    const run = JSON.parse(readFileSync(file, 'utf8'));
    const lines = [
        '| Text | Stage | total (ms) | tok_load (ms) | encode (ms) | forward (ms) | client round trip (ms) |',
        '|---|---|--:|--:|--:|--:|--:|',
    ];
    for (const [name, t] of Object.entries(run.texts)) {
        for (const stage of run.stages) {
            const m = t.stages[stage].median_ms;
            lines.push(`| ${name}, ${t.content_tokens} tokens, ${t.windows} window(s) | ${stage} | ${fmt(m.total)} | ${fmt(m.tok_load)} | ` +
                       `${fmt(m.encode)} | ${fmt(m.forward)} | ${fmt(m.client)} |`);
        }
    }
    lines.push('');
    lines.push('| Stage | component.wasm (bytes) |', '|---|--:|');
    for (const stage of run.stages) lines.push(`| ${stage} | ${run.components[stage].bytes.toLocaleString('en-US')} |`);
    lines.push('');
    const m = run.machine;
    const requests = Object.values(run.texts)[0].requests_per_stage;
    lines.push(`Server-Timing medians of ${requests} requests per stage and text after one discarded, stages alternating; ${run.runtime}. ` +
               `Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC at ${run.commit?.slice(0, 10) ?? '?'}${run.dirty ? ' (uncommitted changes)' : ''}: ` +
               `${m.cpu}, ${m.cores} cores, load ${m.loadavg_1m.before} → ${m.loadavg_1m.after}.`);
    return `${lines.join('\n')}\n`;
}

// One row per (text, stage, host) of a bench/e2e/serve.mjs run: `row` gets the
// text's name and record, the stage, the host and that target's medians.
function serveRows(run, row) {
    const lines = [];
    for (const [name, t] of Object.entries(run.texts)) {
        for (const stage of run.stages) {
            for (const host of run.hosts) lines.push(row(name, t, stage, host, t.stages[`${stage} ${host}`].median_ms));
        }
    }
    return lines;
}

// The paragraph under a serve run's tables: how it was measured, where, when.
function serveProvenance(run, note = '') {
    const m = run.machine;
    const requests = Object.values(run.texts)[0].requests_per_stage;
    return `Server-Timing medians of ${requests} requests per stage, host and text after one discarded, all of them alternating in each round, ` +
           `a fresh instance per request; ratios are medians of per-round ratios with 95% bootstrap intervals. ` +
           `Hosts: ${run.hosts.map((h) => run.runtime[h]).join('; ')}. ${note}` +
           `Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC at ${run.commit?.slice(0, 10) ?? '?'}${run.dirty ? ' (uncommitted changes)' : ''}: ` +
           `${m.cpu}, ${m.cores} cores, load ${m.loadavg_1m.before} → ${m.loadavg_1m.after}.`;
}

// `serve-hosts`: the pinned two-host run of bench/e2e/serve.mjs (schema
// bitexact-serve/2): per text and stage, each host's Server-Timing medians,
// the client's round trip, what the host adds outside the component, the
// hosts' ratio with its interval, and the post's Akamai figure where the post
// gave one for that stage.
const POST_AKAMAI = { '00': 'akamai-start', '09': 'akamai-end' };
export function renderServeHostsTable(file) {
    const run = JSON.parse(readFileSync(file, 'utf8'));
    const [h0, h1] = run.hosts;
    const lines = [
        '| Text | Stage | host | total (ms) | tok_load (ms) | forward (ms) | client round trip (ms) | outside the component (ms) | the post, Akamai (inside the app) |',
        '|---|---|---|--:|--:|--:|--:|--:|--:|',
        ...serveRows(run, (name, t, stage, host, m) => {
            const post = host === run.hosts[0] && name === 'short' ? postFigure(POST_AKAMAI[stage.slice(0, 2)] ?? '') : '';
            return `| ${name}, ${t.content_tokens} tokens, ${t.windows} window(s) | ${stage} | ${host} | ${fmt(m.total)} | ${fmt(m.tok_load)} | ` +
                   `${fmt(m.forward)} | ${fmt(m.client)} | ${fmt(t.hosts[stage][host].outside_component_ms.median)} | ${post} |`;
        }),
    ];
    if (h1) {
        lines.push('', `| Text | Stage | ${h0} ÷ ${h1}: client | total | forward | tok_load |`, '|---|---|--:|--:|--:|--:|');
        for (const [name, t] of Object.entries(run.texts)) {
            for (const stage of run.stages) {
                const r = t.hosts[stage][`${h0} / ${h1}`];
                lines.push(`| ${name} | ${stage} | ${intervalText(r.client)} | ${intervalText(r.total)} | ${intervalText(r.forward)} | ${intervalText(r.tok_load)} |`);
            }
        }
    }
    lines.push('', serveProvenance(run, 'The post\'s column quotes its figures for the whole request inside the app on Akamai Functions, other machines than this one. '));
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// `serve-steps`: a pinned run of bench/e2e/serve.mjs (schema bitexact-serve/2)
// read stage against stage: per text, the first host's Server-Timing medians for
// each stage, then each stage over the one listed before it on every host, as
// medians of per-round ratios with their intervals (serve.mjs's `steps`).
export function renderServeStepsTable(file) {
    const run = JSON.parse(readFileSync(file, 'utf8'));
    if (!Object.values(run.texts).every((t) => t.steps)) throw new Error(`${file}: no stage-to-stage ratios (steps): an older serve.mjs run`);
    const lines = [
        '| Text | Stage | host | tok_load (ms) | model_load (ms) | encode (ms) | forward (ms) | total (ms) | client round trip (ms) |',
        '|---|---|---|--:|--:|--:|--:|--:|--:|',
        ...serveRows(run, (name, t, stage, host, m) =>
            `| ${name}, ${t.content_tokens} tokens, ${t.windows} window(s) | ${stage} | ${host} | ${fmt(m.tok_load)} | ` +
            `${fmt(m.model_load)} | ${fmt(m.encode)} | ${fmt(m.forward)} | ${fmt(m.total)} | ${fmt(m.client)} |`),
        '', '| Text | Stages, host | client | total | forward | tok_load |', '|---|---|--:|--:|--:|--:|',
    ];
    for (const [name, t] of Object.entries(run.texts)) {
        for (const [pair, r] of Object.entries(t.steps)) {
            lines.push(`| ${name} | ${pair.replace(' / ', ' ÷ ')} | ${intervalText(r.client)} | ${intervalText(r.total)} | ` +
                       `${intervalText(r.forward)} | ${intervalText(r.tok_load)} |`);
        }
    }
    lines.push('', serveProvenance(run));
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// `sweep NN`: stage NN's exact variants (bench.mjs --sweep), from the pinned
// run: each build's forward time under each config the run measured, against
// the stage as built, as a ratio with its 95% bootstrap interval over the
// rounds (which interleave the builds). Older V8-only runs show plain and epoch.
// The newest run among `runs` that swept stage `prefix`: its builds (labels),
// the configs it timed, a getter, and the base every ratio divides by (the
// stage as built).
export function sweepOf(runs, prefix) {
    // sweep_of: the swept stage (older results lack it: their stage's prefix).
    const inSweep = (r) => r.sweep && (r.sweep_of ?? r.stage.slice(0, 2)) === prefix;
    const run = [...runs].reverse().find((run) => run.results.some(inSweep));
    if (!run) throw new Error(`no results run swept stage ${prefix} (make bench-sweep STAGE=${prefix})`);
    const results = run.results.filter(inSweep);
    const configs = run.runtimes
        ? [['wasmtime:epoch', 'wasmtime, epoch on'], ['v8:plain', 'V8']].filter(([k]) => results.some((r) => configOf(r) === k))
        : [['v8:plain', 'V8 plain'], ['v8:epoch', 'V8, emulated epoch']];
    const labels = [...new Set(results.map((r) => r.label))];
    const get = (label, key) => results.find((r) => r.label === label && configOf(r) === key);
    const k0 = configs[0][0];
    const base = labels.find((l) => get(l, k0)?.variant === null && get(l, k0)?.stage.startsWith(`${prefix}-`)) ?? labels[0];
    return { run, configs, labels, get, base };
}

export function renderSweepTable(runs, prefix) {
    const { run, configs, labels, get, base } = sweepOf(runs, prefix);
    const k0 = configs[0][0];
    const ok = (r) => r && r.status === 'ok' && r.forward_ms;
    const cell = (r) => (!r ? '–' : r.status === 'failed' ? `**failed** (${r.reason ?? 'check'})` : `${fmt(r.forward_ms.median)} (${fmt(r.forward_ms.min)}–${fmt(r.forward_ms.max)})`);
    const ratio = (label, key) => {
        const a = get(label, key), b = get(base, key);
        if (!ok(a) || !ok(b)) return '–';
        if (label === base) return '1';
        const iv = ratioInterval(a.round_medians_ms, b.round_medians_ms);
        return iv ? `${intervalText(iv)}${iv.lo !== null ? `, ${verdict(iv)}` : ''}` : '–';
    };
    const head = ['Build', 'Definitions'];
    for (const [, name] of configs) head.push(`Forward, ${name} (ms)`, `vs ${base} [95%]`);
    head.push(`Matmul / attention / other, ${configs[0][1]} (ms)`);
    const lines = [`| ${head.join(' | ')} |`, `|---|---|${head.slice(2).map(() => '--:').join('|')}|`];
    const phases = (r) => (ok(r) && r.profile_ms
        ? `${fmt(r.profile_ms.matmul)} / ${fmt(r.profile_ms.attention)} / ${fmt(r.profile_ms.other)}` : '–');
    for (const label of labels) {
        const any = configs.map(([k]) => get(label, k)).find(Boolean);
        const defs = any.variant !== null ? `\`${any.defs}\``
            : any.stage.startsWith(`${prefix}-`) ? '(the stage as built)' : '(the previous stage, as built)';
        const row = [label === base ? `**${label}**` : label, defs];
        for (const [k] of configs) row.push(cell(get(label, k)), ratio(label, k));
        row.push(phases(get(label, k0)));
        lines.push(`| ${row.join(' | ')} |`);
    }
    lines.push('');
    const fastest = (key) => labels.filter((l) => ok(get(l, key)))
        .sort((a, b) => get(a, key).forward_ms.median - get(b, key).forward_ms.median)[0] ?? '–';
    lines.push(`Fastest median: ${configs.map(([k, name]) => `${fastest(k)} (${name})`).join(', ')}. Each build passed the check on ` +
               `${run.settings.corpus} before it was timed; rounds interleave the builds. vs ${base}: the median of the per-round ratios ` +
               'with its 95% bootstrap interval over the rounds; an interval that contains 1 is within noise.');
    lines.push(provenanceLine(run));
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// `step NN`: one stage's step, from the newest run that timed stage 00, the
// stage before NN and NN side by side (make bench-all), plain build: the
// forward pass's wall and CPU time and each phase, before -> after with the
// ratio, and the forward pass's cumulative ratio to stage 00.
export function renderStepTable(runs, prefix) {
    const find = (run, p) => run.results.find((r) => !r.sweep && r.mode === 'plain' && r.stage.startsWith(`${p}-`) && r.status === 'ok' && r.forward_ms);
    const previousPrefix = (run) => {
        const stages = [...new Set(run.results.filter((r) => !r.sweep).map((r) => r.stage))].sort();
        const at = stages.findIndex((st) => st.startsWith(`${prefix}-`));
        return at > 0 ? stages[at - 1].slice(0, 2) : null;
    };
    const run = [...runs].reverse().find((r) => find(r, prefix) && find(r, '00') && previousPrefix(r) && find(r, previousPrefix(r)));
    if (!run) throw new Error(`no results run has stage 00, stage ${prefix} and the stage before it, plain (make bench-all)`);
    const after = find(run, prefix), before = find(run, previousPrefix(run)), naive = find(run, '00');
    const rows = [
        ['forward, wall', (r) => r.forward_ms.median],
        ['forward, CPU', (r) => r.forward_cpu_ms?.median],
        ['matmul phase', (r) => r.profile_ms.matmul],
        ['attention phase', (r) => r.profile_ms.attention],
        ['other phase', (r) => r.profile_ms.other],
        ['tok_load', (r) => r.tok_load_ms.median],
    ];
    const lines = [`| Median (ms) | ${before.stage} | ${after.stage} | ${after.stage.slice(0, 2)} ÷ ${before.stage.slice(0, 2)} |`, '|---|--:|--:|--:|'];
    for (const [name, get] of rows) {
        const a = get(before), b = get(after);
        lines.push(`| ${name} | ${fmt(a)} | ${fmt(b)} | ${a && b ? `${fmt(b / a, 3)}×` : '–'} |`);
    }
    lines.push('');
    const cumulative = (get) => `${fmt(get(naive) / get(after), 2)}×`;
    lines.push(`Since stage 00 (${fmt(naive.forward_ms.median)} ms wall, ${fmt(naive.forward_cpu_ms?.median)} ms CPU in the same run): ` +
               `the forward pass is ${cumulative((r) => r.forward_ms.median)} as fast by wall time and ` +
               `${cumulative((r) => r.forward_cpu_ms?.median)} by CPU time. Phases are wall time, summed per forward pass; ` +
               'all from the plain build, one window per run.');
    lines.push(provenanceLine(run));
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// `peer`: the newest bench/results/*-peer-*.json (bench/peer/peer.mjs): our
// stage beside ONNX Runtime on the same windows, rounds interleaved.
export function renderPeerTable(files) {
    const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8'))).filter((r) => r.schema === 'bitexact-peer/1')
        .sort((a, b) => a.date.localeCompare(b.date));
    const run = runs[runs.length - 1];
    if (!run) throw new Error('no peer results (make bench-peer)');
    const web = run.results.find((r) => r.kind === 'web' && r.status === 'ok');
    const onWasmtime = (r) => r.runtime === 'wasmtime:epoch';
    const what = (r) => ({
        stage: onWasmtime(r) ? 'our C++ in wasm (wasmtime, epoch on), bit-exact with stage 00' : 'our C++ in wasm (Node/V8), bit-exact with stage 00',
        web: 'wasm SIMD128, one thread (what transformers.js runs)', node: 'native x86-64, one thread',
        bound: `the bound${onWasmtime(r) ? ' under wasmtime, epoch on' : ''}: a stage's products${r.exps_ms ? ' and exponentials' : ''} alone`,
    })[r.kind];
    // Wall time against wall time, round by round (every row runs once per round,
    // in a fresh process), with a 95% bootstrap interval over the rounds.
    const withBound = run.results.some((r) => r.kind === 'bound' && onWasmtime(r));
    const boundOf = (r) => run.results.find((b) => b.kind === 'bound' && b.status === 'ok' && onWasmtime(b) === onWasmtime(r));
    const judge = (iv) => `${intervalText(iv)}, ${verdict(iv) === 'faster' ? 'faster' : verdict(iv) === 'slower' ? 'slower' : 'within noise'}`;
    const lines = [
        `| Runtime | What runs | Forward, wall (ms) | Forward, CPU (ms) | ÷ onnxruntime-web, wall [95%] |${withBound ? ' ÷ its bound, same runtime [95%] |' : ''} Labels as stage 00 | Max \\|Δlogit\\| vs stage 00 |`,
        `|---|---|--:|--:|--:|${withBound ? '--:|' : ''}--:|--:|`,
    ];
    for (const r of run.results) {
        if (r.status !== 'ok') { lines.push(`| ${r.name} | ${what(r)} | **failed** (${r.reason ?? 'check'}) | |${withBound ? ' |' : ''} | | |`); continue; }
        const f = r.forward_ms;
        const iv = web && r !== web && r.round_medians_ms && web.round_medians_ms ? ratioInterval(r.round_medians_ms, web.round_medians_ms) : null;
        const ratio = iv ? judge(iv) : r === web ? '1' : '–';
        const bound = r.kind === 'stage' ? boundOf(r) : null;
        const toBound = bound?.round_medians_ms && r.round_medians_ms ? intervalText(ratioInterval(r.round_medians_ms, bound.round_medians_ms)) : '–';
        const labels = r.kind === 'stage' ? 'all (bit-exact)' : r.kind === 'bound' ? '–' : `${r.label_agree} of ${r.rows}`;
        const dlogit = r.kind === 'stage' ? '0' : r.kind === 'bound' ? '–' : r.max_abs_dlogit.toPrecision(3);
        lines.push(`| ${r.name}${r.version ? ` ${r.version}` : ''} | ${what(r)} | ${fmt(f.median)} (${fmt(f.min)}–${fmt(f.max)}) | ` +
                   `${r.forward_cpu_ms?.median ? fmt(r.forward_cpu_ms.median) : '–'} | ${ratio} |${withBound ? ` ${toBound} |` : ''} ${labels} | ${dlogit} |`);
    }
    lines.push('');
    lines.push(`One window of 256 positions through the encoder, medians of ${run.settings.runs} runs × ${run.settings.rounds} rounds ` +
               `(every row interleaved, each in a fresh ${withBound ? '' : 'Node '}process) on the windows of ${run.settings.corpus}; ` +
               (withBound ? 'wasmtime\'s rows give no CPU time; ' : '') +
               'ONNX Runtime runs our model exported to ONNX (bench/peer/export_onnx.py: the same int8 weights and scales, its own ' +
               'dynamic activation quantisation, float elsewhere). ÷ onnxruntime-web: the median of the per-round ratios of wall times, ' +
               'with its 95% bootstrap interval; below 1 is faster, an interval that contains 1 is within noise.');
    const bound = run.results.find((r) => r.kind === 'bound' && r.status === 'ok' && !onWasmtime(r));
    const twin = run.results.find((r) => r.kind === 'bound' && r.status === 'ok' && onWasmtime(r));
    if (bound && bound.exps_ms) {
        const medians = (b) => `${fmt(b.dots_ms.median)}, ${fmt(b.floats_ms.median)} and ${fmt(b.exps_ms.median)} ms`;
        lines.push(`The bound runs, for each window, what a stage's pass computes for it (from stage 01 on: the last layer on the live ` +
               `rows only), each part in a kernel that does nothing else: ${Math.round(bound.dots_per_run).toLocaleString('en-US')} ` +
               `\`i32x4.dot_i16x8_s\` and ${Math.round(bound.float_pairs_per_run).toLocaleString('en-US')} \`f32x4.mul\`, each with the add ` +
               `that keeps its sum, and ${Math.round(bound.exps_per_run).toLocaleString('en-US')} exponentials by bx_expf's main path, per window ` +
               `on average (bench/floor/bound.mjs; medians under V8 ${medians(bound)}` + (twin ? `, under wasmtime with epoch ${medians(twin)}` : '') +
               '). Every stage computes at least these, and its loads, quantisation, softmax sums, LayerNorms and GELU besides, ' +
               'so a stage could beat the bound of its runtime only by issuing them faster than these kernels do. ÷ its bound: ' +
               'the median of the per-round ratios of the stage\'s wall time to the bound\'s on the same runtime.');
    } else if (bound) lines.push(`The bound runs, for each window, the products a stage's pass computes for it (from stage 01 on: ` +
               `the last layer on the live rows only), ${Math.round(bound.dots_per_run).toLocaleString('en-US')} \`i32x4.dot_i16x8_s\` ` +
               `(median ${fmt(bound.dots_ms.median)} ms) and ${Math.round(bound.float_pairs_per_run).toLocaleString('en-US')} \`f32x4.mul\` ` +
               `(median ${fmt(bound.floats_ms.median)} ms) per window on average, each with the add that keeps its sum, and nothing else ` +
               '(bench/floor/bound.mjs). Every stage issues at least these, and its loads, quantisation, softmax and LayerNorms besides, ' +
               'so a stage could beat the bound only by issuing its products faster than these kernels, which do nothing else.');
    lines.push(provenanceLine(run));
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// `limits`: the newest bench/results/*-limits.json (bench/limits.mjs): every
// stage's component against Akamai Functions' limits.
export function renderLimitsTable(files) {
    const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8'))).filter((r) => r.schema === 'bitexact-limits/1')
        .sort((a, b) => a.date.localeCompare(b.date));
    const run = runs[runs.length - 1];
    if (!run) throw new Error('no limits results (make limits)');
    const mib = (b) => fmt(b / 1048576, 1);
    const p = run.platform;
    const lines = [
        `| Stage | component (MiB; limit ${mib(p.app_bytes)}) | largest request: slowest of ${run.repeats} (ms; limit ${p.request_ms.toLocaleString('en-US')}) | ` +
        `its linear memory (MiB; limit ${mib(p.memory_bytes)}) | 8 MiB body: memory (MiB) | worst JSON shape at 8 MiB: memory (MiB) | one window more |`,
        '|---|--:|--:|--:|--:|--:|---|',
    ];
    for (const [stage, m] of Object.entries(run.stages)) {
        const over = m.over.status === 413 ? '413' : `**${m.over.status}**`;
        // Files from before the shapes were measured have none: a dash, not a zero.
        const shapes = Object.values(m.shapes ?? {});
        const worst = shapes.length ? mib(Math.max(...shapes.map((s) => s.memory_bytes))) : '–';
        lines.push(`| ${stage}${m.problems.length ? ' (**breaks a limit**)' : ''} | ${mib(m.component_bytes)} | ${fmt(m.largest.slowest_client_ms, 0)} | ` +
                   `${mib(m.largest.memory_bytes)} | ${mib(m.body.memory_bytes)} | ${worst} | ${over} |`);
    }
    lines.push('');
    const m = run.machine;
    lines.push(`The largest request is ${run.largest_text.tokens.toLocaleString('en-US')} tokens of the eval corpus's prose ` +
               `(${run.largest_text.chars.toLocaleString('en-US')} characters, ${Math.max(...Object.values(run.stages).map((x) => x.largest.windows ?? 0))} windows), each request to a fresh instance; ` +
               `memory is the instance's linear memory after the request (x-bx-linear-memory-bytes). ${run.runtime}. ` +
               `Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC at ${run.commit?.slice(0, 10) ?? '?'}: ${m.cpu}, ${m.cores} cores, ` +
               `load ${m.loadavg_1m.before} → ${m.loadavg_1m.after}.`);
    return `${trustWarning([run], currentModel())}${lines.join('\n')}\n`;
}

// The instruction counts beside the pinned timing run: the pinned one, else the newest.
function instructionsRun() {
    const file = pinnedFile('instructions')
        ?? resultFiles(join(here, 'results')).filter((f) => /-instructions\.json$/.test(f)).pop();
    if (!file) return null;
    const run = JSON.parse(readFileSync(file, 'utf8'));
    run.file = file;
    return run;
}

// The post's own figure for a key of book/data/post-figures.tsv (quoted, attributed in the caption).
let postFigures = null;  // key -> value, read once
function postFigure(key) {
    postFigures ??= new Map(readFileSync(join(here, '..', 'book', 'data', 'post-figures.tsv'), 'utf8').split('\n')
        .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t').slice(0, 2)));
    return postFigures.get(key) ?? '';
}

// The pinned floor run (make bench-floor), with its bounds per runtime, or null.
function pinnedFloor(forwardRun) {
    const file = pinnedFile('floor');
    if (!file || !existsSync(file)) return null;
    const run = { ...JSON.parse(readFileSync(file, 'utf8')), file };
    return { run, bounds: phaseBounds(run), sameCpu: sameCpu(run, forwardRun) };
}

function renderRuntimeTable(kind, run, prefix, instrRun) {
    const body = kind === 'epoch' ? renderRuntimeEpoch(run)
        : kind === 'step' ? renderRuntimeStep(run, instrRun, prefix)
        : kind === 'verdict' ? renderVerdict(run, instrRun, prefix)
        : kind === 'picture' ? renderPicture(run, instrRun, join(here, '..'), postFigure, pinnedFloor(run))
        : renderRuntimeForward(run, instrRun);
    if (kind === 'verdict') return `${trustWarning([run], currentModel())}${body}\n`;
    const used = [run, ...(instrRun && kind !== 'epoch' ? [instrRun] : [])];
    return `${trustWarning(used, currentModel())}${body}\n${used.map(provenanceLine).join('\n')}\n`;
}

function main(argv) {
    let out = null;
    const files = [];
    let kind = 'forward';
    let part = 'all';  // floor: 'floors' (the kernels' floors) or 'stages' (each stage against them)
    const stagesArg = [];
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '-o') out = argv[++i];
        else if (['forward', 'epoch', 'tokenizer', 'serve', 'serve-hosts', 'serve-steps', 'sweep', 'peer', 'step', 'limits', 'verdict', 'picture', 'map', 'floor'].includes(argv[i])) kind = argv[i];
        else if (['floor-floors', 'floor-stages'].includes(argv[i])) { kind = 'floor'; part = argv[i].slice(6); }
        else if (/^\d\d$/.test(argv[i])) stagesArg.push(argv[i]);
        else files.push(argv[i]);
    }
    if (kind === 'map') {  // the book's map of the stages beyond the post (book/tools/stages-index.mjs)
        const r = spawnSync(process.execPath, [join(here, '..', 'book', 'tools', 'stages-index.mjs'), '--map'], { encoding: 'utf8' });
        if (r.status !== 0) { console.error(r.stderr); return 1; }
        if (out) writeFileSync(out, r.stdout); else process.stdout.write(r.stdout);
        return 0;
    }
    if (kind === 'floor') {
        const file = files[0] ?? pinnedFile('floor');
        if (!file) { console.error('table: no floor run (make bench-floor)'); return 1; }
        const floorRun = { ...JSON.parse(readFileSync(file, 'utf8')), file };
        const fwd = pinnedFile('forward');
        const md = renderFloorTable(floorRun, fwd ? loadRuns([fwd])[0] : null, part);
        if (out) writeFileSync(out, md); else process.stdout.write(md);
        return 0;
    }
    if (kind === 'serve-hosts') {
        const file = files[0] ?? pinnedFile('serve-hosts')
            ?? resultFiles(join(here, 'results')).filter((f) => /-serve-[\d-]+\.json$/.test(f)).pop();
        if (!file) { console.error('table: no two-host serve run (make bench-serve STAGES=00,04,09,30)'); return 1; }
        const md = renderServeHostsTable(file);
        if (out) writeFileSync(out, md); else process.stdout.write(md);
        return 0;
    }
    if (kind === 'serve-steps') {
        const file = files[0] ?? pinnedFile('serve-steps');
        if (!file) { console.error('table: no serve run pinned as serve-steps (make bench-serve STAGES=29,30 SERVE_HOSTS_BENCH=wasmtime; node bench/pin.mjs serve-steps FILE)'); return 1; }
        const md = renderServeStepsTable(file);
        if (out) writeFileSync(out, md); else process.stdout.write(md);
        return 0;
    }
    if (kind === 'serve') {
        const md = renderServeTable(stagesArg);
        if (out) writeFileSync(out, md); else process.stdout.write(md);
        return 0;
    }
    // The pinned file for this table, when no files are given.
    const pin = (table) => (files.length ? null : pinnedFile(table));
    const pinned = (table, fallback) => (files.length ? files : pin(table) ? [pin(table)] : fallback());
    if (kind === 'limits') {
        const md = renderLimitsTable(pinned('limits', () => resultFiles(join(here, 'results')).filter((f) => /-limits\.json$/.test(f))));
        if (out) writeFileSync(out, md); else process.stdout.write(md);
        return 0;
    }
    if (kind === 'peer') {
        const md = renderPeerTable(pinned('peer', () => resultFiles(join(here, 'results')).filter((f) => /-peer-/.test(f))));
        if (out) writeFileSync(out, md); else process.stdout.write(md);
        return 0;
    }
    const all = () => resultFiles(join(here, 'results')).filter((f) => !/-(limits|peer-[^/]*|instructions[^/]*)\.json$/.test(f));
    const table = kind === 'sweep' ? `sweep ${stagesArg[0]}` : kind === 'tokenizer' ? `tokenizer ${stagesArg.join(' ')}` : 'forward';
    const runs = loadRuns(pinned(table, all));
    if (runs.length === 0) { console.error('table: no results files'); return 1; }
    const newest = runs[runs.length - 1];
    let md;
    if (['forward', 'epoch', 'step', 'verdict', 'picture'].includes(kind) && isRuntimeRun(newest)) {
        md = renderRuntimeTable(kind, newest, stagesArg[0], files.length ? null : instructionsRun());
    } else if (kind === 'verdict' || kind === 'picture') {
        throw new Error(`${kind}: the run has no runtimes (make bench-all)`);
    } else {
        md = kind === 'tokenizer' ? renderTokenizerTable(runs, stagesArg)
            : kind === 'sweep' ? renderSweepTable(runs, stagesArg[0])
            : kind === 'step' ? renderStepTable(runs, stagesArg[0]) : renderTable(runs);
    }
    if (out) writeFileSync(out, md); else process.stdout.write(md);
    return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
