// ctest-labels: quick
// Every stage's spin.toml is a manifest Spin (3.x, 4.x) and Akamai Functions
// accept, read with a real TOML parser (smol-toml, pinned in common/node):
// manifest version 2; one HTTP trigger routing /... to the component; the
// component's source is the file the wasm build writes for this stage; no
// outbound host is allowed (the service never calls out). A manifest broken in
// each of those ways must fail the same checks (the mutants below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nodeTools, root, stageNames } from './lib/env.mjs';

const { parse } = createRequire(path.join(nodeTools, 'package.json'))('smol-toml');

// What is wrong with a parsed manifest for stage directory `stage`; empty when nothing is.
function problems(manifest, stage) {
  const found = [];
  if (manifest.spin_manifest_version !== 2) found.push(`spin_manifest_version is ${manifest.spin_manifest_version}, not 2`);
  const triggers = manifest.trigger?.http ?? [];
  if (triggers.length !== 1) found.push(`${triggers.length} HTTP triggers, not 1`);
  const [trigger] = triggers;
  if (trigger && trigger.route !== '/...') found.push(`route is ${JSON.stringify(trigger.route)}, not "/..."`);
  const name = trigger?.component;
  const component = typeof name === 'string' ? manifest.component?.[name] : undefined;
  if (!component) found.push(`the trigger's component ${JSON.stringify(name)} is not defined`);
  const expected = `../../build/wasm/stages/${stage}/component.wasm`;
  if (component && component.source !== expected) found.push(`source is ${JSON.stringify(component.source)}, not ${expected}`);
  const outbound = component?.allowed_outbound_hosts;
  if (outbound !== undefined && !(Array.isArray(outbound) && outbound.length === 0))
    found.push(`allowed_outbound_hosts is ${JSON.stringify(outbound)}, not []`);
  return found;
}

for (const stage of stageNames()) {
  test(`${stage}: spin.toml is a valid manifest for this stage's component`, () => {
    const manifest = parse(readFileSync(path.join(root, 'stages', stage, 'spin.toml'), 'utf8'));
    assert.deepEqual(problems(manifest, stage), []);
  });
}

test('a broken manifest fails the checks (mutants)', () => {
  const stage = stageNames()[0];
  const text = readFileSync(path.join(root, 'stages', stage, 'spin.toml'), 'utf8');
  const mutants = {
    'manifest version 1': text.replace('spin_manifest_version = 2', 'spin_manifest_version = 1'),
    'another route': text.replace('route = "/..."', 'route = "/redact"'),
    'another stage\'s component': text.replaceAll(`stages/${stage}/`, 'stages/99-elsewhere/'),
    'an outbound host': text.replace('allowed_outbound_hosts = []', 'allowed_outbound_hosts = ["https://example.com"]'),
  };
  for (const [what, mutated] of Object.entries(mutants)) {
    assert.notEqual(mutated, text, `mutant '${what}' changed nothing: update this test`);
    assert.ok(problems(parse(mutated), stage).length > 0, `mutant '${what}' was not caught`);
  }
  assert.throws(() => parse(`${text}\n[component.redact\n`), 'a TOML syntax error must not parse');
});
