#!/usr/bin/env node
// book/rendered/: the book as GitHub-flavoured Markdown, committed, so that it
// can be read where the repository is browsed, without a build (render.mjs
// writes it to book/out/gfm/; this keeps the committed copy and checks it).
//
//   gfm.mjs sync            book/out/gfm/ -> book/rendered/ (make book runs it)
//   gfm.mjs check [--built DIR]  build the book into a temporary directory (or
//                           take the one built in DIR) and compare its GFM with
//                           book/rendered/: exit 1, naming the first stale file
//                           and line, when they differ
//   gfm.mjs mutant          the comparison on a copy of book/rendered/ with one
//                           line of one chapter changed: must report it stale
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RENDERED = path.join(ROOT, 'book', 'rendered');

const listFiles = (dir, sub = '') => (fs.existsSync(path.join(dir, sub)) ? fs.readdirSync(path.join(dir, sub), { withFileTypes: true }) : [])
    .flatMap((e) => (e.isDirectory() ? listFiles(dir, path.join(sub, e.name)) : [path.join(sub, e.name)])).sort();

// "" when `have` holds exactly the files of `want`, byte for byte; else why not.
export function compare(want, have) {
    const a = listFiles(want), b = listFiles(have);
    const missing = a.filter((f) => !b.includes(f)), extra = b.filter((f) => !a.includes(f));
    if (missing.length) return `${missing[0]} is missing${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}`;
    if (extra.length) return `${extra[0]} is not in the book any more${extra.length > 1 ? ` (and ${extra.length - 1} more)` : ''}`;
    for (const f of a) {
        const x = fs.readFileSync(path.join(want, f)), y = fs.readFileSync(path.join(have, f));
        if (x.equals(y)) continue;
        const wl = x.toString('utf8').split('\n'), hl = y.toString('utf8').split('\n');
        const at = wl.findIndex((l, i) => l !== hl[i]);
        return `${f} is stale at line ${at + 1}:\n  expected: ${wl[at]?.slice(0, 160)}\n  found:    ${hl[at]?.slice(0, 160)}`;
    }
    return '';
}

function sync(from) {
    if (!fs.existsSync(from)) throw new Error(`${path.relative(ROOT, from)}: no GFM (make book)`);
    fs.rmSync(RENDERED, { recursive: true, force: true });
    fs.cpSync(from, RENDERED, { recursive: true });
}

function build() {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'book-gfm-'));
    for (const tool of ['snippets.mjs', 'render.mjs']) {
        const r = spawnSync(process.execPath, [path.join(ROOT, 'book', 'tools', tool), ...(tool === 'snippets.mjs' ? ['build'] : [])],
                            { cwd: ROOT, env: { ...process.env, BOOK_OUT: out }, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`${tool}: ${(r.stderr || r.stdout).trim().slice(-2000)}`);
    }
    return out;
}

function main([cmd, ...rest]) {
    if (cmd === 'sync') { sync(path.join(ROOT, process.env.BOOK_OUT || 'book/out', 'gfm')); return 0; }
    if (cmd === 'check') {
        // --built DIR: compare the book already built into DIR (CTest: the one
        // book: chromium builds) instead of building it again.
        const builtAt = rest[0] === '--built' ? path.resolve(ROOT, rest[1]) : null;
        const out = builtAt ?? build();
        try {
            const why = compare(path.join(out, 'gfm'), RENDERED);
            if (!why) { console.log('book/rendered/ is the book as make book renders it'); return 0; }
            console.error(`book/rendered/: ${why}\nbook/rendered/ is stale: run make book and commit book/rendered/`);
            return 1;
        } finally { if (!builtAt) fs.rmSync(out, { recursive: true, force: true }); }
    }
    if (cmd === 'mutant') {
        const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'book-gfm-mutant-'));
        try {
            fs.cpSync(RENDERED, copy, { recursive: true });
            const chapter = listFiles(copy).find((f) => /^\d\d-.*\.md$/.test(f));
            const file = path.join(copy, chapter);
            const lines = fs.readFileSync(file, 'utf8').split('\n');
            const at = lines.findIndex((l) => /^[A-Za-z]/.test(l));
            lines[at] = `${lines[at]} (an edit made by hand)`;
            fs.writeFileSync(file, lines.join('\n'));
            const why = compare(RENDERED, copy);
            console.error(why ? `book/rendered/ (mutant): ${why}\nbook/rendered/ is stale` : 'the mutant went unnoticed');
            return why ? 1 : 0;
        } finally { fs.rmSync(copy, { recursive: true, force: true }); }
    }
    console.error('usage: gfm.mjs sync | check | mutant');
    return 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
