//! What each fuzz target checks, as plain functions: the targets call them, and
//! `tests/regressions.rs` (through `#[path]`) replays saved inputs through the very same code.
//! `meta` and `fetch` need the `lifecycle` feature: robots-eval's own where the tests include
//! this file (so `cargo test --no-default-features` builds without them), the fuzz crate's
//! mirror of it here (on by default).
#![allow(dead_code)]

use core::num::NonZeroUsize;

use robots_eval::{hot, DialectId, Options, Reason, RecordKind, RecordView, Robots, Selection};

/// The agents every parsed file is asked about.
const AGENTS: [&str; 4] = ["*", "Googlebot", "foobot", ""];

/// How long `parse_large` makes its input: past google/robotstxt's 16,663-byte line cap.
const LARGE: usize = 17 * 1024;

/// `parse` target: byte 0 picks the dialect (`byte % 5`) and, from `0xF0` up, a small size cap
/// (`(byte & 0x0F) * 7` bytes: truncation); the rest is the robots.txt. Every view of the result
/// is readable and consistent, and reparsing into a used value gives the same result.
pub fn parse(data: &[u8]) {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let max_bytes = if pick >= 0xF0 {
        usize::from(pick & 0x0F) * 7
    } else {
        robots_eval::DEFAULT_MAX_BYTES
    };
    parse_checked(text, pick, max_bytes);
}

/// `parse_large` target: byte 0 picks the dialect; the rest (at most 256 bytes) is repeated to
/// over 17 KB, so one input is a line past google's cap, or hundreds of groups and rules. Large
/// files from small inputs: the fuzzer mutates 256 bytes, not 17 KB. Its own target because each
/// run parses 17 KB several times: mixed into `parse`, such inputs took most of its time.
pub fn parse_large(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let rest = &rest[..rest.len().min(256)];
    if rest.is_empty() {
        return;
    }
    let text = rest.repeat(LARGE / rest.len() + 1);
    parse_checked(&text, pick, robots_eval::DEFAULT_MAX_BYTES);
}

fn parse_checked(text: &[u8], pick: u8, max_bytes: usize) {
    let dialect = DialectId::ALL[usize::from(pick) % DialectId::ALL.len()];
    let options = Options { dialect, max_bytes };
    let robots = Robots::parse_with(text, &options);
    consistent(&robots, text.len(), max_bytes);
    // Reparsed into a value that held another file, with rule sets its queries compiled: the
    // same parsed form as a fresh parse.
    let mut reused = Robots::parse(&text[text.len() / 2..]);
    let _ = reused.is_allowed("/", "foobot");
    reused.reparse(text, &options);
    same_parse(&reused, &robots);
    // The whole value, internal indexes included, on one small input in 32: formatting it costs
    // ten times what parsing does (in 1 in 8 it was still a seventh of the target's time), and
    // `same_parse` already compares everything a caller can see.
    if text.len() <= 4096 && text.len() % 32 == 0 {
        assert_eq!(
            format!("{reused:?}"),
            format!("{robots:?}"),
            "{dialect:?}: reparse differs"
        );
    }
}

/// Every view of a parsed file is readable and consistent: lines in range, rules belong to
/// their group, the truncation flag, finite delays; a query per agent.
fn consistent(robots: &Robots, len: usize, max_bytes: usize) {
    assert!(robots.bytes_read() <= len.min(max_bytes));
    assert_eq!(robots.truncated(), len > max_bytes);
    let lines = robots.line_count();
    for d in robots.diagnostics() {
        assert!(
            d.line <= lines,
            "diagnostic {d:?} past the last line {lines}"
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
            let _ = rule.kind.as_str();
            rules_in_groups += 1;
        }
        for rec in g.records() {
            assert_eq!(rec.group, Some(g.index()));
        }
    }
    assert_eq!(rules_in_groups, robots.rule_count());
    for rec in robots.records() {
        assert!(rec.line >= 1 && rec.line <= lines);
        let _ = rec.kind.as_str();
    }
    for agent in AGENTS {
        if let Some(delay) = robots.crawl_delay(agent) {
            assert!(delay >= 0.0 && delay.is_finite());
        }
        verdict(robots, "/", agent);
    }
}

/// Two parses of one file read the same through every view, and answer alike.
fn same_parse(a: &Robots, b: &Robots) {
    assert_eq!(
        (a.bytes_read(), a.truncated(), a.line_count()),
        (b.bytes_read(), b.truncated(), b.line_count())
    );
    assert_eq!(a.diagnostics(), b.diagnostics());
    assert_eq!(a.groups().len(), b.groups().len());
    for (x, y) in a.groups().zip(b.groups()) {
        assert_eq!(
            (x.line(), x.rules(), x.is_global()),
            (y.line(), y.rules(), y.is_global())
        );
        assert!(x.agents().eq(y.agents()));
        assert!(x.records().map(|r| r.line).eq(y.records().map(|r| r.line)));
    }
    assert_eq!(a.rule_count(), b.rule_count());
    for i in 0..a.rule_count() {
        let (x, y) = (a.rule(i).unwrap(), b.rule(i).unwrap());
        assert_eq!(
            (x.line, x.kind, x.group, x.pattern, x.normalized),
            (y.line, y.kind, y.group, y.pattern, y.normalized)
        );
    }
    fn record(r: RecordView<'_>) -> (u32, RecordKind, Option<u32>, &str, &str) {
        (r.line, r.kind, r.group, r.field, r.value)
    }
    assert!(a.records().map(record).eq(b.records().map(record)));
    assert!(a.sitemaps().eq(b.sitemaps()));
    for agent in AGENTS {
        assert_eq!(a.check("/", agent), b.check("/", agent));
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
    assert_eq!(robots.check_path(&robots.path(url), v.selection), v);
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
    path_after_site(robots, url, v.selection);
    #[cfg(feature = "aipref")]
    ai_preferences(robots, url, agent, &v);
}

/// The verdict module's shortcut for a URL of a file's known site (wasm/src/lib.rs,
/// `site_and_path`): where the URL is a site that `hot::path_starts_after` accepts followed by
/// `/`, the path read from the site's end is the one `hot::ascii_path`'s search finds, and so is
/// the verdict.
fn path_after_site(robots: &Robots, url: &str, selection: Selection) {
    let bytes = url.as_bytes();
    for k in (0..bytes.len()).filter(|&k| bytes[k] == b'/') {
        if !hot::path_starts_after(&bytes[..k]) {
            continue;
        }
        let from = hot::ascii_path_at(robots, bytes, NonZeroUsize::new(k));
        let search = hot::ascii_path(robots, bytes);
        assert_eq!(
            from.as_ref().map(|p| p.as_bytes()),
            search.as_ref().map(|p| p.as_bytes()),
            "{url:?} read from {k}"
        );
        if let (Some(from), Some(search)) = (&from, &search) {
            assert_eq!(
                robots.check_path(from, selection),
                robots.check_path(search, selection)
            );
        }
    }
}

/// AI preferences agree with the crawl verdict: the same verdict; a disallowed URL has every
/// Content-Usage category unknown, naming the Disallow's line; a stated value names a
/// Content-Usage line of the file; a header only adds.
#[cfg(feature = "aipref")]
fn ai_preferences(robots: &Robots, url: &str, agent: &str, v: &robots_eval::Verdict) {
    use robots_eval::aipref::{Origin, Preference, Why};
    use robots_eval::RecordKind;
    let p = robots.ai_preferences(url, agent, Some(agent.as_bytes()));
    assert_eq!(p.verdict, *v);
    let usage_lines: Vec<u32> = robots
        .records()
        .filter(|r| r.kind == RecordKind::ContentUsage)
        .map(|r| r.line)
        .collect();
    for a in p.content_usage {
        if !v.allowed {
            assert_eq!(a.why, Why::NotCrawlable(robots.line_of(v)));
        }
        if let Some(Origin::Line(line)) = a.why.origin() {
            assert!(
                usage_lines.contains(&line),
                "{a:?} names no Content-Usage line"
            );
        }
        assert_eq!(
            a.preference != Preference::Unknown,
            matches!(a.why, Why::Stated(_))
        );
        let _ = a.why.to_string();
    }
    let (header, combined) = (p.header_usage.expect("asked"), p.combined.expect("asked"));
    for ((r, h), c) in p.content_usage.iter().zip(&header).zip(&combined) {
        assert_eq!(c.preference, r.preference.combine(h.preference));
    }
    if let Some(signals) = p.content_signal {
        for s in signals {
            assert_eq!(s.line.is_some(), s.preference != Preference::Unknown);
        }
    }
    robots.content_signal_extras(v.selection, |line, key, _| {
        assert!(line >= 1 && !key.is_empty());
    });
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

#[cfg(feature = "lifecycle")]
/// `meta` target: any bytes as an HTML document and (after the first `\xFF\xFE`) an agent; the
/// rest, split at `\n`, as X-Robots-Tag header values. Both conflict rules.
pub fn meta(data: &[u8]) {
    use robots_eval::meta::{meta_robots, x_robots_tag, Conflict};
    let (html, rest) = split(data);
    let (agent, headers) = split(rest);
    let agent = String::from_utf8_lossy(agent);
    let headers = String::from_utf8_lossy(headers);
    let values: Vec<&str> = headers.split('\n').collect();
    for found in [meta_robots(html, &agent), x_robots_tag(&values, &agent)] {
        for conflict in [Conflict::MostRestrictive, Conflict::Seed001] {
            let _ = found.resolve(conflict);
        }
    }
}

#[cfg(feature = "lifecycle")]
/// `fetch` target: the fetch policy and the freshness of any outcome and headers. The first 16
/// bytes pick the dialect, the outcome, the status, the clock and the flags; the rest is
/// Retry-After, Cache-Control, Expires, Date and Age, separated by `\xFF\xFE`.
pub fn fetch(data: &[u8]) {
    use robots_eval::fetch::{
        decide, freshness, parse_http_date, CacheHeaders, FetchContext, FetchOutcome,
    };
    if data.len() < 16 {
        return;
    }
    let (head, rest) = data.split_at(16);
    let dialect = DialectId::ALL[usize::from(head[0]) % DialectId::ALL.len()];
    let status = u16::from_le_bytes([head[2], head[3]]);
    let outcome = match head[1] % 4 {
        0 => FetchOutcome::Status(status),
        1 => FetchOutcome::NetworkError,
        2 => FetchOutcome::Timeout,
        _ => FetchOutcome::TooManyRedirects,
    };
    let now_ms = u64::from(u32::from_le_bytes([head[4], head[5], head[6], head[7]])) * 1000;
    let since = u64::from(u32::from_le_bytes([head[8], head[9], head[10], head[11]])) * 1000;
    let flags = head[12];
    let text = String::from_utf8_lossy(rest);
    let mut parts = text.split("\u{FFFD}\u{FFFD}");
    let mut next = || parts.next().filter(|p| !p.is_empty());
    let (retry_after, cache_control, expires, date, age) = (next(), next(), next(), next(), next());
    let ctx = FetchContext {
        now_ms,
        unreachable_since_ms: (flags & 1 != 0).then_some(since),
        has_cached_copy: flags & 2 != 0,
        redirects_followed: head[13],
        site_down: flags & 4 != 0,
        retry_after,
    };
    let d = decide(dialect, &outcome, &ctx);
    let _ = (d.reason, d.message);
    let headers = CacheHeaders {
        cache_control,
        expires,
        date,
        age,
    };
    for shared in [false, true] {
        let f = freshness(dialect, now_ms, &headers, shared);
        assert!(
            f.fresh_until_ms >= now_ms,
            "{f:?}: fresh until before the fetch"
        );
    }
    for value in [retry_after, expires, date].into_iter().flatten() {
        let _ = parse_http_date(value, now_ms);
    }
}

/// `aipref` target: any bytes as a `Content-Usage` value, and as Content-Usage and
/// Content-Signal rule values. A failure lies within the value and leaves every category
/// unknown; SP around the value changes nothing (RFC 9651 §4.2); split at the first `\n` into two
/// valid field lines, the joined field takes each category from the later line that names it
/// (§4.2, VOCAB §6.5.1).
pub fn aipref(data: &[u8]) {
    use robots_eval::aipref::{
        parse_header, read_signals, split_rule, Member, Preference, Statement, COUNT,
    };
    let parsed = Statement::parse(data);
    if let Some(e) = parsed.error() {
        assert!((e.offset as usize) <= data.len(), "{e:?} past the end");
        assert_eq!(parsed.preferences(), [Preference::Unknown; COUNT]);
        let _ = e.failure.as_str();
    }
    let padded = Statement::parse(&[&b" "[..], data, b" "].concat());
    assert_eq!(
        padded.error().is_some(),
        parsed.error().is_some(),
        "SP around"
    );
    assert_eq!(padded.preferences(), parsed.preferences(), "SP around");
    if let Some(at) = data.iter().position(|&b| b == b'\n') {
        let (a, b) = (&data[..at], &data[at + 1..]);
        let (first, second) = (Statement::parse(a), Statement::parse(b));
        let valid = |s: &Statement, v: &[u8]| s.error().is_none() && v.iter().any(|&c| c != b' ');
        if valid(&first, a) && valid(&second, b) {
            let joined = parse_header(&[a, b]);
            assert_eq!(joined.error(), None, "two valid lines");
            for i in 0..COUNT {
                let later = match second.member(i) {
                    Member::Absent => first.member(i),
                    m => m,
                };
                assert_eq!(joined.member(i), later, "category {i}: the later line wins");
            }
        }
    }
    let rule = split_rule(data);
    if let Some(path) = rule.path {
        assert!(path.starts_with(b"/") && !path.iter().any(|b| b" \t#".contains(b)));
    }
    let _ = Statement::parse(rule.statement).preferences();
    let _ = read_signals(data);
}

#[cfg(feature = "ai-use")]
/// `ai_use` target: the TDMRep reader and the page-level readers behind `Robots::ai_use`. The
/// input is tdmrep.json `\xFF\xFE` HTML `\xFF\xFE` response headers (`name: value` per line)
/// `\xFF\xFE` robots.txt `\xFF\xFE` agent `\xFF\xFE` URL (text parts through lossy UTF-8). No
/// panic; the answer is consistent with its trace: `by` is empty exactly when the answer is
/// unknown, points into the trace at entries with that effect; a URL the crawler may not fetch
/// is denied for every purpose; a malformed tdmrep.json has no rules.
pub fn ai_use(data: &[u8]) {
    use robots_eval::ai_use::{AiUseInputs, Answer, Effect};
    use robots_eval::aipref::operators::PURPOSES;
    use robots_eval::tdmrep::TdmFile;
    let (tdm, rest) = split(data);
    let (html, rest) = split(rest);
    let (headers, rest) = split(rest);
    let (robots, rest) = split(rest);
    let (agent, url) = split(rest);
    let file = TdmFile::parse(tdm);
    assert!(file.error.is_none() || file.rules.is_empty());
    let headers = String::from_utf8_lossy(headers);
    let headers: Vec<(&str, &str)> = headers
        .split('\n')
        .filter_map(|l| l.split_once(':'))
        .collect();
    let agent = String::from_utf8_lossy(agent);
    let url = String::from_utf8_lossy(url);
    let robots = Robots::parse(robots);
    let inputs = AiUseInputs {
        headers: &headers,
        html: Some(html),
        tdmrep: (!tdm.is_empty()).then_some(tdm),
        ..AiUseInputs::default()
    };
    let r = robots.ai_use(&url, &agent, &inputs);
    for p in PURPOSES {
        let a = r.answer(p);
        assert_eq!(a.by.is_empty(), a.answer == Answer::Unknown, "{p:?}: {a:?}");
        let want = match a.answer {
            Answer::Allow => Some(Effect::Allow),
            Answer::Deny => Some(Effect::Deny),
            Answer::Unknown => None,
        };
        for &i in &a.by {
            let e = &r.trace[i];
            assert_eq!(*e.effect.get(p), want, "{p:?}: entry {i}: {e:?}");
            assert!(e.visible);
        }
        if !r.crawlable {
            assert_eq!(a.answer, Answer::Deny);
        }
    }
}
