#!/usr/bin/env node
// `make book-selftest`: the preprocessor's failure modes, each on a tiny fixture
// tree built in a temporary directory (BOOK_ROOT points the real tool at it).
// Every case says what it expects: the exit status and a text in the output.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TOOL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'tools', 'snippets.mjs');
let passed = 0, failed = 0;
const roots = [];
process.on('exit', () => { for (const r of roots) fs.rmSync(r, { recursive: true, force: true }); });

// files: { 'relative/path': 'text' }. Returns { status, out, root }.
function run(files, extraEnv = {}, args = ['build']) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'book-selftest-'));
    roots.push(root);
    const base = {
        'common/stage/stage.hpp': 'inline constexpr int kWindow = 256;\n',
        'book/data/post-figures.tsv': 'demo\t~42 ms\ta made-up post figure for the self-test\n',
    };
    for (const [f, text] of Object.entries({ ...base, ...files })) {
        fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        fs.writeFileSync(path.join(root, f), text);
    }
    const env = { ...process.env, BOOK_ROOT: root, BOOK_TABLE_CMD: 'node bench/table.mjs', BOOK_PLOT_CMD: 'node bench/plot.mjs', ...extraEnv };
    delete env.BOOK_OUT; delete env.BOOK_RESULTS; delete env.BOOK_ALLOW_MISSING;
    const r = spawnSync('node', [TOOL, ...args], { env, encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}`, root };
}

function expect(name, res, status, ...texts) {
    const bad = [];
    if (res.status !== status) bad.push(`exit ${res.status}, expected ${status}`);
    for (const t of texts) {
        const hit = t instanceof RegExp ? t.test(res.out) : res.out.includes(t);
        if (!hit) bad.push(`output lacks ${t}`);
    }
    if (bad.length) { failed++; console.log(`FAIL ${name}: ${bad.join('; ')}\n${res.out.trim().split('\n').map((l) => `    ${l}`).join('\n')}`); }
    else { passed++; console.log(`ok   ${name}`); }
    return res;
}
const md = (res, file) => fs.readFileSync(path.join(res.root, 'book', 'out', 'md', file), 'utf8');

const src = (body) => `int before;\n// snippet: tile\nint tile_a;\n  int tile_b;\n// end-snippet\nint after;\n${body || ''}`;
const chapter = (body) => ({ 'book/chapters/01-a.md': `# A\n\n${body}\n` });

// 1. The happy path: one marker, one reference; code and line numbers in the output.
let r = expect('snippet expands', run({ 'stages/00-a/k.cpp': src(), ...chapter('{{snippet 00 tile}}') }), 0, 'expanded 1 chapter');
if (r.status === 0) {
    const text = md(r, '01-a.md');
    const good = text.includes('int tile_a;\n  int tile_b;') && text.includes('startFrom="3"') && !text.includes('snippet:') && text.includes('stages/00-a/k.cpp');
    if (good) { passed++; console.log('ok   snippet text, source path and first line number'); } else { failed++; console.log(`FAIL snippet text:\n${text}`); }
}
// 2. A reference without a marker.
expect('missing snippet', run({ 'stages/00-a/k.cpp': src(), ...chapter('{{snippet 00 tile}}\n\n{{snippet 00 nope}}') }), 1, "missing snippet 'nope' in stages/00-a");
// 3. A reference to a stage that does not exist.
expect('missing stage', run({ 'stages/00-a/k.cpp': src(), ...chapter('{{snippet 00 tile}}\n\n{{snippet 07 tile}}') }), 1, "missing snippet 'tile' in stages/07-*");
// 4. The same name twice in one stage.
expect('duplicated name', run({ 'stages/00-a/k.cpp': src(), 'stages/00-a/m.cpp': src(), ...chapter('{{snippet 00 tile}}') }), 1, "duplicated snippet name 'tile' in stages/00-a");
// 5. ...but once per stage is fine (stages are copies of each other).
expect('same name in two stages', run({ 'stages/00-a/k.cpp': src(), 'stages/01-b/k.cpp': src('int changed;\n'), ...chapter('{{snippet 00 tile}}\n\n{{snippet 01 tile}}') }), 0);
// 6. A marker nobody includes.
expect('unused marker', run({ 'stages/00-a/k.cpp': src('// snippet: spare\nint s;\n// end-snippet\n'), ...chapter('{{snippet 00 tile}}') }), 1, "unused snippet marker 'spare'");
// 7. A marker without its end.
expect('unterminated marker', run({ 'stages/00-a/k.cpp': src('// snippet: open\nint o;\n'), ...chapter('{{snippet 00 tile}}') }), 1, "unterminated snippet 'open'");
// 8. An end without an open.
expect('stray end', run({ 'stages/00-a/k.cpp': src('// end-snippet\n'), ...chapter('{{snippet 00 tile}}') }), 1, 'end-snippet without an open snippet marker');
// 9. A misspelt marker is an error, not a comment.
expect('malformed marker', run({ 'stages/00-a/k.cpp': src('// snippet gemm\n'), ...chapter('{{snippet 00 tile}}') }), 1, 'malformed snippet marker');
// 10. Overlapping (not nested) snippets.
expect('overlap', run({ 'stages/00-a/k.cpp': '// snippet: x\n// snippet: y\nint a;\n// end-snippet: x\n// end-snippet: y\n', ...chapter('{{snippet 00 x}}\n\n{{snippet 00 y}}') }), 1, "end-snippet: x closes snippet 'y'");
// 11. Nested snippets: the outer one shows the inner code without the inner markers.
r = expect('nested', run({ 'stages/00-a/k.cpp': '// snippet: outer\nint a;\n// snippet: inner\nint b;\n// end-snippet: inner\nint c;\n// end-snippet: outer\n', ...chapter('{{snippet 00 outer}}\n\n{{snippet 00 inner}}') }), 0);
if (r.status === 0) {
    const t = md(r, '01-a.md');
    if (t.includes('int a;\nint b;\nint c;') && !/snippet: inner/.test(t)) { passed++; console.log('ok   nested markers stripped from the outer snippet'); } else { failed++; console.log(`FAIL nested text:\n${t}`); }
}
// 12. A hand-typed timing in prose.
expect('typed number', run({ ...chapter('It took 12.5 ms on my laptop.') }), 1, "typed number '12.5 ms'");
// 13. ...but inside code, or attributed to the post, it is fine.
r = expect('numbers in code and post figures', run({ ...chapter('`12 ms` is code.\n\n```\nreal 3.2s\n```\n\nThe post saw {{post demo}}.') }), 0);
if (r.status === 0 && md(r, '01-a.md').includes('[~42 ms]{.post')) { passed++; console.log('ok   post figure rendered with attribution'); } else if (r.status === 0) { failed++; console.log('FAIL post figure'); }
// 14. Directives inside a fenced code block stay as they are.
r = expect('directive in code block', run({ ...chapter('```\n{{snippet 00 nothing}}\n```') }), 0);
// 15. The diff between two stages, markers removed.
r = expect('diff', run({ 'stages/00-a/k.cpp': src(), 'stages/01-b/k.cpp': src('int added_in_01;\n'), ...chapter('{{snippet 00 tile}}\n\n{{snippet 01 tile}}\n\n{{diff 01}}') }), 0);
if (r.status === 0) {
    const t = md(r, '01-a.md');
    if (t.includes('+int added_in_01;') && t.includes('a/00-a/k.cpp') && !/^[+-].*snippet/m.test(t)) { passed++; console.log('ok   diff content'); } else { failed++; console.log(`FAIL diff content:\n${t}`); }
}
// 15b. What differs only by the stage's identity (its name in spin.toml, its README) is left out.
r = expect('diff without identity', run({
    'stages/00-a/k.cpp': src(), 'stages/00-a/spin.toml': 'name = "bitexact-00-a" # stage 00\n', 'stages/00-a/README.md': 'Stage 00 prose\n',
    'stages/01-b/k.cpp': src('int added_in_01;\n'), 'stages/01-b/spin.toml': 'name = "bitexact-01-b" # stage 01\n', 'stages/01-b/README.md': 'Stage 01, other prose\n',
    ...chapter('{{snippet 00 tile}}\n\n{{snippet 01 tile}}\n\n{{diff 01}}') }), 0);
if (r.status === 0) {
    const t = md(r, '01-a.md');
    if (t.includes('+int added_in_01;') && !t.includes('bitexact-0') && !t.includes('other prose') && !t.includes('spin.toml')) { passed++; console.log('ok   diff leaves out the stage name and README'); } else { failed++; console.log(`FAIL diff identity:\n${t}`); }
}
// 16. A stage identical to its predecessor is an error.
expect('empty diff', run({ 'stages/00-a/k.cpp': src(), 'stages/01-b/k.cpp': src(), ...chapter('{{snippet 00 tile}}\n\n{{snippet 01 tile}}\n\n{{diff 01}}') }), 1, 'has no changes from 00-a');
// 17. Results: no table script, no plot, no check file.
expect('missing results', run({ ...chapter('{{table forward}}\n\n{{figure forward Time}}\n\n{{check 00}}') }), 1,
    'bench/table.mjs not found', "figure 'forward': no bench/results/forward.svg", 'no bench/results/check-00.txt');
// 18. Results present: the table script's Markdown, the plot and the check output are included.
r = expect('results present', run({
    'bench/table.mjs': "console.log('| stage | t |\\n|---|---|\\n| 00-a | ' + process.argv[2] + ' |');\n",
    'bench/plot.mjs': "import fs from 'node:fs';\nfs.mkdirSync('bench/results', { recursive: true });\nfs.writeFileSync('bench/results/forward.svg', '<svg xmlns=\"http://www.w3.org/2000/svg\"/>');\n",
    'bench/results/check-00.txt': 'label agreement 1/1\n',
    ...chapter('{{table forward}}\n\n{{figure forward Time}}\n\n{{check 00}}'),
}), 0);
if (r.status === 0) {
    const t = md(r, '01-a.md');
    const m = JSON.parse(fs.readFileSync(path.join(r.root, 'book', 'out', 'manifest.json'), 'utf8'));
    if (t.includes('| 00-a | forward |') && t.includes('label agreement 1/1') && t.includes('figures/forward.svg') && m.plots.includes('bench/results/forward.svg')) { passed++; console.log('ok   table, plot and check included'); }
    else { failed++; console.log(`FAIL results content:\n${t}\n${JSON.stringify(m)}`); }
}
// 19. A draft: missing things become placeholders, the page says so, exit 0.
r = expect('draft build', run({ ...chapter('{{snippet 00 nope}}\n\n{{table forward}}') }, {}, ['build', '--allow-missing']), 0, 'DRAFT');
if (r.status === 0) {
    const t = md(r, '01-a.md');
    if (t.includes('.draft-banner') && t.includes('.missing') && !/\d+(\.\d+)? ?ms/.test(t)) { passed++; console.log('ok   draft placeholders and banner, no numbers'); } else { failed++; console.log(`FAIL draft:\n${t}`); }
}
// 20. ...but a draft still refuses structural errors.
expect('draft still fails on duplicates', run({ 'stages/00-a/k.cpp': src(), 'stages/00-a/m.cpp': src(), ...chapter('{{snippet 00 tile}}') }, {}, ['build', '--allow-missing']), 1, "duplicated snippet name 'tile'");
// 21. A block directive used inline.
expect('block directive inline', run({ ...chapter('See {{diff 01}} here.') }), 1, 'is a block directive');
// 22. A phrase from the issue tracker fails the build, naming chapter and line.
expect('tracker phrase', run({ ...chapter('Plain prose first.\n\nAs the issue that started this stage asked, we measured.') }), 1,
    "book/chapters/01-a.md:5: 'the issue' belongs to the issue tracker");
// 23. ...in a code block and a comment too (nothing opts out), and in a draft as well.
expect('tracker phrase in code and comment', run({ ...chapter('```\nsee issue #37\n```\n\n<!-- closing note: done -->') }, {}, ['build', '--allow-missing']), 1,
    "book/chapters/01-a.md:4: 'issue #37'", "book/chapters/01-a.md:7: 'closing note'");
// 24. ...but prose about the code that uses the word is fine.
expect('no tracker phrase', run({ ...chapter('The loop issues two loads per step, and V8 issues them early.') }), 0);
// 25. A cross-reference written as plain text fails the build: a chapter by its
// number, a stage's chapter, a chapter's title in quotes (the mutants of the rule).
const twoChapters = (body) => ({ 'book/chapters/01-a.md': `# A\n\n${body}\n`, 'book/chapters/02-what-went-wrong.md': '# What went wrong\n\nText.\n' });
expect('plain chapter number', run(twoChapters('As chapter 2 shows, it is slower.')), 1,
    "book/chapters/01-a.md:3: cross-reference 'chapter 2' written as plain text");
expect('plain stage chapter', run(twoChapters("Stage `02`'s chapter found it.")), 1, "cross-reference 'Stage `02`'s chapter'");
expect('plain title in quotes', run(twoChapters('Its time is in "What went wrong": slower.')), 1, `cross-reference '"What went wrong"'`);
// 26. ...and passes as links, or when only a code span holds the words.
expect('cross-references as links', run(twoChapters('As [chapter 2](02-what-went-wrong.md) shows; see [What went wrong](02-what-went-wrong.md) and `chapter 2`.')), 0);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
