//! A parsed `Robots` compiles each crawler's rule set on the first query that needs it
//! (`src/compile.rs`), and makes its rule findings when its diagnostics are first asked for
//! (`src/lint.rs`). These tests pin down what that must not change: a `Robots` is `Send + Sync`,
//! threads racing for first uses agree with a single thread, and a clone taken before or after
//! the first use answers the same.

use std::sync::Arc;

use robots_eval::{DialectId, Options, Robots};

const FILE: &[u8] = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n\n\
User-agent: alpha\nUser-agent: beta\nDisallow: /a\nAllow: /a/b$\nDisallow: /*.pdf$\n\n\
User-agent: gamma\nDisallow: /\nAllow: /index.htm\n\n\
User-agent: alpha\nDisallow: /more\nDisallow: /more\nAllow: /a\n";

const AGENTS: [&str; 5] = [
    "alpha",
    "beta",
    "gamma",
    "Mozilla/5.0 (compatible; Beta/1.0)",
    "other",
];
const URLS: [&str; 8] = [
    "/",
    "/a",
    "/a/b",
    "/a/b/c",
    "/x.pdf",
    "/private/ok",
    "/more/x",
    "https://h.example/private",
];

/// What a file says: every (url, agent) verdict and deciding line, in a fixed order, and
/// every diagnostic (line and code).
type Answers = (Vec<(bool, u32)>, Vec<(u32, &'static str)>);

fn answers(robots: &Robots) -> Answers {
    // The findings first, so some threads make them while others compile rule sets.
    let findings = robots
        .diagnostics()
        .iter()
        .map(|d| (d.line, d.code.as_str()))
        .collect();
    let mut verdicts = Vec::new();
    for url in URLS {
        for agent in AGENTS {
            let v = robots.check(url, agent);
            verdicts.push((v.allowed, robots.line_of(&v)));
        }
    }
    (verdicts, findings)
}

#[test]
fn robots_is_send_and_sync() {
    fn shareable<T: Send + Sync + Clone>() {}
    shareable::<Robots>();
}

#[test]
fn threads_racing_for_first_queries_agree() {
    for dialect in &DialectId::ALL {
        let options = Options::dialect(*dialect);
        let expected = answers(&Robots::parse_with(FILE, &options));
        // Fresh parses, so every thread's queries include the sets' first use.
        for _ in 0..20 {
            let shared = Arc::new(Robots::parse_with(FILE, &options));
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    let robots = Arc::clone(&shared);
                    std::thread::spawn(move || answers(&robots))
                })
                .collect();
            for t in threads {
                assert_eq!(t.join().unwrap(), expected, "{dialect:?}");
            }
        }
    }
}

#[test]
fn clones_before_and_after_first_use_agree() {
    for dialect in &DialectId::ALL {
        let options = Options::dialect(*dialect);
        let robots = Robots::parse_with(FILE, &options);
        assert!(
            robots
                .diagnostics()
                .iter()
                .any(|d| d.code.as_str() == "duplicate-rule"),
            "{dialect:?}: the file has a group finding"
        );
        let robots = Robots::parse_with(FILE, &options);
        let before = robots.clone();
        let expected = answers(&robots);
        let after = robots.clone();
        assert_eq!(answers(&before), expected, "{dialect:?}");
        assert_eq!(answers(&after), expected, "{dialect:?}");
    }
}
