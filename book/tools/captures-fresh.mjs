#!/usr/bin/env node
// Every captured output the book quotes ({{check NAME}} -> bench/results/check-NAME.txt,
// {{listing NAME}} -> bench/results/listing-NAME.txt) must
// come from the committed model and from a clean tree at a commit of this history: a proof
// shown for another model's weights, or for code that was never committed, proves nothing
// about what a reader builds. `make check-results` rewrites them all.
//
//   node book/tools/captures-fresh.mjs           exit 1 naming each stale capture
//   node book/tools/captures-fresh.mjs --plant   the deliberate break: reads one quoted capture
//                                                as if another model had made it (must fail)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelPrefix, parseCaptureHeader } from '../../bench/lib/capture-header.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHAPTERS = path.join(ROOT, 'book', 'chapters');
const RESULTS = path.join(ROOT, 'bench', 'results');
const plant = process.argv.includes('--plant');

const quoted = new Set();
for (const file of fs.readdirSync(CHAPTERS).filter((f) => f.endsWith('.md')).sort()) {
    for (const m of fs.readFileSync(path.join(CHAPTERS, file), 'utf8').matchAll(/\{\{(check|listing)\s+([0-9a-z-]+)(?:\s+open)?\s*\}\}/g)) quoted.add(`${m[1]}-${m[2]}`);
}
const names = [...quoted].sort();
const model = modelPrefix();
// A shallow clone lacks the older commits: there the history check is left out.
const shallow = execFileSync('git', ['-C', ROOT, 'rev-parse', '--is-shallow-repository'], { encoding: 'utf8' }).trim() === 'true';
const inHistory = new Map();
const isAncestor = (commit) => {
    if (shallow) return true;
    if (!inHistory.has(commit)) {
        try {
            execFileSync('git', ['-C', ROOT, 'merge-base', '--is-ancestor', commit, 'HEAD'], { stdio: 'ignore' });
            inHistory.set(commit, true);
        } catch { inHistory.set(commit, false); }
    }
    return inHistory.get(commit);
};

const stale = [];
for (const name of names) {
    const file = path.join(RESULTS, `${name}.txt`);
    if (!fs.existsSync(file)) { stale.push(`${name}.txt: missing`); continue; }
    let first = fs.readFileSync(file, 'utf8').split('\n', 1)[0];
    if (plant && name === names[0]) first = first.replace(/model sha256 [0-9a-f]{16}/, `model sha256 ${'0'.repeat(16)}`);
    const h = parseCaptureHeader(first);
    const why = [];
    if (!h) why.push('no header line');
    else {
        if (!h.model) why.push('names no model');
        else if (h.model !== model) why.push(`model ${h.model}, not the committed ${model}`);
        if (!h.commit) why.push('names no commit');
        else if (h.dirty) why.push(`made from a tree with uncommitted changes at ${h.commit}`);
        else if (!isAncestor(h.commit)) why.push(`commit ${h.commit} is not in this history`);
    }
    if (why.length) stale.push(`${name}.txt: ${why.join('; ')}`);
}

if (stale.length) {
    console.error(`captures-fresh: ${stale.length} of ${names.length} quoted captures are stale (make check-results):`);
    for (const s of stale) console.error(`  ${s}`);
    process.exit(1);
}
console.log(`captures-fresh: all ${names.length} quoted captures name model ${model} and a clean commit of this history`);
