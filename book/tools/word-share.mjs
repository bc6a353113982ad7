#!/usr/bin/env node
// How much of the rendered book a reader meets as prose, and how much
// generated evidence each chapter leaves open. On book/rendered/*.md:
//   prose      words outside code blocks, tables and <details> blocks
//   open       words of code blocks and tables outside <details> (generated
//              output the reader scrolls past)
//   folded     words inside <details> (listings, diffs, check dumps)
// The book's rule: prose is at least half of all its words, and no chapter
// leaves more than 1,500 words of generated output open.
//
//   node book/tools/word-share.mjs            a table, exit 1 when a rule is broken
//   node book/tools/word-share.mjs --plant    the deliberate break: every <details>
//       read as open; exits 1 when that is reported, 0 if not
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(root, 'book', 'rendered');
const MAX_OPEN = 1500;
const plant = process.argv.includes('--plant');
const words = (s) => (s.replace(/<[^>]+>/g, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'’.,%×-]*/gu) ?? []).length;

export function share(text) {
  const count = { prose: 0, open: 0, folded: 0 };
  let fence = null, details = 0;
  for (const line of text.split('\n')) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (!plant && /^\s*<details>/.test(line)) { details++; continue; }
    if (!plant && /^\s*<\/details>/.test(line)) { details = Math.max(0, details - 1); continue; }
    const where = details ? 'folded' : null;
    if (fence) {
      if (f && f[1][0] === fence) fence = null;
      count[where ?? 'open'] += words(line);
      continue;
    }
    if (f) { fence = f[1][0]; continue; }
    if (/^\s*\|/.test(line)) { count[where ?? 'open'] += words(line); continue; }
    if (/^\s*<summary>/.test(line)) { count.prose += words(line); continue; }
    count[where ?? 'prose'] += words(line);
  }
  return count;
}

const rows = readdirSync(dir).filter((f) => /^\d\d-.*\.md$/.test(f)).sort()
  .map((f) => ({ file: f, ...share(readFileSync(join(dir, f), 'utf8')) }));
const total = rows.reduce((t, r) => ({ prose: t.prose + r.prose, open: t.open + r.open, folded: t.folded + r.folded }),
                          { prose: 0, open: 0, folded: 0 });
const all = total.prose + total.open + total.folded;
console.log('| chapter | prose | open evidence | folded |\n|---|--:|--:|--:|');
for (const r of rows) console.log(`| ${r.file} | ${r.prose} | ${r.open}${r.open > MAX_OPEN ? ' (over)' : ''} | ${r.folded} |`);
console.log(`| all | ${total.prose} | ${total.open} | ${total.folded} |`);
const problems = [];
if (total.prose * 2 < all) problems.push(`prose is ${(100 * total.prose / all).toFixed(1)}% of the book's ${all} words (at least half)`);
for (const r of rows) if (r.open > MAX_OPEN) problems.push(`${r.file}: ${r.open} words of generated output open (at most ${MAX_OPEN})`);
for (const p of problems) console.log(`word-share: ${p}`);
console.log(problems.length ? `word-share: ${problems.length} rule(s) broken` : `word-share: prose ${(100 * total.prose / all).toFixed(1)}% of ${all} words; no chapter over ${MAX_OPEN} open`);
process.exit(problems.length ? 1 : 0);
