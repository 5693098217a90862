//! Floor 1 (a leaf): what a finding is: its [`Severity`], its stable [`Code`] and the
//! [`Diagnostic`] that attaches it to a line. `parse` makes them, `lint` adds the findings about
//! whole groups, and everything above reads them; this module imports nothing of the crate.
//!
//! Messages are static text plus an optional detail, so no formatting machinery is needed.

use alloc::string::String;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing; nothing is lost.
    Info,
    /// Accepted, but not standard or probably not what was meant.
    Warning,
    /// A line (or part of the file) is ignored, so the file does not say what its author meant.
    Error,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! codes {
    ($($(#[$attr:meta])* $variant:ident = $code:literal, $severity:ident, $message:literal;)*) => {
        /// What a diagnostic is about. `as_str` is a stable kebab-case code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Code { $($(#[$attr])* $variant,)* }

        impl Code {
            /// Every code, for documentation and tests.
            pub const ALL: &'static [Code] = &[$($(#[$attr])* Code::$variant,)*];

            /// The stable code, e.g. `missing-colon`.
            pub const fn as_str(self) -> &'static str {
                match self { $($(#[$attr])* Code::$variant => $code,)* }
            }

            /// The usual severity; a dialect that tolerates the problem lowers it.
            pub const fn severity(self) -> Severity {
                match self { $($(#[$attr])* Code::$variant => Severity::$severity,)* }
            }

            /// A sentence a person can act on.
            pub const fn message(self) -> &'static str {
                match self { $($(#[$attr])* Code::$variant => $message,)* }
            }
        }
    };
}

codes! {
    // The AI-preference findings exist with the `aipref` feature only: the wasm build leaves it
    // off (its gzip budget), and their messages would be its dead text.
    Bom = "bom", Info, "The file starts with a UTF-8 byte order mark; it is skipped.";
    Utf16 = "utf-16", Error, "The file is UTF-16 encoded; robots.txt must be UTF-8 (RFC 9309 §2.3). Save it as UTF-8.";
    Utf16Bom = "utf-16-bom", Warning, "The file starts with a UTF-16 byte order mark but is not UTF-16: remove the mark (parsers that honour it read nothing).";
    InvalidUtf8 = "invalid-utf8", Warning, "This line is not valid UTF-8 (RFC 9309 §2.3 requires UTF-8); its bytes are compared as they are.";
    NulByte = "nul-byte", Warning, "This line contains a NUL byte; everything after it on the line is ignored.";
    Html = "html", Error, "This looks like an HTML page, not a robots.txt file: check what the server returns for /robots.txt.";
    LineTooLong = "line-too-long", Warning, "This line is longer than the dialect reads; the rest of it is ignored.";
    LongLine = "long-line", Warning, "This line is longer than 16,663 bytes: Google's parser ignores the rest of it, so Googlebot may read a different rule.";
    Truncated = "truncated", Error, "The file is larger than the size limit; everything from here on is ignored (RFC 9309 §2.5).";
    MissingColon = "missing-colon", Error, "This line has no ':' after its field name, so it is ignored. Write it as 'field: value'.";
    MissingColonAccepted = "missing-colon-accepted", Warning, "This line has no ':' after its field name; this dialect reads it anyway, others ignore it.";
    UnknownField = "unknown-field", Warning, "Unknown field; it is ignored.";
    Typo = "typo", Warning, "Misspelt field name, read as the field it resembles; other parsers may ignore it.";
    KeyPrefix = "key-prefix", Warning, "Field name only starts with a known name; this dialect reads it as that field, others ignore it.";
    RuleOutsideGroup = "rule-outside-group", Error, "This rule is not in any group (no User-agent line before it since the file or record started), so it is ignored.";
    BlankLineEndsGroup = "blank-line-ends-group", Warning, "A blank line ends the record in this dialect, so the rules after it belong to no group. Remove the blank line.";
    EmptyUserAgent = "empty-user-agent", Warning, "User-agent line with no product token; it matches no crawler.";
    InvalidProductToken = "invalid-product-token", Warning, "A product token may contain only letters, '-' and '_' (RFC 9309 §2.2.1); parsers disagree on how to read this one.";
    EmptyGroup = "empty-group", Info, "This group has no rules, so it allows everything for the crawlers it names.";
    PatternNoSlash = "pattern-no-slash", Warning, "A path pattern must start with '/' (or '*'); this one can never match.";
    EmptyRule = "empty-rule", Info, "An empty rule has no effect.";
    AllowIgnored = "allow-ignored", Warning, "Allow is not part of this dialect; the line is ignored. Crawlers of this dialect may be kept out of URLs you meant to allow.";
    WildcardLiteral = "wildcard-literal", Info, "'*' and '$' have no special meaning in this dialect; they are matched literally.";
    DollarNotAtEnd = "dollar-not-at-end", Info, "'$' only anchors the end of a pattern when it is the last character; here it is a literal '$'.";
    DuplicateRule = "duplicate-rule", Warning, "The same rule appears earlier in this group; this one never decides.";
    ShadowedRule = "shadowed-rule", Warning, "An earlier or more specific rule always decides first, so this rule can never decide.";
    ConflictingRules = "conflicting-rules", Warning, "Allow and Disallow with the same path: Allow wins (RFC 9309 §2.2.2), so the Disallow never decides.";
    MultipleDefaultGroups = "multiple-default-groups", Warning, "More than one 'User-agent: *' record; only the first one is used in this dialect.";
    RecordOutsideGroup = "record-outside-group", Info, "This record is not in any group, so it applies to no crawler (a few parsers apply it to all).";
    InvalidCrawlDelay = "invalid-crawl-delay", Warning, "Crawl-delay must be a number of seconds; this value is ignored.";
    CrawlDelayCapped = "crawl-delay-capped", Warning, "Crawl-delay over 2^32 - 1 seconds; read as 4294967295.";
    MultipleCrawlDelay = "multiple-crawl-delay", Warning, "A user-agent already has a Crawl-delay from an earlier line; this one counts, but some parsers keep the first.";
    InvalidRequestRate = "invalid-request-rate", Warning, "Request-rate must read like 1/10s, 1/10m or 1/1h; this value is ignored.";
    MultipleRequestRate = "multiple-request-rate", Warning, "A user-agent already has a Request-rate from an earlier line; this one counts, but some parsers keep the first.";
    InvalidHost = "invalid-host", Warning, "Host must be a host name, with an optional scheme and port; this value is ignored.";
    MultipleHost = "multiple-host", Info, "Only the first valid Host line counts; this one is ignored.";
    SitemapNotAbsolute = "sitemap-not-absolute", Warning, "A Sitemap value must be a full URL (https://...).";
    Ignored = "ignored-line", Error, "This line has no field name; it is ignored.";
    #[cfg(feature = "aipref")]
    PreferenceOutsideGroup = "preference-outside-group", Warning, "Content-Usage and Content-Signal belong to a group; this one, before any User-agent line, is ignored.";
    #[cfg(feature = "aipref")]
    MalformedUsage = "malformed-content-usage", Error, "Not an RFC 9651 Dictionary from here on: every category is unknown for this rule.";
    #[cfg(feature = "aipref")]
    UsageNotYesNo = "content-usage-not-y-or-n", Warning, "Only y and n state a preference; this category is unknown.";
    #[cfg(feature = "aipref")]
    UnknownCategory = "unknown-category", Info, "Not an aipref category (train-ai, ai-use, search); ignored.";
    #[cfg(feature = "aipref")]
    UsagePathSpace = "content-usage-path-space", Warning, "A path ends at the first space; the rest is read as the statement. Write %20.";
    #[cfg(feature = "aipref")]
    SignalValue = "content-signal-value", Warning, "Content-Signal values are yes or no; this signal is unknown.";
    #[cfg(feature = "aipref")]
    UnknownSignal = "unknown-signal", Info, "Not a Content-Signal signal (search, ai-input, ai-train); kept as an extra.";
    #[cfg(feature = "aipref")]
    SignalPath = "content-signal-path", Warning, "Content-Signal has no path form; this line is ignored.";
}

/// One finding, attached to a line (0 for the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: u32,
    pub severity: Severity,
    pub code: Code,
    /// The text concerned (a field name, a token, a pattern), when there is one.
    pub detail: Option<String>,
}

impl Diagnostic {
    /// The message with its detail, for people: `message (detail)`.
    pub fn message(&self) -> String {
        let mut s = String::from(self.code.message());
        if let Some(detail) = &self.detail {
            s.push_str(" (");
            s.push_str(detail);
            s.push(')');
        }
        s
    }
}
