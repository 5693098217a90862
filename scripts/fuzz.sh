#!/usr/bin/env bash
# Runs the fuzz targets (fuzz/, docs/fuzzing.md) one at a time, each from its committed seeds
# (fuzz/corpus/<target>/seed-*) plus what earlier runs found (fuzz/work/<target>, git-ignored).
#   scripts/fuzz.sh short [TARGET...]   CI: 10 seconds per target (installs cargo-fuzz if missing)
#   scripts/fuzz.sh long [TARGET...]    10 million executions per target, at nice 19
# Each target's line of figures (executions, seconds, coverage, corpus) is printed at the end and
# appended to fuzz/work/runs.log. A crash stops the script; libFuzzer saves the input in
# fuzz/artifacts/<target>/ (docs/fuzzing.md: it becomes a named case in tests/regressions.rs).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

mode=${1:-short}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fetch meta query parse differential aipref ai_use parse_large)

# The input sizes that matter to each target: a robots.txt, a query or a model file of 2 KB
# exercises every path of the parser and matcher (larger files are parse_large's, made by
# repeating up to 256 bytes); meta reads HTML heads, fetch a few header values.
max_len() {
  case $1 in
    parse | query | differential) echo 2048 ;;
    parse_large) echo 257 ;;
    meta) echo 4096 ;;
    fetch) echo 1024 ;;
    aipref) echo 4096 ;;
    ai_use) echo 8192 ;;
    *) echo "unknown target $1" >&2; exit 2 ;;
  esac
}
# The dictionary holds robots.txt's words; meta and fetch read other languages.
dict() {
  case $1 in
    parse | parse_large | query | differential) echo -dict=robots.dict ;;
    aipref) echo -dict=aipref.dict ;;
    ai_use) echo -dict=ai_use.dict ;;
  esac
}

# cargo-fuzz passes nightly flags to rustc; RUSTC_BOOTSTRAP lets the stable toolchain take them.
export RUSTC_BOOTSTRAP=1
# -s none: the crate forbids unsafe code, so AddressSanitizer would find nothing a panic does not,
# at several times the cost. -a: debug assertions and overflow checks.
flags=(-s none -a)
case $mode in
  short)
    command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
    per=(-max_total_time=10)
    ;;
  long)
    # Comparison tracing costs 35-45% of each run (measured with perf, docs/fuzzing.md); over
    # millions of runs the executions are worth more, and robots.dict gives the words the traced
    # comparisons would find.
    flags+=(--no-trace-compares)
    per=(-runs=10000000 ${FUZZ_MAX_TIME:+-max_total_time=$FUZZ_MAX_TIME})
    ;;
  *)
    echo "usage: scripts/fuzz.sh short|long [TARGET...]" >&2
    exit 2
    ;;
esac

nice -n 19 cargo fuzz build "${flags[@]}"
mkdir -p work
summary=()
for t in "${targets[@]}"; do
  mkdir -p "work/$t"
  log="work/$t.log"
  started=$SECONDS
  # shellcheck disable=SC2046 # dict is one word or none
  if ! nice -n 19 cargo fuzz run "${flags[@]}" "$t" "work/$t" "corpus/$t" -- \
    -max_len="$(max_len "$t")" $(dict "$t") -print_final_stats=1 "${per[@]}" >"$log" 2>&1; then
    tail -40 "$log"
    echo "== $t: CRASH (input in fuzz/artifacts/$t/, log in fuzz/$log)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  done_line=$(grep -m1 'DONE ' "$log" | sed 's/^#[0-9]*[[:space:]]*DONE *//' || true)
  line="$(date -u +%FT%H:%MZ) $mode $t: $runs executions in $((SECONDS - started)) s, max_len $(max_len "$t"); $done_line"
  echo "$line" >>work/runs.log
  summary+=("$line")
done
printf '%s\n' "${summary[@]}"
