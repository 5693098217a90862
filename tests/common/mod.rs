//! Shared by the test runners: where the shared data lives, and a collector that reports every
//! failure at once instead of stopping at the first.
#![allow(dead_code)]

use std::path::PathBuf;

use robots_eval::{DialectId, Options, Robots};

/// `../shared` beside the repository, or `None` (with a message saying what is skipped). Only
/// the 28 MB real-world corpus is read from there; every other suite's data is in `tests/data`.
pub fn shared(what: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if dir.join("corpus").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED {what}: ../shared/corpus is absent (the 28 MB real-world corpus is kept out of \
             the repository; every other suite reads tests/data)"
        );
        None
    }
}

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

pub fn dialect(name: &str) -> DialectId {
    DialectId::from_name(name).unwrap_or_else(|| panic!("unknown dialect {name}"))
}

pub fn parse(robots: &[u8], d: DialectId) -> Robots {
    Robots::parse_with(robots, &Options::dialect(d))
}

/// Collects failures; `finish` panics with all of them.
#[derive(Default)]
pub struct Failures {
    pub checked: usize,
    pub failed: Vec<String>,
}

impl Failures {
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.failed.push(what());
        }
    }

    pub fn finish(self, suite: &str) {
        eprintln!(
            "{suite}: {} checked, {} failed",
            self.checked,
            self.failed.len()
        );
        if !self.failed.is_empty() {
            let shown: Vec<_> = self.failed.iter().take(200).cloned().collect();
            panic!(
                "{suite}: {} of {} failed:\n{}",
                self.failed.len(),
                self.checked,
                shown.join("\n")
            );
        }
    }
}

/// Bytes of a JSON field that may be given as `F` (UTF-8 text) or `F_hex`.
pub fn bytes_field(v: &serde_json::Value, field: &str) -> Vec<u8> {
    if let Some(s) = v.get(field).and_then(|s| s.as_str()) {
        return s.as_bytes().to_vec();
    }
    let hex = v
        .get(format!("{field}_hex"))
        .and_then(|s| s.as_str())
        .unwrap_or_else(|| panic!("no {field} in {v}"));
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// A tiny deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
