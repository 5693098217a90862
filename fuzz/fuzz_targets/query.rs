//! robots.txt, URL, agent and dialect from one input (see `checks::query`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::query(data));
