//! `robots_eval::coverage` in every dialect: which rule decides how much of a site, the rules that
//! decide nothing (shadowed, unmatched), the answers no rule decides and the rules of other
//! crawlers' groups, over one file whose lines each dialect reads differently (a blank line that
//! ends a record, a rule without its colon).

use robots_eval::coverage::{coverage, AgentAnswers, Answers, Coverage, RuleCoverage};
use robots_eval::{DialectId, Options, Robots};

const FILE: &str = "User-agent: a\n\
Disallow: /x\n\
Disallow: /x # again\r\n\
Disallow /nocolon\r\n\
Disallow: /nothing\n\
\n\
Disallow: /after-blank\n\
\n\
User-agent: b\n\
Disallow: /b\n";

const URLS: [&str; 5] = ["/x/1", "/nocolon/1", "/after-blank/1", "/b/1", "/other"];

/// A rule of agent 0 ("a") that decides `urls` (indices into URLS), all disallowed.
fn decides(line: u32, text: &str, urls: &[u32]) -> RuleCoverage {
    RuleCoverage {
        line,
        text: text.into(),
        agents: vec![AgentAnswers {
            agent: 0,
            answers: urls.len() as u32,
        }],
        allowed: 0,
        disallowed: urls.len() as u32,
        status: "decides",
        matched: 0,
        urls: urls.to_vec(),
    }
}

/// A rule of agent 0's group that decides nothing, matching `matched` of the URLs.
fn idle(line: u32, text: &str, matched: u32) -> RuleCoverage {
    RuleCoverage {
        line,
        text: text.into(),
        agents: vec![AgentAnswers {
            agent: 0,
            answers: 0,
        }],
        allowed: 0,
        disallowed: 0,
        status: if matched > 0 { "shadowed" } else { "unmatched" },
        matched,
        urls: vec![],
    }
}

#[test]
fn coverage_in_every_dialect() {
    for dialect in DialectId::ALL {
        let robots = Robots::parse_with(
            FILE.as_bytes(),
            &Options {
                dialect,
                ..Options::default()
            },
        );
        let mut steps = 0;
        let got = coverage(&robots, &URLS, &["a"], |n| steps = n);
        assert_eq!(steps, URLS.len());
        // Line 3 repeats line 2, which decides first in every dialect (first match, or the
        // first of equal matches): shadowed. Line 5 matches none of the URLs.
        let mut rules = vec![
            decides(2, "Disallow: /x", &[0]),
            idle(3, "Disallow: /x # again", 1),
        ];
        // Google's reference library reads a rule without its colon (two tokens).
        let colonless = dialect == DialectId::Google;
        if colonless {
            rules.push(decides(4, "Disallow /nocolon", &[1]));
        }
        rules.push(idle(5, "Disallow: /nothing", 0));
        // In the older dialects a blank line ends the record: line 7 belongs to no group.
        let blank_ends = matches!(
            dialect,
            DialectId::Draft1996 | DialectId::Original1994 | DialectId::Revisited
        );
        if !blank_ends {
            rules.push(decides(7, "Disallow: /after-blank", &[2]));
        }
        let no_rule = 5 - 1 - u32::from(colonless) - u32::from(!blank_ends);
        assert_eq!(
            got,
            Coverage {
                answers: 5,
                rules,
                no_rule: Answers {
                    allowed: no_rule,
                    disallowed: 0
                },
                other_groups: 1,
            },
            "{dialect:?}"
        );
    }
}

/// Two crawlers: each rule lists the crawlers whose groups hold it, in the order given, and a
/// rule's URLs are listed once however many crawlers it decides for.
#[test]
fn coverage_of_several_crawlers() {
    let robots =
        Robots::parse(b"User-agent: a\nUser-agent: b\nDisallow: /p\n\nUser-agent: c\nAllow: /\n");
    let got = coverage(&robots, &["/p", "/q"], &["b", "c", "a"], |_| {});
    assert_eq!(got.answers, 6);
    assert_eq!(got.other_groups, 0);
    assert_eq!(
        got.no_rule,
        Answers {
            allowed: 2,
            disallowed: 0
        }
    );
    let agents = |r: &RuleCoverage| {
        r.agents
            .iter()
            .map(|a| (a.agent, a.answers))
            .collect::<Vec<_>>()
    };
    assert_eq!(got.rules.len(), 2);
    assert_eq!(
        (got.rules[0].line, agents(&got.rules[0])),
        (3, vec![(0, 1), (2, 1)])
    );
    assert_eq!(got.rules[0].urls, vec![0]);
    assert_eq!(
        (
            got.rules[1].line,
            got.rules[1].allowed,
            agents(&got.rules[1])
        ),
        (6, 2, vec![(1, 2)])
    );
    assert_eq!(got.rules[1].urls, vec![0, 1]);
}
