//! Lifecycle, floor 6: page-level robots rules: the robots META tag and the `X-Robots-Tag` response header, plus the
//! other META tags the seed documents describe (description, keywords, document-state, url,
//! revisit-after).
//!
//! The HTML side is a tolerant scanner of the document head, not a DOM: it finds `<meta ...>`
//! tags in one linear pass, skipping comments and the contents of `<script>`, `<style>` and the
//! other raw-text elements, and stops at `</head>` or `<body`. Section letters (G.1 ...) refer to
//! `shared/docs/semantics.md`; `docs/fetch-policy.md` has the rules with citations.
//!
//! Which tags apply to a crawler: `name="robots"` applies to every crawler (G.1). A tag named
//! after a product token applies to the crawler whose token equals it (case-insensitively), and
//! also, as our choice, to the more specific tokens of the same family: `googlebot` applies to
//! `googlebot-news` (a name that is the crawler's token up to a `-`), because Google's
//! `Googlebot-News` answers to the `googlebot` token too and Google says generic and specific
//! rules combine (G.2, G.5). The reverse never holds: `googlebot-news` does not apply to
//! `googlebot`. Every applicable tag and header is combined.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use super::date::{civil_to_ms, digits, hms, month, two_digits, weekday, Tokens};

/// How much of a document is scanned for its head: the first 512 KiB. A head that is still open
/// there is cut off, and [`MetaRobots::truncated`] says so. (Google reads far more of an HTML
/// file, but a head this long is not a real page; the cap keeps work and memory bounded.)
pub const HEAD_SCAN_LIMIT: usize = 512 * 1024;

/// The most directives kept from one document or one set of headers; more set
/// [`MetaRobots::truncated`]. It bounds memory on adversarial input.
pub const MAX_DIRECTIVES: usize = 1024;

/// How contradictory directives are resolved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Conflict {
    /// Today's rule: "the more restrictive rule applies" (Google, G.5): `noindex` beats `index`,
    /// `nofollow` beats `follow`, `nosnippet` beats `max-snippet`, the smallest `max-snippet`,
    /// `max-video-preview` and `max-image-preview` win, the earliest `unavailable_after` wins.
    #[default]
    MostRestrictive,
    /// The rule of seed 001 (the 1996 META proposal as the Russian article gives it) for its six
    /// terms ALL, NONE, INDEX, NOINDEX, FOLLOW, NOFOLLOW: ALL overrides the others, a conflict is
    /// resolved in favour of the positive term, and NOINDEX alone also stops link following.
    /// Directives the seed does not know resolve as in [`Conflict::MostRestrictive`].
    Seed001,
}

/// Whom a directive addresses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every crawler: `<meta name="robots">`, or an `X-Robots-Tag` value without a bot name.
    Generic,
    /// The crawler named here, as written in the document or header (`googlebot`).
    Agent(String),
}

/// Where a directive was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A `<meta>` tag of the HTML head.
    Meta,
    /// An `X-Robots-Tag` response header.
    Header,
}

/// The values of `max-image-preview`, least to most permissive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImagePreview {
    /// No image preview.
    None,
    /// A default-size preview.
    Standard,
    /// A preview up to the width of the viewport.
    Large,
}

/// One directive, recognised.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
    /// `all`: index and follow (the default; listing it changes nothing today).
    All,
    /// `none`: the same as `noindex, nofollow`.
    None,
    /// `index` (the default).
    Index,
    /// `noindex`: keep the page out of the index.
    NoIndex,
    /// `follow` (the default).
    Follow,
    /// `nofollow`: do not follow the page's links.
    NoFollow,
    /// `archive` (the default).
    Archive,
    /// `noarchive`, or Bing's synonym `nocache`: keep no cached copy (seed 002: "should not keep
    /// a local copy of the page").
    NoArchive,
    /// `nosnippet`: no text snippet or video preview.
    NoSnippet,
    /// `max-snippet:N`: at most N characters; -1 means no limit, 0 means `nosnippet`.
    MaxSnippet(i64),
    /// `max-image-preview:none|standard|large`.
    MaxImagePreview(ImagePreview),
    /// `max-video-preview:N` seconds; -1 means no limit, 0 a static image only.
    MaxVideoPreview(i64),
    /// `noimageindex`: do not index the page's images.
    NoImageIndex,
    /// `notranslate`: offer no translation.
    NoTranslate,
    /// `unavailable_after:<date>`: drop the page after this date.
    UnavailableAfter {
        /// The date as written.
        date: String,
        /// The date in milliseconds since the epoch, when it could be read (RFC 822/1123/850,
        /// asctime or ISO 8601; a missing zone is read as UTC). An unreadable date is ignored.
        at_ms: Option<i64>,
    },
    /// `indexifembedded`: may be indexed when embedded, despite `noindex`.
    IndexIfEmbedded,
    /// A known directive whose value could not be read (`max-snippet:abc`); ignored, as Google
    /// ignores an invalid value.
    Invalid,
    /// Anything else; kept as data and otherwise ignored.
    Unknown,
}

/// One directive with its provenance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Directive {
    /// What it means.
    pub kind: DirectiveKind,
    /// The directive as written (without a bot-name prefix), entities decoded.
    pub raw: String,
    /// Whom it addresses.
    pub scope: Scope,
    /// Where it was found.
    pub origin: Origin,
}

/// The combined effect of the directives that apply to one crawler. `Default` is what a page
/// without any robots META tag or header means: index, follow, archive, snippets, no limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Resolved {
    /// The page may be indexed.
    pub index: bool,
    /// The page's links may be followed.
    pub follow: bool,
    /// A cached copy may be kept and shown.
    pub archive: bool,
    /// A text snippet may be shown.
    pub snippet: bool,
    /// The longest snippet, in characters; `None` is no limit. `Some(0)` exactly when `snippet`
    /// is false.
    pub max_snippet: Option<u64>,
    /// The largest image preview; `None` when no directive sets one.
    pub max_image_preview: Option<ImagePreview>,
    /// The longest video preview, in seconds; `None` is no limit.
    pub max_video_preview: Option<u64>,
    /// The page's images may be indexed.
    pub image_index: bool,
    /// A translation may be offered.
    pub translate: bool,
    /// The page should be dropped after this time (ms since the epoch).
    pub unavailable_after_ms: Option<i64>,
    /// `indexifembedded` was given (it only matters together with `noindex`).
    pub index_if_embedded: bool,
}

impl Default for Resolved {
    fn default() -> Self {
        Resolved {
            index: true,
            follow: true,
            archive: true,
            snippet: true,
            max_snippet: None,
            max_image_preview: None,
            max_video_preview: None,
            image_index: true,
            translate: true,
            unavailable_after_ms: None,
            index_if_embedded: false,
        }
    }
}

/// The value of `<meta name="document-state">` (seed 001).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DocumentState {
    /// `STATIC`: the page does not change (also the default when the tag is absent).
    Static,
    /// `DYNAMIC`: the page changes; do not keep its URL.
    Dynamic,
    /// Any other value, as written.
    Other(String),
}

/// The value of `<meta name="revisit-after">` (seed 002's table of search-engine META tags).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RevisitAfter {
    /// The value as written, for example `10 days`.
    pub raw: String,
    /// The number of days, when the value is `N`, `N day` or `N days`.
    pub days: Option<u32>,
}

/// The other META tags of seeds 001 and 002, as data. The first tag of each name counts, except
/// `keywords`, which collects every tag's list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OtherMeta {
    /// `<meta name="description">`: the summary shown in results.
    pub description: Option<String>,
    /// `<meta name="keywords">`: the comma-separated phrases, trimmed, empty ones dropped.
    pub keywords: Vec<String>,
    /// `<meta name="document-state">`; absent means STATIC (seed 001).
    pub document_state: Option<DocumentState>,
    /// `<meta name="url">`: the page's canonical absolute URL (seed 001, for mirrors).
    pub url: Option<String>,
    /// `<meta name="revisit-after">`.
    pub revisit_after: Option<RevisitAfter>,
}

/// What a document's robots META tags or `X-Robots-Tag` headers say to one crawler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MetaRobots {
    /// Every applicable directive in document order, with where it came from.
    pub directives: Vec<Directive>,
    /// The directives resolved with [`Conflict::MostRestrictive`]; see [`MetaRobots::resolve`].
    pub resolved: Resolved,
    /// The other META tags (empty for headers).
    pub other: OtherMeta,
    /// Input was cut: the head went past [`HEAD_SCAN_LIMIT`], or more than [`MAX_DIRECTIVES`]
    /// directives were found.
    pub truncated: bool,
}

impl MetaRobots {
    /// Resolves the directives under the given conflict rule.
    #[must_use]
    pub fn resolve(&self, conflict: Conflict) -> Resolved {
        resolve(&self.directives, conflict)
    }

    /// Adds another source's directives (typically the headers to the META tags): "between the
    /// X-Robots-Tag HTTP header and the `<meta name="robots">` element, the more restrictive rule
    /// applies" (G.5). Other META data already present is kept.
    pub fn combine(&mut self, other: MetaRobots) {
        let room = MAX_DIRECTIVES.saturating_sub(self.directives.len());
        self.truncated |= other.truncated || other.directives.len() > room;
        self.directives
            .extend(other.directives.into_iter().take(room));
        let o = other.other;
        let mine = &mut self.other;
        mine.description = mine.description.take().or(o.description);
        mine.keywords.extend(o.keywords);
        mine.document_state = mine.document_state.take().or(o.document_state);
        mine.url = mine.url.take().or(o.url);
        mine.revisit_after = mine.revisit_after.take().or(o.revisit_after);
        self.resolved = self.resolve(Conflict::MostRestrictive);
    }
}

/// Reads the robots META tags of an HTML document for the crawler `agent`.
///
/// `agent` is the crawler's product token (`googlebot`); a longer string is cut at the first
/// character that is not a letter, digit, `-` or `_` (so `Googlebot/2.1` is `Googlebot`).
/// Scanning: attribute order is free; values may be double-quoted, single-quoted or unquoted;
/// tag and attribute names and the `name` value are case-insensitive; whitespace and newlines
/// may appear anywhere inside tags; character references (`&amp;`, `&quot;`, `&#44;`, `&#x2C;`)
/// are decoded; comments, `<!...>` and `<?...>` are skipped, as are the contents of `script`,
/// `style`, `title`, `textarea`, `template`, `xmp`, `iframe`, `noembed` and `noframes`; of a
/// repeated attribute the first counts (as in HTML). The scan ends at `</head>`, `<body`, or
/// after [`HEAD_SCAN_LIMIT`] bytes. Bytes that are not UTF-8 become U+FFFD.
#[must_use]
pub fn meta_robots(html: &[u8], agent: &str) -> MetaRobots {
    let doc = html.get(..HEAD_SCAN_LIMIT).unwrap_or(html);
    let mut c = Collector::new(agent);
    let mut other = OtherMeta::default();
    let end = scan(doc, |name, content| {
        let name = decode(name);
        let name = name.trim();
        let Some(content) = content else { return };
        let content = decode(content);
        c.meta_tag(name, &content, &mut other);
    });
    let cut = matches!(end, End::Eof) && html.len() > HEAD_SCAN_LIMIT;
    c.finish(other, cut)
}

/// Reads `X-Robots-Tag` header values for the crawler `agent` (named as for [`meta_robots`]).
///
/// Each value is a comma-separated list of directives, optionally after a bot name:
/// `noindex, nofollow` applies to every crawler; `googlebot: noindex, nofollow` applies both
/// directives to `googlebot` only (a bot name holds until the end of that value or the next bot
/// name). Known directive names are recognised before a `name:` is taken for a bot name, so
/// `max-snippet:20` and `unavailable_after: 25 Jun 2010 15:00:00 PST` are directives; a date
/// written with a day name and a comma (`Fri, 25 Jun 2010 ...`) is kept whole. Several header
/// values combine (G.3).
#[must_use]
pub fn x_robots_tag(header_values: &[&str], agent: &str) -> MetaRobots {
    let mut c = Collector::new(agent);
    for value in header_values {
        c.list(value, Origin::Header, Scope::Generic, true);
    }
    c.finish(OtherMeta::default(), false)
}

/// Gathers the directives that apply to one crawler.
struct Collector<'a> {
    token: &'a [u8],
    out: Vec<Directive>,
    full: bool,
}

impl<'a> Collector<'a> {
    fn new(agent: &'a str) -> Self {
        Collector {
            token: product_token(agent),
            out: Vec::new(),
            full: false,
        }
    }

    fn finish(self, other: OtherMeta, cut: bool) -> MetaRobots {
        let resolved = resolve(&self.out, Conflict::MostRestrictive);
        MetaRobots {
            directives: self.out,
            resolved,
            other,
            truncated: cut || self.full,
        }
    }

    fn meta_tag(&mut self, name: &str, content: &str, other: &mut OtherMeta) {
        let n = name.as_bytes();
        if n.eq_ignore_ascii_case(b"robots") {
            self.list(content, Origin::Meta, Scope::Generic, false);
        } else if name_applies(n, self.token) {
            self.list(content, Origin::Meta, Scope::Agent(name.to_owned()), false);
        } else if n.eq_ignore_ascii_case(b"description") {
            if other.description.is_none() {
                other.description = Some(content.trim().to_owned());
            }
        } else if n.eq_ignore_ascii_case(b"keywords") {
            let words = content.split(',').map(str::trim).filter(|k| !k.is_empty());
            for k in words {
                other.keywords.push(k.to_owned());
            }
        } else if n.eq_ignore_ascii_case(b"document-state") {
            if other.document_state.is_none() {
                let v = content.trim();
                other.document_state = Some(if v.eq_ignore_ascii_case("static") {
                    DocumentState::Static
                } else if v.eq_ignore_ascii_case("dynamic") {
                    DocumentState::Dynamic
                } else {
                    DocumentState::Other(v.to_owned())
                });
            }
        } else if n.eq_ignore_ascii_case(b"url") {
            if other.url.is_none() {
                other.url = Some(content.trim().to_owned());
            }
        } else if n.eq_ignore_ascii_case(b"revisit-after") && other.revisit_after.is_none() {
            let raw = content.trim();
            other.revisit_after = Some(RevisitAfter {
                raw: raw.to_owned(),
                days: days(raw),
            });
        }
    }

    /// One comma-separated list of directives. `bots`: a `name:` prefix that is not a known
    /// directive names the bot the rest of the list is for (X-Robots-Tag only).
    fn list(&mut self, text: &str, origin: Origin, base: Scope, bots: bool) {
        let mut scope = base;
        let mut applies = true;
        let mut pieces = text.split(',');
        while let Some(piece) = pieces.next() {
            let mut item = piece.trim();
            let (mut name, mut value) = split_colon(item);
            if bots {
                if let Some(rest) = value.filter(|_| !is_known(name) && is_bot_name(name)) {
                    applies = name_applies(name.as_bytes(), self.token);
                    scope = Scope::Agent(name.to_owned());
                    item = rest;
                    (name, value) = split_colon(item);
                }
            }
            if item.is_empty() {
                continue;
            }
            // `unavailable_after: Friday, 25-Jun-10 ...`: the comma after a day name is part of
            // the date, not a list separator.
            let joined: String;
            if name.eq_ignore_ascii_case("unavailable_after")
                && value.is_some_and(|v| weekday(v.as_bytes()).is_some())
            {
                if let Some(next) = pieces.next() {
                    let mut s = String::with_capacity(
                        item.len().saturating_add(next.len()).saturating_add(1),
                    );
                    s.push_str(item);
                    s.push(',');
                    s.push_str(next.trim_end());
                    joined = s;
                    item = &joined;
                    (name, value) = split_colon(item);
                }
            }
            if !applies {
                continue;
            }
            if self.out.len() >= MAX_DIRECTIVES {
                self.full = true;
                return;
            }
            self.out.push(Directive {
                kind: kind_of(name, value),
                raw: item.to_owned(),
                scope: scope.clone(),
                origin,
            });
        }
    }
}

/// `name` and the trimmed text after the first colon, if any.
fn split_colon(item: &str) -> (&str, Option<&str>) {
    match item.split_once(':') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (item, None),
    }
}

/// The directive names we know, including those that take a value.
const KNOWN: [&str; 17] = [
    "all",
    "none",
    "index",
    "noindex",
    "follow",
    "nofollow",
    "archive",
    "noarchive",
    "nocache",
    "nosnippet",
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "noimageindex",
    "notranslate",
    "unavailable_after",
    "indexifembedded",
];

fn is_known(name: &str) -> bool {
    KNOWN.iter().any(|k| k.eq_ignore_ascii_case(name))
}

/// A plausible bot name: letters, digits, `-`, `_`.
fn is_bot_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(is_token_byte)
}

const fn is_token_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// The crawler's product token: the leading run of letters, digits, `-` and `_`.
fn product_token(agent: &str) -> &[u8] {
    let b = agent.trim_start().as_bytes();
    let end = b.iter().position(|&c| !is_token_byte(c)).unwrap_or(b.len());
    b.get(..end).unwrap_or(&[])
}

/// Whether a tag or header naming `name` addresses the crawler `token`: equal, or `name` is
/// `token` up to a `-` (`googlebot` for `googlebot-news`). Case-insensitive.
fn name_applies(name: &[u8], token: &[u8]) -> bool {
    if name.is_empty() || token.is_empty() {
        return false;
    }
    name.eq_ignore_ascii_case(token)
        || (token
            .get(..name.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(name))
            && token.get(name.len()) == Some(&b'-'))
}

fn kind_of(name: &str, value: Option<&str>) -> DirectiveKind {
    let is = |k: &str| name.eq_ignore_ascii_case(k);
    // "noindex:" with nothing after the colon is still noindex.
    let plain = value.is_none_or(str::is_empty);
    let plain_kind = if is("all") {
        Some(DirectiveKind::All)
    } else if is("none") {
        Some(DirectiveKind::None)
    } else if is("index") {
        Some(DirectiveKind::Index)
    } else if is("noindex") {
        Some(DirectiveKind::NoIndex)
    } else if is("follow") {
        Some(DirectiveKind::Follow)
    } else if is("nofollow") {
        Some(DirectiveKind::NoFollow)
    } else if is("archive") {
        Some(DirectiveKind::Archive)
    } else if is("noarchive") || is("nocache") {
        Some(DirectiveKind::NoArchive)
    } else if is("nosnippet") {
        Some(DirectiveKind::NoSnippet)
    } else if is("noimageindex") {
        Some(DirectiveKind::NoImageIndex)
    } else if is("notranslate") {
        Some(DirectiveKind::NoTranslate)
    } else if is("indexifembedded") {
        Some(DirectiveKind::IndexIfEmbedded)
    } else {
        None
    };
    if let Some(k) = plain_kind {
        return if plain { k } else { DirectiveKind::Invalid };
    }
    let v = value.unwrap_or("");
    if is("max-snippet") {
        limit(v).map_or(DirectiveKind::Invalid, DirectiveKind::MaxSnippet)
    } else if is("max-video-preview") {
        limit(v).map_or(DirectiveKind::Invalid, DirectiveKind::MaxVideoPreview)
    } else if is("max-image-preview") {
        let p = if v.eq_ignore_ascii_case("none") {
            Some(ImagePreview::None)
        } else if v.eq_ignore_ascii_case("standard") {
            Some(ImagePreview::Standard)
        } else if v.eq_ignore_ascii_case("large") {
            Some(ImagePreview::Large)
        } else {
            None
        };
        p.map_or(DirectiveKind::Invalid, DirectiveKind::MaxImagePreview)
    } else if is("unavailable_after") {
        if v.is_empty() {
            DirectiveKind::Invalid
        } else {
            DirectiveKind::UnavailableAfter {
                date: v.to_owned(),
                at_ms: parse_date(v),
            }
        }
    } else {
        DirectiveKind::Unknown
    }
}

/// `-1` or a count of at most nine digits.
fn limit(v: &str) -> Option<i64> {
    if v == "-1" {
        return Some(-1);
    }
    digits(v.as_bytes()).map(i64::from)
}

/// `N`, `N day` or `N days` (any case, any spacing).
fn days(v: &str) -> Option<u32> {
    let b = v.as_bytes();
    let end = b
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(b.len());
    let n = digits(b.get(..end)?)?;
    let unit = b.get(end..)?.trim_ascii();
    (unit.is_empty() || unit.eq_ignore_ascii_case(b"day") || unit.eq_ignore_ascii_case(b"days"))
        .then_some(n)
}

/// Applies the conflict rule to the directives.
fn resolve(directives: &[Directive], conflict: Conflict) -> Resolved {
    let mut r = Resolved::default();
    // For the Seed001 rule: which of its six terms appear.
    let (mut all, mut index, mut follow, mut noindex, mut nofollow) =
        (false, false, false, false, false);
    let mut only_noindex = true;
    let mut nosnippet = false;
    for d in directives {
        match &d.kind {
            DirectiveKind::All => {
                all = true;
                only_noindex = false;
            }
            DirectiveKind::None => {
                noindex = true;
                nofollow = true;
                only_noindex = false;
            }
            DirectiveKind::Index => {
                index = true;
                only_noindex = false;
            }
            DirectiveKind::NoIndex => noindex = true,
            DirectiveKind::Follow => {
                follow = true;
                only_noindex = false;
            }
            DirectiveKind::NoFollow => {
                nofollow = true;
                only_noindex = false;
            }
            DirectiveKind::NoArchive => r.archive = false,
            DirectiveKind::NoSnippet => nosnippet = true,
            DirectiveKind::MaxSnippet(n) => r.max_snippet = min_limit(r.max_snippet, *n),
            DirectiveKind::MaxVideoPreview(n) => {
                r.max_video_preview = min_limit(r.max_video_preview, *n);
            }
            DirectiveKind::MaxImagePreview(p) => {
                r.max_image_preview = Some(r.max_image_preview.map_or(*p, |q| q.min(*p)));
            }
            DirectiveKind::NoImageIndex => r.image_index = false,
            DirectiveKind::NoTranslate => r.translate = false,
            DirectiveKind::UnavailableAfter { at_ms: Some(t), .. } => {
                r.unavailable_after_ms = Some(r.unavailable_after_ms.map_or(*t, |u| u.min(*t)));
            }
            DirectiveKind::IndexIfEmbedded => r.index_if_embedded = true,
            DirectiveKind::Archive
            | DirectiveKind::UnavailableAfter { at_ms: None, .. }
            | DirectiveKind::Invalid
            | DirectiveKind::Unknown => {}
        }
    }
    match conflict {
        Conflict::MostRestrictive => {
            // `all`, `index` and `follow` are the defaults: they never lift a restriction.
            r.index = !noindex;
            r.follow = !nofollow;
        }
        Conflict::Seed001 => {
            // Seed 001: "Если в CONTENT обнаружено ключевое слово ALL, то робот поступает
            // соответственно, игнорируя возможно указанные другие ключевые слова.. Если в CONTENT
            // имеются противоположные по смыслу ключевые слова, например, FOLLOW, NOFOLLOW, то
            // робот поступает по своему усмотрению (в этом случае FOLLOW)." ("If ALL is found in
            // CONTENT, the robot acts accordingly, ignoring any other keywords. If CONTENT has
            // keywords of opposite meaning, for example FOLLOW, NOFOLLOW, the robot acts at its
            // discretion (in this case FOLLOW).") The seed names no winner for INDEX, NOINDEX;
            // by the same example the positive term wins (our reading).
            if all {
                r.index = true;
                r.follow = true;
            } else {
                r.index = index || !noindex;
                r.follow = follow || !nofollow;
                // Seed 001: "Если robot_terms содержит только NOINDEX, то ссылки с этой страницы
                // не индексируются." ("If robot_terms contains only NOINDEX, the links from this
                // page are not indexed", where "indexing links" is the seed's word for following
                // them: "FOLLOW - разрешает индексировать все ссылки из этой страницы".)
                if noindex && only_noindex {
                    r.follow = false;
                }
            }
        }
    }
    // `nosnippet` and `max-snippet:0` are the same thing; either beats any other max-snippet.
    if nosnippet || r.max_snippet == Some(0) {
        r.snippet = false;
        r.max_snippet = Some(0);
    }
    r
}

/// The smaller of two limits, where `None` and -1 mean "no limit".
fn min_limit(current: Option<u64>, n: i64) -> Option<u64> {
    match u64::try_from(n) {
        Ok(n) => Some(current.map_or(n, |c| c.min(n))),
        Err(_) => current,
    }
}

// ---------------------------------------------------------------------------------------------
// Dates of unavailable_after (G.4: RFC 822, RFC 850, ISO 8601 "and other widely used formats")
// ---------------------------------------------------------------------------------------------

/// Reads a date leniently: ISO 8601 (`2010-06-25`, `2010-06-25T15:00:00Z`, with `+01:00` or
/// `+0100` offsets and optional fractions), RFC 822/1123 (`[Fri,] 25 Jun 2010 15:00[:00]
/// [zone]`, zone names of RFC 5322 §4.3 or `+hhmm`), RFC 850 (`Friday, 25-Jun-10 ...`) and
/// asctime. A missing zone is UTC (our choice). Two-digit years: 00-49 are 20xx, 50-99 19xx
/// (RFC 5322 §4.3); unlike [`super::fetch::parse_http_date`] there is no clock to measure
/// against.
fn parse_date(value: &str) -> Option<i64> {
    let v = value.trim().as_bytes();
    if v.get(4) == Some(&b'-') && v.get(..4).is_some_and(|y| y.iter().all(u8::is_ascii_digit)) {
        iso8601(v)
    } else {
        rfc_date(v)
    }
}

fn iso8601(v: &[u8]) -> Option<i64> {
    let year = digits(v.get(..4)?)?;
    if v.get(7) != Some(&b'-') {
        return None;
    }
    let m = v.get(5..7)?;
    let d = v.get(8..10)?;
    if m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (mo, da) = (digits(m)?, digits(d)?);
    let rest = v.get(10..)?;
    let Some((&sep, rest)) = rest.split_first() else {
        return civil_to_ms(i64::from(year), mo, da, 0, 0, 0);
    };
    if !matches!(sep, b'T' | b't' | b' ') {
        return None;
    }
    let zone_at = rest
        .iter()
        .position(|&c| matches!(c, b'Z' | b'z' | b'+' | b'-'))
        .unwrap_or(rest.len());
    let (h, mi, s) = hms(rest.get(..zone_at)?, true)?;
    let offset = match rest.get(zone_at..)? {
        [] => 0,
        zone => zone_offset_min(zone)?,
    };
    let t = civil_to_ms(i64::from(year), mo, da, h, mi, s)?;
    t.checked_sub(offset.checked_mul(60_000)?)
}

fn rfc_date(v: &[u8]) -> Option<i64> {
    let tokens = Tokens::split(v, true)?;
    let t = tokens.as_slice();
    let tok = |k: usize| t.get(k).map(|x| x.strip_suffix(b",").unwrap_or(x));
    let mut k = 0usize;
    if tok(0).is_some_and(|w| weekday(w).is_some()) {
        k = 1;
    }
    let first = tok(k)?;
    let (day, mon, year, time);
    if first.contains(&b'-') {
        // RFC 850: 25-Jun-10
        let mut parts = first.split(|&c| c == b'-');
        (day, mon, year) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        k = k.checked_add(1)?;
        time = tok(k).filter(|x| x.contains(&b':'));
        k = k.checked_add(usize::from(time.is_some()))?;
    } else if first.first().is_some_and(u8::is_ascii_digit) {
        // RFC 822/1123: 25 Jun 2010
        (day, mon, year) = (first, tok(k.checked_add(1)?)?, tok(k.checked_add(2)?)?);
        k = k.checked_add(3)?;
        time = tok(k).filter(|x| x.contains(&b':'));
        k = k.checked_add(usize::from(time.is_some()))?;
    } else {
        // asctime: Jun 25 15:00:00 2010
        mon = first;
        day = tok(k.checked_add(1)?)?;
        time = Some(tok(k.checked_add(2)?)?);
        year = tok(k.checked_add(3)?)?;
        k = k.checked_add(4)?;
    }
    let offset = match tok(k) {
        None => 0,
        Some(zone) => {
            k = k.checked_add(1)?;
            zone_offset_min(zone)?
        }
    };
    if k != t.len() {
        return None;
    }
    let year = match year.len() {
        2 => {
            let yy = i64::from(digits(year)?);
            if yy < 50 {
                yy.checked_add(2000)?
            } else {
                yy.checked_add(1900)?
            }
        }
        4 => i64::from(digits(year)?),
        _ => return None,
    };
    let (h, mi, s) = match time {
        Some(x) => hms(x, true)?,
        None => (0, 0, 0),
    };
    let ms = civil_to_ms(year, month(mon)?, two_digits(day)?, h, mi, s)?;
    ms.checked_sub(offset.checked_mul(60_000)?)
}

/// A zone as minutes east of UTC: `Z`, `GMT`, `UT`, `UTC`, the US names of RFC 5322 §4.3, or
/// `+hh`, `+hhmm`, `+hh:mm` (and `-`).
fn zone_offset_min(z: &[u8]) -> Option<i64> {
    const NAMED: [(&[u8], i64); 12] = [
        (b"Z", 0),
        (b"GMT", 0),
        (b"UT", 0),
        (b"UTC", 0),
        (b"EST", -300),
        (b"EDT", -240),
        (b"CST", -360),
        (b"CDT", -300),
        (b"MST", -420),
        (b"MDT", -360),
        (b"PST", -480),
        (b"PDT", -420),
    ];
    if let Some((_, off)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(z)) {
        return Some(*off);
    }
    let (&sign, rest) = z.split_first()?;
    let sign = match sign {
        b'+' => 1i64,
        b'-' => -1,
        _ => return None,
    };
    let (hh, mm): (&[u8], &[u8]) = match rest.len() {
        2 => (rest, b"00"),
        4 => (rest.get(..2)?, rest.get(2..)?),
        5 if rest.get(2) == Some(&b':') => (rest.get(..2)?, rest.get(3..)?),
        _ => return None,
    };
    let (hh, mm) = (i64::from(digits(hh)?), i64::from(digits(mm)?));
    if hh > 23 || mm > 59 {
        return None;
    }
    hh.checked_mul(60)?.checked_add(mm)?.checked_mul(sign)
}

// ---------------------------------------------------------------------------------------------
// The head scanner
// ---------------------------------------------------------------------------------------------

/// Why scanning stopped.
enum End {
    /// `</head>`, `</body>`, `</html>` or `<body`.
    Head,
    /// The end of the (possibly capped) input, or a tag left open at the end.
    Eof,
}

/// Elements whose content is text, not markup: a `<meta` inside them is not a tag.
const RAW_TEXT: [&[u8]; 9] = [
    b"script",
    b"style",
    b"title",
    b"textarea",
    b"template",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];

const fn is_html_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0C)
}

/// One pass over the head; `on_meta(name, content)` for each complete `<meta>` tag, with the
/// raw (still entity-encoded) attribute values.
fn scan<'a>(b: &'a [u8], mut on_meta: impl FnMut(&'a [u8], Option<&'a [u8]>)) -> End {
    let mut i = 0usize;
    loop {
        let Some(off) = b.get(i..).and_then(|r| r.iter().position(|&c| c == b'<')) else {
            return End::Eof;
        };
        i = i.saturating_add(off);
        let rest = b.get(i..).unwrap_or(&[]);
        if rest.starts_with(b"<!--") {
            i = skip_comment(b, i.saturating_add(4));
        } else if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            i = skip_past(b, i.saturating_add(2), b'>');
        } else if rest.starts_with(b"</") {
            let (name, after) = tag_name(b, i.saturating_add(2));
            if name.is_empty() {
                i = skip_past(b, i.saturating_add(2), b'>');
                continue;
            }
            if [&b"head"[..], b"body", b"html"]
                .iter()
                .any(|t| name.eq_ignore_ascii_case(t))
            {
                return End::Head;
            }
            match attributes(b, after, |_, _| {}) {
                Some(end) => i = end,
                None => return End::Eof,
            }
        } else if rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
            let (name, after) = tag_name(b, i.saturating_add(1));
            if name.eq_ignore_ascii_case(b"body") {
                return End::Head;
            }
            if name.eq_ignore_ascii_case(b"meta") {
                let (mut m_name, mut m_content) = (None, None);
                let end = attributes(b, after, |k, v| {
                    if k.eq_ignore_ascii_case(b"name") {
                        m_name = m_name.or(Some(v));
                    } else if k.eq_ignore_ascii_case(b"content") {
                        m_content = m_content.or(Some(v));
                    }
                });
                let Some(end) = end else { return End::Eof };
                if let Some(n) = m_name {
                    on_meta(n, m_content);
                }
                i = end;
            } else {
                let Some(end) = attributes(b, after, |_, _| {}) else {
                    return End::Eof;
                };
                i = end;
                if RAW_TEXT.iter().any(|t| name.eq_ignore_ascii_case(t)) {
                    match end_tag(b, i, name) {
                        Some(e) => i = e,
                        None => return End::Eof,
                    }
                }
            }
        } else {
            i = i.saturating_add(1);
        }
    }
}

/// The tag name starting at `i`, and where it ends.
fn tag_name(b: &[u8], i: usize) -> (&[u8], usize) {
    let rest = b.get(i..).unwrap_or(&[]);
    let len = rest
        .iter()
        .position(|&c| is_html_ws(c) || c == b'/' || c == b'>')
        .unwrap_or(rest.len());
    (rest.get(..len).unwrap_or(&[]), i.saturating_add(len))
}

/// Reads attributes from `i` to the closing `>` as the HTML tokenizer does, calling `f(name,
/// value)` for each (an attribute without a value gets `""`). Returns the index after `>`, or
/// `None` when the input ends first.
fn attributes<'a>(
    b: &'a [u8],
    mut i: usize,
    mut f: impl FnMut(&'a [u8], &'a [u8]),
) -> Option<usize> {
    loop {
        while b.get(i).is_some_and(|&c| is_html_ws(c) || c == b'/') {
            i = i.saturating_add(1);
        }
        if *b.get(i)? == b'>' {
            return Some(i.saturating_add(1));
        }
        // The first character is always part of the name (even `=`), so every round advances.
        let start = i;
        i = i.saturating_add(1);
        while b
            .get(i)
            .is_some_and(|&c| !(is_html_ws(c) || matches!(c, b'/' | b'>' | b'=')))
        {
            i = i.saturating_add(1);
        }
        let name = b.get(start..i).unwrap_or(&[]);
        while b.get(i).is_some_and(|&c| is_html_ws(c)) {
            i = i.saturating_add(1);
        }
        if b.get(i) != Some(&b'=') {
            f(name, &[]);
            continue;
        }
        i = i.saturating_add(1);
        while b.get(i).is_some_and(|&c| is_html_ws(c)) {
            i = i.saturating_add(1);
        }
        match *b.get(i)? {
            q @ (b'"' | b'\'') => {
                let vs = i.saturating_add(1);
                let len = b.get(vs..)?.iter().position(|&c| c == q)?;
                let ve = vs.saturating_add(len);
                f(name, b.get(vs..ve).unwrap_or(&[]));
                i = ve.saturating_add(1);
            }
            b'>' => {
                f(name, &[]);
                return Some(i.saturating_add(1));
            }
            _ => {
                let vs = i;
                while b.get(i).is_some_and(|&c| !(is_html_ws(c) || c == b'>')) {
                    i = i.saturating_add(1);
                }
                f(name, b.get(vs..i).unwrap_or(&[]));
            }
        }
    }
}

/// After `<!--`: the index after the closing `-->` (or `--!>`; `<!-->` and `<!--->` close at
/// once, as in HTML), or the end of input.
fn skip_comment(b: &[u8], i: usize) -> usize {
    let rest = b.get(i..).unwrap_or(&[]);
    if rest.starts_with(b">") {
        return i.saturating_add(1);
    }
    if rest.starts_with(b"->") {
        return i.saturating_add(2);
    }
    let mut j = i;
    loop {
        let Some(off) = b.get(j..).and_then(|r| r.iter().position(|&c| c == b'-')) else {
            return b.len();
        };
        j = j.saturating_add(off);
        let at = b.get(j..).unwrap_or(&[]);
        if at.starts_with(b"-->") {
            return j.saturating_add(3);
        }
        if at.starts_with(b"--!>") {
            return j.saturating_add(4);
        }
        j = j.saturating_add(1);
    }
}

/// The index after the next `c` at or after `i`, or the end of input.
fn skip_past(b: &[u8], i: usize, c: u8) -> usize {
    b.get(i..)
        .and_then(|r| r.iter().position(|&x| x == c))
        .map_or(b.len(), |p| i.saturating_add(p).saturating_add(1))
}

/// The index after the end tag `</name ...>` at or after `i`, or `None` if there is none.
fn end_tag(b: &[u8], mut i: usize, name: &[u8]) -> Option<usize> {
    loop {
        let off = b.get(i..)?.iter().position(|&c| c == b'<')?;
        i = i.saturating_add(off);
        let after_slash = i.saturating_add(2);
        let name_end = after_slash.saturating_add(name.len());
        if b.get(i.saturating_add(1)) == Some(&b'/')
            && b.get(after_slash..name_end)
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && b.get(name_end)
                .is_none_or(|&c| is_html_ws(c) || c == b'/' || c == b'>')
        {
            return Some(skip_past(b, name_end, b'>'));
        }
        i = i.saturating_add(1);
    }
}

/// Decodes character references in an attribute value (a small set of named ones and every
/// numeric one) and reads the bytes as UTF-8, replacing invalid sequences with U+FFFD.
fn decode(v: &[u8]) -> String {
    if !v.contains(&b'&') {
        return String::from_utf8_lossy(v).into_owned();
    }
    let mut out: Vec<u8> = Vec::with_capacity(v.len());
    let mut i = 0usize;
    while let Some(&c) = v.get(i) {
        if c == b'&' {
            if let Some((ch, next)) = char_ref(v, i.saturating_add(1)) {
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                i = next;
                continue;
            }
        }
        out.push(c);
        i = i.saturating_add(1);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The character reference after a `&` at `i`, and the index after it.
fn char_ref(v: &[u8], i: usize) -> Option<(char, usize)> {
    if v.get(i) == Some(&b'#') {
        let hex = matches!(v.get(i.saturating_add(1)), Some(b'x' | b'X'));
        let start = i.saturating_add(if hex { 2 } else { 1 });
        let mut j = start;
        let mut n: u32 = 0;
        while let Some(&c) = v.get(j) {
            let d = if hex {
                (c as char).to_digit(16)
            } else {
                (c as char).to_digit(10)
            };
            let Some(d) = d else { break };
            n = n
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(d)
                .min(0x11_0000);
            j = j.saturating_add(1);
        }
        if j == start {
            return None;
        }
        if v.get(j) == Some(&b';') {
            j = j.saturating_add(1);
        }
        // NUL, surrogates and values past U+10FFFF become U+FFFD, as in HTML.
        let ch = if n == 0 { None } else { char::from_u32(n) };
        return Some((ch.unwrap_or('\u{FFFD}'), j));
    }
    const NAMED: [(&[u8], char, bool); 17] = [
        // (name, character, may appear without `;` — the legacy forms of HTML)
        (b"amp", '&', true),
        (b"AMP", '&', true),
        (b"lt", '<', true),
        (b"LT", '<', true),
        (b"gt", '>', true),
        (b"GT", '>', true),
        (b"quot", '"', true),
        (b"QUOT", '"', true),
        (b"nbsp", '\u{A0}', true),
        (b"apos", '\'', false),
        (b"comma", ',', false),
        (b"colon", ':', false),
        (b"semi", ';', false),
        (b"sol", '/', false),
        (b"equals", '=', false),
        (b"lpar", '(', false),
        (b"rpar", ')', false),
    ];
    let rest = v.get(i..)?;
    let len = rest
        .iter()
        .take(8)
        .position(|c| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len().min(8));
    let name = rest.get(..len)?;
    let (_, ch, legacy) = NAMED.iter().find(|(n, _, _)| *n == name)?;
    let end = i.saturating_add(len);
    match v.get(end) {
        Some(b';') => Some((*ch, end.saturating_add(1))),
        // In attribute values a legacy reference followed by `=` or an alphanumeric stays text.
        Some(b'=') => None,
        Some(c) if c.is_ascii_alphanumeric() => None,
        _ if *legacy => Some((*ch, end)),
        _ => None,
    }
}
