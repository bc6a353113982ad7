#!/usr/bin/env node
// Opens the built book (book/out/html/) in headless Debian Chromium and checks that
// every page renders: each chapter has its title, its figures (SVG actually loaded,
// non-zero size) and its generated tables, the chapter navigation is there, and
// every internal link points at a page and an anchor that exist. Saves a screenshot
// to book/out/screenshot.png.
//
// Talks to Chromium through lib/chromium.mjs (DevTools protocol over a pipe).
//
//   node tests/integration/book_chromium.mjs [--build] [--allow-draft]
//     --build        run `make -f book/book.mk book` first
//     --allow-draft  accept a draft build (BOOK_ALLOW_MISSING=1); otherwise a draft fails
// Exit 0 only if every check passed; the last line is "N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from './lib/chromium.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'book', 'out');
const HTML = path.join(OUT, 'html');
const args = process.argv.slice(2);

let passed = 0, failed = 0;
function ok(cond, what) {
    if (cond) passed++; else { failed++; console.log(`FAIL: ${what}`); }
    return cond;
}
function finish(code) {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(code ?? (failed ? 1 : 0));
}

if (args.includes('--build')) {
    // BOOK_SYNC_RENDERED=0: the committed book/rendered/ is compared with this
    // build (book: rendered is fresh), never overwritten by it.
    const r = spawnSync('make', ['-f', 'book/book.mk', 'book', 'BOOK_SYNC_RENDERED=0'], { cwd: ROOT, stdio: 'inherit' });
    if (!ok(r.status === 0, 'make book succeeded')) finish(1);
}
const manifestPath = path.join(OUT, 'manifest.json');
if (!ok(fs.existsSync(manifestPath) && fs.existsSync(path.join(HTML, 'index.html')), `built book at ${path.relative(ROOT, HTML)} (run make book first)`)) finish(1);
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
if (manifest.draft && !args.includes('--allow-draft')) {
    ok(false, `the built book is a draft (${manifest.missing.length} placeholders); rebuild without BOOK_ALLOW_MISSING or pass --allow-draft`);
}

{   // The EPUB: a zip whose first entry is the uncompressed `mimetype`.
    const epub = path.join(OUT, 'bitexact.epub');
    const head = fs.existsSync(epub) ? fs.readFileSync(epub).subarray(0, 58).toString('latin1') : '';
    ok(head.startsWith('PK') && head.includes('mimetypeapplication/epub+zip'), 'book/out/bitexact.epub is an EPUB');
}

const chrome = launchChromium();
const guard = setTimeout(() => { console.log('FAIL: overall timeout (120 s)'); failed++; chrome.close().then(() => finish(1)); }, 120000);

// What a page looks like from inside: returned as JSON by Runtime.evaluate.
const PROBE = `(() => {
  const abs = (a) => a.getAttribute('href');
  return JSON.stringify({
    title: document.title,
    h1: [...document.querySelectorAll('main h1')].map((h) => h.textContent.trim()),
    ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
    nav: [...document.querySelectorAll('nav.book-nav.top a')].map((a) => ({ cls: a.className, href: abs(a) })),
    links: [...document.querySelectorAll('a[href]')].map(abs),
    contents: [...document.querySelectorAll('.contents-list a[href]')].map(abs),
    imgs: [...document.querySelectorAll('img')].map((i) => ({ src: i.getAttribute('src'), complete: i.complete, w: i.naturalWidth, h: i.naturalHeight, shown: i.getBoundingClientRect().width })),
    // One per {{table}} directive that rendered at least one table (a directive may print several).
    tables: [...document.querySelectorAll('.results-table')].filter((d) => d.querySelector('table')).length,
    // One per {{table}} directive that prints a line instead (a chapter's verdict): text, no table.
    lines: [...document.querySelectorAll('.results-table')].filter((d) => !d.querySelector('table') && d.textContent.trim().length > 40).length,
    checks: document.querySelectorAll('.check pre').length,
    snippets: document.querySelectorAll('.snippet pre').length,
    diffs: document.querySelectorAll('div.diff pre.diff').length,
    missing: document.querySelectorAll('.missing').length,
    textLength: document.body.innerText.length,
  });
})()`;

async function main() {
    const page = await chrome.newPage({ width: 1100, height: 1400 });
    async function open(file) {
        await page.goto(pathToFileURL(path.join(HTML, file)).href);
        return JSON.parse(await page.evaluate(PROBE));
    }

    const pages = ['index.html', ...manifest.chapters.map((c) => c.html)];
    const seen = new Map();
    for (const file of pages) seen.set(file, await open(file));

    // Contents page: links to every chapter, in order.
    const index = seen.get('index.html');
    const chapterLinks = index.contents;
    ok(JSON.stringify(chapterLinks) === JSON.stringify(manifest.chapters.map((c) => c.html)), 'contents lists every chapter in order');

    for (const ch of manifest.chapters) {
        const p = seen.get(ch.html);
        const where = ch.html;
        const plain = (t) => (t || '').replace(/\s+/g, ' ').replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').trim();
        ok(p.h1.length >= 1 && plain(p.h1[0]) === plain(ch.title), `${where}: renders its title "${ch.title}" (got ${JSON.stringify(p.h1[0])})`);
        ok(p.textLength > 500, `${where}: has body text`);
        // Navigation: contents always, previous/next where they exist.
        const nav = Object.fromEntries(p.nav.map((n) => [n.cls, n.href]));
        ok(nav.contents === 'index.html', `${where}: has a link to the contents`);
        ok((nav.prev || null) === (ch.prev ? `${ch.prev}.html` : null), `${where}: previous link ${nav.prev} (expected ${ch.prev}.html)`);
        ok((nav.next || null) === (ch.next ? `${ch.next}.html` : null), `${where}: next link ${nav.next} (expected ${ch.next}.html)`);
        // Figures: every figure the manifest says the chapter includes, loaded.
        for (const name of ch.figures) {
            const img = p.imgs.find((i) => i.src === `figures/${name}.svg` || i.src === `figures/${name}.png`);
            ok(img && img.complete && img.w > 0 && img.h > 0 && img.shown > 0, `${where}: figure ${name} loaded and shown (${JSON.stringify(img)})`);
        }
        for (const img of p.imgs) ok(img.complete && img.w > 0, `${where}: image ${img.src} loads`);
        ok(p.tables === ch.tables.length, `${where}: ${ch.tables.length} generated table(s) rendered (found ${p.tables})`);
        ok(p.lines === (ch.lines ?? []).length, `${where}: ${(ch.lines ?? []).length} generated line(s) rendered (found ${p.lines})`);
        ok(p.snippets === ch.snippets.length, `${where}: ${ch.snippets.length} snippet(s) rendered as code (found ${p.snippets})`);
        ok(p.diffs === ch.diffs.length, `${where}: ${ch.diffs.length} diff(s) rendered (found ${p.diffs})`);
        ok(p.checks === ch.checks.length, `${where}: ${ch.checks.length} check output(s) rendered (found ${p.checks})`);
        if (!manifest.draft) ok(p.missing === 0, `${where}: no draft placeholders`);
    }

    // Internal links: the page exists and the anchor is an id on it.
    let links = 0;
    for (const [file, p] of seen) {
        for (const href of p.links) {
            if (/^[a-z]+:/i.test(href)) continue;                 // external (none expected)
            const [target, frag] = href.split('#');
            const dest = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
            if (dest.startsWith('../')) {                        // outside html/, e.g. the EPUB
                ok(fs.existsSync(path.join(HTML, dest)), `${file}: link ${href} resolves to a file`);
                continue;
            }
            links++;
            const page = seen.get(dest);
            if (!ok(page || fs.existsSync(path.join(HTML, dest)), `${file}: link ${href} resolves (no ${dest})`)) continue;
            if (frag) ok(page && page.ids.includes(decodeURIComponent(frag)), `${file}: link ${href} finds anchor #${frag} in ${dest}`);
        }
    }
    ok(links > 0, 'found internal links to check');

    // The screenshot: the first stage chapter if there is one (code, figures, tables), else the first chapter.
    const shot = manifest.chapters.find((c) => c.stage) || manifest.chapters[0];
    await open(shot.html);
    await page.screenshot(path.join(OUT, 'screenshot.png'));
    ok(fs.statSync(path.join(OUT, 'screenshot.png')).size > 10000, `screenshot of ${shot.html} saved to book/out/screenshot.png`);
}

main().then(() => { clearTimeout(guard); return chrome.close().then(() => finish()); })
    .catch((e) => { clearTimeout(guard); console.log(`FAIL: ${e.message}`); failed++; return chrome.close().then(() => finish(1)); });
