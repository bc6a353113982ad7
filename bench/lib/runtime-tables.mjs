// The book's timing tables from a run that measured several runtimes
// (bench/e2e/bench.mjs --configs) and, beside it, a run of instruction counts
// (bench/instructions.mjs). Every ratio is paired round by round and carries
// its 95% bootstrap interval (bench/lib/stats.mjs); a step whose interval
// contains 1 is "within noise", never a gain or a loss.
//
// The configs, in the order the tables show them: wasmtime with epoch
// interruption first (what Spin and Akamai Functions run), wasmtime without
// it (what the checks cost), V8 (what a browser runs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ratioInterval, verdict } from './stats.mjs';
import { fmt } from './results.mjs';
import { configName } from './guest.mjs';

export const CONFIGS = [
    { key: 'wasmtime:epoch', label: 'wasmtime, epoch on', short: 'wasmtime' },
    { key: 'wasmtime:plain', label: 'wasmtime, epoch off', short: 'wasmtime, no epoch' },
    { key: 'v8:plain', label: 'V8', short: 'V8' },
];
const INSTRUCTION_RUNTIMES = [['wasmtime', 'wasmtime'], ['v8', 'V8']];

export const isRuntimeRun = (run) => Boolean(run?.runtimes);
// A result's config, "runtime:mode" (runs from before wasmtime were all V8's).
export const configOf = (r) => configName({ runtime: r.runtime ?? 'v8', mode: r.mode });

// The run's result for a stage prefix ("09") and config key, when it passed.
export function resultOf(run, prefix, key) {
    return run.results.find((r) => !r.sweep && r.stage.startsWith(`${prefix}-`) && configOf(r) === key) ?? null;
}
const ok = (r) => r && r.status === 'ok' && r.forward_ms;

export function stagesIn(run) {
    return [...new Set(run.results.filter((r) => !r.sweep).map((r) => r.stage))].sort();
}
const previousOf = (run, stage) => {
    const stages = stagesIn(run);
    const at = stages.indexOf(stage);
    return at > 0 ? stages[at - 1] : null;
};

// newer / older, paired by round, with its interval.
export function stepInterval(run, newer, older, key) {
    const a = resultOf(run, newer.slice(0, 2), key), b = resultOf(run, older.slice(0, 2), key);
    if (!ok(a) || !ok(b)) return null;
    return ratioInterval(a.round_medians_ms, b.round_medians_ms);
}

// No ratio (null: the times were 0 ÷ 0, as tok_load between two pre-initialised components) prints as '–'.
export const intervalText = (iv, digits = 3) => (!iv || iv.ratio === null ? '–'
    : iv.lo === null ? `${fmt(iv.ratio, digits)}×` : `${fmt(iv.ratio, digits)}× [${fmt(iv.lo, digits)}, ${fmt(iv.hi, digits)}]`);

// Instructions per full window for a stage and runtime, or null.
export function instructionsOf(instrRun, stage, runtime) {
    const r = instrRun?.results.find((x) => x.stage === stage && x.runtime === runtime && !x.error);
    return r ? r.per_window : null;
}
// Two counts of the same build differ by a few tenths of a per cent at most
// (V8's and wasmtime's own threads and timers; the --repeat runs and two full
// runs on two hosts show it), so a step whose count moves less than
// COUNT_SPREAD is "the same", neither fewer nor more.
const COUNT_SPREAD = 0.005;
const countVerdict = (ratio) => (Math.abs(ratio - 1) < COUNT_SPREAD ? 'the same' : ratio < 1 ? 'fewer' : 'more');
const perWindow = (n) => (n === null ? '–' : `${fmt(n / 1e9, 3)}e9`);
const instrRatio = (instrRun, newer, older, runtime) => {
    const a = instructionsOf(instrRun, newer, runtime), b = instructionsOf(instrRun, older, runtime);
    return a !== null && b !== null ? a / b : null;
};

const cell = (r) => (!r ? '–' : r.status === 'failed' ? `**failed** (${r.reason ?? 'check'})` : fmt(r.forward_ms.median));

// `forward`: every stage, each config's median and its step from the stage
// before (interval), instructions per window, the phase split under wasmtime.
export function renderRuntimeForward(run, instrRun) {
    const configs = CONFIGS.filter((c) => run.results.some((r) => configOf(r) === c.key));
    const head = ['Stage'];
    for (const c of configs) head.push(`${c.label} (ms)`, `÷ previous, ${c.short} [95%]`);
    if (instrRun) for (const [, name] of INSTRUCTION_RUNTIMES) head.push(`Instructions per window, ${name}`);
    head.push('Matmul / attention / other, wasmtime (ms)');
    const lines = [`| ${head.join(' | ')} |`, `|---|${head.slice(1).map(() => '--:').join('|')}|`];
    for (const stage of stagesIn(run)) {
        const prev = previousOf(run, stage);
        const row = [stage];
        for (const c of configs) {
            row.push(cell(resultOf(run, stage.slice(0, 2), c.key)));
            row.push(prev ? intervalText(stepInterval(run, stage, prev, c.key)) : '');
        }
        if (instrRun) for (const [rt] of INSTRUCTION_RUNTIMES) row.push(perWindow(instructionsOf(instrRun, stage, rt)));
        const w = resultOf(run, stage.slice(0, 2), 'wasmtime:epoch');
        row.push(ok(w) ? `${fmt(w.profile_ms.matmul)} / ${fmt(w.profile_ms.attention)} / ${fmt(w.profile_ms.other)}` : '–');
        lines.push(`| ${row.join(' | ')} |`);
    }
    lines.push('');
    lines.push(`Forward: one window of 256 positions through the encoder, median over ${run.settings.rounds} rounds × ${run.settings.runs} runs ` +
               'in ms; every round runs every stage and runtime once, in a fresh process. ÷ previous: the stage\'s time over the stage ' +
               'before\'s, the median of the per-round ratios, with its 95% bootstrap interval over rounds; an interval that contains 1 ' +
               'is within noise. Instructions: x86 instructions one full window executes (valgrind; the difference of two counts, so ' +
               'start-up and compilation cancel).');
    return lines.join('\n');
}

// The sentence for one ratio: "0.912× [0.90, 0.93], faster".
const judged = (iv) => (iv ? `${intervalText(iv)}, ${verdict(iv)}` : 'not measured');

// `step NN`: the stage against the one before it and against stage 00, under
// every config, with intervals; instructions under both runtimes.
export function renderRuntimeStep(run, instrRun, prefix) {
    const stage = stagesIn(run).find((s) => s.startsWith(`${prefix}-`));
    if (!stage) throw new Error(`the pinned run has no stage ${prefix}`);
    const prev = previousOf(run, stage);
    const first = stagesIn(run)[0];
    const configs = CONFIGS.filter((c) => resultOf(run, prefix, c.key));
    if (!prev) return renderFirstStage(run, instrRun, stage, configs);
    const lines = [`| Runtime | ${prev ?? '–'} (ms) | ${stage} (ms) | ${prefix} ÷ ${prev?.slice(0, 2) ?? '–'} [95%] | verdict | ${prefix} ÷ ${first.slice(0, 2)} [95%] |`,
                   '|---|--:|--:|--:|---|--:|'];
    for (const c of configs) {
        const before = prev ? resultOf(run, prev.slice(0, 2), c.key) : null;
        const after = resultOf(run, prefix, c.key);
        const step = prev ? stepInterval(run, stage, prev, c.key) : null;
        const total = stage !== first ? stepInterval(run, stage, first, c.key) : null;
        lines.push(`| ${c.label} | ${cell(before)} | ${cell(after)} | ${intervalText(step)} | ${step ? verdict(step) : '–'} | ${intervalText(total, 2)} |`);
    }
    if (instrRun && prev) {
        for (const [rt, name] of INSTRUCTION_RUNTIMES) {
            const a = instructionsOf(instrRun, prev, rt), b = instructionsOf(instrRun, stage, rt);
            const r0 = instrRatio(instrRun, stage, first, rt);
            lines.push(`| instructions per window, ${name} | ${perWindow(a)} | ${perWindow(b)} | ${a && b ? `${fmt(b / a, 3)}×` : '–'} | ` +
                       `${a && b ? countVerdict(b / a) : '–'} | ${r0 ? `${fmt(r0, 2)}×` : '–'} |`);
        }
    }
    const w = resultOf(run, prefix, 'wasmtime:epoch'), wb = prev ? resultOf(run, prev.slice(0, 2), 'wasmtime:epoch') : null;
    lines.push('');
    if (ok(w) && ok(wb)) {
        lines.push(`Phases under wasmtime with epoch on, ${prev} → ${stage} (ms per forward, means): matmul ${fmt(wb.profile_ms.matmul)} → ${fmt(w.profile_ms.matmul)}, ` +
                   `attention ${fmt(wb.profile_ms.attention)} → ${fmt(w.profile_ms.attention)}, other ${fmt(wb.profile_ms.other)} → ${fmt(w.profile_ms.other)}.`);
    }
    lines.push(`Medians of ${run.settings.rounds} interleaved rounds × ${run.settings.runs} runs; ratios are medians of per-round ratios with 95% bootstrap intervals.` +
               (instrRun && prev ? ` Instruction counts less than ${fmt(COUNT_SPREAD * 100, 1)}% apart are called the same: two counts of one build differ by a few tenths of a per cent.` : ''));
    return lines.join('\n');
}

// The first stage has no step: its own row under each runtime, the phases
// of its forward pass and its instructions, which every later ratio divides by.
function renderFirstStage(run, instrRun, stage, configs) {
    const lines = ['| Runtime | forward pass (ms) | matmul (ms) | attention (ms) | other (ms) |', '|---|--:|--:|--:|--:|'];
    for (const c of configs) {
        const r = resultOf(run, stage.slice(0, 2), c.key);
        const p = ok(r) ? r.profile_ms : null;
        lines.push(`| ${c.label} | ${cell(r)} | ${fmt(p?.matmul)} | ${fmt(p?.attention)} | ${fmt(p?.other)} |`);
    }
    if (instrRun) {
        for (const [rt, name] of INSTRUCTION_RUNTIMES) lines.push(`| instructions per window, ${name} | ${perWindow(instructionsOf(instrRun, stage, rt))} | | | |`);
    }
    lines.push('', `Medians of ${run.settings.rounds} interleaved rounds × ${run.settings.runs} runs (phases: means per forward).`);
    return lines.join('\n');
}

// `verdict NN`: the chapter's closing line, generated: the step under each
// runtime, and what the instruction counts say. A step that is within noise
// under wasmtime and does not lower its instructions is said to gain nothing
// there, in those words.
export function renderVerdict(run, instrRun, prefix) {
    const stage = stagesIn(run).find((s) => s.startsWith(`${prefix}-`));
    if (!stage) throw new Error(`the pinned run has no stage ${prefix}`);
    const prev = previousOf(run, stage);
    if (!prev) return `**Verdict, stage ${prefix}:** the first stage; every ratio in the book is taken against it.`;
    const wt = stepInterval(run, stage, prev, 'wasmtime:epoch');
    const v8 = stepInterval(run, stage, prev, 'v8:plain');
    const iw = instrRatio(instrRun, stage, prev, 'wasmtime'), iv = instrRatio(instrRun, stage, prev, 'v8');
    const parts = [`under wasmtime with epoch interruption (what Spin runs) ${judged(wt)}`, `under V8 ${judged(v8)}`];
    if (iw !== null || iv !== null) parts.push(`instructions per window ${iw !== null ? `${fmt(iw, 3)}× under wasmtime` : ''}${iw !== null && iv !== null ? ', ' : ''}${iv !== null ? `${fmt(iv, 3)}× under V8` : ''}`);
    let line = `**Verdict, stage ${prefix} against ${prev.slice(0, 2)}:** ${parts.join('; ')}.`;
    if (wt && verdict(wt) !== 'faster' && (iw === null || iw > 1 - COUNT_SPREAD)) {
        line += ` Under wasmtime this step gains nothing: its interval ${verdict(wt) === 'slower' ? 'lies above 1' : 'contains 1'}` +
                `${iw !== null ? ' and it does not lower the instructions' : ''}.`;
    }
    return line;
}

// `epoch`: what wasmtime's epoch checks cost each stage (epoch on ÷ off, both
// wasmtime, paired by round), and V8 beside wasmtime.
export function renderRuntimeEpoch(run) {
    const lines = ['| Stage | wasmtime, epoch on (ms) | wasmtime, epoch off (ms) | on ÷ off [95%] | V8 (ms) | wasmtime epoch on ÷ V8 [95%] |',
                   '|---|--:|--:|--:|--:|--:|'];
    for (const stage of stagesIn(run)) {
        const p = stage.slice(0, 2);
        const on = resultOf(run, p, 'wasmtime:epoch'), off = resultOf(run, p, 'wasmtime:plain'), v8 = resultOf(run, p, 'v8:plain');
        const pair = (a, b) => (ok(a) && ok(b) ? intervalText(ratioInterval(a.round_medians_ms, b.round_medians_ms)) : '–');
        lines.push(`| ${stage} | ${cell(on)} | ${cell(off)} | ${pair(on, off)} | ${cell(v8)} | ${pair(on, v8)} |`);
    }
    lines.push('');
    lines.push('Both wasmtime columns run the same module; "epoch on" compiles a check of the epoch counter into every function ' +
               'entry and loop back-edge, as Spin configures wasmtime. Ratios: medians of per-round ratios, 95% bootstrap intervals.');
    return lines.join('\n');
}

// Which proofs a stage adds: the harness commands its bx_stage() lists that the
// stage before did not, its kept mistakes (VARIANTS and TRAPS) that are new,
// and check-tok when its tokenizer files are not the stage before's.
const PROOF_WORDS = {
    'check-gelu': 'GELU on all 2^32 inputs',
    'check-quant': 'quantiser on all 2^32 inputs',
    'check-exp': 'exp on all 2^32 inputs',
};
const KEYWORDS = new Set(['VARIANTS', 'TRAPS', 'HARNESS_COMMANDS', 'SWEEP_BASE', 'SWEEP']);
function stageDeclaration(root, stage) {
    const f = join(root, 'stages', stage, 'CMakeLists.txt');
    const text = existsSync(f) ? readFileSync(f, 'utf8') : '';
    const call = text.match(/bx_stage\(([^)]*)\)/)?.[1] ?? '';
    const lists = {};
    let key = null;
    for (const word of call.replace(/#[^\n]*/g, '').split(/\s+/).filter(Boolean)) {
        if (KEYWORDS.has(word)) { key = word; lists[key] = []; } else if (key) lists[key].push(word);
    }
    return lists;
}
// The code of a stage's files whose names match `re`, snippet markers left out
// (a later stage may carry a file over with other markers; the proof carries too).
function codeOf(root, stage, re) {
    const dir = join(root, 'stages', stage);
    if (!existsSync(dir)) return '';
    return readdirSync(dir).filter((f) => re.test(f)).sort()
        .map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => !/^\s*(\/\/|#)\s*(end-)?snippet\b/.test(l)).join('\n')}`)
        .join('\n');
}
// The files each exhaustive check proves (a stage whose files are the stage
// before's carries the proof over, as CTest does).
const PROOF_FILES = { 'check-tok': /^(unigram|tokenizer_|vocab_blob)/, 'check-gelu': /^gelu/, 'check-quant': /^quantize/, 'check-exp': /^softmax/ };
const changed = (root, stage, prev, command) => !prev || codeOf(root, stage, PROOF_FILES[command]) !== codeOf(root, prev, PROOF_FILES[command]);
function proofsOf(root, stage, prev) {
    const now = stageDeclaration(root, stage), before = prev ? stageDeclaration(root, prev) : {};
    const list = (d, k) => d[k] ?? [];
    const words = ['every logit bit'];
    if (prev && changed(root, stage, prev, 'check-tok')) words.push('tokenizer');
    for (const c of list(now, 'HARNESS_COMMANDS')) {
        if (PROOF_WORDS[c] && (!list(before, 'HARNESS_COMMANDS').includes(c) || changed(root, stage, prev, c))) words.push(PROOF_WORDS[c]);
    }
    const kept = [...list(now, 'VARIANTS'), ...list(now, 'TRAPS')]
        .filter((v) => ![...list(before, 'VARIANTS'), ...list(before, 'TRAPS')].includes(v) && !/mutant/.test(v));
    if (kept.length) words.push(`${kept.map((v) => `\`${v}\``).join(', ')} caught`);
    return words.join('; ');
}

// `picture`: per step, the post's figure, ours under both runtimes, and how
// the step is proven exact.
export function renderPicture(run, instrRun, root, postFigure, floor = null) {
    const POST = { '00': 'fwd-first', '01': 'step1', '02': 'step2', '03': 'step3', '04': 'tok-load-local', '06': 'akamai-step6',
                   '07': 'akamai-step7', '08': 'akamai-step8', '09': 'akamai-step9' };
    // Each phase ÷ its bound (the pinned floor run), wasmtime with epoch / V8.
    const boundCell = (stage) => {
        if (!floor || !floor.sameCpu) return '–';
        const p = stage.slice(0, 2);
        const per = ['wasmtime:epoch', 'v8:plain'].map((key) => {
            const r = resultOf(run, p, key), bound = floor.bounds[key];
            if (!r?.profile_ms || !bound) return null;
            return ['matmul', 'attention'].map((phase) => {
                const b = bound(phase, stage, r);
                return b && r.profile_ms[phase] ? `${fmt(r.profile_ms[phase] / b, 2)}` : '–';
            }).join('·');
        });
        return per.map((x) => x ?? '–').join(' / ');
    };
    const lines = ['| Stage | The post | wasmtime, epoch on: ms, ÷ previous [95%] | V8: ms, ÷ previous [95%] | Instructions ÷ previous, wasmtime / V8 | ' +
                   'Matmul · attention ÷ bound, wasmtime / V8 | Proven exact by |',
                   '|---|---|--:|--:|--:|--:|---|'];
    for (const stage of stagesIn(run)) {
        const p = stage.slice(0, 2), prev = previousOf(run, stage);
        const both = (key) => {
            const r = resultOf(run, p, key);
            return `${cell(r)}${prev ? `, ${intervalText(stepInterval(run, stage, prev, key))}` : ''}`;
        };
        const ir = prev ? ['wasmtime', 'v8'].map((rt) => instrRatio(instrRun, stage, prev, rt)) : [null, null];
        const post = POST[p] ? postFigure(POST[p]) : '';
        lines.push(`| ${stage} | ${post} | ${both('wasmtime:epoch')} | ${both('v8:plain')} | ` +
                   `${ir.every((x) => x === null) ? '–' : ir.map((x) => (x === null ? '–' : `${fmt(x, 3)}×`)).join(' / ')} | ${boundCell(stage)} | ${proofsOf(root, stage, prev)} |`);
    }
    lines.push('');
    // The last stage against where the post ends, and against the last stage
    // chosen by its V8 time alone (from 26 on, stages were judged under
    // wasmtime first), under every config the run measured.
    const stages = stagesIn(run), last = stages[stages.length - 1];
    for (const [prefix, what] of [['09', 'where the post ends'], ['25', 'the last stage chosen by its time under V8 alone']]) {
        const other = stages.find((s) => s.startsWith(`${prefix}-`));
        if (!other || other === last) continue;
        const parts = CONFIGS.filter((c) => resultOf(run, prefix, c.key))
            .map((c) => `${c.label} ${judged(stepInterval(run, last, other, c.key))}`);
        lines.push(`**${last} against ${other}**, ${what}: ${parts.join('; ')}.`);
        lines.push('');
    }
    lines.push('The post\'s column quotes its own figures (local forward pass for steps 1-3, tok_load for step 4, the whole request on ' +
               'Akamai Functions for steps 6-9); ours are one window\'s forward pass in one run. Compare ratios, not milliseconds. ' +
               'Proven exact by: every logit bit of the equivalence corpus against stage 00 (`make check`), for every stage; ' +
               'then what the stage adds: the tokenizer against the reference (`make check-tok`), an exhaustive kernel check ' +
               '(`make check-gelu`, `check-quant`, `check-exp`), or a kept mistake that the checks catch.' +
               (floor && !floor.sameCpu ? ` Matmul · attention ÷ bound: not given, since the pinned floor run (bench/results/${floor.run.file.split('/').pop()}) ` +
                        'was measured on another CPU than this run.' : '') +
               (floor?.sameCpu ? ' Matmul · attention ÷ bound: each phase\'s mean per forward pass divided by what the pinned floor run ' +
                        `(bench/results/${floor.run.file.split('/').pop()}) measured its products to cost alone on the same runtime: the GEMM's ` +
                        'integer dot products for the matmul; for attention its float products' +
                        (Object.values(floor.run.results).some((r) => r.exps_ns?.length) ? ' and softmax\'s exponentials' : '') +
                        ' (`make bench-floor`, chapter on the floor). The other phase (LayerNorm, GELU, quantisation, residuals) has no bound yet.' : ''));
    return lines.join('\n');
}
