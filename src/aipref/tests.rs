//! The failure points of RFC 9651 that decide outcomes (digest §1.4), the vocabulary's own
//! examples, Content-Signal's reading, longest match and its ties, and linear time on hostile
//! input. The public vectors run through `tests/ai_preferences.rs`.

extern crate std;

use super::sf::{parse_dictionary, Failure, Type};
use super::*;
use alloc::string::ToString;
use alloc::vec::Vec;
use std::time::{Duration, Instant};

use Preference::{Allowed as Y, Disallowed as N, Unknown as U};

fn prefs(value: &str) -> [Preference; COUNT] {
    Statement::parse(value.as_bytes()).preferences()
}

fn idx(label: &str) -> usize {
    category(label.as_bytes()).expect("a category")
}

fn pref(value: &str, label: &str) -> Preference {
    prefs(value)[idx(label)]
}

fn failure(value: &str) -> Option<(u32, Failure)> {
    Statement::parse(value.as_bytes())
        .error()
        .map(|e| (e.offset, e.failure))
}

#[test]
fn categories_are_vocab_08() {
    let labels: Vec<&str> = CATEGORIES.iter().map(|c| c.label).collect();
    assert_eq!(labels, ["train-ai", "ai-use", "search"]);
    assert_eq!(category(b"Train-ai"), None, "labels are case-sensitive");
    assert_eq!(category(b"bots"), None, "-04's parent label is gone");
}

#[test]
fn valid_statements() {
    assert_eq!(pref("train-ai=n, search=y", "train-ai"), N);
    assert_eq!(pref("train-ai=n, search=y", "search"), Y);
    assert_eq!(pref("train-ai=n, search=y", "ai-use"), U);
    assert_eq!(pref("ai-use=n", "ai-use"), N);
    assert_eq!(prefs(""), [U; COUNT]);
    assert_eq!(prefs("   "), [U; COUNT]);
    assert_eq!(
        pref("  train-ai=n  ", "train-ai"),
        N,
        "SP around is dropped"
    );
    assert_eq!(
        pref("train-ai=n\t,\tsearch=y\t", "search"),
        Y,
        "OWS around ','"
    );
    assert_eq!(
        pref("foo-bar=n, search=y", "search"),
        Y,
        "unknown label ignored"
    );
    assert_eq!(
        pref("search=n;reason=\"policy\"", "search"),
        N,
        "parameters ignored"
    );
    assert_eq!(
        pref("search=n;a;b=?0;c=:AAA=:;d=@1;e=%\"x\";f=1.5", "search"),
        N
    );
    assert_eq!(
        pref("x=(a b;c \"s\" 1.25);p, search=y", "search"),
        Y,
        "inner list"
    );
    assert_eq!(pref("x=(), search=y", "search"), Y, "empty inner list");
    assert_eq!(
        pref("*=y, search=y", "search"),
        Y,
        "a key may start with '*'"
    );
}

#[test]
fn vocab_examples() {
    // VOCAB-07 §6.5.1: the last values are a Boolean and a String.
    assert_eq!(
        prefs("train-ai=y, train-ai, search=n, search=\"n\""),
        [U; COUNT]
    );
    // §6.5.2: the parameters of the overwritten value are dropped with it.
    assert_eq!(pref("train-ai;allow=n, train-ai=y", "train-ai"), Y);
    // Last duplicate wins, not the most restrictive.
    assert_eq!(pref("train-ai=n, train-ai=y", "train-ai"), Y);
    // §6.5.2's own example ends with ';', which RFC 9651 §4.2.3.2 rejects (digest §6.1 item 6).
    assert!(failure("train-ai;has;parameters=\"?\";").is_some());
}

#[test]
fn values_that_are_not_y_or_n() {
    let s = Statement::parse(b"train-ai=yes, search=n");
    assert_eq!(s.member(idx("train-ai")), Member::Other(Type::Token));
    assert_eq!(s.preference(idx("search")), N);
    for (value, other) in [
        ("train-ai=N", Type::Token),
        ("train-ai", Type::Boolean),
        ("train-ai=?0", Type::Boolean),
        ("train-ai=1", Type::Integer),
        ("train-ai=-1.5", Type::Decimal),
        ("train-ai=\"n\"", Type::String),
        ("train-ai=:bg==:", Type::ByteSequence),
        ("train-ai=@1700000000", Type::Date),
        ("train-ai=%\"n\"", Type::DisplayString),
        ("train-ai=(n)", Type::InnerList),
    ] {
        let s = Statement::parse(value.as_bytes());
        assert_eq!(s.error(), None, "{value}");
        assert_eq!(s.member(idx("train-ai")), Member::Other(other), "{value}");
    }
}

#[test]
fn every_failure_point() {
    use Failure::*;
    for (value, at, why) in [
        ("search=y, train-ai=n\u{e9}", 20, NonAscii),
        ("Train-ai=n", 0, KeyStart),
        ("TRAIN-AI=n", 0, KeyStart),
        ("train-AI=n", 6, ExpectedComma),
        ("\ttrain-ai=n", 0, KeyStart),
        ("train-ai=n search=y", 11, ExpectedComma),
        ("train-ai=n,", 11, TrailingComma),
        ("train-ai=n, ", 12, TrailingComma),
        ("a=y,,b=n", 4, KeyStart),
        ("train-ai = n", 9, ExpectedComma),
        ("train-ai=", 9, BareItem),
        ("train-ai=\"n", 11, UnterminatedString),
        ("train-ai=\"a\\n\"", 12, StringChar),
        ("train-ai=\"a\tb\"", 11, StringChar),
        ("train-ai=n;", 11, KeyStart),
        ("train-ai=n; ", 12, KeyStart),
        ("train-ai=n;A=1", 11, KeyStart),
        ("train-ai=-", 10, Digit),
        ("train-ai=1234567890123456", 25, Number),
        ("train-ai=1234567890123.5", 23, Number),
        ("train-ai=1.2345", 15, Number),
        ("train-ai=1.", 11, Number),
        ("train-ai=:a:", 12, ByteSequence),
        ("train-ai=:abc", 13, ByteSequence),
        ("train-ai=:ab=c:", 13, ByteSequence),
        ("train-ai=?2", 11, Boolean),
        ("train-ai=@1.5", 13, Date),
        ("train-ai=%\"%C3%A9\"", 14, DisplayString),
        ("train-ai=%\"%c3\"", 15, DisplayString),
        ("train-ai=%n", 10, DisplayString),
        ("train-ai=(a b", 13, InnerList),
        ("train-ai=(a,b)", 11, InnerList),
        ("train-ai=((a))", 10, BareItem),
        ("train-ai=#", 9, BareItem),
    ] {
        assert_eq!(failure(value), Some((at, why)), "{value:?}");
        assert_eq!(prefs(value), [U; COUNT], "{value:?}: no partial result");
    }
    // Valid neighbours of those failures.
    for value in [
        "train-ai=%\"%c3%a9\"",
        "train-ai=:ab:",
        "train-ai=:abc=:",
        "train-ai=::",
        "train-ai=123456789012.123",
        "train-ai=\"a\\\"b\\\\\"",
        "train-ai=( a  b )",
        "train-ai=n;  a=1",
    ] {
        assert_eq!(failure(value), None, "{value:?}");
    }
}

#[test]
fn field_lines_are_joined() {
    let s = parse_header(&[b"train-ai=n", b"search=y"]);
    assert_eq!(s.preferences()[idx("train-ai")], N);
    assert_eq!(s.preferences()[idx("search")], Y);
    // Last line wins across lines, and one bad line spoils the field.
    assert_eq!(
        parse_header(&[b"train-ai=n", b"train-ai=y"]).preference(idx("train-ai")),
        Y
    );
    assert_eq!(
        parse_header(&[b"train-ai=n", b"Search=y"]).preferences(),
        [U; COUNT]
    );
    // Offsets count in the joined value: "train-ai=n, Search=y" fails at byte 12.
    let e = parse_header(&[b"train-ai=n", b"Search=y"])
        .error()
        .expect("fails");
    assert_eq!((e.offset, e.failure), (12, Failure::KeyStart));
    // An empty line is an empty element: ", search=y" fails, as the joined value does.
    assert!(parse_header(&[b"", b"search=y"]).error().is_some());
    assert!(parse_header(&[b"search=y", b""]).error().is_some());
    assert_eq!(parse_header(&[]).error(), None);
    assert_eq!(parse_header(&[b""]).error(), None);
}

#[test]
fn rule_values() {
    let r = split_rule(b"/ai-ok/ train-ai=y");
    assert_eq!(
        (r.path, r.statement),
        (Some(&b"/ai-ok/"[..]), &b"train-ai=y"[..])
    );
    let r = split_rule(b"/x/\t \ttrain-ai=n"); // [I-2]
    assert_eq!(
        (r.path, r.statement),
        (Some(&b"/x/"[..]), &b"train-ai=n"[..])
    );
    let r = split_rule(b"*.pdf train-ai=n"); // not '/': all statement
    assert_eq!((r.path, r.statement), (None, &b"*.pdf train-ai=n"[..]));
    let r = split_rule(b"/x"); // [I-3]: a rule with an empty statement
    assert_eq!((r.path, r.statement), (Some(&b"/x"[..]), &b""[..]));
    let r = split_rule(b"/my docs/ train-ai=n"); // a raw space ends the path
    assert_eq!(
        (r.path, r.statement),
        (Some(&b"/my"[..]), &b"docs/ train-ai=n"[..])
    );
    assert!(Statement::parse(r.statement).error().is_some());
    let r = split_rule(b"train-ai=\"#\" # comment"); // '#' always starts a comment
    assert_eq!(r.statement, b"train-ai=\"");
}

#[test]
fn content_signal() {
    let read = |v: &str| read_signals(v.as_bytes());
    assert_eq!(read("search=yes, ai-train=no"), Some([Y, U, N]));
    assert_eq!(read("search=yes,ai-input=yes,ai-train=no"), Some([Y, Y, N]));
    assert_eq!(read(" SEARCH = Yes , AI-Train=NO "), Some([Y, U, N]));
    assert_eq!(
        read("search=maybe, ai-train=no"),
        Some([U, U, N]),
        "one key unknown"
    );
    assert_eq!(read("search, ,ai-train=no,"), Some([U, U, N]));
    assert_eq!(
        read("ai-train=yes, ai-train=no"),
        Some([U, U, N]),
        "no wins in a line"
    );
    assert_eq!(read("search=yes # comment, ai-train=no"), Some([Y, U, U]));
    assert_eq!(read(""), Some([U; 3]));
    assert_eq!(read("/path search=no"), None, "a path form is not defined");
    let extras: Vec<SignalMember<'_>> = signal::members(b"search=yes,ai-train=no,use=reference,=x")
        .expect("not a path")
        .collect();
    assert_eq!(signal::members(b"").map(Iterator::count), Some(0));
    assert_eq!(
        extras[2],
        SignalMember::Extra {
            key: b"use",
            value: b"reference"
        }
    );
    assert_eq!(extras[3], SignalMember::Empty);

    let mut signals = Signals::default();
    assert_eq!(signals.answers(), None);
    signals.offer(3, [Y, U, Y]);
    signals.offer(7, [U, U, N]);
    let a = signals.answers().expect("lines applied");
    assert_eq!(
        a[0],
        SignalAnswer {
            preference: Y,
            line: Some(3)
        }
    );
    assert_eq!(
        a[1],
        SignalAnswer {
            preference: U,
            line: None
        }
    );
    assert_eq!(
        a[2],
        SignalAnswer {
            preference: N,
            line: Some(7)
        }
    );
}

#[test]
fn longest_match_and_ties() {
    let st = |v: &str| Statement::parse(v.as_bytes());
    let t = idx("train-ai");
    let s = idx("search");

    let m = LongestMatch::default();
    assert!(!m.matched());
    assert_eq!(m.answers()[t], Answer::unknown(Why::NoRule));

    // ATTACH §3.4: the pathless rule (length 0) loses to `/ai-ok/` ([I-1]).
    let mut m = LongestMatch::default();
    m.offer(7, 5, &st("train-ai=y"));
    m.offer(0, 4, &st("train-ai=n"));
    assert_eq!(m.answers()[t].preference, Y);
    assert_eq!(m.answers()[t].why, Why::Stated(Origin::Line(5)));
    // [I-3]: the winner applies whole; search is not inherited from the shorter rule.
    let mut m = LongestMatch::default();
    m.offer(0, 1, &st("search=n"));
    m.offer(3, 2, &st("train-ai=y"));
    assert_eq!(
        m.answers()[s],
        Answer::unknown(Why::NotStated(Origin::Line(2)))
    );

    // Ties: n beats y whatever the order; unknown never overrides.
    for order in [[1, 2, 3], [3, 2, 1], [2, 3, 1]] {
        let mut m = LongestMatch::default();
        for line in order {
            let value = ["train-ai=y", "train-ai=n, search=\"x\"", "Bad"][line as usize - 1];
            m.offer(6, line, &st(value));
        }
        let a = m.answers();
        assert_eq!(
            a[t],
            Answer {
                preference: N,
                why: Why::Stated(Origin::Line(2))
            }
        );
        // Every tied statement leaves search unknown: the most telling reason is kept.
        assert!(
            matches!(a[s].why, Why::Malformed(Origin::Line(3), _)),
            "{order:?}"
        );
    }

    // The header combines with robots.txt the same way.
    let header = answers(&parse_header(&[b"train-ai=y, search=n"]), Origin::Header);
    let robots = m.answers();
    let both = combine_answers(&robots, &header);
    assert_eq!(both[t].why, Why::Stated(Origin::Line(2)));
    assert_eq!(
        both[s],
        Answer {
            preference: N,
            why: Why::Stated(Origin::Header)
        }
    );
}

#[test]
fn reasons_read_well() {
    let e = Statement::parse(b"train-ai=n search=y")
        .error()
        .expect("fails");
    assert_eq!(
        Why::Malformed(Origin::Line(4), e).to_string(),
        "line 4: the statement did not parse (at byte 11: expected ',')"
    );
    assert_eq!(Why::NoRule.to_string(), "no rule matched");
    assert_eq!(Why::NotCrawlable(0).to_string(), "URL not crawlable");
    assert_eq!(
        Why::NotYesNo(Origin::Header, Type::Token).to_string(),
        "the Content-Usage header: value is not y/n (it is a token)"
    );
}

/// The slowest of three runs of `f`.
fn time(f: impl Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .max()
        .unwrap_or_default()
}

#[test]
fn linear_on_hostile_input() {
    const SIZE: usize = 64 * 1024;
    let repeat = |head: &str, unit: &str, tail: &str| {
        let mut s = std::string::String::from(head);
        while s.len() + unit.len() + tail.len() <= SIZE {
            s.push_str(unit);
        }
        s.push_str(tail);
        s.into_bytes()
    };
    let inputs = [
        repeat("a", ";b", ""),                             // 32k parameters
        repeat("a", ";b=1", ""),                           // with values
        repeat("a", ";b=(", ""),                           // fails at once
        repeat("a=(", "b;c=1;d ", ")"),                    // an inner list of parameters
        repeat("", "k=y, ", "k=y"),                        // one key, overwritten 13k times
        repeat("", "train-ai=n;p=\"\\\\\", ", "search=y"), // escapes in parameters
        repeat("a=%\"", "%c3%a9", "\""),                   // a long display string
        repeat("a=\"", "\\\"", "\""),                      // a long string of escapes
        repeat("", "a", "=y"),                             // a 64 KiB key
        repeat("a=:", "AAAA", ":"),                        // a long byte sequence
    ];
    let lines: Vec<&[u8]> = (0..SIZE / 4).map(|_| &b"a=y"[..]).collect();
    for input in &inputs {
        // Generous: a quadratic parser takes seconds on 64 KiB, a linear one microseconds.
        let took = time(|| {
            let _ = parse_dictionary(input, &mut |_, _| {});
        });
        assert!(
            took < Duration::from_millis(250),
            "{took:?} on {:?}",
            &input[..16]
        );
    }
    let took = time(|| {
        let _ = parse_header(&lines);
    });
    assert!(
        took < Duration::from_millis(250),
        "{took:?} on 16k field lines"
    );
}

#[test]
fn index_tables_are_in_order() {
    for (i, f) in sf::Failure::ALL.iter().enumerate() {
        assert_eq!(*f as usize, i);
    }
    for (i, t) in Type::ALL.iter().enumerate() {
        assert_eq!(*t as usize, i);
    }
    for why in [Why::NoRule, Why::OwnGroupSilent, Why::NotCrawlable(3)] {
        assert_eq!(Why::CODES[why.index()], why.code());
    }
}
