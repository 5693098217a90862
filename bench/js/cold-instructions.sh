#!/usr/bin/env bash
# Instructions of one cold start, counted by callgrind, for this package, robots-parser and
# optionally another build (--baseline DIR: a pkg/ folder): a fresh `node` runs the script of
# bench.mjs's cold start (import the package, parse medium.txt, answer one full-URL query), and an
# empty script's count is taken off each (Node's own start). V8 single-threaded, so that the
# counts do not depend on the machine's load, as the cold-start times of `npm run bench` do on a
# shared machine (docs/performance.md, session 8).
#   bash bench/js/cold-instructions.sh [--baseline DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
shared="${ROBOTS_EVAL_SHARED:-$root/../shared}"
T="$(cat "$shared/bench/medium.txt")"
export T
query="r.isAllowed('https://example.com/admin/x?y=1', 'Googlebot');"
ours="const { Robots } = await import('robots-eval'); const r = Robots.parse(process.env.T); $query"
theirs="const { default: parse } = await import('robots-parser'); const r = parse('https://example.com/robots.txt', process.env.T); $query"
count() {
  (cd "$1" && valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded --input-type=module -e "$2" 2>&1 |
    sed -n 's/.*I *refs: *//p' | tr -d ,)
}
empty=$(count "$root" "await import('node:path');")
mine=$(($(count "$root" "$ours") - empty))
rp=$(($(count "$root" "$theirs") - empty))
echo "robots-eval (pkg/): $mine instructions"
echo "robots-parser: $rp instructions"
echo "robots-eval / robots-parser: $(awk "BEGIN { printf \"%.2f\", $mine / $rp }")x"
if [ "${1:-}" = --baseline ]; then
  # Loaded by name from a copy beside a package.json with this package's exports, as bench.mjs does.
  dir="$root/target/cold-baseline"
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$2"/*.js "$2"/*.cjs "$2"/*.wasm "$dir"/ 2>/dev/null || true
  node -e "const p = require('$root/package.json'); require('fs').writeFileSync('$dir/package.json', JSON.stringify({ name: p.name, type: p.type, exports: { '.': { node: { import: './node.js', require: './node.cjs' }, default: './index.js' } } }))"
  base=$(($(count "$dir" "$ours") - empty))
  echo "baseline ($2): $base instructions; this build / baseline: $(awk "BEGIN { printf \"%.2f\", $mine / $base }")x"
fi
