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
# CHECK_RESULTS_SKIP_NATIVE=1 leaves the native cross-check out.
# CHECK_RESULTS_STAGES="04 05" rewrites only those stages' files (a new stage's
# check-NN.txt and its variants), leaving stage 00's and the native ones alone.
# CHECK_RESULTS_NAMES="07-eval 09" (with CHECK_RESULTS_STAGES naming their
# stages) rewrites only the files with those names.
# An exhaustive kernel check (check-gelu, check-quant, check-exp) runs only in the first stage
# whose kernel files have that code; a later stage with the same code (snippet
# markers aside) carries the proof over, as CTest does (same-code.cmake).
set -u
cd "$(dirname "$0")/../.."
out=bench/results
mkdir -p "$out"

provenance() {
    local dirty=""
    # Untracked files count too: a new stage's directory is untracked until committed.
    [ -z "$(git status --porcelain -- stages common assets/model/model.bxm assets/baselines 2>/dev/null)" ] ||
        dirty="+uncommitted"
    echo "# $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD)$dirty," \
         "model sha256 $(sha256sum assets/model/model.bxm | cut -c1-16), node $(node --version)," \
         "$(clang-19 --version | head -1), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) x$(nproc)"
}

# run NAME EXPECT COMMAND...: the command's output (less build chatter) into
# check-NAME.txt; EXPECT is pass or fail. The logit check passes with "every
# logit bit identical" and fails naming a text that "differs"; check-tok says
# "identical" or "DIFFERENT". EXPECT report: kept whichever way it ends.
run() {
    local name=$1 expect=$2; shift 2
    local file="$out/check-$name.txt"
    if [ -n "${CHECK_RESULTS_NAMES:-}" ] && ! printf '%s\n' $CHECK_RESULTS_NAMES | grep -qx -- "$name"; then return 0; fi
    echo "check-results: $name ($*)" >&2
    { provenance; "$@" 2>&1 | grep -v -E '^\[ *[0-9]+%\]|^make\[|^-- |^(check|dump): [0-9]+/[0-9]+ texts, [0-9]+ s$|^(Built target|Consolidate compiler|Scanning dependencies|Building CXX|Linking CXX)' \
        | grep -v -E 'label ([A-Z_]+(-[A-Z_]+)?) -> \1$'; } > "$file"
    if { [ "$expect" = pass ] && ! grep -q -E "every logit bit identical|scores, identical$|(side by side|1 process): 0 differ \\(|^groups of 4 entirely" "$file"; } ||
       { [ "$expect" = fail ] && ! grep -q -E "differs|DIFFERENT|(side by side|1 process): [1-9][0-9]* differ" "$file"; }; then
        echo "check-results: $name did not $expect as it must; see $file" >&2
        exit 1
    fi
}

# The native cross-check is the longest (stage 00 over every text) and needs one
# core: it runs beside the others and is waited for at the end.
only=${CHECK_RESULTS_STAGES:-}
native_pid=
if [ "${CHECK_RESULTS_SKIP_NATIVE:-}" != 1 ] && [ -z "$only" ]; then
    run 00-native pass make -s check STAGE=00 NATIVE=1 &
    native_pid=$!
fi
stages=$(ls -d stages/[0-9][0-9]-* | xargs -n1 basename)
if [ -n "$only" ]; then
    stages=$(for stage in $stages; do for num in $only; do [ "${stage%%-*}" = "$num" ] && echo "$stage"; done; done)
fi
for stage in $stages; do
    num=${stage%%-*}
    [ "$num" = 00 ] && continue
    run "$num" pass make -s check STAGE="$num"
    run "$num-eval" pass make -s check STAGE="$num" CORPUS=assets/corpora/eval.jsonl
done
if [ -z "$only" ]; then
    run 00 pass make -s check STAGE=00 LIMIT=40
    run 00-mutate fail make -s check-mutant STAGE=00 LIMIT=3
fi
# The tokenizer of each stage against the reference's golden files, and its
# `>` -> `>=` mutant, which must fail.
for stage in $stages; do
    num=${stage%%-*}
    run "$num-tok" pass make -s check-tok STAGE="$num"
    run "$num-tok-mutant" fail make -s check-tok-mutant STAGE="$num"
done
# Kept variants (failed ideas): bx_stage(VARIANTS a b ...), as CMake listed
# them in the wasm build's variants.json.
for stage in $stages; do
    num=${stage%%-*}
    for variant in $(node -e 'for (const v of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).failing) console.log(v)' \
                     "build/wasm/stages/$stage/variants.json"); do
        run "$num-$variant" fail make -s check STAGE="$num" VARIANT="$variant" CORPUS=assets/corpora/eval.jsonl
    done
done
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
if [ -n "$native_pid" ] && ! wait "$native_pid"; then exit 1; fi
echo "check-results: bench/results/check-*.txt rewritten" >&2
