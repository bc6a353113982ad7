// ctest-labels: quick
// `make deploy` and `make up` stop before building or deploying anything when
// Spin, its aka plugin or a login is missing, and name the command that fixes
// each (common/service/deploy.mk). A stand-in `spin` (a shell script) plays
// each situation; with everything present, deploy runs `spin aka deploy` in
// the stage's directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, stageNames } from './lib/env.mjs';

const [stage] = stageNames();
const make = (target, spin, extra = []) => spawnSync('make', ['-s', target, `STAGE=${stage.slice(0, 2)}`, `SPIN=${spin}`, ...extra],
  { cwd: root, encoding: 'utf8' });

// A stand-in spin: `state` says what it has (plugin, login); it logs every call.
function fakeSpin(dir, state) {
  const file = path.join(dir, 'spin');
  writeFileSync(file, `#!/bin/sh
echo "$PWD: $*" >> "${path.join(dir, 'calls.log')}"
case "$1 $2" in
  "aka --version") [ "${state}" != no-plugin ] || exit 1 ;;
  "aka info") [ "${state}" = ready ] || exit 1 ;;
esac
exit 0
`);
  chmodSync(file, 0o755);
  return file;
}

test('each missing piece stops deploy with the command that fixes it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bx-spin-'));
  try {
    const none = make('deploy', path.join(dir, 'no-such-spin'));
    assert.notEqual(none.status, 0);
    assert.match(none.stdout, /fwf_install\.sh \| bash/);
    const upNone = make('up', path.join(dir, 'no-such-spin'));
    assert.notEqual(upNone.status, 0);
    assert.match(upNone.stdout, /fwf_install\.sh \| bash/);
    const noPlugin = make('deploy', fakeSpin(dir, 'no-plugin'));
    assert.notEqual(noPlugin.status, 0);
    assert.match(noPlugin.stdout, /spin plugin install aka/);
    const noLogin = make('deploy', fakeSpin(dir, 'no-login'));
    assert.notEqual(noLogin.status, 0);
    assert.match(noLogin.stdout, /spin aka login/);
    assert.doesNotMatch(readFileSync(path.join(dir, 'calls.log'), 'utf8'), /aka deploy/, 'nothing may be deployed');
    const ready = make('deploy', fakeSpin(dir, 'ready'), ['DEPLOY_SKIP_BUILD=1']);
    assert.equal(ready.status, 0, ready.stdout + ready.stderr);
    assert.match(readFileSync(path.join(dir, 'calls.log'), 'utf8'), new RegExp(`stages/${stage}: aka deploy`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
