#!/bin/bash
# Regenerates bench/results/check-*.txt, the check outputs the book quotes
# verbatim (`make check-results`; about half an hour on 2 cores, the native
# cross-check on one core and everything else on the other):
#
#   check-NN.txt          stage NN (01 on) against stage 00's committed reference,
#                         whole equivalence corpus (wasm)
#   check-00.txt          stage 00 itself against that reference, first 40 texts
#                         (all 1,043 take it twenty minutes)
#   check-00-native.txt   stage 00 built natively, whole corpus: the native/wasm
#                         cross-check (the reference was made in wasm)
#   check-00-mutate.txt   the check on a one-bit mutation: it must fail
#   check-NN-tok.txt, check-NN-tok-mutant.txt   each stage's tokenizer
#                         against the reference (40,003 texts) and its `>=` mutant
#   check-NN-VARIANT.txt  each kept variant (a failed idea) on the eval corpus:
#                         it must fail; explain's rows whose label is unchanged
#                         are left out
#   check-NN-eval.txt     stage NN (01 on) on the eval corpus, every logit bit
#   check-NN-gelu.txt, -gelu-native.txt, -gelu-VARIANT.txt, -gelu-census.txt
#                         stages with the check-gelu commands (07 on): the vector GELU
#                         on all 2^32 inputs (wasm in two processes, native), each
#                         variant's (rereads must fail), and where the eval
#                         corpus's real GELU inputs fall
#   check-NN-quant*.txt, check-NN-exp*.txt   the same for the vector
#                         quantiser (09 on) and softmax's vector exp (10 on), and
#                         each trap: the kernel check must fail it, the logit
#                         check on it is reported (check-NN-TRAP*.txt)
#
# Each file starts with one '#' line: when, which commit, model, Node, compiler,
# CPU. A check that does not end as it must stops the script with status 1
# (the file it was writing is kept, so the failure can be read).
# CHECK_RESULTS_SKIP_NATIVE=1 leaves the native cross-check out; CHECK_RESULTS_SKIP_PROFILES=1
# the hot-blocks and profiles (measurements: run them when nothing else runs).
# CHECK_RESULTS_STAGES="04 05" rewrites only those stages' files (a new stage's
# check-NN.txt and its variants), leaving stage 00's and the native ones alone.
# CHECK_RESULTS_NAMES="07-eval 09" (with CHECK_RESULTS_STAGES naming their
# stages) rewrites only the files with those names.
# CHECK_RESULTS_STALE_ONLY=1 leaves out every capture that would come out the same (the
# committed model, no change since its commit to the code it shows): a resumed run.
#
#   check-NN-tile-code.txt, -float-loops, -cranelift-loop, -hot-blocks, -profile, and
#   listing-NN-simd-*.txt, listing-primer-*.txt
#                         listings and profiles, each rewritten by the make target that made
#                         it (its tool writes the header); the profiles last, with nothing beside
# An exhaustive kernel check (check-gelu, check-quant, check-exp) runs only in the first stage
# whose kernel files have that code; a later stage with the same code (snippet
# markers aside) carries the proof over, as CTest does (same-code.cmake).
set -u
cd "$(dirname "$0")/../.."
out=bench/results
mkdir -p "$out"

provenance() {  # the header line every capture starts with (one writer: bench/lib/capture-header.mjs)
    node bench/lib/capture-header.mjs --tool common/harness/check-results.sh \
        "node $(node --version), $(clang-19 --version | head -1), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) x$(nproc)"
}

# due KEY FILE TOOL...: whether this run rewrites bench/results/FILE.txt, whose tools are TOOLs:
# KEY is among CHECK_RESULTS_NAMES (when given), and with CHECK_RESULTS_STALE_ONLY=1 the file
# would not come out the same (bench/lib/capture-header.mjs --fresh).
due() {
    local key=$1 file=$2 tool; shift 2
    if [ -n "${CHECK_RESULTS_NAMES:-}" ] && ! printf '%s\n' $CHECK_RESULTS_NAMES | grep -qx -- "$key"; then return 1; fi
    if [ "${CHECK_RESULTS_STALE_ONLY:-}" = 1 ] &&
       node bench/lib/capture-header.mjs --fresh "$out/$file.txt" $(for tool in "$@"; do printf -- '--tool %s ' "$tool"; done); then
        echo "check-results: $file is up to date" >&2
        return 1
    fi
}

# run NAME EXPECT COMMAND...: the command's output (less build chatter) into
# check-NAME.txt; EXPECT is pass or fail. The logit check passes with "every
# logit bit identical" and fails naming a text that "differs"; check-tok says
# "identical" or "DIFFERENT". EXPECT report: kept whichever way it ends.
run() {
    local name=$1 expect=$2; shift 2
    local file="$out/check-$name.txt"
    due "$name" "check-$name" || return 0  # what it shows comes from the watched code, not this script
    echo "check-results: $name ($*)" >&2
    { provenance; "$@" 2>&1 | grep -v -E '^\[ *[0-9]+%\]|^make\[|^-- |^(check|dump): [0-9]+/[0-9]+ texts, [0-9]+ s$|^(Built target|Consolidate compiler|Scanning dependencies|Building CXX|Linking CXX|make_tokenizer_data:)' \
        | grep -v -E 'label ([A-Z_]+(-[A-Z_]+)?) -> \1$'; } > "$file"
    if { [ "$expect" = pass ] && ! grep -q -E "every logit bit identical|scores, identical$|(side by side|1 process): 0 differ \\(|^groups of 4 entirely" "$file"; } ||
       { [ "$expect" = fail ] && ! grep -q -E "differs|DIFFERENT|(side by side|1 process): [1-9][0-9]* differ" "$file"; }; then
        echo "check-results: $name did not $expect as it must; see $file" >&2
        exit 1
    fi
}

# A pool of $(nproc) background jobs: each stage's logit, tokenizer and variant checks are one
# job (run in order inside it, since a stage's checks share its diff file); the native
# cross-check, the longest (stage 00 over every text), is one more. A job that fails ends
# itself with status 1; the script goes on and exits 1 at the end.
slots=$(nproc)
failed=0
spawn() {  # spawn COMMAND...: in the background, once a slot is free
    while [ "$(jobs -rp | wc -l)" -ge "$slots" ]; do wait -n || failed=1; done
    "$@" &
}
drain() { while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done; }
only=${CHECK_RESULTS_STAGES:-}
if [ "${CHECK_RESULTS_SKIP_NATIVE:-}" != 1 ] && [ -z "$only" ]; then
    spawn run 00-native pass make -s check STAGE=00 NATIVE=1
fi
stages=$(ls -d stages/[0-9][0-9]-* | xargs -n1 basename)
if [ -n "$only" ]; then
    stages=$(for stage in $stages; do for num in $only; do [ "${stage%%-*}" = "$num" ] && echo "$stage"; done; done)
fi
# stage_checks STAGE: every logit bit on both corpora (stage 00: 40 texts and the one-bit
# mutation), the tokenizer against the reference's golden files and its `>` -> `>=` mutant,
# which must fail, and each kept variant (a failed idea, bx_stage(VARIANTS ...) as CMake
# listed it in the wasm build's variants.json), which must fail too.
stage_checks() {
    local stage=$1 num=${1%%-*} variant
    if [ "$num" = 00 ]; then
        if [ -z "$only" ]; then
            run 00 pass make -s check STAGE=00 LIMIT=40
            run 00-mutate fail make -s check-mutant STAGE=00 LIMIT=3
        fi
    else
        run "$num" pass make -s check STAGE="$num"
        run "$num-eval" pass make -s check STAGE="$num" CORPUS=assets/corpora/eval.jsonl
    fi
    run "$num-tok" pass make -s check-tok STAGE="$num"
    run "$num-tok-mutant" fail make -s check-tok-mutant STAGE="$num"
    for variant in $(node -e 'for (const v of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).failing) console.log(v)' \
                     "build/wasm/stages/$stage/variants.json"); do
        run "$num-$variant" fail make -s check STAGE="$num" VARIANT="$variant" CORPUS=assets/corpora/eval.jsonl
    done
}
for stage in $stages; do spawn stage_checks "$stage"; done
drain
# Stage-specific harness commands (bx_stage HARNESS_COMMANDS), from variants.json.
json_list() {  # json_list FILE KEY: one entry of the JSON array FILE.KEY per line
    node -e 'for (const v of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]] ?? []) console.log(v)' "$1" "$2"
}
json_keys() {  # json_keys FILE KEY: the keys of the JSON object FILE.KEY
    node -e 'for (const v of Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]] ?? {})) console.log(v)' "$1" "$2"
}
# code_hash FILE...: the files' code as CTest compares it (common/cmake/code-hash.cmake:
# no comments, snippet markers or blank lines, no branch a knob switches off), hashed.
code_hash() {
    local files
    files=$(IFS=';'; echo "$*")
    cmake -DFILES="$files" -P common/cmake/code-hash.cmake 2>&1 | sha256sum | cut -c1-16
}
proven=" "
first_proof() {  # first_proof COMMAND FILE...: true the first time this code is seen
    local key="$1:$(code_hash "${@:2}")"; shift
    case "$proven" in *" $key "*) return 1 ;; esac
    proven="$proven$key "
}
# kernel_proofs COMMAND FILE...: for a stage that lists COMMAND and is the first
# with this code in FILEs (later ones carry the proof over): the exhaustive
# check in wasm (two processes) and natively, every exact sweep variant passing
# it, every failing variant and trap failing it, and (traps) what the logit
# check makes of them, reported whichever way it goes. check-gelu also writes
# where the real GELU inputs fall (the same in every stage, so once).
kernel_proofs() {
    local command=$1; shift
    local target=$command        # the make target is the harness command's name
    local label=${command#check-}  # captures are named check-NN-LABEL[-variant].txt
    local files=(); for f in "$@"; do files+=("stages/$stage/$f"); done
    json_list "$variants_json" commands | grep -qx "$command" || return 0
    first_proof "$command" "${files[@]}" || return 0
    [ "$selected" = 1 ] || return 0
    run "$num-$label" pass make -s "$target" STAGE="$num"
    if [ "$command" = check-gelu ] && json_list "$variants_json" commands | grep -qx check-gelu-census; then
        run "$num-gelu-census" pass make -s check-gelu-census STAGE="$num"
    fi
    run "$num-$label-native" pass make -s "$target" STAGE="$num" NATIVE=1 CHECK_PARTS=1
    for variant in $(json_keys "$variants_json" sweep); do
        run "$num-$label-$variant" pass make -s "$target" STAGE="$num" VARIANT="$variant"
    done
    for variant in $(json_list "$variants_json" failing); do
        run "$num-$label-$variant" fail make -s "$target" STAGE="$num" VARIANT="$variant"
    done
    for variant in $(json_list "$variants_json" traps); do
        run "$num-$label-$variant" fail make -s "$target" STAGE="$num" VARIANT="$variant"
        run "$num-$variant" report make -s check STAGE="$num" VARIANT="$variant" CORPUS=assets/corpora/eval.jsonl
        run "$num-$variant-equivalence" report make -s check STAGE="$num" VARIANT="$variant" HARNESS_EXPLAIN=0
    done
}
for stage in $(ls -d stages/[0-9][0-9]-* | xargs -n1 basename); do  # every stage: earlier proofs count
    num=${stage%%-*}
    variants_json="build/wasm/stages/$stage/variants.json"
    selected=0
    for s in $stages; do [ "$s" = "$stage" ] && selected=1; done
    kernel_proofs check-gelu gelu.hpp gelu.cpp
    kernel_proofs check-quant quantize.hpp quantize.cpp
    kernel_proofs check-exp softmax.hpp softmax.cpp
done

# Captures a tool writes itself, header included: code listings (what V8 and Cranelift make of a
# loop) and, once nothing else runs, the profiles (shares of the CPU, so they are measurements).
# Each capture present is rewritten by the make target that made it.
made_by() {  # made_by FILE "TOOL..." COMMAND...: bench/results/FILE.txt, which COMMAND writes with TOOLs
    local name=$1 tools=$2; shift 2
    local num=${name#check-}; num=${num#listing-}; num=${num%%-*}
    if [ -n "$only" ] && ! printf '%s\n' $only | grep -qx -- "$num"; then return 0; fi
    due "${name#check-}" "$name" $tools || return 0
    echo "check-results: $name ($*)" >&2
    "$@" >&2 || { echo "check-results: $name: $* failed" >&2; exit 1; }
}
captures() {  # captures KIND: the stage numbers with a bench/results/check-NN-KIND.txt
    ls "$out" | sed -n "s/^check-\([0-9][0-9]\)-$1\.txt\$/\1/p"
}
for num in $(captures tile-code); do made_by "check-$num-tile-code" bench/tile-code.mjs make -s tile-code STAGE="$num"; done
for num in $(captures tile-code-epoch); do made_by "check-$num-tile-code-epoch" bench/tile-code.mjs make -s tile-code STAGE="$num" EPOCH=1; done
for num in $(captures float-loops); do made_by "check-$num-float-loops" bench/float-loops.mjs make -s float-loops STAGE="$num"; done
for num in $(captures cranelift-loop); do made_by "check-$num-cranelift-loop" bench/cranelift-loop.py make -s cranelift-loop STAGE="$num"; done
# The book's listings (listing-*.txt): one target writes the stages' SIMD loops, one the
# primer's own; each runs when any of its files is due.
listings() {  # listings TARGET PATTERN: run TARGET once if a listing-PATTERN.txt is due
    local target=$1 name before
    for name in $(ls "$out" | sed -n "s/^\(listing-$2\)\.txt\$/\1/p"); do
        before=$(stat -c %Y "$out/$name.txt")
        made_by "$name" "bench/simd-listing.mjs book/primer" make -s "$target"
        [ "$(stat -c %Y "$out/$name.txt")" = "$before" ] || break
    done
}
listings simd-listings '[0-9][0-9]-simd-[a-z-]*'
listings primer-listings 'primer-[a-z-]*'
# CHECK_RESULTS_SKIP_PROFILES=1 leaves them for a later run on an idle machine.
[ "${CHECK_RESULTS_SKIP_PROFILES:-}" = 1 ] || for num in $(captures hot-blocks); do made_by "check-$num-hot-blocks" bench/hot-blocks.mjs make -s hot-blocks STAGE="$num"; done
[ "${CHECK_RESULTS_SKIP_PROFILES:-}" = 1 ] || for num in $(captures profile); do made_by "check-$num-profile" bench/profile.mjs make -s profile STAGE="$num"; done
[ "$failed" = 0 ] || { echo "check-results: a check did not end as it must (above)" >&2; exit 1; }
echo "check-results: bench/results/check-*.txt rewritten" >&2
