#!/usr/bin/env node
// `make stages-index`: stages/README.md, a one-page index of the stages: per
// stage, the kernel it changes, its idea, its chapter, and the verdict of its
// step under wasmtime (epoch on) and V8, from the runs the book itself quotes.
//
//   node book/tools/stages-index.mjs                 the index, on stdout
//   node book/tools/stages-index.mjs -o FILE         written to FILE
//   node book/tools/stages-index.mjs --check FILE    exit 1 when FILE is not what would be written
//   node book/tools/stages-index.mjs --check-readme README.md [--plant]
//                                                    exit 1 when its count of stages beyond the post is not the tree's
//   node book/tools/stages-index.mjs --plant-stale FILE
//                                                    FILE = the index with one row changed
//                                                    (for the mutant test: --check must reject it)
//
// The index is generated, never edited: the kernel comes from the code, the idea
// from each stage's README heading, the verdicts from bench/results/book-runs.json's
// pins, so CTest (stages: index is fresh) can tell when any of them moved.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedFile } from '../../bench/pin.mjs';
import { provenanceLine } from '../../bench/table.mjs';
import { fmt, trustWarning } from '../../bench/lib/results.mjs';
import { modelHash } from '../../bench/lib/guest.mjs';
import { instructionsOf, intervalText, resultOf, stepInterval } from '../../bench/lib/runtime-tables.mjs';
import { verdict } from '../../bench/lib/stats.mjs';
import { stageCounts } from './snippets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STAGES = join(ROOT, 'stages');

// Files that differ between every pair of stages without being the idea: the
// stage's prose, its identity and its build wiring.
const NOT_THE_IDEA = new Set(['README.md', 'spin.toml', 'stage_name.cpp', 'CMakeLists.txt']);
const SOURCE = /\.(cpp|hpp|h|c)$/;
// File name -> kernel, in the order the index lists them. Matched on the base
// name, so build-time/make_packed_weights.cpp counts as the GEMM's too.
const KERNELS = [
    [/^gemm\.hpp$|packed_weights\./, 'GEMM'],
    [/^attention\.hpp$/, 'attention'],
    [/^softmax\./, 'softmax'],
    [/^gelu\./, 'GELU'],
    [/^quantize\./, 'quantiser'],
    [/^norm\.hpp$/, 'LayerNorm'],
    [/tokenizer|unigram|vocab/, 'tokenizer'],
    [/^forward\.cpp$/, 'forward pass'],
];

const stageDirs = () => readdirSync(STAGES, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d\d-/.test(e.name)).map((e) => e.name).sort();

// A stage's source files, relative to its directory (build-time/ included).
function sourcesOf(stage, sub = '') {
    return readdirSync(join(STAGES, stage, sub), { withFileTypes: true }).flatMap((e) => {
        const rel = sub ? `${sub}/${e.name}` : e.name;
        if (e.isDirectory()) return sourcesOf(stage, rel);
        return SOURCE.test(e.name) && !NOT_THE_IDEA.has(rel) ? [rel] : [];
    });
}

// A file's code as the build compares it (common/cmake/code-hash.cmake: no
// comment-only lines, snippet markers or blank lines, no branch a knob
// switches off in the shipped build): a later stage rewords the comments it
// inherits and deletes the kept mistakes of earlier stages, neither of which
// changes its code. Hashed by CMake itself, one call per stage.
const hashCache = new Map();
function codeOf(stage, rel) {
    if (!hashCache.has(stage)) {
        const files = sourcesOf(stage);
        const r = spawnSync('cmake', [`-DFILES=${files.map((f) => join(STAGES, stage, f)).join(';')}`, '-P',
                                      join(ROOT, 'common/cmake/code-hash.cmake')], { encoding: 'utf8' });
        const hashes = r.stderr.trim().split('\n');
        if (r.status !== 0 || hashes.length !== files.length) throw new Error(`code-hash.cmake on ${stage}: ${r.stderr.slice(0, 400)}`);
        hashCache.set(stage, new Map(files.map((f, i) => [f, hashes[i]])));
    }
    return hashCache.get(stage).get(rel);
}

// The kernels `stage` changes against `prev`: files added, removed or edited.
function kernelsOf(stage, prev) {
    if (!prev) return 'the oracle';
    const before = sourcesOf(prev), after = sourcesOf(stage);
    const changed = [...new Set([...before, ...after])].sort().filter((f) =>
        !before.includes(f) || !after.includes(f) || codeOf(prev, f) !== codeOf(stage, f));
    const names = KERNELS.filter(([re]) => changed.some((f) => re.test(f.split('/').pop()))).map(([, name]) => name);
    // A changed file no kernel claims is named as it is, rather than hidden.
    const unclaimed = changed.filter((f) => !KERNELS.some(([re]) => re.test(f.split('/').pop())));
    return [...names, ...unclaimed.map((f) => `\`${f}\``)].join(', ') || 'none';
}

// "# Stage NN: idea" -> "idea". A README without that heading is an error: the
// index would otherwise show a blank where the idea belongs.
function ideaOf(stage) {
    const file = join(STAGES, stage, 'README.md');
    const head = existsSync(file) ? readFileSync(file, 'utf8').split('\n')[0] : '';
    const m = /^# Stage (\d\d): (.+)$/.exec(head.trim());
    if (!m || m[1] !== stage.slice(0, 2)) throw new Error(`stages/${stage}/README.md: first line must be "# Stage ${stage.slice(0, 2)}: <idea>"`);
    return m[2];
}

// Stage number -> chapter file, from the chapters' front matter (`stage: "NN"`).
function chapters() {
    const dir = join(ROOT, 'book', 'chapters');
    const byStage = new Map();
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.md')).sort()) {
        const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? '';
        const nn = /^stage:\s*"(\d\d)"\s*$/m.exec(front)?.[1];
        if (nn && !byStage.has(nn)) byStage.set(nn, f);
    }
    return byStage;
}

// Each pinned run is read once per process (the book asks for the forward run
// once per stage chapter).
const runs = new Map();
const readRun = (table) => (runs.has(table) ? runs.get(table) : runs.set(table, readRunFile(table)).get(table));
const readRunFile = (table) => {
    const file = pinnedFile(table);
    if (!file || !existsSync(file)) return null;
    return { ...JSON.parse(readFileSync(file, 'utf8')), file };
};

// One step cell: the ratio to the stage before, its interval and verdict (the
// book's own functions), and the instruction ratio when both were counted.
function stepCell(run, instrRun, stage, prev, key, runtime) {
    const iv = run ? stepInterval(run, stage, prev, key) : null;
    if (!iv) {
        // A stage the run measured but whose check failed has no time: say so, not "not yet".
        const failed = run && [stage, prev].find((s) => resultOf(run, s.slice(0, 2), key)?.status === 'failed');
        return failed ? `not measured: ${failed} failed its check` : 'not measured yet';
    }
    const a = instructionsOf(instrRun, stage, runtime), b = instructionsOf(instrRun, prev, runtime);
    return `${intervalText(iv)}, ${verdict(iv)}${a !== null && b !== null ? `; instructions ${fmt(a / b, 3)}×` : ''}`;
}

// The "where we are" box that opens every stage's chapter: the stage before
// (a link to its chapter), this stage's idea in a sentence (its README's
// heading), and its forward pass under wasmtime with epoch interruption as a
// ratio to stage 00 and to stage 09, from the pinned forward run.
export function whereBox(nn) {
    const dirs = stageDirs();
    const at = dirs.findIndex((d) => d.startsWith(`${nn}-`));
    if (at < 0) throw new Error(`no stage ${nn}`);
    const stage = dirs[at], prev = at > 0 ? dirs[at - 1] : null;
    const chapterOf = chapters();
    const run = readRun('forward');
    const key = 'wasmtime:epoch';
    const against = (other) => {
        const base = dirs.find((d) => d.startsWith(`${other}-`));
        if (!base || base === stage) return null;
        const iv = run ? stepInterval(run, stage, base, key) : null;
        return iv ? `${intervalText(iv)} stage ${other}'s` : null;
    };
    const before = prev
        ? `after [stage ${prev.slice(0, 2)}](${chapterOf.get(prev.slice(0, 2)) ?? `../../stages/${prev}/`}) (${ideaOf(prev)})`
        : 'the first stage, the oracle every other is compared with';
    const ratios = ['00', '09'].map(against).filter(Boolean);
    const lines = [`> **Where we are.** Stage ${nn}, ${before}. The idea: ${ideaOf(stage)}.`];
    if (ratios.length) lines.push(`> Its forward pass under wasmtime with epoch interruption: ${ratios.join('; ')}` +
                                  ` (\`bench/results/${run.file.split('/').pop()}\`).`);
    else if (nn !== '00') lines.push(`> Its forward pass is not in the pinned forward run (\`make bench-all\`) yet.`);
    return lines;
}

// Table cells may not hold a bare "|".
const cellText = (s) => s.replace(/\|/g, '\\|');

export function render() {
    const run = readRun('forward'), instrRun = readRun('instructions');
    const chapterOf = chapters();
    const dirs = stageDirs();
    const rows = dirs.map((stage, i) => {
        const prev = i > 0 ? dirs[i - 1] : null;
        const ch = chapterOf.get(stage.slice(0, 2));
        return [
            `[${stage}](${stage}/)`,
            kernelsOf(stage, prev),
            cellText(ideaOf(stage)),
            ch ? `[chapter ${ch.slice(0, 2)}](../book/rendered/${ch})` : '–',
            prev ? stepCell(run, instrRun, stage, prev, 'wasmtime:epoch', 'wasmtime') : '–',
            prev ? stepCell(run, instrRun, stage, prev, 'v8:plain', 'v8') : '–',
        ];
    });
    const used = [run, instrRun].filter(Boolean);
    return [
        '<!-- Generated by `make stages-index` (book/tools/stages-index.mjs): do not edit. -->',
        '# The stages',
        '',
        'Each directory below is a stage: the whole redaction service, built and tested on its own, whose logits',
        'must equal stage 00\'s bit for bit. A stage differs from the one before it by one idea, and',
        '`make diff STAGE=NN` shows that difference. This page is generated by `make stages-index`; do not edit',
        'it by hand (CTest\'s `stages: index is fresh` fails when it is out of date).',
        '',
        // The book prints the same warning above its own verdicts.
        ...(run ? [trustWarning(used, modelHash()).trimEnd()].filter(Boolean).flatMap((w) => [w, '']) : []),
        '| Stage | Kernel | Idea | Chapter | wasmtime, epoch on: step [95%] | V8: step [95%] |',
        '|---|---|---|---|---|---|',
        ...rows.map((r) => `| ${r.join(' | ')} |`),
        '',
        'Kernel: what the stage\'s code changes against the stage before (comment lines aside). Step: the stage\'s forward',
        'time over the stage before\'s, the median of per-round ratios with its 95% bootstrap interval; an interval that',
        'contains 1 is within noise. Instructions: the same ratio for the instructions one window executes.',
        '',
        ...(used.length ? used.map((r) => `${provenanceLine(r)}`).join('\n\n').split('\n') : ['No pinned run (bench/results/book-runs.json).']),
        '',
    ].join('\n');
}

// The map that opens the book's part beyond the post (`{{table map}}`): the
// chapters that carry a `group:` in their front matter, in book order, one row
// per stage: its group (the kernel the chapters are gathered by), its idea, a
// link to its chapter and its step under wasmtime with epoch interruption and
// under V8, each with its interval ("within noise" where it contains 1).
export function renderMap() {
    const run = readRun('forward'), instrRun = readRun('instructions');
    const dirs = stageDirs();
    const dir = join(ROOT, 'book', 'chapters');
    const rows = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.md')).sort()) {
        const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? '';
        const nn = /^stage:\s*"(\d\d)"\s*$/m.exec(front)?.[1];
        const group = /^group:\s*"([^"]+)"\s*$/m.exec(front)?.[1];
        if (!nn || !group) continue;
        const at = dirs.findIndex((d) => d.startsWith(`${nn}-`));
        if (at <= 0) throw new Error(`book/chapters/${f}: no stage ${nn} after another`);
        const stage = dirs[at], prev = dirs[at - 1];
        rows.push([group, `[${stage}](${f})`, cellText(ideaOf(stage)),
                   stepCell(run, instrRun, stage, prev, 'wasmtime:epoch', 'wasmtime'), stepCell(run, instrRun, stage, prev, 'v8:plain', 'v8')]);
    }
    if (!rows.length) throw new Error('no chapter has a group: in its front matter');
    const used = [run, instrRun].filter(Boolean);
    return [
        ...(run ? [trustWarning(used, modelHash()).trimEnd()].filter(Boolean).flatMap((w) => [w, '']) : []),
        '| Kernel | Stage | Idea | wasmtime, epoch on: step [95%] | V8: step [95%] |',
        '|---|---|---|---|---|',
        ...rows.map((r) => `| ${r.join(' | ')} |`),
        '',
        ...(used.length ? used.map((r) => `${provenanceLine(r)}`).join('\n\n').split('\n') : ['No pinned run (bench/results/book-runs.json).']),
        '',
    ].join('\n');
}

// The index with one row changed: what a stale stages/README.md looks like.
function stale(text) {
    const lines = text.split('\n');
    const last = lines.findLastIndex((l) => /^\| \[\d\d-/.test(l));
    const cells = lines[last].split(' | ');
    cells[2] = `STALE ${cells[2]}`;  // the idea column
    lines[last] = cells.join(' | ');
    return lines.join('\n');
}

// README.md says how many stages go beyond the post ("then twenty-one more."):
// that count must be the tree's. With plant, the check runs on a copy whose
// count is one short, and must fail.
function checkReadme(file, plant) {
    let text = readFileSync(file, 'utf8').replace(/\s+/g, ' ');
    const { beyond } = stageCounts();
    if (plant) text = text.replace(`then ${beyond} more.`, 'then one more.');
    if (text.includes(`then ${beyond} more.`)) return 0;
    console.error(`${file}: its count of the stages beyond the post is not "then ${beyond} more." (stages/ has them)`);
    return 1;
}

function main(argv) {
    const [opt, file] = argv;
    if (opt === '--map') { process.stdout.write(renderMap()); return 0; }
    if (opt === '--check-readme') return checkReadme(file, argv.includes('--plant'));
    const text = render();
    if (opt === undefined) { process.stdout.write(text); return 0; }
    if (!file || !['-o', '--check', '--plant-stale'].includes(opt) || argv.length > 2) {
        console.error('usage: stages-index.mjs [-o FILE | --check FILE | --plant-stale FILE | --map]');
        return 2;
    }
    if (opt === '-o') { writeFileSync(file, text); return 0; }
    if (opt === '--plant-stale') { writeFileSync(file, stale(text)); return 0; }
    const found = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (found === text) return 0;
    // Say where it differs: the first line that does, both ways.
    const want = text.split('\n'), have = found?.split('\n') ?? [];
    const at = want.findIndex((l, i) => l !== have[i]);
    console.error(`${file} is stale: run make stages-index`);
    if (found === null) console.error('  (the file does not exist)');
    else if (at >= 0) console.error(`  line ${at + 1}\n  expected: ${want[at]}\n  found:    ${have[at] ?? '(end of file)'}`);
    else console.error(`  it has ${have.length - want.length} extra line(s) after line ${want.length}`);
    return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
