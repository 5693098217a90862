//! robots.txt, URL, agent and dialect from one input: no query may panic, and a verdict must
//! be consistent with what it points at.
//!
//! Layout: byte 0 picks the dialect; the rest is split at the first two `\xFF\xFE` markers into
//! robots.txt, URL and agent (URL and agent through lossy UTF-8). Missing parts are empty.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_eval::{DialectId, Options, Reason, Robots, Selection};

fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.windows(2).position(|w| w == b"\xFF\xFE") {
        Some(i) => (&data[..i], &data[i + 2..]),
        None => (data, &[]),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let dialect = DialectId::ALL[usize::from(pick) % DialectId::ALL.len()];
    let (robots_txt, rest) = split(rest);
    let (url, agent) = split(rest);
    let url = String::from_utf8_lossy(url);
    let agent = String::from_utf8_lossy(agent);
    let robots = Robots::parse_with(robots_txt, &Options::dialect(dialect));
    for (url, agent) in [(&*url, &*agent), (&*agent, &*url)] {
        let v = robots.check(url, agent);
        assert_eq!(v.selection, robots.selection(agent));
        match v.reason {
            Reason::Rule | Reason::EmptyRule => {
                let rule = robots.deciding_rule(&v).expect("a deciding rule exists");
                assert!(robots.line_of(&v) == rule.line && rule.line >= 1);
                assert!(robots.selected_groups(v.selection).any(|g| g.rules().contains(&rule.index)));
                if v.reason == Reason::EmptyRule {
                    assert!(v.allowed && rule.normalized.is_empty());
                }
            }
            Reason::NoGroup => assert!(v.allowed && v.selection == Selection::None && v.rule.is_none()),
            Reason::NoMatch | Reason::RobotsTxt => assert!(v.allowed && v.rule.is_none()),
        }
        assert_eq!(robots.is_allowed(url, agent), v.allowed);
        let _ = robots.crawl_delay(agent);
    }
});
