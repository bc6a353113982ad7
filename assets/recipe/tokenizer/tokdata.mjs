#!/usr/bin/env node
// tokdata.mjs: tokenise the labelled corpus with the REFERENCE tokenizer and turn character
// spans into one BIOES label per token, for the trainer.
//
//   node assets/recipe/tokenizer/tokdata.mjs --tokenizer assets/tokenizer/tokenizer.json \
//        --corpus assets/work/corpus --out assets/work/data
//
// Reads CORPUS/{train,dev,test}.jsonl ({"text","lang","kind","entities":[{start,end,label}]},
// offsets in code points) and writes OUT/{split}.tok.jsonl, one line per text:
//   {"ids":[content ids, no <s>/</s>], "labels":[label index per token], "lang", "kind"}
// plus OUT/{dev,test}.jsonl, copies of the raw texts. --splits a,b reads other files of CORPUS
// (prose.mjs's prose.jsonl: --splits prose).
//
// Labels: 0 = O; entity type t (0-based, order of assets/model/FORMAT.md) has B=1+4t, I=2+4t,
// E=3+4t, S=4+4t. A token belongs to an entity when its offset range shares at least one
// non-whitespace character with the entity's range. A bare "▁" token is always O: its range is
// usually the space before a word, but the one prepended to a text (or to a segment after a
// special token) gets the range of the first character, which may lie inside an entity. A token
// touching two entities goes to the first. An entity's tokens, in order,
// get B I... E, or S when there is only one.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

export const TYPES = ['GIVEN_NAME', 'SURNAME', 'EMAIL', 'PHONE', 'URL', 'IP_ADDRESS', 'CREDIT_CARD', 'BANK_ACCOUNT',
  'ROUTING_NUMBER', 'SSN', 'TAX_ID', 'GOVERNMENT_ID', 'PASSPORT', 'DRIVERS_LICENSE', 'BUILDING_NUMBER', 'STREET_NAME',
  'SECONDARY_ADDRESS', 'CITY', 'STATE', 'ZIP_CODE'];

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeTools = process.env.NODE_TOOLS ? path.resolve(process.env.NODE_TOOLS) : path.resolve(here, '../../../common/node');
const require = createRequire(path.join(nodeTools, 'package.json'));
const { Tokenizer } = require('@anush008/tokenizers');

const isSpace = (c) => /\s/u.test(c);

// The reference reports offsets in Unicode code points (see assets/corpora/README.md), the
// unit of the corpus offsets too; `chars` is Array.from(text), indexed by code point.
export function bioes(text, entities, offsets, ids, bareId) {
  const chars = Array.from(text);
  const n = offsets.length;
  const owner = new Int32Array(n).fill(-1);
  const ents = entities.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || a.end - b.end);
  let first = 0;
  for (let t = 0; t < n; t++) {
    const [s, e] = offsets[t];
    if (e <= s || ids[t] === bareId) continue;
    while (first < ents.length && ents[first].end <= s) first++;
    for (let k = first; k < ents.length && ents[k].start < e; k++) {
      const en = ents[k];
      const lo = Math.max(s, en.start), hi = Math.min(e, en.end);
      let hit = false;
      for (let p = lo; p < hi; p++) if (!isSpace(chars[p])) { hit = true; break; }
      if (hit) { owner[t] = k; break; }
    }
  }
  const labels = new Array(n).fill(0);
  for (let t = 0; t < n; t++) {
    const k = owner[t];
    if (k < 0) continue;
    const type = TYPES.indexOf(ents[k].label);
    if (type < 0) throw new Error('unknown label ' + ents[k].label);
    const prev = t > 0 && owner[t - 1] === k, next = t + 1 < n && owner[t + 1] === k;
    const tag = !prev && !next ? 4 : !prev ? 1 : !next ? 3 : 2;
    labels[t] = tag + 4 * type;
  }
  return labels;
}

function arg(name, dflt) { const i = process.argv.indexOf('--' + name); return i > 0 ? process.argv[i + 1] : dflt; }

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tok = Tokenizer.fromFile(arg('tokenizer', 'assets/tokenizer/tokenizer.json'));
  const bareId = tok.tokenToId('\u2581');
  const corpus = arg('corpus', 'assets/work/corpus');
  const out = arg('out', 'assets/work/data');
  fs.mkdirSync(out, { recursive: true });
  for (const split of arg('splits', 'train,dev,test').split(',')) {
    const t0 = Date.now();
    const rows = fs.readFileSync(path.join(corpus, `${split}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const lines = [];
    let ntok = 0, nent = 0;
    for (let i = 0; i < rows.length; i += 256) {
      const chunk = rows.slice(i, i + 256);
      const encs = await tok.encodeBatch(chunk.map((r) => r.text));
      for (let j = 0; j < chunk.length; j++) {
        const r = chunk[j], enc = encs[j];
        const ids = enc.getIds(), offs = enc.getOffsets();
        // drop <s> and </s> added by the template
        if (ids[0] !== 0 || ids[ids.length - 1] !== 2) throw new Error('expected <s> ... </s>');
        const cids = ids.slice(1, -1), coffs = offs.slice(1, -1);
        const labels = bioes(r.text, r.entities, coffs, cids, bareId);
        ntok += cids.length; nent += labels.filter((l) => l % 4 === 1 || l % 4 === 0 && l > 0).length;
        lines.push(JSON.stringify({ ids: cids, labels, lang: r.lang, kind: r.kind }));
      }
    }
    fs.writeFileSync(path.join(out, `${split}.tok.jsonl`), lines.join('\n') + '\n');
    if (split === 'dev' || split === 'test') fs.copyFileSync(path.join(corpus, `${split}.jsonl`), path.join(out, `${split}.jsonl`));
    console.error(`${split}: ${rows.length} texts, ${ntok} tokens, ${nent} entities (${Date.now() - t0} ms)`);
  }
}
