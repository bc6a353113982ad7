// Generates grapheme_table.cpp: the Grapheme_Cluster_Break and
// Indic_Conjunct_Break properties of every code point, as the reference
// tokenizer (Rust unicode-segmentation 1.12, Unicode 16) sees them where it
// matters to us.
//
// Where it matters: HF's Precompiled normaliser treats a grapheme cluster
// shorter than 6 bytes as one unit, so whether a 2- or 3-byte character joins
// its neighbour changes the normalised text. We take each character's class
// from Node's ICU (its Intl.Segmenter, whatever Unicode version Node ships) and
// then ask the reference itself, for every BMP character, whether it joins the
// character before it (Extend/SpacingMark/ZWJ) or after it (Prepend); its
// answer wins. Run: node common/text/gen_grapheme_table.mjs <tokenizer.json>
// (any tokenizer.json with an nmt_nfkc Precompiled normaliser).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { classRuns, cppRangeArray } from './unicode_table.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { Tokenizer } = require(path.join(here, '../node/node_modules/@anush008/tokenizers'));
const normalizer = Tokenizer.fromFile(process.argv[2]).getNormalizer();
const normalize = (s) => normalizer.normalizeString(s);

// Class numbers: keep in step with GraphemeClass in grapheme.hpp.
const C = { Other: 0, CR: 1, LF: 2, Control: 3, Extend: 4, ZWJ: 5, RegionalIndicator: 6, Prepend: 7,
            SpacingMark: 8, L: 9, V: 10, T: 11, LV: 12, LVT: 13, ExtendedPictographic: 14 };

const seg = new Intl.Segmenter('en', { granularity: 'grapheme' });
const clusters = (s) => [...seg.segment(s)].length;
const extPict = /\p{Extended_Pictographic}/u;

function hangul(cp) {
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0xA960 && cp <= 0xA97C)) return C.L;
  if ((cp >= 0x1160 && cp <= 0x11A7) || (cp >= 0xD7B0 && cp <= 0xD7C6)) return C.V;
  if ((cp >= 0x11A8 && cp <= 0x11FF) || (cp >= 0xD7CB && cp <= 0xD7FB)) return C.T;
  if (cp >= 0xAC00 && cp <= 0xD7A3) return (cp - 0xAC00) % 28 === 0 ? C.LV : C.LVT;
  return -1;
}

function icuClass(cp) {
  const x = String.fromCodePoint(cp);
  if (cp === 0x0D) return C.CR;
  if (cp === 0x0A) return C.LF;
  if (cp === 0x200D) return C.ZWJ;
  if (cp >= 0x1F1E6 && cp <= 0x1F1FF) return C.RegionalIndicator;
  const h = hangul(cp);
  if (h >= 0) return h;
  if (clusters('a' + x) === 1) {
    // Extend or SpacingMark: only Extend may sit between a pictograph and ZWJ (GB11).
    return clusters('\u{1F600}' + x + '\u200D\u{1F600}') === 1 ? C.Extend : C.SpacingMark;
  }
  if (clusters(x + 'a') === 1) return C.Prepend;
  if (clusters(x + '\u0301') === 2) return C.Control;
  if (extPict.test(x)) return C.ExtendedPictographic;
  return C.Other;
}

const classes = new Uint8Array(0x110000);
let overridden = 0;
for (let cp = 0; cp < 0x110000; ++cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) continue;
  classes[cp] = icuClass(cp);
}

// The reference's own answers for the BMP. '²' maps to '2'; a whole cluster of
// fewer than 6 bytes that starts with it becomes just "2".
for (let cp = 0x80; cp < 0x10000; ++cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) continue;
  const x = String.fromCodePoint(cp);
  const alone = normalize(x);
  if (alone === '') continue;  // removed characters cannot be probed this way
  const joinsPrevious = normalize('\u00B2' + x) === '2';
  const icuJoins = [C.Extend, C.SpacingMark, C.ZWJ].includes(classes[cp]);
  if (joinsPrevious !== icuJoins && classes[cp] !== C.Control) {
    classes[cp] = joinsPrevious ? C.Extend : C.Other;
    ++overridden;
  }
}
// Prepend: "X²◌́" keeps the accent only if X opens the cluster that holds '²'.
for (let cp = 0x80; cp < 0x110000; ++cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) continue;
  const c = classes[cp];
  if (c !== C.Other && c !== C.Prepend && c !== C.ExtendedPictographic) continue;
  const x = String.fromCodePoint(cp);
  const out = normalize(x + '\u00B2\u0301');
  const isPrepend = out.endsWith('2\u0301');
  if (isPrepend !== (c === C.Prepend)) {
    classes[cp] = isPrepend ? C.Prepend : C.Other;
    ++overridden;
  }
}

// Indic_Conjunct_Break (GB9c: consonant, virama-like linker, consonant stay one
// cluster). ICU first, then the reference: "क" + X + "क़◌́" keeps its accent
// only when X links क to क़ (so that क़◌́ is not a 5-byte cluster of its own).
const I = { None: 0, Consonant: 1, Extend: 2, Linker: 3 };
const incb = new Uint8Array(0x110000);
const joins = (c) => [C.Extend, C.ZWJ, C.SpacingMark].includes(c);
const keepsAccent = (s) => normalize(s).endsWith('\u0301');
const probe = '\u0958\u0301';  // क़ (maps to क + nukta) + combining acute
let incbOverridden = 0;
for (let cp = 0; cp < 0x110000; ++cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) continue;
  const x = String.fromCodePoint(cp);
  if (joins(classes[cp])) {
    if (clusters('\u0915' + x + '\u0915') === 1) incb[cp] = I.Linker;
    else if (clusters('\u0915' + x + '\u094D\u0915') === 1) incb[cp] = I.Extend;
  } else if (classes[cp] === C.Other && clusters('\u0915\u094D' + x) === 1) {
    incb[cp] = I.Consonant;
  }
}
for (let cp = 0x80; cp < 0x20000; ++cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) continue;
  const x = String.fromCodePoint(cp);
  let want;
  if (joins(classes[cp])) {
    if (keepsAccent('\u0915' + x + probe)) want = I.Linker;
    else if (keepsAccent('\u0915' + x + '\u094D' + probe)) want = I.Extend;
    else want = I.None;
  } else {
    want = keepsAccent(x + '\u094D' + probe) ? I.Consonant : I.None;
  }
  if (want !== incb[cp]) {
    incb[cp] = want;
    ++incbOverridden;
  }
}

// Ranges of equal class, Other (None) omitted.
const ranges = classRuns(classes, C.Other);
const incbRanges = classRuns(incb, I.None);
const text = `// Generated by common/text/gen_grapheme_table.mjs: do not edit.
// Grapheme_Cluster_Break classes (Node ICU ${process.versions.icu}, Unicode ${process.versions.unicode},
// corrected by ${overridden} probes of the reference tokenizer); Other omitted.
#include "common/text/grapheme.hpp"

namespace bx::grapheme {

${cppRangeArray({ rangeType: 'ClassRange', arrayName: 'kClassRanges', countName: 'kClassRangeCount',
                 enumName: 'GraphemeClass', classes: C }, ranges)}

// Indic_Conjunct_Break (corrected by ${incbOverridden} probes of the reference); None omitted.
${cppRangeArray({ rangeType: 'ConjunctRange', arrayName: 'kConjunctRanges', countName: 'kConjunctRangeCount',
                 enumName: 'ConjunctClass', classes: I }, incbRanges)}

}  // namespace bx::grapheme
`;
writeFileSync(path.join(here, 'grapheme_table.cpp'), text);
console.log(`${ranges.length} class ranges (${overridden} overridden by the reference), ` +
            `${incbRanges.length} conjunct ranges (${incbOverridden} overridden)`);
