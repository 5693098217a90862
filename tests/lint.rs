//! Diagnostics: each code is emitted where a site owner needs it, with the right line.

use robots_eval::{Code, DialectId, Options, Robots};

fn codes(text: &str, d: DialectId) -> Vec<(u32, &'static str)> {
    Robots::parse_with(text.as_bytes(), &Options::dialect(d))
        .diagnostics()
        .iter()
        .map(|d| (d.line, d.code.as_str()))
        .collect()
}

#[test]
fn rules_that_never_decide() {
    let text =
        "User-agent: *\nDisallow: /a\nDisallow: /a\nAllow: /b\nDisallow: /b\nDisallow: /a/x\n";
    assert_eq!(
        codes(text, DialectId::Rfc9309),
        [(3, "duplicate-rule"), (5, "conflicting-rules")]
    );
    assert_eq!(
        codes(text, DialectId::Draft1996),
        [
            (3, "duplicate-rule"),
            (5, "shadowed-rule"),
            (6, "shadowed-rule")
        ]
    );
}

#[test]
fn line_level_findings() {
    let text = "\u{feff}Disallow: /early\nUser-agent: Googlebot/2.1\nDissallow: /x\nDisallow /y\nFoo: bar\nAllow: nope\nCrawl-delay: soon\nSitemap: /sitemap.xml\n";
    let found = codes(text, DialectId::Rfc9309);
    for expected in [
        (1, "bom"),
        (1, "rule-outside-group"),
        (2, "invalid-product-token"),
        (3, "typo"),
        (4, "missing-colon"),
        (5, "unknown-field"),
        (6, "pattern-no-slash"),
        (7, "invalid-crawl-delay"),
        (8, "sitemap-not-absolute"),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:?}");
    }
    // The google dialect accepts the missing colon, with a warning instead of an error.
    assert!(codes(text, DialectId::Google).contains(&(4, "missing-colon-accepted")));
    // The 1994 standard has no Allow.
    assert!(codes("User-agent: *\nAllow: /a\n", DialectId::Original1994)
        .contains(&(2, "allow-ignored")));
    // A blank line ends a 1994 record.
    assert!(
        codes("User-agent: a\n\nDisallow: /x\n", DialectId::Original1994)
            .contains(&(3, "blank-line-ends-group"))
    );
}

#[test]
fn truncation_is_reported() {
    let text = "User-agent: *\nDisallow: /a\nDisallow: /b\n";
    let robots = Robots::parse_with(
        text.as_bytes(),
        &Options {
            dialect: DialectId::Rfc9309,
            max_bytes: 28,
        },
    );
    assert!(robots.truncated());
    assert!(robots
        .diagnostics()
        .iter()
        .any(|d| d.code == Code::Truncated));
    assert!(!robots.is_allowed("/a", "x"));
    assert!(robots.is_allowed("/b", "x"));
}

#[test]
fn every_code_has_a_message() {
    for code in Code::ALL {
        assert!(
            code.message().ends_with('.') && !code.as_str().is_empty(),
            "{code:?}"
        );
    }
}

#[test]
fn long_lines_are_flagged_where_google_would_cut_them() {
    let text = format!("User-agent: *\nDisallow: /{}\n", "a".repeat(17_000));
    assert!(codes(&text, DialectId::Rfc9309).contains(&(2, "long-line")));
    assert!(codes(&text, DialectId::Google).contains(&(2, "line-too-long")));
}

#[test]
fn ai_preference_findings() {
    let text = "Content-Usage: train-ai=n
User-agent: *
Content-Usage: Train-AI=n
Content-Usage: /my docs/ train-ai=n
Content-Usage: train-ai=yes, bots=n, search=\"n\"
Content-Signal: search=yes, ai-train=maybe, use=reference, foo=bar,
Content-Signal: /x search=no
Content-Usage: train-ai=n, search=y
";
    let robots = Robots::parse(text.as_bytes());
    let found: Vec<(u32, &str, String)> = robots
        .diagnostics()
        .iter()
        .map(|d| {
            (
                d.line,
                d.code.as_str(),
                d.detail.clone().unwrap_or_default(),
            )
        })
        .collect();
    let expected = [
        (1, "preference-outside-group", "Content-Usage"),
        (3, "malformed-content-usage", "Train-AI=n"),
        (4, "content-usage-path-space", "docs/ train-ai=n"),
        (4, "malformed-content-usage", "/ train-ai=n"),
        (5, "unknown-category", "bots"),
        (5, "content-usage-not-y-or-n", "train-ai=yes"),
        (5, "content-usage-not-y-or-n", "search is a string"),
        (6, "content-signal-value", "ai-train=maybe"),
        (6, "unknown-signal", "foo=bar"),
        (6, "content-signal-value", "(empty)"),
        (7, "content-signal-path", "/x search=no"),
    ];
    let got: Vec<(u32, &str, &str)> = found.iter().map(|(l, c, d)| (*l, *c, d.as_str())).collect();
    assert_eq!(got, expected);
    // "train-ai = n" has no raw space in a path: only the parse failure is reported.
    let spaced = codes(
        "User-agent: *\nContent-Usage: /a train-ai = n\n",
        DialectId::Rfc9309,
    );
    assert_eq!(spaced, [(2, "malformed-content-usage")]);
}
