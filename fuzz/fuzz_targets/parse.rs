//! Any bytes as robots.txt, in every dialect: parsing must not panic, and every view of the
//! result (diagnostics, groups, rules, records, sitemaps, crawl-delay) must be readable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_eval::{DialectId, Options, Robots};

fuzz_target!(|data: &[u8]| {
    // The first byte picks a small size cap now and then, to exercise truncation.
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
            assert!(d.line <= lines, "{dialect:?}: diagnostic {d:?} past the last line {lines}");
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
            let v = robots.check("/", agent);
            let _ = robots.line_of(&v);
            let _ = robots.selected_groups(v.selection).count();
        }
    }
});
