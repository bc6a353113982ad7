#!/usr/bin/env node
// service_eval.mjs: the model as a user meets it, through POST /redact of a served stage.
//
//   node assets/recipe/train/service_eval.mjs [--stage NN | --component FILE --model BXM] [--heldout assets/work/corpus/heldout.jsonl]
//        [--numbers assets/work/corpus/numbers-heldout.jsonl] [--out assets/model/service-eval.json]
//
// evaluate.py scores the network (exact spans after a Viterbi search). A user sees something
// else: the service's decoding (greedy BIOES, entities widened to whole words, overlaps merged;
// common/service/README.md). This script measures that, on three sets:
//   - held-out prose (prose.mjs's heldout.jsonl: GNOME help, never trained on, no PII): every
//     entity is spurious; reported per language per 1,000 words (words: runs of non-space);
//   - held-out number-heavy prose (numbers.mjs's numbers-heldout.jsonl: LibreOffice's help and the
//     Debian Administrator's Handbook, documents never trained on, no PII): every entity is spurious;
//     per language per 1,000 words, and per kind of number (each spurious entity counts once for
//     every kind of number it overlaps; one that overlaps none counts under "words");
//   - the eval corpus (assets/corpora/eval.jsonl): listed PII strings covered, spurious entities;
//   - the hand-written texts (assets/corpora/handwritten.jsonl): PII strings covered;
//   - the greetings (assets/corpora/greetings.jsonl): a name after a greeting or under a closing,
//     in six languages ("Hallo Jan, bis morgen."), names that are also ordinary words among them:
//     names covered, and every miss listed, since a name a greeting hides is a leak.
// A string is covered when entities cover every non-space code point of its first occurrence
// (the rule of tests/integration/redact_lib.mjs and of evaluate.py). Every answer is also
// checked by checkAnswer (which includes: no entity starts or ends inside a word).
//
// The service reports only entities scoring at least its default minimum (0.5; the answer's
// `min_score` says which). The main numbers are the service's default answers. The minimum-score
// study asks for every entity ("min_score": 0) and scores each set again keeping only entities
// whose `score` is at least t, for several t (common/service/README.md, "A minimum score").
//
// Case and form ("forms" in the output): a reader reads "EMILY CLARKE", "Emily Clarke" and a
// decomposed "García" (NFD: "i" and a combining acute) as the names they are. The eval, hand-written
// and greeting texts are sent again upper-cased, title-cased (every word's first letter upper, the
// rest lower) and in NFD, their listed PII strings written the same way: PII covered (any label) and
// spurious entities, beside the ordinary texts'; the held-out prose is sent upper-cased and title-cased too (spurious
// entities per 1,000 words). For NFD the answer must be the composed text's: the same labels, and
// the same redacted text once both are composed again (NFC); the texts where it is not are listed.
//
// Any stage gives the same answers: every stage's logits equal stage 00's bit for bit
// (`make test` proves it). The default is the last stage, the fastest. --component measures another
// build (a copy of a component with the previous model in it, for the report's before-and-after).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../../../tests/integration/lib/env.mjs';
import { startServer } from '../../../tests/integration/lib/server.mjs';
import { arg, readJsonl, servedStage } from './served_stage.mjs';

const { stage, component, redact } = await servedStage();
const { checkAnswer, detection, postRedact, provenance } = redact;
const heldoutPath = arg('heldout', path.join(root, 'assets/work/corpus/heldout.jsonl'));
const numbersPath = arg('numbers', path.join(root, 'assets/work/corpus/numbers-heldout.jsonl'));
const out = arg('out', path.join(root, 'assets/model/service-eval.json'));
export const THRESHOLDS = [0, 0.5, 0.6, 0.7, 0.8, 0.9];

const wordCount = (t) => t.split(/\s+/).filter(Boolean).length;

// Every entity the decoding finds ("min_score": 0); `at(t)` below applies each minimum.
async function answer(server, text) {
  const res = await postRedact(server.url, JSON.stringify({ text, min_score: 0 }));
  if (res.status !== 200) throw new Error(`POST /redact answered ${res.status} for "${text.slice(0, 60)}..."`);
  const a = await res.json();
  checkAnswer(text, a);
  return a;
}

// Held-out prose: every entity is spurious.
function scoreHeldOut(rows, answers, t) {
  const per = {};
  for (const [i, r] of rows.entries()) {
    const p = (per[r.lang] ??= { texts: 0, words: 0, spurious: 0, texts_with_entities: 0 });
    const ents = answers[i].entities.filter((e) => e.score >= t);
    p.texts++; p.words += wordCount(r.text); p.spurious += ents.length; p.texts_with_entities += ents.length > 0;
  }
  for (const p of Object.values(per)) p.per_1000_words = Number((1000 * p.spurious / p.words).toFixed(3));
  const all = Object.values(per).reduce((a, p) => ({ texts: a.texts + p.texts, words: a.words + p.words, spurious: a.spurious + p.spurious }), { texts: 0, words: 0, spurious: 0 });
  all.per_1000_words = Number((1000 * all.spurious / all.words).toFixed(3));
  all.worst_language_per_1000_words = Math.max(...Object.values(per).map((p) => p.per_1000_words));
  return { all, per_language: per };
}

// Number-heavy held-out prose: per language as above, and per kind of number.
function scoreNumbers(rows, answers, t) {
  const base = scoreHeldOut(rows, answers, t);
  const kinds = {};
  const kind = (k) => (kinds[k] ??= { numbers: 0, spurious: 0 });
  for (const [i, r] of rows.entries()) {
    for (const n of r.numbers) kind(n.kind).numbers++;
    for (const e of answers[i].entities.filter((x) => x.score >= t)) {
      const touched = new Set(r.numbers.filter((n) => n.start < e.end && e.start < n.end).map((n) => n.kind));
      if (!touched.size) touched.add('words');
      for (const k of touched) kind(k).spurious++;
    }
  }
  kind('words').numbers = null;
  return { ...base, per_kind_of_number: kinds };
}

function scoreListed(rows, answers, t) {
  let pii = 0, detected = 0, spurious = 0;
  const missed = [], spuriousList = [];
  for (const [i, r] of rows.entries()) {
    const d = detection(r.text, r.pii ?? [], answers[i].entities.filter((e) => e.score >= t));
    pii += d.pii; detected += d.detected; spurious += d.spurious.length;
    missed.push(...d.missed.map((s) => `${r.lang ?? '?'}: ${s}`));
    spuriousList.push(...d.spurious.map((e) => `${e.label}: ${e.text}`));
  }
  return { pii, detected, percent: Number((100 * detected / pii).toFixed(2)), spurious, missed, spurious_entities: spuriousList };
}

// Why each greeting's name is missed, from what can be measured: the entities the decoding finds
// over the name at any score ("min_score": 0: under the minimum, or none), whether the name is
// in the name lists the corpora draw from (prose.mjs's isListedName: faker's lists), and whether it
// is also an ordinary word of its language (the lower-case word in the language's Debian word list;
// in German, whose nouns are written capitalised, the word as written too: "August").
const DICTS = { en: 'american-english', de: 'ngerman', fr: 'french', es: 'spanish', it: 'italian', nl: 'dutch' };
const dictCache = new Map();
function ordinaryWords(lang) {
  if (!dictCache.has(lang)) {
    let words = null;
    try {
      words = new Set(readFileSync(`/usr/share/dict/${DICTS[lang]}`, 'utf8').split('\n')
        .filter((w) => w && (lang === 'de' || w === w.toLowerCase())));
    } catch { /* no word list installed: the fact is reported as unknown */ }
    dictCache.set(lang, words);
  }
  return dictCache.get(lang);
}
function missReasons(rows, answers, t, isListedName) {
  const out = [];
  for (const [i, r] of rows.entries()) {
    const { missed } = detection(r.text, r.pii ?? [], answers[i].entities.filter((e) => e.score >= t));
    const cps = [...r.text];
    for (const name of missed) {
      const start = [...r.text.slice(0, r.text.indexOf(name))].length, end = start + [...name].length;
      const over = answers[i].entities.filter((e) => e.start < end && start < e.end)
        .map((e) => ({ label: e.label, text: cps.slice(e.start, e.end).join(''), score: e.score }));
      const words = ordinaryWords(r.lang);
      const facts = { listed_name: isListedName(name),
                      ordinary_word: words ? name.split(/[\s-]+/).some((w) => words.has(w.toLowerCase()) || (r.lang === 'de' && words.has(w))) : null };
      let reason;
      if (over.length) {
        const best = over.reduce((a, b) => (b.score > a.score ? b : a));
        reason = best.score < t ? `found as ${best.label} at ${best.score.toFixed(3)}, under the minimum ${t}`
          : `only part covered (${best.label} "${best.text}")`;
      } else {
        reason = 'no entity at any score';
      }
      if (facts.ordinary_word) reason += `; "${name.toLowerCase()}" is also an ordinary ${r.lang} word`;
      if (!facts.listed_name) reason += '; not in the name lists the training texts draw from';
      out.push({ lang: r.lang, name, text: r.text, entities: over, ...facts, reason });
    }
  }
  return out;
}

// The forms a reader reads as the same text. Title case: each word's first letter upper, the rest
// lower ("EMILY" and "emily" -> "Emily"); digits and punctuation stay.
export const FORMS = {
  upper: (t) => t.toUpperCase(),
  title: (t) => t.replace(/\p{L}[\p{L}\p{M}]*/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()),
  nfd: (t) => t.normalize('NFD'),
};

// One listed set in another form: texts and PII strings rewritten alike (a string the rewriting
// no longer finds in its text, as "ß" made "SS" inside a longer word may be, is left out and counted).
function inForm(rows, form) {
  let dropped = 0;
  const out = rows.map((r) => {
    const text = form(r.text);
    const pii = (r.pii ?? []).map(form).filter((p) => text.includes(p) || (dropped++, false));
    return { ...r, text, pii };
  });
  return { rows: out, dropped };
}

// Labels in order and the redacted text composed again: what must not change under NFD.
const sameAnswer = (a, b) => a.redacted.normalize('NFC') === b.redacted.normalize('NFC') &&
  JSON.stringify(a.entities.map((e) => [e.label, e.text.normalize('NFC')])) ===
  JSON.stringify(b.entities.map((e) => [e.label, e.text.normalize('NFC')]));

async function scoreForms(server, sets, answers, minScore) {
  const listed = ['eval', 'handwritten', 'greetings'];
  const keep = (a) => ({ ...a, entities: a.entities.filter((e) => e.score >= minScore) });
  const result = {};
  for (const [name, form] of Object.entries(FORMS)) {
    const f = (result[name] = { sets: {} });
    for (const set of listed) {
      const { rows, dropped } = inForm(sets[set], form);
      const got = [];
      for (const r of rows) got.push(await answer(server, r.text));
      const score = scoreListed(rows, got, minScore);
      const ordinary = scoreListed(sets[set], answers[set], minScore);
      f.sets[set] = { ...score, pii_left_out: dropped, ordinary_detected: ordinary.detected, ordinary_pii: ordinary.pii,
                      ordinary_spurious: ordinary.spurious,
                      recall_ratio: Number(((score.detected / score.pii) / (ordinary.detected / ordinary.pii)).toFixed(4)) };
      if (name === 'nfd') {
        f.sets[set].not_the_same_answer = rows.flatMap((r, i) =>
          sameAnswer(keep(got[i]), keep(answers[set][i])) ? [] : [sets[set][i].text.slice(0, 120)]);
      }
      console.error(`forms: ${name} ${set}: ${score.detected}/${score.pii} (ordinary ${ordinary.detected}/${ordinary.pii}), ${score.spurious} spurious`);
    }
    if (name !== 'nfd') {
      const got = [];
      for (const r of sets.heldout) got.push(await answer(server, form(r.text)));
      f.heldout = scoreHeldOut(sets.heldout, got, minScore);
      f.heldout.spurious_entities = sets.heldout.flatMap((r, i) => got[i].entities
        .filter((e) => e.score >= minScore).map((e) => `${r.lang} ${e.label} (${e.score}): ${e.text}`));
      console.error(`forms: ${name} heldout: ${f.heldout.all.spurious} spurious, worst language ${f.heldout.all.worst_language_per_1000_words}/1000 words`);
    }
    const sum = (k) => listed.reduce((n, set) => n + f.sets[set][k], 0);
    f.summary = { detected: sum('detected'), pii: sum('pii'), ordinary_detected: sum('ordinary_detected'),
                  ordinary_pii: sum('ordinary_pii'), spurious: sum('spurious'), ordinary_spurious: sum('ordinary_spurious'),
                  ...(f.heldout ? { heldout_worst_per_1000_words: f.heldout.all.worst_language_per_1000_words } : {}),
                  ...(name === 'nfd' ? { not_the_same_answer: listed.reduce((n, set) => n + f.sets[set].not_the_same_answer.length, 0) } : {}) };
  }
  return result;
}

const loadBefore = os.loadavg()[0];
const t0 = Date.now();
const server = await startServer(component);
try {
  const sets = {
    heldout: readJsonl(heldoutPath),
    numbers: readJsonl(numbersPath),
    eval: readJsonl(path.join(root, 'assets/corpora/eval.jsonl')),
    handwritten: readJsonl(path.join(root, 'assets/corpora/handwritten.jsonl'))
      .map((r) => ({ ...r, pii: r.pii.filter((s) => r.text.includes(s)) })),
    greetings: readJsonl(path.join(root, 'assets/corpora/greetings.jsonl')),
  };
  const answers = {};
  for (const [name, rows] of Object.entries(sets)) {
    answers[name] = [];
    for (const r of rows) answers[name].push(await answer(server, r.text));
    console.error(`${name}: ${rows.length} texts answered`);
  }
  const at = (t) => ({
    heldout: scoreHeldOut(sets.heldout, answers.heldout, t),
    numbers: scoreNumbers(sets.numbers, answers.numbers, t),
    eval: scoreListed(sets.eval, answers.eval, t),
    handwritten: scoreListed(sets.handwritten, answers.handwritten, t),
    greetings: scoreListed(sets.greetings, answers.greetings, t),
  });
  // The service's default minimum, from its own answer to a request that names none.
  const probe = await (await postRedact(server.url, JSON.stringify({ text: 'x' }))).json();
  const serviceMinScore = probe.min_score;
  if (typeof serviceMinScore !== 'number') throw new Error(`the answer names no min_score: ${JSON.stringify(probe)}`);
  const main = at(serviceMinScore);
  main.heldout.spurious_entities = sets.heldout.flatMap((r, i) => answers.heldout[i].entities
    .filter((e) => e.score >= serviceMinScore).map((e) => `${r.lang} ${e.label} (${e.score}): ${e.text}`));
  const { isListedName } = await import('../corpus/prose.mjs');
  main.greetings.missed_reasons = missReasons(sets.greetings, answers.greetings, serviceMinScore, isListedName);
  main.numbers.spurious_entities = sets.numbers.flatMap((r, i) => answers.numbers[i].entities
    .filter((e) => e.score >= serviceMinScore).map((e) => `${r.lang} ${e.label} (${e.score}): ${e.text}`));
  const forms = await scoreForms(server, sets, answers, serviceMinScore);
  const study = THRESHOLDS.map((t) => {
    const s = at(t);
    return { min_score: t, heldout_spurious: s.heldout.all.spurious, heldout_worst_per_1000_words: s.heldout.all.worst_language_per_1000_words,
      numbers_spurious: s.numbers.all.spurious, numbers_worst_per_1000_words: s.numbers.all.worst_language_per_1000_words,
      eval_detected: s.eval.detected, eval_pii: s.eval.pii, eval_spurious: s.eval.spurious,
      handwritten_percent: s.handwritten.percent, greetings_detected: s.greetings.detected, greetings_pii: s.greetings.pii,
      // What the minimum costs and what it spares, by name: the PII it no longer covers.
      eval_missed: s.eval.missed, handwritten_missed: s.handwritten.missed, greetings_missed: s.greetings.missed };
  });
  const result = {
    what: 'POST /redact through a served stage (the service\'s decoding and its default minimum score): held-out prose spurious entities per 1,000 words, eval corpus, hand-written and greeting PII covered; and the same answers with every entity (min_score 0) kept at several minimum scores',
    stage,
    ...provenance(loadBefore),
    // --component FILE --model BXM: the model that component embeds (provenance reads assets/model's).
    ...(arg('model') ? { model_sha256: createHash('sha256').update(readFileSync(arg('model'))).digest('hex') } : {}),
    heldout_file: path.relative(root, heldoutPath),
    heldout_sha256: createHash('sha256').update(readFileSync(heldoutPath)).digest('hex'),
    numbers_file: path.relative(root, numbersPath),
    numbers_sha256: createHash('sha256').update(readFileSync(numbersPath)).digest('hex'),
    seconds: Math.round((Date.now() - t0) / 1000),
    service_min_score: serviceMinScore,
    ...main,
    forms,
    min_score_study: study,
  };
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  const h = main.heldout;
  console.log(`wrote ${path.relative(root, out)}: held-out ${h.all.texts} texts, ${h.all.words} words, ${h.all.spurious} spurious ` +
    `(worst language ${h.all.worst_language_per_1000_words}/1000 words); numbers ${main.numbers.all.spurious} spurious ` +
    `(worst language ${main.numbers.all.worst_language_per_1000_words}/1000 words); eval ${main.eval.detected}/${main.eval.pii}, ` +
    `${main.eval.spurious} spurious; hand-written ${main.handwritten.percent}%; greetings ${main.greetings.detected}/${main.greetings.pii} ` +
    `(missed: ${main.greetings.missed.join(', ') || 'none'})`);
  for (const [name, f] of Object.entries(forms)) console.log(`  ${name}: ${JSON.stringify(f.summary ?? f)}`);
  for (const s of study) console.log(`  min score ${s.min_score}: ${JSON.stringify(s)}`);
} finally {
  await server.stop();
}
