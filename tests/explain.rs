//! `report::explain`'s words for renderers: each group's span (`lines` to `ends`), what selected it and why, the
//! path as the dialect reads it, in every dialect. The playground highlights these spans
//! (tests/e2e/playground.test.mjs holds its highlights to them).

use robots_eval::{report, DialectId, Options, Robots};

fn parse(text: &str, dialect: DialectId) -> Robots {
    Robots::parse_with(
        text.as_bytes(),
        &Options {
            dialect,
            ..Options::default()
        },
    )
}

const FILE: &str = "User-agent: *\nDisallow: /private\n\n# news\nUser-agent: Googlebot-News\nUser-agent: ExampleBot\nDisallow: /news\n# trailing comment\n\nUser-agent: ExampleBot\nCrawl-delay: 5\nAllow: /news/open\n\n";

#[test]
fn spans_name_each_group_from_its_first_to_its_last_line() {
    // RFC 9309 merges both groups that name ExampleBot; blank and comment lines after a group's
    // last line belong to no group.
    let r = parse(FILE, DialectId::Rfc9309);
    let e = report::explain(&r, "/news/x", "ExampleBot");
    let g = e.group.unwrap();
    assert_eq!((g.lines, g.ends), (vec![5, 10], vec![7, 12]));
    assert_eq!((g.by, g.token.as_str()), ("token", "ExampleBot"));
    assert!(
        g.why.contains("The groups that name it are merged"),
        "{}",
        g.why
    );
    // The record dialects take the first record only.
    for d in [
        DialectId::Draft1996,
        DialectId::Original1994,
        DialectId::Revisited,
    ] {
        let r = parse(FILE, d);
        let g = report::explain(&r, "/news/x", "ExampleBot").group.unwrap();
        assert_eq!(
            (g.lines, g.ends, g.by, g.token.as_str()),
            (vec![5], vec![7], "record", "ExampleBot"),
            "{d:?}"
        );
    }
}

#[test]
fn a_line_the_dialect_does_not_read_is_outside_the_span() {
    // A rule without its colon: Google reads it, RFC 9309 ignores it (so the group ends before
    // it); 1994 keeps its Allow line as a record of the record, so that is inside.
    let text = "User-agent: ShopBot\nDisallow: /shop\nAllow: /shop/open\nDisallow /shop/closed\n";
    for (d, end) in [
        (DialectId::Rfc9309, 3),
        (DialectId::Google, 4),
        (DialectId::Original1994, 3),
    ] {
        let r = parse(text, d);
        let g = report::explain(&r, "/", "ShopBot").group.unwrap();
        assert_eq!((g.lines, g.ends), (vec![1], vec![end]), "{d:?}");
    }
}

#[test]
fn the_token_is_the_header_word_or_the_record_value_that_named_the_group() {
    let header = "Mozilla/5.0 (compatible; examplebot/2.1; +https://example.com)";
    let r = parse(FILE, DialectId::Rfc9309);
    let g = report::explain(&r, "/", header).group.unwrap();
    assert_eq!((g.by, g.token.as_str()), ("header-word", "examplebot"));
    assert!(
        g.why
            .starts_with("“examplebot”, a word of this User-Agent header"),
        "{}",
        g.why
    );
    // Google compares the whole string: a header names no group.
    let r = parse(FILE, DialectId::Google);
    let g = report::explain(&r, "/", header).group.unwrap();
    assert_eq!(
        (g.by, g.token.as_str(), g.lines, g.ends),
        ("global", "*", vec![1], vec![2])
    );
    // 1994: the record's value as written, found inside the caller's string.
    let r = parse("User-agent: bot\nDisallow: /x\n", DialectId::Original1994);
    let g = report::explain(&r, "/x", "MyRobot/1.0").group.unwrap();
    assert_eq!((g.by, g.token.as_str()), ("record", "bot"));
    assert!(
        g.why.contains("(“bot”) that occurs in “MyRobot/1.0”"),
        "{}",
        g.why
    );
}

#[test]
fn the_verdict_has_its_words_and_the_path_as_the_dialect_reads_it() {
    let r = parse(FILE, DialectId::Rfc9309);
    let e = report::explain(&r, "https://example.com/private/a?b=1", "Other");
    assert_eq!(
        (e.path.as_str(), e.because),
        ("/private/a?b=1", "a rule decides")
    );
    assert!(e.why.contains("longest matching path"), "{}", e.why);
    // The path as matched: the fragment dropped (1994 leaves the escapes as written).
    let r = parse(FILE, DialectId::Original1994);
    let e = report::explain(&r, "https://example.com/%7eelse?b=1#top", "Other");
    assert_eq!(
        (e.path.as_str(), e.because),
        ("/%7eelse?b=1", "no rule matches")
    );
    assert!(e.why.contains("“/%7eelse?b=1”"), "{}", e.why);
    let r = parse("User-agent: a\nDisallow: /\n", DialectId::Rfc9309);
    let e = report::explain(&r, "/x", "b");
    assert!(e.group.is_none());
    assert_eq!(e.because, "no group applies");
    assert!(e.why.starts_with("No group names “b”"), "{}", e.why);
}
