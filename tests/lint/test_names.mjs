#!/usr/bin/env node
// One naming scheme for CTest's tests, checked on the tests a build directory
// registers (ctest -N):
//
//   AREA: what it checks                      AREA is unit, node, fuzz, sanitize,
//                                             bench, book, build, check, readme,
//                                             stages, lint, or "stage NN[-name]"
//   AREA: what it breaks mutant[ NAME] is caught
//                                             a deliberate break: the one suffix
//
// "mutant" appears only in that suffix's place, and nothing else ends in
// "is caught"; no dotted names, no "(mutant)", no "-mutant".
//
//   node tests/lint/test_names.mjs BUILD_DIR            exit 1 on a bad name
//   node tests/lint/test_names.mjs BUILD_DIR --plant    the deliberate break: adds
//       one name per kind of mistake; exits 1 when each was reported, 0 if not
import { spawnSync } from 'node:child_process';

const AREA = /^(unit|node|fuzz|sanitize|bench|book|build|check|readme|stages|lint|stage \d\d(-[a-z0-9-]+)?): \S/;
const BREAK = / mutant( [a-z0-9-]+)? is caught$/;

export function problem(name) {
  if (!AREA.test(name)) return 'does not start with a known "area: "';
  if (/\bmutant\b/.test(name) !== BREAK.test(name)) return 'a deliberate break must end "mutant[ NAME] is caught", and only a break says "mutant"';
  if (/ is caught$/.test(name) && !BREAK.test(name)) return '"is caught" belongs to a deliberate break';
  return null;
}

const PLANTS = ['bench.epoch.mutant', 'check mutant is caught (wasmtime)', 'sanitize: a read past the end (mutant)',
                'node: http-mutant', 'stage 18: variant unpack-twice is caught'];

const [dir, ...flags] = process.argv.slice(2);
if (!dir) { console.error('usage: test_names.mjs BUILD_DIR [--plant]'); process.exit(2); }
const r = spawnSync('ctest', ['--test-dir', dir, '-N'], { encoding: 'utf8' });
if (r.status !== 0) { console.error(`ctest -N failed: ${r.stderr}`); process.exit(2); }
const names = [...r.stdout.matchAll(/^\s*Test\s+#\d+: (.*)$/gm)].map((m) => m[1].trim());
if (names.length === 0) { console.error(`no tests registered in ${dir}`); process.exit(2); }

if (flags.includes('--plant')) {
  const missed = PLANTS.filter((n) => !problem(n));
  for (const n of missed) console.log(`test-names: the planted name "${n}" was not reported`);
  if (missed.length) process.exit(0);
  console.log(`test-names: every planted name was reported (${PLANTS.length})`);
  process.exit(1);
}
const bad = names.map((n) => [n, problem(n)]).filter(([, why]) => why);
for (const [n, why] of bad) console.log(`test-names: "${n}": ${why}`);
console.log(bad.length ? `test-names: ${bad.length} of ${names.length} names break the scheme`
                       : `test-names: ${names.length} names, one scheme`);
process.exit(bad.length ? 1 : 0);
