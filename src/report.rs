//! Floor 6: the answers of the packages' rich calls as plain data, built here once for every
//! face (the npm package's rich module, wasm-rich/; the Python package, python/): `explain`,
//! `diagnostics`, `records` and `ai_preferences`. With the `serde` feature they serialise with
//! the field names of the npm package's JavaScript API (js/index.d.ts), which the Python
//! package's `to_dict()` gives too, so the two can be compared case by case.

use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "aipref")]
use crate::aipref::{self, Answers, Origin, Preference, Why};
use crate::decide::{Reason, SelectedBy};
use crate::dialect::DialectId;
use crate::model::RecordKind;
use crate::robots::Robots;
#[cfg(feature = "serde")]
use serde::Serialize;

/// The verdict for a URL and an agent, and why (`explain`), with the words a renderer prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Explanation<'a> {
    pub allowed: bool,
    /// `Reason::as_str`.
    pub reason: &'static str,
    /// The deciding rule's line, 0 when no rule decided.
    pub line: u32,
    pub rule: Option<Rule<'a>>,
    /// The groups the agent obeys; none when no group applies.
    pub group: Option<Group<'a>>,
    /// The part of the URL the rules were matched against, as the dialect reads it (its path,
    /// with the query where the dialect matches one), normalised.
    pub path: String,
    /// `Reason::words`: the reason in a few words.
    pub because: &'static str,
    /// Why the verdict, in the dialect's words (with no group, why none applies).
    pub why: String,
}

/// The deciding rule, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Rule<'a> {
    pub line: u32,
    /// `RuleKind::as_str`: `allow` or `disallow`.
    pub kind: &'static str,
    pub pattern: &'a str,
}

/// The groups an agent obeys: the line of each, and their user-agent values as written; what
/// selected them, and why, in the dialect's words.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Group<'a> {
    pub lines: Vec<u32>,
    pub agents: Vec<&'a str>,
    /// Each group's last line (`GroupView::last_line`): with `lines`, the span of each group,
    /// what a renderer highlights.
    pub ends: Vec<u32>,
    /// `SelectedBy::as_str`: `token`, `header-word`, `record` or `global`.
    pub by: &'static str,
    /// `SelectedBy::token`: the agent, the word of its header, or the record's value that named
    /// the groups; `*` for the global groups.
    pub token: String,
    /// Why these groups, in the dialect's words.
    pub why: String,
}

/// A finding of the parser.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Diagnostic {
    pub line: u32,
    pub severity: &'static str,
    pub code: &'static str,
    pub message: String,
}

/// A line that is not a user-agent, rule or Sitemap line (`records`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Record<'a> {
    pub key: &'a str,
    pub value: &'a str,
    pub line: u32,
    /// The user-agent lines it applies to; none outside any group.
    pub agents: Option<Vec<&'a str>>,
}

/// `robots.check(url, agent)` with the deciding rule, the groups the agent obeys, and why.
pub fn explain<'a>(robots: &'a Robots, url: &str, agent: &str) -> Explanation<'a> {
    // `check`, in its steps: the path is also the answer's.
    let matched = robots.path(url);
    let v = robots.check_path(&matched, robots.selection(agent));
    let rule = robots.deciding_rule(&v).map(|rule| Rule {
        line: rule.line,
        kind: rule.kind.as_str(),
        pattern: rule.pattern,
    });
    // Text: a path read from a `&str` and normalised stays UTF-8 (its escapes are ASCII).
    let path = String::from(core::str::from_utf8(matched.as_bytes()).unwrap_or(url));
    let words = words(robots.dialect().id);
    let by = robots.selected_by(agent);
    let lines: Vec<u32> = robots
        .selected_groups(v.selection)
        .map(|g| g.line())
        .collect();
    let fill = |template: &str| fill(template, by.token(), agent, &path);
    let group = (!lines.is_empty()).then(|| Group {
        ends: robots
            .selected_groups(v.selection)
            .map(|g| g.last_line())
            .collect(),
        agents: robots
            .selected_groups(v.selection)
            .flat_map(|g| g.agents().map(|(_, value)| value))
            .collect(),
        by: by.as_str(),
        token: String::from(by.token()),
        why: match by {
            SelectedBy::HeaderWord(_) => fill(words.header),
            SelectedBy::Global | SelectedBy::None => fill(words.global),
            _ if lines.len() > 1 => fill(words.token) + " " + MERGED,
            _ => fill(words.token),
        },
        lines,
    });
    let why = match v.reason {
        Reason::Rule => fill(words.precedence),
        Reason::EmptyRule => fill(EMPTY_RULE),
        Reason::NoMatch => fill(NO_MATCH),
        Reason::RobotsTxt => fill(ROBOTS_TXT),
        Reason::NoGroup => fill(NO_GROUP),
    };
    Explanation {
        allowed: v.allowed,
        reason: v.reason.as_str(),
        line: rule.as_ref().map_or(0, |rule| rule.line),
        rule,
        group,
        path,
        because: v.reason.words(),
        why,
    }
}

// ---- The words of an explanation ------------------------------------------------------------
// Data, filled in by `fill`: `{token}` (what selected the groups, `SelectedBy::token`), `{agent}`
// (the crawler as given), `{path}` (`Explanation::path`).

/// One dialect's words: why its groups (`token`: named by the agent; `header`: by a word of a
/// User-Agent header; `global`: the `*` groups) and why its rule decides (`precedence`).
struct Words {
    token: &'static str,
    header: &'static str,
    global: &'static str,
    precedence: &'static str,
}

const FIRST_STAR_RECORD: &str =
    "No record names this robot, so the first User-agent: * record applies.";
const MERGED: &str = "The groups that name it are merged into one.";
const EMPTY_RULE: &str = "Only an empty rule matched (a Disallow or Allow with no path). An empty rule has no effect, so the URL is allowed.";
const NO_MATCH: &str =
    "No rule of this group matches the path “{path}”, and a URL that no rule matches is allowed.";
const ROBOTS_TXT: &str =
    "The URL is /robots.txt itself, which this dialect lets a crawler always fetch.";
const NO_GROUP: &str = "No group names “{agent}” and there is no User-agent: * group, so nothing in this file restricts it: every URL is allowed.";

/// The words of each dialect (its rules are cited in src/dialect.rs and docs/semantics.md).
fn words(id: DialectId) -> &'static Words {
    match id {
        DialectId::Rfc9309 => &Words {
            token: "“{token}” equals the group's product token, ignoring case (RFC 9309 §2.2.1).",
            header: "“{token}”, a word of this User-Agent header, equals the group's product token, ignoring case (RFC 9309 §2.2.1; of a full header, the longest word that names a group is used).",
            global: "No group names this crawler, so the groups for User-agent: * apply (RFC 9309 §2.2.1).",
            precedence: "It decides because the most specific rule (the longest matching path) wins; on a tie, Allow wins (RFC 9309 §2.2.2).",
        },
        DialectId::Google => &Words {
            token: "“{token}” equals the group's product token, ignoring case. google/robotstxt compares the whole string it is given, so pass a product token such as Googlebot, not a full header.",
            header: "“{token}” equals the group's product token, ignoring case.",
            global: "No group names this crawler, so the groups for User-agent: * apply.",
            precedence: "It decides because the most specific rule (the longest matching path) wins; on a tie, Allow wins.",
        },
        DialectId::Draft1996 => &Words {
            token: "This is the first record whose User-agent value (“{token}”) contains the robot's name, ignoring case (1996 draft); records after it are not read.",
            header: "",
            global: FIRST_STAR_RECORD,
            precedence: "It decides because the first matching rule of the record, in file order, wins.",
        },
        DialectId::Original1994 => &Words {
            token: "This is the first record with a User-agent value (“{token}”) that occurs in “{agent}”, ignoring case (1994 standard: a substring match, so “bot” would also match “Robot”); records after it are not read.",
            header: "",
            global: FIRST_STAR_RECORD,
            precedence: "It decides because any Disallow whose value starts the path excludes it; Allow does not exist in 1994, so those lines are ignored.",
        },
        DialectId::Revisited => &Words {
            token: "This is the first record with a User-agent id (“{token}”) that occurs in “{agent}”, ignoring case (a substring match, as in 1994); records after it are not read.",
            header: "",
            global: FIRST_STAR_RECORD,
            precedence: "It decides because any Disallow path that starts the URL's path excludes it; Allow lines are ignored.",
        },
    }
}

/// `template` with its placeholders filled in.
fn fill(template: &str, token: &str, agent: &str, path: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find('}').map_or(0, |e| e + 1);
        match &rest[..end] {
            "{token}" => out.push_str(token),
            "{agent}" => out.push_str(agent),
            "{path}" => out.push_str(path),
            _ => {
                out.push('{');
                rest = &rest[1..];
                continue;
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// What the parser noticed, in line order.
pub fn diagnostics(robots: &Robots) -> Vec<Diagnostic> {
    robots
        .diagnostics()
        .iter()
        .map(|d| Diagnostic {
            line: d.line,
            severity: d.severity.as_str(),
            code: d.code.as_str(),
            message: d.message(),
        })
        .collect()
}

/// Every record but Sitemap lines (`robots.sitemaps()` has those).
pub fn records(robots: &Robots) -> Vec<Record<'_>> {
    robots
        .records()
        .filter(|record| record.kind != RecordKind::Sitemap)
        .map(|record| Record {
            key: record.field,
            value: record.value,
            line: record.line,
            agents: record.group.map(|_| record.agents().collect()),
        })
        .collect()
}

/// An object whose keys keep the order given (a table's order, e.g. the AI categories').
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ordered<K, V>(pub Vec<(K, V)>);

#[cfg(feature = "serde")]
impl<K: Serialize, V: Serialize> Serialize for Ordered<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// `aiPreferences(url, agent, { header })` (js/index.d.ts `AiPreferences`).
#[cfg(feature = "aipref")]
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct AiPreferences {
    pub allowed: bool,
    pub reason: &'static str,
    pub line: u32,
    pub content_usage: Usage,
    pub content_signal: Option<Ordered<String, Option<String>>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub header_usage: Option<Usage>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub combined: Option<Usage>,
    pub why: AiWhy,
}

/// Why each AI category has its value (js/index.d.ts `AiPreferences.why`).
#[cfg(feature = "aipref")]
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct AiWhy {
    pub content_usage: Whys,
    pub content_signal: Option<Ordered<String, Option<u32>>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub header_usage: Option<Whys>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub combined: Option<Whys>,
}

/// Each category's value (`y`, `n` or none), in the vocabulary's order.
pub type Usage = Ordered<&'static str, Option<&'static str>>;
/// Each category's reason, in the vocabulary's order.
#[cfg(feature = "aipref")]
pub type Whys = Ordered<&'static str, AiReason>;

/// Why a category has its value (js/index.d.ts `AiReason`).
#[cfg(feature = "aipref")]
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct AiReason {
    pub code: &'static str,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub header: Option<bool>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub line: Option<u32>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub offset: Option<u32>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub failure: Option<&'static str>,
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "Option::is_none", rename = "type")
    )]
    pub r#type: Option<&'static str>,
    pub text: String,
}

/// The AI usage preferences for the URL and the agent, with a Content-Usage header value when
/// the caller has one (`Robots::ai_preferences`, as the packages present it).
#[cfg(feature = "aipref")]
pub fn ai_preferences(
    robots: &Robots,
    url: &str,
    agent: &str,
    header: Option<&str>,
) -> AiPreferences {
    let p = robots.ai_preferences(url, agent, header.map(str::as_bytes));
    let content_signal = p.content_signal.map(|answers| {
        let mut values = Vec::new();
        let mut lines = Vec::new();
        for (key, a) in aipref::SIGNAL_KEYS.iter().zip(answers) {
            values.push((String::from(*key), signal(a.preference).map(String::from)));
            lines.push((String::from(*key), a.line));
        }
        // Extra keys (`use`, 2026), as written.
        robots.content_signal_extras(p.verdict.selection, |line, key, value| {
            values.push((key.to_ascii_lowercase(), Some(String::from(value))));
            lines.push((key.to_ascii_lowercase(), Some(line)));
        });
        (Ordered(values), Ordered(lines))
    });
    let (signal_values, signal_lines) = content_signal.unzip();
    let (header_usage, header_whys) = p.header_usage.as_ref().map(usage).unzip();
    let (combined, combined_whys) = p.combined.as_ref().map(usage).unzip();
    let (content_usage, content_usage_why) = usage(&p.content_usage);
    AiPreferences {
        allowed: p.verdict.allowed,
        reason: p.verdict.reason.as_str(),
        line: robots.line_of(&p.verdict),
        content_usage,
        content_signal: signal_values,
        header_usage,
        combined,
        why: AiWhy {
            content_usage: content_usage_why,
            content_signal: signal_lines,
            header_usage: header_whys,
            combined: combined_whys,
        },
    }
}

#[cfg(feature = "aipref")]
fn usage_value(p: Preference) -> Option<&'static str> {
    match p {
        Preference::Unknown => None,
        Preference::Allowed => Some("y"),
        Preference::Disallowed => Some("n"),
    }
}

#[cfg(feature = "aipref")]
fn signal(p: Preference) -> Option<&'static str> {
    match p {
        Preference::Unknown => None,
        Preference::Allowed => Some("yes"),
        Preference::Disallowed => Some("no"),
    }
}

/// Each category's value and reason, in the vocabulary's order.
#[cfg(feature = "aipref")]
pub fn usage(answers: &Answers) -> (Usage, Whys) {
    let mut values = Vec::new();
    let mut whys = Vec::new();
    for (label, a) in aipref::LABELS.iter().zip(answers) {
        let (header, line) = match (a.why.origin(), a.why) {
            (Some(Origin::Header), _) => (Some(true), None),
            (Some(Origin::Line(line)), _) => (None, Some(line)),
            (None, Why::NotCrawlable(line)) => (None, Some(line)),
            (None, _) => (None, None),
        };
        let (offset, failure, r#type) = match a.why {
            Why::Malformed(_, e) => (Some(e.offset), Some(e.failure.as_str()), None),
            Why::NotYesNo(_, t) => (None, None, Some(t.as_str())),
            _ => (None, None, None),
        };
        values.push((*label, usage_value(a.preference)));
        whys.push((
            *label,
            AiReason {
                code: a.why.code(),
                header,
                line,
                offset,
                failure,
                r#type,
                text: alloc::string::ToString::to_string(&a.why),
            },
        ));
    }
    (Ordered(values), Ordered(whys))
}

/// The field lines of one header as one value: joined with `, ` (RFC 9110 section 5.3, how a
/// recipient combines repeated field lines), as the packages take a header given as its lines.
pub fn combine_field_lines(lines: &[&str]) -> String {
    lines.join(", ")
}

/// A Content-Usage header alone: each category's value (`parseContentUsage`).
#[cfg(feature = "aipref")]
pub fn content_usage(header: &str) -> Usage {
    let answers = aipref::answers(&aipref::Statement::parse(header.as_bytes()), Origin::Header);
    usage(&answers).0
}
