//! Lifecycle, floor 6: the robots.txt fetch lifecycle as pure functions: what a crawler does
//! with each fetch outcome, how long a fetched copy stays fresh, and when an old copy may stand
//! in for an unreachable file.
//!
//! No I/O and no clock: callers pass times as milliseconds since the Unix epoch. Every decision
//! carries a stable reason code, a message a person can act on, and the text it comes from; the
//! full table, with citations, is `docs/fetch-policy.md`. Section letters (B.1, C.14, D.2, ...)
//! refer to `shared/docs/semantics.md`.
//!
//! Where a dialect's text is silent the choice is ours, and the decision's `source` says so
//! ("our choice: ...").

pub use super::date::parse_http_date;
use super::date::DAY_MS;
use crate::dialect::DialectId;
use crate::options::DEFAULT_MAX_BYTES;

const SECOND_MS: u64 = 1_000;
const HOUR_MS: u64 = 3_600_000;

/// RFC 9309 §2.3.1.4 "a reasonably long period of time (for example, 30 days)"; Google D.2 "30 days".
const UNREACHABLE_LONG_MS: u64 = 30 * DAY_MS;
/// Google D.2: "For the first 12 hours, Google stops crawling the site".
const GOOGLE_STOP_MS: u64 = 12 * HOUR_MS;

/// What came back when the crawler asked for `/robots.txt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FetchOutcome {
    /// An HTTP response with this status code. A 3xx means the caller holds a redirect and asks
    /// whether to follow it; count hops in [`FetchContext::redirects_followed`]. A 3xx without a
    /// usable `Location` is an invalid response: report it as [`FetchOutcome::NetworkError`].
    Status(u16),
    /// No usable response: DNS failure, refused or reset connection, TLS failure, a malformed,
    /// truncated or mis-chunked response (Google counts all of these as server errors, D.2).
    NetworkError,
    /// No complete response within the caller's time budget.
    Timeout,
    /// The caller's HTTP client gave up on the redirect chain itself (for example the 20-hop limit
    /// of the Fetch Standard). Treated like reaching [`redirect_limit`].
    TooManyRedirects,
}

/// What the crawler does next with the site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Parse the body (its first `max_bytes` bytes; ignore the rest) and obey its rules.
    Parse {
        /// Bytes to parse, for [`crate::Options::max_bytes`]: always [`crate::DEFAULT_MAX_BYTES`]
        /// (500 KiB). RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes"; Google:
        /// "Content which is after the maximum file size is ignored" (D.5). The 1994 and 1996
        /// texts give no number (B.13 only asks for a limit): the same figure (our choice).
        max_bytes: usize,
    },
    /// Follow the redirect; the file found is obeyed for the original authority
    /// (RFC 9309 §2.3.1.2).
    FollowRedirect,
    /// No restrictions: every URL may be fetched.
    AllowAll,
    /// Complete disallow: no URL may be fetched until robots.txt is fetched again.
    DisallowAll,
    /// Do not visit the site now; try robots.txt again later (1996 draft §3.1: "defer visits to
    /// the site until such time as the resource can be retrieved").
    Defer,
    /// Keep obeying the last successfully fetched copy.
    UseCached,
}

impl Policy {
    /// Every policy, for a caller that reads one by its name.
    pub const ALL: [Policy; 6] = [
        Policy::Parse {
            max_bytes: crate::DEFAULT_MAX_BYTES,
        },
        Policy::FollowRedirect,
        Policy::AllowAll,
        Policy::DisallowAll,
        Policy::Defer,
        Policy::UseCached,
    ];

    /// A stable kebab-case name (the packages' `FetchPolicy`).
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Parse { .. } => "parse",
            Policy::FollowRedirect => "follow-redirect",
            Policy::AllowAll => "allow-all",
            Policy::DisallowAll => "disallow-all",
            Policy::Defer => "defer",
            Policy::UseCached => "use-cached",
        }
    }

    /// The policy of a name.
    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The robots.txt a crawler obeys under this policy when it has no file to parse: none for
    /// allow-all (every URL may be fetched), a complete disallow for disallow-all and defer (no
    /// URL until robots.txt is fetched again); `None` when the policy names the file to obey
    /// (parse the body, follow the redirect, the cached copy).
    pub const fn rules(self) -> Option<&'static [u8]> {
        match self {
            Policy::AllowAll => Some(b""),
            Policy::DisallowAll | Policy::Defer => Some(DISALLOW_ALL),
            Policy::Parse { .. } | Policy::FollowRedirect | Policy::UseCached => None,
        }
    }
}

/// A complete disallow, for every crawler (RFC 9309 section 2.3.1.4: "the crawler MUST assume
/// complete disallow").
pub const DISALLOW_ALL: &[u8] = b"User-agent: *\nDisallow: /\n";

/// What the caller knows besides the outcome itself. `Default` is a first fetch at time 0 with
/// no cached copy and no redirects followed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FetchContext<'a> {
    /// The current time, in milliseconds since the Unix epoch.
    pub now_ms: u64,
    /// When the current unbroken run of failed fetches (5xx, network errors, timeouts, and for
    /// Google 429) began. `None` means this outcome is the first failure; it counts as `now_ms`.
    pub unreachable_since_ms: Option<u64>,
    /// Whether a previously fetched, successfully parsed copy is at hand.
    pub has_cached_copy: bool,
    /// How many redirects were already followed to reach this response.
    pub redirects_followed: u8,
    /// Google only, after 30 days unreachable: whether the site as a whole "has general
    /// availability problems" (D.2). Then crawling stays stopped instead of resuming.
    pub site_down: bool,
    /// The raw `Retry-After` response header, if any (RFC 9110 §10.2.3): delay-seconds or an
    /// HTTP-date. Fills [`Decision::retry_at_ms`].
    pub retry_after: Option<&'a str>,
}

/// The policy for one fetch outcome, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// What to do.
    pub policy: Policy,
    /// A stable, machine-readable reason code, for example `"unreachable"` or `"forbidden"`.
    pub reason: &'static str,
    /// One sentence a person can act on.
    pub message: &'static str,
    /// Where the rule comes from (a section of a standard), or "our choice: ..." where the
    /// dialect's text is silent.
    pub source: &'static str,
    /// The earliest time to ask again, from `Retry-After`, when the server sent one.
    pub retry_at_ms: Option<u64>,
    /// When the same failure would start to be handled differently (Google's 12-hour and 30-day
    /// marks, RFC 9309's 30 days). `None` when time changes nothing.
    pub next_change_at_ms: Option<u64>,
}

/// How many consecutive redirects are followed before the chain counts as "too many".
///
/// - RFC 9309 §2.3.1.2: "SHOULD follow at least five consecutive redirects"; more than five MAY
///   count as unavailable. We follow exactly five.
/// - Google: "follows at least five redirect hops ... and then stops and treats it as a 404" (D.2).
/// - 1996 draft §3.1: "follow the redirects until a resource can be found", no limit. A loop would
///   never end, so we cap at 20, the redirect limit of the WHATWG Fetch Standard (our choice).
/// - 1994 standard and Revisited: silent; five, as RFC 9309 (our choice).
#[must_use]
pub const fn redirect_limit(dialect: DialectId) -> u8 {
    match dialect {
        DialectId::Draft1996 => 20,
        DialectId::Rfc9309 | DialectId::Google | DialectId::Original1994 | DialectId::Revisited => {
            5
        }
    }
}

/// The outcome, sorted into the classes the standards distinguish.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Success,
    NotModified,
    Redirect,
    TooManyRedirects,
    /// 401 and 403.
    Forbidden,
    /// 404 and 410.
    NotFound,
    /// 408.
    RequestTimeout,
    /// 429.
    TooManyRequests,
    /// Any other 4xx.
    ClientError,
    ServerError,
    Network,
    Timeout,
    /// A status outside 200-599 as a final answer.
    Invalid,
}

fn classify(outcome: &FetchOutcome, ctx: &FetchContext<'_>, dialect: DialectId) -> Class {
    match *outcome {
        FetchOutcome::NetworkError => Class::Network,
        FetchOutcome::Timeout => Class::Timeout,
        FetchOutcome::TooManyRedirects => Class::TooManyRedirects,
        FetchOutcome::Status(code) => match code {
            200..=299 => Class::Success,
            304 if ctx.has_cached_copy => Class::NotModified,
            // A 304 with nothing to revalidate is a response we cannot use.
            304 => Class::Invalid,
            300..=399 if ctx.redirects_followed >= redirect_limit(dialect) => {
                Class::TooManyRedirects
            }
            300..=399 => Class::Redirect,
            401 | 403 => Class::Forbidden,
            404 | 410 => Class::NotFound,
            408 => Class::RequestTimeout,
            429 => Class::TooManyRequests,
            400..=499 => Class::ClientError,
            500..=599 => Class::ServerError,
            _ => Class::Invalid,
        },
    }
}

/// A decision without the time fields, filled in by [`decide`].
const fn d(
    policy: Policy,
    reason: &'static str,
    message: &'static str,
    source: &'static str,
) -> Decision {
    Decision {
        policy,
        reason,
        message,
        source,
        retry_at_ms: None,
        next_change_at_ms: None,
    }
}

impl Decision {
    /// The same decision, to be revised at `at_ms` (a stage of an unreachable schedule ends).
    const fn until(self, at_ms: u64) -> Decision {
        Decision {
            next_change_at_ms: Some(at_ms),
            ..self
        }
    }
}

const PARSE: Policy = Policy::Parse {
    max_bytes: DEFAULT_MAX_BYTES,
};

/// A 304 with a cached copy at hand: every dialect keeps obeying it; only the source differs.
const fn not_modified(source: &'static str) -> Decision {
    d(
        Policy::UseCached,
        "not-modified",
        "The cached copy is still current: keep obeying it.",
        source,
    )
}

/// Decides what a crawler speaking `dialect` does after `outcome`.
///
/// Summary (the full table with citations is `docs/fetch-policy.md`):
///
/// | outcome | rfc9309 | google | draft1996 | original1994, revisited (our choice) |
/// |---|---|---|---|---|
/// | 2xx | parse | parse | parse | parse |
/// | 3xx | follow (5) | follow (5) | follow (20) | follow (5) |
/// | too many redirects | allow all | allow all (as 404) | allow all | allow all |
/// | 401, 403 | allow all | allow all | disallow all | disallow all |
/// | 404, other 4xx | allow all | allow all | allow all | allow all |
/// | 429 | allow all | as 5xx | defer | defer |
/// | 5xx, network, timeout | disallow; after 30 days cache or allow | 12 h disallow, then cache or allow, after 30 days allow | defer | defer |
#[must_use]
pub fn decide(dialect: DialectId, outcome: &FetchOutcome, ctx: &FetchContext<'_>) -> Decision {
    let class = classify(outcome, ctx, dialect);
    let mut decision = match dialect {
        DialectId::Rfc9309 => rfc9309(class, ctx),
        DialectId::Google => google(class, ctx),
        DialectId::Draft1996 => draft1996(class),
        DialectId::Original1994 | DialectId::Revisited => early(class),
    };
    decision.retry_at_ms = ctx.retry_after.and_then(|v| retry_at(v, ctx.now_ms));
    decision
}

/// Whether a cached copy may be obeyed while robots.txt has been unreachable since
/// `unreachable_since_ms` (RFC 9309 §2.4: the 24-hour limit does not hold "if the robots.txt file
/// is unreachable"; Google: the last good copy is used after the first 12 hours and up to 30
/// days). Exactly when [`decide`] answers [`Policy::UseCached`] for a network error with a cached
/// copy at hand:
///
/// - RFC 9309: from 30 days on (before that §2.3.1.4's "MUST assume complete disallow" holds).
/// - Google: from 12 hours to 30 days.
/// - 1996 draft, 1994, Revisited: never; visits are deferred instead.
#[must_use]
pub fn may_use_stale(dialect: DialectId, unreachable_since_ms: u64, now_ms: u64) -> bool {
    let ctx = FetchContext {
        now_ms,
        unreachable_since_ms: Some(unreachable_since_ms),
        has_cached_copy: true,
        ..FetchContext::default()
    };
    decide(dialect, &FetchOutcome::NetworkError, &ctx).policy == Policy::UseCached
}

/// Milliseconds the site has been unreachable, and when that run began.
fn unreachable_for(ctx: &FetchContext<'_>) -> (u64, u64) {
    let since = ctx.unreachable_since_ms.unwrap_or(ctx.now_ms);
    (ctx.now_ms.saturating_sub(since), since)
}

fn rfc9309(class: Class, ctx: &FetchContext<'_>) -> Decision {
    match class {
        Class::Success => d(
            PARSE,
            "success",
            "robots.txt was fetched: obey its parseable rules (at least the first 500 KiB).",
            "RFC 9309 §2.3.1.1, §2.5",
        ),
        Class::NotModified => not_modified("RFC 9309 §2.4 (caching per RFC 9111 §4.3.4)"),
        Class::Redirect => d(
            Policy::FollowRedirect,
            "redirect",
            "Follow the redirect; obey the file it leads to for the original host.",
            "RFC 9309 §2.3.1.2",
        ),
        Class::TooManyRedirects => d(
            Policy::AllowAll,
            "too-many-redirects",
            "More than five consecutive redirects: robots.txt counts as unavailable, so no rules apply. Fix the redirect chain to make rules apply.",
            "RFC 9309 §2.3.1.2, §2.3.1.3",
        ),
        Class::Forbidden
        | Class::NotFound
        | Class::RequestTimeout
        | Class::TooManyRequests
        | Class::ClientError => d(
            Policy::AllowAll,
            "unavailable",
            "A 4xx status means robots.txt is unavailable: the crawler may access any resource. Serve the file with 200 for its rules to apply.",
            "RFC 9309 §2.3.1.3 (400-499, including 401, 403 and 429)",
        ),
        Class::ServerError | Class::Network | Class::Timeout | Class::Invalid => {
            let (elapsed, since) = unreachable_for(ctx);
            if elapsed < UNREACHABLE_LONG_MS {
                d(
                    Policy::DisallowAll,
                    "unreachable",
                    "robots.txt is unreachable (server or network error): assume complete disallow until it can be fetched.",
                    "RFC 9309 §2.3.1.4",
                )
                .until(since.saturating_add(UNREACHABLE_LONG_MS))
            } else if ctx.has_cached_copy {
                d(
                    Policy::UseCached,
                    "unreachable-long-cached",
                    "robots.txt has been unreachable for 30 days or more: keep obeying the cached copy.",
                    "RFC 9309 §2.3.1.4, §2.4",
                )
            } else {
                d(
                    Policy::AllowAll,
                    "unreachable-long",
                    "robots.txt has been unreachable for 30 days or more and no copy is cached: it counts as unavailable, so no rules apply.",
                    "RFC 9309 §2.3.1.4 (MAY treat as unavailable, §2.3.1.3)",
                )
            }
        }
    }
}

fn google(class: Class, ctx: &FetchContext<'_>) -> Decision {
    match class {
        Class::Success => d(
            PARSE,
            "success",
            "robots.txt was fetched: obey its rules; content after 500 KiB is ignored.",
            "Google robots.txt spec: 2xx, file size limit (D.2, D.5)",
        ),
        Class::NotModified => not_modified("Google robots.txt spec: caching (D.3); RFC 9111 §4.3.4"),
        Class::Redirect => d(
            Policy::FollowRedirect,
            "redirect",
            "Follow the redirect (at most five hops).",
            "Google robots.txt spec: 3xx (D.2)",
        ),
        Class::TooManyRedirects => d(
            Policy::AllowAll,
            "too-many-redirects",
            "More than five redirect hops: treated as a 404, so no rules apply. Fix the redirect chain to make rules apply.",
            "Google robots.txt spec: 3xx (D.2)",
        ),
        Class::Forbidden | Class::NotFound | Class::RequestTimeout | Class::ClientError => d(
            Policy::AllowAll,
            "unavailable",
            "A 4xx status other than 429 is treated as if no robots.txt existed: no rules apply. Serve the file with 200 for its rules to apply.",
            "Google robots.txt spec: 4xx (D.2)",
        ),
        Class::TooManyRequests
        | Class::ServerError
        | Class::Network
        | Class::Timeout
        | Class::Invalid => {
            let (elapsed, since) = unreachable_for(ctx);
            if elapsed < GOOGLE_STOP_MS {
                d(
                    Policy::DisallowAll,
                    "server-error",
                    "Server error, 429 or network failure: crawling stops for the first 12 hours while robots.txt is retried.",
                    "Google robots.txt spec: 5xx, other errors (D.2; 429 as 5xx is our reading of \"except 429\")",
                )
                .until(since.saturating_add(GOOGLE_STOP_MS))
            } else if elapsed < UNREACHABLE_LONG_MS {
                let out = if ctx.has_cached_copy {
                    d(
                        Policy::UseCached,
                        "server-error-cached",
                        "robots.txt unreachable for 12 hours or more: the last good copy is obeyed (up to 30 days).",
                        "Google robots.txt spec: 5xx (D.2)",
                    )
                } else {
                    d(
                        Policy::AllowAll,
                        "server-error-no-cache",
                        "robots.txt unreachable for 12 hours or more and no copy is cached: Google assumes no crawl restrictions.",
                        "Google robots.txt spec: 5xx (D.2)",
                    )
                };
                out.until(since.saturating_add(UNREACHABLE_LONG_MS))
            } else if ctx.site_down {
                d(
                    Policy::DisallowAll,
                    "server-error-site-down",
                    "robots.txt unreachable for 30 days or more and the site has general availability problems: crawling stays stopped.",
                    "Google robots.txt spec: 5xx (D.2)",
                )
            } else {
                d(
                    Policy::AllowAll,
                    "server-error-long",
                    "robots.txt unreachable for 30 days or more while the site is up: treated as if no robots.txt existed.",
                    "Google robots.txt spec: 5xx (D.2)",
                )
            }
        }
    }
}

fn draft1996(class: Class) -> Decision {
    match class {
        Class::Success => d(
            PARSE,
            "success",
            "robots.txt was fetched: read it, parse it and obey the record for this robot.",
            "draft-koster-robots-00 §3.1 (500 KiB limit: our choice, §6 asks for a limit)",
        ),
        Class::NotModified => not_modified("draft-koster-robots-00 §3.4 (HTTP cache control)"),
        Class::Redirect => d(
            Policy::FollowRedirect,
            "redirect",
            "Follow the redirects until the resource is found (capped at 20 hops).",
            "draft-koster-robots-00 §3.1 (cap: our choice)",
        ),
        Class::TooManyRedirects => d(
            Policy::AllowAll,
            "too-many-redirects",
            "The redirect chain never reached a file: treated like a 404, so no rules apply.",
            "our choice: draft-koster-robots-00 §3.1 gives no limit",
        ),
        Class::Forbidden => d(
            Policy::DisallowAll,
            "forbidden",
            "401 or 403: access to the whole site is restricted. Serve robots.txt with 200 to allow crawling.",
            "draft-koster-robots-00 §3.1",
        ),
        Class::NotFound => d(
            Policy::AllowAll,
            "not-found",
            "No robots.txt: no instructions, access is not restricted.",
            "draft-koster-robots-00 §3.1 (404; 410 likewise: our choice)",
        ),
        Class::ClientError => d(
            Policy::AllowAll,
            "client-error",
            "Another 4xx status: treated like a 404, so access is not restricted.",
            "our choice: draft-koster-robots-00 §3.1 says other behaviours are not required",
        ),
        Class::RequestTimeout
        | Class::TooManyRequests
        | Class::ServerError
        | Class::Network
        | Class::Timeout
        | Class::Invalid => d(
            Policy::Defer,
            "temporary-failure",
            "Temporary failure: defer visits to the site until robots.txt can be retrieved.",
            "draft-koster-robots-00 §3.1 (408, 429, other 5xx and network errors counted as temporary failures: our reading)",
        ),
    }
}

/// The 1994 standard and Revisited: they say only that an empty or absent file means every robot
/// is welcome (A.10). Everything else follows the 1996 draft, which was written to document the
/// 1994 method (our choice): the draft's decision, in the 1994 standard's words and sources.
fn early(class: Class) -> Decision {
    /// Where the 1994 standard is silent and the draft's rule is taken.
    const AS_DRAFT: &str =
        "our choice: the 1994 standard is silent; as draft-koster-robots-00 §3.1";
    /// Where the 1994 standard is silent and the outcome counts as an absent file.
    const AS_ABSENT: &str = "our choice: the 1994 standard is silent (absent file: A.10)";
    let draft = draft1996(class);
    let (message, source) = match class {
        Class::Success => (
            "robots.txt was fetched: parse it and obey the record for this robot; an empty file allows everything.",
            "1994 standard (empty file: A.10); 500 KiB limit: our choice",
        ),
        Class::NotModified => (draft.message, "our choice: RFC 9111 §4.3.4"),
        Class::Redirect => (
            "Follow the redirect (at most five hops).",
            "our choice: the 1994 standard is silent; five hops as RFC 9309 §2.3.1.2",
        ),
        Class::TooManyRedirects => (
            "The redirect chain never reached a file: treated as an absent file, so every robot is welcome.",
            AS_ABSENT,
        ),
        Class::Forbidden => (
            "401 or 403: access to the whole site is treated as restricted. Serve robots.txt with 200 to allow crawling.",
            AS_DRAFT,
        ),
        Class::NotFound => (
            "No robots.txt: every robot is welcome.",
            "1994 standard (absent or empty file: A.10)",
        ),
        Class::ClientError => (
            "Another 4xx status: treated as an absent file, so every robot is welcome.",
            AS_ABSENT,
        ),
        Class::RequestTimeout
        | Class::TooManyRequests
        | Class::ServerError
        | Class::Network
        | Class::Timeout
        | Class::Invalid => (draft.message, AS_DRAFT),
    };
    Decision {
        message,
        source,
        ..draft
    }
}

/// `Retry-After` (RFC 9110 §10.2.3) as an absolute time: delay-seconds after `now_ms`, or an
/// HTTP-date (a date in the past means "now").
fn retry_at(value: &str, now_ms: u64) -> Option<u64> {
    let v = trim_ows(value.as_bytes());
    if let Some(secs) = delta_seconds(v) {
        return Some(now_ms.saturating_add(secs.saturating_mul(SECOND_MS)));
    }
    let at = parse_http_date(value, now_ms)?;
    Some(u64::try_from(at).unwrap_or(0).max(now_ms))
}

// ---------------------------------------------------------------------------------------------
// Freshness (RFC 9111 §4.2, RFC 9309 §2.4, 1996 draft §3.4, Google D.3)
// ---------------------------------------------------------------------------------------------

/// The raw caching headers of a robots.txt response. Absent headers are `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheHeaders<'a> {
    /// `Cache-Control`. Several field lines are joined with `", "` (RFC 9110 §5.3).
    pub cache_control: Option<&'a str>,
    /// `Expires`, an HTTP-date (RFC 9111 §5.3).
    pub expires: Option<&'a str>,
    /// `Date`, the origin's clock when it answered (RFC 9110 §6.6.1).
    pub date: Option<&'a str>,
    /// `Age`, seconds the response already spent in caches (RFC 9111 §5.1).
    pub age: Option<&'a str>,
}

/// How long a fetched copy stays fresh, and which rule said so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Freshness {
    /// The copy may be obeyed without refetching until this time (ms since the epoch).
    /// Equal to the fetch time when it must not be reused at all.
    pub fresh_until_ms: u64,
    /// Which rule set the lifetime: `"no-store"`, `"no-cache"`, `"private"`, `"s-maxage"`,
    /// `"max-age"`, `"expires"`, `"expires-invalid"` or `"default"` (the dialect's heuristic).
    pub source: &'static str,
    /// Whether the dialect's cap shortened the lifetime the headers asked for.
    pub capped: bool,
}

/// The dialect's lifetime when the headers give none, and its upper bound.
///
/// - RFC 9309 §2.4: "SHOULD NOT use the cached version for more than 24 hours": default and cap
///   24 hours (default: our choice, the RFC only bounds it).
/// - Google: "generally caches ... for up to 24 hours" and "may increase or decrease the cache
///   lifetime based on max-age" (D.3): default 24 hours, no cap.
/// - 1996 draft §3.4: "If no cache-control directives are present robots should default to an
///   expiry of 7 days": default 7 days, no cap.
/// - 1994 and Revisited: silent. Default 24 hours (seed 002 warns that 7 days "is often too
///   long"), capped at the draft's 7 days (our choice).
const fn lifetime_rules(dialect: DialectId) -> (u64, Option<u64>) {
    match dialect {
        DialectId::Rfc9309 => (DAY_MS, Some(DAY_MS)),
        DialectId::Google => (DAY_MS, None),
        DialectId::Draft1996 => (7 * DAY_MS, None),
        DialectId::Original1994 | DialectId::Revisited => (DAY_MS, Some(7 * DAY_MS)),
    }
}

/// Computes how long a robots.txt fetched at `fetched_at_ms` stays fresh.
///
/// RFC 9111 §4.2.1 for the lifetime: with `shared`, `s-maxage` wins; then `max-age`; then
/// `Expires` minus `Date` (so the origin's clock skew cancels out; our clock when `Date` is
/// missing or invalid); else the dialect's default. `no-store`, unqualified `no-cache` (must
/// revalidate) and, in a shared cache, unqualified `private` give a lifetime of zero. An invalid
/// `Expires` means "already expired" (RFC 9111 §5.3). `Age` is subtracted (§4.2.3); the
/// "apparent age" from `Date` is not, so a skewed origin clock cannot expire every copy. The
/// dialect's cap bounds the time from our fetch. Directive names are case-insensitive, quoted
/// values are accepted, malformed directives are ignored, and of repeated directives the first
/// well-formed one counts (§4.2.1).
#[must_use]
pub fn freshness(
    dialect: DialectId,
    fetched_at_ms: u64,
    headers: &CacheHeaders<'_>,
    shared: bool,
) -> Freshness {
    let cc = headers
        .cache_control
        .map(|v| CacheControl::parse(v.as_bytes()))
        .unwrap_or_default();
    let zero = |source| Freshness {
        fresh_until_ms: fetched_at_ms,
        source,
        capped: false,
    };
    if cc.no_store {
        return zero("no-store");
    }
    if cc.no_cache {
        return zero("no-cache");
    }
    if shared && cc.private {
        return zero("private");
    }
    let (default_ms, cap) = lifetime_rules(dialect);
    let (lifetime_ms, source) = match (cc.s_maxage.filter(|_| shared), cc.max_age) {
        (Some(s), _) => (s.saturating_mul(SECOND_MS), "s-maxage"),
        (None, Some(m)) => (m.saturating_mul(SECOND_MS), "max-age"),
        (None, None) => match headers.expires {
            Some(expires) => match parse_http_date(expires, fetched_at_ms) {
                None => (0, "expires-invalid"),
                Some(exp) => {
                    let base = headers
                        .date
                        .and_then(|date| parse_http_date(date, fetched_at_ms))
                        .unwrap_or_else(|| i64::try_from(fetched_at_ms).unwrap_or(i64::MAX));
                    let ms = exp.saturating_sub(base);
                    (u64::try_from(ms).unwrap_or(0), "expires")
                }
            },
            None => (default_ms, "default"),
        },
    };
    let age_ms = headers
        .age
        .and_then(|a| delta_seconds(trim_ows(a.as_bytes())))
        .unwrap_or(0)
        .saturating_mul(SECOND_MS);
    let mut remaining = lifetime_ms.saturating_sub(age_ms);
    let mut capped = false;
    if let Some(cap) = cap {
        if remaining > cap {
            remaining = cap;
            capped = true;
        }
    }
    Freshness {
        fresh_until_ms: fetched_at_ms.saturating_add(remaining),
        source,
        capped,
    }
}

/// Shorthand for [`freshness`]`(..).fresh_until_ms`: the time until which a robots.txt fetched
/// at `fetched_at_ms` may be obeyed without fetching it again.
#[must_use]
pub fn fresh_until(
    dialect: DialectId,
    fetched_at_ms: u64,
    headers: &CacheHeaders<'_>,
    shared: bool,
) -> u64 {
    freshness(dialect, fetched_at_ms, headers, shared).fresh_until_ms
}

/// The directives of `Cache-Control` that decide freshness (RFC 9111 §5.2.2).
#[derive(Clone, Copy, Default)]
struct CacheControl {
    max_age: Option<u64>,
    s_maxage: Option<u64>,
    no_store: bool,
    /// Unqualified only: `no-cache="field"` restricts those fields, not the response.
    no_cache: bool,
    /// Unqualified only, as for `no-cache`.
    private: bool,
}

impl CacheControl {
    /// `#cache-directive`, `cache-directive = token [ "=" ( token / quoted-string ) ]`
    /// (RFC 9111 §5.2), read leniently: optional whitespace around `=`, commas inside quoted
    /// strings do not split, anything else unexpected discards that one directive.
    fn parse(v: &[u8]) -> CacheControl {
        let mut cc = CacheControl::default();
        let mut i = 0usize;
        let n = v.len();
        while i < n {
            // Skip separators.
            while matches!(v.get(i), Some(b' ' | b'\t' | b',')) {
                i = i.saturating_add(1);
            }
            if i >= n {
                break;
            }
            let name_start = i;
            while v.get(i).is_some_and(|&c| is_tchar(c)) {
                i = i.saturating_add(1);
            }
            let name = v.get(name_start..i).unwrap_or(&[]);
            i = skip_ows(v, i);
            let mut value: Option<&[u8]> = None;
            let mut ok = !name.is_empty();
            if v.get(i) == Some(&b'=') {
                i = skip_ows(v, i.saturating_add(1));
                if v.get(i) == Some(&b'"') {
                    // quoted-string: up to the closing quote, skipping backslash escapes.
                    let start = i.saturating_add(1);
                    let mut j = start;
                    let mut closed = false;
                    while let Some(&c) = v.get(j) {
                        if c == b'\\' {
                            j = j.saturating_add(2);
                        } else if c == b'"' {
                            closed = true;
                            break;
                        } else {
                            j = j.saturating_add(1);
                        }
                    }
                    value = v.get(start..j.min(n));
                    i = j.saturating_add(1).min(n);
                    ok &= closed;
                } else {
                    let start = i;
                    while v.get(i).is_some_and(|&c| is_tchar(c)) {
                        i = i.saturating_add(1);
                    }
                    value = v.get(start..i);
                    ok &= i > start;
                }
                i = skip_ows(v, i);
            }
            // Anything before the next comma makes the directive malformed.
            if !matches!(v.get(i), None | Some(b',')) {
                ok = false;
                while !matches!(v.get(i), None | Some(b',')) {
                    // Step over quoted strings so their commas do not split.
                    if v.get(i) == Some(&b'"') {
                        i = i.saturating_add(1);
                        while let Some(&c) = v.get(i) {
                            i = i.saturating_add(if c == b'\\' { 2 } else { 1 });
                            if c == b'"' {
                                break;
                            }
                        }
                    } else {
                        i = i.saturating_add(1);
                    }
                }
            }
            if ok {
                cc.apply(name, value);
            }
        }
        cc
    }

    fn apply(&mut self, name: &[u8], value: Option<&[u8]>) {
        if name.eq_ignore_ascii_case(b"max-age") {
            if self.max_age.is_none() {
                self.max_age = value.and_then(delta_seconds);
            }
        } else if name.eq_ignore_ascii_case(b"s-maxage") {
            if self.s_maxage.is_none() {
                self.s_maxage = value.and_then(delta_seconds);
            }
        } else if name.eq_ignore_ascii_case(b"no-store") {
            self.no_store |= value.is_none();
        } else if name.eq_ignore_ascii_case(b"no-cache") {
            self.no_cache |= value.is_none();
        } else if name.eq_ignore_ascii_case(b"private") {
            self.private |= value.is_none();
        }
    }
}

/// RFC 9110 §5.6.2 `tchar`.
const fn is_tchar(c: u8) -> bool {
    matches!(c,
        b'!' | b'#' | b'$' | b'%' | b'&' | b'\'' | b'*' | b'+' | b'-' | b'.' | b'^' | b'_' | b'`'
        | b'|' | b'~' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
}

fn skip_ows(v: &[u8], mut i: usize) -> usize {
    while matches!(v.get(i), Some(b' ' | b'\t')) {
        i = i.saturating_add(1);
    }
    i
}

fn trim_ows(v: &[u8]) -> &[u8] {
    let start = v
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t'))
        .unwrap_or(v.len());
    let end = v
        .iter()
        .rposition(|c| !matches!(c, b' ' | b'\t'))
        .map_or(start, |p| p.saturating_add(1));
    v.get(start..end).unwrap_or(&[])
}

/// `delta-seconds = 1*DIGIT` (RFC 9111 §1.2.2); values past 2^31 are read as 2^31, as that
/// section allows.
fn delta_seconds(v: &[u8]) -> Option<u64> {
    const MAX: u64 = 1 << 31;
    if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0u64, |acc, &c| {
        acc.saturating_mul(10)
            .saturating_add(u64::from(c.wrapping_sub(b'0')))
            .min(MAX)
    }))
}
