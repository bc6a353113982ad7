#!/usr/bin/env node
// verify.mjs: check that the reference tokenizer loads tokenizer.json and tokenises like
// sentencepiece on a sample.
//
//   node assets/recipe/tokenizer/verify.mjs assets/tokenizer/tokenizer.json SPM_IDS.jsonl
//
// SPM_IDS.jsonl comes from spm_ids.py. Texts are compared as sentencepiece sees them:
// sentencepiece trims leading/trailing whitespace and the reference does not strip a leading
// space the same way, so the sample holds ordinary texts (our corpus lines). Exits 1 on any
// difference other than an equal-score tie.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeTools = process.env.NODE_TOOLS ? path.resolve(process.env.NODE_TOOLS) : path.resolve(here, '../../../common/node');
const require = createRequire(path.join(nodeTools, 'package.json'));
const { Tokenizer } = require('@anush008/tokenizers');

const tok = Tokenizer.fromFile(process.argv[2]);
// Scores, to tell a real difference from a tie: two segmentations with the same total score,
// which sentencepiece and the reference break differently (sentencepiece may take "xx"+"x"
// where the reference takes "x"+"xx").
const scores = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')).model.vocab.map((v) => v[1]);
const total = (ids) => ids.reduce((a, id) => a + scores[id], 0);
const rows = fs.readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
let bad = 0, ties = 0, ntok = 0;
for (let i = 0; i < rows.length; i += 512) {
  const chunk = rows.slice(i, i + 512);
  const encs = await tok.encodeBatch(chunk.map((r) => r.text));
  chunk.forEach((r, j) => {
    const ids = encs[j].getIds().slice(1, -1);
    ntok += ids.length;
    if (ids.join(',') !== r.ids.join(',')) {
      if (ids.length === r.ids.length && Math.abs(total(ids) - total(r.ids)) < 1e-9) { ties++; return; }
      if (bad++ < 5) console.error('DIFF', JSON.stringify(r.text), '\n  spm', r.ids.join(' '), '\n  ref', ids.join(' '));
    }
  });
}
console.log(`vocab ${tok.getVocabSize(true)}; ${rows.length} texts, ${ntok} tokens, ${bad} differ, ${ties} equal-score ties broken differently`);
process.exit(bad ? 1 : 0);
