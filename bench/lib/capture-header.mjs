// The first line of every captured output the book quotes (bench/results/check-*.txt):
// when, at which commit, whether the tree had changes there, and which model.
//
//   # 2026-12-07T15:02Z, commit b85c603, model sha256 b8698a8c20c0b3f4, <what ran it>
//
// One writer for every tool that writes a capture (check-results.sh calls the CLI below, the
// listing and profile scripts import captureHeader), and one reader (book/tools/captures-fresh.mjs),
// so "made with the committed model, from a clean tree" is decided the same way everywhere.
// A capture is "+uncommitted" when the stage or common code, the model, the baselines or the
// capturing tool itself differ from the commit: any of them can change what it shows.
//
//   node bench/lib/capture-header.mjs [--tool FILE]... WHAT...   prints the line
//   node bench/lib/capture-header.mjs --fresh CAPTURE [--tool FILE]...
//       exit 0 when CAPTURE would come out the same today: the committed model, a clean tree,
//       and no change since its commit to what it watches (a stage's capture: its own stage) (a rerun of make check-results
//       skips it with CHECK_RESULTS_STALE_ONLY=1, so an interrupted regeneration resumes)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL_FILE = 'assets/model/model.bxm';
// Documentation beside the code (README.md and the like) changes nothing a capture shows.
const WATCHED = ['stages', 'common', MODEL_FILE, 'assets/baselines', ':(exclude,glob)**/*.md'];

const SCHEDULER = 'common/harness/check-results.sh';
const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();

// The model's sha256, cut to the 16 hex digits a header carries.
export const modelPrefix = () => createHash('sha256').update(readFileSync(join(root, MODEL_FILE))).digest('hex').slice(0, 16);

export function captureHeader(what, tools = []) {
    const dirty = git('status', '--porcelain', '--', ...WATCHED, ...tools) !== '';
    const when = new Date().toISOString().slice(0, 16);
    return `# ${when}Z, commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? '+uncommitted' : ''}, model sha256 ${modelPrefix()}, ${what}`;
}

// The fields of a header line, or null for a line that is not one. Older captures lack
// the word "commit" or the model: their fields come back null, and a reader calls them stale.
export function parseCaptureHeader(line) {
    if (!line?.startsWith('# ')) return null;
    const commit = /(?:commit |^# \S+Z, )([0-9a-f]{7,40})(\+uncommitted)?,/.exec(line);
    const model = /model sha256 ([0-9a-f]{16})/.exec(line);
    return { commit: commit?.[1] ?? null, dirty: commit ? Boolean(commit[2]) : null, model: model?.[1] ?? null };
}

// What one capture can show: a stage's capture (check-NN-..., listing-NN-...) its own stage's
// directory and everything the stages share; any other capture every stage.
function watchedBy(capture) {
    const stage = /^(?:check|listing)-(\d\d)\b/.exec(basename(capture))?.[1];
    return stage ? [`:(glob)stages/${stage}-*/**`, ...WATCHED.filter((w) => w !== 'stages')] : WATCHED;
}

export function upToDate(capture, tools = []) {
    if (!existsSync(capture)) return false;
    const watched = watchedBy(capture);
    const h = parseCaptureHeader(readFileSync(capture, 'utf8').split('\n', 1)[0]);
    if (!h?.commit || h.dirty || h.model !== modelPrefix()) return false;
    try {
        // The script that schedules the checks (common/harness/check-results.sh) shows nothing itself.
        const scheduler = tools.includes(SCHEDULER) ? [] : [`:(exclude)${SCHEDULER}`];
        execFileSync('git', ['-C', root, 'diff', '--quiet', h.commit, '--', ...watched, ...tools, ...scheduler], { stdio: 'ignore' });
        return git('status', '--porcelain', '--', ...watched, ...tools) === '';
    } catch { return false; }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const args = process.argv.slice(2);
    let fresh = null;
    const tools = [];
    for (;;) {
        if (args[0] === '--tool') tools.push(args[1]);
        else if (args[0] === '--fresh') fresh = args[1];
        else break;
        args.splice(0, 2);
    }
    if (fresh !== null) process.exit(upToDate(resolve(fresh), tools) ? 0 : 1);
    console.log(captureHeader(args.join(' '), tools));
}
