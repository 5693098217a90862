#!/usr/bin/env bash
# Instructions per isAllowed call through the package, counted by callgrind: the difference of
# two runs of bench/js/query-loop.mjs that differ only in the number of calls (200,000 and
# 400,000), so that Node's start, the warm-up and the parse cancel out. Identical runs differ by
# about 5% (the JIT's timing); compare builds with several runs each. docs/performance.md.
#   bash bench/js/query-instructions.sh FILE url|path [--site] [--pkg DIR]
set -euo pipefail
loop="$(dirname "$0")/query-loop.mjs"
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null node "$loop" "$1" "$2" "$3" "${@:4}" 2>&1 |
    sed -n 's/.*I *refs: *//p' | tr -d ,
}
a=$(count "$1" "$2" 200000 "${@:3}")
b=$(count "$1" "$2" 400000 "${@:3}")
echo "$1 $2 ${*:3}: $(((b - a) / 200000)) instructions per query"
