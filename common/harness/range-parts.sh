#!/usr/bin/env bash
# An exhaustive check over all 2^32 f32 inputs (check-gelu, check-quant, check-exp) in PARTS
# processes side by side, one per core: part k runs
#   CLI... COMMAND --from k*2^32/PARTS --to (k+1)*2^32/PARTS
# Prints each part's report in order, then the total of the parts' summary
# lines (`COMMAND: N ...`, N the differences); exit 1 if any input differs.
#
#   common/harness/range-parts.sh PARTS COMMAND CLI...
#   e.g. range-parts.sh 2 check-gelu node --single-threaded-gc common/host/wasi-run.mjs build/wasm/stages/07-simd-gelu/cli.wasm
set -uo pipefail
parts=$1; command=$2; shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s.%N)
pids=()
for ((k = 0; k < parts; k++)); do
  from=$(( (k << 32) / parts )); to=$(( ((k + 1) << 32) / parts ))
  "$@" "$command" --from "$from" --to "$to" > "$work/part-$k.txt" 2>&1 &
  pids+=($!)
done
status=0
for ((k = 0; k < parts; k++)); do
  wait "${pids[$k]}"; rc=$?
  cat "$work/part-$k.txt"
  if [ $rc -eq 1 ]; then status=1; elif [ $rc -ne 0 ]; then echo "$command part $k: exit $rc"; status=2; fi
done
end=$(date +%s.%N)
awk -v parts="$parts" -v cmd="$command" -v start="$start" -v end="$end" '
  $1 == cmd ":" && $2 ~ /^[0-9]+$/ { differ += $2; seen++ }
  END { printf "%s, %s: %.0f differ%s (%.0f s wall)\n", cmd, parts == 1 ? "1 process" : parts " parts side by side", differ,
               seen == parts ? "" : " (a part printed no summary)", end - start }' \
  "$work"/part-*.txt
exit $status
