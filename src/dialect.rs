//! Floor 1 (a leaf): dialects: each is a preset of a small set of documented knobs
//! (`docs/architecture.md` lists where each knob is read).
//!
//! Every knob is one behaviour on which the standards disagree; each preset cites its source in
//! `docs/semantics.md` (sections A: 1994, B: 1996 draft, C: RFC 9309, I: google/robotstxt) or
//! the seed documents. A change to one dialect touches only its preset below.
//!
//! Records other than rules follow the knobs too: a Crawl-delay or Request-rate applies to the
//! run of user-agent lines above it, in the groups `group_merge` and `agent_match` select, and
//! the last valid value counts (docs/records.md has the per-dialect table and the peers).

/// The named dialects. `Rfc9309` is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DialectId {
    /// RFC 9309 (2022), the Robots Exclusion Protocol.
    #[default]
    Rfc9309,
    /// Exactly what the google/robotstxt reference library does (commit 22b355f).
    Google,
    /// draft-koster-robots-00, "A Method for Web Robots Control" (1996), as described in
    /// *HTTP: The Definitive Guide* ch. 9 (seed 002).
    Draft1996,
    /// "A Standard for Robot Exclusion" (Koster, 1994; seed 003).
    Original1994,
    /// "Robot Exclusion Standard Revisited" (Kollar, Leavitt & Mauldin; seed 001): several
    /// agent ids and several paths per line, whitespace-separated.
    Revisited,
}

impl DialectId {
    /// Every dialect, default first.
    pub const ALL: [DialectId; 5] = [
        DialectId::Rfc9309,
        DialectId::Google,
        DialectId::Draft1996,
        DialectId::Original1994,
        DialectId::Revisited,
    ];

    /// The dialect's stable name, as used by the CLI and the npm package.
    pub const fn name(self) -> &'static str {
        match self {
            DialectId::Rfc9309 => "rfc9309",
            DialectId::Google => "google",
            DialectId::Draft1996 => "draft1996",
            DialectId::Original1994 => "original1994",
            DialectId::Revisited => "revisited",
        }
    }

    /// Looks a dialect up by its name (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Option<DialectId> {
        DialectId::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// The knobs of this dialect.
    pub const fn dialect(self) -> Dialect {
        match self {
            DialectId::Rfc9309 => RFC9309,
            DialectId::Google => GOOGLE,
            DialectId::Draft1996 => DRAFT1996,
            DialectId::Original1994 => ORIGINAL1994,
            DialectId::Revisited => REVISITED,
        }
    }
}

/// What ends a group (a "record" in the 1994/1996 texts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupBoundary {
    /// A user-agent line that follows a rule starts a new group; blank lines and other records
    /// never end one (RFC 9309 §2.1, §2.2.4; semantics C.1, I.13).
    UserAgentAfterRule,
    /// A blank line ends the record (1994 §"format", 1996 §3.2); a user-agent line after a rule
    /// also starts a new record, as the Revisited example 1 shows.
    BlankLine,
}

/// How a group's product token is compared with the crawler's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentMatch {
    /// Case-insensitive equality of product tokens (RFC 9309 §2.2.1). A full User-Agent header
    /// given by the caller is reduced to the most specific group token it names.
    Token,
    /// google/robotstxt: the group's value is cut to its leading `[A-Za-z_-]` run and compared,
    /// case-insensitively, with the caller's *whole* string (semantics I.15).
    GoogleWhole,
    /// The group's value contains the robot's name token as a case-insensitive substring
    /// (1996 draft §3.2.1).
    ValueContainsName,
    /// The group's value is a case-insensitive substring of the robot's name or User-Agent
    /// (1994 "liberal" reading as WWW::RobotRules implements it, seed 002; Revisited: "the
    /// agent_id is a substring of the product token").
    NameContainsValue,
}

/// Which of the matching groups are obeyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupMerge {
    /// All groups naming the agent are combined; so are all `*` groups (RFC 9309 §2.2.1, I.13).
    All,
    /// Only the first matching record (1996 §3.2.1; 1994: one record per robot).
    FirstOnly,
}

/// Which matching rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// The most specific (longest pattern, in octets) wins; allow wins ties (RFC 9309 §2.2.2).
    LongestMatch,
    /// The first matching rule in file order wins (1996 draft §3.2.2).
    FirstMatch,
}

/// How `%xx` escapes and non-ASCII octets are normalised before comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PercentEncoding {
    /// Compare octets as written (1994).
    None,
    /// Decode escapes of unreserved characters, upper-case the rest, encode non-ASCII and
    /// controls, on both sides (RFC 9309 §2.2.2).
    Rfc9309,
    /// Escape non-ASCII octets of rules and upper-case `%xx` in rules; never decode; the URL is
    /// used as given (semantics I.8, I.9).
    Google,
    /// Decode every `%xx` except `%2F` on both sides (1996 draft §3.2.2).
    DecodeExceptSlash,
}

/// How the value of a rule line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// One value per line: the whole (trimmed) value.
    One,
    /// Several whitespace-separated values per line (Revisited).
    WhitespaceSeparated,
}

/// Tolerance of the line syntax beyond the standard (google/robotstxt, semantics I.6, I.7, I.17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leniency {
    /// Accept the frequent typos (`dissallow`, `useragent`, `site-map`, ...).
    pub typos: bool,
    /// Accept a line without a colon when it has exactly two whitespace-separated tokens.
    pub missing_colon: bool,
    /// Keys match by prefix (`Disallowed:` is `disallow`).
    pub key_prefix: bool,
    /// `Allow: /d/index.html` also allows `/d/` (google/robotstxt only).
    pub index_html: bool,
}

/// The knobs of one dialect. See `DialectId::dialect` for the presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    pub id: DialectId,
    pub group_boundary: GroupBoundary,
    pub agent_match: AgentMatch,
    /// Several agent ids on one user-agent line.
    pub agent_values: Values,
    pub group_merge: GroupMerge,
    pub precedence: Precedence,
    /// Whether `Allow` is a field at all (the 1994 standard and Revisited know only Disallow).
    pub allow_lines: bool,
    /// `*` matches any run of octets and a final `$` anchors the end (RFC 9309 §2.2.3).
    pub wildcards: bool,
    pub percent: PercentEncoding,
    /// Several whitespace-separated paths on one rule line.
    pub rule_values: Values,
    /// An empty `Allow:` matches every path (the 1996 draft's prefix table, seed 002);
    /// otherwise empty rules have no effect (RFC 9309 convention, Google, 1994).
    pub empty_allow_matches_all: bool,
    pub leniency: Leniency,
    /// `/robots.txt` is always allowed (RFC 9309 §2.2.2, 1996 §3.2.2).
    pub robots_txt_allowed: bool,
    /// The longest line kept, in bytes; the rest of a longer line is dropped (google/robotstxt
    /// keeps 16,663 bytes, semantics I.3). `0` means no limit.
    pub max_line_bytes: usize,
    /// Whether the query string is part of the matched path.
    pub match_query: bool,
    /// Content-Usage and Content-Signal lines are rules of their group, so a user-agent line
    /// after one starts a new group (draft-ietf-aipref-attach-05 §3 adds Content-Usage to
    /// RFC 9309's `rule`; [I-6] reads Content-Signal the same way). Otherwise they are other
    /// records, which never end a group (google/robotstxt knows neither key; the older texts
    /// predate them).
    pub preference_rules: bool,
}

const STRICT: Leniency = Leniency {
    typos: false,
    missing_colon: false,
    key_prefix: false,
    index_html: false,
};

/// RFC 9309. Where the RFC is silent we take Google's reading (merged `*` groups, `$` special
/// only at the end, typos accepted as §2.2.4 allows).
pub const RFC9309: Dialect = Dialect {
    id: DialectId::Rfc9309,
    group_boundary: GroupBoundary::UserAgentAfterRule,
    agent_match: AgentMatch::Token,
    agent_values: Values::One,
    group_merge: GroupMerge::All,
    precedence: Precedence::LongestMatch,
    allow_lines: true,
    wildcards: true,
    percent: PercentEncoding::Rfc9309,
    rule_values: Values::One,
    empty_allow_matches_all: false,
    // §2.2.4: "crawlers may accept common misspellings of the record".
    leniency: Leniency {
        typos: true,
        missing_colon: false,
        key_prefix: false,
        index_html: false,
    },
    robots_txt_allowed: true,
    max_line_bytes: 0,
    match_query: true,
    preference_rules: true,
};

/// google/robotstxt at commit 22b355f, behaviour for behaviour (semantics section I).
pub const GOOGLE: Dialect = Dialect {
    id: DialectId::Google,
    group_boundary: GroupBoundary::UserAgentAfterRule,
    agent_match: AgentMatch::GoogleWhole,
    agent_values: Values::One,
    group_merge: GroupMerge::All,
    precedence: Precedence::LongestMatch,
    allow_lines: true,
    wildcards: true,
    percent: PercentEncoding::Google,
    rule_values: Values::One,
    empty_allow_matches_all: false,
    leniency: Leniency {
        typos: true,
        missing_colon: true,
        key_prefix: true,
        index_html: true,
    },
    robots_txt_allowed: false,
    max_line_bytes: 16_663,
    match_query: true,
    preference_rules: false,
};

/// The 1996 draft (semantics B; seed 002's prefix table and status rules).
pub const DRAFT1996: Dialect = Dialect {
    id: DialectId::Draft1996,
    group_boundary: GroupBoundary::BlankLine,
    agent_match: AgentMatch::ValueContainsName,
    agent_values: Values::One,
    group_merge: GroupMerge::FirstOnly,
    precedence: Precedence::FirstMatch,
    allow_lines: true,
    wildcards: false,
    percent: PercentEncoding::DecodeExceptSlash,
    rule_values: Values::One,
    empty_allow_matches_all: true,
    leniency: STRICT,
    robots_txt_allowed: true,
    max_line_bytes: 0,
    match_query: true,
    preference_rules: false,
};

/// The 1994 standard (semantics A; seed 003).
pub const ORIGINAL1994: Dialect = Dialect {
    id: DialectId::Original1994,
    group_boundary: GroupBoundary::BlankLine,
    agent_match: AgentMatch::NameContainsValue,
    agent_values: Values::One,
    group_merge: GroupMerge::FirstOnly,
    // Disallow-only: any matching Disallow blocks, so "first match" is the same decision.
    precedence: Precedence::FirstMatch,
    allow_lines: false,
    wildcards: false,
    percent: PercentEncoding::None,
    rule_values: Values::One,
    empty_allow_matches_all: false,
    leniency: STRICT,
    robots_txt_allowed: false,
    max_line_bytes: 0,
    match_query: true,
    preference_rules: false,
};

/// "Robot Exclusion Standard Revisited" (seed 001): the 1994 model with several agent ids and
/// several paths per line.
pub const REVISITED: Dialect = Dialect {
    id: DialectId::Revisited,
    agent_values: Values::WhitespaceSeparated,
    rule_values: Values::WhitespaceSeparated,
    ..ORIGINAL1994
};
