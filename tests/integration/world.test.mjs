// ctest-labels: wasm;quick
// Every stage's component lives in the world Spin 3.x/4.x accepts: it exports
// wasi:http/incoming-handler@0.2.0 and imports nothing but wasi:*@0.2.0 (no
// preview1 adapter, no newer WASI). Read from the component itself (jco wit).
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

for (const stage of stageNames()) {
  test(`${stage}: component world is wasi:http@0.2.0 only`, () => {
    const component = path.join(wasmBuild, 'stages', stage, 'component.wasm');
    assert.ok(existsSync(component), `${component} missing: make build-wasm`);
    const { wit, imports, exports } = world(component);
    assert.deepEqual(exports, ['wasi:http/incoming-handler@0.2.0'], wit);
    assert.ok(imports.length > 0, wit);
    for (const name of imports) {
      assert.match(name, /^wasi:[a-z-]+\/[a-z-]+@0\.2\.0$/, `unexpected import ${name}\n${wit}`);
    }
  });
}
