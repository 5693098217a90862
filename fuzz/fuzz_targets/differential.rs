//! Small-alphabet files vs the naive reference matcher (see `checks::differential`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::differential(data));
