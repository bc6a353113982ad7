#!/usr/bin/env node
// generate.mjs: the synthetic, multilingual, labelled PII corpus.
//
//   node assets/recipe/corpus/generate.mjs --out assets/work/corpus [--train 40000 --dev 2000 --test 2000]
//
// Writes OUT/{train,dev,test}.jsonl, one JSON object per line:
//   {"text": "...", "lang": "fr", "kind": "letter", "entities": [{"start": 12, "end": 25, "label": "EMAIL"}, ...]}
// Offsets are Unicode code points of `text` (Python string indices; the unit of the reference
// tokenizer's offsets), end exclusive. In JS, index Array.from(text), not the string.
//
// Each split has its own seed; the test split drops any text that also occurs in train.
// Everything is determined by the seeds: running it twice gives identical files.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import * as V from './values.mjs';
import { T } from './templates.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeTools = process.env.NODE_TOOLS ? path.resolve(process.env.NODE_TOOLS) : path.resolve(here, '../../../common/node');
const require = createRequire(path.join(nodeTools, 'package.json'));
const Faker = await import(require.resolve('@faker-js/faker'));

const FAKERS = { en: Faker.fakerEN_US, fr: Faker.fakerFR, de: Faker.fakerDE, es: Faker.fakerES, it: Faker.fakerIT, nl: Faker.fakerNL };
const LANGS = [[25, 'en'], [20, 'fr'], [20, 'de'], [15, 'es'], [15, 'it'], [5, 'nl']];
const KINDS = [[30, 'prose'], [14, 'nopii'], [10, 'letter'], [12, 'ticket'], [10, 'chat'], [11, 'form'], [8, 'log']];

// Short texts of a few words: a bare value, or a value with a label.
const SNIPPETS = {
  any: ['{name}', '{fn}', '{ln}', '{email}', '{phone}', '{addr}', '{iban}', '{card}', '{ip}', '{url}', '{fn} {ln}', '{LN} {fn}',
    '{city}', '{street} {bnum}', '{bnum} {street}', '{zip} {city}', '{ssn}', '{passport}', '{ip6}', '{name} <{email}>', '{email}, {phone}',
    '{order}', '{price}', '{date}', '{version}', '{measure}', '{invoice}', '{tracking}', '{time}', 'ok', 'Thanks!', '{hash}'],
  en: ['Tel: {phone}', 'Email: {email}', 'Call {fn} at {phone}', 'Ship to {addr}', 'Card: {card}', 'SSN {ssn}', 'Contact: {name}'],
  fr: ['Tél. : {phone}', 'Courriel : {email}', 'Appeler {fn} au {phone}', 'Livrer au {addr}', 'Contact : {name}'],
  de: ['Tel.: {phone}', 'E-Mail: {email}', '{fn} anrufen: {phone}', 'Lieferung an {addr}', 'Ansprechpartner: {name}'],
  es: ['Tel.: {phone}', 'Correo: {email}', 'Llamar a {fn} al {phone}', 'Enviar a {addr}', 'Contacto: {name}'],
  it: ['Tel.: {phone}', 'Email: {email}', 'Chiamare {fn} al {phone}', 'Spedire a {addr}', 'Referente: {name}'],
  nl: ['Tel.: {phone}', 'E-mail: {email}', 'Bel {fn} op {phone}', 'Verzenden naar {addr}'],
};

// Capitalised words that are not PII (O): countries and products.
const COUNTRIES = {
  en: ['France', 'Germany', 'Spain', 'Italy', 'the Netherlands', 'Canada', 'Mexico', 'Japan', 'Brazil', 'Ireland'],
  fr: ['France', 'Allemagne', 'Espagne', 'Italie', 'Belgique', 'Suisse', 'Irlande', 'Autriche'],
  de: ['Deutschland', 'Österreich', 'der Schweiz', 'Frankreich', 'Italien', 'Spanien', 'den Niederlanden', 'Polen'],
  es: ['España', 'Francia', 'Alemania', 'Italia', 'Portugal', 'México', 'Argentina', 'Chile'],
  it: ['Italia', 'Francia', 'Germania', 'Spagna', 'Svizzera', 'Austria', 'Grecia', 'Brasile'],
  nl: ['Nederland', 'België', 'Duitsland', 'Frankrijk', 'Spanje', 'Italië'],
};
const PRODUCTS = ['iPhone 15', 'Windows 11', 'Excel', 'PostgreSQL', 'Kubernetes', 'Outlook', 'Chrome', 'Firefox', 'Android 14',
  'Thinkpad X1', 'Galaxy S24', 'Office 365', 'Slack', 'Teams', 'Zoom', 'WordPress', 'Linux', 'macOS Sonoma', 'Docker', 'Jira'];

// ---------------------------------------------------------------------------------------
// A document under construction: text pieces, some of them labelled.
class Doc {
  constructor() { this.text = ''; this.entities = []; }
  put(s) { this.text += s; }
  ent(s, label) {
    if (!s) return;
    const start = this.text.length; this.text += s;
    this.entities.push({ start, end: this.text.length, label });
  }
}

// People and other values that stay fixed within one document.
class Context {
  constructor(r, lang) {
    this.r = r; this.lang = lang; this.f = FAKERS[lang]; this.cache = new Map();
  }
  person(i) {
    const k = 'p' + i;
    if (!this.cache.has(k)) {
      const r = this.r;
      // Mostly local names; some from the other languages (people move).
      const lang = r.chance(0.82) ? this.lang : r.pick(Object.keys(FAKERS));
      const f = FAKERS[lang];
      const sex = r.chance(0.5) ? 'female' : 'male';
      const fn = f.person.firstName(sex).trim(), ln = f.person.lastName(sex).trim();
      const p = { fn, ln };
      p.email = V.email(r, this.f, this.lang, fn, ln);
      p.phone = V.phone(r, this.lang);
      this.cache.set(k, p);
    }
    return this.cache.get(k);
  }
  address(i) {
    const k = 'a' + i;
    if (!this.cache.has(k)) this.cache.set(k, V.addressParts(this.r, this.f, this.lang));
    return this.cache.get(k);
  }
  once(k, fn) { if (!this.cache.has(k)) this.cache.set(k, fn()); return this.cache.get(k); }
}

// A full address with every part labelled, in the country's usual order.
function putAddress(doc, ctx) {
  const r = ctx.r, a = ctx.address(0), L = ctx.lang;
  const withSec = r.chance(0.45), withState = r.chance(L === 'en' ? 0.95 : L === 'es' || L === 'it' ? 0.6 : 0.25);
  const nl = r.chance(0.12) ? '\n' : ', ';
  const S = (s) => doc.put(s);
  const E = (s, l) => doc.ent(s, l);
  switch (L) {
    case 'en':
      E(a.bnum, 'BUILDING_NUMBER'); S(' '); E(a.street, 'STREET_NAME');
      if (withSec) { S(r.pick([', ', ' '])); E(a.sec, 'SECONDARY_ADDRESS'); }
      S(nl); E(a.city, 'CITY');
      if (withState) { S(', '); E(a.state, 'STATE'); S(' '); } else S(' ');
      E(a.zip, 'ZIP_CODE');
      if (r.chance(0.1)) S(', USA');
      break;
    case 'fr':
      E(a.bnum, 'BUILDING_NUMBER'); S(r.pick([' ', ', '])); E(a.street, 'STREET_NAME');
      if (withSec) { S(', '); E(a.sec, 'SECONDARY_ADDRESS'); }
      S(nl); E(a.zip, 'ZIP_CODE'); S(' '); E(r.chance(0.1) ? a.city.toUpperCase() : a.city, 'CITY');
      if (withState) { S(' ('); E(a.state, 'STATE'); S(')'); }
      break;
    case 'de':
      E(a.street, 'STREET_NAME'); S(' '); E(a.bnum, 'BUILDING_NUMBER');
      if (withSec) { S(', '); E(a.sec, 'SECONDARY_ADDRESS'); }
      S(nl); if (r.chance(0.1)) S('D-'); E(a.zip, 'ZIP_CODE'); S(' '); E(a.city, 'CITY');
      if (withState) { S(', '); E(a.state, 'STATE'); }
      break;
    case 'es':
      E(a.street, 'STREET_NAME'); S(r.pick([', ', ' '])); if (r.chance(0.2)) S('nº '); E(a.bnum, 'BUILDING_NUMBER');
      if (withSec) { S(', '); E(a.sec, 'SECONDARY_ADDRESS'); }
      S(nl); E(a.zip, 'ZIP_CODE'); S(' '); E(a.city, 'CITY');
      if (withState) { S(' ('); E(a.state, 'STATE'); S(')'); }
      break;
    case 'it':
      E(a.street, 'STREET_NAME'); S(r.pick([' ', ', '])); E(a.bnum, 'BUILDING_NUMBER');
      if (withSec) { S(', '); E(a.sec, 'SECONDARY_ADDRESS'); }
      S(nl); E(a.zip, 'ZIP_CODE'); S(' '); E(a.city, 'CITY');
      if (withState) { S(' ('); E(a.state, 'STATE'); S(')'); }
      break;
    default: // nl
      E(a.street, 'STREET_NAME'); S(' '); E(a.bnum, 'BUILDING_NUMBER');
      if (withSec) { S(' '); E(a.sec, 'SECONDARY_ADDRESS'); }
      S(nl); E(a.zip, 'ZIP_CODE'); S(' '); E(r.chance(0.2) ? a.city.toUpperCase() : a.city, 'CITY');
      if (withState) { S(', '); E(a.state, 'STATE'); }
  }
}

// Slot table: key -> (doc, ctx) => void.
const person = (i, part) => (doc, ctx) => doc.ent(ctx.person(i)[part], part === 'fn' ? 'GIVEN_NAME' : 'SURNAME');
const fullName = (i) => (doc, ctx) => {
  const p = ctx.person(i);
  doc.ent(p.fn, 'GIVEN_NAME'); doc.put(' '); doc.ent(p.ln, 'SURNAME');
};
const addrPart = (part, label) => (doc, ctx) => doc.ent(ctx.address(0)[part], label);
const ent = (label, fn) => (doc, ctx) => doc.ent(fn(ctx), label);
const O = (kind) => (doc, ctx) => doc.put(V.lookalike(ctx.r, ctx.lang, kind));

const SLOTS = {
  fn: person(0, 'fn'), ln: person(0, 'ln'), name: fullName(0),
  fn2: person(1, 'fn'), ln2: person(1, 'ln'), name2: fullName(1),
  fn3: person(2, 'fn'), ln3: person(2, 'ln'), name3: fullName(2),
  LN: (doc, ctx) => doc.ent(ctx.person(0).ln.toUpperCase(), 'SURNAME'),
  email: ent('EMAIL', (c) => c.person(0).email), email2: ent('EMAIL', (c) => c.person(1).email),
  phone: ent('PHONE', (c) => c.person(0).phone), phone2: ent('PHONE', (c) => c.person(1).phone),
  url: ent('URL', (c) => V.url(c.r, c.f, c.lang)),
  ip: ent('IP_ADDRESS', (c) => V.ip(c.r)), ip4: ent('IP_ADDRESS', (c) => V.ipv4(c.r)), ip6: ent('IP_ADDRESS', (c) => V.ipv6(c.r)),
  card: ent('CREDIT_CARD', (c) => c.once('card', () => V.creditCard(c.r))),
  iban: ent('BANK_ACCOUNT', (c) => c.once('iban', () => V.iban(c.r, c.r.chance(0.8) ? { en: c.r.pick(['GB', 'IE', 'FR', 'DE']), fr: 'FR', de: c.r.pick(['DE', 'DE', 'AT', 'CH']), es: 'ES', it: 'IT', nl: c.r.pick(['NL', 'NL', 'BE']) }[c.lang] : null))),
  acct: ent('BANK_ACCOUNT', (c) => c.lang === 'en' && c.r.chance(0.6) ? V.usAccount(c.r) : V.iban(c.r, null)),
  routing: ent('ROUTING_NUMBER', (c) => V.routing(c.r, c.lang)),
  ssn: ent('SSN', (c) => c.once('ssn', () => V.ssn(c.r, c.lang))),
  tax: ent('TAX_ID', (c) => V.taxId(c.r, c.lang)),
  govid: ent('GOVERNMENT_ID', (c) => V.governmentId(c.r, c.lang)),
  passport: ent('PASSPORT', (c) => V.passport(c.r, c.lang)),
  dl: ent('DRIVERS_LICENSE', (c) => V.driversLicense(c.r, c.lang, c.person(0).ln)),
  addr: putAddress,
  bnum: addrPart('bnum', 'BUILDING_NUMBER'), street: addrPart('street', 'STREET_NAME'), sec: addrPart('sec', 'SECONDARY_ADDRESS'),
  city: addrPart('city', 'CITY'), state: addrPart('state', 'STATE'), zip: addrPart('zip', 'ZIP_CODE'),
};
SLOTS.company = (doc, ctx) => doc.put(ctx.f.company.name());
SLOTS.country = (doc, ctx) => doc.put(ctx.r.pick(COUNTRIES[ctx.lang]));
SLOTS.product = (doc, ctx) => doc.put(ctx.r.pick(PRODUCTS));
for (const k of ['order', 'price', 'date', 'time', 'version', 'measure', 'qty', 'pct', 'year', 'ticket', 'invoice', 'sku', 'hash',
  'tracking', 'port', 'num', 'small', 'dur', 'status', 'room']) SLOTS[k] = O(k);

// Expand one template into doc.
function render(tpl, doc, ctx) {
  const re = /\{([^{}]*)\}/g;
  let last = 0, m;
  while ((m = re.exec(tpl))) {
    doc.put(tpl.slice(last, m.index));
    const key = m[1];
    if (key.startsWith('~')) render(ctx.r.pick(key.slice(1).split('|')), doc, ctx);
    else if (SLOTS[key]) SLOTS[key](doc, ctx);
    else throw new Error(`unknown slot {${key}} in: ${tpl}`);
    last = re.lastIndex;
  }
  doc.put(tpl.slice(last));
}

function makeText(r, seedTag) {
  const lang = r.wpick(LANGS);
  const ctx = new Context(r, lang);
  const doc = new Doc();
  const size = r.wpick([[8, 'snippet'], [34, 'one'], [33, 'few'], [25, 'many']]);
  let kind;
  if (size === 'snippet') {
    kind = 'snippet';
    render(r.chance(0.6) ? r.pick(SNIPPETS.any) : r.pick(SNIPPETS[lang]), doc, ctx);
  } else {
    const n = size === 'one' ? 1 : size === 'few' ? r.int(2, 4) : r.int(5, 14);
    const kinds = [];
    for (let i = 0; i < n; i++) {
      const k = r.wpick(KINDS);
      kinds.push(k);
      if (i > 0) {
        const prev = kinds[i - 1];
        const inline = (k === 'prose' || k === 'nopii') && (prev === 'prose' || prev === 'nopii');
        doc.put(inline ? (r.chance(0.9) ? ' ' : '  ') : r.pick(['\n', '\n\n', '\n\n']));
      }
      // New people now and then in long documents.
      if (i > 0 && r.chance(0.25)) ctx.cache.clear();
      render(r.pick(T[lang][k]), doc, ctx);
    }
    kind = n === 1 ? kinds[0] : 'doc';
  }
  let text = doc.text;
  // A little casing noise (only when it keeps every offset valid).
  const c = r.next();
  if (c < 0.03) { const t = text.toLowerCase(); if (t.length === text.length) text = t; }
  else if (c < 0.045) { const t = text.toUpperCase(); if (t.length === text.length) text = t; }
  return { text, lang, kind, entities: toCodePoints(text, doc.entities) };
}

// Offsets are built as UTF-16 indices (JS strings) and stored as code points, the unit the
// reference tokenizer's offsets and Python strings use. They differ only after an astral
// character (an emoji, say).
function toCodePoints(text, entities) {
  if (!/[\uD800-\uDBFF]/.test(text)) return entities;
  const map = new Int32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) { map[i + 1] = cp; i++; }
    cp++;
  }
  map[text.length] = cp;
  return entities.map((e) => ({ start: map[e.start], end: map[e.end], label: e.label }));
}

function reseedFakers(seed) {
  let i = 0;
  for (const f of Object.values(FAKERS)) f.seed(seed * 1000 + ++i);
}

export function generateSplit(seed, n, exclude) {
  const r = new V.Rng(seed * 2654435761);
  reseedFakers(seed);
  const out = [];
  let guard = 0;
  while (out.length < n && guard++ < n * 3) {
    const t = makeText(r);
    if (exclude && exclude.has(t.text)) continue;
    out.push(t);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : dflt;
}
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = arg('out', 'assets/work/corpus');
  const sizes = { train: +arg('train', 40000), dev: +arg('dev', 2000), test: +arg('test', 2000) };
  const seeds = { train: 11, dev: 22, test: 33 };
  fs.mkdirSync(out, { recursive: true });
  const seen = new Set();
  for (const split of ['train', 'dev', 'test']) {
    const t0 = Date.now();
    const rows = generateSplit(seeds[split], sizes[split], split === 'train' ? null : seen);
    if (split === 'train') for (const x of rows) seen.add(x.text);
    fs.writeFileSync(path.join(out, `${split}.jsonl`), rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const ents = rows.reduce((a, x) => a + x.entities.length, 0);
    const chars = rows.reduce((a, x) => a + x.text.length, 0);
    console.error(`${split}: ${rows.length} texts, ${ents} entities, ${chars} chars (${Date.now() - t0} ms)`);
  }
}
