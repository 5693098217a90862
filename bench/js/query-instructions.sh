#!/usr/bin/env bash
# Instructions per isAllowed call through the package, counted by callgrind: the difference of
# two runs of bench/js/query-loop.mjs that differ only in the number of calls (100,000 and
# 500,000), so that Node's start, the warm-up and the parse cancel out. V8 runs single-threaded
# and compiles the .wasm with TurboFan only (`--single-threaded --no-liftoff`): with background
# compilation, when the optimised code arrives depends on the machine's load, and identical runs
# differed by up to 2x; so, they agree within about 1% (docs/performance.md).
#   bash bench/js/query-instructions.sh FILE url|path [--site] [--pkg DIR]
#   (FILE: small, medium or large, of ../shared/bench)
set -euo pipefail
loop="$(dirname "$0")/query-loop.mjs"
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded --no-liftoff "$loop" "$1" "$2" "$3" "${@:4}" 2>&1 |
    sed -n 's/.*I *refs: *//p' | tr -d ,
}
a=$(count "$1" "$2" 100000 "${@:3}")
b=$(count "$1" "$2" 500000 "${@:3}")
echo "$1 $2 ${*:3}: $(((b - a) / 400000)) instructions per query"
