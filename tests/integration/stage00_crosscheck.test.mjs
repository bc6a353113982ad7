// ctest-labels: wasm;slow
// Stage 00, the oracle, gives the same logit bits natively and in wasm on the
// whole equivalence corpus (max |dlogit| = 0), and the committed reference
// assets/baselines/equivalence.ref is what both compute. Each flavour runs
// `check` against that reference; both passing means native == wasm == ref,
// whichever flavour made it. About 20 minutes per flavour on 2 busy cores.
// BX_CROSSCHECK_CORPUS / BX_CROSSCHECK_REF pick another corpus and reference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = process.env.BX_ROOT ?? process.cwd();
const wasmBuild = process.env.BX_WASM_BUILD ?? path.join(root, 'build/wasm');
const nativeBuild = process.env.BX_NATIVE_BUILD ?? path.join(root, 'build/native');
const corpus = process.env.BX_CROSSCHECK_CORPUS ?? 'assets/corpora/equivalence.jsonl';
const ref = process.env.BX_CROSSCHECK_REF ?? 'assets/baselines/equivalence.ref';
const stage = '00-naive';

function run(argv) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  return r;
}

for (const flavour of ['native', 'wasm']) {
  test(`stage 00 ${flavour} reproduces ${ref} bit for bit`, { timeout: 3 * 3600 * 1000 }, () => {
    const cli = flavour === 'native'
      ? [path.join(nativeBuild, 'stages', stage, 'cli')]
      : [process.execPath, '--single-threaded-gc', 'common/host/wasi-run.mjs',
         path.join(wasmBuild, 'stages', stage, 'cli.wasm')];
    assert.ok(existsSync(cli.at(-1)), `${cli.at(-1)} not built`);
    const r = run([...cli, 'check', '--corpus', corpus, '--ref', ref]);
    assert.equal(r.status, 0, `${flavour} check failed (exit ${r.status})`);
    assert.match(r.stdout, /max \|dlogit\| 0\.00e0, mean \|dlogit\| 0\.00e0/);
  });
}
