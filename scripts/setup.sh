#!/usr/bin/env bash
# Installs everything the build and the tests need, idempotently, from the package registries
# only (crates.io, npm, Debian, rustup's own targets). Safe to run again: each step is skipped
# when its tool is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "rust targets"
rustup target add wasm32-unknown-unknown wasm32v1-none >/dev/null

# wasm-bindgen-cli must be the exact version of the wasm-bindgen crate in Cargo.lock.
want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[^0-9.]/,""); print; exit}' Cargo.lock)
if [ -n "$want" ]; then
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    step "wasm-bindgen-cli $want (a few minutes, once)"
    cargo install wasm-bindgen-cli --version "$want"
  fi
fi

step "npm packages"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # Exactly what package-lock.json records (it lists every platform's optional packages, so
  # `npm ci` works on any machine) and never rewrites it.
  npm ci --no-audit --no-fund
fi

if [ "${SKIP_CHROMIUM:-}" != 1 ] && ! command -v chromium >/dev/null; then
  step "chromium (Debian's package, for the browser tests)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

# The Spark tests (tests/python/test_spark.py, test_common_crawl.py) start a real local Spark,
# whose JVM needs Java 17 or later (PySpark 4 requires it; 3.5 runs on it). Debian's JRE, only
# when `java -version` is missing or older.
java_major=$(java -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}' || true)
if [ "${SKIP_JAVA:-}" != 1 ] && { [ -z "$java_major" ] || [ "$java_major" -lt 17 ]; }; then
  step "openjdk-17-jre-headless (Debian's package, for the Spark tests; found: ${java_major:-none})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
