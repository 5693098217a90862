//! Shared by the fuzz targets and (through `#[path]`) by `tests/reference.rs`: the naive
//! reference matcher and the random-file model that drives it.

pub mod model;
pub mod reference;
