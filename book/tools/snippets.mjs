#!/usr/bin/env node
// The book's preprocessor: expands the directives in book/chapters/*.md into plain
// Pandoc Markdown under book/out/md/, and refuses to do so when the book and the
// sources disagree. No npm dependencies: Node 20's standard library only.
//
//   node book/tools/snippets.mjs build   [--allow-missing]   expand every chapter
//   node book/tools/snippets.mjs markers                     list the markers found
//   node book/tools/snippets.mjs needed                      list the snippets chapters use, present or not
//
// Directives (see book/README.md for the full story):
//   {{snippet UNIT NAME}}    a marked region of a source file (block, alone on a line)
//   {{diff NN}}              stage NN-1 -> NN, git diff --no-index    (block)
//   {{diff NN FILE}}         the same, limited to one file            (block)
//   {{table ARGS...}}        Markdown from `node bench/table.mjs ARGS` (block)
//   {{foldtable ARGS...}}    the same, folded: a table kept for reference, not read by the prose (block)
//   {{figure NAME caption}}  book/figures/NAME.dot or bench/results/NAME.svg (block)
//   {{check NN}}             the captured check output of stage NN    (block)
//   {{listing NAME [open]}}  bench/results/listing-NAME.txt, a machine-code listing shown
//                            whole: folded unless `open` (at most 40 lines)  (block)
//   {{post KEY}}             one of the post's own figures, attributed (inline)
//   {{model FIELD}}          a field of the .bxm header                (inline)
//   {{const NAME}}           an `inline constexpr` from common/stage/stage.hpp (inline)
//   {{stages FIELD}}         counted from stages/: last, last-dir, count, beyond (stages after 09, in words) (inline)
//
// Marker syntax in sources (a line holding only a comment):
//   // snippet: gemm-tile          (also `# snippet: name` in CMake, shell, Python)
//   ...
//   // end-snippet                 (or `// end-snippet: gemm-tile`, which must match)
//
// Every error is collected and printed, one per line, prefixed "book:", and the
// process exits 1. Nothing is written when there are errors (unless --allow-missing
// turned the *missing* kind into visible placeholders).

import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { whereBox } from './stages-index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(process.env.BOOK_ROOT || path.join(here, '..', '..'));
const OUT = path.resolve(ROOT, process.env.BOOK_OUT || 'book/out');
const CHAPTERS = path.join(ROOT, 'book', 'chapters');
const FIGURES = path.join(ROOT, 'book', 'figures');
const RESULTS = path.resolve(ROOT, process.env.BOOK_RESULTS || 'bench/results');
const TABLE_CMD = process.env.BOOK_TABLE_CMD || 'node bench/table.mjs';
const PLOT_CMD = process.env.BOOK_PLOT_CMD || 'node bench/plot.mjs';
const MODEL = path.resolve(ROOT, process.env.BOOK_MODEL || 'assets/model/model.bxm');
const POST_DATA = path.join(ROOT, 'book', 'data', 'post-figures.tsv');

// Where markers may live. Each directory under stages/ is its own unit (stages are
// copies of each other, so the same name may appear once per stage); any other
// scanned top-level directory is one unit.
const SCAN_ROOTS = ['stages', 'common', 'bench', 'tests', 'assets/recipe', 'book/primer'];
const SKIP_DIRS = new Set(['node_modules', 'build', 'out', '.git', '__pycache__', 'results']);
const SOURCE_EXT = new Set(['.cpp', '.cc', '.hpp', '.h', '.c', '.mjs', '.js', '.py', '.sh',
    '.cmake', '.wit', '.mk', '.toml', '.txt']);

const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
const OPEN_RE = new RegExp(`^\\s*(?://|#|--|;)\\s*snippet:\\s*(${NAME})\\s*$`);
const CLOSE_RE = new RegExp(`^\\s*(?://|#|--|;)\\s*end-snippet(?::\\s*(${NAME}))?\\s*$`);
// Anything that looks like an attempt at a marker but is not one of the two forms.
const LOOKS_LIKE_RE = /^\s*(?:\/\/|#|--|;)\s*(?:end-)?snippet\b/;

const LANG = { '.cpp': 'cpp', '.cc': 'cpp', '.hpp': 'cpp', '.h': 'cpp', '.c': 'c',
    '.mjs': 'javascript', '.js': 'javascript', '.py': 'python', '.sh': 'bash',
    '.cmake': 'cmake', '.mk': 'makefile', '.wit': 'text', '.toml': 'toml', '.txt': 'cmake' };

const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');

// ---------------------------------------------------------------------------
// Source markers

function* walk(dir) {
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) { if (!SKIP_DIRS.has(e.name)) yield* walk(p); }
        else if (e.isFile()) yield p;
    }
}

function unitOf(relPath) {
    const parts = relPath.split('/');
    if (parts[0] === 'stages' && parts.length >= 2) return `stages/${parts[1]}`;
    if (parts[0] === 'assets' && parts[1] === 'recipe') return 'assets/recipe';
    return parts[0];
}

function isSource(p) {
    const base = path.basename(p);
    if (base === 'CMakeLists.txt' || base === 'Makefile') return true;
    const ext = path.extname(p);
    return SOURCE_EXT.has(ext) && ext !== '.txt';
}

// Scans one file. Returns { markers: [...], errors: [...] }.
export function scanFile(file, text) {
    const markers = [];
    const errors = [];
    const lines = text.split('\n');
    const stack = [];
    lines.forEach((line, i) => {
        const n = i + 1;
        let m;
        if ((m = OPEN_RE.exec(line))) {
            stack.push({ name: m[1], file, open: n, close: 0 });
        } else if ((m = CLOSE_RE.exec(line))) {
            const top = stack.pop();
            if (!top) {
                errors.push(`${rel(file)}:${n}: end-snippet${m[1] ? `: ${m[1]}` : ''} without an open snippet marker`);
            } else if (m[1] && m[1] !== top.name) {
                errors.push(`${rel(file)}:${n}: end-snippet: ${m[1]} closes snippet '${top.name}' (opened at line ${top.open}); markers may nest but not overlap`);
                stack.push(top);
            } else {
                top.close = n;
                markers.push(top);
            }
        } else if (LOOKS_LIKE_RE.test(line)) {
            errors.push(`${rel(file)}:${n}: malformed snippet marker: '${line.trim()}' (expected '// snippet: name' or '// end-snippet', names in lower-case-with-dashes)`);
        }
    });
    for (const s of stack) {
        errors.push(`${rel(file)}:${s.open}: unterminated snippet '${s.name}' (no end-snippet before the end of the file)`);
    }
    markers.forEach((mk) => { mk.lines = lines; });
    return { markers, errors };
}

// All markers under the scanned roots, keyed "unit\0name".
export function scanSources(root = ROOT) {
    const errors = [];
    const byKey = new Map();
    const all = [];
    for (const r of SCAN_ROOTS) {
        for (const file of walk(path.join(root, r))) {
            if (!isSource(file)) continue;
            const st = fs.statSync(file);
            if (st.size > 2_000_000) continue;
            const text = fs.readFileSync(file, 'utf8');
            if (!text.includes('snippet')) continue;
            const res = scanFile(file, text);
            errors.push(...res.errors);
            for (const mk of res.markers) {
                mk.unit = unitOf(rel(file));
                const key = `${mk.unit}\0${mk.name}`;
                const prev = byKey.get(key);
                if (prev) {
                    errors.push(`duplicated snippet name '${mk.name}' in ${mk.unit}: ${rel(prev.file)}:${prev.open} and ${rel(mk.file)}:${mk.open}`);
                } else {
                    byKey.set(key, mk);
                }
                all.push(mk);
            }
        }
    }
    return { byKey, all, errors };
}

// The text of one snippet: marker lines of nested snippets removed, common
// indentation removed.
function snippetBody(mk) {
    const body = [];
    let contiguous = true;
    for (let n = mk.open + 1; n < mk.close; n++) {
        const line = mk.lines[n - 1];
        if (OPEN_RE.test(line) || CLOSE_RE.test(line)) { contiguous = false; continue; }
        body.push(line.replace(/\s+$/, ''));
    }
    while (body.length && body[0] === '') body.shift();
    while (body.length && body[body.length - 1] === '') body.pop();
    let indent = Infinity;
    for (const l of body) if (l.trim()) indent = Math.min(indent, /^[ \t]*/.exec(l)[0].length);
    if (!Number.isFinite(indent)) indent = 0;
    return { code: body.map((l) => l.slice(indent)), contiguous };
}

// `git diff --numstat` of two stage directories, as "file  +added -removed" lines
// with the stage prefixes taken off (git shows them as renames).
function summary(numstat, a, b) {
    const rows = numstat.split('\n').filter(Boolean).map((line) => {
        const [add, del, p] = line.split('\t');
        let name = p, tag = '';
        let m;
        if ((m = /^(.*)\{(.+) => (.+)\}(.*)$/.exec(p))) name = `${m[1]}${m[4]}`.replace(/^\/+/, '').replace(/\/\//g, '/');
        else if (p.startsWith('/dev/null => ')) { name = p.slice('/dev/null => '.length); tag = ' (new)'; }
        else if (p.endsWith(' => /dev/null')) { name = p.slice(0, -' => /dev/null'.length); tag = ' (deleted)'; }
        for (const d of [a, b]) if (name.startsWith(`${d}/`)) name = name.slice(d.length + 1);
        return [`${name}${tag}`, `+${add} -${del}`];
    });
    const w = Math.max(...rows.map((r) => r[0].length));
    return rows.map(([n, c]) => `${n.padEnd(w)}  ${c}`);
}

function fence(code, info) {
    let longest = 0;
    for (const m of code.join('\n').matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
    const f = '`'.repeat(Math.max(3, longest + 1));
    return [`${f}${info}`, ...code, f];
}

// ---------------------------------------------------------------------------
// Stages, chapters, results

export function stageDirs(root = ROOT) {
    const dir = path.join(root, 'stages');
    let names = [];
    try { names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name); } catch {}
    return names.filter((n) => /^\d\d-[a-z0-9-]+$/.test(n)).sort();
}

function stageByNumber(nn, root = ROOT) {
    const found = stageDirs(root).filter((d) => d.startsWith(`${nn}-`));
    return found.length === 1 ? found[0] : null;
}

// Chapter files: NN-slug.md, in order. Front matter (optional) is a block of
// `key: value` lines between two `---` lines at the very top; known key: stage.
export function readChapters(root = ROOT) {
    const dir = path.join(root, 'book', 'chapters');
    const files = fs.readdirSync(dir).filter((f) => /^\d\d-[a-z0-9-]+\.md$/.test(f)).sort();
    return files.map((f) => {
        const text = fs.readFileSync(path.join(dir, f), 'utf8');
        const lines = text.split('\n');
        const meta = {};
        let start = 0;
        if (lines[0] === '---') {
            const end = lines.indexOf('---', 1);
            for (const l of lines.slice(1, end)) {
                const m = /^([a-z-]+):\s*"?([^"]*)"?\s*$/.exec(l);
                if (m) meta[m[1]] = m[2];
            }
            start = end + 1;
        }
        const body = lines.slice(start);
        const h1 = body.find((l) => /^# /.test(l));
        const title = h1 ? h1.replace(/^# /, '').replace(/\s*\{[^}]*\}\s*$/, '').trim() : f;
        const stem = f.replace(/\.md$/, '');
        return { file: f, stem, path: path.join(dir, f), meta, body, bodyStart: start, title };
    });
}

export function modelHeader(file = MODEL) {
    const b = fs.readFileSync(file);
    if (b.toString('latin1', 0, 4) !== 'BXM1') throw new Error(`${rel(file)} is not a .bxm file`);
    const u = (o) => b.readUInt32LE(o);
    const h = { version: u(4), vocab: u(8), positions: u(12), type_vocab: u(16), hidden: u(20),
        layers: u(24), heads: u(28), ffn: u(32), labels: u(36) };
    h.head_dim = h.hidden / h.heads;
    h.entity_types = (h.labels - 1) / 4;
    return h;
}

// The reader's routes through the book besides the whole: a chapter joins one
// with `routes: "hour, post"` in its front matter; the contents page lists each.
export const ROUTES = {
    hour: 'An hour: the setup, the post\'s key steps and the full picture',
    post: 'The post\'s nine steps only',
};

// Numbers the prose quotes about the stages, counted from stages/ so that a new
// stage cannot leave them behind.
const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
               'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
// Evidence folded under a one-line summary that says what it shows: the
// reader gets the prose first and opens the listing, diff or dump on demand.
// A listing of at most FOLD_AFTER lines stays open.
const FOLD_AFTER = 12;
// Folded evidence is cut to what a reader checks by eye; the rest stays one
// command or one file away, and the cut says where.
const DIFF_LINES = 30, CHECK_HEAD = 6, CHECK_TAIL = 3, LISTING_OPEN_LINES = 40;
const htmlText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
function fold(summary, lines) {
    return ['', '<details>', `<summary>${htmlText(summary)}</summary>`, '', ...lines, '', '</details>', ''];
}
function cutDiff(lines, nn) {
    if (lines.length <= DIFF_LINES) return lines;
    return [...lines.slice(0, DIFF_LINES), `... ${lines.length - DIFF_LINES} more lines: make diff STAGE=${nn} shows the whole diff`];
}
function cutCheck(lines, file) {
    if (lines.length <= CHECK_HEAD + CHECK_TAIL + 1) return lines;
    return [...lines.slice(0, CHECK_HEAD), `... ${lines.length - CHECK_HEAD - CHECK_TAIL} lines left out here; ${file} has them all`,
            ...lines.slice(-CHECK_TAIL)];
}
// The line of a captured check that says how it ended.
function checkVerdict(text) {
    const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const verdict = [...lines].reverse().find((l) => /identical|differ|caught|FAIL|passed|\bOK\b|exact|0 of /i.test(l));
    return (verdict ?? lines.at(-1) ?? '').replace(/\s+/g, ' ').slice(0, 160);
}

export function numberWords(n) {
    if (n < 20) return SMALL[n];
    if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? `-${SMALL[n % 10]}` : '');
    return String(n);
}
export function stageCounts() {
    const dirs = stageDirs();
    const beyond = dirs.filter((d) => Number(d.slice(0, 2)) > 9).length;
    return { last: dirs.at(-1).slice(0, 2), 'last-dir': dirs.at(-1), count: String(dirs.length), beyond: numberWords(beyond) };
}

function contractConst(name, root = ROOT) {
    const hdr = fs.readFileSync(path.join(root, 'common', 'stage', 'stage.hpp'), 'utf8');
    const m = new RegExp(`constexpr\\s+\\w+\\s+${name}\\s*=\\s*([0-9.]+)`).exec(hdr);
    return m ? m[1] : null;
}

function readPostFigures() {
    const map = new Map();
    if (!fs.existsSync(POST_DATA)) return map;
    for (const line of fs.readFileSync(POST_DATA, 'utf8').split('\n')) {
        if (!line.trim() || line.startsWith('#')) continue;
        const [key, value, what] = line.split('\t');
        map.set(key, { value, what });
    }
    return map;
}

// ---------------------------------------------------------------------------
// Expansion

// The typed-number lint: a timing, a percentage or a speed-up written into prose
// by hand. Numbers in the book come from results files (or, attributed, the post).
const TYPED_NUMBER_RE = /(?<![\w.-])\d[\d,.]*\s*(?:ms|µs|us|ns|s|sec|seconds?|milliseconds?|%)(?![\w])|(?<![\w.-])\d[\d,.]*\s*[x×]\s*(?:faster|slower|speed-?up|quicker)/i;

// Words that belong to our issue tracker, not to the book: a chapter explains the
// code and the results, never the process that produced them ("the issue that
// started these stages", "issue 37", "the acceptance test", "closing note").
// Every line of every chapter is read, code and comments included: no chapter,
// and no part of one, can opt out. The list is short on purpose, so that prose
// about the code ("the loop issues two loads") never trips it.
export const TRACKER_PHRASES = [
    /\b(?:the|this|that|our) issues?\b/i,
    /\bissues? #?\d+\b/i,
    /\bacceptance\b/i,
    /\bclosing notes?\b/i,
];
export function trackerPhrase(line) {
    for (const re of TRACKER_PHRASES) {
        const m = re.exec(line);
        if (m) return m[0];
    }
    return null;
}

// Cross-references are links. A chapter named in prose by its number ("chapter
// 23"), as a stage's chapter ("stage `18`'s chapter") or by its title in quotes
// or italics ("What did not work") without a link around it sends the reader
// hunting; written as [text](NN-slug.md) it takes them there, and the link
// follows a renumbering. `titles`: every chapter's title, and for a stage
// chapter also the part after "Stage NN: ". The line's link texts and targets,
// code spans and directives are not read.
export function plainCrossReference(line, titles) {
    const prose = line.replace(/`+[^`]*`+/g, (m) => (/^`\d\d`$/.test(m) ? m : '')).replace(/\{\{[^}]*\}\}/g, '')
        .replace(/\[[^\]]*\]\([^)]*\)/g, '');
    const numbered = /\b[Cc]hapters? \d+\b/.exec(prose);
    if (numbered) return numbered[0];
    const stageChapter = /\b[Ss]tage `?\d\d`?'s chapter\b/.exec(prose);
    if (stageChapter) return stageChapter[0];
    for (const m of prose.matchAll(/"([^"]+)"|“([^”]+)”|(?<![*\w])\*([^*]+)\*(?![*\w])/g)) {
        const quoted = (m[1] ?? m[2] ?? m[3]).trim().toLowerCase();
        if (titles.has(quoted)) return m[0];
    }
    return null;
}
export function chapterTitles(chapters) {
    const titles = new Set();
    for (const ch of chapters) {
        titles.add(ch.title.toLowerCase());
        const short = /^Stage \d\d:\s*(.+)$/i.exec(ch.title);
        if (short) titles.add(short[1].toLowerCase());
    }
    return titles;
}

// A stage directory copied for diffing (the book's {{diff}} and `make diff`):
// what differs between two consecutive stages should be the idea and nothing
// else, so the copy leaves out
//   - snippet markers (a stage drops the markers its own chapter does not use),
//   - the stage's own name (`07-simd-gelu`, anywhere) and, in spin.toml and
//     stage_name.cpp, its number (`stage 07`, `STAGE=07`), written as
//     `NN-stage` and `NN`,
//   - README.md, the stage's prose, which its chapter tells at length,
//   - with `next` (the stage it is compared with), the kept mistakes `next`
//     no longer carries: a knob `next` never mentions (its default, the
//     comment paragraph above the default, and the branch the knob switches
//     on; see knobsLeftOut). A stage keeps its own failed idea runnable and
//     the next one deletes it: that deletion is not the next stage's idea.
const IDENTITY_FILES = new Set(['spin.toml', 'stage_name.cpp']);
export function stageDiffCopy(stage, tmp, root = ROOT, next = null) {
    const dst = path.join(tmp, stage);
    if (fs.existsSync(dst)) return dst;
    const nn = stage.slice(0, 2);
    const own = [[new RegExp(stage.replace(/[-]/g, '\\-'), 'g'), 'NN-stage'],
                 [new RegExp(`\\b(stage|Stage|STAGE=)( ?)${nn}\\b`, 'g'), '$1$2NN']];
    const kept = next ? knobsOf(path.join(root, 'stages', next)) : null;
    for (const f of walk(path.join(root, 'stages', stage))) {
        const relPath = path.relative(path.join(root, 'stages', stage), f);
        if (relPath === 'README.md') continue;
        const out = path.join(dst, relPath);
        fs.mkdirSync(path.dirname(out), { recursive: true });
        let text = fs.readFileSync(f, 'utf8');
        if (isSource(f)) text = text.split('\n').filter((l) => !OPEN_RE.test(l) && !CLOSE_RE.test(l)).join('\n');
        if (kept && isSource(f)) text = knobsLeftOut(text, kept);
        // The number only where it is the stage's identity; elsewhere "stage 07"
        // in stage 08's comments means stage 07.
        for (const [re, to] of own.slice(0, IDENTITY_FILES.has(relPath) ? own.length : 1)) text = text.replace(re, to);
        fs.writeFileSync(out, text);
    }
    fs.mkdirSync(dst, { recursive: true });
    return dst;
}

// A knob is a macro a file defaults to 0 (`#ifndef X` / `#define X 0` /
// `#endif`), as common/cmake/code-hash.cmake defines it. The knobs a stage's
// sources mention anywhere:
function knobsOf(dir) {
    const names = new Set();
    for (const f of walk(dir)) if (isSource(f)) for (const m of fs.readFileSync(f, 'utf8').matchAll(/\bBX_[A-Z0-9_]+\b/g)) names.add(m[0]);
    return names;
}

// `text` without the knobs it defaults that `kept` does not hold: the
// default and the comment paragraph right above it, `#if X` ... (`#else` kept)
// `#endif`, `#if !X` ... (body kept) `#endif`; nested conditionals followed.
function knobsLeftOut(text, kept) {
    const lines = text.split('\n');
    const dropped = new Set();
    for (let i = 0; i + 2 < lines.length; i++) {
        const m = /^#ifndef (BX_[A-Z0-9_]+)$/.exec(lines[i]);
        if (m && lines[i + 1] === `#define ${m[1]} 0` && lines[i + 2] === '#endif' && !kept.has(m[1])) dropped.add(m[1]);
    }
    if (!dropped.size) return text;
    const out = [];
    const stack = [];  // per open conditional: { knob, keep: [if-branch, else-branch] } or null
    const keeping = () => stack.every((s) => !s || s.keep[s.branch]);
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        const def = /^#ifndef (BX_[A-Z0-9_]+)$/.exec(line);
        if (def && dropped.has(def[1]) && lines[i + 1] === `#define ${def[1]} 0` && lines[i + 2] === '#endif') {
            while (out.length && /^\s*\/\//.test(out[out.length - 1])) out.pop();  // its paragraph
            i += 2;
            if (out.length && out[out.length - 1] === '' && lines[i + 1] === '') i++;
            continue;
        }
        const open = /^#if (!?)(BX_[A-Z0-9_]+)\s*$/.exec(line);
        if (open && dropped.has(open[2])) { stack.push({ keep: open[1] ? [true, false] : [false, true], branch: 0 }); continue; }
        if (/^#\s*if/.test(line)) { stack.push(null); if (keeping()) out.push(line); continue; }
        if (/^#\s*else/.test(line) && stack.length && stack[stack.length - 1]) { stack[stack.length - 1].branch = 1; continue; }
        if (/^#\s*endif/.test(line) && stack.length) { const s = stack.pop(); if (!s && keeping()) out.push(line); continue; }
        if (!keeping()) continue;
        // A blank line that only meets another because lines between them went.
        if (line === '' && out.length && out[out.length - 1] === '' && lines[i - 1] !== '') continue;
        out.push(line);
    }
    return out.join('\n');
}

class Expander {
    constructor({ allowMissing }) {
        this.allowMissing = allowMissing;
        this.errors = [];
        this.missing = [];
        this.sources = scanSources();
        this.errors.push(...this.sources.errors);
        this.used = new Set();
        this.post = readPostFigures();
        this.model = null;
        this.plotRan = false;
        this.tmp = null;
    }

    // A missing input: an error, or with --allow-missing a visible placeholder.
    missingBlock(where, what) {
        if (!this.allowMissing) { this.errors.push(`${where}: ${what}`); return []; }
        this.missing.push(`${where}: ${what}`);
        return ['', '::: {.missing}', `**Draft build, not yet available:** ${what.replace(/[*_`]/g, '\\$&')}`, ':::', ''];
    }
    missingInline(where, what) {
        if (!this.allowMissing) { this.errors.push(`${where}: ${what}`); return '??'; }
        this.missing.push(`${where}: ${what}`);
        return '[(missing)]{.missing}';
    }

    snippet(where, args, chapter) {
        if (args.length !== 2) { this.errors.push(`${where}: usage {{snippet UNIT NAME}}`); return []; }
        let [unitArg, name] = args;
        let unit = unitArg.replace(/\/+$/, '');
        let fileFilter = null;
        if (/^\d\d$/.test(unit)) {
            const d = stageByNumber(unit);
            if (!d) return this.missingBlock(where, `missing snippet '${name}' in stages/${unit}-* (no stage directory stages/${unit}-*)`);
            unit = `stages/${d}`;
        } else {
            const u = unitOf(unit);
            if (u !== unit) { fileFilter = unit; unit = u; }
            if (!fs.existsSync(path.join(ROOT, unit))) {
                return this.missingBlock(where, `missing snippet '${name}' in ${unit} (no such directory)`);
            }
        }
        const mk = this.sources.byKey.get(`${unit}\0${name}`);
        if (!mk) return this.missingBlock(where, `missing snippet '${name}' in ${fileFilter || unit} (no '// snippet: ${name}' marker in ${unit})`);
        if (fileFilter && !rel(mk.file).startsWith(fileFilter)) {
            this.errors.push(`${where}: snippet '${name}' is in ${rel(mk.file)}, not under ${fileFilter}`);
            return [];
        }
        this.used.add(`${unit}\0${name}`);
        chapter.snippets.push(`${unit}:${name}`);
        const { code, contiguous } = snippetBody(mk);
        if (!code.length) { this.errors.push(`${rel(mk.file)}:${mk.open}: snippet '${name}' is empty`); return []; }
        const lang = LANG[path.extname(mk.file)] || (path.basename(mk.file) === 'CMakeLists.txt' ? 'cmake' : 'text');
        const info = contiguous ? `{.${lang} .numberLines startFrom="${mk.open + 1}"}` : `{.${lang}}`;
        const listing = ['', `::: {.snippet data-name="${name}"}`,
            `[${rel(mk.file)}]{.snippet-file} [${name}]{.snippet-name} [lines ${mk.open + 1}–${mk.close - 1}]{.snippet-lines}`,
            '', ...fence(code, info), ':::', ''];
        return code.length <= FOLD_AFTER ? listing
            : fold(`Listing: ${name}, ${rel(mk.file)} lines ${mk.open + 1}–${mk.close - 1} (${code.length} lines)`, listing);
    }

    diff(where, args, chapter) {
        const nn = args[0];
        if (!/^\d\d$/.test(nn || '') || nn === '00') { this.errors.push(`${where}: usage {{diff NN [FILE]}} with NN from 01`); return []; }
        const prevNN = String(Number(nn) - 1).padStart(2, '0');
        const a = stageByNumber(prevNN), b = stageByNumber(nn);
        if (!a || !b) return this.missingBlock(where, `diff ${prevNN} -> ${nn}: missing stage directory stages/${!a ? prevNN : nn}-*`);
        this.tmp ??= fs.mkdtempSync(path.join(os.tmpdir(), 'book-diff-'));
        const pairDir = path.join(this.tmp, `${a}..${b}`);
        stageDiffCopy(a, pairDir, ROOT, b); stageDiffCopy(b, pairDir);
        const pa = args[1] ? `${a}/${args[1]}` : a, pb = args[1] ? `${b}/${args[1]}` : b;
        for (const p of [pa, pb]) if (!fs.existsSync(path.join(pairDir, p))) return this.missingBlock(where, `diff ${prevNN} -> ${nn}: no file stages/${p}`);
        const run = (extra) => spawnSync('git', ['-c', 'core.quotepath=off', 'diff', '--no-index', '--no-color', ...extra, pa, pb], { cwd: pairDir, encoding: 'utf8' });
        const numstat = run(['--numstat']), full = run(['--unified=3']);
        if (full.status > 1 || full.error) { this.errors.push(`${where}: git diff failed: ${full.stderr || full.error}`); return []; }
        if (full.status === 0) { this.errors.push(`${where}: stage ${nn} (${b}) has no changes from ${a}`); return []; }
        chapter.diffs.push(`${a}..${b}`);
        const files = numstat.stdout.trim().split('\n').filter(Boolean);
        const added = files.reduce((n, l) => n + (Number(l.split('\t')[0]) || 0), 0);
        const deleted = files.reduce((n, l) => n + (Number(l.split('\t')[1]) || 0), 0);
        return fold(`The diff from ${a} to ${b}${args[1] ? `, ${args[1]}` : ''}: ${files.length} file(s), ${added} line(s) added, ${deleted} removed`, ['', `::: {.diff data-from="${a}" data-to="${b}"}`,
            `[Changes from \`${a}\` to \`${b}\`${args[1] ? `, file \`${args[1]}\`` : ''}, generated by \`git diff --no-index\` (snippet markers, the stage's own name, README.md and the earlier stage's kept mistakes left out)]{.diff-caption}`, '',
            ...fence(summary(numstat.stdout, a, b), 'text'), '',
            ...fence(cutDiff(full.stdout.replace(/\s+$/, '').split('\n'), nn), 'diff'), ':::', '']);
    }

    table(where, args, chapter) {
        const [cmd, ...cmdArgs] = TABLE_CMD.split(' ');
        const script = cmdArgs.find((a) => a.endsWith('.mjs'));
        if (script && !fs.existsSync(path.join(ROOT, script))) return this.missingBlock(where, `table ${args.join(' ')}: ${script} not found (bench tables are generated by it; no results yet)`);
        const r = spawnSync(cmd, [...cmdArgs, ...args], { cwd: ROOT, encoding: 'utf8' });
        if (r.status !== 0 || !r.stdout.trim()) return this.missingBlock(where, `table ${args.join(' ')}: ${TABLE_CMD} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.error || 'no output').toString().trim().split('\n').slice(-3).join(' | ')}`);
        // The manifest lists the directives that make a table (the book's browser test
        // counts them on the page); a generated line, such as a chapter's verdict, is not one.
        if (/^\|/m.test(r.stdout)) chapter.tables.push(args.join(' ')); else chapter.lines.push(args.join(' '));
        return ['', `::: {.results-table data-table="${args.join(' ')}"}`, ...r.stdout.replace(/\s+$/, '').split('\n'), '',
            `[Generated by \`${TABLE_CMD} ${args.join(' ')}\` from \`${rel(RESULTS)}\`.]{.source}`, ':::', ''];
    }

    // A table kept for reference, not read by the argument: folded, its
    // summary naming it and its size.
    foldtable(where, args, chapter) {
        const lines = this.table(where, args, chapter);
        const rows = lines.filter((l) => /^\|/.test(l)).length;
        return rows ? fold(`Table: ${args.join(' ')}, ${Math.max(0, rows - 2)} rows`, lines) : lines;
    }

    figure(where, args, chapter) {
        const [name, ...caption] = args;
        if (!name) { this.errors.push(`${where}: usage {{figure NAME caption...}}`); return []; }
        const ours = name === 'stages' || fs.existsSync(path.join(FIGURES, `${name}.dot`)) || fs.existsSync(path.join(FIGURES, `${name}.dot.in`));
        let source;
        if (ours && fs.existsSync(path.join(RESULTS, `${name}.svg`))) {
            this.errors.push(`${where}: figure name '${name}' is ambiguous: both book/figures/${name}.dot and ${rel(RESULTS)}/${name}.svg exist`);
            return [];
        }
        if (ours) {
            source = `book/figures/${name}.dot`;
        } else {
            const [cmd, ...cmdArgs] = PLOT_CMD.split(' ');
            const script = cmdArgs.find((a) => a.endsWith('.mjs'));
            if (!this.plotRan) {
                this.plotRan = true;
                if (script && fs.existsSync(path.join(ROOT, script))) {
                    const r = spawnSync(cmd, cmdArgs, { cwd: ROOT, encoding: 'utf8' });
                    if (r.status !== 0) this.plotError = `${PLOT_CMD} failed (exit ${r.status}): ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}`;
                } else this.plotError = `${script} not found`;
            }
            // A plot (svg, bench/plot.mjs) or a screenshot (png, written by a test's command).
            const svg = path.join(RESULTS, `${name}.svg`);
            const file = [svg, path.join(RESULTS, `${name}.png`)].find((f) => fs.existsSync(f));
            if (!file) return this.missingBlock(where, `figure '${name}': no ${rel(svg)} or .png${this.plotError ? ` (${this.plotError})` : ''}; no results yet`);
            source = rel(file);
            chapter.plots.push(path.basename(file));
        }
        chapter.figures.push(name);
        const cap = this.inline(where, caption.join(' ')) || name;
        const shown = ours ? `${name}.svg` : path.basename(source);
        return ['', `![${cap}](figures/${shown}){#fig-${name}-${chapter.figures.length} .figure data-source="${source}"}`, ''];
    }

    check(where, args, chapter) {
        const nn = args[0];
        if (!/^\d\d(?:-[a-z0-9-]+)?$/.test(nn || '')) { this.errors.push(`${where}: usage {{check NN}} or {{check NN-variant}}`); return []; }
        const file = path.join(RESULTS, `check-${nn}.txt`);
        if (!fs.existsSync(file)) return this.missingBlock(where, `check ${nn}: no ${rel(file)} (the captured output of the check, stage ${nn.slice(0, 2)}); no results yet`);
        const text = fs.readFileSync(file, 'utf8').replace(/\s+$/, '');
        if (!text) { this.errors.push(`${where}: ${rel(file)} is empty`); return []; }
        chapter.checks.push(nn);
        return fold(`Check output (check-${nn}.txt): ${checkVerdict(text)}`, ['', `::: {.check data-stage="${nn}"}`, ...fence(cutCheck(text.split('\n'), rel(file)), 'text'),
            `[Captured in \`${rel(file)}\`.]{.source}`, ':::', '']);
    }

    // A listing is read instruction by instruction, so it is never cut: the primer's short
    // ones stay open (and must stay short), the stages' long ones are folded.
    listing(where, args, chapter) {
        const [name, mode] = args;
        if (!/^[0-9a-z-]+$/.test(name || '') || (mode && mode !== 'open')) { this.errors.push(`${where}: usage {{listing NAME}} or {{listing NAME open}}`); return []; }
        const file = path.join(RESULTS, `listing-${name}.txt`);
        if (!fs.existsSync(file)) return this.missingBlock(where, `listing ${name}: no ${rel(file)}; no results yet`);
        const lines = fs.readFileSync(file, 'utf8').replace(/\s+$/, '').split('\n');
        if (mode === 'open' && lines.length > LISTING_OPEN_LINES) {
            this.errors.push(`${where}: ${rel(file)} has ${lines.length} lines; an open listing has at most ${LISTING_OPEN_LINES}: fold it or shorten the loop`);
            return [];
        }
        chapter.checks.push(`listing-${name}`);
        const body = ['', `::: {.check data-listing="${name}"}`, ...fence(lines, 'text'), `[Captured in \`${rel(file)}\`.]{.source}`, ':::', ''];
        const title = lines.find((l) => l && !l.startsWith('#')) ?? name;
        const per = (side) => lines.map((l) => new RegExp(`^${side}.*: (\\d+) instructions per trip`).exec(l)?.[1]).find(Boolean);
        const sizes = per('wasm') && per('x86') ? `; ${per('wasm')} wasm instructions per trip, ${per('x86')} x86` : '';
        return mode === 'open' ? body : fold(`Listing (listing-${name}.txt): ${title}${sizes}`, body);
    }

    // Inline directives inside one line of prose (outside inline code).
    inline(where, text) {
        return text.split(/(`+[^`]*`+)/).map((part, i) => (i % 2 ? part : part.replace(/\{\{(\w+)((?:\s+[^\s}]+)*)\s*\}\}/g, (all, kind, rest) => {
            const args = rest.trim().split(/\s+/).filter(Boolean);
            if (kind === 'post') {
                const f = this.post.get(args[0]);
                if (!f) { this.errors.push(`${where}: unknown post figure '${args[0]}' (book/data/post-figures.tsv)`); return '??'; }
                if (args[0] === 'title') return `[${f.value}]{.post-title}`;
                return `[${f.value}]{.post title="The post's measurement: ${f.what.replace(/"/g, "'")}"}^post^`;
            }
            if (kind === 'model') {
                if (!this.model) {
                    try { this.model = modelHeader(); } catch (e) { return this.missingInline(where, `model field '${args[0]}': cannot read ${rel(MODEL)} (${e.code || e.message})`); }
                }
                if (!(args[0] in this.model)) { this.errors.push(`${where}: unknown model field '${args[0]}' (known: ${Object.keys(this.model).join(', ')})`); return '??'; }
                return String(this.model[args[0]]);
            }
            if (kind === 'stages') {
                const v = stageCounts()[args[0]];
                if (v === undefined) { this.errors.push(`${where}: unknown stages field '${args[0]}' (known: ${Object.keys(stageCounts()).join(', ')})`); return '??'; }
                return v;
            }
            if (kind === 'const') {
                const v = contractConst(args[0]);
                if (v === null) { this.errors.push(`${where}: no 'constexpr ... ${args[0]} = N' in common/stage/stage.hpp`); return '??'; }
                return v;
            }
            if (['snippet', 'diff', 'table', 'foldtable', 'figure', 'check', 'listing'].includes(kind)) {
                this.errors.push(`${where}: {{${kind}}} is a block directive: put it alone on its own line`);
                return all;
            }
            this.errors.push(`${where}: unknown directive {{${kind}}}`);
            return all;
        })))
            .join('');
    }

    chapter(ch) {
        const out = [];
        ch.tables = []; ch.lines = []; ch.figures = []; ch.plots = []; ch.checks = []; ch.snippets = []; ch.diffs = [];
        const missingBefore = this.missing.length;
        let inFence = null;
        ch.body.forEach((line, i) => {
            const where = `book/chapters/${ch.file}:${ch.bodyStart + i + 1}`;
            const tracker = trackerPhrase(line);
            if (tracker) {
                this.errors.push(`${where}: '${tracker}' belongs to the issue tracker, not the book: say what the code or the results show, in the book's own terms`);
            }
            const f = /^\s*(`{3,}|~{3,})/.exec(line);
            if (inFence) {
                if (f && f[1][0] === inFence[0] && f[1].length >= inFence.length && line.trim() === f[1]) inFence = null;
                out.push(line);
                return;
            }
            if (f) { inFence = f[1]; out.push(line); return; }
            const block = /^\{\{(snippet|diff|table|foldtable|figure|check|listing)((?:\s+[^}]+)?)\}\}\s*$/.exec(line.trim());
            if (block) {
                const args = block[2].trim().split(/\s+/).filter(Boolean);
                out.push(...this[block[1]](where, args, ch));
                return;
            }
            // First H1 gets the chapter's stem as its id, so links can find it (EPUB).
            if (/^# /.test(line) && !out.some((l) => /^# /.test(l)) && !/\{#/.test(line)) line = `${line} {#ch-${ch.stem}}`;
            const prose = line.replace(/`+[^`]*`+/g, '').replace(/\{\{[^}]*\}\}/g, '').replace(/\]\([^)]*\)/g, ']');
            const crossRef = plainCrossReference(line, this.titles ?? new Set());
            if (crossRef && !/^\s*<!--/.test(line)) {
                this.errors.push(`${where}: cross-reference '${crossRef}' written as plain text: make it a link to the chapter ([words](NN-slug.md), or [words](NN-slug.md#section))`);
            }
            const typed = TYPED_NUMBER_RE.exec(prose);
            if (typed && !/^\s*<!--/.test(line)) {
                this.errors.push(`${where}: typed number '${typed[0]}' in prose: timings and ratios come from results files ({{table}}, {{check}}) or, attributed, {{post KEY}}`);
            }
            out.push(this.inline(where, line));
            // A stage's chapter opens with its generated "where we are" box.
            if (/^# /.test(line) && ch.meta.stage && out.filter((l) => /^# /.test(l)).length === 1) {
                try {
                    out.push('', ...whereBox(ch.meta.stage));
                } catch (e) {
                    this.errors.push(`${where}: the "where we are" box: ${e.message}`);
                }
            }
        });
        ch.draft = this.missing.length > missingBefore;
        if (ch.draft) {
            out.unshift('', '::: {.draft-banner}', '**Draft build** (`BOOK_ALLOW_MISSING=1`): parts of this chapter are placeholders for sources or results that do not exist yet.', ':::', '');
        }
        if (ch.meta.stage) {
            const d = stageByNumber(ch.meta.stage);
            ch.stageDir = d;
        }
        return out.join('\n') + '\n';
    }
}

// ---------------------------------------------------------------------------
// Figures: the stage sequence is generated; *.dot.in templates are expanded.

function stagesDot(chapters) {
    const dirs = stageDirs();
    const byNN = new Map();
    for (const d of dirs) byNN.set(d.slice(0, 2), { dir: d });
    for (const ch of chapters) {
        if (!ch.meta.stage) continue;
        const e = byNN.get(ch.meta.stage) || {};
        e.chapter = ch;
        byNN.set(ch.meta.stage, e);
    }
    const esc = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    const lines = ['digraph stages {', '  rankdir=TB; bgcolor="transparent";',
        '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica", fontsize=11];',
        '  edge [color="#667788"];'];
    const keys = [...byNN.keys()].sort();
    for (const nn of keys) {
        const e = byNN.get(nn);
        const label = e.dir ? e.dir : `${nn} (not written yet)`;
        const sub = e.chapter ? e.chapter.title.replace(/^Stage \d\d:?\s*/i, '') : 'no chapter yet';
        const attrs = [`label="${esc(label)}\\n${esc(sub)}"`];
        if (!e.dir) attrs.push('style="rounded,dashed"', 'fillcolor="white"', 'fontcolor="#667788"');
        if (e.chapter) attrs.push(`URL="${e.chapter.stem}.html"`, `tooltip="${esc(e.chapter.title)}"`);
        lines.push(`  s${nn} [${attrs.join(', ')}];`);
    }
    for (let i = 1; i < keys.length; i++) lines.push(`  s${keys[i - 1]} -> s${keys[i]};`);
    lines.push('}');
    return lines.join('\n') + '\n';
}

function figureSources(ex, chapters) {
    const out = new Map();
    out.set('stages', stagesDot(chapters));
    let files = [];
    try { files = fs.readdirSync(FIGURES).sort(); } catch {}
    for (const f of files) {
        if (f.endsWith('.dot')) out.set(f.slice(0, -4), fs.readFileSync(path.join(FIGURES, f), 'utf8'));
        else if (f.endsWith('.dot.in')) {
            const text = fs.readFileSync(path.join(FIGURES, f), 'utf8');
            out.set(f.slice(0, -7), text.split('\n').map((l, i) => ex.inline(`book/figures/${f}:${i + 1}`, l)).join('\n'));
        }
    }
    return out;
}

// ---------------------------------------------------------------------------

function build({ allowMissing }) {
    const ex = new Expander({ allowMissing });
    const chapters = readChapters();
    ex.titles = chapterTitles(chapters);
    // The book is in parts: the first chapter opens one, and a group (the
    // kernel Part III gathers its chapters by) belongs to a stage chapter.
    if (chapters.some((c) => c.meta.part) && !chapters[0].meta.part) ex.errors.push(`book/chapters/${chapters[0].file}: the first chapter opens the first part (front matter part: "Part I: ...")`);
    for (const ch of chapters)
        for (const r of (ch.meta.routes || '').split(',').map((x) => x.trim()).filter(Boolean))
            if (!ROUTES[r]) ex.errors.push(`book/chapters/${ch.file}: unknown route '${r}' (known: ${Object.keys(ROUTES).join(', ')})`);
    // Part III reads out of stage order, so a stage it mentions is a link to
    // that stage's chapter: "stage `17`" alone, outside a link, is an error.
    {
        let inPart3 = false;
        for (const ch of chapters) {
            if (ch.meta.part) inPart3 = /^Part III\b/.test(ch.meta.part);
            if (!inPart3) continue;
            let fence = null;
            ch.body.forEach((line, i) => {
                const f = /^\s*(`{3,}|~{3,})/.exec(line);
                if (f) { fence = fence ? null : f[1]; return; }
                if (fence || /^\{\{/.test(line.trim())) return;
                const bare = line.replace(/\[[^\]]*\]\([^)]*\)/g, '');
                for (const m of bare.matchAll(/\b[Ss]tage (`?)(\d\d)\1(?!`)/g))
                    if (m[2] !== ch.meta.stage)
                        ex.errors.push(`book/chapters/${ch.file}:${ch.bodyStart + i + 1}: '${m[0]}' in Part III: link it to the stage's chapter`);
            });
        }
    }
    for (const ch of chapters) if (ch.meta.group && !ch.meta.stage) ex.errors.push(`book/chapters/${ch.file}: group: "${ch.meta.group}" on a chapter that is not a stage's`);
    if (!chapters.length) ex.errors.push('no chapters in book/chapters (expected NN-slug.md files)');
    const expanded = chapters.map((ch) => [ch, ex.chapter(ch)]);
    const figures = figureSources(ex, chapters);
    for (const ch of chapters) {
        if (ch.meta.stage && !ch.stageDir) {
            const msg = `book/chapters/${ch.file}: stage ${ch.meta.stage} has no directory stages/${ch.meta.stage}-*`;
            if (allowMissing) ex.missing.push(msg); else ex.errors.push(msg);
        }
    }
    // Every marker in the sources must be used by some chapter.
    for (const mk of ex.sources.all) {
        if (!ex.used.has(`${mk.unit}\0${mk.name}`) && ex.sources.byKey.get(`${mk.unit}\0${mk.name}`) === mk) {
            ex.errors.push(`${rel(mk.file)}:${mk.open}: unused snippet marker '${mk.name}' (${mk.unit}): no chapter includes it; include it with {{snippet ${mk.unit.replace(/^stages\/(\d\d)-.*/, '$1')} ${mk.name}}} or remove the marker`);
        }
    }
    if (ex.tmp) fs.rmSync(ex.tmp, { recursive: true, force: true });
    if (ex.errors.length) {
        for (const e of ex.errors) console.error(`book: ${e}`);
        console.error(`book: ${ex.errors.length} error(s); nothing written.${allowMissing ? '' : ' (A draft with placeholders for missing snippets and results: make book BOOK_ALLOW_MISSING=1.)'}`);
        return 1;
    }
    const mdDir = path.join(OUT, 'md');
    const figDir = path.join(OUT, 'figures-src');
    fs.rmSync(mdDir, { recursive: true, force: true });
    fs.rmSync(figDir, { recursive: true, force: true });
    fs.mkdirSync(mdDir, { recursive: true });
    fs.mkdirSync(figDir, { recursive: true });
    for (const [ch, text] of expanded) fs.writeFileSync(path.join(mdDir, ch.file), text);
    for (const [name, text] of figures) fs.writeFileSync(path.join(figDir, `${name}.dot`), text);
    const plots = [...new Set(chapters.flatMap((c) => c.plots))].map((f) => rel(path.join(RESULTS, f)));
    const manifest = {
        draft: ex.missing.length > 0,
        missing: ex.missing,
        plots,
        chapters: chapters.map((c, i) => ({
            file: c.file, stem: c.stem, html: `${c.stem}.html`, title: c.title, stage: c.meta.stage || null, part: c.meta.part || null, group: c.meta.group || null,
            routes: (c.meta.routes || '').split(',').map((r) => r.trim()).filter(Boolean),
            stageDir: c.stageDir || null, draft: c.draft, snippets: c.snippets, diffs: c.diffs, tables: c.tables, lines: c.lines, figures: c.figures, checks: c.checks,
            prev: i > 0 ? chapters[i - 1].stem : null, next: i + 1 < chapters.length ? chapters[i + 1].stem : null,
        })),
    };
    fs.writeFileSync(path.join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    for (const m of ex.missing) console.error(`book: draft placeholder: ${m}`);
    console.log(`book: expanded ${chapters.length} chapter(s), ${ex.used.size} snippet(s), ${figures.size} figure source(s)${ex.missing.length ? `; DRAFT with ${ex.missing.length} placeholder(s)` : ''}`);
    return 0;
}

function listMarkers() {
    const { all, errors } = scanSources();
    for (const mk of all) console.log(`${mk.unit}\t${mk.name}\t${rel(mk.file)}:${mk.open}:${mk.close}`);
    for (const e of errors) console.error(`book: ${e}`);
    return errors.length ? 1 : 0;
}

// Every snippet the chapters reference, with whether its marker exists: the
// authoritative version of book/SNIPPETS.md's tables.
function listNeeded() {
    const { byKey } = scanSources();
    let missing = 0;
    for (const ch of readChapters()) {
        let inFence = null;
        ch.body.forEach((line, i) => {
            const f = /^\s*(`{3,}|~{3,})/.exec(line);
            if (inFence) { if (f && line.trim() === f[1] && f[1][0] === inFence[0]) inFence = null; return; }
            if (f) { inFence = f[1]; return; }
            const m = /^\{\{snippet\s+(\S+)\s+(\S+)\s*\}\}$/.exec(line.trim());
            if (!m) return;
            let unit = m[1];
            if (/^\d\d$/.test(unit)) { const d = stageByNumber(unit); unit = d ? `stages/${d}` : `stages/${unit}-*`; }
            else unit = unitOf(unit);
            const mk = byKey.get(`${unit}\0${m[2]}`);
            if (!mk) missing++;
            console.log(`${mk ? 'present' : 'MISSING'}\t${m[1]}\t${m[2]}\tbook/chapters/${ch.file}:${ch.bodyStart + i + 1}${mk ? `\t${rel(mk.file)}:${mk.open}` : ''}`);
        });
    }
    console.error(`book: ${missing} referenced snippet(s) without a marker`);
    return 0;
}

// `make diff STAGE=NN`: stage NN-1 -> NN as the book shows it, on stdout.
function printStageDiff(nn, color) {
    if (!/^\d\d$/.test(nn || '') || nn === '00') { console.error('diff: give a stage number from 01'); return 2; }
    const a = stageByNumber(String(Number(nn) - 1).padStart(2, '0')), b = stageByNumber(nn);
    if (!a || !b) { console.error(`diff: no stage ${!b ? nn : Number(nn) - 1}`); return 2; }
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-diff-'));
    try {
        stageDiffCopy(a, tmp, ROOT, b); stageDiffCopy(b, tmp);
        console.log(`diff ${a} -> ${b} (snippet markers, the stage's own name, README.md and ${a}'s kept mistakes left out)`);
        for (const extra of [['--stat'], ['--unified=3', color ? '--color=always' : '--no-color']])
            spawnSync('git', ['-c', 'core.quotepath=off', '--no-pager', 'diff', '--no-index', ...extra, a, b], { cwd: tmp, stdio: 'inherit' });
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const [cmd, ...rest] = process.argv.slice(2);
    const allowMissing = rest.includes('--allow-missing') || process.env.BOOK_ALLOW_MISSING === '1';
    if (cmd === 'build') process.exit(build({ allowMissing }));
    else if (cmd === 'markers') process.exit(listMarkers());
    else if (cmd === 'needed') process.exit(listNeeded());
    else if (cmd === 'diff') process.exit(printStageDiff(rest[0], rest.includes('--color')));
    else { console.error('usage: snippets.mjs build [--allow-missing] | markers | needed | diff NN [--color]'); process.exit(2); }
}
