// values.mjs: the building blocks of the synthetic corpus.
//
// Every function here takes `r` (our seeded random source, see `Rng`) and, where it needs
// locale data, `f` (a seeded faker instance). Nothing reads the clock or Math.random, so a
// seed fixes every byte of the output.
//
// PII values come in realistic national formats and pass their checksums where the real
// thing has one (Luhn for cards, ISO 7064 mod 97-10 for IBANs, the ABA weights for US routing
// numbers, the 11-test for Dutch BSNs, mod 97 for French NIRs, the letter table for Spanish
// NIF/NIE). Look-alikes (order numbers, prices, dates, versions, measurements...) are made
// here too: they must stay `O`.

// ---------------------------------------------------------------------------------------
// Random source: mulberry32, small, fast and fully determined by its 32-bit seed.
export class Rng {
  constructor(seed) { this.s = seed >>> 0; }
  next() {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); } // inclusive
  pick(a) { return a[Math.floor(this.next() * a.length)]; }
  chance(p) { return this.next() < p; }
  digits(n) { let s = ''; for (let i = 0; i < n; i++) s += String(this.int(0, 9)); return s; }
  letters(n, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    let s = ''; for (let i = 0; i < n; i++) s += alphabet[this.int(0, alphabet.length - 1)]; return s;
  }
  // weighted pick: items = [[weight, value], ...]
  wpick(items) {
    let tot = 0; for (const [w] of items) tot += w;
    let x = this.next() * tot;
    for (const [w, v] of items) { if ((x -= w) < 0) return v; }
    return items[items.length - 1][1];
  }
}

const U = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const pad = (n, w) => String(n).padStart(w, '0');

// Split a string into groups of `n` separated by `sep`.
function group(s, n, sep = ' ') {
  const out = []; for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n)); return out.join(sep);
}
function groupBy(s, sizes, sep) {
  const out = []; let i = 0; for (const k of sizes) { out.push(s.slice(i, i + k)); i += k; }
  if (i < s.length) out.push(s.slice(i)); return out.join(sep);
}

// ---------------------------------------------------------------------------------------
// Checksums
export function luhnDigit(body) { // digit to append so that body+digit passes Luhn
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body.charCodeAt(body.length - 1 - i) - 48;
    if (i % 2 === 0) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}
function mod97(numstr) { let m = 0; for (const c of numstr) m = (m * 10 + (c.charCodeAt(0) - 48)) % 97; return m; }
function ibanCheck(cc, bban) {
  const re = (bban + cc + '00').toUpperCase().replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return pad(98 - mod97(re), 2);
}

// ---------------------------------------------------------------------------------------
// Credit cards (Luhn-valid), in the groupings people write.
export function creditCard(r) {
  const kind = r.wpick([[5, 'visa'], [4, 'mc'], [2, 'amex'], [1, 'disc'], [1, 'mc2']]);
  let body, len;
  if (kind === 'visa') { body = '4' + r.digits(r.int(0, 4)); len = 16; }
  else if (kind === 'mc') { body = String(r.int(51, 55)); len = 16; }
  else if (kind === 'mc2') { body = String(r.int(2221, 2720)); len = 16; }
  else if (kind === 'amex') { body = r.pick(['34', '37']); len = 15; }
  else { body = r.pick(['6011', '65', '644']); len = 16; }
  body += r.digits(len - 1 - body.length);
  const num = body + luhnDigit(body);
  const sep = r.wpick([[5, ' '], [3, '-'], [3, ''], [1, '  ']]);
  if (sep === '') return num;
  return len === 15 ? groupBy(num, [4, 6, 5], sep) : group(num, 4, sep);
}

// ---------------------------------------------------------------------------------------
// IBANs with a correct check pair, national BBAN layouts.
const IBAN_LAYOUT = { // country: bban generator
  FR: (r) => r.digits(5) + r.digits(5) + r.letters(11, '0123456789') + r.digits(2),
  DE: (r) => r.digits(8) + r.digits(10),
  ES: (r) => r.digits(4) + r.digits(4) + r.digits(2) + r.digits(10),
  IT: (r) => r.letters(1) + r.digits(5) + r.digits(5) + r.letters(12, '0123456789'),
  NL: (r) => r.pick(['ABNA', 'INGB', 'RABO', 'SNSB', 'TRIO', 'BUNQ', 'ASNB', 'KNAB']) + r.digits(10),
  GB: (r) => r.pick(['NWBK', 'BARC', 'HBUK', 'LOYD', 'MIDL', 'MONZ']) + r.digits(6) + r.digits(8),
  BE: (r) => r.digits(12),
  CH: (r) => r.digits(5) + r.letters(12, '0123456789'),
  AT: (r) => r.digits(16),
  LU: (r) => r.digits(3) + r.letters(13, AN),
  PT: (r) => r.digits(21),
  IE: (r) => r.pick(['AIBK', 'BOFI']) + r.digits(6) + r.digits(8),
};
export function iban(r, country) {
  const cc = country && IBAN_LAYOUT[country] ? country : r.pick(Object.keys(IBAN_LAYOUT));
  const bban = IBAN_LAYOUT[cc](r);
  const s = cc + ibanCheck(cc, bban) + bban;
  const style = r.wpick([[6, 'spaced'], [3, 'compact'], [1, 'lower']]);
  if (style === 'compact') return s;
  if (style === 'lower') return group(s, 4, ' ').toLowerCase().replace(/^[a-z]{2}/, (m) => m.toUpperCase());
  return group(s, 4, ' ');
}
export function usAccount(r) { return r.digits(r.int(8, 12)); }

// US ABA routing number: 3*(d1+d4+d7) + 7*(d2+d5+d8) + (d3+d6+d9) = 0 mod 10.
export function abaRouting(r) {
  const d = [r.int(0, 3), r.int(0, 9), r.int(0, 9), r.int(0, 9), r.int(0, 9), r.int(0, 9), r.int(0, 9), r.int(0, 9)];
  if (d[0] === 0 && d[1] === 0) d[1] = r.int(1, 2);
  const s = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5]);
  return d.join('') + String((10 - (s % 10)) % 10);
}
const BICS = {
  en: ['CHASUS33', 'BOFAUS3N', 'WFBIUS6S', 'CITIUS33', 'NWBKGB2L', 'BARCGB22'],
  fr: ['BNPAFRPP', 'SOGEFRPP', 'CRLYFRPP', 'AGRIFRPP', 'CEPAFRPP', 'CMCIFRPP'],
  de: ['DEUTDEFF', 'COBADEFF', 'GENODEM1', 'HYVEDEMM', 'PBNKDEFF', 'INGDDEFF'],
  es: ['CAIXESBB', 'BSCHESMM', 'BBVAESMM', 'POPUESMM', 'BSABESBB', 'CAHMESMM'],
  it: ['UNCRITMM', 'BCITITMM', 'BPMOIT22', 'PASCITMM', 'BNLIITRR', 'CRPPIT2P'],
  nl: ['INGBNL2A', 'ABNANL2A', 'RABONL2U', 'SNSBNL2A', 'TRIONL2U', 'BUNQNL2A'],
};
export function bic(r, lang) {
  const b = r.pick(BICS[lang] || BICS.en);
  return r.chance(0.4) ? b + r.pick(['XXX', r.letters(3, AN)]) : b;
}
export function routing(r, lang) {
  switch (lang) {
    case 'en': return r.chance(0.75) ? abaRouting(r) : `${r.digits(2)}-${r.digits(2)}-${r.digits(2)}`;
    case 'fr': return r.chance(0.5) ? bic(r, lang) : `${r.digits(5)} ${r.digits(5)}`;
    case 'de': return r.chance(0.5) ? bic(r, lang) : (r.chance(0.5) ? r.digits(8) : `${r.digits(3)} ${r.digits(3)} ${r.digits(2)}`);
    case 'es': return r.chance(0.6) ? bic(r, lang) : `${r.digits(4)}-${r.digits(4)}`;
    case 'it': return r.chance(0.5) ? bic(r, lang) : `${r.digits(5)}`;
    default: return bic(r, lang);
  }
}

// ---------------------------------------------------------------------------------------
// Phones, per country, in the spellings people use.
export function phone(r, lang) {
  const d = (n) => r.digits(n);
  switch (lang) {
    case 'en': return r.wpick([
      [4, () => `(${r.int(201, 989)}) ${d(3)}-${d(4)}`], [4, () => `${r.int(201, 989)}-${d(3)}-${d(4)}`],
      [3, () => `+1 ${r.int(201, 989)} ${d(3)} ${d(4)}`], [2, () => `${r.int(201, 989)}.${d(3)}.${d(4)}`],
      [1, () => `+1-${r.int(201, 989)}-${d(3)}-${d(4)}`], [2, () => `+44 20 ${d(4)} ${d(4)}`],
      [2, () => `07${d(3)} ${d(6)}`], [1, () => `+44 7${d(3)} ${d(6)}`]])();
    case 'fr': { const p = () => `${d(2)} ${d(2)} ${d(2)} ${d(2)}`; const a = r.pick(['1', '2', '3', '4', '5', '6', '7', '9']); return r.wpick([
      [5, () => `0${a} ${p()}`], [3, () => `+33 ${a} ${p()}`], [2, () => `0${a}.${d(2)}.${d(2)}.${d(2)}.${d(2)}`],
      [2, () => `0${a}${d(8)}`], [1, () => `+33 (0)${a} ${p()}`], [1, () => `0${a}-${d(2)}-${d(2)}-${d(2)}-${d(2)}`]])(); }
    case 'de': return r.wpick([
      [3, () => `0${r.pick(['30', '40', '89', '221', '69', '711', '211', '341'])} ${d(r.int(6, 8))}`],
      [3, () => `+49 ${r.pick(['30', '40', '89', '221', '69', '151', '160', '171', '176'])} ${d(r.int(7, 8))}`],
      [3, () => `0${r.pick(['151', '152', '160', '170', '171', '172', '176', '179'])} ${d(7)}`],
      [2, () => `+49 (0)${r.pick(['30', '89', '171', '40'])} ${d(3)} ${d(4)}`],
      [2, () => `0${r.pick(['30', '89', '40', '221'])}/${d(7)}`], [1, () => `+49-${r.pick(['30', '89'])}-${d(8)}`]])();
    case 'es': return r.wpick([
      [4, () => `6${d(2)} ${d(3)} ${d(3)}`], [3, () => `+34 6${d(2)} ${d(2)} ${d(2)} ${d(2)}`],
      [3, () => `9${d(1)} ${d(3)} ${d(2)} ${d(2)}`], [2, () => `+34 9${d(2)} ${d(3)} ${d(3)}`],
      [2, () => `6${d(8)}`], [1, () => `7${d(2)}-${d(3)}-${d(3)}`]])();
    case 'it': return r.wpick([
      [4, () => `3${d(2)} ${d(3)} ${d(4)}`], [3, () => `+39 3${d(2)} ${d(7)}`], [3, () => `0${r.pick(['2', '6', '11', '55', '81', '51'])} ${d(r.int(6, 8))}`],
      [2, () => `+39 0${r.pick(['2', '6'])} ${d(4)} ${d(4)}`], [2, () => `3${d(9)}`], [1, () => `3${d(2)}-${d(7)}`]])();
    case 'nl': return r.wpick([
      [4, () => `06-${d(8)}`], [3, () => `+31 6 ${d(8)}`], [2, () => `0${r.pick(['20', '10', '30', '70', '40'])}-${d(7)}`],
      [2, () => `+31 (0)${r.pick(['20', '10', '30'])} ${d(3)} ${d(4)}`], [2, () => `06 ${d(4)} ${d(4)}`]])();
  }
  return d(10);
}

// ---------------------------------------------------------------------------------------
// Internet
const FREEMAIL = {
  en: ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'proton.me', 'btinternet.com'],
  fr: ['gmail.com', 'orange.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'wanadoo.fr', 'yahoo.fr', 'hotmail.fr'],
  de: ['gmail.com', 'web.de', 'gmx.de', 't-online.de', 'gmx.net', 'posteo.de', 'freenet.de', 'outlook.de'],
  es: ['gmail.com', 'hotmail.es', 'yahoo.es', 'telefonica.net', 'outlook.es', 'movistar.es'],
  it: ['gmail.com', 'libero.it', 'virgilio.it', 'alice.it', 'tiscali.it', 'hotmail.it', 'yahoo.it', 'tim.it'],
  nl: ['gmail.com', 'ziggo.nl', 'kpnmail.nl', 'hotmail.nl', 'xs4all.nl', 'planet.nl', 'live.nl'],
};
const TLD = { en: ['com', 'org', 'net', 'io', 'co.uk', 'us'], fr: ['fr', 'com', 'org', 'eu'], de: ['de', 'com', 'at', 'ch'], es: ['es', 'com', 'org', 'mx'], it: ['it', 'com', 'org', 'eu'], nl: ['nl', 'com', 'be', 'eu'] };
export function ascii(s) {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}
export function companyDomain(r, f, lang) {
  const base = ascii(r.chance(0.5) ? f.person.lastName() : f.word.noun()) || 'acme';
  const suff = r.pick(['', '', '', '-group', 'tech', '-consulting', 'shop', '-partners', 'media', 'labs']);
  return `${base}${suff}.${r.pick(TLD[lang] || TLD.en)}`;
}
export function email(r, f, lang, fn, ln) {
  const a = ascii(fn || f.person.firstName()), b = ascii(ln || f.person.lastName());
  const local = r.wpick([
    [4, `${a}.${b}`], [2, `${a[0]}.${b}`], [2, `${a}${b}`], [2, `${a}_${b}`], [2, `${a}${r.int(1, 99)}`],
    [1, `${b}.${a}`], [1, `${a[0]}${b}${r.int(1, 2005)}`], [1, `${a}.${b}${r.int(1, 99)}`], [1, `${b}${a[0]}`],
    [1, r.pick(['info', 'contact', 'support', 'admin', 'compta', 'service', 'jobs', 'noreply', 'hr'])]]);
  const dom = r.chance(0.55) ? r.pick(FREEMAIL[lang] || FREEMAIL.en) : companyDomain(r, f, lang);
  const e = `${local}@${dom}`;
  return r.chance(0.05) ? e.replace(/^./, (c) => c.toUpperCase()) : e;
}
export function url(r, f, lang) {
  const dom = companyDomain(r, f, lang);
  const paths = ['', '/', '/contact', '/about', '/fr/contact', '/de/impressum', '/en/privacy', '/index.html', '/login', '/account/settings',
    '/products/' + r.int(100, 99999), '/blog/' + ascii(f.word.noun()), '/search?q=' + ascii(f.word.noun()), '/u/' + ascii(f.person.firstName()),
    '/docs/v' + r.int(1, 5) + '/api', '/wp-admin/', '/reset?token=' + r.letters(16, AN.toLowerCase()), '/share/' + r.letters(8, AN)];
  const scheme = r.wpick([[6, 'https://'], [2, 'http://'], [2, '']]);
  const www = scheme === '' ? 'www.' : (r.chance(0.5) ? 'www.' : '');
  return `${scheme}${www}${dom}${r.pick(paths)}`;
}
export function ipv4(r) {
  return r.wpick([
    [5, () => `${r.int(1, 223)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`],
    [2, () => `192.168.${r.int(0, 255)}.${r.int(1, 254)}`], [2, () => `10.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`],
    [1, () => `172.${r.int(16, 31)}.${r.int(0, 255)}.${r.int(1, 254)}`]])();
}
export function ipv6(r) {
  const h = () => r.int(0, 65535).toString(16);
  const groups = []; for (let i = 0; i < 8; i++) groups.push(h());
  return r.wpick([
    [3, () => groups.join(':')],
    [3, () => `2001:db8:${groups.slice(2, 4).join(':')}::${groups[7]}`],
    [2, () => `${r.pick(['2a01', '2001', '2a02', '2600', '2003'])}:${groups.slice(1, 4).join(':')}::${groups.slice(6).join(':')}`],
    [1, () => `fe80::${groups.slice(4).join(':')}`],
    [1, () => groups.map((g) => g.padStart(4, '0')).join(':').toUpperCase()]])();
}
export function ip(r) { return r.chance(0.75) ? ipv4(r) : ipv6(r); }

// ---------------------------------------------------------------------------------------
// National identifiers
const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CF_MONTH = 'ABCDEHLMPRST';
export function ssn(r, lang) {
  switch (lang) {
    case 'en': {
      if (r.chance(0.2)) return `${r.letters(2, 'ABCEGHJKLMNPRSTWXYZ')} ${r.digits(2)} ${r.digits(2)} ${r.digits(2)} ${r.pick(['A', 'B', 'C', 'D'])}`;
      let a = r.int(1, 899); if (a === 666) a = 667;
      const s = `${pad(a, 3)}-${pad(r.int(1, 99), 2)}-${pad(r.int(1, 9999), 4)}`;
      return r.chance(0.2) ? s.replace(/-/g, r.pick(['', ' '])) : s;
    }
    case 'fr': { // NIR with its mod-97 key
      const body = `${r.int(1, 2)}${r.digits(2)}${pad(r.int(1, 12), 2)}${pad(r.int(1, 95), 2)}${pad(r.int(1, 990), 3)}${pad(r.int(1, 999), 3)}`;
      let m = 0; for (const c of body) m = (m * 10 + +c) % 97;
      const key = pad(97 - m, 2);
      return r.chance(0.6) ? `${body[0]} ${body.slice(1, 3)} ${body.slice(3, 5)} ${body.slice(5, 7)} ${body.slice(7, 10)} ${body.slice(10, 13)} ${key}` : body + key;
    }
    case 'de': { const s = `${r.digits(2)} ${pad(r.int(1, 28), 2)}${pad(r.int(1, 12), 2)}${r.digits(2)} ${r.letters(1)} ${r.digits(3)}`; return r.chance(0.5) ? s : s.replace(/ /g, ''); }
    case 'es': { const s = `${pad(r.int(1, 52), 2)}${r.digits(8)}`; const k = pad(Number(BigInt(s) % 97n), 2); return r.chance(0.5) ? `${s.slice(0, 2)}/${s.slice(2)}/${k}` : s + k; }
    case 'it': return r.chance(0.5) ? `80380${r.digits(15)}` : codiceFiscale(r);
    case 'nl': return bsn(r, r.chance(0.3));
  }
  return r.digits(9);
}
export function bsn(r, dotted) {
  for (;;) {
    const d = r.digits(8);
    let s = 0; for (let i = 0; i < 8; i++) s += (9 - i) * +d[i];
    const last = s % 11; if (last > 9) continue;
    const v = d + last; return dotted ? `${v.slice(0, 4)}.${v.slice(4, 6)}.${v.slice(6)}` : v;
  }
}
export function nif(r) { const n = r.int(1000000, 99999999); return pad(n, 8) + NIF_LETTERS[n % 23]; }
export function nie(r) {
  const p = r.int(0, 2), n = r.int(0, 9999999);
  return 'XYZ'[p] + pad(n, 7) + NIF_LETTERS[Number(String(p) + pad(n, 7)) % 23];
}
export function codiceFiscale(r) {
  const C = 'BCDFGHLMNPRSTVZ', V = 'AEIOU';
  const syl = () => r.letters(2, C) + r.letters(1, r.chance(0.5) ? V : C);
  return syl() + syl() + r.digits(2) + r.letters(1, CF_MONTH) + pad(r.int(1, 71), 2) + r.letters(1, 'ABCDEFGHILM') + r.digits(3) + r.letters(1);
}
export function taxId(r, lang) {
  switch (lang) {
    case 'en': return r.wpick([[3, () => `${r.digits(2)}-${r.digits(7)}`], [2, () => `9${r.digits(2)}-${r.int(70, 88)}-${r.digits(4)}`], [1, () => `${r.digits(5)} ${r.digits(5)}`]])();
    case 'fr': return r.wpick([[3, () => `${r.int(0, 3)}${r.digits(3)} ${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`], [2, () => `FR${r.digits(2)}${r.digits(9)}`], [2, () => `${r.digits(3)} ${r.digits(3)} ${r.digits(3)} ${r.digits(5)}`], [1, () => `FR ${r.digits(2)} ${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`]])();
    case 'de': return r.wpick([[3, () => `${r.digits(2)} ${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`], [2, () => `${r.digits(2)}/${r.digits(3)}/${r.digits(5)}`], [2, () => `DE${r.digits(9)}`], [1, () => r.digits(11)]])();
    case 'es': return r.wpick([[4, () => nif(r)], [2, () => `${r.pick(['A', 'B', 'G', 'J'])}${r.digits(8)}`], [1, () => `ES${nif(r)}`]])();
    case 'it': return r.wpick([[4, () => codiceFiscale(r)], [2, () => `IT${r.digits(11)}`], [1, () => r.digits(11)]])();
    case 'nl': return r.wpick([[3, () => `NL${r.digits(9)}B${r.digits(2)}`], [1, () => bsn(r, false)]])();
  }
  return r.digits(9);
}
const DE_DOC = 'CFGHJKLMNPRTVWXYZ0123456789';
export function governmentId(r, lang) {
  switch (lang) {
    case 'en': return r.wpick([[2, () => `${r.letters(1)}${r.digits(7)}`], [1, () => `${r.letters(1)}${r.digits(3)}-${r.digits(4)}-${r.digits(4)}`], [1, () => `${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`]])();
    case 'fr': return r.chance(0.5) ? r.digits(12) : r.letters(9, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789');
    case 'de': return r.letters(1, 'LMNPRTVWXY') + r.letters(8, DE_DOC);
    case 'es': return r.chance(0.7) ? nif(r) : nie(r);
    case 'it': return r.chance(0.6) ? `C${r.letters(1)}${r.digits(5)}${r.letters(2)}` : `A${r.letters(1)}${r.digits(7)}`;
    case 'nl': return r.letters(2) + r.letters(6, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789') + r.digits(1);
  }
  return r.letters(2) + r.digits(7);
}
export function passport(r, lang) {
  switch (lang) {
    case 'en': return r.chance(0.5) ? r.digits(9) : r.letters(1) + r.digits(8);
    case 'fr': return r.digits(2) + r.letters(2) + r.digits(5);
    case 'de': return 'C' + r.letters(8, DE_DOC);
    case 'es': return r.letters(3) + r.digits(6);
    case 'it': return r.letters(2) + r.digits(7);
    case 'nl': return r.letters(2) + r.letters(6, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789') + r.digits(1);
  }
  return r.letters(2) + r.digits(7);
}
export function driversLicense(r, lang, ln) {
  switch (lang) {
    case 'en': return r.wpick([
      [2, () => `${r.letters(1)}${r.digits(7)}`], [1, () => `${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`],
      [1, () => `${r.letters(1)}${r.digits(3)}-${r.digits(3)}-${r.digits(2)}-${r.digits(3)}-${r.digits(1)}`], [1, () => r.digits(8)],
      [1, () => `${(ascii(ln || 'smith').toUpperCase() + '99999').slice(0, 5)}${r.digits(6)}${r.letters(2)}${r.digits(1)}${r.letters(2)}`]])();
    case 'fr': return r.chance(0.5) ? r.digits(12) : `${r.digits(2)}${r.letters(2)}${r.digits(5)}`;
    case 'de': return r.letters(1) + r.digits(3) + r.letters(4, AN) + r.digits(2) + r.letters(1, AN);
    case 'es': return nif(r);
    case 'it': return r.letters(2) + r.digits(7) + r.letters(1);
    case 'nl': return r.digits(10);
  }
  return r.digits(9);
}

// ---------------------------------------------------------------------------------------
// Addresses. Faker gives names of streets and cities in each locale; we add real big cities
// and the secondary parts faker lacks for some countries.
const REAL_CITIES = {
  en: ['New York', 'Los Angeles', 'Chicago', 'Houston', 'Phoenix', 'Seattle', 'Boston', 'Denver', 'Austin', 'Portland', 'Atlanta', 'San Diego', 'Miami', 'Nashville'],
  fr: ['Paris', 'Lyon', 'Marseille', 'Toulouse', 'Nice', 'Nantes', 'Strasbourg', 'Montpellier', 'Bordeaux', 'Lille', 'Rennes', 'Reims', 'Grenoble', 'Dijon', 'Aix-en-Provence'],
  de: ['Berlin', 'Hamburg', 'München', 'Köln', 'Frankfurt am Main', 'Stuttgart', 'Düsseldorf', 'Leipzig', 'Dortmund', 'Essen', 'Bremen', 'Dresden', 'Hannover', 'Nürnberg', 'Freiburg im Breisgau'],
  es: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Zaragoza', 'Málaga', 'Murcia', 'Palma', 'Bilbao', 'Alicante', 'Córdoba', 'Valladolid', 'Vigo', 'Gijón', 'Granada'],
  it: ['Roma', 'Milano', 'Napoli', 'Torino', 'Palermo', 'Genova', 'Bologna', 'Firenze', 'Bari', 'Catania', 'Venezia', 'Verona', 'Padova', 'Trieste', 'Reggio Emilia'],
  nl: ['Amsterdam', 'Rotterdam', 'Den Haag', 'Utrecht', 'Eindhoven', 'Groningen', 'Tilburg', 'Almere', 'Breda', 'Nijmegen', 'Haarlem', 'Arnhem', 'Zwolle', "'s-Hertogenbosch"],
};
const STREET_TYPES = {
  es: ['Calle', 'Calle', 'Avenida', 'Avda.', 'Plaza', 'Paseo', 'C/', 'Ronda', 'Camino', 'Travesía'],
  it: ['Via', 'Via', 'Via', 'Viale', 'Piazza', 'Corso', 'Largo', 'Vicolo', 'Piazzale'],
  fr: ['rue', 'rue', 'Rue', 'avenue', 'Avenue', 'boulevard', 'bd', 'place', 'impasse', 'allée', 'chemin', 'quai'],
};
const SECONDARY = {
  en: (r) => r.pick([`Apt ${r.int(1, 999)}`, `Apt. ${r.int(1, 40)}${r.letters(1, 'ABCDEF')}`, `Suite ${r.int(100, 2999)}`, `Unit ${r.int(1, 60)}`, `#${r.int(1, 999)}`, `Floor ${r.int(2, 40)}`, `Apartment ${r.int(1, 30)}`]),
  fr: (r) => r.pick([`Apt ${r.int(1, 120)}`, `Bât. ${r.letters(1, 'ABCDEFG')}`, `appartement ${r.int(1, 80)}`, `${r.int(1, 9)}e étage`, `Escalier ${r.letters(1, 'ABCD')}`, `Résidence ${r.pick(['Les Tilleuls', 'Le Parc', 'Les Pins', 'Beausoleil'])}`, `porte ${r.int(1, 30)}`]),
  de: (r) => r.pick([`${r.int(1, 6)}. OG`, `Wohnung ${r.int(1, 40)}`, `Hinterhaus`, `${r.int(1, 5)}. Stock links`, `App. ${r.int(1, 99)}`, `c/o Zimmer ${r.int(1, 900)}`, `EG rechts`]),
  es: (r) => r.pick([`${r.int(1, 12)}º ${r.letters(1, 'ABCD')}`, `${r.int(1, 9)}º Izda.`, `${r.int(1, 9)}º Dcha.`, `piso ${r.int(1, 15)}, puerta ${r.int(1, 8)}`, `Bajo ${r.letters(1, 'AB')}`, `Esc. ${r.int(1, 3)}, ${r.int(1, 8)}º`]),
  it: (r) => r.pick([`int. ${r.int(1, 30)}`, `scala ${r.letters(1, 'ABCD')}`, `piano ${r.int(1, 9)}`, `interno ${r.int(1, 40)}`, `Scala ${r.letters(1, 'ABC')}, int. ${r.int(1, 20)}`, `Appartamento ${r.int(1, 60)}`]),
  nl: (r) => r.pick([`${r.int(1, 5)} hoog`, `bus ${r.int(1, 40)}`, `unit ${r.int(1, 30)}`, `${r.letters(1, 'abc')}`, `app. ${r.int(1, 99)}`]),
};
const STATE_ABBR = { en: true, it: true };
export function addressParts(r, f, lang) {
  const p = {};
  let bn = f.location.buildingNumber().trim().replace(/^s\/n\.?$/, String(r.int(1, 200)));
  if (lang === 'en') bn = String(r.chance(0.6) ? r.int(1, 9999) : bn);
  if (lang === 'de' && r.chance(0.15)) bn = `${r.int(1, 150)}${r.letters(1, 'abc')}`;
  p.bnum = bn;
  if (STREET_TYPES[lang] && r.chance(0.6)) {
    const who = r.wpick([[3, () => f.person.lastName()], [2, () => `${f.person.firstName()} ${f.person.lastName()}`], [1, () => r.pick(REAL_CITIES[lang])]])();
    const de = lang === 'fr' ? r.pick(['', '', 'de la ', 'du ', 'des ']) : lang === 'es' ? r.pick(['', '', 'de ', 'del ']) : '';
    p.street = `${r.pick(STREET_TYPES[lang])} ${de}${who}`;
  } else p.street = f.location.street();
  p.sec = SECONDARY[lang](r);
  p.city = r.chance(0.4) ? r.pick(REAL_CITIES[lang]) : f.location.city();
  p.state = STATE_ABBR[lang] && r.chance(0.6) ? f.location.state({ abbreviated: true }) : f.location.state();
  p.zip = f.location.zipCode();
  if (lang === 'en' && r.chance(0.7)) p.zip = r.digits(5);
  return p;
}

// ---------------------------------------------------------------------------------------
// Look-alikes: these must stay O.
export function lookalike(r, lang, kind) {
  const dec = lang === 'en' ? '.' : ',';
  const thou = lang === 'en' ? ',' : (lang === 'fr' ? '\u202f' : '.');
  const money = () => {
    const n = r.wpick([[3, r.int(1, 99)], [3, r.int(100, 999)], [2, r.int(1000, 99999)]]);
    let s = String(n); if (n >= 1000 && r.chance(0.7)) s = s.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'fr' && r.chance(0.5) ? ' ' : thou);
    if (r.chance(0.7)) s += dec + r.digits(2);
    const cur = lang === 'en' ? r.pick(['$', '£', 'USD ']) : r.pick(['€', ' €', ' EUR', 'EUR ']);
    return cur.endsWith(' ') || cur === '$' || cur === '£' ? (cur.trim() === 'EUR' ? 'EUR ' + s : cur + s) : s + cur;
  };
  const date = () => {
    const y = r.int(1950, 2030), m = r.int(1, 12), d = r.int(1, 28);
    return r.wpick([[3, `${pad(d, 2)}/${pad(m, 2)}/${y}`], [2, `${y}-${pad(m, 2)}-${pad(d, 2)}`], [2, lang === 'en' ? `${m}/${d}/${y}` : `${d}.${m}.${y}`],
      [1, `${pad(d, 2)}.${pad(m, 2)}.${String(y).slice(2)}`], [1, `${y}${pad(m, 2)}${pad(d, 2)}`]]);
  };
  const gen = {
    order: () => r.pick([`#${r.digits(r.int(5, 9))}`, `${r.letters(2)}-${r.digits(6)}`, `${r.int(100, 999)}-${r.digits(7)}-${r.digits(7)}`, `ORD${r.digits(8)}`, `${r.letters(3)}${r.digits(5)}`, `${r.digits(4)}-${r.digits(4)}`]),
    price: money,
    date,
    time: () => r.pick([`${pad(r.int(0, 23), 2)}:${pad(r.int(0, 59), 2)}`, `${r.int(1, 12)}:${pad(r.int(0, 59), 2)} ${r.pick(['am', 'pm', 'AM', 'PM'])}`, `${r.int(7, 20)}h${pad(r.int(0, 59), 2)}`, `${pad(r.int(0, 23), 2)}:${pad(r.int(0, 59), 2)}:${pad(r.int(0, 59), 2)}`]),
    version: () => r.pick([`v${r.int(0, 12)}.${r.int(0, 30)}.${r.int(0, 99)}`, `${r.int(1, 20)}.${r.int(0, 9)}`, `${r.int(1, 10)}.${r.int(0, 9)}.${r.int(0, 99)}.${r.int(100, 30000)}`, `${r.int(1, 5)}.${r.int(0, 20)}.${r.int(0, 9)}-rc${r.int(1, 4)}`, `build ${r.digits(5)}`]),
    measure: () => r.pick([`${r.int(1, 200)}${dec}${r.int(0, 9)} kg`, `${r.int(140, 210)} cm`, `${r.int(1, 99)} mm`, `${r.int(1, 5)}${dec}${r.int(0, 9)} GHz`, `${r.int(1, 64)} GB`, `${r.int(1, 900)} km`, `${r.int(10, 500)} m²`, `${r.int(1, 40)} °C`, `${r.int(1, 99)} %`, `${r.int(100, 3000)} W`, `${r.int(1, 12)} mg`, `${r.int(1, 20)}${dec}${r.int(0, 9)} l`, `${r.int(2, 24)} x ${r.int(2, 24)} cm`]),
    qty: () => String(r.int(1, 500)),
    pct: () => `${r.int(1, 99)}${r.chance(0.4) ? dec + r.int(0, 9) : ''} %`.replace(' %', r.chance(0.5) ? '%' : ' %'),
    year: () => String(r.int(1960, 2030)),
    ticket: () => r.pick([`INC${r.digits(7)}`, `TKT-${r.digits(5)}`, `#${r.digits(4)}`, `JIRA-${r.int(10, 9999)}`, `CS-${r.digits(6)}`, `REQ${r.digits(6)}`, `BUG-${r.int(100, 99999)}`]),
    invoice: () => r.pick([`FA-${r.int(2015, 2030)}-${r.digits(5)}`, `INV-${r.digits(6)}`, `RE${r.int(2018, 2030)}${r.digits(4)}`, `F${r.digits(8)}`, `${r.int(2015, 2030)}/${r.digits(4)}`]),
    sku: () => r.pick([`SKU ${r.digits(5)}-${r.letters(1)}`, `${r.letters(3)}-${r.digits(4)}`, `art. ${r.digits(6)}`, `EAN ${r.digits(13)}`, `ISBN 978-${r.digits(1)}-${r.digits(3)}-${r.digits(5)}-${r.digits(1)}`]),
    hash: () => r.letters(r.pick([7, 12, 40]), '0123456789abcdef'),
    tracking: () => r.pick([`1Z${r.letters(16, AN)}`, `${r.letters(2)}${r.digits(9)}${r.pick(['FR', 'DE', 'ES', 'IT', 'NL', 'US'])}`, r.digits(r.pick([12, 14, 20]))]),
    port: () => String(r.pick([22, 80, 443, 3000, 5432, 6379, 8080, 8443, 9090, r.int(1024, 65535)])),
    num: () => String(r.int(0, 100000)),
    small: () => String(r.int(2, 30)),
    dur: () => `${r.int(1, 5000)}${r.pick(['ms', ' ms', 's', ' sec'])}`,
    status: () => String(r.pick([200, 201, 204, 301, 302, 400, 401, 403, 404, 409, 429, 500, 502, 503])),
    room: () => `${r.int(1, 9)}${r.pick(['', '.'])}${r.digits(2)}`,
  };
  return (gen[kind] || gen.num)();
}
