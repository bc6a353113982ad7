#!/usr/bin/env node
// The source lint: rules that keep the code's prose honest, checked on every
// tracked source file under stages/, common/, tests/ and bench/, the recipe's
// make files and the top-level build files. No npm dependencies.
//
//   node tests/lint/source_lint.mjs           lint the tree; exit 1 on a violation
//   node tests/lint/source_lint.mjs --plant   the deliberate break: lint the tree
//                                             plus one planted file per rule. Exits 1
//                                             (fails) when every rule reported its
//                                             plant, 0 when one did not, so CTest's
//                                             WILL_FAIL twin shows each rule can fail
//
// The rules:
//   opening      A stage's file does not open (its first lines) by naming another
//                stage as where it came from ("Stage 05's ..."). Lineage lives in
//                the generated stages/README.md; stage 00, the oracle every stage
//                is compared with, may be named, but not as the owner.
//   last-stage   The last stage's files name no other stage but the oracle: they
//                say in the present tense what the code does and why it is exact,
//                not which stage did what before.
//   tracker      No issue numbers or tracker talk ("issue 37", "the issue's",
//                "this session") anywhere: a reader of the code has no tracker.
//   aliases      The Makefiles declare no alias "kept for" anything: one name per
//                target.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Files the rules read: text sources, not data or captured output.
const SCOPES = ['stages', 'common', 'tests', 'bench', 'assets/recipe', 'Makefile', 'CMakeLists.txt'];
const TEXT = /\.(cpp|hpp|h|c|mjs|js|py|cmake|mk|md|sh|lua|wit|toml)$|(^|\/)(Makefile|CMakeLists\.txt)$/;
const SKIP = [/^bench\/results\//, /^tests\/fuzz\/seeds\//, /^assets\/recipe\/.*\/data\//];
const OPENING_LINES = 8;
// This file names the phrases it forbids.
const SELF = 'tests/lint/source_lint.mjs';

const stageOf = (file) => /^stages\/(\d\d)-[^/]+\//.exec(file)?.[1] ?? null;
const otherStages = (line, own) =>
  [...line.matchAll(/\bstages?\s+(\d\d)\b/gi)].map((m) => m[1]).filter((n) => n !== own && n !== '00');

// "Stage NN's <thing>" at the start of a sentence names where the thing came
// from, even when NN is the oracle: a file opens with what it is, not whose it was.
const ownedBy = (line, own) => [...line.matchAll(/(?:^|[.:]\s+|\/\/\s*|#\s*)Stage (\d\d)['’]s\b/g)].some((m) => m[1] !== own);

const TRACKER = [
  /\bissues?\s*#?\d+/i,              // issue 37, issues 16 and 42, issue #5
  /\bissue['’]s\b/i,                 // the issue's two requests
  /\b(the|this|that|an|each|every|per|an?\s+open)\s+issues?\b(?!\s+(an?|the|one|two|four|eight|\d))/i,
  /\(issue\b/i,                      // (issue: ...)
  /\btickets?\s*#?\d+/i,
  /\b(this|last|next|previous|a later|each)\s+session\b/i,
];

export function lintFile(file, text, lastStage) {
  const found = [];
  const lines = text.split('\n');
  const own = stageOf(file);
  lines.forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (own && i < OPENING_LINES && (otherStages(line, own).length || ownedBy(line, own)))
      found.push({ rule: 'opening', at, line });
    if (own && own === lastStage && i >= OPENING_LINES && otherStages(line, own).length)
      found.push({ rule: 'last-stage', at, line });
    if (file !== SELF && TRACKER.some((re) => re.test(line))) found.push({ rule: 'tracker', at, line });
    if (/(^|\/)(Makefile|[^/]+\.mk)$/.test(file) && /\balias(es)?\b.*\bkept\b|\bkept for one release\b/i.test(line))
      found.push({ rule: 'aliases', at, line });
  });
  return found;
}

function trackedFiles() {
  const r = spawnSync('git', ['ls-files', '-z', '--', ...SCOPES], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return r.stdout.split('\0').filter((f) => f && TEXT.test(f) && !SKIP.some((re) => re.test(f)));
}

export function lastStageNumber(files) {
  const numbers = files.map(stageOf).filter(Boolean).sort();
  return numbers[numbers.length - 1];
}

// One planted file per rule, each breaking exactly that rule.
function plants(lastStage) {
  const last = `stages/${lastStage}-planted`;
  return [
    { rule: 'opening', file: 'stages/05-planted/gemm.hpp', text: "// Stage 02's matrix product, re-tiled.\nint x;\n" },
    { rule: 'opening', file: 'stages/05-planted/unigram.hpp', text: "// Stage 00's Unigram step, copied.\nint x;\n" },
    { rule: 'last-stage', file: `${last}/gelu.hpp`,
      text: '// The GELU of one row.\n\n\n\n\n\n\n\n// Stages 07 to 23 computed both ranges for every lane.\n' },
    { rule: 'tracker', file: 'tests/integration/planted.test.mjs', text: '// The two requests of issue 37.\n' },
    { rule: 'aliases', file: 'assets/recipe/planted.mk', text: '# Aliases kept for one release.\nold: new\n' },
  ];
}

function main() {
  const files = trackedFiles();
  const lastStage = lastStageNumber(files);
  const found = files.flatMap((f) => lintFile(f, fs.readFileSync(path.join(ROOT, f), 'utf8'), lastStage));
  if (process.argv.includes('--plant')) {
    const missed = plants(lastStage).filter((p) => !lintFile(p.file, p.text, lastStage).some((v) => v.rule === p.rule));
    for (const p of missed) console.log(`source-lint: the planted ${p.rule} violation in ${p.file} was not reported`);
    if (found.length) console.log(`source-lint: the tree itself has ${found.length} violation(s)`);
    // A plant that goes unreported means the rule cannot fail: that is this mode's failure.
    if (missed.length) process.exit(0);
    console.log(`source-lint: every rule reported its plant (${plants(lastStage).length} rules)`);
    process.exit(1);
  }
  for (const v of found) console.log(`${v.at}: [${v.rule}] ${v.line.trim()}`);
  console.log(found.length
    ? `source-lint: ${found.length} violation(s) in ${new Set(found.map((v) => v.at.split(':')[0])).size} file(s)`
    : `source-lint: ${files.length} files, no violation (last stage ${lastStage})`);
  process.exit(found.length ? 1 : 0);
}

main();
