// Shared by the table generators of common/text (gen_grapheme_table.mjs,
// gen_word_table.mjs): a class per code point, written as the sorted ranges
// of equal class that range_table.hpp searches.

// [first, last, class] runs over all code points of `classes` (an array or
// typed array indexed by code point), leaving out the class `omit`.
export function classRuns(classes, omit) {
  const runs = [];
  for (let cp = 0; cp < 0x110000; ) {
    const c = classes[cp];
    let end = cp;
    while (end + 1 < 0x110000 && classes[end + 1] === c) ++end;
    if (c !== omit) runs.push([cp, end, c]);
    cp = end + 1;
  }
  return runs;
}

// The runs as a C++ table: `const <rangeType> <arrayName>[] = {...};` with one
// `{0x0041, 0x005A, <enumName>::<Name>},` line per run, then `<countName>`.
// `classes` maps each enumerator's name to its class number.
export function cppRangeArray({ rangeType, arrayName, countName, enumName, classes }, runs) {
  const names = Object.fromEntries(Object.entries(classes).map(([k, v]) => [v, k]));
  const hex = (n) => '0x' + n.toString(16).toUpperCase().padStart(4, '0');
  const lines = runs.map(([a, b, c]) => `    {${hex(a)}, ${hex(b)}, ${enumName}::${names[c]}},`).join('\n');
  return `const ${rangeType} ${arrayName}[] = {\n${lines}\n};\n` +
         `const std::size_t ${countName} = sizeof ${arrayName} / sizeof ${arrayName}[0];`;
}
