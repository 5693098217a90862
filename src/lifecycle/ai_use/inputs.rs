//! What the caller gives besides robots.txt: the page's headers and HTML, tdmrep.json, the
//! purposes of a crawler the operator table does not know, and how robots.txt was fetched.

use crate::aipref::operators::Purpose;
use crate::lifecycle::fetch::Policy;

/// How the robots.txt was had, when it was fetched ([D-11]): its status and the fetch policy
/// decision obeyed (`fetch::decide`). A 4xx taken as allow-all makes no statements; a 5xx or a
/// network failure taken as disallow-all makes every purpose deny ([S-3]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RobotsFetch {
    /// The HTTP status, `None` for a network failure or timeout.
    pub status: Option<u16>,
    pub policy: Policy,
    /// The decision's reason code (`fetch::Decision::reason`).
    pub reason: &'static str,
}

/// What the caller has besides robots.txt. `Default`: nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct AiUseInputs<'a> {
    /// The page's response headers, `(name, value)`, names in any case; a repeated header as
    /// repeated pairs (one per field line: `X-Robots-Tag`'s bot prefix holds per line).
    pub headers: &'a [(&'a str, &'a str)],
    /// The page's HTML: only its head is read, up to [`crate::meta::HEAD_SCAN_LIMIT`].
    pub html: Option<&'a [u8]>,
    /// The body of the site's `/.well-known/tdmrep.json`; `None` when it was absent (TDMREP
    /// §6.1: no successful response, the origin does not implement the file).
    pub tdmrep: Option<&'a [u8]>,
    /// The purposes of a crawler the operator table does not know (or whose purposes its caller
    /// declares, as Cloudflare's `/crawl`): [S-5].
    pub purposes: Option<&'a [Purpose]>,
    /// Cross-operator training policy tokens (draft-kelley-aipref-training-preference-signal;
    /// names unconfirmed, none by default): each is a `train-ai` control token for every
    /// crawler ([S-22]).
    pub policy_tokens: &'a [&'a str],
    /// How robots.txt was fetched, if it was.
    pub robots_fetch: Option<RobotsFetch>,
}
