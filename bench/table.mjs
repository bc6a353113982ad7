#!/usr/bin/env node
// Markdown table of the bench results, for the book: one row per stage, plain
// and epoch side by side, the epoch/plain ratio, the phase split and the
// tokenizer load. Below it, where and how the numbers were taken.
//
//   node bench/table.mjs [forward|epoch] [results.json ...] [-o FILE.md]
// Without files: every bench/results/*.json (newest result per stage and mode).
// `forward` and `epoch` name the book's two uses; both get the same table,
// since it holds the plain and epoch columns side by side.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, latestByStageMode, loadRuns, resultFiles, stagesOf } from './lib/results.mjs';

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
    for (const run of [...usedRuns].sort((a, b) => a.date.localeCompare(b.date))) {
        const m = run.machine;
        lines.push(`Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC at ${run.git.commit?.slice(0, 10) ?? '?'}${run.git.dirty ? ' (uncommitted changes)' : ''}: ` +
                   `${m.cpu ?? 'unknown CPU'}, ${m.cores} cores, load ${m.loadavg_before?.[0] ?? '?'} → ${m.loadavg_after?.[0] ?? '?'}; ` +
                   `Node ${run.runtime.node} (V8 ${run.runtime.v8}${run.runtime.flags.length ? `, ${run.runtime.flags.join(' ')}` : ''}); ` +
                   `${run.compiler?.version ?? 'compiler unknown'} ${run.compiler?.flags ?? ''}; ${run.settings.runs} runs × ${run.settings.rounds} round(s).`);
    }
    return `${lines.join('\n')}\n`;
}

function main(argv) {
    let out = null;
    const files = [];
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '-o') out = argv[++i];
        else if (argv[i] === 'forward' || argv[i] === 'epoch') continue;
        else files.push(argv[i]);
    }
    const runs = loadRuns(files.length ? files : resultFiles(join(here, 'results')));
    if (runs.length === 0) { console.error('table: no results files'); return 1; }
    const md = renderTable(runs);
    if (out) writeFileSync(out, md); else process.stdout.write(md);
    return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
