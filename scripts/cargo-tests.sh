# Sourced by scripts/test-all.sh and scripts/test-js.sh: `cargo_tests ARGS...` runs cargo for the
# native tests and for the native CLI the npm tests compare with, in the release profile without its
# link-time optimisation (one codegen unit, whole-program LTO: most of CI's compile time, spent on
# code that runs for seconds). Both use the same settings, so the CLI reuses what the tests
# compiled. What ships is unchanged: `cargo build --release` and the .wasm builds
# (scripts/build-pkg.mjs) keep the profile as Cargo.toml sets it.
cargo_tests() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 cargo "$@"
}
