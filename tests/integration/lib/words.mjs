// Where the words of a text are, in code points: the definition of
// common/text/words.hpp written again, independently, so that the tests of
// the service check the C++ against it (an entity may never start or end
// strictly inside a word).
//
// A word: the text split at White_Space; in each piece, every letter or digit
// of a script written without spaces is a word by itself (with the marks that
// follow it); what remains between them is one word once the characters at
// its ends that are not letters, digits or marks are stripped.
const SPACELESS = /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Bopomofo}|\p{Script=Yi}|\p{Script=Thai}|\p{Script=Lao}|\p{Script=Khmer}|\p{Script=Myanmar}|\p{Script=Tai_Tham}|\p{Script=Tai_Le}|\p{Script=New_Tai_Lue}/u;

function kind(ch) {
  if (/\p{White_Space}/u.test(ch)) return 'space';
  if (/\p{M}/u.test(ch)) return 'mark';
  if (/[\p{L}\p{N}]/u.test(ch)) return SPACELESS.test(ch) ? 'spaceless' : 'letter';
  return 'other';
}

// [begin, end) code point ranges of the words of `cps` (an array of code points as strings).
export function wordRanges(cps) {
  const words = [];
  const kinds = cps.map(kind);
  let i = 0;
  while (i < cps.length) {
    if (kinds[i] === 'space') { ++i; continue; }
    let end = i;  // the piece: up to the next space
    while (end < cps.length && kinds[end] !== 'space') ++end;
    // Cut the piece into runs: each spaceless character (with its marks) alone,
    // everything between them together.
    let j = i;
    while (j < end) {
      let k = j + 1;
      if (kinds[j] === 'spaceless') {
        while (k < end && kinds[k] === 'mark') ++k;
        words.push([j, k]);
      } else {
        while (k < end && kinds[k] !== 'spaceless') ++k;
        let a = j, b = k;  // strip what is not a letter, digit or mark at both ends
        while (a < b && kinds[a] === 'other') ++a;
        while (b > a && kinds[b - 1] === 'other') --b;
        if (a < b) words.push([a, b]);
      }
      j = k;
    }
    i = end;
  }
  return words;
}

// Is code point offset `at` strictly inside one of `words`?
export function insideWord(words, at) {
  return words.some(([b, e]) => b < at && at < e);
}
