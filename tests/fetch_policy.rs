//! The fetch lifecycle (`robots_eval::fetch`): what each fetch outcome means in each dialect,
//! Google's and RFC 9309's time-based handling of an unreachable file, freshness from caching
//! headers, and the HTTP-date parser.
//!
//! Provenance: `seeds_json_status_cases` runs every `status` case of
//! `../shared/conformance/seeds.json` (seed 002's fetch rules); the tables below cite
//! `shared/docs/semantics.md` (B.1, B.12, C.13-C.16, D.2-D.3) or say "our choice".

mod common;

use common::Rng;

use robots_eval::fetch::{
    decide, fresh_until, freshness, may_use_stale, parse_http_date, redirect_limit, CacheHeaders,
    Decision, FetchContext, FetchOutcome, Policy,
};
use robots_eval::DialectId;

const HOUR: u64 = 3_600_000;
const DAY: u64 = 24 * HOUR;
/// 2026-11-21T00:00:00Z.
const NOW: u64 = 1_795_219_200_000;

const ALL: [DialectId; 5] = DialectId::ALL;
use DialectId::{Draft1996, Google, Original1994, Revisited, Rfc9309};

fn ctx() -> FetchContext<'static> {
    FetchContext {
        now_ms: NOW,
        ..FetchContext::default()
    }
}

fn status(d: DialectId, code: u16) -> Decision {
    decide(d, &FetchOutcome::Status(code), &ctx())
}

fn is_parse(p: Policy) -> bool {
    matches!(p, Policy::Parse { max_bytes } if max_bytes == robots_eval::DEFAULT_MAX_BYTES)
}

/// Collects failures and reports all of them at the end.
#[derive(Default)]
struct Failures {
    checked: usize,
    failed: Vec<String>,
}

impl Failures {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.failed.push(what());
        }
    }

    fn finish(self, suite: &str) {
        eprintln!(
            "{suite}: {} checked, {} failed",
            self.checked,
            self.failed.len()
        );
        assert!(
            self.failed.is_empty(),
            "{suite}:\n{}",
            self.failed.join("\n")
        );
    }
}

// ----------------------------------------------------------------------------------------------
// Status classes per dialect
// ----------------------------------------------------------------------------------------------

#[test]
fn seeds_json_status_cases() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/seeds.json");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!(
            "SKIPPED seeds.json status cases: {} is absent (../shared holds the seed documents' cases)",
            path.display()
        );
        return;
    };
    let json: serde_json::Value = serde_json::from_slice(&bytes).expect("seeds.json is JSON");
    let cases = json["status"]
        .as_array()
        .expect("seeds.json has a `status` array");
    assert!(!cases.is_empty());
    let mut f = Failures::default();
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let code = u16::try_from(case["status"].as_u64().expect("status")).expect("u16 status");
        for (dialect, want) in case["expect"].as_object().expect("expect") {
            let d = DialectId::from_name(dialect)
                .unwrap_or_else(|| panic!("unknown dialect {dialect}"));
            let want = want.as_str().expect("policy name");
            let got = status(d, code);
            let ok = match want {
                "parse" => is_parse(got.policy),
                "allow-all" => got.policy == Policy::AllowAll,
                "disallow-all" => got.policy == Policy::DisallowAll,
                "defer" => got.policy == Policy::Defer,
                other => panic!("{name}: unknown expected policy {other}"),
            };
            f.check(ok, || {
                format!("{name} [{dialect}]: expected {want}, got {got:?}")
            });
        }
    }
    f.finish("seeds.json status");
}

#[test]
fn status_table_every_class_every_dialect() {
    use Policy::{AllowAll as A, Defer as F, DisallowAll as X, FollowRedirect as R};
    let p = Policy::Parse {
        max_bytes: robots_eval::DEFAULT_MAX_BYTES,
    };
    // status: [rfc9309, google, draft1996, original1994, revisited]
    let table: &[(u16, [Policy; 5])] = &[
        (200, [p, p, p, p, p]),
        (204, [p, p, p, p, p]),
        (206, [p, p, p, p, p]),
        (299, [p, p, p, p, p]),
        (300, [R, R, R, R, R]),
        (301, [R, R, R, R, R]),
        (302, [R, R, R, R, R]),
        (307, [R, R, R, R, R]),
        (308, [R, R, R, R, R]),
        (400, [A, A, A, A, A]),
        (401, [A, A, X, X, X]),
        (403, [A, A, X, X, X]),
        (404, [A, A, A, A, A]),
        (405, [A, A, A, A, A]),
        (408, [A, A, F, F, F]),
        (410, [A, A, A, A, A]),
        (418, [A, A, A, A, A]),
        (429, [A, X, F, F, F]),
        (451, [A, A, A, A, A]),
        (499, [A, A, A, A, A]),
        (500, [X, X, F, F, F]),
        (502, [X, X, F, F, F]),
        (503, [X, X, F, F, F]),
        (504, [X, X, F, F, F]),
        (599, [X, X, F, F, F]),
        // Not a final HTTP status: an invalid response, handled as a network error.
        (0, [X, X, F, F, F]),
        (99, [X, X, F, F, F]),
        (100, [X, X, F, F, F]),
        (199, [X, X, F, F, F]),
        (600, [X, X, F, F, F]),
        (u16::MAX, [X, X, F, F, F]),
        // 304 without a cached copy is unusable.
        (304, [X, X, F, F, F]),
    ];
    let mut f = Failures::default();
    for (code, want) in table {
        for (d, want) in ALL.iter().zip(want) {
            let got = status(*d, *code);
            f.check(got.policy == *want, || {
                format!("{code} [{}]: expected {want:?}, got {got:?}", d.name())
            });
        }
    }
    let others: &[(FetchOutcome, [Policy; 5])] = &[
        (FetchOutcome::NetworkError, [X, X, F, F, F]),
        (FetchOutcome::Timeout, [X, X, F, F, F]),
        (FetchOutcome::TooManyRedirects, [A, A, A, A, A]),
    ];
    for (outcome, want) in others {
        for (d, want) in ALL.iter().zip(want) {
            let got = decide(*d, outcome, &ctx());
            f.check(got.policy == *want, || {
                format!("{outcome:?} [{}]: expected {want:?}, got {got:?}", d.name())
            });
        }
    }
    f.finish("status table");
}

#[test]
fn not_modified_uses_the_cached_copy() {
    for d in ALL {
        let c = FetchContext {
            has_cached_copy: true,
            ..ctx()
        };
        let got = decide(d, &FetchOutcome::Status(304), &c);
        assert_eq!(got.policy, Policy::UseCached, "{}", d.name());
        assert_eq!(got.reason, "not-modified");
    }
}

#[test]
fn reasons_are_stable_and_explained() {
    let outcomes = [
        FetchOutcome::Status(200),
        FetchOutcome::Status(301),
        FetchOutcome::Status(304),
        FetchOutcome::Status(401),
        FetchOutcome::Status(404),
        FetchOutcome::Status(408),
        FetchOutcome::Status(429),
        FetchOutcome::Status(451),
        FetchOutcome::Status(503),
        FetchOutcome::Status(42),
        FetchOutcome::NetworkError,
        FetchOutcome::Timeout,
        FetchOutcome::TooManyRedirects,
    ];
    for d in ALL {
        for o in &outcomes {
            let got = decide(d, o, &ctx());
            assert!(
                !got.reason.is_empty() && !got.message.is_empty() && !got.source.is_empty(),
                "{got:?}"
            );
            assert!(
                got.reason
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c == b'-'),
                "reason code {}",
                got.reason
            );
            assert!(
                got.message.ends_with('.'),
                "message should be a sentence: {}",
                got.message
            );
        }
    }
    // Where the 1994 text is silent, the source says the rule is ours.
    for d in [Original1994, Revisited] {
        for code in [301, 401, 429, 503] {
            assert!(
                status(d, code).source.contains("our choice"),
                "{} {code}",
                d.name()
            );
        }
        assert!(
            !status(d, 404).source.contains("our choice"),
            "404 is the standard's own rule"
        );
    }
    assert_eq!(status(Rfc9309, 503).reason, "unreachable");
    assert_eq!(status(Rfc9309, 503).source, "RFC 9309 §2.3.1.4");
    assert_eq!(status(Draft1996, 403).reason, "forbidden");
    assert_eq!(status(Draft1996, 503).reason, "temporary-failure");
    assert_eq!(status(Google, 503).reason, "server-error");
    assert_eq!(status(Rfc9309, 429).reason, "unavailable");
}

// ----------------------------------------------------------------------------------------------
// Redirects
// ----------------------------------------------------------------------------------------------

#[test]
fn redirect_limits() {
    assert_eq!(redirect_limit(Rfc9309), 5);
    assert_eq!(redirect_limit(Google), 5);
    assert_eq!(redirect_limit(Draft1996), 20);
    assert_eq!(redirect_limit(Original1994), 5);
    assert_eq!(redirect_limit(Revisited), 5);
    // The answer to `code` after `followed` redirects.
    let after = |d: DialectId, followed: u8, code: u16| {
        let c = FetchContext {
            redirects_followed: followed,
            ..ctx()
        };
        decide(d, &FetchOutcome::Status(code), &c)
    };
    for d in ALL {
        let limit = redirect_limit(d);
        for followed in 0..limit {
            let got = after(d, followed, 302);
            assert_eq!(
                got.policy,
                Policy::FollowRedirect,
                "{} after {followed}",
                d.name()
            );
        }
        // RFC 9309 §2.3.1.2: "more than five consecutive redirects" -> unavailable.
        for followed in [limit, limit.saturating_add(1), u8::MAX] {
            let got = after(d, followed, 301);
            assert_eq!(
                got.policy,
                Policy::AllowAll,
                "{} after {followed}",
                d.name()
            );
            assert_eq!(got.reason, "too-many-redirects");
        }
        // The count only matters for a redirect: the file found after the last hop is parsed.
        assert!(is_parse(after(d, limit, 200).policy));
    }
}

// ----------------------------------------------------------------------------------------------
// Unreachable: Google's 12 h / 30 d schedule and RFC 9309's 30 days
// ----------------------------------------------------------------------------------------------

fn unreachable(
    d: DialectId,
    outcome: FetchOutcome,
    elapsed: u64,
    cached: bool,
    site_down: bool,
) -> Decision {
    let c = FetchContext {
        now_ms: NOW,
        unreachable_since_ms: Some(NOW - elapsed),
        has_cached_copy: cached,
        site_down,
        ..FetchContext::default()
    };
    decide(d, &outcome, &c)
}

#[test]
fn google_server_error_schedule_boundaries() {
    use Policy::{AllowAll as A, DisallowAll as X, UseCached as C};
    // (elapsed, cached, site_down, policy, reason)
    let rows: &[(u64, bool, bool, Policy, &str)] = &[
        (0, false, false, X, "server-error"),
        (0, true, false, X, "server-error"),
        (12 * HOUR - 1, true, false, X, "server-error"),
        (12 * HOUR, true, false, C, "server-error-cached"),
        (12 * HOUR, false, false, A, "server-error-no-cache"),
        (5 * DAY, true, true, C, "server-error-cached"),
        (30 * DAY - 1, true, false, C, "server-error-cached"),
        (30 * DAY - 1, false, false, A, "server-error-no-cache"),
        (30 * DAY, true, false, A, "server-error-long"),
        (30 * DAY, false, false, A, "server-error-long"),
        (30 * DAY, true, true, X, "server-error-site-down"),
        (365 * DAY, false, true, X, "server-error-site-down"),
    ];
    let outcomes = [
        FetchOutcome::Status(500),
        FetchOutcome::Status(503),
        FetchOutcome::Status(429),
        FetchOutcome::NetworkError,
        FetchOutcome::Timeout,
        FetchOutcome::Status(0),
    ];
    let mut f = Failures::default();
    for o in outcomes {
        for &(elapsed, cached, down, policy, reason) in rows {
            let got = unreachable(Google, o, elapsed, cached, down);
            f.check(got.policy == policy && got.reason == reason, || {
                format!("{o:?} after {elapsed} ms (cached {cached}, down {down}): expected {policy:?}/{reason}, got {got:?}")
            });
        }
    }
    f.finish("google schedule");
    // When the handling changes next.
    let since = NOW - HOUR;
    assert_eq!(
        unreachable(Google, FetchOutcome::Status(503), HOUR, true, false).next_change_at_ms,
        Some(since + 12 * HOUR)
    );
    let since = NOW - 2 * DAY;
    assert_eq!(
        unreachable(Google, FetchOutcome::Status(503), 2 * DAY, true, false).next_change_at_ms,
        Some(since + 30 * DAY)
    );
    assert_eq!(
        unreachable(Google, FetchOutcome::Status(503), 31 * DAY, true, false).next_change_at_ms,
        None
    );
}

#[test]
fn rfc9309_unreachable_for_thirty_days() {
    use Policy::{AllowAll as A, DisallowAll as X, UseCached as C};
    let rows: &[(u64, bool, Policy, &str)] = &[
        (0, false, X, "unreachable"),
        (0, true, X, "unreachable"),
        (12 * HOUR, true, X, "unreachable"),
        (30 * DAY - 1, true, X, "unreachable"),
        (30 * DAY, true, C, "unreachable-long-cached"),
        (30 * DAY, false, A, "unreachable-long"),
        (400 * DAY, false, A, "unreachable-long"),
    ];
    for o in [
        FetchOutcome::Status(500),
        FetchOutcome::NetworkError,
        FetchOutcome::Timeout,
    ] {
        for &(elapsed, cached, policy, reason) in rows {
            let got = unreachable(Rfc9309, o, elapsed, cached, false);
            assert_eq!(
                (got.policy, got.reason),
                (policy, reason),
                "{o:?} after {elapsed}"
            );
        }
    }
    let got = unreachable(Rfc9309, FetchOutcome::Status(503), 3 * DAY, false, false);
    assert_eq!(got.next_change_at_ms, Some(NOW - 3 * DAY + 30 * DAY));
    // 429 is a 4xx in RFC 9309: unavailable, whatever the history.
    assert_eq!(
        unreachable(Rfc9309, FetchOutcome::Status(429), 0, false, false).policy,
        A
    );
}

#[test]
fn older_dialects_defer_whatever_the_time() {
    for d in [Draft1996, Original1994, Revisited] {
        for elapsed in [0, 12 * HOUR, 30 * DAY, 3650 * DAY] {
            for cached in [false, true] {
                let got = unreachable(d, FetchOutcome::Status(503), elapsed, cached, false);
                assert_eq!(got.policy, Policy::Defer);
                assert_eq!(got.next_change_at_ms, None);
            }
        }
    }
}

#[test]
fn unreachable_since_in_the_future_or_absent_counts_as_now() {
    for d in [Rfc9309, Google] {
        let c = FetchContext {
            unreachable_since_ms: Some(NOW + DAY),
            has_cached_copy: true,
            ..ctx()
        };
        assert_eq!(
            decide(d, &FetchOutcome::Status(500), &c).policy,
            Policy::DisallowAll
        );
        let c = FetchContext {
            unreachable_since_ms: None,
            has_cached_copy: true,
            ..ctx()
        };
        let got = decide(d, &FetchOutcome::Status(500), &c);
        assert_eq!(got.policy, Policy::DisallowAll);
        assert!(got.next_change_at_ms.is_some_and(|t| t > NOW));
    }
    // Extreme clocks neither panic nor wrap.
    let c = FetchContext {
        now_ms: u64::MAX,
        unreachable_since_ms: Some(0),
        ..FetchContext::default()
    };
    assert_eq!(
        decide(Google, &FetchOutcome::Status(500), &c).policy,
        Policy::AllowAll
    );
    let c = FetchContext {
        now_ms: u64::MAX,
        unreachable_since_ms: Some(u64::MAX),
        ..FetchContext::default()
    };
    assert_eq!(
        decide(Google, &FetchOutcome::Status(500), &c).next_change_at_ms,
        Some(u64::MAX)
    );
}

#[test]
fn may_use_stale_matches_the_schedules() {
    let since = NOW - 100 * DAY;
    let at = |elapsed: u64| since + elapsed;
    assert!(!may_use_stale(Google, since, at(0)));
    assert!(!may_use_stale(Google, since, at(12 * HOUR - 1)));
    assert!(may_use_stale(Google, since, at(12 * HOUR)));
    assert!(may_use_stale(Google, since, at(30 * DAY - 1)));
    assert!(!may_use_stale(Google, since, at(30 * DAY)));
    assert!(!may_use_stale(Rfc9309, since, at(30 * DAY - 1)));
    assert!(may_use_stale(Rfc9309, since, at(30 * DAY)));
    assert!(may_use_stale(Rfc9309, since, at(99 * DAY)));
    for d in [Draft1996, Original1994, Revisited] {
        for e in [0, 13 * HOUR, 31 * DAY] {
            assert!(!may_use_stale(d, since, at(e)), "{}", d.name());
        }
    }
}

#[test]
fn retry_after_seconds_and_dates() {
    let with = |v: &'static str| FetchContext {
        retry_after: Some(v),
        ..ctx()
    };
    let got = decide(Draft1996, &FetchOutcome::Status(503), &with("120"));
    assert_eq!(got.retry_at_ms, Some(NOW + 120_000));
    let got = decide(Google, &FetchOutcome::Status(429), &with("  0 "));
    assert_eq!(got.retry_at_ms, Some(NOW));
    // An HTTP-date; one in the past means now.
    let got = decide(
        Rfc9309,
        &FetchOutcome::Status(503),
        &with("Sat, 21 Nov 2026 01:00:00 GMT"),
    );
    assert_eq!(got.retry_at_ms, Some(NOW + HOUR));
    let got = decide(
        Rfc9309,
        &FetchOutcome::Status(503),
        &with("Sun, 06 Nov 1994 08:49:37 GMT"),
    );
    assert_eq!(got.retry_at_ms, Some(NOW));
    // Huge delays saturate; junk is ignored.
    let got = decide(
        Rfc9309,
        &FetchOutcome::Status(503),
        &with("99999999999999999999999"),
    );
    assert_eq!(got.retry_at_ms, Some(NOW + (1u64 << 31) * 1000));
    for junk in ["", "-5", "soon", "1.5", "12 s"] {
        assert_eq!(
            decide(Rfc9309, &FetchOutcome::Status(503), &with(junk)).retry_at_ms,
            None,
            "{junk:?}"
        );
    }
    assert_eq!(status(Rfc9309, 503).retry_at_ms, None);
}

// ----------------------------------------------------------------------------------------------
// Freshness
// ----------------------------------------------------------------------------------------------

const T0: u64 = 784_111_777_000; // Sun, 06 Nov 1994 08:49:37 GMT

fn cc(v: &str) -> CacheHeaders<'_> {
    CacheHeaders {
        cache_control: Some(v),
        ..CacheHeaders::default()
    }
}

fn lifetime(d: DialectId, h: &CacheHeaders<'_>, shared: bool) -> u64 {
    fresh_until(d, T0, h, shared) - T0
}

#[test]
fn dialect_defaults_without_headers() {
    let none = CacheHeaders::default();
    assert_eq!(lifetime(Rfc9309, &none, false), DAY);
    assert_eq!(lifetime(Google, &none, false), DAY);
    assert_eq!(lifetime(Draft1996, &none, false), 7 * DAY);
    assert_eq!(lifetime(Original1994, &none, false), DAY);
    assert_eq!(lifetime(Revisited, &none, false), DAY);
    let f = freshness(Draft1996, T0, &none, false);
    assert_eq!((f.source, f.capped), ("default", false));
    // Directives that say nothing about lifetime keep the default.
    assert_eq!(
        lifetime(Draft1996, &cc("public, must-revalidate"), false),
        7 * DAY
    );
}

#[test]
fn max_age_and_dialect_caps() {
    // 48 hours asked for.
    let h = cc("max-age=172800");
    assert_eq!(
        lifetime(Rfc9309, &h, false),
        DAY,
        "RFC 9309 §2.4 caps at 24 h"
    );
    assert!(freshness(Rfc9309, T0, &h, false).capped);
    assert_eq!(
        lifetime(Google, &h, false),
        2 * DAY,
        "Google: max-age may raise the lifetime"
    );
    assert_eq!(lifetime(Draft1996, &h, false), 2 * DAY);
    assert_eq!(lifetime(Original1994, &h, false), 2 * DAY);
    let year = cc("max-age=31536000");
    assert_eq!(
        lifetime(Original1994, &year, false),
        7 * DAY,
        "our cap for 1994/Revisited"
    );
    assert_eq!(lifetime(Revisited, &year, false), 7 * DAY);
    assert_eq!(lifetime(Google, &year, false), 365 * DAY);
    // Lowering works everywhere.
    for d in ALL {
        assert_eq!(
            lifetime(d, &cc("max-age=60"), false),
            60_000,
            "{}",
            d.name()
        );
        assert_eq!(lifetime(d, &cc("max-age=0"), false), 0);
        let f = freshness(d, T0, &cc("max-age=60"), false);
        assert_eq!((f.source, f.capped), ("max-age", false));
    }
    // RFC 9111 §1.2.2: past 2^31 seconds reads as 2^31.
    assert_eq!(
        lifetime(Google, &cc("max-age=99999999999999999999999999"), false),
        (1u64 << 31) * 1000
    );
}

#[test]
fn cache_control_directives() {
    let d = Google;
    let rows: &[(&str, bool, u64, &str)] = &[
        ("no-store", false, 0, "no-store"),
        ("max-age=600, no-store", false, 0, "no-store"),
        ("no-cache", false, 0, "no-cache"),
        ("NO-CACHE", false, 0, "no-cache"),
        ("max-age=600,no-cache", false, 0, "no-cache"),
        // Qualified no-cache / private name fields, not the response (RFC 9111 §5.2.2.4, §5.2.2.7).
        (
            "no-cache=\"Set-Cookie\", max-age=600",
            false,
            600_000,
            "max-age",
        ),
        (
            "no-cache=\"Set-Cookie, X-Foo\", max-age=600",
            false,
            600_000,
            "max-age",
        ),
        ("private, max-age=600", false, 600_000, "max-age"),
        ("private, max-age=600", true, 0, "private"),
        ("private=\"X-Foo\", max-age=600", true, 600_000, "max-age"),
        // s-maxage wins only in a shared cache.
        ("max-age=600, s-maxage=60", true, 60_000, "s-maxage"),
        ("max-age=600, s-maxage=60", false, 600_000, "max-age"),
        ("s-maxage=60", false, DAY, "default"),
        // Quoted values, case, whitespace.
        ("max-age=\"600\"", false, 600_000, "max-age"),
        ("Max-Age=600", false, 600_000, "max-age"),
        ("  max-age = 600 ,", false, 600_000, "max-age"),
        (",,, ,max-age=600", false, 600_000, "max-age"),
        // Malformed values are ignored.
        ("max-age=abc", false, DAY, "default"),
        ("max-age=-1", false, DAY, "default"),
        ("max-age=60x", false, DAY, "default"),
        ("max-age=6 0", false, DAY, "default"),
        ("max-age=", false, DAY, "default"),
        ("max-age", false, DAY, "default"),
        ("max-age=\"600", false, DAY, "default"),
        ("max-age=1.5", false, DAY, "default"),
        ("=600", false, DAY, "default"),
        // The first well-formed occurrence counts.
        ("max-age=60, max-age=600", false, 60_000, "max-age"),
        ("max-age=abc, max-age=600", false, 600_000, "max-age"),
        // Unknown directives and extensions are skipped, quoted commas included.
        (
            "foo=\"a, max-age=1\", max-age=600",
            false,
            600_000,
            "max-age",
        ),
        ("community=\"UCI\", max-age=600", false, 600_000, "max-age"),
        (
            "immutable, stale-while-revalidate=30, max-age=600",
            false,
            600_000,
            "max-age",
        ),
    ];
    let mut f = Failures::default();
    for &(v, shared, want, source) in rows {
        let got = freshness(d, T0, &cc(v), shared);
        f.check(
            got.fresh_until_ms - T0 == want && got.source == source,
            || format!("{v:?} shared={shared}: expected {want} ms from {source}, got {got:?}"),
        );
    }
    f.finish("cache-control");
}

#[test]
fn expires_date_and_age() {
    let h = |expires: Option<&'static str>,
             date: Option<&'static str>,
             age: Option<&'static str>| CacheHeaders {
        cache_control: None,
        expires,
        date,
        age,
    };
    // Expires relative to Date: our clock (T0) may be hours off the origin's; only the difference counts.
    let skewed = h(
        Some("Sun, 06 Nov 1994 14:49:37 GMT"),
        Some("Sun, 06 Nov 1994 12:49:37 GMT"),
        None,
    );
    assert_eq!(lifetime(Google, &skewed, false), 2 * HOUR);
    assert_eq!(freshness(Google, T0, &skewed, false).source, "expires");
    // Without Date: against our fetch time.
    let plain = h(Some("Sun, 06 Nov 1994 09:49:37 GMT"), None, None);
    assert_eq!(lifetime(Rfc9309, &plain, false), HOUR);
    // An invalid Date is ignored the same way.
    let bad_date = h(
        Some("Sun, 06 Nov 1994 09:49:37 GMT"),
        Some("yesterday"),
        None,
    );
    assert_eq!(lifetime(Rfc9309, &bad_date, false), HOUR);
    // An Expires before Date: already stale.
    let past = h(
        Some("Sun, 06 Nov 1994 08:00:00 GMT"),
        Some("Sun, 06 Nov 1994 09:00:00 GMT"),
        None,
    );
    assert_eq!(lifetime(Google, &past, false), 0);
    // RFC 9111 §5.3: invalid dates, especially "0", mean already expired (not the default).
    for bad in ["0", "-1", "", "Thu, 01 Dec 1994", "never"] {
        let f = freshness(Draft1996, T0, &h(Some(bad), None, None), false);
        assert_eq!(
            (f.fresh_until_ms, f.source),
            (T0, "expires-invalid"),
            "{bad:?}"
        );
    }
    // max-age beats Expires (RFC 9111 §5.3).
    let both = CacheHeaders {
        cache_control: Some("max-age=60"),
        ..plain
    };
    assert_eq!(lifetime(Google, &both, false), 60_000);
    // RFC 9309 caps an Expires a week away at 24 h; the 1996 draft honours it.
    let week = h(Some("Sun, 13 Nov 1994 08:49:37 GMT"), None, None);
    assert_eq!(lifetime(Rfc9309, &week, false), DAY);
    assert_eq!(lifetime(Draft1996, &week, false), 7 * DAY);
    // (dialect, Cache-Control, Age, lifetime)
    for (d, cache_control, age, want) in [
        // Age is subtracted; more age than lifetime means stale now.
        (Google, "max-age=600", "100", 500_000),
        (Google, "max-age=600", "6000", 0),
        // An Age that is not delta-seconds is ignored.
        (Google, "max-age=600", "-5", 600_000),
        // The cap applies to the time left from our fetch.
        (Rfc9309, "max-age=172800", "3600", DAY),
    ] {
        let h = CacheHeaders {
            age: Some(age),
            ..cc(cache_control)
        };
        assert_eq!(
            lifetime(d, &h, false),
            want,
            "{}: {cache_control}, Age {age}",
            d.name()
        );
    }
}

#[test]
fn freshness_never_overflows() {
    let h = cc("max-age=2147483648");
    assert_eq!(fresh_until(Google, u64::MAX - 5, &h, false), u64::MAX);
    let far = CacheHeaders {
        expires: Some("Fri, 31 Dec 9999 23:59:59 GMT"),
        ..CacheHeaders::default()
    };
    assert_eq!(fresh_until(Google, 0, &far, false), 253_402_300_799_000);
    assert_eq!(fresh_until(Google, u64::MAX, &far, false), u64::MAX);
}

// ----------------------------------------------------------------------------------------------
// HTTP-date (RFC 9110 §5.6.7)
// ----------------------------------------------------------------------------------------------

#[test]
fn http_date_three_formats() {
    let want = Some(784_111_777_000);
    for v in [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT", // RFC 850
        "Sun Nov  6 08:49:37 1994",       // asctime
        "Sun Nov 06 08:49:37 1994",
        "sun, 06 nov 1994 08:49:37 gmt",
        "  Sun,  06 Nov 1994 08:49:37 GMT  ",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sunday, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06-Nov-1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Mon, 06 Nov 1994 08:49:37 GMT", // the day name is not checked
    ] {
        assert_eq!(parse_http_date(v, NOW), want, "{v:?}");
    }
    assert_eq!(
        parse_http_date("Tue, 29 Feb 2000 00:00:00 GMT", NOW),
        Some(951_782_400_000)
    );
    assert_eq!(
        parse_http_date("Wed, 31 Dec 1969 23:59:59 GMT", NOW),
        Some(-1000)
    );
    assert_eq!(
        parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT", NOW),
        Some(0)
    );
    assert_eq!(
        parse_http_date("Fri, 31 Dec 9999 23:59:59 GMT", NOW),
        Some(253_402_300_799_000)
    );
    // A leap second is accepted.
    assert_eq!(
        parse_http_date("Sat, 31 Dec 2016 23:59:60 GMT", NOW),
        parse_http_date("Sun, 01 Jan 2017 00:00:00 GMT", NOW)
    );
}

#[test]
fn http_date_two_digit_years_are_read_from_now() {
    // now = 2026: 2076 is 50 years ahead (kept), 2077 would be 51 (moved back to 1977).
    assert_eq!(
        parse_http_date("Wednesday, 01-Jan-76 00:00:00 GMT", NOW),
        Some(3_345_062_400_000)
    );
    assert_eq!(
        parse_http_date("Saturday, 01-Jan-77 00:00:00 GMT", NOW),
        Some(220_924_800_000)
    );
    assert_eq!(
        parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT", 0),
        Some(784_111_777_000)
    );
    // A clock past year 9999 cannot place a two-digit year.
    assert_eq!(
        parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT", u64::MAX),
        None
    );
}

#[test]
fn http_date_invalid() {
    for v in [
        "",
        " ",
        "0",
        "-1",
        "never",
        "Sun, 06 Nov 1994 08:49:37",       // no zone
        "Sun, 06 Nov 1994 08:49:37 +0000", // numeric zones are not HTTP-dates
        "Sun, 06 Nov 1994 08:49:37 PST",
        "Sun 06 Nov 1994 08:49:37 GMT", // no comma
        "06 Nov 1994 08:49:37 GMT",     // no day name
        "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT",
        "Sun, 06 Nov 994 08:49:37 GMT",
        "Sun, 06 Nov 19940 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 006 Nov 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-994 08:49:37 GMT",
        "Sunday, 06-Nov 08:49:37 GMT",
        "Sunday, 06-Nov-94-1 08:49:37 GMT",
        "Sun Nov  6 08:49:37 94",
        "Sun Nov 32 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
        "Sun, 06 Nov 1994 08:49:37 GMT a b c d e f g h",
        "Sun, 06 Nov +994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:3a GMT",
        "Sun, ٠٦ Nov 1994 08:49:37 GMT",
    ] {
        assert_eq!(parse_http_date(v, NOW), None, "{v:?}");
    }
}

// ----------------------------------------------------------------------------------------------
// Never panics
// ----------------------------------------------------------------------------------------------

/// Random input from a fixed seed (`common::Rng`).
trait Pieces {
    /// A string of pieces that matter to the parsers, glued at random.
    fn text(&mut self, max_pieces: usize) -> String;
}

impl Pieces for Rng {
    fn text(&mut self, max_pieces: usize) -> String {
        const PIECES: &[&str] = &[
            "Sun",
            "Sunday",
            ",",
            " ",
            "  ",
            "\t",
            "06",
            "6",
            "Nov",
            "-",
            "94",
            "1994",
            "9999",
            "0000",
            "08:49:37",
            "23:59:60",
            "99:99:99",
            ":",
            "GMT",
            "UTC",
            "max-age",
            "s-maxage",
            "=",
            "\"",
            "\\",
            "no-cache",
            "private",
            "no-store",
            "600",
            "99999999999999999999999",
            "-1",
            "é",
            "\u{0}",
            "ツ",
            "Feb",
            "29",
            "31",
            "1900",
            "2000",
        ];
        let n = self.below(max_pieces + 1);
        (0..n).map(|_| PIECES[self.below(PIECES.len())]).collect()
    }
}

#[test]
fn never_panics_on_arbitrary_input() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let a = rng.text(12);
        let b = rng.text(12);
        let c = rng.text(6);
        let now = rng.next();
        let _ = parse_http_date(&a, now);
        let raw: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let _ = parse_http_date(&raw, now);
        let h = CacheHeaders {
            cache_control: Some(&a),
            expires: Some(&b),
            date: Some(&c),
            age: Some(&raw),
        };
        for d in ALL {
            let shared = rng.below(2) == 0;
            let t = rng.next();
            let f = freshness(d, t, &h, shared);
            assert!(f.fresh_until_ms >= t);
            assert_eq!(fresh_until(d, t, &h, shared), f.fresh_until_ms);
            let ctx = FetchContext {
                now_ms: rng.next(),
                unreachable_since_ms: if rng.below(2) == 0 {
                    None
                } else {
                    Some(rng.next())
                },
                has_cached_copy: rng.below(2) == 0,
                redirects_followed: rng.next() as u8,
                site_down: rng.below(2) == 0,
                retry_after: Some(&b),
            };
            let outcome = match rng.below(4) {
                0 => FetchOutcome::NetworkError,
                1 => FetchOutcome::Timeout,
                2 => FetchOutcome::TooManyRedirects,
                _ => FetchOutcome::Status(rng.next() as u16),
            };
            let got = decide(d, &outcome, &ctx);
            assert!(!got.reason.is_empty());
            let _ = may_use_stale(d, rng.next(), rng.next());
        }
    }
}

#[test]
fn huge_headers_stay_linear() {
    // Quadratic work on these would take minutes; linear work takes milliseconds.
    let n = 4 << 20;
    let commas = ",".repeat(n);
    let quotes = "a=\"".to_string() + &"\\\"x, ".repeat(n / 5);
    let digits = "max-age=".to_string() + &"9".repeat(n);
    let spaces = " ".repeat(n) + "Sun, 06 Nov 1994 08:49:37 GMT";
    let started = std::time::Instant::now();
    for v in [&commas, &quotes, &digits, &spaces] {
        let h = CacheHeaders {
            cache_control: Some(v),
            expires: Some(v),
            date: Some(v),
            age: Some(v),
        };
        for d in ALL {
            let _ = freshness(d, T0, &h, true);
        }
        let _ = parse_http_date(v, NOW);
    }
    assert_eq!(lifetime(Google, &cc(&digits), false), (1u64 << 31) * 1000);
    assert_eq!(parse_http_date(&spaces, NOW), Some(784_111_777_000));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}
