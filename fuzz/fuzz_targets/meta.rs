//! HTML documents, agents and X-Robots-Tag values (see `checks::meta`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::meta(data));
