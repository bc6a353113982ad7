// Shared by the POST /redact integration tests: where the component is, how to
// read a Server-Timing header, and what every successful answer must satisfy.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstStage, nodeTools, root, wasmBuild } from './lib/env.mjs';
import { insideWord, wordRanges } from './lib/words.mjs';
import { hostRecord } from './lib/server.mjs';

// BX_REDACT_STAGE=NN-name picks another stage; the default is the first one.
export const stage = process.env.BX_REDACT_STAGE || firstStage;
export const component = process.env.BX_REDACT_COMPONENT ??
  path.join(wasmBuild, 'stages', stage, 'component.wasm');

// The names the service sends, in its order (common/service/redact.hpp).
export const TIMING_NAMES = ['tok_load', 'model_load', 'encode', 'forward', 'matmul', 'attention', 'other', 'total'];

// "a;dur=1.0, b;dur=2.5;desc=\"x\"" -> [{name, dur, durText, desc}], in order.
export function parseServerTiming(header) {
  return header.split(',').map((part) => {
    const [name, ...params] = part.trim().split(';');
    const entry = { name: name.trim() };
    for (const p of params) {
      const eq = p.indexOf('=');
      const key = p.slice(0, eq).trim();
      const value = p.slice(eq + 1).trim();
      if (key === 'dur') { entry.durText = value; entry.dur = Number(value); }
      if (key === 'desc') entry.desc = value.replace(/^"(.*)"$/, '$1');
    }
    return entry;
  });
}

// Checks the header's shape and returns {name: ms, ..., windows}.
export function checkServerTiming(header) {
  assert.ok(header, 'a Server-Timing header');
  const entries = parseServerTiming(header);
  assert.deepEqual(entries.map((e) => e.name), TIMING_NAMES, header);
  const out = {};
  for (const e of entries) {
    assert.match(e.durText, /^\d+\.\d$/, `${e.name} has one decimal: ${header}`);
    out[e.name] = e.dur;
  }
  const forward = entries.find((e) => e.name === 'forward');
  const m = /^(\d+) window\(s\)$/.exec(forward.desc ?? '');
  assert.ok(m, `forward desc "N window(s)": ${header}`);
  out.windows = Number(m[1]);
  // The profiler's buckets split the forward pass; total covers everything.
  // (0.2 ms of slack: each number is rounded to 0.1 on its own.)
  assert.ok(out.matmul + out.attention + out.other <= out.forward + 0.2, header);
  assert.ok(out.forward + out.encode + out.tok_load + out.model_load <= out.total + 0.3, header);
  return out;
}

// Windows the service must use for `n` content tokens (windows.hpp).
export function expectedWindows(n) {
  return n <= 0 ? 0 : 1 + Math.ceil(Math.max(0, n - 254) / 190);
}

// The reference tokenizer (Hugging Face tokenizers via @anush008/tokenizers):
// content tokens of a text, independent of our C++ tokenizer.
const require = createRequire(import.meta.url);
let reference = null;
export async function contentTokens(text) {
  if (!reference) {
    const { Tokenizer } = require(path.join(nodeTools, 'node_modules/@anush008/tokenizers'));
    reference = Tokenizer.fromFile(path.join(root, 'assets/tokenizer/tokenizer.json'));
  }
  return (await reference.encode(text)).getIds().length - 2;  // minus <s> and </s>
}

export function evalRows() {
  return readFileSync(path.join(root, 'assets/corpora/eval.jsonl'), 'utf8')
    .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export function evalTexts() {
  return evalRows().map((row) => row.text);
}

// Which of a text's listed PII strings the answer's entities cover. A string
// counts as detected when entity spans (any label) cover every non-space code
// point of its first occurrence (the rule of the recipe's hand-written score,
// assets/recipe/train/evaluate.py). An entity is spurious when it overlaps no
// occurrence of any listed string. Offsets are code points, as in the API.
export function detection(text, pii, entities) {
  const cps = [...text];
  const covered = new Array(cps.length).fill(false);
  for (const e of entities) for (let i = e.start; i < e.end; i++) covered[i] = true;
  const occurrences = (s) => {
    const needle = [...s];
    const out = [];
    for (let i = 0; i + needle.length <= cps.length; i++) {
      if (needle.every((c, k) => cps[i + k] === c)) out.push([i, i + needle.length]);
    }
    return out;
  };
  const missed = [];
  const listed = [];
  for (const s of pii) {
    const all = occurrences(s);
    assert.ok(all.length, `listed PII "${s}" occurs in the text`);
    listed.push(...all);
    const [a, b] = all[0];
    let ok = true;
    for (let i = a; i < b; i++) if (!/\s/.test(cps[i]) && !covered[i]) ok = false;
    if (!ok) missed.push(s);
  }
  const spurious = entities.filter((e) => !listed.some(([a, b]) => e.start < b && a < e.end));
  return { pii: pii.length, detected: pii.length - missed.length, missed, spurious };
}

export function git(...args) {
  try { return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim(); } catch { return null; }
}

// What a results file records about where it was measured. loadBefore: the
// 1-minute load average when the measurement started (os.loadavg()[0]).
export function provenance(loadBefore) {
  const cpus = os.cpus();
  return {
    runtime: hostRecord(),
    machine: {
      cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, platform: `${os.platform()} ${os.release()}`,
      // Other work on the machine inflates every time: the load before and after says how much.
      loadavg_1m: { before: Number(loadBefore.toFixed(2)), after: Number(os.loadavg()[0].toFixed(2)) },
    },
    node: process.version,
    date: new Date().toISOString(),
    commit: git('rev-parse', 'HEAD'),
    component: path.relative(root, component),
    component_sha256: createHash('sha256').update(readFileSync(component)).digest('hex'),
    model_sha256: createHash('sha256').update(readFileSync(path.join(root, 'assets/model/model.bxm'))).digest('hex'),
  };
}

// Every promise of a 200 answer (see redact.hpp), checked against the input.
export function checkAnswer(text, answer) {
  assert.equal(typeof answer.redacted, 'string');
  assert.ok(Array.isArray(answer.entities));
  assert.ok(typeof answer.min_score === 'number' && answer.min_score >= 0 && answer.min_score <= 1,
    `the answer names its minimum score: ${answer.min_score}`);
  const cps = [...text];  // code points: the API's offset unit
  const words = wordRanges(cps);
  let rebuilt = '';
  let copied = 0;
  for (const e of answer.entities) {
    const where = JSON.stringify(e);
    assert.match(e.label, /^[A-Z][A-Z_]*$/, where);
    assert.ok(Number.isInteger(e.start) && Number.isInteger(e.end), where);
    assert.ok(copied <= e.start && e.start < e.end && e.end <= cps.length, `sorted, in range: ${where}`);
    assert.equal(e.text, cps.slice(e.start, e.end).join(''), `text is the code points [start, end): ${where}`);
    assert.equal(e.text, e.text.trim(), `no surrounding whitespace: ${where}`);
    assert.ok(!insideWord(words, e.start) && !insideWord(words, e.end), `starts and ends on word boundaries: ${where}`);
    assert.ok(typeof e.score === 'number' && e.score > 0 && e.score <= 1, where);
    assert.ok(e.score >= answer.min_score, `scores at least the minimum: ${where}`);
    rebuilt += cps.slice(copied, e.start).join('') + `[${e.label}]`;
    copied = e.end;
  }
  rebuilt += cps.slice(copied).join('');
  assert.equal(answer.redacted, rebuilt, 'redacted = text with each entity replaced by [LABEL]');
}

export async function postRedact(url, body, headers = { 'content-type': 'application/json' }) {
  return fetch(`${url}/redact`, { method: 'POST', headers, body });
}

// Runs `cli redact --jsonl --tokens` of a stage's cli.wasm once over every
// text, under V8 (bench/e2e/wasi-host.mjs); one answer each, in order.
export function redactAll(cli, texts) {
  const dir = path.join(wasmBuild, 'tmp');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `redact-all-${process.pid}.jsonl`);
  writeFileSync(file, texts.map((text) => JSON.stringify({ text })).join('\n') + '\n');
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'bench/e2e/wasi-host.mjs'),
    cli, 'redact', '--tokens', '--jsonl', path.relative(root, file)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  const lines = r.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, texts.length, `${path.relative(root, cli)} answered ${lines.length} of ${texts.length}: ${r.stderr.slice(-2000)}`);
  return lines.map((line) => JSON.parse(line));
}

// A string for a message: every character that does not show is written as \u{...}.
export const shown = (s) => {
  const cut = [...s].length > 160 ? `${[...s].slice(0, 160).join('')}...` : s;
  return `"${cut.replace(/[^\P{C}]|[^\P{Z}]|[^\P{M}]|[\p{Default_Ignorable_Code_Point}]|["\\]/gu, (c) => (c === ' ' ? c : `\\u{${c.codePointAt(0).toString(16)}}`))}"`;
};
