#!/usr/bin/env node
// probe_texts.mjs: every entity a served stage finds in a few texts, with its score, for a quick
// look at one model's doubts (the service's minimum of 0.5 hides the entities under it).
//
//   node assets/recipe/train/probe_texts.mjs [--stage NN | --component FILE] [--in texts.jsonl] [--out FILE]
//
// Each line of --in is {"text": ...} (default: the demo's samples, assets/corpora/demo.txt, one text
// a line). Every text goes to POST /redact with "min_score": 0, and one line per text is written:
// the text, then each entity as LABEL "text" score, after a first line with the component's
// sha256 (the model is inside it), so a number quoted from the file names the weights it came from.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../../../tests/integration/lib/env.mjs';
import { startServer } from '../../../tests/integration/lib/server.mjs';
import { arg, readJsonl, servedStage } from './served_stage.mjs';

const { stage, component, redact: { checkAnswer, postRedact } } = await servedStage();
const input = arg('in');
const texts = input ? readJsonl(input).map((r) => r.text)
  : readFileSync(path.join(root, 'assets/corpora/demo.txt'), 'utf8').split('\n').filter((l) => l.trim());
const sha = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

const lines = [`# ${stage}, component ${path.relative(root, component)} (sha256 ${sha(component)})`];
const server = await startServer(component);
try {
  for (const text of texts) {
    const res = await postRedact(server.url, JSON.stringify({ text, min_score: 0 }));
    if (res.status !== 200) throw new Error(`POST /redact answered ${res.status} for "${text.slice(0, 60)}..."`);
    const answer = await res.json();
    checkAnswer(text, answer);
    const found = answer.entities.map((e) => `${e.label} ${JSON.stringify(e.text)} ${e.score.toFixed(3)}`);
    lines.push(`${JSON.stringify(text)}\n    ${found.join('\n    ') || '(no entity)'}`);
  }
} finally {
  await server.stop();
}
const out = arg('out');
if (out) writeFileSync(out, lines.join('\n') + '\n');
console.log(lines.join('\n'));
