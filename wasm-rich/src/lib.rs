//! The rich module of robots-eval's npm package: everything that is not on a crawler's hot path.
//! Explanations, diagnostics, records, AI usage preferences, robots META tags and `X-Robots-Tag`.
//!
//! The verdict module (wasm/) answers the per-URL questions with numbers through buffers, no_std,
//! and every user compiles it on the first parse. This one is compiled by `js/rich.js` on the first
//! call that needs it (`explain`, `diagnostics`, `records`, `aiPreferences`, `parseContentUsage`,
//! `metaRobots`, `xRobotsTag`), and a bundle made from the `robots-eval/verdict` entry leaves it
//! out. So here the boundary is plain wasm-bindgen: strings and bytes in, and the Rust result types
//! out as JS objects through `serde-wasm-bindgen` (field names are the JavaScript API's,
//! js/index.d.ts; `None` is `null`). No JSON text, no hand-written decoder.
//!
//! A `File` is its own parse of the same text the verdict module parsed, with the same dialect and
//! size cap (`js/robots.js` keeps the text): a parse takes microseconds, and each `Robots` makes
//! its `File` once, on its first rich call. Arguments are checked in the wrapper, so nothing here
//! fails; should anything panic, the module traps (release) and the wrapper replaces the instance.
//!
//! To add a function: a `#[wasm_bindgen]` method of `File` (per parsed file) or a free function,
//! returning `to_js(&value)` of a `#[derive(Serialize)]` type; then one wrapper method in
//! js/robots.js (or js/rich.js) and its type in js/index.d.ts (docs/architecture.md, "Where to add").

use robots_eval::aipref::{self, Answers, Origin, Preference, Why};
use robots_eval::{DialectId, Options, Reason, RecordKind, Robots};
use serde::ser::SerializeMap;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Talc, as in the verdict module (wasm-boundary/src/lib.rs says why).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "debug")]
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// `None` as `null` (serde-wasm-bindgen's default is `undefined`), maps as plain objects.
const SERIALIZER: serde_wasm_bindgen::Serializer = serde_wasm_bindgen::Serializer::new()
    .serialize_missing_as_null(true)
    .serialize_maps_as_objects(true);

/// A result as a JS value. Serialising these types cannot fail (string keys, numbers that fit a
/// JS number); `null` would stand for a failure.
fn to_js(value: &impl Serialize) -> JsValue {
    value.serialize(&SERIALIZER).unwrap_or(JsValue::NULL)
}

/// Reasons in the order of their discriminants, which the verdict module packs
/// (`Reason as u32`, wasm/src/lib.rs): checked here at compile time.
const REASONS: [Reason; 5] = [
    Reason::RobotsTxt,
    Reason::Rule,
    Reason::EmptyRule,
    Reason::NoMatch,
    Reason::NoGroup,
];
const _: () = {
    let mut i = 0;
    while i < REASONS.len() {
        assert!(REASONS[i] as usize == i);
        i += 1;
    }
};

fn options(dialect: u32, max_bytes: u32) -> Options {
    Options {
        dialect: DialectId::ALL
            .get(dialect as usize)
            .copied()
            .unwrap_or_default(),
        max_bytes: max_bytes as usize,
    }
}

/// An object whose keys keep the order given (a table's order, e.g. the AI categories').
struct Ordered<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Ordered<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The names the wrapper indexes by (dialects by `DialectId::ALL`, reasons by `Reason as u32`)
/// and the numbers of the numbers-only modules' protocol (robots-eval-boundary's `PROTOCOL`),
/// read by scripts/build-pkg.mjs at build time and written into the JavaScript.
#[derive(Serialize)]
struct Names {
    dialects: Vec<&'static str>,
    reasons: Vec<&'static str>,
    protocol: &'static [(&'static str, u32)],
}

/// Build time only (scripts/build-pkg.mjs drops it from the shipped module).
#[wasm_bindgen]
pub fn names() -> JsValue {
    to_js(&Names {
        dialects: DialectId::ALL.iter().map(|d| d.name()).collect(),
        reasons: REASONS.iter().map(|r| r.as_str()).collect(),
        protocol: robots_eval_boundary::PROTOCOL,
    })
}

// ---- One parsed robots.txt ----------------------------------------------------------------------

#[derive(Serialize)]
struct Explanation<'a> {
    allowed: bool,
    reason: &'static str,
    /// The deciding rule's line, 0 when no rule decided.
    line: u32,
    rule: Option<Rule<'a>>,
    group: Option<Group<'a>>,
}

#[derive(Serialize)]
struct Rule<'a> {
    line: u32,
    kind: &'static str,
    pattern: &'a str,
}

/// The groups an agent obeys.
#[derive(Serialize)]
struct Group<'a> {
    lines: Vec<u32>,
    agents: Vec<&'a str>,
}

#[derive(Serialize)]
struct Diagnostic {
    line: u32,
    severity: &'static str,
    code: &'static str,
    message: String,
}

/// A line that is not a user-agent, rule or Sitemap line (`robots.records`).
#[derive(Serialize)]
struct Record<'a> {
    key: &'a str,
    value: &'a str,
    line: u32,
    /// The user-agent lines it applies to; none outside any group.
    agents: Option<Vec<&'a str>>,
}

/// A robots.txt parsed by this module (the wrapper's `Robots` holds one, made on first use).
#[wasm_bindgen]
pub struct File {
    robots: Robots,
}

#[wasm_bindgen]
impl File {
    /// Parses text as `Robots.parse` did (the same text, dialect index and size cap).
    pub fn parse(text: &str, dialect: u32, max_bytes: u32) -> File {
        File::parse_bytes(text.as_bytes(), dialect, max_bytes)
    }

    /// Parses bytes as `Robots.parse` did.
    pub fn parse_bytes(bytes: &[u8], dialect: u32, max_bytes: u32) -> File {
        File {
            robots: Robots::parse_with(bytes, &options(dialect, max_bytes)),
        }
    }

    /// The verdict for the URL and the agent, and why (`Explanation`).
    pub fn explain(&self, url: &str, agent: &str) -> JsValue {
        let r = &self.robots;
        let selection = r.selection(agent);
        let v = robots_eval::hot::check_selection(r, url, selection);
        let rule = v.rule.and_then(|i| r.rule(i)).map(|rule| Rule {
            line: rule.line,
            kind: rule.kind.as_str(),
            pattern: rule.pattern,
        });
        let lines: Vec<u32> = r.selected_groups(selection).map(|g| g.line()).collect();
        let group = (!lines.is_empty()).then(|| Group {
            lines,
            agents: r
                .selected_groups(selection)
                .flat_map(|g| g.agents().map(|(_, value)| value))
                .collect(),
        });
        to_js(&Explanation {
            allowed: v.allowed,
            reason: v.reason.as_str(),
            line: rule.as_ref().map_or(0, |rule| rule.line),
            rule,
            group,
        })
    }

    /// What the parser noticed, in line order (`Diagnostic`s).
    pub fn diagnostics(&self) -> JsValue {
        let all: Vec<Diagnostic> = self
            .robots
            .diagnostics()
            .iter()
            .map(|d| Diagnostic {
                line: d.line,
                severity: d.severity.as_str(),
                code: d.code.as_str(),
                message: d.message(),
            })
            .collect();
        to_js(&all)
    }

    /// Every record but Sitemap lines (`Record`s).
    pub fn records(&self) -> JsValue {
        let all: Vec<Record> = self
            .robots
            .records()
            .filter(|record| record.kind != RecordKind::Sitemap)
            .map(|record| Record {
                key: record.field,
                value: record.value,
                line: record.line,
                agents: record.group.map(|_| record.agents().collect()),
            })
            .collect();
        to_js(&all)
    }

    /// "May this crawler use this page for AI?" (`Robots::ai_use`, docs/ai-use.md), as its
    /// result serialises (`AiUse`; `by` holds trace indices, which the wrapper maps to entries).
    /// `names`/`values`: the response's header field lines; `purposes`: labels, checked by the
    /// wrapper, empty for none given (`has_purposes` false); `fetch_status`: how robots.txt was
    /// fetched (`u32::MAX`: not fetched, this is a file the caller had; 0: no response) and
    /// `treated_as` the policy the wrapper's `fetchRobots` applied (its name), decided again
    /// here for the trace's reason.
    #[allow(clippy::too_many_arguments)]
    pub fn ai_use(
        &self,
        url: &str,
        agent: &str,
        names: Vec<String>,
        values: Vec<String>,
        html: Option<Vec<u8>>,
        tdmrep: Option<Vec<u8>>,
        has_purposes: bool,
        purposes: Vec<String>,
        policy_tokens: Vec<String>,
        fetch_status: u32,
        treated_as: &str,
    ) -> JsValue {
        use robots_eval::ai_use::{AiUseInputs, RobotsFetch};
        use robots_eval::aipref::operators::Purpose;
        use robots_eval::fetch::{self, FetchContext, FetchOutcome, Policy};
        let headers: Vec<(&str, &str)> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let purposes: Vec<Purpose> = purposes
            .iter()
            .filter_map(|p| Purpose::from_label(p))
            .collect();
        let policy_tokens: Vec<&str> = policy_tokens.iter().map(String::as_str).collect();
        let robots_fetch = (fetch_status != u32::MAX).then(|| {
            let status = u16::try_from(fetch_status).ok().filter(|s| *s != 0);
            let outcome = status.map_or(FetchOutcome::NetworkError, FetchOutcome::Status);
            let d = fetch::decide(self.robots.dialect().id, &outcome, &FetchContext::default());
            // What fetchRobots did (a cached copy, a deferral) wins over a first fetch's policy.
            let policy = match treated_as {
                "allow-all" => Policy::AllowAll,
                "disallow-all" => Policy::DisallowAll,
                "defer" => Policy::Defer,
                "use-cached" => Policy::UseCached,
                _ => d.policy,
            };
            RobotsFetch {
                status,
                policy,
                reason: d.reason,
            }
        });
        let inputs = AiUseInputs {
            headers: &headers,
            html: html.as_deref(),
            tdmrep: tdmrep.as_deref(),
            purposes: has_purposes.then_some(&purposes[..]),
            policy_tokens: &policy_tokens,
            robots_fetch,
        };
        to_js(&self.robots.ai_use(url, agent, &inputs))
    }

    /// The AI usage preferences for the URL and the agent, with a Content-Usage header value
    /// when the caller has one (`AiPreferences`).
    pub fn ai_preferences(&self, url: &str, agent: &str, header: Option<String>) -> JsValue {
        let r = &self.robots;
        let header = header.as_deref();
        let p = r.ai_preferences(url, agent, header.map(str::as_bytes));
        let content_signal = p.content_signal.map(|answers| {
            let mut values = Vec::new();
            let mut lines = Vec::new();
            for (key, a) in aipref::SIGNAL_KEYS.iter().zip(answers) {
                values.push((String::from(*key), signal(a.preference).map(String::from)));
                lines.push((String::from(*key), a.line));
            }
            // Extra keys (`use`, 2026), as written.
            r.content_signal_extras(p.verdict.selection, |line, key, value| {
                values.push((key.to_ascii_lowercase(), Some(String::from(value))));
                lines.push((key.to_ascii_lowercase(), Some(line)));
            });
            (Ordered(values), Ordered(lines))
        });
        let (signal_values, signal_lines) = content_signal.unzip();
        let header_usage = p.header_usage.as_ref().map(usage);
        let combined = p.combined.as_ref().map(usage);
        let (content_usage, content_usage_why) = usage(&p.content_usage);
        to_js(&AiOut {
            allowed: p.verdict.allowed,
            reason: p.verdict.reason.as_str(),
            line: r.line_of(&p.verdict),
            content_usage,
            content_signal: signal_values,
            header_usage: header_usage.as_ref().map(|(values, _)| values),
            combined: combined.as_ref().map(|(values, _)| values),
            why: AiWhy {
                content_usage: content_usage_why,
                content_signal: signal_lines,
                header_usage: header_usage.as_ref().map(|(_, whys)| whys),
                combined: combined.as_ref().map(|(_, whys)| whys),
            },
        })
    }
}

// ---- AI usage preferences -----------------------------------------------------------------------

/// `aiPreferences(url, agent, { header })` (js/index.d.ts `AiPreferences`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AiOut<'a> {
    allowed: bool,
    reason: &'static str,
    line: u32,
    content_usage: Usage,
    content_signal: Option<Ordered<String, Option<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    header_usage: Option<&'a Usage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    combined: Option<&'a Usage>,
    why: AiWhy<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AiWhy<'a> {
    content_usage: Whys,
    content_signal: Option<Ordered<String, Option<u32>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    header_usage: Option<&'a Whys>,
    #[serde(skip_serializing_if = "Option::is_none")]
    combined: Option<&'a Whys>,
}

type Usage = Ordered<&'static str, Option<&'static str>>;
type Whys = Ordered<&'static str, AiReason>;

/// Why a category has its value (js/index.d.ts `AiReason`).
#[derive(Serialize)]
struct AiReason {
    code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    header: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#type: Option<&'static str>,
    text: String,
}

fn usage_value(p: Preference) -> Option<&'static str> {
    match p {
        Preference::Unknown => None,
        Preference::Allowed => Some("y"),
        Preference::Disallowed => Some("n"),
    }
}

fn signal(p: Preference) -> Option<&'static str> {
    match p {
        Preference::Unknown => None,
        Preference::Allowed => Some("yes"),
        Preference::Disallowed => Some("no"),
    }
}

/// Each category's value and reason, in the vocabulary's order.
fn usage(answers: &Answers) -> (Usage, Whys) {
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
                text: a.why.to_string(),
            },
        ));
    }
    (Ordered(values), Ordered(whys))
}

/// A Content-Usage header alone: each category's value (`parseContentUsage`).
#[wasm_bindgen]
pub fn content_usage(header: &str) -> JsValue {
    let answers = aipref::answers(&aipref::Statement::parse(header.as_bytes()), Origin::Header);
    to_js(&usage(&answers).0)
}

// ---- Page-level rules: robots META tags and X-Robots-Tag ---------------------------------------

/// `metaRobots` / `xRobotsTag` (js/index.d.ts `MetaRobots`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MetaRobots<'a> {
    index: bool,
    follow: bool,
    archive: bool,
    snippet: bool,
    max_snippet: Option<f64>,
    max_image_preview: Option<&'static str>,
    max_video_preview: Option<f64>,
    image_index: bool,
    translate: bool,
    unavailable_after: Option<f64>,
    index_if_embedded: bool,
    directives: Vec<MetaDirective<'a>>,
    other: OtherMeta<'a>,
    truncated: bool,
}

#[derive(Serialize)]
struct MetaDirective<'a> {
    kind: &'static str,
    raw: &'a str,
    scope: Option<&'a str>,
    origin: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OtherMeta<'a> {
    description: Option<&'a str>,
    keywords: &'a [String],
    document_state: Option<&'a str>,
    url: Option<&'a str>,
    revisit_after: Option<RevisitAfter<'a>>,
}

#[derive(Serialize)]
struct RevisitAfter<'a> {
    raw: &'a str,
    days: Option<u32>,
}

/// The robots META tags of an HTML document for the agent. `conflict`: 0 most restrictive,
/// 1 seed 001.
#[wasm_bindgen]
pub fn meta_html(html: &[u8], agent: &str, conflict: u32) -> JsValue {
    meta_out(&robots_eval::meta::meta_robots(html, agent), conflict)
}

/// `X-Robots-Tag` values for the agent.
#[wasm_bindgen]
pub fn meta_header(values: Vec<String>, agent: &str, conflict: u32) -> JsValue {
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    meta_out(&robots_eval::meta::x_robots_tag(&values, agent), conflict)
}

fn meta_out(m: &robots_eval::meta::MetaRobots, conflict: u32) -> JsValue {
    use robots_eval::meta::{
        Conflict, DirectiveKind as K, DocumentState, ImagePreview, Origin, Scope,
    };
    let r = m.resolve(if conflict == 1 {
        Conflict::Seed001
    } else {
        Conflict::MostRestrictive
    });
    let o = &m.other;
    let directives = m
        .directives
        .iter()
        .map(|d| MetaDirective {
            kind: match d.kind {
                K::All => "all",
                K::None => "none",
                K::Index => "index",
                K::NoIndex => "noindex",
                K::Follow => "follow",
                K::NoFollow => "nofollow",
                K::Archive => "archive",
                K::NoArchive => "noarchive",
                K::NoSnippet => "nosnippet",
                K::MaxSnippet(_) => "max-snippet",
                K::MaxImagePreview(_) => "max-image-preview",
                K::MaxVideoPreview(_) => "max-video-preview",
                K::NoImageIndex => "noimageindex",
                K::NoTranslate => "notranslate",
                K::UnavailableAfter { .. } => "unavailable_after",
                K::IndexIfEmbedded => "indexifembedded",
                K::Invalid => "invalid",
                K::Unknown => "unknown",
            },
            raw: &d.raw,
            scope: match &d.scope {
                Scope::Agent(a) => Some(a),
                Scope::Generic => None,
            },
            origin: match d.origin {
                Origin::Meta => "meta",
                Origin::Header => "header",
            },
        })
        .collect();
    // Numbers as JS numbers (f64), as JSON.parse read them before.
    to_js(&MetaRobots {
        index: r.index,
        follow: r.follow,
        archive: r.archive,
        snippet: r.snippet,
        max_snippet: r.max_snippet.map(|n| n as f64),
        max_image_preview: r.max_image_preview.map(|p| match p {
            ImagePreview::None => "none",
            ImagePreview::Standard => "standard",
            ImagePreview::Large => "large",
        }),
        max_video_preview: r.max_video_preview.map(|n| n as f64),
        image_index: r.image_index,
        translate: r.translate,
        unavailable_after: r.unavailable_after_ms.map(|n| n as f64),
        index_if_embedded: r.index_if_embedded,
        directives,
        other: OtherMeta {
            description: o.description.as_deref(),
            keywords: &o.keywords,
            document_state: o.document_state.as_ref().map(|s| match s {
                DocumentState::Static => "static",
                DocumentState::Dynamic => "dynamic",
                DocumentState::Other(v) => v.as_str(),
            }),
            url: o.url.as_deref(),
            revisit_after: o.revisit_after.as_ref().map(|v| RevisitAfter {
                raw: &v.raw,
                days: v.days,
            }),
        },
        truncated: m.truncated,
    })
}
