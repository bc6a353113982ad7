// ctest-labels: integration;wasm;wasmtime
// A stage built with bx_stage(PREINITIALISE) ships a component whose memory
// image already holds the tokenizer: `wasmtime wizer` ran the module's
// `wizer-initialize` export at build time and wrote the memory back out as
// data. The proof looks in the component's bytes for what only building the
// tokenizer makes: the normaliser's trie, which tokenizer.json holds as base64
// and the tokenizer decodes into a vector of 32-bit units (the blob's bytes
// after its 4-byte length, little-endian in both). It must be in the
// pre-initialised component and in no component that was not pre-initialised.
// Then the component is served by `wasmtime serve` and must answer the README's
// request as the stage before it does: the same JSON.
//
// BX_PREINIT_COMPONENT=<file> looks in another build instead: CTest's mutant
// gives it the last such stage's component_cold.wasm, the same stage without the
// wizer step, and the test must fail, saying the tables are not in the memory image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, stageNames, wasmBuild } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import { postRedact } from './redact_lib.mjs';

const stages = stageNames();
const preinitialised = stages.filter((s) =>
  /bx_stage\([^)]*\bPREINITIALISE\b/.test(readFileSync(path.join(root, 'stages', s, 'CMakeLists.txt'), 'utf8')));

// A run of the decoded trie that no other data of the module could hold by chance.
function trieSample() {
  const tokenizer = JSON.parse(readFileSync(path.join(root, 'assets/tokenizer/tokenizer.json'), 'utf8'));
  const steps = tokenizer.normalizer.type === 'Sequence' ? tokenizer.normalizer.normalizers : [tokenizer.normalizer];
  const precompiled = steps.find((n) => n.type === 'Precompiled');
  assert.ok(precompiled, 'tokenizer.json has a Precompiled normaliser');
  const blob = Buffer.from(precompiled.precompiled_charsmap, 'base64');
  const trieBytes = blob.readUInt32LE(0);
  assert.ok(trieBytes >= 4096, `the trie is ${trieBytes} bytes`);
  return blob.subarray(4 + 1024, 4 + 1024 + 2048);
}

test('at least one stage is pre-initialised', () => {
  assert.ok(preinitialised.length > 0, 'no stages/*/CMakeLists.txt says bx_stage(PREINITIALISE)');
});

const sample = trieSample();
const request = JSON.stringify({ text: 'Call Anna Weber on 030 1234567.' });

for (const stage of preinitialised) {
  const component = process.env.BX_PREINIT_COMPONENT ?? path.join(wasmBuild, 'stages', stage, 'component.wasm');
  const before = stages[stages.indexOf(stage) - 1];

  test(`${stage}: the tokenizer's tables are in the memory image`, () => {
    const bytes = readFileSync(component);
    assert.ok(bytes.indexOf(sample) >= 0,
      `${path.relative(root, component)}: the normaliser's decoded trie is not in the memory image (not pre-initialised)`);
    // The same bytes in the stage's component built without the wizer step would make the check above prove nothing.
    const plain = readFileSync(path.join(wasmBuild, 'stages', stage, 'component_cold.wasm'));
    assert.equal(plain.indexOf(sample), -1, `${stage}'s component_cold.wasm holds the decoded trie without pre-initialisation`);
  });

  test(`${stage}: wasmtime serve answers as ${before}`, async () => {
    const [warm, cold] = await Promise.all([startServer(component, { with: 'wasmtime' }),
      startServer(path.join(wasmBuild, 'stages', before, 'component.wasm'), { with: 'wasmtime' })]);
    try {
      // Twice: the second request gets a fresh instance from the same image.
      for (let round = 0; round < 2; round++) {
        const [a, b] = [await postRedact(warm.url, request), await postRedact(cold.url, request)];
        assert.equal(a.status, 200);
        const timing = a.headers.get('server-timing');
        console.log(`${stage}, request ${round + 1}: server-timing ${timing}`);
        assert.equal(await a.text(), await b.text(), `${stage} and ${before} answer differently`);
      }
    } finally {
      await Promise.all([warm.stop(), cold.stop()]);
    }
  });
}
