//! Content-Usage field values and rule values, Content-Signal values (see `checks::aipref`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::aipref(data));
