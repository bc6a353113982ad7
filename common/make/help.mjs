// `make help`: every make target, grouped, each with its one line of help.
//
// The help lives beside the rules, so that a new target cannot be added far
// from its description: the line directly above a target's rule line reads
//
//   ## <group>: <one line of help>
//
// in the Makefile and in every fragment it includes. This script finds the
// files the way make does (include / -include lines, $(wildcard ...) and globs
// expanded; a fragment that is not there is skipped, as -include skips it) and
// prints the targets group by group, in GROUPS' order, alphabetically within a
// group.
//
//   node common/make/help.mjs [ROOT]   ROOT: the directory holding the Makefile
//                                      (default: this repository)
//
// Output (tests/integration/make_help.test.mjs reads it): a target's line is
// two spaces, the name, at least two spaces, its help; no other line starts
// with exactly two spaces.
// Not targets, so not listed: pattern rules (%), special targets (.PHONY ...)
// and names built from variables ($(WASM_BUILD)/CMakeCache.txt ...): those are
// files the named targets make on the way, not commands.
// A target without a `##` line, or a `##` line with no rule under it, is named
// on stderr; the help is printed all the same (the test is what fails).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const GROUPS = ['everyday', 'the book', 'the model', 'deep dives', 'internals'];

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../..'));
const problems = [];

// Logical lines of a makefile: backslash-newline joins lines, as make does.
function logicalLines(text) {
  const out = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const start = i;
    let line = raw[i];
    while (line.endsWith('\\') && i + 1 < raw.length) line = `${line.slice(0, -1)} ${raw[++i]}`;
    out.push({ line, number: start + 1 });
  }
  return out;
}

// The files an include line names, relative to ROOT (make's working directory).
// Only $(wildcard ...) is understood; a word that still holds a variable is
// skipped, since this script does not evaluate make.
function includedFiles(words) {
  const files = [];
  for (const word of words.replace(/\$\(wildcard\s+([^)]*)\)/g, '$1').trim().split(/\s+/)) {
    if (!word || word.includes('$')) continue;
    if (!/[*?[]/.test(word)) {
      files.push(word);
      continue;
    }
    // A glob in the last path component only (all the Makefile uses).
    const dir = path.posix.dirname(word);
    const pattern = new RegExp(`^${path.posix.basename(word).replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
    let names = [];
    try { names = readdirSync(path.join(root, dir)); } catch { /* no such directory: nothing matches */ }
    files.push(...names.filter((n) => pattern.test(n)).sort().map((n) => path.posix.join(dir, n)));
  }
  return files;
}

// The target names of a rule line, or null when the line is no rule (a
// variable assignment, a target-specific variable, a directive).
function ruleTargets(line) {
  if (/^\s*(ifeq|ifneq|ifdef|ifndef|else|endif|export|unexport|override|undefine|vpath|private)(\s|$)/.test(line)) return null;
  // The first colon outside $(...): what is left of it are the targets.
  let depth = 0;
  let colon = -1;
  for (let i = 0; i < line.length && colon < 0; i++) {
    const c = line[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === '#' && depth === 0) return null;            // a comment before any colon
    else if (c === '=' && depth === 0) return null;            // X = a:b, X ?= ..., X != ...
    else if (c === ':' && depth === 0) colon = i;
  }
  if (colon < 0) return null;
  const after = line.slice(colon + 1);
  if (/^:{0,2}=/.test(after)) return null;                      // X := ..., X ::= ..., X :::= ...
  // target: VAR = value (a target-specific variable, not a rule)
  if (/^:?\s*(export\s+|override\s+|private\s+)*[A-Za-z_][\w.-]*\s*(\?|\+|!|:{1,3})?=/.test(after)) return null;
  return line.slice(0, colon).trim().split(/\s+/).filter(Boolean);
}

function listable(name) {
  return !name.includes('%') && !name.includes('$') && !/^\.[A-Z_]+$/.test(name);
}

const targets = new Map(); // name -> { file, line, group, text }
const seenFiles = new Set();

function readMakefile(rel) {
  if (seenFiles.has(rel)) return;
  seenFiles.add(rel);
  const file = path.join(root, rel);
  if (!existsSync(file)) return; // an optional fragment that is not there
  let pending = null;            // the `##` line waiting for its rule line
  let inDefine = false;
  for (const { line, number } of logicalLines(readFileSync(file, 'utf8'))) {
    const where = `${rel}:${number}`;
    if (inDefine) {
      if (/^\s*endef\b/.test(line)) inDefine = false;
      continue;
    }
    if (/^\s*define\s/.test(line)) {
      inDefine = true;
      continue;
    }
    if (line.startsWith('\t')) continue; // a recipe line
    if (pending && !line.startsWith('##')) {
      // Only the rule line itself may follow a `##` line.
      const names = ruleTargets(line);
      if (!names || !names.some(listable)) problems.push(`${pending.where}: a ## line with no rule line under it`);
    }
    const doc = /^##\s*([^:]+?)\s*:\s*(.*)$/.exec(line);
    if (line.startsWith('##')) {
      if (pending) problems.push(`${pending.where}: a ## line with no rule line under it`);
      if (!doc) problems.push(`${where}: a ## line that is not "## <group>: <help>"`);
      pending = doc ? { group: doc[1], text: doc[2].trim(), where } : null;
      continue;
    }
    const include = /^\s*(-include|sinclude|include)\s+(.*)$/.exec(line);
    if (include) {
      for (const f of includedFiles(include[2])) readMakefile(f);
      pending = null;
      continue;
    }
    const names = ruleTargets(line);
    if (names) {
      for (const name of names.filter(listable)) {
        const known = targets.get(name);
        if (known && pending && known.group) problems.push(`${pending.where}: a second ## line for ${name} (first: ${known.where})`);
        if (!known) targets.set(name, { where, group: pending?.group, text: pending?.text });
        else if (!known.group && pending) Object.assign(known, { group: pending.group, text: pending.text });
      }
    }
    pending = null;
  }
}

readMakefile('Makefile');

const groups = new Map(GROUPS.map((g) => [g, []]));
for (const [name, t] of targets) {
  if (!t.group) {
    problems.push(`${t.where}: ${name} has no "## <group>: <help>" line above its rule line`);
    continue;
  }
  if (!groups.has(t.group)) {
    problems.push(`${t.where}: ${name}: unknown group "${t.group}" (known: ${GROUPS.join(', ')})`);
    groups.set(t.group, []); // still listed, after the known groups: a typo hides nothing
  }
  groups.get(t.group).push([name, t.text]);
}

const width = Math.max(0, ...[...targets.keys()].map((n) => n.length)) + 2;
const out = ['bitexact: make <target> [VARIABLE=value ...]', ''];
for (const [group, entries] of groups) {
  if (!entries.length) continue;
  out.push(`${group}:`);
  for (const [name, text] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push(`  ${name.padEnd(width)}${text}`);
  out.push('');
}

// The variables most targets share (the Makefile's top), and the stages there are.
let stages = [];
try {
  stages = readdirSync(path.join(root, 'stages'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d\d-/.test(d.name)).map((d) => d.name).sort();
} catch { /* no stages/ (a copy of the makefiles alone) */ }
out.push(
  'STAGE=NN picks stages/NN-* (default: the highest-numbered stage). RUNTIME=wasmtime|v8 picks what runs',
  'cli.wasm for check, eval, redact and bench (default v8; bench-all and bench-instructions measure both',
  'unless it is given). NATIVE=1: the native build, a cross-check, never the proof. VARIANT=name: one of',
  "a stage's kept variants (its CMakeLists.txt).",
);
// Wrapped, continued with more than two spaces (a target's line has exactly two).
const stageLines = [];
for (const name of stages) {
  const last = stageLines.length - 1;
  if (last >= 0 && stageLines[last].length + name.length < 100) stageLines[last] += ` ${name}`;
  else stageLines.push(last < 0 ? `Stages: ${name}` : `        ${name}`);
}
out.push(...stageLines);
process.stdout.write(`${out.join('\n')}\n`);

for (const p of problems) process.stderr.write(`help.mjs: ${p}\n`);
