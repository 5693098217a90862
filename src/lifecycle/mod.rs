//! Floor 6, the HTTP lifecycle around the matching core: what a crawler does before and after it
//! reads a robots.txt. `fetch` owns the fetch status policy (which HTTP outcome means "parse",
//! "allow all" or "disallow all", retries, redirects) and the cache lifetime of a fetched copy;
//! `meta` owns the page-level rules (robots META tags and the `X-Robots-Tag` header), reading
//! HTML with `html` (the head scanner); `date` holds the date readers of both. With the `ai-use`
//! feature, `tdmrep` reads the TDM Reservation Protocol's file, headers and META tags, and
//! `ai_use` answers "may this crawler use this page for AI?" from every signal (`Robots::ai_use`).
//!
//! The core never imports from here, and builds without it: this folder is the `lifecycle`
//! cargo feature (on by default). Pure functions, no I/O and no clock.
//!
//! These parsers read untrusted headers and HTML: no indexing, unwrapping, panics or unchecked
//! arithmetic anywhere in the folder (the lints below hold for every module in it).

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[cfg(feature = "ai-use")]
pub mod ai_use;
pub(crate) mod date;
pub mod fetch;
mod html;
pub mod meta;
#[cfg(feature = "ai-use")]
pub mod tdmrep;
