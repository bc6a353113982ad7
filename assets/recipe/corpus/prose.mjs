#!/usr/bin/env node
// prose.mjs: real prose from Debian packages, in our six languages.
//
//   node assets/recipe/corpus/prose.mjs --out assets/work/corpus
//
// Writes, in the corpus format of generate.mjs ({"text","lang","kind","entities"}, offsets in
// code points):
//   OUT/prose.jsonl     training texts: translated manual pages, the Debian Reference and the
//                       New Maintainers' Guide, in paragraphs. Some stay as they are (all O); some
//                       get ordinary numbers written in (order numbers, prices, dates, versions...:
//                       still O); some get PII written into their sentences (entity clusters taken
//                       from generate.mjs's texts of the same language, with their labels).
//                       Half of the numbers and PII come with an ordinary word beside them (a
//                       weekday, a month, a country, a role or title: contextWords), all O.
//   OUT/prose-greetings.jsonl  the texts of prose.jsonl that greet a name (greetingPiece), again.
//   OUT/messages.jsonl  short messages built from the same training prose: a greeting and a name
//                       before a sentence or two, or a closing on a name after them, or a whole
//                       name between a preposition and a verb phrase, half the time with a field word
//                       and a value before it and another value after (message(), nameClause()).
//   OUT/records.jsonl   a record's sentence (a field, a value, a whole name, a verb phrase, maybe another
//                       value) alone or beside sentences of the training prose (recordMessage()).
//   OUT/heldout.jsonl   the held-out prose: GNOME's user help (gnome-user-docs), never trained on,
//                       one text per help page, for the false-positive count of `make model-eval`.
//
// Why: the synthetic corpus writes PII into a few hundred templates, so a model trained on it
// alone has seen almost no ordinary sentence and guesses on every word it has not met (the
// eval texts: "wrote", "would", "second" redacted). Real sentences labelled O, and PII inside
// real sentences, teach it what ordinary text looks like.
//
// Training paragraphs that contain a capitalised word that is a given name, surname or city in
// faker's lists for our locales (and is not the first word of a sentence) are left out: most
// are real names (authors, translators), which must not be taught as O. The held-out set has
// no such filter (it is what a user would send); it only leaves out paragraphs with an e-mail
// address, a URL or an IP address, which are PII types the model is right to mark. Both keep
// only paragraphs in the language they are filed under (languageOf: translations are partial).
//
// Deterministic: no clock, no Math.random; the packages' files are read in sorted order.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import zlib from 'node:zlib';
import * as V from './values.mjs';
import { generateSplit } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeTools = process.env.NODE_TOOLS ? path.resolve(process.env.NODE_TOOLS) : path.resolve(here, '../../../common/node');
const require = createRequire(path.join(nodeTools, 'package.json'));
const Faker = require('@faker-js/faker');

export const LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl'];
export const FAKERS = { en: Faker.fakerEN_US, fr: Faker.fakerFR, de: Faker.fakerDE, es: Faker.fakerES, it: Faker.fakerIT, nl: Faker.fakerNL };

// ---------------------------------------------------------------------------------------
// Text clean-up shared by every source.
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
export function decodeXml(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}
const squash = (s) => s.replace(/\s+/g, ' ').trim();
const words = (s) => s.split(' ').filter(Boolean);

// A paragraph of prose rather than code, a table row or a heading.
export function looksLikeProse(p) {
  const w = words(p);
  if (w.length < 6 || w.length > 160) return false;
  if (/[\\<>{}|`$]|\t/.test(p)) return false;
  const nonSpace = p.replace(/\s/g, '');
  const letters = (nonSpace.match(/\p{L}/gu) || []).length;
  return letters / nonSpace.length >= 0.75 && /[.!?:;)»"]$/.test(p);
}
// The language of a paragraph by its commonest short words: translated manual pages and help
// keep untranslated English paragraphs, which must not be counted as another language.
const STOPWORDS = {
  en: 'the and of to is in that it for you with are this be on or not as by can if your',
  de: 'der die das und ist nicht ein eine zu den von mit sich des auf für im dem wird werden oder',
  fr: 'le la les et est des une un du en que pour dans pas sur au qui par ce vous ou avec',
  es: 'el la los las y es de que en un una por para con no se del al lo su como',
  it: 'il la le di che è e per un una non con del della si sono gli dei da al nel',
  nl: 'de het een en van is dat niet op te in voor met zijn als er wordt om bij aan',
};
const STOP = Object.fromEntries(Object.entries(STOPWORDS).map(([l, w]) => [l, new Set(w.split(' '))]));
export function languageOf(p) {
  const counts = Object.fromEntries(LANGS.map((l) => [l, 0]));
  for (const w of p.toLowerCase().split(/[^\p{L}]+/u)) for (const l of LANGS) if (STOP[l].has(w)) counts[l]++;
  const best = LANGS.reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return counts[best] >= 2 ? best : null;
}
const hasContactData = (p) => /@|:\/\/|www\.|\b\d{1,3}(\.\d{1,3}){3}\b/.test(p);

// ---------------------------------------------------------------------------------------
// Sources.
function readMaybeGz(file) {
  const b = fs.readFileSync(file);
  return (file.endsWith('.gz') ? zlib.gunzipSync(b) : b).toString('utf8');
}
// n items spread evenly over a list (the list itself when it is not longer).
export function spread(list, n) {
  if (list.length <= n) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]);
}
export function listFiles(dir, pred) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, pred));
    else if (e.isFile() && pred(e.name)) out.push(p);
  }
  return out;
}

// Sections of a manual page that hold names, addresses, synopses or code, in our languages.
const SKIP_SECTION = new RegExp('^(NAME|NOM|NOMBRE|NOME|NAAM|BEZEICHNUNG|SYNOPSIS|SYNOPSE|ÜBERSICHT|SINOPSIS|SINTASSI|' +
  'SAMENVATTING|OVERZICHT|SEE ALSO|VOIR AUSSI|SIEHE AUCH|VÉASE TAMBIÉN|VEA TAMBIÉN|VEDERE ANCHE|VEDI ANCHE|ZIE OOK|' +
  'EXAMPLES?|EXEMPLES?|BEISPIELE?|EJEMPLOS?|ESEMPI|VOORBEELDEN?|FILES|FICHIERS|DATEIEN|ARCHIVOS|FILE|BESTANDEN)$|' +
  'AUTH?OR|AUTEUR|AUTORE|COPYRIGHT|LICEN|TRAD|ÜBERSETZ|VERTAL|COLOPHON|KOLOPHON|BUG|FEHLER|ERRORES|ERREURS|HISTOR|GESCHICHTE', 'i');

// Roff to paragraphs: requests dropped, font and character escapes resolved, no-fill blocks
// (code) and .TP tags (option names) skipped, sections above skipped.
export function roffParagraphs(src) {
  const out = [];
  let section = '', cur = [], nofill = false, tagNext = false;
  const flush = () => { if (cur.length) out.push(squash(cur.join(' '))); cur = []; };
  const CHARS = { em: '—', en: '–', aq: "'", lq: '“', rq: '”', Fo: '«', Fc: '»', bu: '•', co: '©', dq: '"', oq: '‘', cq: '’', hy: '-', mi: '-', ti: '~', fo: '‹', fc: '›' };
  const inline = (s) => s
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '').replace(/\\[,/&%:]|\\c$/g, '')
    .replace(/\\\(([A-Za-z]{2})|\\\[([A-Za-z]{2})\]/g, (m, a, b) => CHARS[a || b] ?? m)
    .replace(/\\\*\((..)|\\\*(.)/g, (m, a, b) => ({ R: '®', Tm: '™', lq: '“', rq: '”' })[a || b] ?? m)
    .replace(/\\-/g, '-').replace(/\\e/g, '\\\\').replace(/\\ |\\~/g, ' ').replace(/\\\^|\\\|/g, '');
  for (const raw of src.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (/^[.']\s*\\"/.test(line) || /^\\"/.test(line)) continue;
    const m = /^[.']\s*([A-Za-z]+)\s*(.*)$/.exec(line);
    if (m) {
      const [, req, arg] = m;
      if (req === 'SH' || req === 'SS') { flush(); if (req === 'SH') section = squash(arg.replace(/"/g, '')); continue; }
      if (req === 'nf' || req === 'EX') { flush(); nofill = true; continue; }
      if (req === 'fi' || req === 'EE') { nofill = false; continue; }
      if (req === 'TP') { flush(); tagNext = true; continue; }
      if (/^(B|I|BR|RB|IR|RI|BI|IB|SM|SB)$/.test(req) && !SKIP_SECTION.test(section) && !nofill) {
        const parts = [...arg.matchAll(/"([^"]*)"|(\S+)/g)].map((x) => x[1] ?? x[2]);
        const text = req.length === 2 && req !== 'SM' && req !== 'SB' ? parts.join('') : parts.join(' ');
        if (tagNext) { tagNext = false; continue; }
        cur.push(inline(text));
        continue;
      }
      flush();
      continue;
    }
    if (nofill || SKIP_SECTION.test(section)) continue;
    if (tagNext) { tagNext = false; continue; }
    if (!line.trim()) { flush(); continue; }
    cur.push(inline(line));
  }
  flush();
  return out;
}

// HTML (DocBook output) and Mallard XML: the text of each <p>, tags removed.
export function markupParagraphs(src) {
  const body = src.replace(/<info>[\s\S]*?<\/info>/g, '').replace(/<(code|screen|pre|comment|media|title|em class="replaceable")\b[\s\S]*?<\/\1>/g, ' ');
  const out = [];
  for (const m of body.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)) out.push(squash(decodeXml(m[1].replace(/<[^>]*>/g, ''))));
  return out;
}

const MAN_DIRS = { en: '/usr/share/man', de: '/usr/share/man/de', fr: '/usr/share/man/fr', es: '/usr/share/man/es', it: '/usr/share/man/it', nl: '/usr/share/man/nl' };
// English manual pages are many thousand (every installed program); a spread-out sample.
const EN_MAN_PAGES = 2500;

function manFiles(lang) {
  const dir = MAN_DIRS[lang];
  let files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => /^man\d/.test(d))
    .flatMap((d) => listFiles(path.join(dir, d), (n) => /\.\d\w*(\.gz)?$/.test(n))) : [];
  if (lang === 'en') files = spread(files, EN_MAN_PAGES);
  return files;
}

export function trainingParagraphs(lang) {
  const paras = [];
  for (const f of manFiles(lang)) {
    let src;
    try { src = readMaybeGz(f); } catch { continue; }
    if (/^\.so /m.test(src.slice(0, 200))) continue; // a link to another page
    for (const p of roffParagraphs(src)) paras.push({ p, source: 'manpages', file: f });
  }
  for (const f of listFiles('/usr/share/debian-reference', (n) => n.endsWith(`.${lang}.html`))) {
    for (const p of markupParagraphs(fs.readFileSync(f, 'utf8'))) paras.push({ p, source: 'debian-reference', file: f });
  }
  const mg = lang === 'en' ? '/usr/share/doc/maint-guide/html' : `/usr/share/doc/maint-guide-${lang}/html`;
  for (const f of listFiles(mg, (n) => n.endsWith(`.${lang}.html`))) {
    for (const p of markupParagraphs(fs.readFileSync(f, 'utf8'))) paras.push({ p, source: 'maint-guide', file: f });
  }
  return paras;
}

const HELP_DIRS = { en: 'C', de: 'de', fr: 'fr', es: 'es', it: 'it', nl: 'nl' };
export const HELD_OUT_PER_LANG = 100;
export const HELD_OUT_MIN_WORDS = 40;
export const HELD_OUT_MAX_WORDS = 160;

// One held-out text per help page: its first prose paragraphs, HELD_OUT_MIN_WORDS to about
// HELD_OUT_MAX_WORDS words; HELD_OUT_PER_LANG pages per language, spread over the sorted list.
export function heldOutTexts(lang) {
  const files = listFiles(`/usr/share/help/${HELP_DIRS[lang]}/gnome-help`, (n) => n.endsWith('.page'));
  const texts = [];
  for (const f of files) {
    const ps = markupParagraphs(fs.readFileSync(f, 'utf8'))
      .filter((p) => looksLikeProse(p) && !hasContactData(p) && languageOf(p) === lang);
    const picked = [];
    let n = 0;
    for (const p of ps) {
      const w = words(p).length;
      if (n + w > HELD_OUT_MAX_WORDS) break;
      picked.push(p); n += w;
    }
    if (n >= HELD_OUT_MIN_WORDS) texts.push({ text: picked.join(' '), lang, kind: 'heldout', source: `gnome-help/${path.basename(f)}`, entities: [] });
  }
  return spread(texts, HELD_OUT_PER_LANG);
}

// ---------------------------------------------------------------------------------------
// The name filter for training paragraphs.
function nameSet() {
  const set = new Set();
  const add = (v) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') Object.values(v).forEach(add);
    else if (typeof v === 'string' && /^\p{Lu}[\p{L}'’-]+$/u.test(v)) set.add(v);
  };
  for (const f of Object.values(FAKERS)) {
    const d = f.rawDefinitions;
    add(d.person?.first_name); add(d.person?.last_name); add(d.person?.middle_name);
    add(d.location?.city_name); add(d.location?.state);
  }
  return set;
}
const NAMES = nameSet();
const NAMES_FOLDED = new Set([...NAMES].map((n) => n.toLocaleLowerCase()));
// Whether a word, in any case, is a name, city or state of faker's lists ("Raphaël", "paul").
export const isListedName = (w) => NAMES_FOLDED.has(w.toLocaleLowerCase());
// Capitalised words that are not the first of a sentence.
export function mentionsName(p) {
  const re = /(^|[\s(«"“„‘'])(\p{Lu}[\p{L}'’-]+)/gu;
  for (const m of p.matchAll(re)) {
    const before = p.slice(0, m.index + m[1].length).trimEnd();
    const sentenceStart = before === '' || /[.!?:;«"“„(]$/.test(before);
    if (!sentenceStart && NAMES.has(m[2])) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Writing things into a paragraph at word boundaries, keeping code-point offsets.
const cpLen = (s) => [...s].length;

// Insert pieces [{text, entities:[{start,end,label}] (offsets within text)}] at distinct word starts.
export function insertAtWords(r, text, pieces) {
  const starts = [0];
  for (let i = 1; i < text.length; i++) if (text[i - 1] === ' ' && text[i] !== ' ') starts.push(i);
  const at = new Set();
  const positions = pieces.map(() => {
    let s; let guard = 0;
    do { s = r.pick(starts); } while (at.has(s) && guard++ < 20);
    at.add(s); return s;
  });
  const order = pieces.map((p, i) => [positions[i], i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let out = '', copied = 0;
  const entities = [];
  for (const [pos, i] of order) {
    out += text.slice(copied, pos);
    copied = pos;
    const base = cpLen(out);
    for (const e of pieces[i].entities) entities.push({ start: base + e.start, end: base + e.end, label: e.label });
    out += pieces[i].text + (pos < text.length ? ' ' : '');
  }
  out += text.slice(copied);
  return { text: out.trimEnd(), entities };
}

// Runs of entities from a synthetic text that stand together (a full name, an address): the
// text between two neighbours is at most a few spaces or punctuation marks.
export function entityClusters(row) {
  const cps = [...row.text];
  const ents = [...row.entities].sort((a, b) => a.start - b.start);
  const out = [];
  let group = [];
  const close = () => {
    if (!group.length) return;
    const s = group[0].start, e = group[group.length - 1].end;
    out.push({ text: cps.slice(s, e).join(''), entities: group.map((x) => ({ start: x.start - s, end: x.end - s, label: x.label })) });
    group = [];
  };
  for (const e of ents) {
    if (group.length && !/^[\s,.\-/]{0,3}$/.test(cps.slice(group[group.length - 1].end, e.start).join(''))) close();
    group.push(e);
  }
  close();
  return out;
}
// The entity clusters of generate.mjs's texts (seed, count), by language.
export function clustersByLanguage(seed, count) {
  const clusters = Object.fromEntries(LANGS.map((l) => [l, []]));
  for (const row of generateSplit(seed, count)) clusters[row.lang]?.push(...entityClusters(row));
  return clusters;
}

const LOOKALIKES = ['order', 'price', 'date', 'time', 'version', 'measure', 'qty', 'pct', 'year', 'ticket', 'invoice', 'sku', 'num', 'small', 'dur', 'room'];
// An ordinary number for a text: one of values.mjs's look-alikes, or a bare amount as in a
// price list or a table ("349,90", "1.250,00"; values.mjs's prices always carry a currency).
function ordinaryNumber(r, lang) {
  if (!r.chance(0.15)) return V.lookalike(r, lang, r.pick(LOOKALIKES));
  const dec = lang === 'en' ? '.' : ',', thou = lang === 'en' ? ',' : '.';
  const whole = String(r.wpick([[3, r.int(1, 999)], [1, r.int(1000, 99999)]]));
  return (r.chance(0.5) ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, thou) : whole) + dec + r.digits(2);
}

function wrap(r, piece) {
  // Brackets of every kind: log lines and chat write "[83.44.197.12]", "<anna@example.org>", "(030 1234567)".
  const w = r.wpick([[6, ['', '']], [2, ['(', ')']], [2, ['[', ']']], [1, ['<', '>']], [1, ['"', '"']],
    [1, ['', ',']], [1, ['', ':']], [1, ['«', '»']]]);
  return { text: w[0] + piece.text + w[1], entities: piece.entities.map((e) => ({ ...e, start: e.start + cpLen(w[0]), end: e.end + cpLen(w[0]) })) };
}

// Hard negatives: ordinary words that stand next to personal data in real messages and are not
// personal data themselves: weekdays and months (from the runtime's own locale data, Intl),
// countries (Intl.DisplayNames; a country is none of our entity types), and roles and titles
// (customer, employee, account holder, Dr., ...), and the names forms and logs give a field
// (mobile, landline, fax, IBAN, IPv6, login, ...). Written beside a PII cluster or a number, all O,
// so the model learns where an entity stops. Chosen as categories, not as words of any test text.
const REGIONS = ['DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'CH', 'US', 'GB', 'IE', 'PT', 'PL', 'SE', 'DK', 'NO', 'FI',
  'CA', 'MX', 'BR', 'AR', 'JP', 'CN', 'IN', 'MA', 'TR', 'GR', 'CZ', 'HU', 'RO', 'LU', 'AU'];
const ROLES = {
  en: 'customer|employee|manager|account holder|patient|tenant|applicant|contact person|sender|recipient|owner|colleague|supervisor|landlord|support agent|cardholder|policyholder|Mr.|Mrs.|Ms.|Dr.|Prof.',
  de: 'Kunde|Kundin|Mitarbeiter|Mitarbeiterin|Kontoinhaber|Kontoinhaberin|Patient|Patientin|Mieter|Mieterin|Antragsteller|Ansprechpartner|Absender|Empfänger|Vorgesetzter|Vermieter|Karteninhaber|Versicherungsnehmer|Herr|Frau|Dr.|Prof.',
  fr: 'client|cliente|employé|employée|salarié|titulaire du compte|patient|patiente|locataire|demandeur|interlocuteur|expéditeur|destinataire|responsable|propriétaire|collègue|M.|Mme|Dr|Pr',
  es: 'cliente|empleado|empleada|titular de la cuenta|paciente|inquilino|solicitante|persona de contacto|remitente|destinatario|responsable|propietario|compañero|Sr.|Sra.|Dr.|Dra.',
  it: 'cliente|dipendente|titolare del conto|paziente|inquilino|richiedente|referente|mittente|destinatario|responsabile|proprietario|collega|sig.|sig.ra|dott.|dott.ssa|prof.|ing.',
  nl: 'klant|medewerker|medewerkster|rekeninghouder|patiënt|huurder|aanvrager|contactpersoon|afzender|ontvanger|leidinggevende|verhuurder|eigenaar|collega|dhr.|mevr.|dr.|prof.',
};
const FIELDS = {
  en: 'phone|mobile|cell|landline|fax|telephone|e-mail|email|address|IBAN|BIC|account|card|card number|IP|IPv4|IPv6|host|server|login|user|username|ID|reference|date of birth',
  de: 'Telefon|Tel.|Handy|Mobil|Mobilnummer|Festnetz|Fax|E-Mail|Adresse|Anschrift|IBAN|BIC|Konto|Kontonummer|Karte|Kartennummer|IP|IPv4|IPv6|Host|Server|Login|Benutzer|Benutzername|Geburtsdatum',
  fr: 'téléphone|tél.|portable|mobile|fixe|fax|e-mail|courriel|adresse|IBAN|BIC|compte|carte|numéro de carte|IP|IPv4|IPv6|hôte|serveur|identifiant|utilisateur|date de naissance',
  es: 'teléfono|tel.|móvil|celular|fijo|fax|correo|correo electrónico|dirección|domicilio|IBAN|BIC|cuenta|tarjeta|número de tarjeta|IP|IPv4|IPv6|servidor|usuario|fecha de nacimiento',
  it: 'telefono|tel.|cellulare|fisso|fax|e-mail|indirizzo|IBAN|BIC|conto|carta|numero di carta|IP|IPv4|IPv6|host|server|utente|nome utente|data di nascita',
  nl: 'telefoon|tel.|mobiel|vast nummer|fax|e-mail|adres|IBAN|BIC|rekening|rekeningnummer|kaart|kaartnummer|IP|IPv4|IPv6|host|server|gebruiker|gebruikersnaam|geboortedatum',
};
// Words that stand before or after a name in ordinary sentences without being part of it: greetings
// and salutations, the prepositions that mean "of, from, for, with, by, to" (Dutch "van" and French
// "de" are also surname particles, which is why the model must see them as O before a given name),
// and short verb phrases that follow a subject ("was rejected", "hat angerufen"), all O.
const GREETINGS = {
  en: 'Hello|Hi|Dear|Good morning|Good afternoon|Thanks|Thank you|Welcome|Hey|Congratulations',
  de: 'Hallo|Liebe|Lieber|Sehr geehrte|Sehr geehrter|Guten Tag|Guten Morgen|Danke|Willkommen|Hi',
  fr: 'Bonjour|Bonsoir|Salut|Cher|Chère|Merci|Bienvenue|Coucou|Madame|Monsieur',
  es: 'Hola|Querido|Querida|Estimado|Estimada|Buenos días|Buenas tardes|Gracias|Bienvenido|Bienvenida',
  it: 'Ciao|Caro|Cara|Gentile|Buongiorno|Buonasera|Grazie|Benvenuto|Benvenuta|Salve',
  nl: 'Hallo|Hoi|Beste|Geachte|Goedemorgen|Goedemiddag|Bedankt|Dank je|Welkom|Dag',
};
const PREPOSITIONS = {
  en: 'of|from|for|with|by|to|about|and', de: 'von|für|mit|an|bei|über|und|zu',
  fr: 'de|pour|avec|par|à|chez|et|sur', es: 'de|para|con|por|a|y|sobre|entre',
  it: 'di|da|per|con|a|e|su|tra', nl: 'van|voor|met|door|aan|bij|en|over',
};
const VERBS = {
  en: 'was rejected|was approved|has called|will arrive|is waiting|signed|paid|replied|wrote back|has left',
  de: 'wurde abgelehnt|wurde genehmigt|hat angerufen|kommt morgen|wartet|hat unterschrieben|hat bezahlt|antwortete|schrieb zurück|ist gegangen',
  fr: 'a été refusée|a été acceptée|a appelé|arrive demain|attend|a signé|a payé|a répondu|est parti|est partie|a été bloquée|a été annulée|fut rejetée|reste en attente',
  es: 'fue rechazada|fue aprobada|ha llamado|llega mañana|espera|firmó|pagó|respondió|se fue|fue enviada|fue cancelada|fue bloqueada|fue confirmada|fue devuelta|ha sido aceptada|quedó pendiente',
  it: 'è stata respinta|è stata approvata|ha chiamato|arriva domani|aspetta|ha firmato|ha pagato|ha risposto|è partito|è partita|è stata bloccata|è stata annullata|fu rifiutata|risulta scaduta',
  nl: 'is afgewezen|is goedgekeurd|heeft gebeld|komt morgen|wacht|heeft getekend|heeft betaald|antwoordde|is vertrokken|werd verstuurd',
};
export function contextWords(lang) {
  const day = (i) => new Date(Date.UTC(2024, 0, 1 + i));
  const fmt = (o) => (d) => new Intl.DateTimeFormat(lang, { ...o, timeZone: 'UTC' }).format(d);
  const weekdays = [0, 1, 2, 3, 4, 5, 6].flatMap((i) => [fmt({ weekday: 'long' })(day(i)), fmt({ weekday: 'short' })(day(i))]);
  const months = [...Array(12).keys()].flatMap((m) => [fmt({ month: 'long' })(new Date(Date.UTC(2024, m, 1))),
    fmt({ month: 'short' })(new Date(Date.UTC(2024, m, 1)))]);
  const names = new Intl.DisplayNames([lang], { type: 'region' });
  return { time: [...weekdays, ...months], countries: REGIONS.map((c) => names.of(c)), roles: ROLES[lang].split('|'),
    fields: FIELDS[lang].split('|'), greetings: GREETINGS[lang].split('|'), prepositions: PREPOSITIONS[lang].split('|'),
    verbs: VERBS[lang].split('|') };
}
const capitalise = (w) => w[0].toLocaleUpperCase() + w.slice(1);

// A piece with an ordinary word beside it (all O): "Customer: <piece>", "<role> <piece>",
// "<piece>, <country>", "<weekday> <piece>", "Mobile: <piece>", "Hello <piece>,", "of <piece>",
// "<piece> was rejected."...
export function withContext(r, cw, piece) {
  const pick = (list) => (r.chance(0.5) ? capitalise(r.pick(list)) : r.pick(list));
  const [before, after] = r.wpick([
    [3, [pick(cw.roles) + r.pick([' ', ': ']), '']],
    [2, [pick(cw.time) + r.pick([' ', ', ']), '']],
    [2, ['', r.pick([', ', ' (', ' - ']) + r.pick(cw.countries)]],
    [1, ['', ' ' + pick(cw.time)]],
    [1, [pick(cw.roles) + ' ', ', ' + r.pick(cw.countries)]],
    [2, [pick(cw.fields) + r.pick([' ', ': ', ' ']), '']],   // a space twice as often as a colon
    [2, [capitalise(r.pick(cw.greetings)) + r.pick([' ', ', ']), r.pick([',', '!', ''])]],
    [2, [r.pick(cw.prepositions) + ' ', '']],
    [2, ['', ' ' + r.pick(cw.verbs) + r.pick(['.', '', ','])]],
  ]);
  const close = after.includes('(') ? ')' : '';
  const shift = cpLen(before);
  return { text: before + piece.text + after + close,
    entities: piece.entities.map((e) => ({ ...e, start: e.start + shift, end: e.end + shift })) };
}

// A name as a letter or a chat message opens or closes on it: "Hallo Jan,", "Dear Maria Weber:",
// "Thanks, Pieter!". Given and surnames come from faker's lists for the language, labelled
// GIVEN_NAME and SURNAME; the greeting and the punctuation are O. A given name that is also one of
// contextWords' ordinary words ("Jan" and "May" are months, "Domenica" a weekday, "France" a
// country), which those words teach as O wherever they stand, is drawn a quarter of the time:
// after a greeting, and before a surname, the same word is a name.
const givenNamesOf = (p) => [...new Set([...(p.first_name.generic ?? []), ...(p.first_name.female ?? []), ...(p.first_name.male ?? [])])];
// People in a European message are named from everywhere, so one name in five comes from faker's
// lists for other countries (one word each, Latin script): names the six languages' lists lack.
const WORLD = ['fakerEN_IN', 'fakerEN_NG', 'fakerEN_GH', 'fakerEN_ZA', 'fakerTR', 'fakerPL', 'fakerPT_BR', 'fakerSV',
  'fakerCS_CZ', 'fakerFI', 'fakerDA', 'fakerHR', 'fakerRO', 'fakerHU', 'fakerSK', 'fakerNB_NO', 'fakerID_ID'];
let world = null;  // worldNames(), made once for all six languages
function worldNames() {
  if (world) return world;
  const oneWord = (w) => /^\p{Lu}[\p{Ll}'’-]+$/u.test(w);
  const people = WORLD.map((k) => Faker[k].rawDefinitions.person);
  world = { given: [...new Set(people.flatMap(givenNamesOf))].filter(oneWord),
    surnames: [...new Set(people.flatMap((p) => [...(p.last_name.generic ?? []), ...(p.last_name.male ?? [])]))].filter(oneWord) };
  return world;
}
export function greetingNames(lang, cw) {
  const p = FAKERS[lang].rawDefinitions.person;
  const given = givenNamesOf(p);
  const ordinary = new Set(Object.values(cw).flat().flatMap((w) => w.split(/[\s.,]+/)).filter(Boolean).map(capitalise));
  return { given, surnames: p.last_name.generic, alsoWords: given.filter((n) => ordinary.has(n)), world: worldNames() };
}
// The share of names drawn from WORLD: 0.2 in round 9 of the recipe README, 0 since round 10 (the
// same random draws, every name from the language's own lists), whose "García" was surer.
const WORLD_NAME_SHARE = 0;
const givenName = (r, names) => (r.chance(WORLD_NAME_SHARE) ? r.pick(names.world.given) : r.pick(names.given));
const surname = (r, names) => (r.chance(WORLD_NAME_SHARE) ? r.pick(names.world.surnames) : r.pick(names.surnames));
// Two labelled texts one after the other.
function join(a, sep, b) {
  const shift = cpLen(a.text + sep);
  return { text: a.text + sep + b.text, entities: [...a.entities, ...b.entities.map((e) => ({ ...e, start: e.start + shift, end: e.end + shift }))] };
}
// A labelled text written left to right: add() appends ordinary words, put() an entity, putPiece()
// a labelled piece ({text, entities}) with its entities.
function labelledText(start) {
  const t = { text: start, entities: [] };
  t.add = (words) => { t.text += words; };
  t.put = (word, label) => { const s = cpLen(t.text); t.text += word; t.entities.push({ start: s, end: cpLen(t.text), label }); };
  t.putPiece = (piece) => {
    const shift = cpLen(t.text);
    t.text += piece.text;
    t.entities.push(...piece.entities.map((e) => ({ ...e, start: e.start + shift, end: e.end + shift })));
  };
  return t;
}
export function greetingPiece(r, cw, names) {
  const first = names.alsoWords.length && r.chance(0.25) ? r.pick(names.alsoWords) : givenName(r, names);
  const t = labelledText(capitalise(r.pick(cw.greetings)) + r.pick([' ', ', ']));
  t.put(first, 'GIVEN_NAME');
  // Most greetings name the whole person: a given name alone, taught too often, made the model
  // unsure of the surname after it ("Pablo García" scored lower than before greetings were taught).
  if (r.chance(0.6)) { t.add(' '); t.put(surname(r, names), 'SURNAME'); }
  t.add(r.pick([',', '!', ':', '', '.']));
  return { text: t.text, entities: t.entities };
}
// A whole name inside a clause, between ordinary words: a preposition before it and a verb phrase
// after it ("de Pablo García fue rechazada.", "van Sanne Bakker heeft gebeld."). Both words are O:
// the name ends where the verb begins.
// Half the time the clause is a record's sentence, with other values around the name: a field word
// and a value before it, a preposition and a value after the verb ("Konto DE.. von Jan Berg wurde
// abgelehnt über 10.1.2.3"). In the synthetic forms a card or account number beside a name is often
// followed by a second surname; here the word after the surname is a verb, so the name ends there.
// `record`: whether to write the record's sentence (drawn here unless the caller decides, as
// recordMessage does); `twoSurnames`: the share of names given a second surname (records.jsonl).
export function nameClause(r, cw, names, values = [], record = values.length > 0 && r.chance(0.5), twoSurnames = 0) {
  const t = labelledText('');
  if (record) {
    t.add(capitalise(r.pick(cw.fields)) + ' ');
    t.putPiece(r.pick(values));
    t.add(' ' + r.pick(cw.prepositions) + ' ');
  } else {
    t.add(capitalise(r.pick(cw.prepositions)) + ' ');
  }
  t.put(givenName(r, names), 'GIVEN_NAME');
  t.add(' ');
  t.put(surname(r, names), 'SURNAME');
  if (twoSurnames > 0 && r.chance(twoSurnames)) { t.add(' '); t.put(surname(r, names), 'SURNAME'); }
  t.add(' ' + r.pick(cw.verbs));
  if (record && r.chance(0.5)) {
    t.add(' ' + r.pick(cw.prepositions) + ' ');
    t.putPiece(r.pick(values));
  }
  t.add(r.pick(['.', '.', ',', '']));
  return { text: t.text, entities: t.entities };
}
// The values a record's sentence may hold: single entities of the kinds a form puts beside a name.
const RECORD_LABELS = new Set(['EMAIL', 'PHONE', 'URL', 'IP_ADDRESS', 'CREDIT_CARD', 'BANK_ACCOUNT', 'ROUTING_NUMBER', 'SSN',
  'TAX_ID', 'GOVERNMENT_ID', 'PASSPORT', 'DRIVERS_LICENSE']);
export const recordValues = (clusters) => clusters.filter((c) => c.entities.length === 1 && RECORD_LABELS.has(c.entities[0].label)
  && c.entities[0].start === 0 && c.entities[0].end === cpLen(c.text));

// Short messages: a greeting and a name, then one or two sentences of the training prose, or the
// sentences first and a closing on a name ("Thanks, Pieter!"). A request is often this short,
// with nothing else personal in it, so the name is all the model has to find. One message in five
// greets no one in particular ("Hello team,", "Dear customer,": all O), so a greeting alone does
// not make the next word a name; one named message in four writes the name inside a clause
// (nameClause) instead of after a greeting.
const ADDRESSEES = {
  en: 'team|all|everyone|folks|colleagues|Sir or Madam|there|friends',
  de: 'zusammen|Team|alle|Kollegen|Kolleginnen und Kollegen|Damen und Herren|Leute',
  fr: 'à tous|tout le monde|l’équipe|chers collègues|Madame, Monsieur|les amis',
  es: 'a todos|equipo|compañeros|amigos|señores|a todas',
  it: 'a tutti|team|colleghi|ragazzi|amici|a tutte',
  nl: 'allemaal|team|collega’s|iedereen|beste mensen|lieve mensen',
};
const MESSAGES_PER_LANGUAGE = 1500;
const sentencesOf = (p) => p.split(/(?<=[.!?])\s+/).filter((x) => { const n = words(x).length; return n >= 3 && n <= 25; });
export function message(r, cw, names, lang, sentences, values = []) {
  const body = { text: Array.from({ length: r.int(1, 2) }, () => r.pick(sentences)).join(' '), entities: [] };
  if (r.chance(0.2)) {
    const who = r.chance(0.5) ? r.pick(ADDRESSEES[lang].split('|')) : r.pick(cw.roles);
    const hello = { text: capitalise(r.pick(cw.greetings)) + r.pick([' ', ', ']) + who + r.pick([',', '!', ':', '']), entities: [] };
    return join(hello, r.pick([' ', '\n']), body);
  }
  const piece = r.chance(0.25) ? nameClause(r, cw, names, values) : greetingPiece(r, cw, names);
  return r.chance(0.6) ? join(piece, r.pick([' ', '\n', '\n\n']), body) : join(body, r.pick([' ', '\n', '\n\n']), piece);
}

// Records: a record's sentence (nameClause with values around the name) alone, or before or after a
// sentence or two of the training prose. Spanish names get a second surname two times in five, so the
// model learns to end a name on the word after it, one surname or two.
const RECORDS_PER_LANGUAGE = 1000;
export function recordMessage(r, cw, names, lang, sentences, values) {
  const piece = nameClause(r, cw, names, values, true, lang === 'es' ? 0.4 : 0);
  const where = r.wpick([[1, 'alone'], [2, 'first'], [2, 'last']]);
  if (where === 'alone') return piece;
  const body = { text: Array.from({ length: r.int(1, 2) }, () => r.pick(sentences)).join(' '), entities: [] };
  return where === 'first' ? join(piece, r.pick([' ', '\n']), body) : join(body, r.pick([' ', '\n']), piece);
}

// ---------------------------------------------------------------------------------------
// A command-line option's value (--name VALUE), for the corpus scripts.
export function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : dflt;
}
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = arg('out', 'assets/work/corpus');
  const share = { plain: 0.5, numbers: 0.2, pii: 0.3 };
  fs.mkdirSync(out, { recursive: true });
  const r = new V.Rng(4242);
  const g = new V.Rng(4243);
  const msgRng = new V.Rng(4244);
  const recRng = new V.Rng(4245);
  const messages = [], records = [];
  const greeted = new Set(); // indices in rows of the texts that greet someone
  const clusters = clustersByLanguage(44, 12000);
  const rows = [], stats = {};
  for (const lang of LANGS) {
    const seen = new Set();
    const cw = contextWords(lang);
    const names = greetingNames(lang, cw);
    const ctx = (piece) => (r.chance(0.5) ? withContext(r, cw, piece) : piece);
    const st = stats[lang] = { paragraphs: 0, prose: 0, named: 0, kept: 0, pii: 0, numbers: 0, words: 0 };
    // Neighbouring paragraphs of one file make one text of 40 to about 200 words: a window
    // costs 256 positions whatever it holds, and real requests are longer than a sentence.
    const texts = [];
    let buf = [], bufWords = 0, bufFile = null, bufSource = '', target = 0;
    const flush = () => { if (buf.length) texts.push({ text: buf.join(' '), source: bufSource }); buf = []; bufWords = 0; };
    for (const { p, source, file } of trainingParagraphs(lang)) {
      st.paragraphs++;
      if (!looksLikeProse(p) || hasContactData(p) || seen.has(p) || languageOf(p) !== lang) continue;
      seen.add(p); st.prose++;
      if (mentionsName(p)) { st.named++; continue; }
      st.kept++; st.words += words(p).length;
      if (file !== bufFile || bufWords >= target) { flush(); bufFile = file; bufSource = source; target = r.int(40, 200); }
      buf.push(p); bufWords += words(p).length;
    }
    flush();
    const sentences = texts.flatMap((t) => sentencesOf(t.text));
    const values = recordValues(clusters[lang]);
    for (let i = 0; i < MESSAGES_PER_LANGUAGE; i++) {
      const m = message(msgRng, cw, names, lang, sentences, values);
      messages.push({ text: m.text, lang, kind: 'message', entities: m.entities });
    }
    for (let i = 0; i < RECORDS_PER_LANGUAGE && values.length; i++) {
      const m = recordMessage(recRng, cw, names, lang, sentences, values);
      records.push({ text: m.text, lang, kind: 'record', entities: m.entities });
    }
    for (const { text: p, source } of texts) {
      const kind = r.wpick([[share.plain, 'plain'], [share.numbers, 'numbers'], [share.pii, 'pii']]);
      let row = { text: p, entities: [] };
      if (kind === 'numbers') {
        const n = r.int(1, 4);
        row = insertAtWords(r, p, Array.from({ length: n }, () => wrap(r, ctx({ text: ordinaryNumber(r, lang), entities: [] }))));
        st.numbers++;
      } else if (kind === 'pii' && clusters[lang].length) {
        const n = r.int(1, 4);
        const pieces = Array.from({ length: n }, () => wrap(r, ctx(r.pick(clusters[lang]))));
        if (r.chance(0.5)) pieces.push(wrap(r, ctx({ text: ordinaryNumber(r, lang), entities: [] })));
        row = insertAtWords(r, p, pieces);
        // Half of these texts also greet someone: at the start, as a letter opens, or at the end. Drawn
        // from a separate source, so that the rest of prose.jsonl stays as it was.
        if (g.chance(0.5)) {
          const piece = greetingPiece(g, cw, names);
          row = g.chance(0.6) ? join(piece, ' ', row) : join(row, g.pick([' ', '\n']), piece);
          st.greetings = (st.greetings || 0) + 1;
          greeted.add(rows.length);
        }
        st.pii++;
      }
      st.texts = (st.texts || 0) + 1;
      rows.push({ text: row.text, lang, kind: `prose-${kind}`, source, entities: row.entities });
    }
  }
  fs.writeFileSync(path.join(out, 'prose.jsonl'), rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
  fs.writeFileSync(path.join(out, 'messages.jsonl'), messages.map((x) => JSON.stringify(x)).join('\n') + '\n');
  fs.writeFileSync(path.join(out, 'records.jsonl'), records.map((x) => JSON.stringify(x)).join('\n') + '\n');
  // The greeting texts again, on their own, so that training can give them more weight (--extra).
  fs.writeFileSync(path.join(out, 'prose-greetings.jsonl'), rows.filter((_, i) => greeted.has(i)).map((x) => JSON.stringify(x)).join('\n') + '\n');
  const held = LANGS.flatMap(heldOutTexts);
  fs.writeFileSync(path.join(out, 'heldout.jsonl'), held.map((x) => JSON.stringify(x)).join('\n') + '\n');
  for (const [l, s] of Object.entries(stats)) console.error(`${l}: ${JSON.stringify(s)}`);
  const hw = held.reduce((n, t) => n + words(t.text).length, 0);
  console.error(`prose.jsonl: ${rows.length} texts; messages.jsonl: ${messages.length} texts; heldout.jsonl: ${held.length} texts, ${hw} words`);
}
