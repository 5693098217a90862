//! The second WebAssembly module of robots-eval: page-level rules, the robots META tags of an
//! HTML document and `X-Robots-Tag` response headers (`robots_eval::meta`).
//!
//! Why a module of its own: these rules are read per page, by crawlers that have fetched one,
//! and share nothing with robots.txt evaluation; the HTML scanner, the directive tables and their
//! JSON are a fifth of what the robots.txt module would otherwise weigh. Apart, the robots.txt
//! module (wasm/) stays inside its gzip budget with the AI-preference engine, every run of the
//! package compiles less on its first parse, and `js/page.js` compiles this one only on the
//! first `metaRobots` or `xRobotsTag` call (a bundle that never calls them leaves it out).
//!
//! The boundary is built as wasm/'s is (its module comment says why): exports take and return
//! numbers only; arguments are written by the wrapper into the engine's input (`reserve`), the
//! result is the JSON of a serde-derived type in the text result (`out_text`), read with
//! `JSON.parse`. Release builds are `no_std` with an aborting panic handler.

#![cfg_attr(all(target_arch = "wasm32", not(feature = "debug")), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

#[path = "../../wasm/src/module.rs"]
mod module;
use module::{text, u32_at};

/// The result as serde-derived types: their JSON is what the wrapper hands to the user (after
/// `JSON.parse`), so field names are the JavaScript API's (js/index.d.ts).
mod json {
    use alloc::string::String;
    use alloc::vec::Vec;
    use serde::Serialize;

    /// `metaRobots` / `xRobotsTag`.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct MetaRobots<'a> {
        pub index: bool,
        pub follow: bool,
        pub archive: bool,
        pub snippet: bool,
        pub max_snippet: Option<u64>,
        pub max_image_preview: Option<&'static str>,
        pub max_video_preview: Option<u64>,
        pub image_index: bool,
        pub translate: bool,
        pub unavailable_after: Option<i64>,
        pub index_if_embedded: bool,
        pub directives: Vec<MetaDirective<'a>>,
        pub other: OtherMeta<'a>,
        pub truncated: bool,
    }

    #[derive(Serialize)]
    pub struct MetaDirective<'a> {
        pub kind: &'static str,
        pub raw: &'a str,
        pub scope: Option<&'a str>,
        pub origin: &'static str,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct OtherMeta<'a> {
        pub description: Option<&'a str>,
        pub keywords: &'a [String],
        pub document_state: Option<&'a str>,
        pub url: Option<&'a str>,
        pub revisit_after: Option<RevisitAfter<'a>>,
    }

    #[derive(Serialize)]
    pub struct RevisitAfter<'a> {
        pub raw: &'a str,
        pub days: Option<u32>,
    }
}

/// The module's state for one JS wrapper: the argument buffer and the text result.
#[wasm_bindgen]
pub struct Engine {
    /// Arguments, written by the wrapper (see `reserve`).
    input: Vec<u8>,
    /// The text result (UTF-8); read by the wrapper after the call that wrote it.
    text: String,
}

#[wasm_bindgen]
impl Engine {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Engine {
        Engine {
            input: Vec::new(),
            text: String::new(),
        }
    }

    /// Makes the input at least `len` bytes long and returns its address, valid until the next
    /// `reserve` or `release`.
    pub fn reserve(&mut self, len: u32) -> u32 {
        module::reserve(&mut self.input, len)
    }

    /// Frees the buffers (after a large input or result).
    pub fn release(&mut self) {
        self.input = Vec::new();
        self.text = String::new();
    }

    /// The address of the text result.
    pub fn out_text(&self) -> u32 {
        self.text.as_ptr() as u32
    }

    /// The robots META tags of an HTML document (the first `html_len` input bytes) for the agent
    /// (the next `agent_len`); see `meta_out`. `conflict`: 0 most restrictive, 1 seed 001.
    pub fn meta_html(&mut self, html_len: u32, agent_len: u32, conflict: u32) -> u32 {
        let input = &self.input;
        let html = input.get(..html_len as usize).unwrap_or_default();
        let m = robots_eval::meta::meta_robots(html, text(input, html_len, agent_len));
        self.meta_out(&m, conflict)
    }

    /// `X-Robots-Tag` values for the agent; see `meta_out`. The input holds the values' byte
    /// lengths (`count` little-endian u32s), the values (UTF-8, `values_len` bytes in all) and
    /// the agent (`agent_len` bytes).
    pub fn meta_header(
        &mut self,
        count: u32,
        values_len: u32,
        agent_len: u32,
        conflict: u32,
    ) -> u32 {
        let input = &self.input;
        let count = count as usize;
        let mut values = Vec::with_capacity(count);
        let mut at = (count * 4) as u32;
        for i in 0..count {
            let len = u32_at(input, i * 4);
            values.push(text(input, at, len));
            at = at.saturating_add(len);
        }
        let agent = text(
            input,
            ((count * 4) as u32).saturating_add(values_len),
            agent_len,
        );
        let m = robots_eval::meta::x_robots_tag(&values, agent);
        self.meta_out(&m, conflict)
    }
}

impl Engine {
    /// A robots META / `X-Robots-Tag` result (`json::MetaRobots`) into the text result; returns
    /// its byte length.
    fn meta_out(&mut self, m: &robots_eval::meta::MetaRobots, conflict: u32) -> u32 {
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
            .map(|d| json::MetaDirective {
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
        let result = json::MetaRobots {
            index: r.index,
            follow: r.follow,
            archive: r.archive,
            snippet: r.snippet,
            max_snippet: r.max_snippet,
            max_image_preview: r.max_image_preview.map(|p| match p {
                ImagePreview::None => "none",
                ImagePreview::Standard => "standard",
                ImagePreview::Large => "large",
            }),
            max_video_preview: r.max_video_preview,
            image_index: r.image_index,
            translate: r.translate,
            unavailable_after: r.unavailable_after_ms,
            index_if_embedded: r.index_if_embedded,
            directives,
            other: json::OtherMeta {
                description: o.description.as_deref(),
                keywords: &o.keywords,
                document_state: o.document_state.as_ref().map(|s| match s {
                    DocumentState::Static => "static",
                    DocumentState::Dynamic => "dynamic",
                    DocumentState::Other(v) => v.as_str(),
                }),
                url: o.url.as_deref(),
                revisit_after: o.revisit_after.as_ref().map(|v| json::RevisitAfter {
                    raw: &v.raw,
                    days: v.days,
                }),
            },
            truncated: m.truncated,
        };
        // Serialising this type cannot fail (string keys, no floats).
        self.text = serde_json::to_string(&result).unwrap_or_default();
        self.text.len() as u32
    }
}
