// Just enough of the WebAssembly binary format to walk a core module's code
// instruction by instruction. The instrumenter must never guess where an
// instruction ends: one mis-sized immediate shifts every later byte and the
// module stops validating (or, worse, still validates and computes something
// else). So every opcode we know is listed with its immediates, and an opcode
// we do not know is an error, never a skip.
//
// Covered: the 2.0 core set, sign extension, non-trapping float-to-int and bulk
// memory/table (0xFC), SIMD128 and relaxed SIMD (0xFD), threads (0xFE), tail
// calls, typed function references, GC (0xFB), and both exception-handling
// encodings (legacy try/catch and try_table).

export class Reader {
    constructor(bytes, pos = 0, end = bytes.length) {
        this.bytes = bytes;
        this.pos = pos;
        this.end = end;
    }
    atEnd() { return this.pos >= this.end; }
    u8() {
        if (this.pos >= this.end) throw new Error(`unexpected end of data at byte ${this.pos}`);
        return this.bytes[this.pos++];
    }
    // Unsigned LEB128 of up to 32 bits, as a JS number.
    u32() {
        let result = 0, shift = 0, byte;
        do {
            byte = this.u8();
            if (shift === 28 && (byte & 0x70) !== 0) throw new Error(`u32 LEB too large at byte ${this.pos - 1}`);
            result += (byte & 0x7f) * 2 ** shift;
            shift += 7;
        } while (byte & 0x80);
        return result;
    }
    // Signed LEB128 of any width: we only need to step over these (constants,
    // block types), and to read small ones (s33 type indices), so a Number is fine
    // for the latter and the value is ignored for the former.
    sleb(maxBytes) {
        let result = 0, shift = 0, byte, count = 0;
        do {
            byte = this.u8();
            if (++count > maxBytes) throw new Error(`LEB longer than ${maxBytes} bytes at byte ${this.pos - 1}`);
            result += (byte & 0x7f) * 2 ** shift;
            shift += 7;
        } while (byte & 0x80);
        if (shift < 53 && (byte & 0x40)) result -= 2 ** shift;
        return result;
    }
    skip(n) {
        if (this.pos + n > this.end) throw new Error(`unexpected end of data at byte ${this.pos}`);
        this.pos += n;
    }
    slice(start, end) { return this.bytes.subarray(start, end); }
    name() {
        const len = this.u32();
        const start = this.pos;
        this.skip(len);
        return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(start, this.pos));
    }
}

export class Writer {
    constructor() { this.chunks = []; this.length = 0; }
    u8(b) { this.bytes(Uint8Array.of(b)); return this; }
    u32(v) {
        const out = [];
        do {
            let b = v % 128;
            v = Math.floor(v / 128);
            if (v !== 0) b |= 0x80;
            out.push(b);
        } while (v !== 0);
        return this.bytes(Uint8Array.from(out));
    }
    // Signed LEB128 from a BigInt (for i64.const and i64 global initialisers).
    s64(value) {
        let v = BigInt.asIntN(64, BigInt(value));
        const out = [];
        for (;;) {
            const b = Number(v & 0x7fn);
            v >>= 7n;
            const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
            out.push(done ? b : b | 0x80);
            if (done) break;
        }
        return this.bytes(Uint8Array.from(out));
    }
    name(s) {
        const utf8 = new TextEncoder().encode(s);
        return this.u32(utf8.length).bytes(utf8);
    }
    bytes(arr) { this.chunks.push(arr); this.length += arr.length; return this; }
    // Appends another writer's content prefixed by its byte length (sections, bodies).
    sized(inner) { return this.u32(inner.length).bytes(inner.finish()); }
    finish() {
        const out = new Uint8Array(this.length);
        let at = 0;
        for (const c of this.chunks) { out.set(c, at); at += c.length; }
        return out;
    }
}

export const SectionId = Object.freeze({
    custom: 0, type: 1, import: 2, function: 3, table: 4, memory: 5, global: 6,
    export: 7, start: 8, element: 9, code: 10, data: 11, datacount: 12, tag: 13,
});

// The order non-custom sections must appear in (the tag section sits between
// memory and global). Used to know where to put a section we create.
export const sectionOrder = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];

// A module as a list of raw sections: { id, start, end, payload } with payload a
// view of the original bytes. Custom sections also get their name.
export function splitSections(bytes) {
    const r = new Reader(bytes);
    const magic = [0x00, 0x61, 0x73, 0x6d];
    for (const m of magic) if (r.u8() !== m) throw new Error('not a wasm binary (bad magic)');
    const version = r.u8() | (r.u8() << 8) | (r.u8() << 16) | (r.u8() << 24);
    if (version !== 1) throw new Error(`not a core module (version ${version}; components are not supported)`);
    const sections = [];
    while (!r.atEnd()) {
        const id = r.u8();
        const size = r.u32();
        const start = r.pos;
        r.skip(size);
        const section = { id, payload: bytes.subarray(start, start + size) };
        if (id === SectionId.custom) section.name = new Reader(section.payload).name();
        sections.push(section);
    }
    return sections;
}

export function joinSections(sections) {
    const w = new Writer().bytes(Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
    for (const s of sections) w.u8(s.id).u32(s.payload.length).bytes(s.payload);
    return w.finish();
}

// ---- types -----------------------------------------------------------------

// A value type: one byte for numeric/vector/abstract reference types; 0x63/0x64
// (ref null ht / ref ht) are followed by a heap type (s33).
export function skipValType(r) {
    const b = r.u8();
    if (b === 0x63 || b === 0x64) r.sleb(5);
}

// The type section holds function types, and with GC also struct/array types,
// sub-typing wrappers and recursion groups. We need the parameter count of each
// function type (to number the local we add) and the total count of types.
export function readTypeSection(payload) {
    const r = new Reader(payload);
    const types = [];   // per type index: { kind: 'func', params, results } or { kind: 'other' }
    const readComposite = () => {
        const form = r.u8();
        if (form === 0x60) {
            const params = r.u32();
            for (let i = 0; i < params; i++) skipValType(r);
            const results = r.u32();
            for (let i = 0; i < results; i++) skipValType(r);
            types.push({ kind: 'func', params, results });
        } else if (form === 0x5f) {             // struct: fields of (storage type, mutability)
            const n = r.u32();
            for (let i = 0; i < n; i++) { skipStorageType(r); r.u8(); }
            types.push({ kind: 'other' });
        } else if (form === 0x5e) {             // array: one field
            skipStorageType(r); r.u8();
            types.push({ kind: 'other' });
        } else {
            throw new Error(`unknown composite type form 0x${form.toString(16)}`);
        }
    };
    const readSub = () => {
        const b = r.bytes[r.pos];
        if (b === 0x50 || b === 0x4f) {          // sub / sub final: supertypes, then the type
            r.u8();
            const n = r.u32();
            for (let i = 0; i < n; i++) r.u32();
        }
        readComposite();
    };
    const count = r.u32();
    for (let i = 0; i < count; i++) {
        if (r.bytes[r.pos] === 0x4e) {           // rec group: several subtypes
            r.u8();
            const n = r.u32();
            for (let j = 0; j < n; j++) readSub();
        } else {
            readSub();
        }
    }
    return types;
}

function skipStorageType(r) {
    const b = r.bytes[r.pos];
    if (b === 0x78 || b === 0x77) r.u8();        // packed i8 / i16
    else skipValType(r);
}

// ---- instructions ---------------------------------------------------------------

// A memory argument: alignment flags (bit 6 set: a memory index follows, from
// multi-memory), then the offset (u64 for memory64, so read it wide).
function skipMemarg(r) {
    const flags = r.u32();
    if (flags & 0x40) r.u32();
    r.sleb(10);
}

// Block types: 0x40 (empty), a value type, or a type index as s33.
function skipBlockType(r) {
    const b = r.bytes[r.pos];
    if (b === 0x40) { r.u8(); return; }
    if (b === 0x63 || b === 0x64) { skipValType(r); return; }
    if (b >= 0x69 && b <= 0x7f) { r.u8(); return; }   // numeric, vector, abstract heap shorthands
    const index = r.sleb(5);
    if (index < 0) throw new Error(`bad block type at byte ${r.pos}`);
}

// Immediates of single-byte opcodes. Names are the spec's; the letters say what
// follows: 'b' block type, 'i' one u32 index, 'ii' two, 'm' memarg, 'bt' br_table,
// 'f' function index (the one immediate the instrumenter rewrites), 'c32'/'c64'
// signed LEB constants, 'f32'/'f64' raw little-endian floats, 'st' select types,
// 'ht' heap type, 'tt' try_table catches, '' none.
const OPS = new Map();
const def = (code, name, imm = '') => OPS.set(code, { name, imm });
def(0x00, 'unreachable'); def(0x01, 'nop');
def(0x02, 'block', 'b'); def(0x03, 'loop', 'b'); def(0x04, 'if', 'b'); def(0x05, 'else');
def(0x06, 'try', 'b'); def(0x07, 'catch', 'i'); def(0x08, 'throw', 'i'); def(0x09, 'rethrow', 'i');
def(0x0a, 'throw_ref'); def(0x0b, 'end');
def(0x0c, 'br', 'i'); def(0x0d, 'br_if', 'i'); def(0x0e, 'br_table', 'bt'); def(0x0f, 'return');
def(0x10, 'call', 'f'); def(0x11, 'call_indirect', 'ii');
def(0x12, 'return_call', 'f'); def(0x13, 'return_call_indirect', 'ii');
def(0x14, 'call_ref', 'i'); def(0x15, 'return_call_ref', 'i');
def(0x18, 'delegate', 'i'); def(0x19, 'catch_all');
def(0x1a, 'drop'); def(0x1b, 'select'); def(0x1c, 'select_t', 'st');
def(0x1f, 'try_table', 'tt');
def(0x20, 'local.get', 'i'); def(0x21, 'local.set', 'i'); def(0x22, 'local.tee', 'i');
def(0x23, 'global.get', 'i'); def(0x24, 'global.set', 'i');
def(0x25, 'table.get', 'i'); def(0x26, 'table.set', 'i');
for (let op = 0x28; op <= 0x3e; op++) def(op, `load/store 0x${op.toString(16)}`, 'm');
def(0x3f, 'memory.size', 'i'); def(0x40, 'memory.grow', 'i');
def(0x41, 'i32.const', 'c32'); def(0x42, 'i64.const', 'c64');
def(0x43, 'f32.const', 'f32'); def(0x44, 'f64.const', 'f64');
for (let op = 0x45; op <= 0xc4; op++) def(op, `numeric 0x${op.toString(16)}`);
def(0xd0, 'ref.null', 'ht'); def(0xd1, 'ref.is_null'); def(0xd2, 'ref.func', 'f');
def(0xd3, 'ref.as_non_null'); def(0xd4, 'br_on_null', 'i'); def(0xd5, 'ref.eq');
def(0xd6, 'br_on_non_null', 'i');

// 0xFB (GC): sub-opcode -> immediates.
const GC = new Map([
    [0, 'i'], [1, 'i'], [2, 'ii'], [3, 'ii'], [4, 'ii'], [5, 'ii'], [6, 'i'], [7, 'i'],
    [8, 'ii'], [9, 'ii'], [10, 'ii'], [11, 'i'], [12, 'i'], [13, 'i'], [14, 'i'], [15, ''],
    [16, 'i'], [17, 'ii'], [18, 'ii'], [19, 'ii'], [20, 'ht'], [21, 'ht'], [22, 'ht'], [23, 'ht'],
    [24, 'cast'], [25, 'cast'], [26, ''], [27, ''], [28, ''], [29, ''], [30, ''],
]);

// 0xFC: 0-7 saturating truncations; 8-17 bulk memory and table operations.
const MISC = new Map([
    [0, ''], [1, ''], [2, ''], [3, ''], [4, ''], [5, ''], [6, ''], [7, ''],
    [8, 'ii'],    // memory.init data mem
    [9, 'i'],     // data.drop
    [10, 'ii'],   // memory.copy dst src
    [11, 'i'],    // memory.fill
    [12, 'ii'],   // table.init elem table
    [13, 'i'],    // elem.drop
    [14, 'ii'],   // table.copy
    [15, 'i'], [16, 'i'], [17, 'i'],   // table.grow / size / fill
]);

// 0xFD (SIMD128): everything not listed here has no immediate. The relaxed-SIMD
// opcodes (0x100-0x113) have none either.
function simdImmediates(sub) {
    if (sub <= 0x0b) return 'm';                    // v128.load*, v128.store
    if (sub === 0x0c) return 'v16';                 // v128.const: 16 bytes
    if (sub === 0x0d) return 'v16';                 // i8x16.shuffle: 16 lane indices
    if (sub >= 0x15 && sub <= 0x22) return 'lane';  // extract_lane / replace_lane
    if (sub >= 0x54 && sub <= 0x5b) return 'mlane'; // v128.loadN_lane / storeN_lane
    if (sub === 0x5c || sub === 0x5d) return 'm';   // v128.load32_zero / load64_zero
    if (sub <= 0xff || (sub >= 0x100 && sub <= 0x113)) return '';
    throw new Error(`unknown SIMD opcode 0xfd ${sub}`);
}

// 0xFE (threads): notify/wait and every atomic load/store/rmw take a memarg;
// atomic.fence takes one reserved zero byte.
function atomicImmediates(sub) {
    if (sub === 0x03) return 'zero';
    if ((sub >= 0x00 && sub <= 0x02) || (sub >= 0x10 && sub <= 0x4e)) return 'm';
    throw new Error(`unknown atomic opcode 0xfe ${sub}`);
}

function readImmediates(r, imm, info) {
    switch (imm) {
        case '': return;
        case 'b': skipBlockType(r); return;
        case 'i': r.u32(); return;
        case 'ii': r.u32(); r.u32(); return;
        case 'm': skipMemarg(r); return;
        case 'mlane': skipMemarg(r); r.u8(); return;
        case 'lane': r.u8(); return;
        case 'v16': r.skip(16); return;
        case 'zero': if (r.u8() !== 0) throw new Error('atomic.fence: expected 0x00'); return;
        case 'c32': r.sleb(5); return;
        case 'c64': r.sleb(10); return;
        case 'f32': r.skip(4); return;
        case 'f64': r.skip(8); return;
        case 'ht': r.sleb(5); return;
        case 'bt': { const n = r.u32(); for (let i = 0; i <= n; i++) r.u32(); return; }
        case 'st': { const n = r.u32(); for (let i = 0; i < n; i++) skipValType(r); return; }
        case 'cast': r.u8(); r.u32(); r.sleb(5); r.sleb(5); return;   // flags, label, ht1, ht2
        case 'tt': {
            skipBlockType(r);
            const n = r.u32();
            for (let i = 0; i < n; i++) {
                const kind = r.u8();                 // 0 catch, 1 catch_ref: tag + label; 2/3 *_all: label
                if (kind <= 1) r.u32();
                r.u32();
            }
            return;
        }
        case 'f': {
            const at = r.pos;
            info.funcIndex = r.u32();
            info.funcIndexSpan = [at, r.pos];
            return;
        }
        default: throw new Error(`internal: immediate kind ${imm}`);
    }
}

// Decodes the instruction at r.pos and leaves r.pos after it. Returns
// { name, start, end, funcIndex?, funcIndexSpan? }: funcIndex is set for call,
// return_call and ref.func, with the byte span of that immediate.
export function readInstruction(r) {
    const start = r.pos;
    const op = r.u8();
    const info = { name: '', start, end: start };
    if (op === 0xfb || op === 0xfc || op === 0xfd || op === 0xfe) {
        const sub = r.u32();
        let imm;
        if (op === 0xfb) imm = GC.get(sub);
        else if (op === 0xfc) imm = MISC.get(sub);
        else if (op === 0xfd) imm = simdImmediates(sub);
        else imm = atomicImmediates(sub);
        if (imm === undefined) throw new Error(`unknown opcode 0x${op.toString(16)} ${sub} at byte ${start}`);
        info.name = `0x${op.toString(16)}:${sub}`;
        readImmediates(r, imm, info);
    } else {
        const entry = OPS.get(op);
        if (!entry) throw new Error(`unknown opcode 0x${op.toString(16)} at byte ${start}`);
        info.name = entry.name;
        readImmediates(r, entry.imm, info);
    }
    info.end = r.pos;
    return info;
}

// Names of the instructions that open a block closed by `end`.
export const opensBlock = new Set(['block', 'loop', 'if', 'try', 'try_table']);
