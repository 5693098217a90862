//! robots.txt files from a small alphabet (see `model`), google and rfc9309 dialects: every
//! verdict and matching line must equal the naive reference's (`reference`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_eval::DialectId;
use robots_eval_fuzz::model::{self, Bytes, Source};

fuzz_target!(|data: &[u8]| {
    let mut src = Bytes(data);
    let dialect = if src.below(2) == 0 { DialectId::Google } else { DialectId::Rfc9309 };
    let case = model::generate(dialect, &mut src);
    if let Err(e) = model::check(&case) {
        panic!("{e}");
    }
});
