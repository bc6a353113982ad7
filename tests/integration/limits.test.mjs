// Akamai Functions' limits (bench/lib/limits.mjs) on the latest stage: the
// component's size, its linear memory for the largest accepted request and for
// an 8 MiB body, and the request one window over the limit refused with 413.
// Every built component's size as well. No time is judged here (speed is for
// benchmarks: `make limits` records the time of the largest request per stage).
//
// BX_LIMITS_MUTATE=memory pretends the platform gives 1 MiB of memory: the
// memory checks must then fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { stageNames, wasmBuild } from './lib/env.mjs';
import { MAX_WINDOWS, MAX_WINDOW_TOKENS, PLATFORM, limitProblems, measureLimits } from '../../bench/lib/limits.mjs';

const platform = process.env.BX_LIMITS_MUTATE === 'memory' ? { ...PLATFORM, memory_bytes: 1024 * 1024 } : PLATFORM;
const latest = stageNames().at(-1);

test('every built component fits the 50 MiB application limit', () => {
  for (const stage of stageNames()) {
    const file = path.join(wasmBuild, 'stages', stage, 'component.wasm');
    if (!existsSync(file)) continue;
    assert.ok(statSync(file).size <= platform.app_bytes, `${stage}: ${statSync(file).size} bytes`);
  }
});

test(`${latest}: the largest request fits in memory; one window more is refused with 413`, async () => {
  const m = await measureLimits(path.join(wasmBuild, 'stages', latest, 'component.wasm'));
  // Time is a benchmark's business: judge everything else.
  const problems = limitProblems({ ...m, largest: { ...m.largest, slowest_client_ms: 0 } }, platform);
  assert.deepEqual(problems, [], JSON.stringify(m, null, 1));
  assert.ok(m.over.message.includes(`a request may hold at most ${MAX_WINDOW_TOKENS} tokens (${MAX_WINDOWS} windows)`), m.over.message);
});
