// ctest-labels: wasm;quick
// common/host/wasi-run.mjs runs a WASI preview1 command (the first stage's
// cli.wasm): the module's exit status comes through, stdout is the module's,
// and Node's "WASI is experimental" warning does not reach stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { firstStage, root, wasmBuild } from './lib/env.mjs';

const cli = path.join(wasmBuild, 'stages', firstStage, 'cli.wasm');
const run = (...args) => spawnSync(process.execPath, [path.join(root, 'common/host/wasi-run.mjs'), cli, ...args],
  { encoding: 'utf8', cwd: root });

test('exit status and output pass through, without the experimental warning', { skip: !existsSync(cli) && `${cli} not built` }, () => {
  const usage = run();  // no command: the harness prints usage and exits 2
  assert.equal(usage.status, 2, usage.stderr);
  assert.doesNotMatch(usage.stderr, /ExperimentalWarning/);
  const help = run('help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /usage: cli\.wasm/);
  assert.doesNotMatch(help.stderr, /ExperimentalWarning/);
});

// Files anywhere (`make check CORPUS=/elsewhere.jsonl` once failed with "No such
// file or directory"): an absolute path outside the repository, and a path relative to
// a working directory outside it, both reach the guest; a missing file is named.
test('a corpus outside the repository, by absolute and by relative path', { skip: !existsSync(cli) && `${cli} not built` }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bx-corpus-'));
  try {
    const corpus = path.join(dir, 'elsewhere.jsonl');
    writeFileSync(corpus, '{"text": "Call Anna Schmidt on 030 1234567."}\n');
    const absolute = run('redact', '--jsonl', corpus);
    assert.equal(absolute.status, 0, absolute.stderr);
    assert.match(absolute.stdout, /"redacted"/);
    const relative = spawnSync(process.execPath, [path.join(root, 'common/host/wasi-run.mjs'), cli, 'redact', '--jsonl', 'elsewhere.jsonl'],
      { encoding: 'utf8', cwd: dir });
    assert.equal(relative.status, 0, relative.stderr);
    assert.equal(relative.stdout, absolute.stdout);
    const missing = run('redact', '--jsonl', path.join(dir, 'nope.jsonl'));
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /nope\.jsonl/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
