#!/usr/bin/env node
// A fuzzer's working corpus (one input per file) as a JSONL text corpus
// ({"text": ...} per line) for check-tok: the inputs that are valid UTF-8 and
// not empty, each once, at most --max of them, chosen by file name (libFuzzer
// names a file by its content's SHA-1, so the choice is a fixed sample).
//
//   node tests/fuzz/corpus-to-jsonl.mjs --from DIR[,DIR...] [--max N] -o FILE
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
};
const dirs = option('--from', '').split(',').filter(Boolean);
const max = Number(option('--max', '3000'));
const out = option('-o');
if (!dirs.length || !out) {
    console.error('usage: corpus-to-jsonl.mjs --from DIR[,DIR...] [--max N] -o FILE');
    process.exit(2);
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const texts = new Map();  // file name -> text
let files = 0;
let invalid = 0;
for (const dir of dirs) {
    if (!existsSync(dir)) {
        console.error(`corpus-to-jsonl: ${dir} does not exist (run make fuzz first)`);
        process.exit(2);
    }
    for (const name of readdirSync(dir)) {
        files += 1;
        try {
            const text = decoder.decode(readFileSync(join(dir, name)));
            if (text.length) texts.set(name, text);
        } catch {
            invalid += 1;
        }
    }
}
const unique = [...new Set([...texts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, t]) => t))];
const chosen = unique.slice(0, max);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, chosen.map((text) => JSON.stringify({ text })).join('\n') + '\n');
console.log(`corpus-to-jsonl: ${files} inputs in ${dirs.join(', ')}; ${invalid} not UTF-8; ` +
            `${unique.length} distinct texts; wrote ${chosen.length} to ${out}`);
