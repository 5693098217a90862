//! Floor 5, beside `decide`: the verdict module's hot path (wasm/src/lib.rs), the steps of
//! [`Robots::check`] taken one at a time so that the module can skip what it already knows.
//! Hidden from the documentation and outside the API's promises: these are the core's internals,
//! public only because the wasm crates are other crates. A caller of the library wants
//! [`Robots::path`] and [`Robots::check_path`], which are these steps put together.

use core::num::NonZeroUsize;

use crate::{Path, Robots, Selection, Verdict};

/// The path of an ASCII URL that every dialect reads alike and none normalises (a crawler's
/// queue: a path, or `scheme://authority/path`), read from its octets with no UTF-8
/// validation; `None` for any other URL, which [`text_path`] reads.
#[inline]
pub fn ascii_path<'u>(robots: &Robots, url: &'u [u8]) -> Option<Path<'u>> {
    robots.ascii_path(url)
}

/// [`ascii_path`] told where the path starts, when the caller knows without the search: the URL
/// is a site that [`path_starts_after`] accepts, `start` octets long, followed by `/`. `None`:
/// search, as [`ascii_path`] does. (One function for both, taking one number: the verdict
/// module's query calls it once, with what its site comparison found.)
#[inline]
pub fn ascii_path_at<'u>(
    robots: &Robots,
    url: &'u [u8],
    start: Option<NonZeroUsize>,
) -> Option<Path<'u>> {
    robots.ascii_path_at(url, start)
}

/// The path of any URL, as the file's dialect reads and normalises it: for a URL that
/// [`ascii_path`] did not read.
#[inline]
pub fn text_path<'u>(robots: &Robots, url: &'u str) -> Path<'u> {
    robots.text_path(url)
}

/// [`Robots::check`] for a crawler whose groups are already known (from
/// [`Robots::selection`]).
#[inline]
pub fn check_selection(robots: &Robots, url: &str, selection: Selection) -> Verdict {
    robots.check_selection(url, selection)
}

/// Whether, for every URL that is `site` (a `scheme://authority`, such as a URL parser's
/// origin) followed by `/`, the path starts where `site` ends, so that [`ascii_path_at`] may
/// be told `site.len()`.
pub fn path_starts_after(site: &[u8]) -> bool {
    crate::url::path_starts_after(site)
}
