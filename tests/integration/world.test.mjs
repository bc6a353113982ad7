// ctest-labels: wasm;quick
// Every stage's component lives in the world Spin 3.x/4.x and Akamai Functions
// accept, wasi:http/proxy@0.2.0: it exports wasi:http/incoming-handler@0.2.0
// and imports only interfaces of that world (no file system, no sockets, no
// preview1 adapter, no newer WASI). Read from the component itself (jco wit).
// A component that imports anything else must fail the same check (mutants).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { jcoJs, stageNames, wasmBuild } from './lib/env.mjs';

function world(component) {
  const wit = execFileSync(process.execPath, [jcoJs, 'wit', component], { encoding: 'utf8' });
  const items = (kind) => [...wit.matchAll(new RegExp(`^\\s*${kind} ([^;]+);`, 'gm'))].map((m) => m[1]);
  return { wit, imports: items('import'), exports: items('export') };
}

// The interfaces the wasi:http/proxy@0.2.0 world imports (wasi-http's proxy.wit
// and the worlds it includes).
const PROXY_IMPORTS = new Set([
  'wasi:cli/stderr', 'wasi:cli/stdin', 'wasi:cli/stdout',
  'wasi:clocks/monotonic-clock', 'wasi:clocks/wall-clock',
  'wasi:http/outgoing-handler', 'wasi:http/types',
  'wasi:io/error', 'wasi:io/poll', 'wasi:io/streams',
  'wasi:random/random',
].map((name) => `${name}@0.2.0`));

// What keeps a component's world out of wasi:http/proxy@0.2.0; empty when nothing does.
function outsideProxy({ imports, exports }) {
  const found = [];
  if (exports.length !== 1 || exports[0] !== 'wasi:http/incoming-handler@0.2.0')
    found.push(`exports ${JSON.stringify(exports)}, not exactly wasi:http/incoming-handler@0.2.0`);
  if (imports.length === 0) found.push('no imports at all (jco read no world?)');
  for (const name of imports) if (!PROXY_IMPORTS.has(name)) found.push(`imports ${name}, outside wasi:http/proxy@0.2.0`);
  return found;
}

for (const stage of stageNames()) {
  test(`${stage}: component world is wasi:http/proxy@0.2.0`, () => {
    const component = path.join(wasmBuild, 'stages', stage, 'component.wasm');
    assert.ok(existsSync(component), `${component} missing: make build-wasm`);
    const w = world(component);
    assert.deepEqual(outsideProxy(w), [], w.wit);
  });
}

test('a component importing outside the proxy world fails the check (mutants)', () => {
  const [stage] = stageNames();
  const real = world(path.join(wasmBuild, 'stages', stage, 'component.wasm'));
  for (const extra of ['wasi:filesystem/types@0.2.0', 'wasi:sockets/tcp@0.2.0', 'wasi:cli/environment@0.2.0',
                       'wasi:http/types@0.2.3', 'wasi_snapshot_preview1']) {
    assert.ok(outsideProxy({ ...real, imports: [...real.imports, extra] }).length > 0, `importing ${extra} was not caught`);
  }
  assert.ok(outsideProxy({ ...real, exports: ['wasi:cli/run@0.2.0'] }).length > 0, 'a command world was not caught');
});
