#!/usr/bin/env node
// `make ... VARIANT=name`: is `name` a variant that the stage declares? Reads
// the stage's variants.json (written when CMake configures the wasm build) and,
// when the name is not there, lists the names that are, so a typo does not end
// in CMake's generic "unknown target".
//
//   node common/harness/require-variant.mjs build/wasm/stages/NN-name/variants.json NAME
import fs from 'node:fs';

const [file, name] = process.argv.slice(2);
let declared;
try {
  declared = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`VARIANT=${name}: cannot read ${file} (${error.code ?? error.message}); configure the wasm build first (make build-wasm)`);
  process.exit(2);
}
const names = [...Object.keys(declared.sweep ?? {}), ...(declared.failing ?? []), ...(declared.traps ?? [])];
if (!names.includes(name)) {
  console.error(`VARIANT=${name}: stage ${declared.stage} declares no such variant; ` +
    (names.length ? `its variants are: ${names.join(', ')}` : 'it declares none'));
  process.exit(2);
}
