// served_stage.mjs: what the recipe's scripts that talk to POST /redact share: their command-line
// options and the component they serve (service_eval.mjs, mine_negatives.mjs, probe_texts.mjs).
//
//   --stage NN         that stage's component (default: the last stage, the fastest; every stage's
//                      logits are stage 00's bit for bit, so any gives the same answers)
//   --component FILE   another build of a component (a copy with another model in it)
// The host is wasmtime serve unless BX_SERVE_WITH=jco.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stageByNumber, stageNames, wasmBuild } from '../../../tests/integration/lib/env.mjs';

export function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : dflt;
}

export const readJsonl = (p) => readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

// The stage and component the options name, and tests/integration/redact_lib.mjs loaded for them
// (it reads BX_REDACT_STAGE and BX_REDACT_COMPONENT when it is first imported).
export async function servedStage() {
  // wasmtime serve, as Spin configures it (common/host/wasmtime-serve.toml), unless BX_SERVE_WITH=jco:
  // the answers are the same on both hosts (tests/integration/serve_hosts.test.mjs), wasmtime's sooner.
  process.env.BX_SERVE_WITH ??= 'wasmtime';
  const stage = arg('stage') ? stageByNumber(arg('stage')) : stageNames().at(-1);
  const component = arg('component') ? path.resolve(arg('component')) : path.join(wasmBuild, 'stages', stage, 'component.wasm');
  process.env.BX_REDACT_STAGE = stage;
  process.env.BX_REDACT_COMPONENT = component;
  const redact = await import('../../../tests/integration/redact_lib.mjs');
  return { stage, component, redact };
}
