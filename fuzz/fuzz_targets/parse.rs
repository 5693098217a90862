//! Any bytes as robots.txt, in every dialect (see `checks::parse`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::parse(data));
