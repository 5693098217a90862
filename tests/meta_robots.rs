//! Page-level rules (`robots_eval::meta`): the robots META tag scanner, `X-Robots-Tag`, the two
//! conflict rules, and the other META tags of seeds 001 and 002.
//!
//! Provenance: examples marked "seed 001" / "seed 002" are the seeds' own (shared/seeds); the
//! directive semantics are semantics.md G.1-G.5; the rest exercises the scanner's edge cases.

mod common;

use common::Rng;

use robots_eval::meta::{
    meta_robots, x_robots_tag, Conflict, DirectiveKind, DocumentState, ImagePreview, MetaRobots,
    Origin, OtherMeta, Resolved, Scope, HEAD_SCAN_LIMIT, MAX_DIRECTIVES,
};

fn head(tags: &str) -> Vec<u8> {
    format!("<!doctype html>\n<html><head><title>t</title>{tags}</head><body>x</body></html>")
        .into_bytes()
}

fn meta(tags: &str, agent: &str) -> MetaRobots {
    meta_robots(&head(tags), agent)
}

fn kinds(m: &MetaRobots) -> Vec<DirectiveKind> {
    m.directives.iter().map(|d| d.kind.clone()).collect()
}

// ----------------------------------------------------------------------------------------------
// The scanner
// ----------------------------------------------------------------------------------------------

#[test]
fn basic_noindex_nofollow() {
    // Seed 002's example head.
    let html = b"<html>\n<head>\n  <meta name=\"robots\" content=\"noindex,nofollow\">\n  <title>...</title>\n</head>\n<body>\n  ...\n</body>\n</html>";
    let m = meta_robots(html, "anybot");
    assert!(!m.resolved.index && !m.resolved.follow);
    assert_eq!(kinds(&m), [DirectiveKind::NoIndex, DirectiveKind::NoFollow]);
    assert_eq!(m.directives[0].scope, Scope::Generic);
    assert_eq!(m.directives[0].origin, Origin::Meta);
    assert_eq!(m.directives[1].raw, "nofollow");
    assert!(!m.truncated);
}

#[test]
fn no_tags_means_the_defaults() {
    for html in [
        &b""[..],
        b"<html><head></head><body></body></html>",
        b"plain text",
        b"<meta name=robots>",
    ] {
        let m = meta_robots(html, "googlebot");
        assert_eq!(m.resolved, Resolved::default());
        assert!(m.directives.is_empty());
    }
    let d = Resolved::default();
    assert!(d.index && d.follow && d.archive && d.snippet && d.image_index && d.translate);
    assert_eq!(
        (
            d.max_snippet,
            d.max_image_preview,
            d.max_video_preview,
            d.unavailable_after_ms
        ),
        (None, None, None, None)
    );
}

#[test]
fn attribute_syntax_variants() {
    let variants = [
        r#"<meta name="robots" content="noindex">"#,
        r#"<meta content="noindex" name="robots">"#,
        r#"<META NAME="ROBOTS" CONTENT="NOINDEX">"#,
        r#"<meta name='robots' content='noindex'>"#,
        r#"<meta name=robots content=noindex>"#,
        r#"<meta name=robots content=noindex />"#,
        r#"<meta name="robots" content="noindex" />"#,
        "<meta\n\tname = \"robots\"\r\n  content\n=\n'noindex'\n>",
        r#"<meta charset="utf-8" name="robots" data-x="a>b" content="noindex">"#,
        r#"<meta/name="robots"/content="noindex">"#,
        r#"<meta name="robots" name="other" content="noindex" content="index">"#,
        r#"<meta name=" Robots " content=" noindex ">"#,
    ];
    for (k, v) in variants.iter().enumerate() {
        let m = meta(v, "x");
        assert!(!m.resolved.index, "variant {k}: {v}");
        assert_eq!(m.directives.len(), 1, "variant {k}: {v}");
    }
    // An unterminated quote swallows the rest of the document: no tag, nothing applied.
    let m = meta_robots(
        br#"<head><meta name="robots" content="noindex></head><body>"#,
        "x",
    );
    assert!(m.resolved.index);
    // Unquoted values run to whitespace or `>`, so a `/` right after one is part of it (HTML).
    assert_eq!(
        kinds(&meta(r#"<meta name=robots content=noindex/>"#, "x")),
        [DirectiveKind::Unknown]
    );
    // A value-less content attribute is empty.
    let m = meta(r#"<meta name="robots" content>"#, "x");
    assert!(m.directives.is_empty());
}

#[test]
fn entities_in_values() {
    let m = meta(
        r#"<meta name="robots" content="noindex&#44;nofollow&#x2C; noarchive&#X2c;nosnippet">"#,
        "x",
    );
    assert_eq!(
        kinds(&m),
        [
            DirectiveKind::NoIndex,
            DirectiveKind::NoFollow,
            DirectiveKind::NoArchive,
            DirectiveKind::NoSnippet
        ]
    );
    let m = meta(
        r#"<meta name="robots" content="noindex&comma;nofollow">"#,
        "x",
    );
    assert!(!m.resolved.index && !m.resolved.follow);
    let m = meta(r#"<meta name="&#114;obots" content="noindex">"#, "x");
    assert!(!m.resolved.index, "entities in the name are decoded too");
    let m = meta(
        r#"<meta name="description" content="Mary&#39;s &amp; Joe&apos;s &quot;Antiques&quot; &lt;3 &amp &ampx &unknown; &#0; &#x110000; &#xD800; &#">"#,
        "x",
    );
    assert_eq!(
        m.other.description.as_deref(),
        Some("Mary's & Joe's \"Antiques\" <3 & &ampx &unknown; \u{FFFD} \u{FFFD} \u{FFFD} &#")
    );
    // Legacy references before `=` stay text in attribute values (HTML).
    let m = meta(
        r#"<meta name="url" content="http://e.com/?a=1&amp=2&copy=3&lt;">"#,
        "x",
    );
    assert_eq!(
        m.other.url.as_deref(),
        Some("http://e.com/?a=1&amp=2&copy=3<")
    );
    // Non-UTF-8 bytes become U+FFFD rather than failing.
    let mut html = head(r#"<meta name="description" content="caf"#);
    let at = html.windows(3).position(|w| w == b"caf").unwrap() + 3;
    html.splice(at..at, [0xE9, b'"', b'>']);
    let m = meta_robots(&html, "x");
    assert_eq!(m.other.description.as_deref(), Some("caf\u{FFFD}"));
}

#[test]
fn comments_and_raw_text_are_skipped() {
    let skipped = [
        r#"<!-- <meta name="robots" content="noindex"> -->"#,
        r#"<!--<meta name="robots" content="noindex">--!>"#,
        r#"<script>document.write('<meta name="robots" content="noindex">')</script>"#,
        r#"<SCRIPT type="text/javascript">var s = "</scripty><meta name=robots content=noindex>";</SCRIPT >"#,
        r#"<style>/* <meta name="robots" content="noindex"> */</style>"#,
        r#"<title><meta name="robots" content="noindex"></title>"#,
        r#"<template><meta name="robots" content="noindex"></template>"#,
        r#"<textarea><meta name="robots" content="noindex"></textarea>"#,
        r#"<![CDATA[ x ]]><?php echo 1 ?>"#,
    ];
    for s in skipped {
        let m = meta(s, "x");
        assert!(m.resolved.index, "{s}");
        assert!(m.directives.is_empty(), "{s}");
    }
    // After each of those, scanning resumes.
    for s in skipped {
        let m = meta(
            &format!(r#"{s}<meta name="robots" content="nofollow">"#),
            "x",
        );
        assert_eq!(kinds(&m), [DirectiveKind::NoFollow], "{s}");
    }
    // `<!-->` and `<!--->` close at once, as in HTML.
    for s in ["<!-->", "<!--->"] {
        let m = meta(
            &format!(r#"{s}<meta name="robots" content="noindex">"#),
            "x",
        );
        assert!(!m.resolved.index, "{s}");
    }
    // An unclosed comment or script hides everything after it.
    assert!(
        meta_robots(br#"<head><!-- <meta name="robots" content="noindex">"#, "x")
            .directives
            .is_empty()
    );
    assert!(meta_robots(
        br#"<head><script><meta name="robots" content="noindex">"#,
        "x"
    )
    .directives
    .is_empty());
}

#[test]
fn scanning_stops_at_the_end_of_the_head() {
    let stop = [
        r#"<html><head></head><meta name="robots" content="noindex">"#,
        r#"<html><head></HEAD ><meta name="robots" content="noindex">"#,
        r#"<html><head><body><meta name="robots" content="noindex">"#,
        r#"<html><BODY class="x"><meta name="robots" content="noindex">"#,
        r#"</body><meta name="robots" content="noindex">"#,
    ];
    for s in stop {
        let m = meta_robots(s.as_bytes(), "x");
        assert!(m.resolved.index, "{s}");
        assert!(!m.truncated);
    }
    // Lookalikes do not stop it.
    let go_on = [
        r#"<head><bodyguard></bodyguard><meta name="robots" content="noindex">"#,
        r#"<head><header></header><meta name="robots" content="noindex">"#,
        r#"<head>a < b <meta name="robots" content="noindex">"#,
        r#"<head></><meta name="robots" content="noindex">"#,
        r#"<meta name="robots" content="noindex">"#,
    ];
    for s in go_on {
        assert!(!meta_robots(s.as_bytes(), "x").resolved.index, "{s}");
    }
}

#[test]
fn huge_heads_are_capped_and_say_so() {
    let mut html = b"<html><head>".to_vec();
    html.extend(std::iter::repeat_n(b'a', HEAD_SCAN_LIMIT));
    html.extend_from_slice(br#"<meta name="robots" content="noindex"></head>"#);
    let m = meta_robots(&html, "x");
    assert!(m.truncated);
    assert!(m.resolved.index, "a tag past the cap is not seen");
    // A head that ends early is complete, however long the body.
    let mut html = br#"<html><head><meta name="robots" content="noindex"></head><body>"#.to_vec();
    html.extend(std::iter::repeat_n(b'a', 2 * HEAD_SCAN_LIMIT));
    let m = meta_robots(&html, "x");
    assert!(!m.truncated);
    assert!(!m.resolved.index);
}

#[test]
fn directive_count_is_capped() {
    let content = "nofollow,".repeat(MAX_DIRECTIVES + 10) + "noindex";
    let m = meta(&format!(r#"<meta name="robots" content="{content}">"#), "x");
    assert_eq!(m.directives.len(), MAX_DIRECTIVES);
    assert!(m.truncated);
    let values: Vec<String> = (0..MAX_DIRECTIVES + 1)
        .map(|_| "noarchive".to_string())
        .collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let h = x_robots_tag(&refs, "x");
    assert!(h.truncated && h.directives.len() == MAX_DIRECTIVES);
}

// ----------------------------------------------------------------------------------------------
// Which tags apply to which crawler
// ----------------------------------------------------------------------------------------------

#[test]
fn agent_specific_names() {
    let tags = r#"<meta name="robots" content="noarchive">
        <meta name="googlebot" content="nosnippet">
        <meta name="googlebot-news" content="noindex">
        <meta name="bingbot" content="nofollow">"#;
    // Generic + own name.
    let g = meta(tags, "Googlebot");
    assert!(!g.resolved.archive && !g.resolved.snippet);
    assert!(g.resolved.index && g.resolved.follow);
    assert_eq!(g.directives[1].scope, Scope::Agent("googlebot".into()));
    // A full User-Agent is cut to its product token.
    assert_eq!(
        meta(tags, "Googlebot/2.1 (+http://www.google.com/bot.html)").resolved,
        g.resolved
    );
    // googlebot-news: its own tag, the googlebot family tag, and the generic one.
    let n = meta(tags, "googlebot-news");
    assert!(!n.resolved.index && !n.resolved.snippet && !n.resolved.archive && n.resolved.follow);
    // Another crawler sees only its own and the generic tag.
    let b = meta(tags, "bingbot");
    assert!(!b.resolved.follow && !b.resolved.archive && b.resolved.snippet && b.resolved.index);
    let x = meta(tags, "OtherBot");
    assert_eq!(kinds(&x), [DirectiveKind::NoArchive]);
    // Prefixes apply only up to a hyphen, and never the other way round.
    assert_eq!(
        kinds(&meta(
            r#"<meta name="google" content="noindex">"#,
            "googlebot"
        )),
        []
    );
    assert_eq!(
        kinds(&meta(
            r#"<meta name="googlebot-news" content="noindex">"#,
            "googlebot"
        )),
        []
    );
    assert_eq!(
        kinds(&meta(
            r#"<meta name="GOOGLEBOT" content="noindex">"#,
            "googlebot-image"
        )),
        [DirectiveKind::NoIndex]
    );
    // An empty agent sees only generic tags.
    assert_eq!(kinds(&meta(tags, "")), [DirectiveKind::NoArchive]);
    assert_eq!(kinds(&meta(tags, "/2.1")), [DirectiveKind::NoArchive]);
}

// ----------------------------------------------------------------------------------------------
// Directives and the MostRestrictive rule
// ----------------------------------------------------------------------------------------------

fn resolved(content: &str) -> Resolved {
    meta(&format!(r#"<meta name="robots" content="{content}">"#), "x").resolved
}

#[test]
fn directive_semantics() {
    let r = resolved("none");
    assert!(!r.index && !r.follow);
    let r = resolved("all");
    assert!(r.index && r.follow);
    assert!(!resolved("noarchive").archive);
    assert!(!resolved("NOCACHE").archive, "Bing's nocache is noarchive");
    assert!(resolved("archive").archive);
    assert!(!resolved("noimageindex").image_index);
    assert!(!resolved("notranslate").translate);
    assert!(resolved("indexifembedded").index_if_embedded);
    let r = resolved("noindex, indexifembedded");
    assert!(!r.index && r.index_if_embedded);
    let r = resolved("nosnippet");
    assert_eq!((r.snippet, r.max_snippet), (false, Some(0)));
    let r = resolved("max-snippet:0");
    assert_eq!((r.snippet, r.max_snippet), (false, Some(0)));
    let r = resolved("max-snippet:-1");
    assert_eq!((r.snippet, r.max_snippet), (true, None));
    let r = resolved("max-snippet: 50");
    assert_eq!((r.snippet, r.max_snippet), (true, Some(50)));
    assert_eq!(
        resolved("max-image-preview:LARGE").max_image_preview,
        Some(ImagePreview::Large)
    );
    assert_eq!(resolved("max-video-preview:-1").max_video_preview, None);
    assert_eq!(resolved("max-video-preview:0").max_video_preview, Some(0));
    assert_eq!(resolved("max-video-preview:15").max_video_preview, Some(15));
}

#[test]
fn most_restrictive_wins() {
    let r = resolved("index, noindex, follow, nofollow, all");
    assert!(
        !r.index && !r.follow,
        "noindex beats index, nofollow beats follow, all lifts nothing"
    );
    // G.5's example: max-snippet:50 with nosnippet gives nosnippet.
    let r = resolved("max-snippet:50, nosnippet");
    assert_eq!((r.snippet, r.max_snippet), (false, Some(0)));
    let r = resolved("max-snippet:50, max-snippet:20, max-snippet:-1");
    assert_eq!(r.max_snippet, Some(20));
    let r = resolved("max-image-preview:large, max-image-preview:none, max-image-preview:standard");
    assert_eq!(r.max_image_preview, Some(ImagePreview::None));
    let r = resolved("max-video-preview:30, max-video-preview:-1, max-video-preview:10");
    assert_eq!(r.max_video_preview, Some(10));
    let r = resolved("unavailable_after: 2030-01-01, unavailable_after: 2010-06-25");
    assert_eq!(r.unavailable_after_ms, Some(1_277_424_000_000));
    // Across tags and with agent-specific tags.
    let m = meta(
        r#"<meta name="robots" content="index, max-snippet:80"><meta name="googlebot" content="noindex, max-snippet:10">"#,
        "googlebot",
    );
    assert!(!m.resolved.index);
    assert_eq!(m.resolved.max_snippet, Some(10));
}

#[test]
fn invalid_and_unknown_directives_are_kept_as_data() {
    let m = meta(
        r#"<meta name="robots" content="max-snippet:abc, max-snippet:-2, max-snippet:1.5, max-image-preview:huge, max-video-preview:, unavailable_after:, noindex:yes, noodp, noai, , ,  ">"#,
        "x",
    );
    assert_eq!(
        kinds(&m),
        [
            DirectiveKind::Invalid,
            DirectiveKind::Invalid,
            DirectiveKind::Invalid,
            DirectiveKind::Invalid,
            DirectiveKind::Invalid,
            DirectiveKind::Invalid,
            DirectiveKind::Invalid,
            DirectiveKind::Unknown,
            DirectiveKind::Unknown,
        ]
    );
    assert_eq!(
        m.resolved,
        Resolved::default(),
        "none of these changes anything"
    );
    assert_eq!(m.directives[7].raw, "noodp");
    // `noindex:` with nothing after the colon is still noindex.
    assert!(!resolved("noindex:").index);
    // An unreadable unavailable_after date is kept but ignored.
    let m = meta(
        r#"<meta name="robots" content="unavailable_after: next tuesday">"#,
        "x",
    );
    assert_eq!(
        kinds(&m),
        [DirectiveKind::UnavailableAfter {
            date: "next tuesday".into(),
            at_ms: None
        }]
    );
    assert_eq!(m.resolved.unavailable_after_ms, None);
}

#[test]
fn unavailable_after_date_formats() {
    let at = |v: &str| match &x_robots_tag(&[&format!("unavailable_after: {v}")], "x").directives[..]
    {
        [d] => match &d.kind {
            DirectiveKind::UnavailableAfter { date, at_ms } => {
                assert_eq!(date, v.trim());
                *at_ms
            }
            k => panic!("{v}: {k:?}"),
        },
        ds => panic!("{v}: {ds:?}"),
    };
    let t = Some(1_277_506_800_000); // 2010-06-25T23:00:00Z
    for v in [
        "25 Jun 2010 15:00:00 PST", // Google's example
        "25 Jun 2010 16:00:00 PDT",
        "25 Jun 2010 23:00:00 GMT",
        "25 Jun 2010 23:00 UTC",
        "25 Jun 2010 23:00:00",
        "25 Jun 10 23:00:00 GMT",
        "Fri, 25 Jun 2010 23:00:00 GMT",
        "Friday, 25-Jun-10 23:00:00 GMT",
        "Fri Jun 25 23:00:00 2010",
        "25 Jun 2010 18:00:00 -0500",
        "25 Jun 2010 18:00:00 EST",
        "2010-06-25T23:00:00Z",
        "2010-06-25T23:00:00.123Z",
        "2010-06-26T01:00:00+02:00",
        "2010-06-26T01:00:00+0200",
        "2010-06-25T22:00:00-01",
        "2010-06-25 23:00:00",
        "2010-06-25t23:00z",
    ] {
        assert_eq!(at(v), t, "{v}");
    }
    assert_eq!(at("2010-06-25"), Some(1_277_424_000_000));
    assert_eq!(at("25 Jun 2010"), Some(1_277_424_000_000));
    assert_eq!(
        at("25 Jun 99 00:00:00 GMT").map(|t| t < 1_000_000_000_000),
        Some(true),
        "99 is 1999"
    );
    for bad in [
        "2010-13-01",
        "2010-02-30T00:00:00Z",
        "2010-06-25T25:00:00Z",
        "2010-06-25X",
        "25 Jun 2010 23:00:00 XYZ",
        "31 Feb 2010",
        "Jun 2010",
        "2010-06-25T23:00:00+24:00",
    ] {
        assert_eq!(at(bad), None, "{bad}");
    }
}

// ----------------------------------------------------------------------------------------------
// X-Robots-Tag
// ----------------------------------------------------------------------------------------------

#[test]
fn x_robots_tag_lists_and_bot_names() {
    let m = x_robots_tag(&["noindex, nofollow"], "googlebot");
    assert!(!m.resolved.index && !m.resolved.follow);
    assert!(m
        .directives
        .iter()
        .all(|d| d.origin == Origin::Header && d.scope == Scope::Generic));
    // MDN / Google: a bot name scopes the rest of that header value.
    let v = ["googlebot: noindex, nofollow", "otherbot: noarchive"];
    let g = x_robots_tag(&v, "Googlebot");
    assert!(!g.resolved.index && !g.resolved.follow && g.resolved.archive);
    assert!(g
        .directives
        .iter()
        .all(|d| d.scope == Scope::Agent("googlebot".into())));
    let o = x_robots_tag(&v, "otherbot");
    assert!(o.resolved.index && o.resolved.follow && !o.resolved.archive);
    let n = x_robots_tag(&v, "bingbot");
    assert!(n.directives.is_empty());
    // Generic first, then scoped.
    let m = x_robots_tag(
        &["nosnippet, bingbot: noindex, googlebot:nofollow"],
        "googlebot",
    );
    assert_eq!(
        kinds(&m),
        [DirectiveKind::NoSnippet, DirectiveKind::NoFollow]
    );
    // Several values and several directives per value combine.
    let m = x_robots_tag(
        &[
            "noarchive",
            "max-snippet:20",
            "max-snippet: 10, notranslate",
        ],
        "x",
    );
    assert!(!m.resolved.archive && !m.resolved.translate);
    assert_eq!(m.resolved.max_snippet, Some(10));
    // A bot name with nothing after it only sets the scope.
    let m = x_robots_tag(&["googlebot:, noindex"], "otherbot");
    assert!(m.directives.is_empty());
    // Something that is neither a known directive nor a bot name is unknown.
    let m = x_robots_tag(&["foo bar: noindex"], "x");
    assert_eq!(kinds(&m), [DirectiveKind::Unknown]);
    // The bot-name form is a header feature; in META content it is just unknown.
    let m = meta(
        r#"<meta name="robots" content="googlebot: noindex">"#,
        "googlebot",
    );
    assert_eq!(kinds(&m), [DirectiveKind::Unknown]);
}

#[test]
fn x_robots_tag_unavailable_after_is_not_a_bot_name() {
    let t = Some(1_277_506_800_000);
    let m = x_robots_tag(
        &["unavailable_after: 25 Jun 2010 15:00:00 PST"],
        "googlebot",
    );
    assert_eq!(m.resolved.unavailable_after_ms, t);
    assert_eq!(m.directives[0].scope, Scope::Generic);
    let m = x_robots_tag(
        &["googlebot: unavailable_after: 25 Jun 2010 15:00:00 PST, noindex"],
        "googlebot",
    );
    assert_eq!(m.resolved.unavailable_after_ms, t);
    assert!(!m.resolved.index);
    assert_eq!(m.directives[0].scope, Scope::Agent("googlebot".into()));
    // The comma after a day name belongs to the date.
    let m = x_robots_tag(
        &["unavailable_after: Friday, 25-Jun-10 23:00:00 GMT, noindex"],
        "x",
    );
    assert_eq!(m.resolved.unavailable_after_ms, t);
    assert_eq!(
        m.directives[0].raw,
        "unavailable_after: Friday, 25-Jun-10 23:00:00 GMT"
    );
    assert_eq!(kinds(&m)[1], DirectiveKind::NoIndex);
    let m = x_robots_tag(&["unavailable_after: Fri, 25 Jun 2010 23:00:00 GMT"], "x");
    assert_eq!(m.resolved.unavailable_after_ms, t);
    // A day name at the very end has nothing to join.
    let m = x_robots_tag(&["unavailable_after: Friday"], "x");
    assert_eq!(m.resolved.unavailable_after_ms, None);
    // Known names with values are never bot names.
    let m = x_robots_tag(
        &[
            "max-snippet:20",
            "max-image-preview:standard",
            "max-video-preview:5",
        ],
        "x",
    );
    assert!(m.directives.iter().all(|d| d.scope == Scope::Generic));
    assert_eq!(m.resolved.max_image_preview, Some(ImagePreview::Standard));
}

#[test]
fn header_and_meta_combine_most_restrictively() {
    let mut m = meta(
        r#"<meta name="robots" content="index, follow, max-snippet:100"><meta name="description" content="d">"#,
        "googlebot",
    );
    assert!(m.resolved.index);
    m.combine(x_robots_tag(
        &["googlebot: noindex, max-snippet:30"],
        "googlebot",
    ));
    assert!(!m.resolved.index && m.resolved.follow);
    assert_eq!(m.resolved.max_snippet, Some(30));
    assert_eq!(m.other.description.as_deref(), Some("d"));
    assert!(m.directives.iter().any(|d| d.origin == Origin::Header));
    assert!(m.directives.iter().any(|d| d.origin == Origin::Meta));
    // The seed rule can still be asked for on the combined list.
    assert!(m.resolve(Conflict::Seed001).index);
}

// ----------------------------------------------------------------------------------------------
// Conflict rules: today's versus seed 001's
// ----------------------------------------------------------------------------------------------

fn both(content: &str) -> (Resolved, Resolved) {
    let m = meta(&format!(r#"<meta name="ROBOTS" content="{content}">"#), "x");
    assert_eq!(m.resolved, m.resolve(Conflict::MostRestrictive));
    assert_eq!(Conflict::default(), Conflict::MostRestrictive);
    (
        m.resolve(Conflict::MostRestrictive),
        m.resolve(Conflict::Seed001),
    )
}

#[test]
fn conflict_modes() {
    // (content, today: index, follow, seed 001: index, follow)
    let rows: &[(&str, [bool; 4])] = &[
        ("", [true, true, true, true]),
        ("INDEX, FOLLOW", [true, true, true, true]),
        // Seed 001: "(в этом случае FOLLOW)" — FOLLOW wins a FOLLOW/NOFOLLOW conflict.
        ("FOLLOW, NOFOLLOW", [true, false, true, true]),
        ("NOFOLLOW, FOLLOW", [true, false, true, true]),
        // The positive term wins INDEX/NOINDEX too (our reading of the same sentence).
        ("INDEX, NOINDEX", [false, true, true, true]),
        // Seed 001: ALL overrides every other term.
        ("ALL, NONE", [false, false, true, true]),
        ("NOINDEX, NOFOLLOW, ALL", [false, false, true, true]),
        ("NONE", [false, false, false, false]),
        ("NONE, INDEX", [false, false, true, false]),
        // Seed 001: "If robot_terms contains only NOINDEX, the links ... are not indexed".
        ("NOINDEX", [false, true, false, false]),
        ("NOINDEX, NOINDEX", [false, true, false, false]),
        ("NOINDEX, NOARCHIVE", [false, true, false, false]),
        ("NOINDEX, FOLLOW", [false, true, false, true]),
        // Seed 001: "If robot_terms contains only NOFOLLOW, the page is indexed and the links ignored".
        ("NOFOLLOW", [true, false, true, false]),
        // Seed 002's example of contradictory terms ("behaviour probably undefined").
        (
            "INDEX,NOINDEX,NOFOLLOW,FOLLOW,FOLLOW",
            [false, false, true, true],
        ),
    ];
    for (content, [ti, tf, si, sf]) in rows {
        let (today, seed) = both(content);
        assert_eq!(
            (today.index, today.follow),
            (*ti, *tf),
            "today: {content:?}"
        );
        assert_eq!(
            (seed.index, seed.follow),
            (*si, *sf),
            "seed 001: {content:?}"
        );
    }
    // Directives the seed does not know resolve as today.
    let (today, seed) = both("FOLLOW, NOFOLLOW, nosnippet, max-snippet:5, noarchive");
    assert_eq!((today.snippet, today.archive), (seed.snippet, seed.archive));
    assert!(!seed.snippet && !seed.archive);
}

// ----------------------------------------------------------------------------------------------
// The other META tags (seeds 001 and 002)
// ----------------------------------------------------------------------------------------------

/// The other META data of a head with the one tag `<meta name="{name}" content="{content}">`.
fn one_tag(name: &str, content: &str) -> OtherMeta {
    meta(&format!(r#"<meta name="{name}" content="{content}">"#), "x").other
}

#[test]
fn other_meta_tags() {
    let tags = r#"
        <META NAME="DESCRIPTION" CONTENT="Welcome to Mary's Antiques web site">
        <meta name="description" content="second description is ignored">
        <meta name="keywords" content="antiques,mary, furniture ,,restoration">
        <meta name="KEYWORDS" content="more">
        <META NAME="DOCUMENT-STATE" CONTENT="DYNAMIC">
        <META NAME="URL" CONTENT="http://www.marys-antiques.com/">
        <meta name="revisit-after" content="10 days">"#;
    let m = meta(tags, "x");
    let o = &m.other;
    assert_eq!(
        o.description.as_deref(),
        Some("Welcome to Mary's Antiques web site")
    );
    assert_eq!(
        o.keywords,
        ["antiques", "mary", "furniture", "restoration", "more"]
    );
    assert_eq!(o.document_state, Some(DocumentState::Dynamic));
    assert_eq!(o.url.as_deref(), Some("http://www.marys-antiques.com/"));
    let r = o.revisit_after.as_ref().unwrap();
    assert_eq!((r.raw.as_str(), r.days), ("10 days", Some(10)));
    assert!(m.directives.is_empty());

    let state = |v: &str| one_tag("document-state", v).document_state;
    assert_eq!(state("static"), Some(DocumentState::Static));
    assert_eq!(state(" Static "), Some(DocumentState::Static));
    assert_eq!(
        state("sometimes"),
        Some(DocumentState::Other("sometimes".into()))
    );
    assert_eq!(meta("", "x").other.document_state, None);

    let days = |v: &str| one_tag("revisit-after", v).revisit_after.unwrap().days;
    assert_eq!(days("1 day"), Some(1));
    assert_eq!(days("7"), Some(7));
    assert_eq!(days("30DAYS"), Some(30));
    assert_eq!(days("2 weeks"), None);
    assert_eq!(days("soon"), None);
    assert_eq!(days("99999999999 days"), None);
    // Headers carry no such data.
    assert_eq!(x_robots_tag(&["noindex"], "x").other, Default::default());
}

// ----------------------------------------------------------------------------------------------
// Never panics, stays linear
// ----------------------------------------------------------------------------------------------

/// Random input from a fixed seed (`common::Rng`).
trait Pieces {
    /// Markup-shaped noise: pieces that steer the scanner into every state, glued at random,
    /// with raw random bytes mixed in.
    fn html(&mut self, max_pieces: usize) -> Vec<u8>;
}

impl Pieces for Rng {
    fn html(&mut self, max_pieces: usize) -> Vec<u8> {
        const PIECES: &[&[u8]] = &[
            b"<",
            b">",
            b"</",
            b"/>",
            b"<!--",
            b"-->",
            b"--!>",
            b"<!",
            b"<?",
            b"<meta",
            b"<META ",
            b" name=",
            b"name=\"robots\"",
            b" content=",
            b"\"",
            b"'",
            b"=",
            b" ",
            b"\n",
            b"noindex",
            b",",
            b":",
            b"googlebot",
            b"googlebot:",
            b"unavailable_after:",
            b"Friday,",
            b"max-snippet:",
            b"-1",
            b"99999999999999",
            b"&",
            b"&#",
            b"&#x",
            b"&amp",
            b";",
            b"<script>",
            b"</script",
            b"<style",
            b"</head>",
            b"<body",
            b"<title>",
            b"\xff",
            b"\xe3\x83",
            b"\0",
            b"2010-06-25T",
            b"+01:00",
        ];
        let n = self.below(max_pieces + 1);
        let mut out = Vec::new();
        for _ in 0..n {
            if self.below(8) == 0 {
                out.push(self.next() as u8);
            } else {
                out.extend_from_slice(PIECES[self.below(PIECES.len())]);
            }
        }
        out
    }
}

#[test]
fn never_panics_on_arbitrary_input() {
    let mut rng = Rng(0x243F_6A88_85A3_08D3);
    let agents = [
        "",
        "googlebot",
        "Googlebot-News/1.0",
        "robots",
        "*",
        "ツ",
        "a-",
    ];
    for round in 0..20_000 {
        let html = rng.html(40);
        let agent = agents[round % agents.len()];
        let m = meta_robots(&html, agent);
        assert!(m.directives.len() <= MAX_DIRECTIVES);
        for c in [Conflict::MostRestrictive, Conflict::Seed001] {
            let r = m.resolve(c);
            assert_eq!(r.snippet, r.max_snippet != Some(0));
        }
        let header = String::from_utf8_lossy(&html).into_owned();
        let h = x_robots_tag(&[&header, &header], agent);
        let mut all = m.clone();
        all.combine(h);
        assert!(all.directives.len() <= MAX_DIRECTIVES);
    }
}

#[test]
fn adversarial_inputs_stay_linear() {
    // Each would be quadratic in a naive scanner (rescanning for a terminator from every start).
    let n = 4 << 20;
    let inputs: Vec<Vec<u8>> = vec![
        b"<".repeat(n),
        b"<a".repeat(n / 2),
        b"<!--".repeat(n / 4),
        b"<!-".repeat(n / 3),
        b"<script>".repeat(n / 8),
        b"<script></scrip".repeat(n / 15),
        [
            &b"<meta name=\"robots\" content=\""[..],
            &b"noindex,".repeat(n / 8),
        ]
        .concat(),
        b"<meta name=".repeat(n / 11),
        b"<meta a".repeat(n / 7),
        b"<meta name=robots content=&#".repeat(n / 27),
        b"&#99999999999999999999".repeat(n / 22),
        [&b"<meta name=robots content='"[..], &b"&".repeat(n), b"'>"].concat(),
        b"\xff".repeat(n),
    ];
    let started = std::time::Instant::now();
    for html in &inputs {
        let m = meta_robots(html, "googlebot");
        assert!(m.directives.len() <= MAX_DIRECTIVES);
    }
    let headers = [
        ",".repeat(n),
        "a:".repeat(n / 2),
        "googlebot: ".repeat(n / 11),
        "unavailable_after: Friday,".repeat(n / 26),
        "max-snippet:".to_string() + &"9".repeat(n),
        "unavailable_after: ".to_string() + &" 1".repeat(n / 2),
    ];
    for h in &headers {
        let m = x_robots_tag(&[h], "googlebot");
        assert!(m.directives.len() <= MAX_DIRECTIVES);
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "took {:?}",
        started.elapsed()
    );
}
