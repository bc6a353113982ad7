#!/bin/sh
# rerun-on-signal.sh COMMAND [ARG...]: runs COMMAND; if it dies from a signal
# (status above 128), runs it once more. Node 20 can abort on a V8 CHECK while
# evaluating ES modules ("Check failed: (location_) != nullptr", reported
# upstream for several Node versions), now and then, in a process that would
# have succeeded; jco's embed and new are deterministic, so a second run gives
# the same bytes.
# An ordinary failure (status 1..128) is reported as it is, at once.
"$@"
status=$?
if [ "$status" -gt 128 ]; then
  echo "rerun-on-signal: '$1' died from signal $((status - 128)); running it once more" >&2
  "$@"
  status=$?
fi
exit "$status"
