//! tdmrep.json, HTML heads, response headers, robots.txt, agent and URL (see `checks::ai_use`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robots_eval_fuzz::checks::ai_use(data));
