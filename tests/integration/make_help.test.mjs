// ctest-labels: quick
// `make help` (common/make/help.mjs) lists every target of the Makefile and the
// fragments it includes, and nothing else. The targets are found here on their
// own, not with help.mjs's code: a static read of the rule lines, checked in
// turn against make's own database. A help that misses a target must fail the
// comparison (the mutant below: a copy of the makefiles with one `##` line gone).
//
// What counts as a target: every name left of a rule line's colon (`a b: deps`,
// not `X := v`, `X ::= v` or `a: X = v`), except pattern rules (%), special
// targets (.PHONY ...) and names built from variables. Those last
// ($(WASM_BUILD)/CMakeCache.txt, $(HARNESS_REF_BUILD) ...) are files the named
// targets make on the way, not commands: make's database must show each of
// them expanded to a path (a name with a /); one that expands to a plain name
// would be a command help cannot name, and fails the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib/env.mjs';

const helpScript = path.join(root, 'common/make/help.mjs');

// make without what an outer make or the caller's shell might pass down
// (MAKEFLAGS could ask for -n or -w; a bad RUNTIME or CORPUS stops make at once).
function makeEnv() {
  const env = { ...process.env };
  for (const name of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'RUNTIME', 'CORPUS', 'STAGE']) delete env[name];
  return env;
}

// The makefiles make reads from dir: the Makefile, then what each include or
// -include line names ($(wildcard ...) and * in a file name expanded), depth first.
function makefiles(dir, rel = 'Makefile', found = []) {
  if (found.includes(rel) || !existsSync(path.join(dir, rel))) return found;
  found.push(rel);
  for (const [, words] of readFileSync(path.join(dir, rel), 'utf8').replace(/\\\n/g, ' ').matchAll(/^-?include\s+(.+)$/gm)) {
    for (const word of words.replace(/\$\(wildcard\s+(.*?)\)/, '$1').split(/\s+/).filter(Boolean)) {
      if (!word.includes('*')) {
        makefiles(dir, word, found);
        continue;
      }
      const sub = path.posix.dirname(word);
      const re = new RegExp(`^${path.posix.basename(word).split('*').map((s) => s.replace(/[.?+^$()[\]{}|\\]/g, '\\$&')).join('[^/]*')}$`);
      const names = existsSync(path.join(dir, sub)) ? readdirSync(path.join(dir, sub)).filter((n) => re.test(n)).sort() : [];
      for (const n of names) makefiles(dir, `${sub}/${n}`, found);
    }
  }
  return found;
}

// Every rule line's targets and prerequisites, from the makefile text alone.
function rules(dir) {
  const found = [];
  for (const rel of makefiles(dir)) {
    let inDefine = false;
    for (const line of readFileSync(path.join(dir, rel), 'utf8').replace(/\\\n/g, ' ').split('\n')) {
      if (/^define\s/.test(line)) inDefine = true;
      if (inDefine) {
        if (/^endef\b/.test(line)) inDefine = false;
        continue;
      }
      const m = /^([^:=#\t][^:=#]*?)\s*(::?)(?![:=])(.*)$/.exec(line);
      if (!m) continue;
      const rest = m[3].replace(/#.*$/, '').trim();
      if (/^[A-Za-z_][\w.-]*\s*[:?+!]?=/.test(rest)) continue; // target-specific variable
      found.push({ file: rel, targets: m[1].trim().split(/\s+/), prereqs: rest.split(/\s+/).filter(Boolean) });
    }
  }
  return found;
}

// The commands: named targets, without patterns, special targets and variable-named files.
function definedTargets(dir) {
  const names = new Set();
  for (const { targets } of rules(dir))
    for (const t of targets) if (!t.includes('%') && !t.includes('$') && !/^\.[A-Z_]+$/.test(t)) names.add(t);
  return names;
}

// help's output: group headings (`name:` at column 0) and target lines (two
// spaces, the name, two or more spaces, the help).
function parseHelp(text) {
  const groups = [];
  const entries = [];
  for (const line of text.split('\n')) {
    const heading = /^(\S.*):$/.exec(line);
    if (heading) groups.push(heading[1]);
    const entry = /^ {2}(\S+) {2,}(\S.*)$/.exec(line);
    if (entry) entries.push({ name: entry[1], text: entry[2], group: groups.at(-1) });
  }
  return { groups, entries };
}

// What help leaves out and what it has too many of.
function compare(targets, listed) {
  return {
    missing: [...targets].filter((t) => !listed.includes(t)).sort(),
    extra: listed.filter((n) => !targets.has(n)).sort(),
  };
}

test('make help lists every target of the Makefile and its fragments, and nothing else', () => {
  const run = spawnSync('make', ['help'], { cwd: root, env: makeEnv(), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  // help.mjs names a target without a `##` line, or a `##` line without a rule, on stderr.
  assert.equal(run.stderr, '', 'help.mjs complained');
  const { groups, entries } = parseHelp(run.stdout);
  const targets = definedTargets(root);
  const listed = entries.map((e) => e.name);
  assert.ok(targets.size > 50, `only ${targets.size} targets found: is the parse broken?`);
  assert.deepEqual(compare(targets, listed), { missing: [], extra: [] });
  assert.equal(new Set(listed).size, listed.length, 'a target listed twice');
  assert.deepEqual(groups, ['everyday', 'the book', 'the model', 'deep dives', 'internals']);
  for (const e of entries) assert.ok(e.text.length > 5, `${e.name}: no help`);
  console.log(`make help lists ${listed.length} targets from ${makefiles(root).length} makefiles`);
});

test('no alias: no help line calls a target an old name or an alias of another', () => {
  const { entries } = parseHelp(spawnSync(process.execPath, [helpScript, root], { encoding: 'utf8' }).stdout);
  for (const e of entries) assert.ok(!/\balias\b|old name|kept for one release/i.test(e.text), `${e.name}: "${e.text}" reads as an alias`);
});

test("make's own database has no target the static parse missed", () => {
  // -p prints the database, -q runs no recipe, -R -r leave out the built-in
  // rules and variables; a goal with no rule stops make before it would update
  // anything (no rule remakes the makefiles themselves), so nothing is built.
  const run = spawnSync('make', ['-pRrq', '-f', 'Makefile', '__make_help_test_no_such_target__'],
    { cwd: root, env: makeEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.match(run.stderr, /No rule to make target '__make_help_test_no_such_target__'/);
  const files = run.stdout.slice(run.stdout.indexOf('\n# Files\n'), run.stdout.indexOf('\n# files hash-table stats'));
  assert.ok(files.length > 1000, 'no "# Files" section in make -p output');
  const database = new Set();
  for (const block of files.split('\n\n')) {
    if (block.trimStart().startsWith('# Not a target:')) continue;
    const first = block.split('\n').find((l) => l && !l.startsWith('#') && !l.startsWith('\t'));
    const m = first && /^([^\s:#][^:]*?):/.exec(first);
    if (m && !m[1].includes('%') && !/^\.[A-Z_]+$/.test(m[1])) database.add(m[1]);
  }
  const targets = definedTargets(root);
  assert.deepEqual([...targets].filter((t) => !database.has(t)), [], 'targets make does not know');
  // What make has beyond the named targets: the variable-named ones, expanded: files.
  const beyond = [...database].filter((t) => !targets.has(t));
  assert.deepEqual(beyond.filter((t) => !t.includes('/')), [], 'a variable-named target that is no file path');
  const variableNamed = rules(root).flatMap((r) => r.targets).filter((t) => t.includes('$') && !t.includes('%'));
  assert.ok(variableNamed.length > 0 && beyond.length > 0, 'no variable-named file targets: is the parse broken?');
});

test('the comparison catches a target without help (mutant), and a missing fragment is no error', () => {
  // A copy of the makefiles, less one optional fragment, with check-gelu's `##` line deleted.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'make-help-'));
  try {
    const dropped = 'common/service/deploy.mk';
    for (const rel of makefiles(root)) {
      if (rel === dropped) continue;
      let text = readFileSync(path.join(root, rel), 'utf8');
      if (rel === 'common/harness/harness.mk') {
        const cut = text.replace(/^##[^\n]*\n(?=check-gelu:)/m, '');
        assert.notEqual(cut, text, "no `##` line above check-gelu's rule: update this test");
        text = cut;
      }
      mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      writeFileSync(path.join(tmp, rel), text);
    }
    const run = spawnSync(process.execPath, [helpScript, tmp], { encoding: 'utf8' });
    assert.equal(run.status, 0, `help.mjs failed without ${dropped}: ${run.stderr}`);
    assert.match(run.stderr, /check-gelu has no/);
    const targets = definedTargets(tmp);
    assert.ok(!targets.has('deploy') && targets.has('serve'), `the copy should have lost ${dropped} alone`);
    const listed = parseHelp(run.stdout).entries.map((e) => e.name);
    assert.deepEqual(compare(targets, listed), { missing: ['check-gelu'], extra: [] });
    // And the other way: a name in help that no rule defines.
    assert.deepEqual(compare(targets, [...listed, 'check-gelu', 'no-such-target']), { missing: [], extra: ['no-such-target'] });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
