#!/usr/bin/env node
// Self-test of the epoch instrumenter. A test that cannot fail proves nothing,
// so it runs every check twice: against the real instrumenter (all must pass)
// and against the deliberate mutant that leaves loop headers unchecked (at least
// one check must fail). Exit status 0 only if both hold.
//
//   node selftest.mjs                 both runs (the CTest `quick` test)
//   node selftest.mjs --mutant        only the mutant; exits 1 when caught (CTest WILL_FAIL)
//   node selftest.mjs [--] more.wasm  also checks these modules statically (validate + counts)
//   node selftest.mjs --stages DIR    only the static checks, on every DIR/NN-name/cli.wasm
//                                     (exit 77 when there is none: CTest's "skipped")
//
// The checks:
//  1. a hand-assembled module whose control flow we know exactly: results are
//     unchanged, and with an already-expired deadline the host is called once per
//     function entry plus once per loop iteration (counted at run time, so this
//     does not trust the instrumenter's own statistics); --trap mode traps;
//  2. a clang-built module with SIMD, bulk memory, saturating conversions,
//     indirect calls and an import: validates, same results for several inputs;
//  3. static counts from an independent decoder (binaryen's `wasm-opt --metrics`,
//     when installed): loops and functions unchanged, exactly 2 new `if`s per
//     check, and functions + loops checks.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { instrument, EPOCH_IMPORT_MODULE, EPOCH_IMPORT_NAME, DEADLINE_EXPORT } from '../instrument.mjs';
import { Writer } from '../wasm-binary.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// ---- a module we can count by hand --------------------------------------------

// (import "env" "bump" (func (param i32) (result i32)))          ;; func 0
// (func $count (export "count") (param $n i32) (result i32) (local $i i32)   ;; func 1
//   (loop $l  i = i + 1; drop(bump(i)); br_if $l (i <u n))
//   leaf() + call_indirect leaf() + i)
// (func $leaf (export "leaf") (result i32) i32.const 7)          ;; func 2
// count(n), n >= 1: returns n + 14; enters 3 function bodies and runs the loop header n times.
function handModule() {
    const section = (id, body) => new Writer().u8(id).sized(body);
    const vec = (items) => { const w = new Writer().u32(items.length); for (const i of items) w.bytes(i); return w; };
    const bytes = (...b) => Uint8Array.from(b.flat());
    const name = (s) => new Writer().name(s).finish();
    const countBody = bytes(
        0x01, 0x01, 0x7f,                               // one i32 local
        0x03, 0x40,                                     // loop
        0x20, 0x01, 0x41, 0x01, 0x6a, 0x22, 0x01,       //   i = i + 1 (tee)
        0x10, 0x00, 0x1a,                               //   drop(bump(i))
        0x20, 0x01, 0x20, 0x00, 0x49, 0x0d, 0x00,       //   br_if 0 (i <u n)
        0x0b,                                           // end
        0x10, 0x02,                                     // call leaf
        0x41, 0x00, 0x11, 0x01, 0x00,                   // call_indirect (type 1) table[0]
        0x6a, 0x20, 0x01, 0x6a, 0x0b);
    const leafBody = bytes(0x00, 0x41, 0x07, 0x0b);
    const m = new Writer().bytes(bytes(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
    m.bytes(section(1, vec([bytes(0x60, 1, 0x7f, 1, 0x7f), bytes(0x60, 0, 1, 0x7f)])).finish());
    m.bytes(section(2, vec([bytes(...name('env'), ...name('bump'), 0x00, 0x00)])).finish());
    m.bytes(section(3, vec([bytes(0), bytes(1)])).finish());
    m.bytes(section(4, vec([bytes(0x70, 0x00, 0x01)])).finish());
    m.bytes(section(7, vec([bytes(...name('count'), 0, 1), bytes(...name('leaf'), 0, 2)])).finish());
    m.bytes(section(9, vec([bytes(0x00, 0x41, 0x00, 0x0b, 0x01, 0x02)])).finish());
    m.bytes(section(10, vec([new Writer().u32(countBody.length).bytes(countBody).finish(),
                             new Writer().u32(leafBody.length).bytes(leafBody).finish()])).finish());
    return m.finish();
}

// ---- helpers -------------------------------------------------------------------

async function instantiate(bytes, hostCalls) {
    const imports = {
        env: { bump: (x) => x + 1, host_mix: (a, b) => (Math.imul(a, 7) ^ b) | 0 },
        [EPOCH_IMPORT_MODULE]: { [EPOCH_IMPORT_NAME]: () => { hostCalls.count++; return hostCalls.deadline; } },
    };
    return (await WebAssembly.instantiate(bytes, imports)).instance;
}

// binaryen's own decoder: node-type counts, or null when wasm-opt is missing.
function binaryenMetrics(bytes, scratch) {
    const path = join(scratch, `m${Math.random().toString(36).slice(2)}.wasm`);
    writeFileSync(path, bytes);
    let text;
    try {
        text = execFileSync('wasm-opt', ['--all-features', '--metrics', path, '-o', '/dev/null'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
        if (e.code === 'ENOENT') return null;
        throw e;
    } finally { rmSync(path, { force: true }); }
    const get = (key) => { const m = text.match(new RegExp(`^\\s*${key.replace(/[[\]]/g, '\\$&')}\\s*:\\s*(\\d+)`, 'm')); return m ? Number(m[1]) : 0; };
    return { funcs: get('[funcs]'), loops: get('Loop'), ifs: get('If') };
}

// ---- the checks -----------------------------------------------------------------

async function runChecks(options, extraModules, log, { staticOnly = false } = {}) {
    const failures = [];
    const expect = (cond, what) => { if (!cond) failures.push(what); };
    const scratch = mkdtempSync(join(tmpdir(), 'bx-epoch-'));
    try {
        const hand = handModule();
        const fixture = readFileSync(join(here, 'fixture.wasm'));
        if (!staticOnly) await runtimeChecks(options, hand, fixture, expect, log);

        // 3. static counts against binaryen
        const modules = staticOnly ? extraModules : [['hand', hand], ['fixture', fixture], ...extraModules];
        for (const [label, bytes] of modules) {
            const before = binaryenMetrics(bytes, scratch);
            if (!before) { log('wasm-opt not found: static cross-check skipped'); break; }
            const out = instrument(bytes, options).bytes;
            expect(WebAssembly.validate(out), `${label} does not validate after instrumenting`);
            const after = binaryenMetrics(out, scratch);
            const expected = before.funcs + before.loops;
            const found = (after.ifs - before.ifs) / 2;
            expect(after.loops === before.loops && after.funcs === before.funcs, `${label}: loop or function count changed`);
            expect(found === expected, `${label}: ${found} checks inserted, expected ${before.funcs} functions + ${before.loops} loops = ${expected}`);
            log(`${label}: binaryen counts ${before.funcs} functions + ${before.loops} loops; checks found ${found}`);
        }
    } finally {
        rmSync(scratch, { recursive: true, force: true });
    }
    return failures;
}

async function runtimeChecks(options, hand, fixture, expect, log) {
    // 1. hand module: results and run-time check counts
    if (!WebAssembly.validate(hand)) throw new Error('test bug: the hand-assembled module is invalid');
    const plain = await instantiate(hand, { count: 0 });
    for (const trap of [false, true]) {
        const out = instrument(hand, { ...options, trap }).bytes;
        expect(WebAssembly.validate(out), `hand module (${trap ? 'trap' : 'call'}) does not validate`);
        if (!WebAssembly.validate(out)) continue;
        const never = { count: 0, deadline: 0n };
        const inst = await instantiate(out, never);
        for (const n of [1, 5, 17])
            expect(inst.exports.count(n) === plain.exports.count(n), `hand module: count(${n}) changed`);
        expect(never.count === 0, 'hand module: host called although the deadline never passes');
        const expired = { count: 0, deadline: 0n };
        const inst0 = await instantiate(out, expired);
        inst0.exports[DEADLINE_EXPORT].value = 0n;
        if (trap) {
            let trapped = false;
            try { inst0.exports.count(3); } catch (e) { trapped = e instanceof WebAssembly.RuntimeError; }
            expect(trapped, 'hand module (trap): an expired deadline did not trap');
        } else {
            for (const n of [1, 5, 17]) {
                expired.count = 0;
                const result = inst0.exports.count(n);
                expect(result === n + 14, `hand module: count(${n}) = ${result} with an expired deadline`);
                // 3 function entries (count, leaf twice) + n loop headers
                expect(expired.count === n + 3, `hand module: ${expired.count} checks fired for count(${n}), expected ${n + 3}`);
            }
        }
    }

    // 2. clang fixture: same results
    const reference = await instantiate(fixture, { count: 0 });
    for (const trap of [false, true]) {
        const { bytes, stats } = instrument(fixture, { ...options, trap });
        expect(WebAssembly.validate(bytes), `fixture (${trap ? 'trap' : 'call'}) does not validate`);
        if (!WebAssembly.validate(bytes)) continue;
        const inst = await instantiate(bytes, { count: 0, deadline: 0n });
        for (let seed = 0; seed < 8; seed++)
            expect(inst.exports.run(seed) === reference.exports.run(seed), `fixture: run(${seed}) changed`);
        log(`fixture (${stats.mode}): ${stats.functions} functions, ${stats.loops} loops, ${stats.checks} checks`);
    }
}

// Static checks only (validation and binaryen's counts), for big real modules.
async function checkStages(dir) {
    const modules = existsSync(dir)
        ? readdirSync(dir).filter((d) => /^\d\d-/.test(d)).map((d) => join(dir, d, 'cli.wasm')).filter(existsSync)
        : [];
    if (modules.length === 0) { console.log(`no stage CLIs under ${dir}: skipped`); return 77; }
    const failures = await runChecks({}, modules.map((p) => [p, readFileSync(p)]), (s) => console.log(s), { staticOnly: true });
    for (const f of failures) console.log(`FAIL: ${f}`);
    return failures.length ? 1 : 0;
}

async function main(argv) {
    const stagesAt = argv.indexOf('--stages');
    if (stagesAt >= 0) return checkStages(argv[stagesAt + 1]);
    const mutantOnly = argv.includes('--mutant');
    const extra = argv.filter((a) => !a.startsWith('--')).map((p) => [p, readFileSync(p)]);
    const quietLog = () => {};
    if (mutantOnly) {
        const failures = await runChecks({ mutant: true }, extra, quietLog);
        for (const f of failures) console.log(`mutant caught: ${f}`);
        return failures.length ? 1 : 0;
    }
    const failures = await runChecks({}, extra, (s) => console.log(s));
    for (const f of failures) console.log(`FAIL: ${f}`);
    const mutantFailures = await runChecks({ mutant: true }, [], quietLog);
    if (mutantFailures.length === 0) console.log('FAIL: the mutant instrumenter (no loop checks) passed every check');
    else console.log(`mutant instrumenter caught by ${mutantFailures.length} check(s), e.g. "${mutantFailures[0]}"`);
    const ok = failures.length === 0 && mutantFailures.length > 0;
    console.log(ok ? 'epoch selftest: PASS' : 'epoch selftest: FAIL');
    return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
