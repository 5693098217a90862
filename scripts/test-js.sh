#!/usr/bin/env bash
# Every JavaScript test, against the packed npm package: build pkg/ if it is stale, `npm pack`,
# install the tarball into a scratch project (tests/js/.scratch/run.XXXXXX/app, one per run, removed
# afterwards unless ROBOTS_EVAL_KEEP_SCRATCH=1) and run the tests there, so they import
# 'robots-eval' exactly as users do; two runs at once cannot clobber each other. Assumes
# scripts/setup.sh has run.
#   scripts/test-js.sh              all tests
#   scripts/test-js.sh NAME...      only tests/js/NAME.test.* (e.g. conformance browser)
#   scripts/test-js.sh worker-gate  the Worker gate's own suite (examples/worker-gate: npm install, npm test)
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
repo=$PWD

# examples/worker-gate is its own npm project (it depends on this package with file:../..) and runs
# its own suite in real workerd; it runs with all tests, or when named.
gate=0
names=()
for n in "$@"; do if [ "$n" = worker-gate ]; then gate=1; else names+=("$n"); fi; done
[ $# -gt 0 ] || gate=1
run_gate() {
  echo "== the Worker gate's own tests (examples/worker-gate)"
  (cd "$repo/examples/worker-gate" && npm install --silent --no-audit --no-fund && npm test)
}

# Rebuild when anything that goes into pkg/ is newer than the built .wasm (ROBOTS_EVAL_NO_BUILD=1:
# test pkg/ as it is, e.g. while src/ is mid-edit).
if [ "${ROBOTS_EVAL_NO_BUILD:-}" = 1 ]; then
  :
elif [ ! -f pkg/robots_eval_bg.wasm ] || [ -n "$(find src wasm wasm-rich wasm-ai wasm-policy wasm-boundary js Cargo.toml Cargo.lock scripts/build-pkg.mjs scripts/wasm-opt-passes.mjs scripts/wasm-reader.mjs -newer pkg/robots_eval_bg.wasm -type f 2>/dev/null | head -1)" ]; then
  npm run --silent build
fi
if [ $# -gt 0 ] && [ ${#names[@]} -eq 0 ]; then run_gate; exit; fi
# The native CLI, for the native-vs-package comparison (built as the native tests are).
source scripts/cargo-tests.sh
[ "${ROBOTS_EVAL_NO_BUILD:-}" = 1 ] || cargo_tests build --quiet --release --locked --features cli --bin robots-eval

mkdir -p tests/js/.scratch
scratch=$(mktemp -d "$repo/tests/js/.scratch/run.XXXXXX")
[ "${ROBOTS_EVAL_KEEP_SCRATCH:-}" = 1 ] || trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/app"
tarball=$(npm pack --silent --pack-destination "$scratch" | tail -1)
# The override package for robots-parser's users (compat/robots-parser), installed under the name
# robots-parser as npm's `overrides` installs it (tests/js/robots-parser.test.mjs).
override=$(npm pack --silent --pack-destination "$scratch" ./compat/robots-parser | tail -1)
cat > "$scratch/app/package.json" <<JSON
{ "name": "scratch-app", "private": true, "type": "module",
  "dependencies": { "robots-eval": "file:../$tarball", "robots-parser": "file:../$override" } }
JSON
(cd "$scratch/app" && npm install --silent --offline --no-audit --no-fund --no-package-lock >/dev/null)
cp -r tests/js/* "$scratch/app/"

if [ $# -gt 0 ]; then
  files=(); for n in "${names[@]}"; do files+=(tests/js/"$n".test.*); done
else
  files=(tests/js/*.test.mjs tests/js/*.test.cjs)
fi
files=("${files[@]#tests/js/}")
echo "== JS tests on $tarball: ${files[*]}"
cd "$scratch/app"
ROBOTS_EVAL_REPO=$repo ROBOTS_EVAL_TARBALL="$scratch/$tarball" ROBOTS_EVAL_OVERRIDE_TARBALL="$scratch/$override" node --expose-gc --test --test-reporter=spec "${files[@]}"
[ $gate = 0 ] || run_gate
