//! Property tests against the naive reference matcher of `fuzz/src/reference.rs` (the one copy,
//! shared with the `differential` fuzz target), driven by a deterministic xorshift PRNG.
//!
//! - google and rfc9309: random files over a small alphabet (`fuzz/src/model.rs`), every verdict
//!   and matching line equal to the reference's longest-match decision.
//! - hostile patterns (`*` runs, 1,000 segments, 64 KB paths) complete; the time is printed.
//!   Run under `cargo test --release` to see meaningful figures; nothing asserts on time.
//! - no input panics: random bytes as robots.txt, random URLs and agents, every dialect.
//!
//! `ROBOTS_REFERENCE_CASES=N` changes the number of generated files per dialect (default 20,000,
//! about 200,000 queries each); `ROBOTS_REFERENCE_SEED=S` the seed.

#[path = "../fuzz/src/model.rs"]
mod model;
#[path = "../fuzz/src/reference.rs"]
mod reference;

use std::time::Instant;

use model::{Source, XorShift};
use robots_eval::{DialectId, Options, Reason, Robots};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn parse(text: &[u8], dialect: DialectId) -> Robots {
    Robots::parse_with(text, &Options::dialect(dialect))
}

/// Generates files and compares every query; reports the first few disagreements.
fn differential(dialect: DialectId, salt: u64) {
    let cases = env_or("ROBOTS_REFERENCE_CASES", 20_000);
    let mut rng = XorShift(env_or("ROBOTS_REFERENCE_SEED", 0x9E37_79B9_7F4A_7C15) ^ salt);
    let (mut queries, mut failures) = (0usize, Vec::new());
    let start = Instant::now();
    for _ in 0..cases {
        let case = model::generate(dialect, &mut rng);
        match model::check(&case) {
            Ok(n) => queries += n,
            Err(e) => failures.push(e),
        }
    }
    eprintln!(
        "{dialect:?}: {cases} files, {queries} queries agree with the reference, {} files disagree ({:.2?})",
        failures.len(),
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    if cases >= 20_000 {
        assert!(queries >= 200_000, "only {queries} queries");
    }
}

#[test]
fn google_agrees_with_reference() {
    differential(DialectId::Google, 1);
}

#[test]
fn rfc9309_agrees_with_reference() {
    differential(DialectId::Rfc9309, 2);
}

/// The reference itself, on google/robotstxt's and RFC 9309's own examples.
#[test]
fn reference_knows_the_examples() {
    use reference::matches as m;
    for (p, path, want) in [
        ("/fish", "/fish.html", true),
        ("/fish", "/Fish.asp", false),
        ("/fish*", "/fishheads/yummy.html", true),
        ("/fish/", "/fish", false),
        ("/*.php", "/folder/filename.php?parameters", true),
        ("/*.php$", "/filename.php?parameters", false),
        ("/*.php$", "/filename.php", true),
        ("/fish*.php", "/fishheads/catfish.php?parameters", true),
        ("/fish*.php", "/Fish.PHP", false),
        ("/a$b", "/a$b", true),
        ("/a$b", "/a", false),
        ("$", "", true),
        ("*$", "/x", true),
        ("/**/x$", "/y/x", true),
        ("", "/anything", true),
    ] {
        assert_eq!(m(p.as_bytes(), path.as_bytes()), want, "{p} vs {path}");
    }
    let r = |allow, pattern: &str, line| reference::Rule {
        allow,
        pattern: pattern.as_bytes().to_vec(),
        line,
    };
    let d = reference::decide(&[r(false, "/a", 1), r(true, "/a", 2)], b"/ab");
    assert_eq!(
        d,
        reference::Decision {
            allowed: true,
            line: 2
        }
    );
    let d = reference::decide(&[r(true, "/a", 1), r(false, "/a*", 2)], b"/ab");
    assert_eq!(
        d,
        reference::Decision {
            allowed: false,
            line: 2
        }
    );
    let d = reference::decide(&[r(false, "", 1), r(true, "", 2)], b"/ab");
    assert_eq!(
        d,
        reference::Decision {
            allowed: true,
            line: 2
        }
    );
    assert_eq!(
        reference::rfc9309_rule(b"/a%62%2f%7e/$x$"),
        b"/ab%2F~/%24x$"
    );
    assert_eq!(
        reference::rfc9309_url("/*$%zé".as_bytes()),
        b"/%2A%24%25z%C3%A9"
    );
    assert_eq!(
        reference::google_rule("/%2f%zz/é".as_bytes()),
        b"/%2F%zz/%C3%A9"
    );
}

/// Patterns built to make a backtracking matcher explode. No timing assertion: they must
/// complete; the elapsed time is printed (`cargo test --release -- --nocapture`).
#[test]
fn hostile_patterns_complete() {
    let many_segments = format!("/{}*b", "*a".repeat(1000));
    let stars = format!("/{}$", "*".repeat(10_000));
    let stars_a = format!("/{}a", "*".repeat(10_000));
    let path_a = format!("/{}", "a".repeat(64 * 1024));
    let path_ab = format!("{path_a}b");
    // (pattern, path, whether the pattern matches)
    let cases: [(&str, &str, bool); 7] = [
        (&many_segments, &path_a, false),
        (&many_segments, &path_ab, true),
        (&stars, &path_a, true),
        (&stars_a, &path_a, true),
        (&stars_a, &path_ab, true),
        (
            "/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*$",
            &path_ab,
            true,
        ),
        (
            "/*aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab$",
            &path_a,
            false,
        ),
    ];
    let mut done = 0;
    for dialect in DialectId::ALL {
        for (pattern, path, want) in cases {
            let robots = parse(
                format!("User-agent: *\nDisallow: {pattern}\n").as_bytes(),
                dialect,
            );
            let start = Instant::now();
            let v = robots.check(path, "bot");
            let elapsed = start.elapsed();
            if matches!(dialect, DialectId::Google | DialectId::Rfc9309) {
                assert_eq!(
                    !v.allowed,
                    want,
                    "{dialect:?}: {}... vs {} octets",
                    &pattern[..pattern.len().min(40)],
                    path.len()
                );
            }
            eprintln!(
                "{dialect:?}: pattern of {} octets vs path of {} octets: {elapsed:.2?}",
                pattern.len(),
                path.len()
            );
            done += 1;
        }
        // Many hostile rules in one file, one query.
        let mut text = String::from("User-agent: *\n");
        for i in 0..500 {
            text.push_str(&format!(
                "Disallow: /{}{}\nAllow: /*a*a*a{}$\n",
                "*a".repeat(20),
                "b".repeat(i % 7),
                "*".repeat(30)
            ));
        }
        let robots = parse(text.as_bytes(), dialect);
        let start = Instant::now();
        let _ = robots.check(&path_a[..16 * 1024], "bot");
        eprintln!(
            "{dialect:?}: 1,000 hostile rules vs a 16 KB path: {:.2?}",
            start.elapsed()
        );
        done += 1;
    }
    assert_eq!(done, DialectId::ALL.len() * (cases.len() + 1));
}

const ROBOTS_PIECES: &[&[u8]] = &[
    b"User-agent:",
    b"user-agent: *",
    b"Disallow:",
    b"Allow:",
    b"disallow /x",
    b"Sitemap:",
    b"Crawl-delay:",
    b"crawl-delay: 1.5",
    b"Host:",
    b"useragent",
    b"dissallow",
    b"*",
    b"$",
    b"%",
    b"%2F",
    b"%2f",
    b"%zz",
    b"%C3",
    b"/",
    b"/index.html",
    b"\r",
    b"\n",
    b"\r\n",
    b"\0",
    b"#",
    b" ",
    b"\t",
    b":",
    b"\xEF\xBB\xBF",
    b"\xC3\xA9",
    b"\xFF",
    b"\x80",
    b"<html>",
    b"Googlebot",
    b"FooBot/1.0",
    b"Mozilla",
];
const PREFIXES: &[&[u8]] = &[
    b"",
    b"",
    b"\xEF\xBB\xBF",
    b"\xEF\xBB",
    b"\xEF",
    b"\xFE\xFF",
    b"\xFF\xFE",
    b"\xFF\xFE\x00",
    b"\0",
];
const URL_PIECES: &[&str] = &[
    "http://",
    "https://h.example",
    "//",
    "/",
    "?",
    "#",
    ";",
    "%",
    "%2F",
    "%2a",
    "%zz",
    "*",
    "$",
    ":",
    "@",
    "é",
    "\0",
    "robots.txt",
    "index.html",
    "a",
    "..",
    " ",
    "ツ",
];
const AGENT_PIECES: &[&str] = &[
    "Googlebot",
    "googlebot",
    "Mozilla/5.0",
    " (compatible; ",
    "FooBot/1.0",
    "*",
    ")",
    "",
    " ",
    "\0",
    "é",
    "-",
    "_",
];

fn random_bytes(rng: &mut XorShift, max_pieces: u32) -> Vec<u8> {
    let mut out = PREFIXES[rng.below(PREFIXES.len() as u32) as usize].to_vec();
    for _ in 0..rng.below(max_pieces) {
        if rng.chance(30) {
            out.push(rng.below(256) as u8);
        } else {
            out.extend_from_slice(ROBOTS_PIECES[rng.below(ROBOTS_PIECES.len() as u32) as usize]);
        }
    }
    out
}

fn random_text(rng: &mut XorShift, pieces: &[&str], max_pieces: u32) -> String {
    let mut out = String::new();
    for _ in 0..rng.below(max_pieces) {
        if rng.chance(20) {
            out.push(char::from_u32(rng.below(0x11_0000)).unwrap_or('\u{FFFD}'));
        } else {
            out.push_str(rng.pick(pieces));
        }
    }
    out
}

/// Checks what must hold of any verdict, whatever the input.
fn consistent(robots: &Robots, url: &str, agent: &str) {
    let v = robots.check(url, agent);
    assert_eq!(robots.is_allowed(url, agent), v.allowed);
    // A URL read once for several agents (a decision table row) gets the same verdict.
    let path = robots.path(url);
    assert_eq!(robots.check_path(&path, robots.selection(agent)), v);
    match v.reason {
        Reason::Rule | Reason::EmptyRule => {
            let rule = robots.deciding_rule(&v).expect("deciding rule");
            assert_eq!(robots.line_of(&v), rule.line);
            assert!(robots
                .selected_groups(v.selection)
                .any(|g| g.rules().contains(&rule.index)));
        }
        _ => assert!(v.allowed && v.rule.is_none() && robots.line_of(&v) == 0),
    }
    let _ = robots.crawl_delay(agent);
}

#[test]
fn no_input_panics() {
    let mut rng = XorShift(env_or("ROBOTS_REFERENCE_SEED", 0x2545_F491) ^ 3);
    let files = env_or("ROBOTS_REFERENCE_CASES", 20_000) / 4;
    let mut queries = 0;
    for i in 0..files {
        let text = random_bytes(&mut rng, if i % 100 == 0 { 5_000 } else { 60 });
        let max_bytes = if rng.chance(10) {
            rng.below(64) as usize
        } else {
            robots_eval::DEFAULT_MAX_BYTES
        };
        for dialect in DialectId::ALL {
            let robots = Robots::parse_with(&text, &Options { dialect, max_bytes });
            let _ = (
                robots.diagnostics().len(),
                robots.groups().count(),
                robots.records().count(),
                robots.sitemaps().count(),
            );
            for g in robots.groups() {
                let _ = (g.agents().count(), g.records().count(), g.is_global());
            }
            for _ in 0..4 {
                let url = random_text(&mut rng, URL_PIECES, 12);
                let agent = random_text(&mut rng, AGENT_PIECES, 6);
                consistent(&robots, &url, &agent);
                consistent(&robots, &agent, &url);
                queries += 2;
            }
        }
    }
    // Huge inputs: a 1 MB URL and agent, a 1 MB robots.txt (cap lifted), one line of 1 MB.
    let huge_url = format!("https://h.example/{}", "a*%2F$é?".repeat(128 * 1024));
    let huge_agent = "Googlebot".repeat(120 * 1024);
    let mut huge_file = Vec::new();
    while huge_file.len() < 1 << 20 {
        huge_file.extend_from_slice(&random_bytes(&mut rng, 40));
        huge_file.extend_from_slice(b"\nUser-agent: *\nDisallow: /*a*%2F*$\n");
    }
    let long_line = [&b"Disallow: /"[..], &[b'*'; 1 << 20]].concat();
    // Not the huge file with the huge URL: a query costs (rules x path length), and thousands of
    // wildcard rules against a 1 MB path take seconds (linear per rule, by design).
    let small_file = b"User-agent: *\nDisallow: /*a*%2F*$\nAllow: /*\xC3\xA9\n".to_vec();
    for dialect in DialectId::ALL {
        for (file, url, agent) in [
            (&huge_file, "https://h.example/a*%2F$\u{e9}?q", &*huge_agent),
            (&small_file, &*huge_url, &*huge_agent),
            (&long_line, &*huge_url, "Googlebot"),
        ] {
            let robots = Robots::parse_with(
                file,
                &Options {
                    dialect,
                    max_bytes: usize::MAX,
                },
            );
            let start = Instant::now();
            consistent(&robots, url, agent);
            consistent(&robots, agent, url);
            eprintln!(
                "{dialect:?}: {} KB file, {} KB URL, {} KB agent: {:.2?}",
                file.len() / 1024,
                url.len() / 1024,
                agent.len() / 1024,
                start.elapsed()
            );
            queries += 2;
        }
    }
    eprintln!(
        "no_input_panics: {files} random files x {} dialects, {queries} queries",
        DialectId::ALL.len()
    );
}
