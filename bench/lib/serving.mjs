// The post's way to time a service: POST /redact with a short sentence and a
// long text, `repeats` times each after one discarded request, and take the
// median of every Server-Timing field and of the client's own round trip.
// Several targets (name -> base URL) alternate within each round (the order
// flips every round), so drifts in machine load hit them alike. Every answer is
// checked, and all targets must answer each text identically (the stages are
// bit-exact): otherwise this throws and nothing is written.
// Used by bench/e2e/serve.mjs (local stages) and bench/remote.mjs (a deployment).
import {
  TIMING_NAMES, checkAnswer, checkServerTiming, contentTokens, evalTexts, postRedact,
} from '../../tests/integration/redact_lib.mjs';
import { summarize } from './stats.mjs';

export const SHORT = 'Hi, my name is Sarah Whitfield; call me on (541) 555-0187.';

// [name, text] pairs: the short sentence and the eval corpus's longest text.
export function serveTexts() {
  return [['short', SHORT], ['long', evalTexts().reduce((a, b) => (b.length > a.length ? b : a))]];
}

// `texts`: [label, text] pairs (serveTexts() by default). With `rounds`, each
// target's per-round samples are kept too (texts[label].rounds[name]: one
// {field: ms} per round, in round order), for ratios paired by round.
export async function measureTexts(targets, repeats, { log = console.log, texts: pairs = serveTexts(), rounds = false } = {}) {
  const names = Object.keys(targets);
  const texts = {};
  for (const [label, text] of pairs) {
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    let windows = null;
    for (let round = 0; round <= repeats; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      let first = null;
      for (const name of order) {
        const t0 = performance.now();
        const res = await postRedact(targets[name], JSON.stringify({ text }));
        const body = await res.text();
        const client = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${name}: status ${res.status}: ${body}`);
        checkAnswer(text, JSON.parse(body));
        if (first === null) first = body;
        else if (body !== first) throw new Error(`${label} text: ${name}'s answer differs from ${order[0]}'s`);
        const timing = checkServerTiming(res.headers.get('server-timing'));
        windows = timing.windows;
        if (round > 0) samples[name].push({ ...timing, client });  // round 0 is discarded
      }
    }
    texts[label] = {
      text,
      content_tokens: await contentTokens(text),
      windows,
      requests_per_stage: repeats,
      stages: Object.fromEntries(names.map((name) => {
        const fields = {};
        for (const k of [...TIMING_NAMES, 'client']) fields[k] = summarize(samples[name].map((s) => s[k]));
        return [name, { median_ms: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, +v.median.toFixed(2)])),
                        total_ms: { min: fields.total.min, max: fields.total.max } }];
      })),
    };
    if (rounds) texts[label].rounds = samples;
    for (const name of names) {
      const m = texts[label].stages[name].median_ms;
      log(`${label} (${texts[label].content_tokens} tokens, ${windows} window(s)) ${name}: total ${m.total} ms, tok_load ${m.tok_load} ms, forward ${m.forward} ms, client ${m.client} ms`);
    }
  }
  return texts;
}
