#!/usr/bin/env node
// help.mjs: software help without numbers, in our six languages, for training only.
//
//   node assets/recipe/corpus/help.mjs --root assets/work/debs/root --out assets/work/corpus
//
// Help pages name the parts of a program with capitalised words in the middle of a sentence
// ("click Trash", "open the Captions tab", "choose Accounts"). In German every noun is capitalised
// anyway; in the other five languages such a word looks like a name to a model that has learnt
// names from templates, and held-out help is where the model's spurious entities are.
//
// Source: the training half of numbers.mjs's two manuals (LibreOffice's help and the Debian
// Administrator's Handbook, halved by document with heldOutDoc, so no page of the held-out
// number-heavy set, in any language, is read here). numbers.mjs keeps the paragraphs with a digit;
// this file keeps the others: prose paragraphs (looksLikeProse) with no digit, in the language they
// are filed under, naming no person and no name-list word inside a sentence (the rule that keeps a
// real name from being taught as O). GNOME's help, the held-out prose, is not read.
//
//   OUT/help.jsonl  HELP_PER_LANG texts per language, spread over the sorted documents: each as
//                   written (kind help-plain, all O), and for a third of them a copy with PII
//                   written into its sentences (help-pii), as numbers.mjs writes it.
//
// Deterministic: no clock, no Math.random; files are read in sorted order.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import * as V from './values.mjs';
import { LANGS, arg, clustersByLanguage, contextWords, languageOf, looksLikeProse, mentionsName, spread } from './prose.mjs';
import { handbookDocs, hasContactData, heldOutDoc, libreofficeDocs, namesPerson, textsOf, writePii } from './numbers.mjs';

export const HELP_PER_LANG = 800;

// A paragraph this file may train on, in language `lang`.
export function helpProse(p, lang) {
  return looksLikeProse(p) && !/\d/.test(p) && !hasContactData(p) && languageOf(p) === lang && !namesPerson(p) && !mentionsName(p);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = arg('root', 'assets/work/debs/root');
  const out = arg('out', 'assets/work/corpus');
  if (!fs.existsSync(path.join(root, 'usr/share/libreoffice/help'))) {
    console.error(`help: ${root} holds no unpacked libreoffice-help packages: make numbers downloads them`);
    process.exit(1);
  }
  fs.mkdirSync(out, { recursive: true });
  const r = new V.Rng(7171);
  const clusters = clustersByLanguage(77, 12000);
  const rows = [], stats = {};
  for (const lang of LANGS) {
    const seen = new Set();
    const keep = (p) => !seen.has(p) && helpProse(p, lang) && seen.add(p);
    const docs = [...libreofficeDocs(root, lang), ...handbookDocs(root, lang)].filter((d) => !heldOutDoc(d.doc));
    const all = textsOf(new V.Rng(7200 + LANGS.indexOf(lang)), docs, keep);
    const picked = spread(all, HELP_PER_LANG);
    const cw = contextWords(lang);
    let pii = 0;
    for (const t of picked) {
      rows.push({ text: t.text, lang, kind: 'help-plain', source: t.source, doc: t.doc, entities: [] });
      if (r.chance(1 / 3) && clusters[lang].length) {
        const row = writePii(r, cw, clusters[lang], t.text);
        rows.push({ text: row.text, lang, kind: 'help-pii', source: t.source, doc: t.doc, entities: row.entities });
        pii++;
      }
    }
    stats[lang] = { candidates: all.length, plain: picked.length, with_pii: pii };
  }
  fs.writeFileSync(path.join(out, 'help.jsonl'), rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
  for (const [l, s] of Object.entries(stats)) console.error(`${l}: ${JSON.stringify(s)}`);
  console.error(`help.jsonl: ${rows.length} texts`);
}
