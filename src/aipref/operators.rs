//! The AI purposes a site can answer for, and the operator table: which crawler tokens serve
//! which purposes, as their operators document them, each row with its source
//! (`docs/ai-signals.md` §3.1 and §5.2, the readings [S-5], [S-6], [S-19], [S-20],
//! [S-22] and the decisions [D-1], [D-2]). Data only: a row is an edit here, not code.
//!
//! This is the one table of the Rust side. The Worker gate's `examples/worker-gate/src/
//! ai-crawlers.js` keeps its own copy for now; `docs/ai-use.md` says how they are kept alike.

/// A purpose a site may allow or deny, named as the aipref vocabulary (draft-ietf-aipref-vocab-08
/// §4) labels it: AI training, AI use (input to a model: grounding, retrieval, answers) and search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Purpose {
    /// `train-ai`: training or fine-tuning AI models.
    Train,
    /// `ai-use`: AI input (retrieval-augmented generation, grounding, generated answers).
    Input,
    /// `search`: a search index, links and short excerpts.
    Search,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Purpose {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.label())
    }
}

/// The purposes in output order.
pub const PURPOSES: [Purpose; 3] = [Purpose::Train, Purpose::Input, Purpose::Search];

impl Purpose {
    /// The label: `train-ai`, `ai-use` or `search` (the aipref category labels).
    pub const fn label(self) -> &'static str {
        match self {
            Purpose::Train => "train-ai",
            Purpose::Input => "ai-use",
            Purpose::Search => "search",
        }
    }

    /// The purpose of a label (the aipref labels, and Content-Signal's keys `ai-train`,
    /// `ai-input`, `search`), ignoring ASCII case.
    pub fn from_label(label: &str) -> Option<Purpose> {
        let l = label.trim();
        let is = |s: &str| l.eq_ignore_ascii_case(s);
        if is("train-ai") || is("ai-train") {
            Some(Purpose::Train)
        } else if is("ai-use") || is("ai-input") {
            Some(Purpose::Input)
        } else if is("search") {
            Some(Purpose::Search)
        } else {
            None
        }
    }

    /// Its index in [`PURPOSES`] (and in every per-purpose array).
    pub const fn index(self) -> usize {
        self as usize
    }

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of purposes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Purposes(u8);

impl Purposes {
    pub const NONE: Purposes = Purposes(0);
    pub const TRAIN: Purposes = Purposes(1);
    pub const INPUT: Purposes = Purposes(2);
    pub const SEARCH: Purposes = Purposes(4);

    /// The union of two sets.
    #[must_use]
    pub const fn and(self, other: Purposes) -> Purposes {
        Purposes(self.0 | other.0)
    }

    pub const fn contains(self, p: Purpose) -> bool {
        self.0 & p.bit() != 0
    }

    /// The set of the given purposes.
    pub fn of(purposes: &[Purpose]) -> Purposes {
        Purposes(purposes.iter().fold(0, |acc, p| acc | p.bit()))
    }

    /// Its members, in [`PURPOSES`] order.
    pub fn iter(self) -> impl Iterator<Item = Purpose> {
        PURPOSES.into_iter().filter(move |p| self.contains(*p))
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A crawler that fetches pages and sends this token.
    Crawler,
    /// A robots.txt token no crawler sends: it only states a use preference for what the
    /// operator's crawler (`fetched_by`) fetches.
    Control,
    /// A fetcher acting on one user's request. It governs only itself ([D-1]).
    UserFetcher,
    /// Link previews: none of the three purposes.
    Previews,
}

impl Kind {
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Crawler => "crawler",
            Kind::Control => "control-token",
            Kind::UserFetcher => "user-fetcher",
            Kind::Previews => "link-previews",
        }
    }
}

/// One row of the operator table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operator {
    /// The product token, as the operator writes it (matched ignoring ASCII case).
    pub token: &'static str,
    pub operator: &'static str,
    pub kind: Kind,
    /// The purposes the operator documents for it.
    pub purposes: Purposes,
    /// Documented for AI or search uses only: only then does an explicit Allow in a group naming
    /// it count as an allow ([S-6]).
    pub dedicated: bool,
    /// For a control token, the crawler that fetches for it (its crawl gate, [S-20], [D-2]).
    pub fetched_by: Option<&'static str>,
    /// What the operator says about obeying robots.txt, when it says robots.txt may not bind
    /// the token ([S-4]); reported as a condition.
    pub robots_txt: Option<&'static str>,
    /// The operator's documentation.
    pub source: &'static str,
}

const GOOGLE: &str =
    "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers";
const GOOGLE_EXTENDED: &str = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers#google-extended";
const APPLE: &str = "https://support.apple.com/en-us/119829";
const OPENAI: &str = "https://developers.openai.com/api/docs/bots";
const ANTHROPIC: &str = "https://support.claude.com/en/articles/8896518";
const PERPLEXITY: &str = "https://docs.perplexity.ai/guides/bots";
const META: &str = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers";
const AMAZON: &str = "https://developer.amazon.com/amazonbot";
const COMMON_CRAWL: &str = "https://commoncrawl.org/ccbot";
const DUCKDUCKGO: &str = "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot";
const BING: &str = "https://blogs.bing.com/webmaster/september-2023/Announcing-new-options-for-webmasters-to-control-usage-of-their-content-in-Bing-Chat";
/// The community list: the only source for the rows no operator documents (ai-signals.md §7.6).
const COMMUNITY: &str = "https://github.com/ai-robots-txt/ai.robots.txt";
const CLOUDFLARE: &str =
    "https://developers.cloudflare.com/changelog/post/2026-08-31-crawl-content-use/";

const fn row(
    token: &'static str,
    operator: &'static str,
    kind: Kind,
    purposes: Purposes,
    dedicated: bool,
    source: &'static str,
) -> Operator {
    Operator {
        token,
        operator,
        kind,
        purposes,
        dedicated,
        fetched_by: None,
        robots_txt: None,
        source,
    }
}

const T: Purposes = Purposes::TRAIN;
const I: Purposes = Purposes::INPUT;
const SI: Purposes = Purposes::SEARCH.and(Purposes::INPUT);
const TI: Purposes = Purposes::TRAIN.and(Purposes::INPUT);
const TIS: Purposes = TI.and(Purposes::SEARCH);

/// The operator table (ai-signals.md §3.1, as of its sources' 2026 versions).
pub const OPERATORS: [Operator; 27] = [
    row("Googlebot", "Google", Kind::Crawler, SI, false, GOOGLE),
    Operator {
        fetched_by: Some("Googlebot"),
        ..row(
            "Google-Extended",
            "Google",
            Kind::Control,
            TI,
            true,
            GOOGLE_EXTENDED,
        )
    },
    row("Applebot", "Apple", Kind::Crawler, SI, false, APPLE),
    Operator {
        fetched_by: Some("Applebot"),
        ..row("Applebot-Extended", "Apple", Kind::Control, T, true, APPLE)
    },
    row("GPTBot", "OpenAI", Kind::Crawler, T, true, OPENAI),
    row("OAI-SearchBot", "OpenAI", Kind::Crawler, SI, true, OPENAI),
    Operator {
        robots_txt: Some("OpenAI: for user-initiated requests \"robots.txt rules may not apply\""),
        ..row("ChatGPT-User", "OpenAI", Kind::UserFetcher, I, true, OPENAI)
    },
    row("ClaudeBot", "Anthropic", Kind::Crawler, T, true, ANTHROPIC),
    row(
        "Claude-SearchBot",
        "Anthropic",
        Kind::Crawler,
        SI,
        true,
        ANTHROPIC,
    ),
    row(
        "Claude-User",
        "Anthropic",
        Kind::UserFetcher,
        I,
        true,
        ANTHROPIC,
    ),
    row(
        "PerplexityBot",
        "Perplexity",
        Kind::Crawler,
        SI,
        true,
        PERPLEXITY,
    ),
    Operator {
        robots_txt: Some(
            "Perplexity: the user-requested fetcher \"generally ignores robots.txt rules\"",
        ),
        ..row(
            "Perplexity-User",
            "Perplexity",
            Kind::UserFetcher,
            I,
            true,
            PERPLEXITY,
        )
    },
    row("meta-externalagent", "Meta", Kind::Crawler, T, false, META),
    row("meta-webindexer", "Meta", Kind::Crawler, SI, true, META),
    Operator {
        robots_txt: Some("Meta: user-requested fetches may bypass robots.txt"),
        ..row(
            "meta-externalfetcher",
            "Meta",
            Kind::UserFetcher,
            I,
            true,
            META,
        )
    },
    row(
        "facebookexternalhit",
        "Meta",
        Kind::Previews,
        Purposes::NONE,
        false,
        META,
    ),
    row("Amazonbot", "Amazon", Kind::Crawler, T, false, AMAZON),
    row("Amzn-SearchBot", "Amazon", Kind::Crawler, SI, true, AMAZON),
    row("Amzn-User", "Amazon", Kind::UserFetcher, I, true, AMAZON),
    row(
        "CCBot",
        "Common Crawl",
        Kind::Crawler,
        T,
        false,
        COMMON_CRAWL,
    ),
    row(
        "DuckAssistBot",
        "DuckDuckGo",
        Kind::Crawler,
        I,
        true,
        DUCKDUCKGO,
    ),
    row("bingbot", "Microsoft", Kind::Crawler, TIS, false, BING),
    row(
        "Bytespider",
        "ByteDance",
        Kind::Crawler,
        T,
        false,
        COMMUNITY,
    ),
    row("cohere-ai", "Cohere", Kind::Crawler, I, false, COMMUNITY),
    row(
        "cohere-training-data-crawler",
        "Cohere",
        Kind::Crawler,
        T,
        false,
        COMMUNITY,
    ),
    row(
        "MistralAI-User",
        "Mistral",
        Kind::UserFetcher,
        I,
        true,
        COMMUNITY,
    ),
    // Its purposes are the caller's (`crawlPurposes`): given as `AiUseInputs::purposes`.
    row(
        "CloudflareBrowserRenderingCrawler",
        "Cloudflare",
        Kind::Crawler,
        Purposes::NONE,
        false,
        CLOUDFLARE,
    ),
];

/// The row of a product token, ignoring ASCII case.
pub fn operator(token: &str) -> Option<&'static Operator> {
    OPERATORS
        .iter()
        .find(|o| o.token.eq_ignore_ascii_case(token))
}

/// The row of the crawler a User-Agent names: the token itself, or the longest word of a full
/// User-Agent header (`Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)`) that
/// is a row's token (its `/version` dropped).
pub fn crawler(agent: &str) -> Option<&'static Operator> {
    if let Some(o) = operator(agent.trim()) {
        return Some(o);
    }
    agent
        .split(|c: char| c.is_ascii_whitespace() || matches!(c, ';' | '(' | ')' | ',' | '[' | ']'))
        .map(|word| word.split('/').next().unwrap_or(""))
        .filter_map(operator)
        .max_by_key(|o| o.token.len())
}
