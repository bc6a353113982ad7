// make mutant-http: proves tests/integration/http.test.mjs can fail.
//
// The mutant component reads the body's return area 4 bytes off
// (-DBX_MUTANT_RETAREA, common/http/wasi_streams.cpp). Running the HTTP test
// against it must fail the body test(s) while /ping still passes: that shows
// the server did start and the failure is the planted bug, not a setup
// problem. Exit 0 only in that case.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { firstStage, root, wasmBuild } from '../lib/env.mjs';

const mutant = path.join(wasmBuild, 'stages', firstStage, 'component_mutant.wasm');
if (!existsSync(mutant)) {
  console.error(`${mutant} missing: cmake --build build/wasm --target bx_integration_components`);
  process.exit(2);
}
const run = spawnSync(process.execPath,
  ['--test-reporter=tap', path.join(root, 'tests/integration/http.test.mjs')],
  { env: { ...process.env, BX_HTTP_COMPONENT: mutant }, encoding: 'utf8', timeout: 280_000 });
const tap = run.stdout ?? '';
const outcome = (name) => {
  const m = tap.match(new RegExp(`^(not ok|ok) \\d+ - ${name.replace(/[/.*+?()[\]]/g, '\\$&')}`, 'm'));
  return m ? m[1] : 'missing';
};
const ping = outcome('GET /ping answers 200 pong');
const body = outcome('a 5 MiB request body is read completely');
console.log(tap.split('\n').filter((l) => /^(not )?ok \d+/.test(l)).join('\n'));
console.log(`\nhttp test on the mutant exited ${run.status}: /ping ${ping}, 5 MiB body ${body}`);
if (run.status !== 0 && ping === 'ok' && body === 'not ok') {
  console.log('mutant caught: the integration test fails on a wrong return-area offset');
  process.exit(0);
}
console.error('mutant NOT caught as expected');
console.error(run.stderr);
process.exit(1);
