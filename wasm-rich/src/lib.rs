//! The rich module of robots-eval's npm package: everything that is not on a crawler's hot path.
//! Explanations, diagnostics, records, AI usage preferences, robots META tags and `X-Robots-Tag`;
//! "may this crawler use this page for AI?" (`aiUse`) is the AI-use module's (wasm-ai/).
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

use robots_eval::{report, DialectId, Reason, Robots};
use robots_eval_boundary::options;
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
// The result types are the core's (`robots_eval::report`), shared with the Python package.

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
        to_js(&report::explain(&self.robots, url, agent))
    }

    /// What the parser noticed, in line order (`Diagnostic`s).
    pub fn diagnostics(&self) -> JsValue {
        to_js(&report::diagnostics(&self.robots))
    }

    /// Every record but Sitemap lines (`Record`s).
    pub fn records(&self) -> JsValue {
        to_js(&report::records(&self.robots))
    }

    /// The AI usage preferences for the URL and the agent, with a Content-Usage header when the
    /// caller has one, as its field lines (`AiPreferences`).
    pub fn ai_preferences(&self, url: &str, agent: &str, header: Option<Vec<String>>) -> JsValue {
        let header = header.as_deref().map(field_value);
        to_js(&report::ai_preferences(
            &self.robots,
            url,
            agent,
            header.as_deref(),
        ))
    }
}

/// A header's field lines as one value: the core's `combine_field_lines`, as the Python package
/// combines them (the wrapper hands over a header given as one string as one line).
fn field_value(lines: &[String]) -> String {
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    report::combine_field_lines(&lines)
}

/// A Content-Usage header alone, as its field lines: each category's value (`parseContentUsage`).
#[wasm_bindgen]
pub fn content_usage(header: Vec<String>) -> JsValue {
    to_js(&report::content_usage(&field_value(&header)))
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

#[wasm_bindgen]
impl File {
    /// Which rule decides how much of a site (`robots_eval::coverage::Coverage`): `urls` checked
    /// by the wrapper, `agents` the product token each crawler obeys (picked by the wrapper).
    pub fn coverage(&self, urls: Vec<String>, agents: Vec<String>) -> JsValue {
        let agents: Vec<&str> = agents.iter().map(String::as_str).collect();
        to_js(&robots_eval::coverage::coverage(
            &self.robots,
            &urls,
            &agents,
            |_| {},
        ))
    }
}
