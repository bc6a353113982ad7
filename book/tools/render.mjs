#!/usr/bin/env node
// Second half of `make book`: turns what snippets.mjs expanded (book/out/md/,
// book/out/figures-src/, book/out/manifest.json) into
//   book/out/html/index.html, book/out/html/NN-slug.html, book/out/html/figures/*.svg
//   book/out/bitexact.epub
//   book/out/gfm/ (GitHub-flavoured Markdown; make book copies it to book/rendered/)
// with Graphviz (`dot`) and Pandoc. No npm dependencies.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROUTES } from './snippets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(process.env.BOOK_ROOT || path.join(here, '..', '..'));
const OUT = path.resolve(ROOT, process.env.BOOK_OUT || 'book/out');
const HTML = path.join(OUT, 'html');
const BOOK_TITLE = 'bitexact: a WebAssembly BERT made fast without changing a bit';

function run(cmd, args, what) {
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' });
    if (r.error || r.status !== 0) {
        console.error(`book: ${what} failed: ${cmd} ${args.join(' ')}\n${(r.stderr || String(r.error || '')).trim()}`);
        process.exit(1);
    }
    if (r.stderr && r.stderr.trim()) console.error(`book: ${what}: ${r.stderr.trim()}`);
    return r.stdout;
}

const manifest = JSON.parse(fs.readFileSync(path.join(OUT, 'manifest.json'), 'utf8'));
fs.rmSync(HTML, { recursive: true, force: true });
fs.mkdirSync(path.join(HTML, 'figures'), { recursive: true });

// Figures: every generated .dot source becomes an SVG; the bench plots are copied.
const figSrc = path.join(OUT, 'figures-src');
for (const f of fs.readdirSync(figSrc).filter((f) => f.endsWith('.dot')).sort()) {
    run('dot', ['-Tsvg', path.join(figSrc, f), '-o', path.join(HTML, 'figures', f.replace(/\.dot$/, '.svg'))], `dot ${f}`);
}
for (const p of manifest.plots) fs.copyFileSync(path.join(ROOT, p), path.join(HTML, 'figures', path.basename(p)));
fs.copyFileSync(path.join(ROOT, 'book', 'templates', 'book.css'), path.join(HTML, 'book.css'));

const common = ['--from', 'markdown', '--to', 'html5', '--standalone',
    '--template', 'book/templates/chapter.html', '--lua-filter', 'book/tools/links.lua',
    '--highlight-style', 'pygments', '--metadata', `book-title=${BOOK_TITLE}`];
const byStem = new Map(manifest.chapters.map((c) => [c.stem, c]));

for (const ch of manifest.chapters) {
    const args = [...common, '--metadata', `pagetitle=${ch.title}`];
    if (ch.prev) args.push('--metadata', `prev-href=${ch.prev}.html`, '--metadata', `prev-title=${byStem.get(ch.prev).title}`);
    if (ch.next) args.push('--metadata', `next-href=${ch.next}.html`, '--metadata', `next-title=${byStem.get(ch.next).title}`);
    if (ch.draft) args.push('--metadata', 'draft=true');
    args.push(path.join(OUT, 'md', ch.file), '-o', path.join(HTML, ch.html));
    run('pandoc', args, `pandoc ${ch.file}`);
}

// The contents page.
const first = manifest.chapters[0];
const index = [`# ${BOOK_TITLE} {#contents}`, ''];
if (manifest.draft) {
    index.push('::: {.draft-banner}', `**Draft build** (\`BOOK_ALLOW_MISSING=1\`): ${manifest.missing.length} placeholder(s) stand in for snippets, stages or results that do not exist yet. A real \`make book\` fails on each of them.`, ':::', '');
}
// The routes (a chapter's `routes:`), each a short list in book order, then
// the whole book.
for (const [route, title] of Object.entries(ROUTES)) {
    const on = manifest.chapters.map((c, i) => ({ ...c, n: i + 1 })).filter((c) => (c.routes || []).includes(route));
    if (!on.length) continue;
    index.push(`## ${title}`, '', on.map((c) => `[${c.n}. ${c.title}](${c.html})`).join(' · '), '');
}
if (Object.keys(ROUTES).length) index.push('## The whole book', '');
// Parts (a chapter's `part:` opens one) and, inside a part, groups (`group:`,
// the kernel the chapters of Part III are gathered by) as headings; chapters
// keep one numbering across the whole book.
let group = null;
let open = false;
manifest.chapters.forEach((c, i) => {
    const heading = c.part ? `## ${c.part}` : c.group && c.group !== group ? `### ${c.group}` : null;
    if (c.part) group = null;
    if (heading) {
        if (open) index.push(':::', '');
        index.push(heading, '', '::: {.contents-list}');
        open = true;
    }
    if (c.group) group = c.group;
    if (!open) { index.push('::: {.contents-list}'); open = true; }
    index.push(`${i + 1}. [${c.title}](${c.html})${c.draft ? ' *(draft)*' : ''}`);
});
if (open) index.push(':::');
index.push('', 'Also as an EPUB: [bitexact.epub](../bitexact.epub).', '');
fs.writeFileSync(path.join(OUT, 'md', 'index.md'), index.join('\n'));
run('pandoc', [...common, '--metadata', 'pagetitle=Contents',
    '--metadata', `next-href=${first.html}`, '--metadata', `next-title=${first.title}`,
    ...(manifest.draft ? ['--metadata', 'draft=true'] : []),
    path.join(OUT, 'md', 'index.md'), '-o', path.join(HTML, 'index.html')], 'pandoc index');

// The EPUB: every chapter in one book, each part opened by a page of its own;
// links between chapters become anchors.
const epubFiles = [];
manifest.chapters.forEach((c, i) => {
    if (c.part) {
        const partFile = path.join(OUT, 'md', `part-${i}.md`);
        fs.writeFileSync(partFile, `# ${c.part} {.unnumbered .part}\n`);
        epubFiles.push(partFile);
    }
    epubFiles.push(path.join(OUT, 'md', c.file));
});
run('pandoc', ['--from', 'markdown', '--to', 'epub3', '--lua-filter', 'book/tools/links.lua',
    '--highlight-style', 'pygments', '--css', 'book/templates/book.css', '--epub-chapter-level=1',
    '--resource-path', HTML, '--metadata', `title=${BOOK_TITLE}`, '--metadata', 'lang=en', '--metadata', 'author=the bitexact authors',
    ...epubFiles,
    '-o', path.join(OUT, 'bitexact.epub')], 'pandoc epub');

// GitHub-flavoured Markdown of every chapter, for reading the book where the
// repository is browsed: snippets, tables and diffs expanded, figures as SVG
// beside them, links between chapters kept as NN-slug.md. `make book` copies
// it to book/rendered/ (committed; CTest's book: rendered is fresh compares).
const GFM = path.join(OUT, 'gfm');
fs.rmSync(GFM, { recursive: true, force: true });
fs.mkdirSync(path.join(GFM, 'figures'), { recursive: true });
for (const f of fs.readdirSync(path.join(HTML, 'figures')).sort()) fs.copyFileSync(path.join(HTML, 'figures', f), path.join(GFM, 'figures', f));
const gfmArgs = ['--from', 'markdown', '--to', 'gfm', '--wrap=none'];
for (const ch of manifest.chapters) {
    const note = `<!-- Generated by make book from book/chapters/${ch.file}: do not edit. -->\n\n`;
    fs.writeFileSync(path.join(GFM, ch.file), note + run('pandoc', [...gfmArgs, path.join(OUT, 'md', ch.file)], `pandoc gfm ${ch.file}`));
}
const gfmIndex = index.join('\n').replace(/\]\(([0-9][0-9]-[a-z0-9-]+)\.html\)/g, ']($1.md)').replace('Also as an EPUB: [bitexact.epub](../bitexact.epub).', 'Also as HTML and an EPUB: `make book` writes them to `book/out/`.');
fs.writeFileSync(path.join(OUT, 'md', 'gfm-index.md'), gfmIndex);
fs.writeFileSync(path.join(GFM, 'README.md'), '<!-- Generated by make book: do not edit. -->\n\n' + run('pandoc', [...gfmArgs, path.join(OUT, 'md', 'gfm-index.md')], 'pandoc gfm index'));

console.log(`book: ${manifest.chapters.filter((c) => c.part).length} parts, ${manifest.chapters.length} chapter page(s) + contents in ${path.relative(ROOT, HTML)}/, EPUB ${path.relative(ROOT, path.join(OUT, 'bitexact.epub'))}${manifest.draft ? ' (DRAFT)' : ''}`);
