//! Large robots.txt files made from small inputs, in every dialect (see `checks::parse_large`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::parse_large(data));
