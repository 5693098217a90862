//! The AI-use module of robots-eval's npm package: "may this crawler use this page for AI?"
//! (`Robots::ai_use`, docs/ai-use.md), from robots.txt, Content-Usage, `X-Robots-Tag`, the
//! robots META tags and TDMRep.
//!
//! Its own module, apart from the rich one (wasm-rich/), because the resolver is as large as
//! everything else the rich module answers together (tdmrep.json through serde_json, the trace
//! and its notes, the operator table): `js/ai.js` compiles this one on the first `aiUse` only,
//! and an app that explains, lints or reads META tags never compiles it. The boundary is the rich
//! module's, plain wasm-bindgen (strings and bytes in), but the result comes out as JSON text
//! (serde_json, which the module carries for tdmrep.json anyway; field names are the JavaScript
//! API's, js/index.d.ts; `None` is `null`), read by `JSON.parse`.
//!
//! A `File` is this module's own parse of the text the verdict module parsed, with the same
//! dialect and size cap, made once per `Robots` on its first `aiUse` (js/robots.js, `richFile`).
//! Arguments are checked in the wrapper (js/ai.js), so nothing here fails; should anything panic,
//! the module traps (release) and the wrapper replaces the instance.

use robots_eval::ai_use::{AiUseInputs, RobotsFetch};
use robots_eval::aipref::operators::Purpose;
use robots_eval::fetch::{self, FetchContext, FetchOutcome, Policy};
use robots_eval::Robots;
use robots_eval_boundary::options;
use wasm_bindgen::prelude::*;

/// Talc, as in the other modules (wasm-boundary/src/lib.rs says why).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "debug")]
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
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
    ) -> String {
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
        // JSON text, which js/ai.js reads with JSON.parse: the module already carries serde_json
        // (tdmrep.json), and its serializer costs 1.5 KB of gzip less than serde-wasm-bindgen's
        // for this one result type. Serialising `AiUse` cannot fail (string keys, numbers that
        // fit a JS number).
        serde_json::to_string(&self.robots.ai_use(url, agent, &inputs)).unwrap_or_default()
    }
}
