#!/usr/bin/env node
// `make book-mutant`: shows that the book cannot silently lose a snippet.
//
// Copies the working tree (tracked and untracked, not ignored files) to
// build/book-mutant/, builds the book there once as it is, then deletes one
// snippet marker pair (the `// snippet: NAME` line and its `// end-snippet`) from a
// source file and builds again. Succeeds only if the second build fails with
// "missing snippet 'NAME' in UNIT" in its output and the first did not say so.
//
//   BOOK_MUTANT_SNIPPET=name or unit:name   which marker to delete (default: the
//                                           first marker under stages/, else any)

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEST = path.join(ROOT, 'build', 'book-mutant');
const env = { ...process.env };
delete env.BOOK_ROOT; delete env.BOOK_OUT; delete env.BOOK_ALLOW_MISSING;
const say = (m) => console.log(`book-mutant: ${m}`);

// 1. A copy of the tree.
const files = spawnSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
if (files.status !== 0) { say(`git ls-files failed: ${files.stderr}`); process.exit(1); }
fs.rmSync(DEST, { recursive: true, force: true });
let copied = 0;
for (const f of files.stdout.split('\0').filter(Boolean)) {
    if (f.startsWith('build/') || f.startsWith('book/out/')) continue;
    const src = path.join(ROOT, f);
    if (!fs.existsSync(src) || !fs.statSync(src).isFile()) continue;   // deleted in the work tree
    fs.mkdirSync(path.dirname(path.join(DEST, f)), { recursive: true });
    fs.copyFileSync(src, path.join(DEST, f));
    copied++;
}
say(`copied ${copied} files to ${path.relative(ROOT, DEST)}/`);

// 2. Pick a marker.
const list = spawnSync('node', ['book/tools/snippets.mjs', 'markers'], { cwd: DEST, encoding: 'utf8', env });
const markers = list.stdout.split('\n').filter(Boolean).map((l) => {
    const [unit, name, loc] = l.split('\t');
    const [file, open, close] = loc.split(':');
    return { unit, name, file, open: Number(open), close: Number(close) };
});
if (!markers.length) {
    say('no snippet markers in the sources yet, so there is nothing to delete. The stage');
    say('engineers add them (book/SNIPPETS.md lists the names); until then this demonstration cannot run.');
    process.exit(1);
}
const want = process.env.BOOK_MUTANT_SNIPPET;
const pick = want
    ? markers.find((m) => (want.includes(':') ? `${m.unit}:${m.name}` === want : m.name === want))
    : (markers.find((m) => m.unit.startsWith('stages/')) || markers[0]);
if (!pick) { say(`no marker '${want}' (found: ${markers.map((m) => `${m.unit}:${m.name}`).join(', ')})`); process.exit(1); }
const expected = `missing snippet '${pick.name}' in ${pick.unit}`;

function buildBook(label) {
    const r = spawnSync('make', ['-s', '-f', 'book/book.mk', 'book'], { cwd: DEST, encoding: 'utf8', env });
    const out = `${r.stdout}\n${r.stderr}`;
    say(`${label}: make book exited ${r.status}`);
    return { status: r.status, out };
}

// 3. The unmutated build must not already report it.
const before = buildBook('as it is');
if (before.out.includes(expected)) {
    say(`the unmutated tree already reports "${expected}"; the demonstration proves nothing`);
    process.exit(1);
}

// 4. Delete the marker pair and build again.
const file = path.join(DEST, pick.file);
const lines = fs.readFileSync(file, 'utf8').split('\n');
say(`deleting ${pick.file}:${pick.open} '${lines[pick.open - 1].trim()}' and :${pick.close} '${lines[pick.close - 1].trim()}'`);
const kept = lines.filter((_, i) => i + 1 !== pick.open && i + 1 !== pick.close);
fs.writeFileSync(file, kept.join('\n'));
const after = buildBook('mutated');
const named = after.out.split('\n').filter((l) => l.includes(expected));
if (after.status !== 0 && named.length) {
    for (const l of named) say(`  ${l.trim()}`);
    say(`PASS: deleting the marker of '${pick.name}' (${pick.unit}) makes make book fail naming it`);
    process.exit(0);
}
say(`FAIL: after deleting the marker of '${pick.name}', make book exited ${after.status} and ${named.length ? 'named it' : `did not say "${expected}"`}`);
console.log(after.out.split('\n').slice(-15).join('\n'));
process.exit(1);
