//! What each fuzz target checks, as plain functions: the targets call them, and
//! `tests/regressions.rs` (through `#[path]`) replays saved inputs through the very same code.
#![allow(dead_code)]

use robots_eval::{DialectId, Options, Reason, Robots, Selection};

/// `parse` target: any bytes as robots.txt, every dialect; every view of the result readable
/// and consistent. The first byte picks a small size cap now and then (truncation).
pub fn parse(data: &[u8]) {
    let max_bytes = match data.first() {
        Some(&b) if b & 0xF0 == 0xF0 => usize::from(b & 0x0F) * 7,
        _ => robots_eval::DEFAULT_MAX_BYTES,
    };
    for dialect in DialectId::ALL {
        let robots = Robots::parse_with(data, &Options { dialect, max_bytes });
        assert!(robots.bytes_read() <= data.len().min(max_bytes));
        assert_eq!(robots.truncated(), data.len() > max_bytes);
        let lines = robots.line_count();
        for d in robots.diagnostics() {
            assert!(
                d.line <= lines,
                "{dialect:?}: diagnostic {d:?} past the last line {lines}"
            );
            let _ = (d.code.as_str(), d.code.message(), d.severity.as_str());
        }
        let mut rules_in_groups = 0;
        for g in robots.groups() {
            assert!(g.line() >= 1 && g.line() <= lines);
            for (line, agent) in g.agents() {
                assert!(line >= g.line() && line <= lines);
                let _ = agent.len();
            }
            for r in g.rules() {
                let rule = robots.rule(r).expect("a group's rule exists");
                assert_eq!(rule.group, g.index());
                assert!(rule.line >= g.line() && rule.line <= lines);
                let _ = (
                    rule.kind.as_str(),
                    rule.pattern.len(),
                    rule.normalized.len(),
                );
                rules_in_groups += 1;
            }
            let _ = g.is_global();
            for rec in g.records() {
                assert_eq!(rec.group, Some(g.index()));
            }
        }
        assert_eq!(rules_in_groups, robots.rule_count());
        for rec in robots.records() {
            assert!(rec.line >= 1 && rec.line <= lines);
            let _ = (rec.kind.as_str(), rec.field.len(), rec.value.len());
        }
        for s in robots.sitemaps() {
            let _ = s.len();
        }
        for agent in ["*", "Googlebot", "foobot", ""] {
            if let Some(delay) = robots.crawl_delay(agent) {
                assert!(delay >= 0.0 && delay.is_finite());
            }
            verdict(&robots, "/", agent);
        }
    }
}

fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.windows(2).position(|w| w == b"\xFF\xFE") {
        Some(i) => (&data[..i], &data[i + 2..]),
        None => (data, &[]),
    }
}

/// `query` target: byte 0 picks the dialect; the rest is robots.txt, URL and agent separated by
/// the first two `\xFF\xFE` markers (URL and agent through lossy UTF-8; missing parts empty).
/// Asked both ways round (URL as agent too).
pub fn query(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let dialect = DialectId::ALL[usize::from(pick) % DialectId::ALL.len()];
    let (robots_txt, rest) = split(rest);
    let (url, agent) = split(rest);
    let url = String::from_utf8_lossy(url);
    let agent = String::from_utf8_lossy(agent);
    let robots = Robots::parse_with(robots_txt, &Options::dialect(dialect));
    verdict(&robots, &url, &agent);
    verdict(&robots, &agent, &url);
}

/// What must hold of any verdict: the reason agrees with the rule it points at, the rule
/// belongs to a selected group, `is_allowed`, `selection` and `line_of` agree with `check`.
pub fn verdict(robots: &Robots, url: &str, agent: &str) {
    let v = robots.check(url, agent);
    assert_eq!(v.selection, robots.selection(agent));
    assert_eq!(robots.is_allowed(url, agent), v.allowed);
    match v.reason {
        Reason::Rule | Reason::EmptyRule => {
            let rule = robots.deciding_rule(&v).expect("a deciding rule exists");
            assert!(robots.line_of(&v) == rule.line && rule.line >= 1);
            assert!(robots
                .selected_groups(v.selection)
                .any(|g| g.rules().contains(&rule.index)));
            if v.reason == Reason::EmptyRule {
                assert!(v.allowed && rule.normalized.is_empty());
            }
        }
        Reason::NoGroup => assert!(v.allowed && v.selection == Selection::None && v.rule.is_none()),
        Reason::NoMatch | Reason::RobotsTxt => {
            assert!(v.allowed && v.rule.is_none() && robots.line_of(&v) == 0)
        }
    }
    let _ = robots.crawl_delay(agent);
    let _ = robots.selected_groups(v.selection).count();
}

/// `differential` target: the bytes drive the random-file model (`crate::model`); the first
/// choice picks google or rfc9309. Panics with the disagreement.
pub fn differential(data: &[u8]) {
    use crate::model::{self, Bytes, Source};
    let mut src = Bytes(data);
    let dialect = if src.below(2) == 0 {
        DialectId::Google
    } else {
        DialectId::Rfc9309
    };
    let case = model::generate(dialect, &mut src);
    if let Err(e) = model::check(&case) {
        panic!("{e}");
    }
}
