#!/usr/bin/env bash
# geluchk over all 2^32 inputs in PARTS processes side by side (one per core):
# part k checks [k * 2^32 / PARTS, (k + 1) * 2^32 / PARTS). Prints each part's
# report in order, then the total; exit 1 if any input differs anywhere.
#
#   common/harness/geluchk-parts.sh PARTS CLI-COMMAND...
#   e.g. geluchk-parts.sh 2 node --single-threaded-gc common/host/wasi-run.mjs build/wasm/stages/07-simd-gelu/cli.wasm
set -uo pipefail
parts=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s.%N)
pids=()
for ((k = 0; k < parts; k++)); do
  from=$(( (k << 32) / parts )); to=$(( ((k + 1) << 32) / parts ))
  "$@" geluchk --from "$from" --to "$to" > "$work/part-$k.txt" 2>&1 &
  pids+=($!)
done
status=0
for ((k = 0; k < parts; k++)); do
  wait "${pids[$k]}"; rc=$?
  cat "$work/part-$k.txt"
  if [ $rc -eq 1 ]; then status=1; elif [ $rc -ne 0 ]; then echo "geluchk part $k: exit $rc"; status=2; fi
done
end=$(date +%s.%N)
awk -v parts="$parts" -v start="$start" -v end="$end" '
  /^geluchk: [0-9]+ of [0-9]+ inputs differ/ { differ += $2; checked += $4 }
  END { printf "geluchk, %d parts side by side: %.0f of %.0f inputs differ (%.0f s wall)\n", parts, differ, checked, end - start }' \
  "$work"/part-*.txt
exit $status
