#!/usr/bin/env node
// Is bench/results/ladders.md about today's code? The pinned ladders run (the
// one ladders.md is rendered from) must list, for every kernel, exactly the
// rungs that today's stages make: the same first stages, the same stage
// ranges and the same code hashes (CMake's, written to
// <build>/bench/ladder-rungs.json). A stage whose kernel changed gets a new
// hash or joins another rung, and the test fails until `make bench-ladders`
// measures it again. ladders.md itself must be what the pinned run renders.
//
//   node bench/micro/ladder/fresh.mjs BUILD_DIR            exit 1 when stale
//   node bench/micro/ladder/fresh.mjs BUILD_DIR --plant    the deliberate break: one rung's
//       code hash changed in today's list; exits 1 when that is reported, 0 if not
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { pinnedFile } from '../../pin.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const [build, ...flags] = process.argv.slice(2);
if (!build) { console.error('usage: fresh.mjs BUILD_DIR [--plant]'); process.exit(2); }

const today = JSON.parse(readFileSync(join(build, 'bench', 'ladder-rungs.json'), 'utf8'));
if (flags.includes('--plant')) {
  const last = today.filter((r) => r.code).at(-1);
  last.code = last.code.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  console.log(`fresh: planted a changed kernel: ${last.kernel} ${last.stage}`);
}
const pinned = pinnedFile('ladders');
if (!pinned) { console.log('fresh: no pinned ladders run (make bench-ladders)'); process.exit(1); }
const run = JSON.parse(readFileSync(join(root, 'bench/results', pinned.split('/').pop()), 'utf8'));
const key = (r) => `${r.stage} [${r.stages}] ${r.code || 'scalar'}`;

const problems = [];
for (const kernel of [...new Set(today.map((r) => r.kernel))]) {
  const want = today.filter((r) => r.kernel === kernel).map(key).sort();
  const ladder = run.ladders.find((l) => l.kernel === kernel);
  if (!ladder) { problems.push(`${kernel}: not in the pinned run`); continue; }
  const have = ladder.rungs.map((r) => key({ ...r, code: r.code ?? '(no hash)' })).sort();
  for (const w of want) if (!have.includes(w)) problems.push(`${kernel}: today's rung ${w} is not in the pinned run`);
  for (const h of have) if (!want.includes(h)) problems.push(`${kernel}: the pinned run's rung ${h} is not today's`);
}
const md = readFileSync(join(root, 'bench/results/ladders.md'), 'utf8');
if (!md.includes(`\`bench/results/${pinned.split('/').pop()}\``))
  problems.push(`ladders.md is not rendered from the pinned run ${pinned.split('/').pop()} (node bench/micro/ladder/run.mjs --table-only)`);

for (const p of problems) console.log(`fresh: ${p}`);
console.log(problems.length ? `fresh: bench/results/ladders.md is stale (${problems.length}): run make bench-ladders`
                            : `fresh: the pinned ladders run has every rung of today's code (${today.length})`);
process.exit(problems.length ? 1 : 0);
