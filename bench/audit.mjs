#!/usr/bin/env node
// What moving the book's tables to other runs would change, before anyone
// moves them. The chapters' prose was written from the pinned runs
// (bench/results/book-runs.json): "no shape beats 4×2", "four pairs add
// little". A new run, on another day or another host, can say otherwise, and
// the warning a table prints about its run does not say which sentences that
// touches. This lists every verdict that would change (faster, slower, within
// noise) in the step tables and the sweeps, with both runs' ratios and the
// chapters that show each table, so the prose to reread is known.
//
//   node bench/audit.mjs [--forward FILE] [--sweep NN=FILE]... [-o FILE]
//
// Each FILE is a candidate run in bench/results; tables not named keep their
// pin and are not compared. Nothing is written but the report.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRuns } from './lib/results.mjs';
import { CONFIGS, stagesIn, stepInterval, intervalText } from './lib/runtime-tables.mjs';
import { ratioInterval, verdict } from './lib/stats.mjs';
import { pinnedFile } from './pin.mjs';
import { sweepOf } from './table.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const chaptersDir = join(here, '..', 'book', 'chapters');

// The chapters' texts, read once; those that hold a directive, e.g.
// "{{table sweep 05}}".
const chapters = readdirSync(chaptersDir).filter((f) => f.endsWith('.md'))
    .map((f) => [f, readFileSync(join(chaptersDir, f), 'utf8')]);
const chaptersWith = (directive) => chapters.filter(([, text]) => text.includes(directive)).map(([f]) => f);

const judged = (iv) => (iv ? `${intervalText(iv)} ${verdict(iv)}` : 'not measured');

// Every stage's step under every config: "NN under CONFIG" -> interval.
function steps(run) {
    const out = new Map();
    const stages = stagesIn(run);
    for (let i = 1; i < stages.length; i++)
        for (const c of CONFIGS) out.set(`${stages[i].slice(0, 2)}|${c.label}`, stepInterval(run, stages[i], stages[i - 1], c.key));
    return out;
}

// Every build of a sweep against its base, under every config.
function sweepRatios(run, prefix) {
    const { configs, labels, get, base } = sweepOf([run], prefix);
    const out = new Map();
    for (const [key, name] of configs) for (const label of labels) {
        const a = get(label, key), b = get(base, key);
        if (label === base || !a?.round_medians_ms || !b?.round_medians_ms) continue;
        out.set(`${label} vs ${base}|${name}`, ratioInterval(a.round_medians_ms, b.round_medians_ms));
    }
    return out;
}

// Rows whose verdict differs between the two maps.
function changes(pinned, candidate) {
    const rows = [];
    for (const key of new Set([...pinned.keys(), ...candidate.keys()])) {
        const a = pinned.get(key) ?? null, b = candidate.get(key) ?? null;
        if ((a ? verdict(a) : null) !== (b ? verdict(b) : null)) rows.push([key, judged(a), judged(b)]);
    }
    return rows;
}

function section(title, pinnedRun, candidateRun, rows, directive) {
    const where = (key) => chaptersWith(directive(key)).join(', ') || '(no chapter)';
    const lines = [`## ${title}`, '', `Pinned: ${basename(pinnedRun.file)}; candidate: ${basename(candidateRun.file)}.`, ''];
    if (rows.length === 0) return [...lines, 'No verdict changes.', ''];
    lines.push('| Compared | Config | Pinned | Candidate | Chapters |', '|---|---|---|---|---|');
    for (const [key, a, b] of rows) {
        const [what, config] = key.split('|');
        lines.push(`| ${what} | ${config} | ${a} | ${b} | ${where(what)} |`);
    }
    return [...lines, ''];
}

function main(argv) {
    let forward = null, out = null;
    const sweeps = [];
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--forward') forward = argv[++i];
        else if (argv[i] === '--sweep') { const [nn, file] = (argv[++i] ?? '').split('='); sweeps.push([nn, file]); }
        else if (argv[i] === '-o') out = argv[++i];
        else { console.error('usage: audit.mjs [--forward FILE] [--sweep NN=FILE]... [-o FILE]'); return 2; }
    }
    if (!forward && sweeps.length === 0) { console.error('audit: name a candidate run (--forward, --sweep)'); return 2; }
    const lines = ['# What moving the book\'s tables to these runs would change', '',
                   'Verdicts (faster, slower, within noise: bench/lib/stats.mjs) that differ between the pinned run and the candidate, ' +
                   'with the chapters that show the table. Written by:', '', '```', `node bench/audit.mjs ${argv.join(' ')}`, '```', ''];
    if (forward) {
        const [pinned] = loadRuns([pinnedFile('forward')]), [candidate] = loadRuns([resolve(forward)]);
        const rows = changes(steps(pinned), steps(candidate));
        lines.push(...section('Steps (the forward run: step and verdict tables)', pinned, candidate, rows,
                              (what) => `{{table step ${what}}}`));
    }
    for (const [nn, file] of sweeps) {
        const pin = pinnedFile(`sweep ${nn}`);
        if (!pin) { console.error(`audit: no pinned run for sweep ${nn}`); return 1; }
        const [pinned] = loadRuns([pin]), [candidate] = loadRuns([resolve(file)]);
        lines.push(...section(`Sweep ${nn}`, pinned, candidate, changes(sweepRatios(pinned, nn), sweepRatios(candidate, nn)),
                              () => `{{table sweep ${nn}}}`));
    }
    const text = `${lines.join('\n')}\n`;
    if (out) writeFileSync(out, text); else process.stdout.write(text);
    return 0;
}

process.exitCode = main(process.argv.slice(2));
