#!/usr/bin/env node
// Epoch-interruption emulation: rewrites a core wasm module so that every
// function entry and every loop header carries a deadline check, the way
// wasmtime compiles a module when epoch interruption is on (Spin always turns it
// on). V8 has no such mode, so to measure what those checks cost our kernels
// under Node we put them into the wasm itself. See README.md in this directory
// for what wasmtime emits and where this emulation differs.
//
// The check, in wasm (E = epoch global, D = deadline global, dl = a new i64
// local caching the deadline like wasmtime's register-held deadline variable):
//
//   function entry:  global.get D  local.set dl   then the check below
//   check:           global.get E  local.get dl  i64.ge_u
//                    if                          ;; cold: the deadline passed
//                      global.get D  local.set dl  ;; reload (a callee may have moved it)
//                      global.get E  local.get dl  i64.ge_u
//                      if  call $new_epoch  local.set dl  end   ;; --trap: unreachable
//                    end
//
// Usage: node instrument.mjs IN.wasm OUT.wasm [--trap] [--mutant] [--deadline N] [--quiet]
//   --trap      the cold path traps (`unreachable`) instead of calling the host
//   --mutant    deliberately broken: no checks at loop headers (the self-test must notice)
//   --deadline  initial deadline (default 2^64-1: never expires)
// Prints one JSON line of statistics.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
    Reader, Writer, SectionId, sectionOrder, splitSections, joinSections,
    readTypeSection, readInstruction, opensBlock, skipValType,
} from './wasm-binary.mjs';

export const EPOCH_IMPORT_MODULE = 'bx_epoch';
export const EPOCH_IMPORT_NAME = 'new_epoch';       // () -> i64: returns the new deadline
export const EPOCH_EXPORT = 'bx_epoch';             // the counter (mutable i64 global)
export const DEADLINE_EXPORT = 'bx_epoch_deadline'; // the deadline (mutable i64 global)
export const NEVER = (1n << 64n) - 1n;

const OP = {
    unreachable: 0x00, if: 0x04, end: 0x0b, call: 0x10, localGet: 0x20, localSet: 0x21,
    globalGet: 0x23, i64Const: 0x42, i64GeU: 0x5a, emptyBlock: 0x40, i64: 0x7e,
};

// ---- small section readers ---------------------------------------------------

function skipLimits(r) {
    const flags = r.u8();
    r.sleb(10);                       // min (u64 for memory64; we only step over it)
    if (flags & 0x01) r.sleb(10);     // max
    if (flags & 0x08) r.u32();        // custom page size (log2)
}

function readImports(payload) {
    const r = new Reader(payload);
    const count = r.u32();
    const imports = [];
    for (let i = 0; i < count; i++) {
        const module = r.name(), name = r.name();
        const kind = r.u8();
        if (kind === 0) r.u32();
        else if (kind === 1) { skipValType(r); skipLimits(r); }
        else if (kind === 2) skipLimits(r);
        else if (kind === 3) { skipValType(r); r.u8(); }
        else if (kind === 4) { r.u8(); r.u32(); }
        else throw new Error(`unknown import kind ${kind}`);
        imports.push({ module, name, kind });
    }
    return { count, imports };
}

// Byte length of the LEB128 at the start of `bytes` (the vector count).
function lebLength(bytes) {
    let n = 0;
    while (bytes[n] & 0x80) n++;
    return n + 1;
}

// ---- expression copying ---------------------------------------------------------

// Copies one expression (a function body's instructions or a constant expression)
// from `r` to `w`, up to and including the `end` that closes it. Function indices
// are renumbered through `remap`; `afterInstruction(info)` may return bytes to
// insert right after an instruction. Runs of unchanged bytes are copied as views.
function copyExpression(r, w, remap, afterInstruction = null) {
    let depth = 0;
    let runStart = r.pos;
    const flush = (upTo) => { if (upTo > runStart) w.bytes(r.slice(runStart, upTo)); };
    for (;;) {
        const info = readInstruction(r);
        if (info.funcIndexSpan) {
            const renumbered = remap(info.funcIndex);
            if (renumbered !== info.funcIndex) {
                flush(info.funcIndexSpan[0]);
                w.u32(renumbered);
                runStart = info.funcIndexSpan[1];
            }
        }
        const extra = afterInstruction ? afterInstruction(info) : null;
        if (extra) {
            flush(info.end);
            w.bytes(extra);
            runStart = info.end;
        }
        if (opensBlock.has(info.name)) depth++;
        else if (info.name === 'end' || info.name === 'delegate') {
            if (depth === 0) break;
            depth--;
        }
    }
    flush(r.pos);
}

// ---- the check ----------------------------------------------------------------

// snippet: epoch-check
function checkBytes({ epoch, deadline, local, newEpochFunc, trap }) {
    const w = new Writer();
    const cmp = () => w.u8(OP.globalGet).u32(epoch).u8(OP.localGet).u32(local).u8(OP.i64GeU);
    cmp();
    w.u8(OP.if).u8(OP.emptyBlock);
    w.u8(OP.globalGet).u32(deadline).u8(OP.localSet).u32(local);
    cmp();
    w.u8(OP.if).u8(OP.emptyBlock);
    if (trap) w.u8(OP.unreachable);
    else w.u8(OP.call).u32(newEpochFunc).u8(OP.localSet).u32(local);
    w.u8(OP.end).u8(OP.end);
    return w.finish();
}
// end-snippet

// ---- the rewrite ------------------------------------------------------------

export function instrument(input, { trap = false, mutant = false, deadline = NEVER } = {}) {
    const sections = splitSections(input);
    const find = (id) => sections.find((s) => s.id === id);
    for (const s of sections) {
        if (s.id === SectionId.custom && (s.name === 'linking' || s.name.startsWith('reloc.')))
            throw new Error('this is a relocatable object file; instrument the linked module');
    }

    const types = find(SectionId.type) ? readTypeSection(find(SectionId.type).payload) : [];
    const imports = find(SectionId.import) ? readImports(find(SectionId.import).payload) : { count: 0, imports: [] };
    const importedFuncs = imports.imports.filter((i) => i.kind === 0).length;
    const importedGlobals = imports.imports.filter((i) => i.kind === 3).length;

    const funcTypes = [];
    if (find(SectionId.function)) {
        const r = new Reader(find(SectionId.function).payload);
        const n = r.u32();
        for (let i = 0; i < n; i++) funcTypes.push(r.u32());
    }
    let definedGlobals = 0;
    if (find(SectionId.global)) definedGlobals = new Reader(find(SectionId.global).payload).u32();

    // With a host call, the new import takes function index `importedFuncs` and
    // every function defined in the module moves up by one.
    const newEpochFunc = trap ? -1 : importedFuncs;
    const remap = trap ? (f) => f : (f) => (f >= importedFuncs ? f + 1 : f);
    const epochGlobal = importedGlobals + definedGlobals;
    const deadlineGlobal = epochGlobal + 1;

    const replaced = new Map();   // section id -> new payload

    if (!trap) {
        // type: append () -> i64
        const typeSec = find(SectionId.type);
        const w = new Writer().u32(types.length + 1);
        if (typeSec) w.bytes(typeSec.payload.subarray(lebLength(typeSec.payload)));
        w.u8(0x60).u32(0).u32(1).u8(OP.i64);
        replaced.set(SectionId.type, w.finish());
        const newType = types.length;

        // import: append the host function
        const importSec = find(SectionId.import);
        const iw = new Writer().u32(imports.count + 1);
        if (importSec) iw.bytes(importSec.payload.subarray(lebLength(importSec.payload)));
        iw.name(EPOCH_IMPORT_MODULE).name(EPOCH_IMPORT_NAME).u8(0).u32(newType);
        replaced.set(SectionId.import, iw.finish());
    }

    // table: a table with an initialiser expression may hold ref.func
    if (!trap && find(SectionId.table)) {
        const r = new Reader(find(SectionId.table).payload);
        const w = new Writer();
        const n = r.u32();
        w.u32(n);
        for (let i = 0; i < n; i++) {
            const start = r.pos;
            if (r.bytes[r.pos] === 0x40) {
                r.u8(); r.u8(); skipValType(r); skipLimits(r);
                w.bytes(r.slice(start, r.pos));
                copyExpression(r, w, remap);
            } else {
                skipValType(r); skipLimits(r);
                w.bytes(r.slice(start, r.pos));
            }
        }
        replaced.set(SectionId.table, w.finish());
    }

    // global: keep (renumbering ref.func in initialisers), add epoch and deadline
    {
        const w = new Writer().u32(definedGlobals + 2);
        if (find(SectionId.global)) {
            const r = new Reader(find(SectionId.global).payload);
            r.u32();
            for (let i = 0; i < definedGlobals; i++) {
                const start = r.pos;
                skipValType(r); r.u8();
                w.bytes(r.slice(start, r.pos));
                copyExpression(r, w, remap);
            }
        }
        w.u8(OP.i64).u8(1).u8(OP.i64Const).s64(0n).u8(OP.end);
        w.u8(OP.i64).u8(1).u8(OP.i64Const).s64(BigInt.asIntN(64, BigInt(deadline))).u8(OP.end);
        replaced.set(SectionId.global, w.finish());
    }

    // export: renumber functions, export the two globals so the host can drive them
    {
        const exportSec = find(SectionId.export);
        const entries = [];
        if (exportSec) {
            const r = new Reader(exportSec.payload);
            const n = r.u32();
            for (let i = 0; i < n; i++) {
                const name = r.name(), kind = r.u8(), index = r.u32();
                entries.push({ name, kind, index: kind === 0 ? remap(index) : index });
            }
        }
        for (const name of [EPOCH_EXPORT, DEADLINE_EXPORT])
            if (entries.some((e) => e.name === name)) throw new Error(`module already exports ${name}`);
        entries.push({ name: EPOCH_EXPORT, kind: 3, index: epochGlobal });
        entries.push({ name: DEADLINE_EXPORT, kind: 3, index: deadlineGlobal });
        const w = new Writer().u32(entries.length);
        for (const e of entries) w.name(e.name).u8(e.kind).u32(e.index);
        replaced.set(SectionId.export, w.finish());
    }

    if (!trap && find(SectionId.start)) {
        const index = new Reader(find(SectionId.start).payload).u32();
        replaced.set(SectionId.start, new Writer().u32(remap(index)).finish());
    }

    if (!trap && find(SectionId.element)) replaced.set(SectionId.element, rewriteElements(find(SectionId.element).payload, remap));

    // code: the checks
    const stats = { functions: 0, loops: 0, checks: 0, importedFunctions: importedFuncs };
    {
        const r = new Reader(find(SectionId.code)?.payload ?? Uint8Array.of(0));
        const n = r.u32();
        if (n !== funcTypes.length) throw new Error(`code section has ${n} bodies, function section ${funcTypes.length}`);
        const w = new Writer().u32(n);
        for (let i = 0; i < n; i++) {
            const size = r.u32();
            const bodyEnd = r.pos + size;
            const body = new Writer();
            const type = types[funcTypes[i]];
            if (!type || type.kind !== 'func') throw new Error(`function ${i}: type ${funcTypes[i]} is not a function type`);
            const groups = r.u32();
            const groupsStart = r.pos;
            let locals = 0;
            for (let g = 0; g < groups; g++) { locals += r.u32(); skipValType(r); }
            body.u32(groups + 1).bytes(r.slice(groupsStart, r.pos)).u32(1).u8(OP.i64);
            const local = type.params + locals;
            const check = checkBytes({ epoch: epochGlobal, deadline: deadlineGlobal, local, newEpochFunc, trap });
            body.u8(OP.globalGet).u32(deadlineGlobal).u8(OP.localSet).u32(local).bytes(check);
            stats.functions++; stats.checks++;
            copyExpression(r, body, remap, (info) => {
                if (info.name !== 'loop') return null;
                stats.loops++;
                if (mutant) return null;
                stats.checks++;
                return check;
            });
            if (r.pos !== bodyEnd) throw new Error(`function ${i}: body ends at ${r.pos}, expected ${bodyEnd}`);
            w.sized(body);
        }
        if (find(SectionId.code)) replaced.set(SectionId.code, w.finish());
    }

    // custom sections: DWARF describes code offsets that no longer exist; the name
    // section is kept with its function indices renumbered (V8 uses it in traces).
    const out = [];
    for (const s of sections) {
        if (s.id === SectionId.custom) {
            if (s.name.startsWith('.debug_')) continue;
            if (s.name === 'name') { out.push({ id: 0, payload: rewriteNames(s.payload, remap) }); continue; }
            out.push(s);
            continue;
        }
        out.push(replaced.has(s.id) ? { id: s.id, payload: replaced.get(s.id) } : s);
        replaced.delete(s.id);
    }
    // Sections the module did not have (type, import, global, export) go where the order wants them.
    for (const [id, payload] of replaced) {
        const rank = sectionOrder.indexOf(id);
        let at = out.findIndex((s) => s.id !== 0 && sectionOrder.indexOf(s.id) > rank);
        if (at < 0) at = out.length;
        out.splice(at, 0, { id, payload });
    }
    stats.epochGlobal = epochGlobal;
    stats.deadlineGlobal = deadlineGlobal;
    stats.mode = trap ? 'trap' : 'call';
    stats.mutant = mutant;
    return { bytes: joinSections(out), stats };
}

function rewriteElements(payload, remap) {
    const r = new Reader(payload);
    const w = new Writer();
    const n = r.u32();
    w.u32(n);
    for (let i = 0; i < n; i++) {
        const flags = r.u32();
        w.u32(flags);
        if (flags & 0x02 && !(flags & 0x01)) { w.u32(r.u32()); }             // explicit table index
        if (!(flags & 0x01)) copyExpression(r, w, remap);                      // active: offset
        if (flags & 0x03) {                                                    // elemkind or reftype
            const s = r.pos;
            if (flags & 0x04) skipValType(r); else r.u8();
            w.bytes(r.slice(s, r.pos));
        }
        const count = r.u32();
        w.u32(count);
        for (let j = 0; j < count; j++) {
            if (flags & 0x04) copyExpression(r, w, remap);
            else w.u32(remap(r.u32()));
        }
    }
    return w.finish();
}

// name section: subsection 1 (function names) and 2 (local names) are keyed by
// function index; 3 (label names) would be off by our new blocks, so it goes.
function rewriteNames(payload, remap) {
    const r = new Reader(payload);
    r.name();
    const w = new Writer().name('name');
    while (!r.atEnd()) {
        const id = r.u8();
        const size = r.u32();
        const end = r.pos + size;
        if (id === 1 || id === 2) {
            const sub = new Writer();
            const n = r.u32();
            sub.u32(n);
            for (let i = 0; i < n; i++) {
                sub.u32(remap(r.u32()));
                const s = r.pos;
                if (id === 1) { r.name(); } else {
                    const m = r.u32();
                    for (let j = 0; j < m; j++) { r.u32(); r.name(); }
                }
                sub.bytes(r.slice(s, r.pos));
            }
            w.u8(id).sized(sub);
        } else if (id !== 3) {
            w.u8(id).u32(size).bytes(r.slice(r.pos, end));
        }
        r.pos = end;
    }
    return w.finish();
}

// ---- command line -------------------------------------------------------------

function main(argv) {
    const files = [];
    const options = {};
    let quiet = false;
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--trap') options.trap = true;
        else if (a === '--mutant') options.mutant = true;
        else if (a === '--deadline') options.deadline = BigInt(argv[++i]);
        else if (a === '--quiet') quiet = true;
        else if (a.startsWith('--')) { console.error(`unknown option ${a}`); return 2; }
        else files.push(a);
    }
    if (files.length !== 2) {
        console.error('usage: instrument.mjs IN.wasm OUT.wasm [--trap] [--mutant] [--deadline N] [--quiet]');
        return 2;
    }
    const { bytes, stats } = instrument(readFileSync(files[0]), options);
    if (!WebAssembly.validate(bytes)) { console.error('instrument: the rewritten module does not validate'); return 1; }
    writeFileSync(files[1], bytes);
    if (!quiet) console.log(JSON.stringify(stats));
    return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
