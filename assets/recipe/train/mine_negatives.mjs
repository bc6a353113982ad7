#!/usr/bin/env node
// mine_negatives.mjs: hard negatives for the trainer, from the training half of the number-heavy prose.
//
//   node assets/recipe/train/mine_negatives.mjs --in assets/work/corpus/numbers.jsonl \
//        --out assets/work/corpus/negatives.jsonl [--stage NN | --component FILE] [--repeat 2]
//        [--kind numbers-plain]
//
// Sends every plain text of the training half (kind numbers-plain: no PII written in, so every
// entity is spurious) to POST /redact of a served stage with the committed model, asking for every
// entity ("min_score": 0), and writes the texts that came back with one, all O, --repeat times:
// the trainer then draws the windows this model gets wrong more often than the rest. Only the
// training half is read; the held-out half is what the report measures. --kind prose-plain mines
// prose.mjs's plain texts instead (prose.jsonl: Debian's manuals, never GNOME's held-out help).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../../../tests/integration/lib/env.mjs';
import { startServer } from '../../../tests/integration/lib/server.mjs';
import { arg, readJsonl, servedStage } from './served_stage.mjs';
import { isListedName } from '../corpus/prose.mjs';

const { stage, component, redact: { postRedact } } = await servedStage();
const input = arg('in', path.join(root, 'assets/work/corpus/numbers.jsonl'));
const out = arg('out', path.join(root, 'assets/work/corpus/negatives.jsonl'));
const repeat = Number(arg('repeat', '2'));
const kind = arg('kind', 'numbers-plain');

const rows = readJsonl(input).filter((r) => r.kind === kind);
// Two servers, one per core; each answers its own share of the texts in order.
const SERVERS = 2;
const servers = await Promise.all(Array.from({ length: SERVERS }, () => startServer(component)));
const found = new Array(rows.length).fill(null);
// A text is not written when one of its entities is a name of faker's lists: help pages and manuals
// name real people now and then ("Raphaël"), and teaching such a name as O would teach a leak.
const NAME_LABELS = new Set(['GIVEN_NAME', 'SURNAME']);
const namesListed = new Array(rows.length).fill(false);
try {
  await Promise.all(servers.map(async (server, k) => {
    for (let i = k; i < rows.length; i += SERVERS) {
      const res = await postRedact(server.url, JSON.stringify({ text: rows[i].text, min_score: 0 }));
      if (res.status !== 200) throw new Error(`POST /redact answered ${res.status} for "${rows[i].text.slice(0, 60)}..."`);
      const a = await res.json();
      found[i] = a.entities.map((e) => `${e.label}: ${e.text}`);
      namesListed[i] = a.entities.some((e) => NAME_LABELS.has(e.label) && e.text.split(/\s+/).some(isListedName));
    }
  }));
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}
const mined = rows.flatMap((r, i) => (found[i].length && !namesListed[i]
  ? Array.from({ length: repeat }, () => ({ text: r.text, lang: r.lang, kind: kind.replace(/-plain$/, '-negative'), source: r.source, doc: r.doc, entities: [], spurious: found[i] }))
  : []));
writeFileSync(out, mined.map((x) => JSON.stringify(x)).join('\n') + '\n');
const texts = found.filter((f) => f.length).length, skipped = namesListed.filter(Boolean).length, ents = found.reduce((n, f) => n + f.length, 0);
console.log(`${path.relative(root, out)}: ${texts} of ${rows.length} plain texts came back with ${ents} entities (stage ${stage}); ${skipped} of them name a listed person and are left out; the rest written ${repeat}x each`);
