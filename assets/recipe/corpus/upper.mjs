#!/usr/bin/env node
// upper.mjs: labelled texts again, upper-cased, for a model that must find a name in a shouted text.
//
//   node assets/recipe/corpus/upper.mjs --in A.jsonl[,B.jsonl...] --out OUT/upper-X.jsonl [--share 0.25]
//
// The tokenizer's vocabulary was learned from ordinary text, so "EMILY CLARKE" reaches the model as
// short pieces it seldom saw beside a label, and an upper-case help page as pieces that look like
// the start of a name. Each text written here is a text of the inputs (every one, or a share picked
// by a hash of the text, so the choice does not depend on the order of the files) with every letter
// upper-cased as the service's readers would write it: String.prototype.toUpperCase, Unicode's
// unconditional mappings, no locale. Some letters grow ("ß" -> "SS", "ŉ" -> "ʼN"), so each entity's
// span is carried over code point by code point: a span covers exactly the upper-case form of the
// characters it covered. The kind gets the prefix "upper-", the labels stay as they were.
//
// Deterministic: no clock, no Math.random.
import fs from 'node:fs';
import { createHash } from 'node:crypto';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

// Upper-cases a text and returns the code-point offset in the new text of every old offset
// (0..n inclusive), so that an old span [s, e) becomes [at[s], at[e]).
export function upperWithOffsets(text) {
  const chars = Array.from(text);
  const at = new Array(chars.length + 1);
  let out = '';
  let pos = 0;
  for (let i = 0; i < chars.length; i++) {
    at[i] = pos;
    const u = chars[i].toUpperCase();
    out += u;
    pos += Array.from(u).length;
  }
  at[chars.length] = pos;
  return { text: out, at };
}

export function upperRow(row) {
  const { text, at } = upperWithOffsets(row.text);
  return {
    ...row,
    text,
    kind: `upper-${row.kind ?? 'text'}`,
    entities: (row.entities ?? []).map((e) => ({ ...e, start: at[e.start], end: at[e.end] })),
  };
}

// A text is picked when the first 8 hex digits of its sha256 fall under the share.
function picked(text, share) {
  if (share >= 1) return true;
  const h = parseInt(createHash('sha256').update(text).digest('hex').slice(0, 8), 16);
  return h / 0x100000000 < share;
}

function main() {
  const inputs = arg('in', '').split(',').filter(Boolean);
  const out = arg('out', null);
  const share = Number(arg('share', '1'));
  if (!inputs.length || !out || !(share > 0 && share <= 1)) {
    console.error('usage: upper.mjs --in A.jsonl[,B.jsonl] --out OUT.jsonl [--share 0..1]');
    process.exit(2);
  }
  const lines = [];
  let read = 0, grown = 0;
  for (const file of inputs) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line);
      read++;
      if (!picked(row.text, share)) continue;
      const up = upperRow(row);
      const before = Array.from(row.text), after = Array.from(up.text);
      if (after.length !== before.length) grown++;
      // A span that is not the upper case of what it covered would teach a wrong label.
      for (let k = 0; k < up.entities.length; k++) {
        const e = row.entities[k], u = up.entities[k];
        const was = before.slice(e.start, e.end).join('').toUpperCase();
        if (after.slice(u.start, u.end).join('') !== was) throw new Error(`span moved in "${row.text.slice(0, 60)}"`);
      }
      lines.push(JSON.stringify(up));
    }
  }
  fs.writeFileSync(out, lines.join('\n') + '\n');
  console.log(`upper.mjs: ${lines.length} of ${read} texts upper-cased (${grown} changed length) -> ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
