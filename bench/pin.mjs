#!/usr/bin/env node
// Names the results file behind one of the book's tables, in
// bench/results/book-runs.json. The tables read the file named there, never
// "the newest file": which run the book quotes is a choice, made by committing
// this file (make bench-all and make bench-instructions pin their run when it
// passed every check; bench-peer, limits and sweeps are pinned by hand).
//
//   node bench/pin.mjs TABLE FILE     e.g. forward bench/results/2026-12-05T0100-all.json
//   node bench/pin.mjs --list
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const PINS_FILE = join(here, 'results', 'book-runs.json');

export function readPins() {
    return existsSync(PINS_FILE) ? JSON.parse(readFileSync(PINS_FILE, 'utf8')) : { tables: {} };
}

// The results file pinned for `table` (a path), or null.
export function pinnedFile(table) {
    const name = readPins().tables[table];
    return name ? join(here, 'results', name) : null;
}

function main(argv) {
    if (argv[0] === '--list') {
        for (const [table, file] of Object.entries(readPins().tables)) console.log(`${table.padEnd(14)} ${file}`);
        return 0;
    }
    const [table, file] = argv;
    if (!table || !file) { console.error('usage: pin.mjs TABLE FILE | --list'); return 2; }
    const path = resolve(file);
    if (dirname(path) !== join(here, 'results') || !existsSync(path)) {
        console.error(`pin: ${file} is not a file in bench/results/`);
        return 2;
    }
    const tables = { ...readPins().tables, [table]: basename(path) };
    const pins = {
        about: 'The results file behind each of the book\'s tables (bench/pin.mjs writes it, bench/table.mjs and bench/plot.mjs read it).',
        tables: Object.fromEntries(Object.entries(tables).sort(([a], [b]) => a.localeCompare(b))),
    };
    writeFileSync(PINS_FILE, `${JSON.stringify(pins, null, 1)}\n`);
    console.error(`pin: ${table} -> ${basename(path)} (bench/results/book-runs.json; commit it to keep the choice)`);
    return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
