#!/usr/bin/env node
// numbers.mjs: real prose full of ordinary numbers, in our six languages, split in two halves.
//
//   node assets/recipe/corpus/numbers.mjs --root assets/work/debs/root --out assets/work/corpus
//
// Source: two translated manuals that nothing else in the recipe reads, unpacked from their
// Debian packages (`make numbers` downloads and unpacks them; nothing is installed):
//   - LibreOffice's help (libreoffice-help-{en-us,de,fr,es,it,nl}): spreadsheet functions with
//     their arguments and results, percentages, prices, dates, times, measurements, menu paths;
//   - the Debian Administrator's Handbook (debian-handbook): versions, sizes, ports, section
//     numbers, release dates.
// Only paragraphs with a digit in them are kept, as they are written there: no number is made up.
//
// The halves are cut by document, not by paragraph: a help page or a handbook chapter goes
// wholly to one half, in every language at once (its path without the language), so a
// translation of a held-out page is never trained on.
//   OUT/numbers.jsonl          the training half: every text as it is (all O), and for a third of
//                              them a copy with PII written into its sentences (prose.mjs's entity
//                              clusters, wrapped in brackets, quotes or punctuation now and then)
//   OUT/numbers-heldout.jsonl  the held-out half: NUMBERS_PER_LANG texts per language, never
//                              trained on, no PII. Each row lists its numbers and their kinds
//                              (`numbers`: [{start, end, kind}], code points) so spurious entities
//                              can be counted per kind of number (service_eval.mjs).
//
// Paragraphs with an e-mail address, a URL or an IP address are left out (PII types the model is
// right to mark), and so are paragraphs that name a person: a capitalised given name from faker's
// lists followed by another capitalised word ("Raphaël Hertzog"); the held-out half also leaves out
// paragraphs naming a city or state of those lists ("Montpellier": a CITY, not a false positive). The training half also leaves out
// any paragraph with a capitalised name-list word inside a sentence (prose.mjs's rule: a name must
// not be taught as O). The held-out half keeps those: ordinary words that are also names in some
// language ("Rose", "Page", "van") are part of what it measures.
//
// Deterministic: no clock, no Math.random; files are read in sorted order.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import * as V from './values.mjs';
import { FAKERS, LANGS, arg, clustersByLanguage, contextWords, listFiles, decodeXml, insertAtWords, languageOf, mentionsName, spread,
  withContext } from './prose.mjs';

export const NUMBERS_PER_LANG = 150;
const MIN_WORDS = 30, MAX_WORDS = 160;

const squash = (s) => s.replace(/\s+/g, ' ').trim();
const words = (s) => s.split(' ').filter(Boolean);
const cpLen = (s) => [...s].length;
export const hasContactData = (p) => /@|:\/\/|www\.|\b\d{1,3}(\.\d{1,3}){3}\b|\b[0-9a-f]{1,4}(:[0-9a-f]{0,4}){3,7}\b/i.test(p);

// A paragraph of prose with a number in it, not a formula, a command or a table row.
export function numberProse(p) {
  const w = words(p);
  if (w.length < 5 || w.length > MAX_WORDS || !/\d/.test(p)) return false;
  if (/[\\<>{}|`$]|\t|=\s*[A-Z]+\(|^[-*•]/.test(p)) return false;
  const nonSpace = p.replace(/\s/g, '');
  const letters = (nonSpace.match(/\p{L}/gu) || []).length;
  return letters / nonSpace.length >= 0.55 && /[.!?:;)»"]$/.test(p);
}

// Words of faker's lists for our locales (one-word entries only), by what they name.
function wordList(pick) {
  const set = new Set();
  const add = (v) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') Object.values(v).forEach(add);
    else if (typeof v === 'string' && /^\p{Lu}[\p{L}'’-]+$/u.test(v)) set.add(v);
  };
  for (const f of Object.values(FAKERS)) add(pick(f.rawDefinitions));
  return set;
}
let GIVEN = null, CITIES = null;
// A person: a given name, then another capitalised word.
export function namesPerson(p) {
  GIVEN ??= wordList((d) => d.person?.first_name);
  for (const m of p.matchAll(/(\p{Lu}[\p{L}'’-]+)\s+(\p{Lu}[\p{L}'’-]+)/gu)) if (GIVEN.has(m[1])) return true;
  return false;
}
// A place: a city or state of the lists ("Montpellier", "Saint-Étienne"), which the model is right to mark.
export function namesPlace(p) {
  CITIES ??= wordList((d) => [d.location?.city_name, d.location?.state]);
  for (const m of p.matchAll(/\p{Lu}[\p{L}'’-]+/gu)) if (CITIES.has(m[0])) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// Sources: each yields {lang, doc, paragraphs}, doc being the document's path without its language.
const stripTags = (s) => squash(decodeXml(s.replace(/<[^>]*>/g, ' '))).replace(/\s+([.,;:!?)])/g, '$1').replace(/\(\s+/g, '(');

const HELP_LANG = { en: 'en-US', de: 'de', fr: 'fr', es: 'es', it: 'it', nl: 'nl' };
export function libreofficeDocs(root, lang) {
  const dir = path.join(root, 'usr/share/libreoffice/help', HELP_LANG[lang]);
  return listFiles(dir, (n) => n.endsWith('.html')).map((f) => {
    const src = fs.readFileSync(f, 'utf8');
    const paragraphs = [...src.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)]
      .filter((m) => !/class="(code|bascode|example|howtoget|related)"/.test(m[1]))
      .map((m) => stripTags(m[2]));
    return { lang, source: 'libreoffice-help', doc: 'lo:' + path.relative(dir, f), paragraphs };
  });
}
const HANDBOOK_LANG = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL' };
export function handbookDocs(root, lang) {
  const dir = path.join(root, 'usr/share/doc/debian-handbook/html', HANDBOOK_LANG[lang]);
  return listFiles(dir, (n) => n.endsWith('.html')).map((f) => {
    const src = fs.readFileSync(f, 'utf8').replace(/<pre\b[\s\S]*?<\/pre>/g, ' ');
    const paragraphs = [...src.matchAll(/<div class="para">([\s\S]*?)<\/div>/g)].map((m) => stripTags(m[1]));
    return { lang, source: 'debian-handbook', doc: 'hb:' + path.relative(dir, f), paragraphs };
  });
}

// Which half a document belongs to: the same in every language.
export const heldOutDoc = (doc) => createHash('sha256').update(doc).digest()[0] % 2 === 1;

// ---------------------------------------------------------------------------------------
// The kinds of number, for the report: each run of digits (with its inner separators) gets the
// first kind whose pattern matches it in its context. Patterns are about the number's form and
// its neighbours, never about a particular text.
const UNIT = String.raw`(?:%|‰|°|€|\$|£|[kKMGT]i?B|[kKMGT]?bit/?s?|bytes?|octets?|Bytes?|[kMG]?Hz|px|pt|dpi|ppp|cm|mm|km|m²|m|kg|g|ml|cl|l|ms|s|sec|min|h|Std|ore|uur|inch(?:es)?|pouces?|Zoll|pulgadas?|pollici|duim|x\d+)`;
const CURRENCY = /^(?:€|\$|£|EUR|USD|GBP|CHF|euros?|dollars?|Euro|Dollar)\b/u;
const MONTHS = new Set(LANGS.flatMap((l) => contextWords(l).time.map((w) => w.toLowerCase().replace(/\.$/, ''))));
const SECTION_WORDS = /(?:section|chapter|chapitre|Abschnitt|Kapitel|sección|capítulo|sezione|capitolo|sectie|hoofdstuk|paragraaf|page|Seite|página|pagina|step|étape|Schritt|paso|passo|stap|item|line|ligne|Zeile|línea|riga|regel|RFC|ISO|bug|issue|ticket|#)\s*$/iu;
const VERSION_WORDS = /(?:version|Version|versión|versione|versie|release|LibreOffice|Debian|Linux|Python|Perl|PHP|GNOME|KDE|Windows|Firefox|Java|Squeeze|Wheezy|Jessie|Stretch|Buster|Bullseye|Bookworm|kernel|Kernel|noyau|núcleo|v)\s*$/u;

export function numberKinds(text) {
  const out = [];
  const cps = [...text];
  const s = cps.join('');
  for (const m of s.matchAll(/\d(?:[\d.,:/'’-]*\d)?/g)) {
    const start = cpLen(s.slice(0, m.index)), end = start + cpLen(m[0]);
    const before = s.slice(Math.max(0, m.index - 24), m.index);
    const after = s.slice(m.index + m[0].length, m.index + m[0].length + 16);
    const v = m[0];
    let kind;
    if (/^\s?(?:%|‰)/.test(after) || /(?:percent|pour ?cent|Prozent|por ?ciento|per ?cento|procent)/i.test(after.slice(0, 12))) kind = 'percentage';
    else if (/(?:€|\$|£)\s?$/.test(before) || CURRENCY.test(after.trimStart())) kind = 'price';
    else if (/^\d{1,2}:\d{2}(?::\d{2})?$/.test(v)) kind = 'time';
    else if (/^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/.test(v) || MONTHS.has((after.trimStart().match(/^\p{L}+/u)?.[0] ?? '').toLowerCase())
      || MONTHS.has((before.trimEnd().match(/\p{L}+$/u)?.[0] ?? '').toLowerCase())) kind = 'date';
    else if (VERSION_WORDS.test(before) || /^\d+\.\d+\.\d+/.test(v)) kind = 'version';
    else if (SECTION_WORDS.test(before) || /^\d+(?:\.\d+){1,}$/.test(v) && /\p{Lu}/u.test(before.slice(-12))) kind = 'section-or-id';
    else if (new RegExp('^\\s?' + UNIT + '(?![\\p{L}\\d])', 'u').test(after)) kind = 'measurement';
    else if (/^(?:1[5-9]|20)\d\d$/.test(v)) kind = 'year';
    else if (/\p{L}$/u.test(before) || /^\p{L}/u.test(after)) kind = 'code';    // B7, A1:C5, x64
    else if (/[.,]/.test(v)) kind = 'decimal';
    else kind = 'integer';
    out.push({ start, end, kind });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// PII written into a training text: entity clusters of the same language, sometimes set in
// brackets or quotes or followed by punctuation, so the model learns where an entity ends.
function wrapped(r, piece) {
  const w = r.wpick([[8, ['', '']], [2, ['(', ')']], [1, ['[', ']']], [1, ['"', '"']], [1, ['«', '»']], [1, ['„', '“']],
    [2, ['', ',']], [1, ['', '.']], [1, ['', ';']], [1, ['', ':']], [1, ['(', '),']], [1, ['', ')']]]);
  return { text: w[0] + piece.text + w[1], entities: piece.entities.map((e) => ({ ...e, start: e.start + cpLen(w[0]), end: e.end + cpLen(w[0]) })) };
}
// `text` with one to three of `clusters` (one language's) written in at word starts, half of them
// with an ordinary word beside them.
export function writePii(r, cw, clusters, text) {
  const pieces = Array.from({ length: r.int(1, 3) }, () => {
    const piece = r.pick(clusters);
    return wrapped(r, r.chance(0.5) ? withContext(r, cw, piece) : piece);
  });
  return insertAtWords(r, text, pieces);
}

// Neighbouring paragraphs of one document make one text of MIN_WORDS to about MAX_WORDS words.
export function textsOf(r, docs, keep) {
  const texts = [];
  for (const d of docs) {
    let buf = [], n = 0;
    const target = r.int(MIN_WORDS + 10, MAX_WORDS);
    const flush = () => { if (n >= MIN_WORDS) texts.push({ text: buf.join(' '), lang: d.lang, source: d.source, doc: d.doc }); buf = []; n = 0; };
    for (const p of d.paragraphs) {
      if (!keep(p, d.lang)) { flush(); continue; }
      const w = words(p).length;
      if (n + w > MAX_WORDS) flush();
      buf.push(p); n += w;
      if (n >= target) flush();
    }
    flush();
  }
  return texts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = arg('root', 'assets/work/debs/root');
  const out = arg('out', 'assets/work/corpus');
  if (!fs.existsSync(path.join(root, 'usr/share/libreoffice/help'))) {
    console.error(`numbers: ${root} holds no unpacked libreoffice-help packages: make numbers downloads them`);
    process.exit(1);
  }
  fs.mkdirSync(out, { recursive: true });
  const r = new V.Rng(5151);
  const clusters = clustersByLanguage(55, 12000);
  const train = [], held = [], stats = {};
  for (const lang of LANGS) {
    const seen = new Set();
    const base = (p) => {
      if (seen.has(p) || !numberProse(p) || hasContactData(p) || languageOf(p) !== lang || namesPerson(p)) return false;
      seen.add(p);
      return true;
    };
    const docs = [...libreofficeDocs(root, lang), ...handbookDocs(root, lang)];
    // Text lengths come from generators of their own, so the halves stay the same texts whatever
    // the PII writing below draws.
    const trainTexts = textsOf(new V.Rng(6100 + LANGS.indexOf(lang)), docs.filter((d) => !heldOutDoc(d.doc)), (p) => base(p) && !mentionsName(p));
    const heldTexts = textsOf(new V.Rng(6200 + LANGS.indexOf(lang)), docs.filter((d) => heldOutDoc(d.doc)), (p) => base(p) && !namesPlace(p));
    // The held-out half: NUMBERS_PER_LANG texts spread over the sorted documents, each source
    // in proportion to what it offers.
    const picked = spread(heldTexts, NUMBERS_PER_LANG);
    for (const t of picked) held.push({ ...t, kind: 'numbers-heldout', entities: [], numbers: numberKinds(t.text) });
    const cw = contextWords(lang);
    for (const t of trainTexts) {
      train.push({ text: t.text, lang, kind: 'numbers-plain', source: t.source, doc: t.doc, entities: [] });
      if (r.chance(1 / 3) && clusters[lang].length) {
        const row = writePii(r, cw, clusters[lang], t.text);
        train.push({ text: row.text, lang, kind: 'numbers-pii', source: t.source, doc: t.doc, entities: row.entities });
      }
    }
    stats[lang] = { train_texts: trainTexts.length, heldout_candidates: heldTexts.length, heldout: picked.length,
      heldout_words: picked.reduce((n, t) => n + words(t.text).length, 0) };
  }
  fs.writeFileSync(path.join(out, 'numbers.jsonl'), train.map((x) => JSON.stringify(x)).join('\n') + '\n');
  fs.writeFileSync(path.join(out, 'numbers-heldout.jsonl'), held.map((x) => JSON.stringify(x)).join('\n') + '\n');
  for (const [l, s] of Object.entries(stats)) console.error(`${l}: ${JSON.stringify(s)}`);
  const kinds = {};
  for (const t of held) for (const n of t.numbers) kinds[n.kind] = (kinds[n.kind] ?? 0) + 1;
  console.error(`numbers.jsonl: ${train.length} texts; numbers-heldout.jsonl: ${held.length} texts; numbers by kind ${JSON.stringify(kinds)}`);
}
