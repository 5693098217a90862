//! Lifecycle, floor 6: page-level robots rules: the robots META tag and the `X-Robots-Tag`
//! response header, plus the other META tags the seed documents describe (description,
//! keywords, document-state, url, revisit-after).
//!
//! The HTML side is a tolerant scanner of the document head (`html`), not a DOM: it finds
//! `<meta ...>` tags in one linear pass, skipping comments and the contents of `<script>`,
//! `<style>` and the other raw-text elements, and stops at `</head>` or `<body`. Section
//! letters (G.1 ...) refer to `docs/semantics.md`; `docs/fetch-policy.md` has the rules
//! with citations.
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

use super::date::{digits, parse_date, weekday};
use super::html::{decode, has_attribute, scan, End};

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

/// A named `<meta>` tag of a document's head, its attribute values decoded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeadMeta {
    /// Its position among the head's named META tags, from 1.
    pub index: u32,
    /// The `name` attribute, trimmed.
    pub name: String,
    /// The `content` attribute (`None` when the tag has none).
    pub content: Option<String>,
}

/// Every named META tag of an HTML document's head, in order (read as [`meta_robots`] reads
/// them, with the same [`HEAD_SCAN_LIMIT`]), at most [`MAX_DIRECTIVES`] of them; `true` with
/// them when the head was cut at the limit or more tags were dropped. For readers of META tags
/// other than robots (TDMRep's `tdm-reservation`, AI use).
#[must_use]
pub fn head_meta(html: &[u8]) -> (Vec<HeadMeta>, bool) {
    let doc = html.get(..HEAD_SCAN_LIMIT).unwrap_or(html);
    let mut tags = Vec::new();
    let mut full = false;
    let end = scan(doc, |name, content| {
        if tags.len() >= MAX_DIRECTIVES {
            full = true;
            return;
        }
        let index = u32::try_from(tags.len())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        tags.push(HeadMeta {
            index,
            name: decode(name).trim().to_owned(),
            content: content.map(decode),
        });
    });
    let cut = matches!(end, End::Eof) && html.len() > HEAD_SCAN_LIMIT;
    (tags, cut || full)
}

/// The directives of one robots META tag (`tag`: its name, `robots` for every crawler) or of one
/// `X-Robots-Tag` value (`tag`: `None`; its `bot:` prefixes are read), whatever crawler they
/// address: each directive's [`Directive::scope`] says whom. At most [`MAX_DIRECTIVES`]; `true`
/// with them when more were dropped.
#[must_use]
pub fn directives(text: &str, tag: Option<&str>) -> (Vec<Directive>, bool) {
    let mut c = Collector::every();
    match tag {
        Some(name) if name.eq_ignore_ascii_case("robots") => {
            c.list(text, Origin::Meta, Scope::Generic, false);
        }
        Some(name) => c.list(text, Origin::Meta, Scope::Agent(name.to_owned()), false),
        None => c.list(text, Origin::Header, Scope::Generic, true),
    }
    (c.out, c.full)
}

/// Whether the document marks any part `data-nosnippet` (a boolean attribute of `span`, `div`
/// and `section` elements: Google keeps those parts out of snippets and of direct input to AI
/// Overviews and AI Mode). The whole document is read, up to [`HEAD_SCAN_LIMIT`] bytes.
#[must_use]
pub fn has_data_nosnippet(html: &[u8]) -> bool {
    let doc = html.get(..HEAD_SCAN_LIMIT).unwrap_or(html);
    has_attribute(doc, &[b"span", b"div", b"section"], b"data-nosnippet")
}

/// Whether a META tag or `X-Robots-Tag` prefix naming `name` addresses the crawler `agent` (a
/// product token or a User-Agent): as [`meta_robots`] decides it (equal ignoring case, or `name`
/// is the crawler's token up to a `-`).
#[must_use]
pub fn addresses(name: &str, agent: &str) -> bool {
    name_applies(name.as_bytes(), product_token(agent))
}

/// Gathers the directives that apply to one crawler (`token`), or to any (`None`).
struct Collector<'a> {
    token: Option<&'a [u8]>,
    out: Vec<Directive>,
    full: bool,
}

impl<'a> Collector<'a> {
    fn new(agent: &'a str) -> Self {
        Collector {
            token: Some(product_token(agent)),
            out: Vec::new(),
            full: false,
        }
    }

    fn every() -> Self {
        Collector {
            token: None,
            out: Vec::new(),
            full: false,
        }
    }

    /// Whether a tag or prefix naming `name` addresses the collected crawler.
    fn addressed(&self, name: &[u8]) -> bool {
        self.token.is_none_or(|token| name_applies(name, token))
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
        } else if self.addressed(n) {
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
                    applies = self.addressed(name.as_bytes());
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

/// The directives without a value, by name (`nocache` is Bing's synonym of `noarchive`). The
/// directives that take one are read in [`kind_of`].
const PLAIN: [(&str, DirectiveKind); 13] = [
    ("all", DirectiveKind::All),
    ("none", DirectiveKind::None),
    ("index", DirectiveKind::Index),
    ("noindex", DirectiveKind::NoIndex),
    ("follow", DirectiveKind::Follow),
    ("nofollow", DirectiveKind::NoFollow),
    ("archive", DirectiveKind::Archive),
    ("noarchive", DirectiveKind::NoArchive),
    ("nocache", DirectiveKind::NoArchive),
    ("nosnippet", DirectiveKind::NoSnippet),
    ("noimageindex", DirectiveKind::NoImageIndex),
    ("notranslate", DirectiveKind::NoTranslate),
    ("indexifembedded", DirectiveKind::IndexIfEmbedded),
];

/// The values of `max-image-preview`.
const IMAGE_PREVIEWS: [(&str, ImagePreview); 3] = [
    ("none", ImagePreview::None),
    ("standard", ImagePreview::Standard),
    ("large", ImagePreview::Large),
];

/// The value `table` gives `name`, ignoring ASCII case.
fn lookup<T: Clone>(table: &[(&str, T)], name: &str) -> Option<T> {
    table
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

/// A directive name we know, with or without a value.
fn is_known(name: &str) -> bool {
    kind_of(name, None) != DirectiveKind::Unknown
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

/// What the directive `name` means, with `value`, the text after its colon if any.
fn kind_of(name: &str, value: Option<&str>) -> DirectiveKind {
    if let Some(kind) = lookup(&PLAIN, name) {
        // "noindex:" with nothing after the colon is still noindex.
        return if value.is_none_or(str::is_empty) {
            kind
        } else {
            DirectiveKind::Invalid
        };
    }
    let is = |k: &str| name.eq_ignore_ascii_case(k);
    let v = value.unwrap_or("");
    let kind = if is("max-snippet") {
        limit(v).map(DirectiveKind::MaxSnippet)
    } else if is("max-video-preview") {
        limit(v).map(DirectiveKind::MaxVideoPreview)
    } else if is("max-image-preview") {
        lookup(&IMAGE_PREVIEWS, v).map(DirectiveKind::MaxImagePreview)
    } else if is("unavailable_after") {
        (!v.is_empty()).then(|| DirectiveKind::UnavailableAfter {
            date: v.to_owned(),
            at_ms: parse_date(v),
        })
    } else {
        return DirectiveKind::Unknown;
    };
    kind.unwrap_or(DirectiveKind::Invalid)
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
    // For the Seed001 rule: which of its six terms appear (NONE counts as NOINDEX and NOFOLLOW).
    let (mut all, mut index, mut follow, mut noindex, mut nofollow) =
        (false, false, false, false, false);
    let mut nosnippet = false;
    for d in directives {
        match &d.kind {
            DirectiveKind::All => all = true,
            DirectiveKind::None => (noindex, nofollow) = (true, true),
            DirectiveKind::Index => index = true,
            DirectiveKind::NoIndex => noindex = true,
            DirectiveKind::Follow => follow = true,
            DirectiveKind::NoFollow => nofollow = true,
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
                if noindex && !(index || follow || nofollow) {
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
