#!/usr/bin/env node
// SVG of the forward time per stage: for each stage two bars, wasmtime with
// epoch interruption and V8 (older V8-only runs: plain and epoch), each stacked by phase (matmul, attention, other: the profiler's buckets, mean
// per forward). The number above a bar and the black line are the median
// forward time; the stack is a mean, so on a noisy machine it can stand above
// or below the median.
// A stage that failed its check is drawn as an empty outlined bar saying so.
//
//   node bench/plot.mjs [results.json ...] [-o bench/results/forward.svg]
// Without files: the run bench/results/book-runs.json pins for "forward"
// (bench/pin.mjs), else every bench/results/*.json (newest result per stage and mode).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, latestByStageMode, loadRuns, resultFiles, stagesOf } from './lib/results.mjs';
import { pinnedFile } from './pin.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const PHASES = [
    ['matmul', 'Matmul', '#3b6ea8'],
    ['attention', 'Attention', '#e0903a'],
    ['other', 'Other', '#7aa95c'],
];
const V8_MODES = [['plain', 'plain'], ['epoch', 'epoch checks']];
const RUNTIME_MODES = [['wasmtime', 'wasmtime, epoch on'], ['V8', 'V8']];

// A run that measured runtimes: its wasmtime-with-epoch and V8 results, keyed
// "stage|wasmtime" and "stage|V8" (the bars), like latestByStageMode's keys.
function byRuntime(run) {
    const latest = new Map();
    for (const result of run.results) {
        if (result.sweep) continue;
        if (result.runtime === 'wasmtime' && result.mode === 'epoch') latest.set(`${result.stage}|wasmtime`, { run, result });
        if (result.runtime === 'v8' && result.mode === 'plain') latest.set(`${result.stage}|V8`, { run, result });
    }
    return latest;
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// A "nice" axis maximum and step: 1, 2 or 5 times a power of ten.
function axis(max) {
    const raw = max / 5;
    const pow = 10 ** Math.floor(Math.log10(raw || 1));
    const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw);
    return { step, top: Math.ceil(max / step) * step || step };
}

export function renderSvg(runs, peerRun = null) {
    const newestRun = runs[runs.length - 1];
    const runtimes = Boolean(newestRun.runtimes);
    const latest = runtimes ? byRuntime(newestRun) : latestByStageMode(runs);
    const MODES = runtimes ? RUNTIME_MODES : V8_MODES;
    const stages = stagesOf(latest);
    const ok = (e) => e && e.result.status !== 'failed' && e.result.forward_ms;
    let max = 0;
    for (const e of latest.values()) {
        if (!ok(e)) continue;
        const p = e.result.profile_ms;
        max = Math.max(max, e.result.forward_ms.median, p.matmul + p.attention + p.other);
    }
    // The peers (bench/peer): ONNX Runtime on the same windows, one thread, from
    // their own run, drawn as one more group of plain bars at the right.
    const peers = (peerRun?.results ?? []).filter((r) => (r.kind === 'web' || r.kind === 'node') && r.status === 'ok' && r.forward_ms);
    for (const r of peers) max = Math.max(max, r.forward_ms.median);
    const { step, top } = axis((max || 1) * 1.08);   // headroom for the labels

    const barW = 34, gap = 6, groupGap = 40, left = 70, right = 20, plotTop = 96, plotH = 300;
    const groupW = MODES.length * barW + (MODES.length - 1) * gap;
    const groups = stages.length + (peers.length ? 1 : 0);
    const width = Math.max(left + right + groups * (groupW + groupGap) + groupGap, 760);
    const height = plotTop + plotH + 72;
    const y = (v) => plotTop + plotH - (v / top) * plotH;
    const out = [];
    out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
    out.push(`<rect width="100%" height="100%" fill="white"/>`);
    out.push(`<text x="${left}" y="22" font-size="15" font-weight="bold">${runtimes ? 'Forward pass per stage: wasmtime (epoch interruption on, as Spin runs it) and V8' : 'Forward pass per stage: plain vs. epoch-interruption checks'}</text>`);
    const newest = runs[runs.length - 1];
    const loads = [...new Set([...latest.values()].map((e) => e.run))]
        .map((r) => `${r.machine.loadavg_before?.[0] ?? '?'}→${r.machine.loadavg_after?.[0] ?? '?'}`);
    const rt = newest.runtimes
        ? [newest.runtimes.wasmtime && `wasmtime ${newest.runtimes.wasmtime.wasmtime}`, newest.runtimes.v8 && `Node ${newest.runtimes.v8.node} (V8 ${newest.runtimes.v8.v8})`].filter(Boolean).join(' · ')
        : `Node ${newest.runtime.node} (V8 ${newest.runtime.v8})`;
    out.push(`<text x="${left}" y="40" fill="#555">${esc(`${newest.machine.cpu ?? 'unknown CPU'}, ${newest.machine.cores} cores · ${rt} · ${newest.date.slice(0, 10)} · load ${loads.join(', ')}`)}</text>`);
    out.push(`<text x="${left}" y="56" fill="#555">median wall time of one window (ms, black line); bars: profiler phases, mean per forward</text>`);

    // grid and axis
    for (let v = 0; v <= top + 1e-9; v += step) {
        out.push(`<line x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`);
        out.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#333">${v}</text>`);
    }
    out.push(`<text transform="translate(18 ${plotTop + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#333">ms per forward</text>`);

    stages.forEach((stage, si) => {
        const gx = left + groupGap + si * (groupW + groupGap);
        MODES.forEach(([mode], mi) => {
            const x = gx + mi * (barW + gap);
            const e = latest.get(`${stage}|${mode}`);
            if (!e) return;
            if (!ok(e)) {
                out.push(`<rect x="${x}" y="${y(top * 0.15)}" width="${barW}" height="${(plotTop + plotH - y(top * 0.15)).toFixed(1)}" fill="none" stroke="#b00" stroke-dasharray="4 3"/>`);
                out.push(`<text transform="translate(${x + barW / 2 + 4} ${y(top * 0.15) - 4}) rotate(-90)" fill="#b00">failed</text>`);
                return;
            }
            let base = 0;
            for (const [key, label, color] of PHASES) {
                const v = e.result.profile_ms[key];
                const y0 = y(base), y1 = y(base + v);
                out.push(`<rect x="${x}" y="${y1.toFixed(1)}" width="${barW}" height="${Math.max(0, y0 - y1).toFixed(1)}" fill="${color}" opacity="${mi === 1 ? 0.65 : 1}"><title>${esc(`${stage} ${mode}: ${label} ${fmt(v)} ms`)}</title></rect>`);
                base += v;
            }
            const med = e.result.forward_ms.median;
            out.push(`<line x1="${x - 2}" x2="${x + barW + 2}" y1="${y(med).toFixed(1)}" y2="${y(med).toFixed(1)}" stroke="#000" stroke-width="1.5"/>`);
            out.push(`<text x="${x + barW / 2}" y="${(y(Math.max(med, base)) - 5).toFixed(1)}" text-anchor="middle" font-size="11">${fmt(med, 0)}</text>`);
            out.push(`<text x="${x + barW / 2}" y="${plotTop + plotH + 14}" text-anchor="middle" font-size="10" fill="#555">${mode}</text>`);
        });
        const plain = latest.get(`${stage}|${MODES[0][0]}`), epoch = latest.get(`${stage}|${MODES[1][0]}`);
        const ratio = ok(plain) && ok(epoch) ? ` ×${fmt(epoch.result.forward_ms.median / plain.result.forward_ms.median, 2)}` : '';
        // "03-simd-attention" on two lines (number, then name) so neighbours never overlap.
        const [number, ...rest] = stage.split('-');
        out.push(`<text x="${gx + groupW / 2}" y="${plotTop + plotH + 30}" text-anchor="middle" font-weight="bold">${esc(number)}</text>`);
        out.push(`<text x="${gx + groupW / 2}" y="${plotTop + plotH + 44}" text-anchor="middle" font-size="11">${esc(rest.join('-'))}</text>`);
        if (ratio) out.push(`<text x="${gx + groupW / 2}" y="${plotTop + plotH + 59}" text-anchor="middle" fill="#555" font-size="11">${runtimes ? 'V8/wt' : 'epoch'}${ratio}</text>`);
    });

    if (peers.length) {
        const gx = left + groupGap + stages.length * (groupW + groupGap);
        peers.forEach((r, i) => {
            const x = gx + i * (barW + gap), med = r.forward_ms.median;
            const label = r.kind === 'web' ? 'web' : 'native';
            out.push(`<rect x="${x}" y="${y(med).toFixed(1)}" width="${barW}" height="${(plotTop + plotH - y(med)).toFixed(1)}" fill="#999"><title>${esc(`${r.name}: ${fmt(med)} ms`)}</title></rect>`);
            out.push(`<text x="${x + barW / 2}" y="${(y(med) - 5).toFixed(1)}" text-anchor="middle" font-size="11">${fmt(med, 0)}</text>`);
            out.push(`<text x="${x + barW / 2}" y="${plotTop + plotH + 14}" text-anchor="middle" font-size="10" fill="#555">${label}</text>`);
        });
        out.push(`<text x="${gx + groupW / 2}" y="${plotTop + plotH + 30}" text-anchor="middle" font-weight="bold">peers</text>`);
        out.push(`<text x="${gx + groupW / 2}" y="${plotTop + plotH + 44}" text-anchor="middle" font-size="11">onnxruntime</text>`);
        out.push(`<text x="${gx + groupW / 2}" y="${plotTop + plotH + 59}" text-anchor="middle" fill="#555" font-size="11">${esc(peerRun.date.slice(0, 10))} run</text>`);
    }

    // legend
    let lx = left;
    PHASES.forEach(([, label, color]) => {
        out.push(`<rect x="${lx}" y="${plotTop - 28}" width="12" height="12" fill="${color}"/><text x="${lx + 16}" y="${plotTop - 18}">${label}</text>`);
        lx += 85;
    });
    out.push(`<line x1="${lx}" x2="${lx + 14}" y1="${plotTop - 22}" y2="${plotTop - 22}" stroke="#000" stroke-width="1.5"/><text x="${lx + 18}" y="${plotTop - 18}">median</text>`);
    if (peers.length) out.push(`<rect x="${lx + 85}" y="${plotTop - 28}" width="12" height="12" fill="#999"/><text x="${lx + 101}" y="${plotTop - 18}">ONNX Runtime, one thread: web (wasm SIMD, V8) and native (median)</text>`);
    out.push('</svg>');
    return `${out.join('\n')}\n`;
}

// --peers: the pinned peer run's ONNX Runtime bars beside the stages (the
// README's overview chart). --check FILE: exit 1 when FILE is not what this
// would write now (CTest keeps the committed chart fresh); --plant-stale FILE:
// write a copy with one label changed, for that check's mutant.
function main(argv) {
    let out = join(here, 'results', 'forward.svg');
    const files = [];
    let withPeers = false, check = null, plant = null;
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '-o') out = argv[++i];
        else if (argv[i] === '--peers') withPeers = true;
        else if (argv[i] === '--check') check = argv[++i];
        else if (argv[i] === '--plant-stale') plant = argv[++i];
        else files.push(argv[i]);
    }
    const pin = files.length ? null : pinnedFile('forward');
    const runs = loadRuns(files.length ? files : pin ? [pin]
        : resultFiles(join(here, 'results')).filter((f) => !/-(limits|peer-[^/]*|instructions[^/]*)\.json$/.test(f)));
    if (runs.length === 0) { console.error('plot: no results files'); return 1; }
    const peerFile = withPeers ? pinnedFile('peer') : null;
    if (withPeers && !peerFile) { console.error('plot: no pinned peer run (bench/results/book-runs.json)'); return 1; }
    const svg = renderSvg(runs, peerFile ? JSON.parse(readFileSync(peerFile, 'utf8')) : null);
    if (plant) { writeFileSync(plant, svg.replace('>median<', '>median (stale)<')); return 0; }
    if (check) {
        if (existsSync(check) && readFileSync(check, 'utf8') === svg) return 0;
        console.error(`${check} is stale: run make readme-chart`);
        return 1;
    }
    writeFileSync(out, svg);
    console.log(out);
    return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
