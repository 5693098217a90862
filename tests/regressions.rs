//! Named regression cases from fuzzing (`fuzz/`, see docs/fuzzing.md) and the reference property
//! tests (`tests/reference.rs`). Each case says what found it and what it pins.
//!
//! Saved fuzz inputs replay through the very checks the targets run (`fuzz/src/checks.rs`):
//! drop a crash file into `tests/data/regressions/<target>/` (`parse`, `parse_large`, `query`,
//! `differential`, `aipref`, `meta`, `fetch` or `ai_use`) and `saved_fuzz_inputs_replay_clean` runs it; the committed seed corpus
//! `fuzz/corpus/<target>/seed-*` replays the same way (`fuzz_seed_corpus_replays_clean`). Cases small enough to read are
//! better written out below as a named test.

#[path = "../fuzz/src/checks.rs"]
mod checks;
#[path = "../fuzz/src/model.rs"]
mod model;
#[path = "../fuzz/src/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

use robots_eval::{DialectId, Options, Reason, Robots};

fn parse(text: &str, dialect: DialectId) -> Robots {
    Robots::parse_with(text.as_bytes(), &Options::dialect(dialect))
}

/// (allowed, line of the deciding rule)
fn ask(robots: &Robots, url: &str, agent: &str) -> (bool, u32) {
    let v = robots.check(url, agent);
    checks::verdict(robots, url, agent);
    (v.allowed, robots.line_of(&v))
}

/// What a fuzz target runs on one input.
type Check = fn(&[u8]);

/// Every target with the function it runs, as `fuzz/fuzz_targets/<name>.rs` calls it (`meta`
/// and `fetch` with the lifecycle feature).
fn targets() -> Vec<(&'static str, Check)> {
    let mut targets: Vec<(&'static str, Check)> = vec![
        ("parse", checks::parse),
        ("parse_large", checks::parse_large),
        ("query", checks::query),
        ("differential", checks::differential),
        ("aipref", checks::aipref),
    ];
    #[cfg(feature = "lifecycle")]
    targets.extend([("meta", checks::meta as Check), ("fetch", checks::fetch)]);
    #[cfg(feature = "ai-use")]
    targets.push(("ai_use", checks::ai_use as Check));
    targets
}

/// Runs every file of `dir/<target>/` whose name starts with `prefix` through the target's check;
/// returns how many ran per target.
fn replay(dir: &Path, prefix: &str) -> Vec<(&'static str, usize)> {
    targets()
        .into_iter()
        .map(|(target, check)| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(target))
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
                })
                .collect();
            files.sort();
            for file in &files {
                eprintln!("replaying {target}: {}", file.display());
                check(&std::fs::read(file).unwrap());
            }
            (target, files.len())
        })
        .collect()
}

/// Inputs the fuzzers found, saved as files (`tests/data/regressions/<target>/`).
#[test]
fn saved_fuzz_inputs_replay_clean() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/regressions");
    eprintln!("saved fuzz inputs replayed: {:?}", replay(&dir, ""));
}

/// The CI part of fuzzing that needs no cargo-fuzz: each target's committed seed corpus
/// (`fuzz/corpus/<target>/seed-*`, written by `fuzz/seeds.mjs`) through the very checks the
/// targets run. Every target has seeds.
#[test]
fn fuzz_seed_corpus_replays_clean() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let counts = replay(&dir, "seed-");
    eprintln!("seed corpus replayed: {counts:?}");
    for (target, n) in counts {
        assert!(
            n > 0,
            "fuzz/corpus/{target} has no seed-* files (node fuzz/seeds.mjs)"
        );
    }
}

// --- Cases the differential model found (in the model, not in src/), pinned so that the
// --- behaviour the model now encodes stays what google/robotstxt does.

/// Differential model, first run: a rule line ending in a bare CR followed by a blank line
/// ending in LF is ONE CRLF break, not two lines; line numbers after it shift by one. The
/// model had counted two lines; the library was right (google/robotstxt splits the same way).
#[test]
fn cr_then_blank_lf_is_one_line_break() {
    for dialect in [DialectId::Google, DialectId::Rfc9309] {
        let robots = parse("User-agent: *\rDisallow: /a\r\nDisallow: /ab\n", dialect);
        assert_eq!(ask(&robots, "/abc", "bot"), (false, 3), "{dialect:?}");
        let robots = parse("User-agent: *\r\n\rDisallow: /a\n", dialect);
        assert_eq!(ask(&robots, "/abc", "bot"), (false, 3), "{dialect:?}");
    }
}

/// Differential model: a group with no rules runs on into the next group (its user-agent lines
/// join it), however many records, comments and blank lines stand between.
#[test]
fn group_without_rules_joins_the_next() {
    let text = "User-agent: FooBot\n\n# c\nSitemap: https://x.test/s.xml\nUser-agent: BarBot\nDisallow: /a\n\
                User-agent: *\nAllow: /\n";
    for dialect in [DialectId::Google, DialectId::Rfc9309] {
        let robots = parse(text, dialect);
        assert_eq!(ask(&robots, "/a", "foobot"), (false, 6), "{dialect:?}");
        assert_eq!(ask(&robots, "/a", "barbot"), (false, 6), "{dialect:?}");
        assert_eq!(ask(&robots, "/a", "other"), (true, 8), "{dialect:?}");
    }
}

// --- Decision rules the reference checks, pinned with readable inputs.

/// Equal length: Allow wins; among equals the first in file order reports its line; an empty
/// rule never decides, but its line is reported when nothing else matched (empty Allow first).
#[test]
fn longest_match_ties_and_empty_rules() {
    for dialect in [DialectId::Google, DialectId::Rfc9309] {
        let robots = parse(
            "User-agent: *\nDisallow: /a*\nAllow: /a$\nAllow: /*b\nDisallow:\nAllow:\n",
            dialect,
        );
        assert_eq!(ask(&robots, "/a", "x"), (true, 3), "{dialect:?}");
        assert_eq!(ask(&robots, "/ab", "x"), (true, 4), "{dialect:?}");
        assert_eq!(ask(&robots, "/ac", "x"), (false, 2), "{dialect:?}");
        assert_eq!(ask(&robots, "/z", "x"), (true, 6), "{dialect:?}");
        let v = robots.check("/z", "x");
        assert_eq!(v.reason, Reason::EmptyRule);
    }
}

/// rfc9309: a `$` that is not last is literal and compares as `%24` (so the rule is 2 octets
/// longer than written); a literal `*` or `$` in the URL compares as `%2A` / `%24`.
#[test]
fn rfc9309_literal_specials() {
    let robots = parse(
        "User-agent: *\nDisallow: /a$b\nAllow: /a*b\nDisallow: /c%2A\n",
        DialectId::Rfc9309,
    );
    assert_eq!(ask(&robots, "/a$b", "x"), (false, 2)); // `/a%24b` (6) beats `/a*b` (4)
    assert_eq!(ask(&robots, "/axb", "x"), (true, 3));
    assert_eq!(ask(&robots, "/c*", "x"), (false, 4));
    assert_eq!(ask(&robots, "/c%2a", "x"), (false, 4));
    let google = parse(
        "User-agent: *\nDisallow: /a$b\nAllow: /a*b\n",
        DialectId::Google,
    );
    assert_eq!(ask(&google, "/a$b", "x"), (true, 3)); // equal length (4): allow wins
}

/// google: `Allow: .../index.htm*` also allows the directory itself, with the priority of
/// `.../$`; the URL is compared as given (no decoding), the rule's `%xx` upper-cased.
#[test]
fn google_index_htm_and_escapes() {
    let robots = parse(
        "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\nDisallow: /%ab\n",
        DialectId::Google,
    );
    assert_eq!(ask(&robots, "/d/", "x"), (true, 3));
    assert_eq!(ask(&robots, "/d/x", "x"), (false, 2));
    assert_eq!(ask(&robots, "/%AB", "x"), (false, 4));
    assert_eq!(ask(&robots, "/%ab", "x"), (true, 0));
}

/// Hostile patterns (reference property test): leftmost matching of the middle segments must
/// still find the match when one exists, and give up when none does, in linear time.
#[test]
fn hostile_patterns_decide_correctly() {
    let many = format!("/{}*b", "*a".repeat(1000));
    let stars = format!("/{}$", "*".repeat(10_000));
    let a = format!("/{}", "a".repeat(64 * 1024));
    for dialect in [DialectId::Google, DialectId::Rfc9309] {
        let robots = parse(&format!("User-agent: *\nDisallow: {many}\n"), dialect);
        assert!(robots.is_allowed(&a, "x"), "{dialect:?}");
        assert!(!robots.is_allowed(&format!("{a}b"), "x"), "{dialect:?}");
        let robots = parse(&format!("User-agent: *\nDisallow: {stars}\n"), dialect);
        assert!(!robots.is_allowed(&a, "x"), "{dialect:?}");
        assert!(!robots.is_allowed("/", "x"), "{dialect:?}");
    }
}
