//! fetch outcomes, clocks and caching headers (see `checks::fetch`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::fetch(data));
