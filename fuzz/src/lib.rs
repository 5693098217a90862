//! Shared by the fuzz targets and (through `#[path]`) by `tests/reference.rs` and
//! `tests/regressions.rs`: the naive reference matcher, the random-file model that drives it,
//! and what each target checks.

pub mod checks;
pub mod model;
pub mod reference;
