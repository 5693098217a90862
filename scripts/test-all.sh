#!/usr/bin/env bash
# Every test of the project, as CI runs it on a fresh clone: installs what it needs, then the
# Rust core (format, lints, unit + conformance + corpus + property tests, the no_std build), the
# npm package in every runtime, the Python package (after the npm one: it checks the two agree),
# and the playground end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
source scripts/cargo-tests.sh
section() { printf '\n==== %s (%ss)\n' "$*" "$((SECONDS - started))"; }

section "setup"
bash scripts/setup.sh

section "rustfmt and clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --features cli -- -D warnings

section "the core is no_std: build for wasm32v1-none, with and without the lifecycle feature"
cargo build --lib --release --target wasm32v1-none
cargo build --lib --release --target wasm32v1-none --no-default-features

section "cargo test without the lifecycle feature (the core's tests alone, with the parser's findings, which the tests read)"
cargo_tests test --release --no-default-features --features findings

section "cargo test (unit, conformance, corpus, reference matcher, fetch, meta, CLI, module layers, fuzz seeds)"
cargo_tests test --release --workspace --features cli

section "fuzz: every target 10 s from its committed seeds (installs cargo-fuzz if missing)"
bash scripts/fuzz.sh short

section "npm package: build, then every runtime"
bash scripts/test-js.sh

section "Python package: pip install ./python in a fresh venv, then tests/python (conformance, npm agreement, Arrow, types)"
bash scripts/test-python.sh

section "playground end to end"
bash scripts/test-e2e.sh

section "all tests passed"
