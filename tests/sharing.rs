//! A parsed `Robots` compiles each crawler's rule set on the first query that needs it
//! (`src/compile.rs`). These tests pin down what that must not change: a `Robots` is `Send +
//! Sync`, threads racing for first queries agree with a single thread, and a clone taken before
//! or after the first query answers the same.

use std::sync::Arc;

use robots_eval::{DialectId, Options, Robots};

const FILE: &[u8] = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n\n\
User-agent: alpha\nUser-agent: beta\nDisallow: /a\nAllow: /a/b$\nDisallow: /*.pdf$\n\n\
User-agent: gamma\nDisallow: /\nAllow: /index.htm\n\n\
User-agent: alpha\nDisallow: /more\n";

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

/// Every (url, agent) verdict and deciding line, in a fixed order.
fn table(robots: &Robots) -> Vec<(bool, u32)> {
    let mut out = Vec::new();
    for url in URLS {
        for agent in AGENTS {
            let v = robots.check(url, agent);
            out.push((v.allowed, robots.line_of(&v)));
        }
    }
    out
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
        let expected = table(&Robots::parse_with(FILE, &options));
        // Fresh parses, so every thread's queries include the sets' first use.
        for _ in 0..20 {
            let shared = Arc::new(Robots::parse_with(FILE, &options));
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    let robots = Arc::clone(&shared);
                    std::thread::spawn(move || table(&robots))
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
        let before = robots.clone();
        let expected = table(&robots);
        let after = robots.clone();
        assert_eq!(table(&before), expected, "{dialect:?}");
        assert_eq!(table(&after), expected, "{dialect:?}");
    }
}
