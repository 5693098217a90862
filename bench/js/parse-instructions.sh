#!/usr/bin/env bash
# Instructions per Robots.parse + free through the package, counted by callgrind: the difference
# of two runs of bench/js/parse-loop.mjs that differ only in the number of parses (20,000 and
# 100,000), so that Node's start and the warm-up cancel out; V8 flags as in
# bench/js/query-instructions.sh (docs/performance.md).
#   bash bench/js/parse-instructions.sh FILE [--pkg DIR]    (FILE: small, medium or large, of ../shared/bench)
set -euo pipefail
loop="$(dirname "$0")/parse-loop.mjs"
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded --no-liftoff "$loop" "$1" "$2" "${@:3}" 2>&1 |
    sed -n 's/.*I *refs: *//p' | tr -d ,
}
a=$(count "$1" 20000 "${@:2}")
b=$(count "$1" 100000 "${@:2}")
echo "$1 ${*:2}: $(((b - a) / 80000)) instructions per parse"
