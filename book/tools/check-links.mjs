#!/usr/bin/env node
// Every relative link in the rendered book (book/rendered/*.md) and in the
// top-level and stages READMEs must resolve: the file exists and, when the
// link names an anchor, the file has it (a heading's GitHub slug, or an
// id="..." in its HTML). Links to the web are not followed.
//
//   node book/tools/check-links.mjs           exit 1 on a broken link
//   node book/tools/check-links.mjs --plant   the deliberate break: adds a link
//       to an anchor that no chapter has; exits 1 when it is reported, 0 if not
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rendered = join(root, 'book', 'rendered');
const files = [
  ...readdirSync(rendered).filter((f) => f.endsWith('.md')).map((f) => join(rendered, f)),
  join(root, 'README.md'),
  join(root, 'stages', 'README.md'),
];

// The text outside fenced code blocks (a "# ..." line inside one is not a heading).
function prose(text) {
  let fence = null;
  return text.split('\n').filter((line) => {
    const m = /^\s*(```+|~~~+)/.exec(line);
    if (m) {
      if (!fence) fence = m[1][0];
      else if (m[1][0] === fence) fence = null;
      return false;
    }
    return !fence;
  });
}

// GitHub's heading slugs: lower case, punctuation dropped, spaces to hyphens,
// a repeated slug numbered -1, -2, ...
function anchors(file) {
  const seen = new Map();
  const out = new Set();
  const lines = prose(readFileSync(file, 'utf8'));
  for (const line of lines) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const text = h[1].replace(/<[^>]+>/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''));
      let slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      if (n) slug = `${slug}-${n}`;
      out.add(slug);
    }
    for (const m of line.matchAll(/\bid="([^"]+)"/g)) out.add(m[1]);
    for (const m of line.matchAll(/\{#([\w-]+)[^}]*\}/g)) out.add(m[1]);
  }
  return out;
}

const cache = new Map();
const anchorsOf = (file) => (cache.has(file) ? cache.get(file) : cache.set(file, anchors(file)).get(file));

function links(file) {
  const out = [];
  for (const line of prose(readFileSync(file, 'utf8'))) {
    const text = line.replace(/`[^`]*`/g, '');  // inline code is not a link
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]);
    for (const m of text.matchAll(/\bhref="([^"]+)"/g)) out.push(m[1]);
  }
  return out.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));  // http:, https:, mailto:
}

export function broken(file, target) {
  const [path, anchor] = target.split('#');
  const to = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
  if (!existsSync(to)) return `no file ${relative(root, to)}`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(to).isDirectory() || !to.endsWith('.md')) return null;
  return anchorsOf(to).has(decodeURIComponent(anchor)) ? null : `no anchor #${anchor} in ${relative(root, to)}`;
}

const plant = process.argv.includes('--plant');
const problems = [];
let count = 0;
for (const file of files) {
  const targets = links(file);
  if (plant && file.endsWith('01-introduction.md')) targets.push('04-wasm-simd.md#no-such-anchor');
  for (const target of targets) {
    count++;
    const why = broken(file, target);
    if (why) problems.push(`${relative(root, file)}: (${target}) ${why}`);
  }
}
for (const p of problems) console.log(`links: ${p}`);
console.log(problems.length ? `links: ${problems.length} of ${count} links broken` : `links: ${count} links in ${files.length} files, all resolve`);
process.exit(problems.length ? 1 : 0);
