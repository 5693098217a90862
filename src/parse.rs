//! Floor 5: lines -> groups, rules and records: the one place that knows the file's structure,
//! and the constructors of the facade (`Robots::parse`, `parse_with`, `reparse`, `default`).
//!
//! Parsing never fails (RFC 9309 §2.3.1.5): every line that can be understood is used, and every
//! other line becomes a diagnostic. At the end the rule sets that queries run against are built,
//! so a query never re-reads the file.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::agent::value_token;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::dialect::{Dialect, DialectId, GroupBoundary, GroupMerge, Values};
use crate::lines::{is_space, Content, Line, Lines, DOLLAR, RULE_DISALLOW, SPECIAL, STAR};
use crate::model::{span, Agent, Group, Record, RecordKind, Rule, RuleKind, Scratch};
use crate::options::Options;
use crate::pattern::{needs_normalizing, normalize, Side};
use crate::robots::{Robots, RuleSet, TokenEntry};
use crate::sort::radix_sort;
use crate::value::{is_valid_host, parse_request_rate, read_seconds};

/// An empty robots.txt (everything is allowed) in the default dialect, holding no memory: what
/// [`Robots::reparse`] can fill.
impl Default for Robots {
    fn default() -> Self {
        empty(DialectId::Rfc9309.dialect())
    }
}

impl Robots {
    /// Parses a robots.txt in the default dialect (RFC 9309) with the default size cap.
    pub fn parse(bytes: &[u8]) -> Robots {
        Robots::parse_with(bytes, &Options::default())
    }

    /// Parses a robots.txt as `options` say. Never fails: see [`Robots::diagnostics`].
    pub fn parse_with(bytes: &[u8], options: &Options) -> Robots {
        let mut r = Robots::default();
        parse(bytes, options, &mut r);
        r
    }

    /// Parses another robots.txt into this value, reusing its memory: the same result as
    /// `*self = Robots::parse_with(bytes, options)`, with most of the allocations saved (a
    /// crawler that parses one site's file after another). The arrays keep the capacity of the
    /// largest file parsed into them; drop the value to give that memory back.
    ///
    /// ```
    /// use robots_eval::{Options, Robots};
    /// let mut robots = Robots::default(); // an empty file: everything is allowed
    /// assert!(robots.is_allowed("/x", "bot"));
    /// robots.reparse(b"User-agent: *\nDisallow: /x\n", &Options::default());
    /// assert!(!robots.is_allowed("/x", "bot"));
    /// robots.reparse(b"User-agent: bot\nDisallow: /y\n", &Options::default());
    /// assert!(robots.is_allowed("/x", "bot") && !robots.is_allowed("/y", "bot"));
    /// ```
    pub fn reparse(&mut self, bytes: &[u8], options: &Options) {
        parse(bytes, options, self);
    }
}

/// What a line's key names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    UserAgent,
    Rule(RuleKind),
    Record(RecordKind),
}

/// How the key was spelt.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spelling {
    Exact,
    Typo,
    Prefix,
}

/// Field names, most specific first where one is a prefix of another (google's order: user-agent,
/// allow, disallow, sitemap; then the other records, which match exactly).
const FIELDS: &[(&str, Field)] = &[
    ("user-agent", Field::UserAgent),
    ("allow", Field::Rule(RuleKind::Allow)),
    ("disallow", Field::Rule(RuleKind::Disallow)),
    ("sitemap", Field::Record(RecordKind::Sitemap)),
];

const RECORDS: &[(&str, RecordKind)] = &[
    ("crawl-delay", RecordKind::CrawlDelay),
    ("host", RecordKind::Host),
    ("clean-param", RecordKind::CleanParam),
    ("request-rate", RecordKind::RequestRate),
    ("visit-time", RecordKind::VisitTime),
    ("content-usage", RecordKind::ContentUsage),
    ("content-signal", RecordKind::ContentSignal),
    ("robot-version", RecordKind::RobotVersion),
    ("comment", RecordKind::Comment),
];

/// Other spellings of records that crawlers meet, read with a `typo` diagnostic in every dialect
/// (they never change a verdict): `crawldelay` (temoto/robotstxt, texting_robots), `crawl delay`
/// (texting_robots, crawler-commons) and `crawl_delay` (docs/records.md).
const RECORD_SPELLINGS: &[(&str, RecordKind)] = &[
    ("crawldelay", RecordKind::CrawlDelay),
    ("crawl delay", RecordKind::CrawlDelay),
    ("crawl_delay", RecordKind::CrawlDelay),
];

/// The frequent typos google/robotstxt accepts (semantics I.7), with the field they stand for.
const TYPOS: &[(&str, Field)] = &[
    ("useragent", Field::UserAgent),
    ("user agent", Field::UserAgent),
    ("dissallow", Field::Rule(RuleKind::Disallow)),
    ("dissalow", Field::Rule(RuleKind::Disallow)),
    ("disalow", Field::Rule(RuleKind::Disallow)),
    ("diasllow", Field::Rule(RuleKind::Disallow)),
    ("disallaw", Field::Rule(RuleKind::Disallow)),
    ("site-map", Field::Record(RecordKind::Sitemap)),
];

fn field_name(field: Field) -> &'static str {
    match field {
        Field::UserAgent => "user-agent",
        Field::Rule(kind) => kind.as_str(),
        Field::Record(kind) => kind.as_str(),
    }
}

fn starts_with_ci(key: &[u8], name: &str) -> bool {
    key.get(..name.len()).is_some_and(|k| is_name(k, name))
}

/// `key` is `name` (lower-case ASCII: a field name, a URL scheme) with its letters in any case
/// and its other octets as they are. One branch-free pass: every line's key goes through here.
fn is_name(key: &[u8], name: &str) -> bool {
    key.len() == name.len()
        && key.iter().zip(name.as_bytes()).fold(0u8, |diff, (&k, &n)| {
            // Folding case only where the name has a letter keeps `\r` from matching `-`.
            diff | ((k | (u8::from(n.is_ascii_lowercase()) << 5)) ^ n)
        }) == 0
}

/// The field a line's key names, and how it was spelt. A name spelt exactly, which nearly every
/// line has, is found here in every dialect: no field name nor typo is a prefix of a record's
/// name, so google's prefix matching reads it alike (`tests::exact_names_read_alike`).
fn field_of(key: &[u8], dialect: &Dialect) -> Option<(Field, Spelling)> {
    let exact = FIELDS
        .iter()
        .find(|&&(n, _)| is_name(key, n))
        .map(|&(_, f)| f);
    let exact = exact.or_else(|| {
        (RECORDS.iter())
            .find(|&&(n, _)| is_name(key, n))
            .map(|&(_, kind)| Field::Record(kind))
    });
    match exact {
        Some(field) => Some((field, Spelling::Exact)),
        None => field_of_inexact(key, dialect),
    }
}

/// `field_of` for a key that is no field's or record's name: the dialect's prefixes and typos,
/// and the other spellings of records. Out of line: rare, and compiled only when reached on a
/// cold start.
#[cold]
#[inline(never)]
fn field_of_inexact(key: &[u8], dialect: &Dialect) -> Option<(Field, Spelling)> {
    let lenient = dialect.leniency;
    let typo = |field: Field, matches: fn(&[u8], &str) -> bool| {
        lenient.typos && TYPOS.iter().any(|&(t, f)| f == field && matches(key, t))
    };
    if lenient.key_prefix {
        // google/robotstxt checks user-agent, allow, disallow, sitemap in that order, each by
        // case-insensitive prefix, typos included (semantics I.7).
        for &(name, field) in FIELDS {
            if starts_with_ci(key, name) {
                return Some((field, Spelling::Prefix));
            }
            if typo(field, starts_with_ci) {
                return Some((field, Spelling::Typo));
            }
        }
    } else if let Some(&(_, field)) = FIELDS.iter().find(|&&(_, f)| typo(f, is_name)) {
        return Some((field, Spelling::Typo));
    }
    RECORD_SPELLINGS
        .iter()
        .find(|&&(n, _)| is_name(key, n))
        .map(|&(_, kind)| (Field::Record(kind), Spelling::Typo))
}

/// The field a strict dialect would have accepted had the key been spelt right (for hints).
#[cold]
#[inline(never)]
fn meant(key: &[u8]) -> Option<&'static str> {
    TYPOS
        .iter()
        .find(|(n, _)| key.eq_ignore_ascii_case(n.as_bytes()))
        .map(|&(_, f)| field_name(f))
        .or_else(|| {
            FIELDS
                .iter()
                .find(|(n, _)| starts_with_ci(key, n))
                .map(|&(n, _)| n)
        })
}

struct Builder<'s> {
    /// The file being built, in place (`reset` first): a `Robots` is some 200 bytes, and each
    /// move of one was a copy (in WebAssembly a `memory.copy`, through a call out of the module).
    r: &'s mut Robots,
    /// The file as text when it is valid UTF-8: values are sliced from it, not re-validated.
    source: Option<&'s str>,
    /// Where the file's bytes start in memory, and how many there are: `Robots::bytes` begins
    /// with a copy of them, so a value of the file is stored as its offset, not copied again.
    base: usize,
    source_len: usize,
    /// The group rules and agents are being added to.
    current: Option<u32>,
    /// A rule has been seen in the current group (a user-agent line then starts a new one).
    seen_rule: bool,
    /// A blank line ended the last record (for the hint on the rules that follow it).
    ended_by_blank: bool,
    /// The last line read (of those with a field) was a user-agent line: the next one continues
    /// its run.
    in_run: bool,
    /// Where in `Robots::agents` the current group's last run of user-agent lines starts: the
    /// agents the records after it apply to (docs/records.md).
    run_start: u32,
    /// A valid Host line has been read (a later one is reported).
    host_seen: bool,
}

/// Parses `input` into `r` as `options` say. Never fails, never panics. `r`'s arrays (a file
/// parsed before, or empty ones) are emptied and filled again instead of allocating new ones.
/// Out of line: `Robots::parse_with` and `Robots::reparse` share one copy (the wasm module's
/// size, and what V8 compiles for a process's first parse).
#[inline(never)]
pub(crate) fn parse(input: &[u8], options: &Options, r: &mut Robots) {
    let dialect = options.dialect.dialect();
    let transcoded: Vec<u8>;
    // A rule line is rarely shorter than 20 bytes: reserve once instead of growing.
    reset(r, dialect, input.len().min(options.max_bytes) / 20);
    let mut b = Builder {
        source: None,
        base: 0,
        source_len: 0,
        r,
        current: None,
        seen_rule: false,
        ended_by_blank: false,
        in_run: false,
        run_start: 0,
        host_seen: false,
    };

    let mut bytes = input;
    if bytes.len() > options.max_bytes {
        bytes = &bytes[..options.max_bytes];
        b.r.truncated = true;
    }
    b.r.bytes_read = bytes.len();

    // UTF-16 is not robots.txt's encoding, but RFC 9309 §2.3 lets crawlers bridge encoding
    // mismatches (`Builder::utf16`).
    if let Some(big_endian) = utf16_bom(bytes) {
        match b.utf16(&bytes[2..], big_endian) {
            Utf16::AsIs => {}
            Utf16::Strip => bytes = &bytes[2..],
            Utf16::Transcode(text) => {
                transcoded = text;
                bytes = &transcoded;
            }
        }
    }
    // A UTF-8 byte order mark, or any prefix of it, is skipped at the start (semantics I.2).
    for bom in [&b"\xEF\xBB\xBF"[..], b"\xEF\xBB", b"\xEF"] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            b.diag(1, Code::Bom, None);
            bytes = rest;
            break;
        }
    }
    if bytes.iter().find(|&&c| !is_space(c)) == Some(&b'<') {
        b.diag(1, Code::Html, None);
    }
    b.source = core::str::from_utf8(bytes).ok();
    let valid_utf8 = b.source.is_some();
    // The file's bytes once, plus room for what normalisation adds (patterns, lower-cased tokens).
    b.r.bytes.reserve(bytes.len() + bytes.len() / 8 + 64);
    b.r.bytes.extend_from_slice(bytes);
    b.base = bytes.as_ptr() as usize;
    b.source_len = bytes.len();

    let mut last = 0;
    for line in Lines::new(bytes, dialect.max_line_bytes) {
        last = line.number;
        if !valid_utf8 && core::str::from_utf8(line.bytes).is_err() {
            b.diag(line.number, Code::InvalidUtf8, None);
        }
        b.line(&line);
    }
    b.r.lines = last;
    if b.r.truncated {
        b.diag(last, Code::Truncated, None);
    }
    b.finish();
}

/// A parsed form with nothing in it yet (no allocation).
fn empty(dialect: Dialect) -> Robots {
    Robots {
        dialect,
        groups: Vec::new(),
        agents: Vec::new(),
        rules: Vec::new(),
        records: Vec::new(),
        usage: Vec::new(),
        signals: Vec::new(),
        found: Vec::new(),
        diagnostics: Default::default(),
        bytes: Vec::new(),
        alternates: Vec::new(),
        sets: Vec::new(),
        set_groups: Vec::new(),
        tokens: Vec::new(),
        token_index: Vec::new(),
        scratch: Scratch::default(),
        global: None,
        bytes_read: 0,
        truncated: false,
        lines: 0,
    }
}

/// `r` as a fresh parse's: its arrays emptied (their capacity kept), everything else as
/// `empty`'s. Every field is named, so that a field added to `Robots` must be decided on here,
/// not carried over from the old file.
fn reset(r: &mut Robots, dialect: Dialect, rules_wanted: usize) {
    let Robots {
        dialect: d,
        diagnostics,
        global,
        bytes_read,
        truncated,
        lines,
        groups,
        agents,
        rules,
        records,
        usage,
        signals,
        found,
        bytes,
        alternates,
        sets,
        set_groups,
        tokens,
        token_index,
        scratch: _, // empty between parses
    } = r;
    *d = dialect;
    *diagnostics = Default::default();
    *global = None;
    *bytes_read = 0;
    *truncated = false;
    *lines = 0;
    groups.clear();
    agents.clear();
    rules.clear();
    rules.reserve(rules_wanted);
    records.clear();
    usage.clear();
    signals.clear();
    found.clear();
    bytes.clear();
    alternates.clear();
    sets.clear();
    set_groups.clear();
    tokens.clear();
    token_index.clear();
}

/// The rule sets of the tokens that name several groups (`Builder::merged_sets`): one per
/// distinct list of groups, found again by a hash of its groups (open addressing; slot = list +
/// 1, 0 is empty).
struct SharedLists {
    /// (token, group) for each group of a token after its first: by token, then in file order.
    more: Vec<(u64, u64)>,
    /// The first of `more` not yet read.
    at: usize,
    lists: Vec<u32>,
    /// Each list's groups (in `flat`), and its set.
    seen: Vec<(core::ops::Range<usize>, u32)>,
    flat: Vec<u32>,
}

impl SharedLists {
    /// Whether token `id` (the next token) names several groups.
    fn names_several(&self, id: usize) -> bool {
        self.more.get(self.at).is_some_and(|m| m.0 == id as u64)
    }

    /// The set of token `id`, whose first group is `first`, of `tokens`. Out of line: rare, and
    /// compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn set(&mut self, b: &mut Builder<'_>, id: usize, first: u32, tokens: usize) -> u32 {
        if self.lists.is_empty() {
            self.lists = alloc::vec![0u32; (tokens * 2).next_power_of_two()];
        }
        let list_size = self.lists.len();
        let start = self.flat.len();
        self.flat.push(first);
        while let Some(&(_, g)) = self.more.get(self.at).filter(|m| m.0 == id as u64) {
            self.flat.push(g as u32);
            self.at += 1;
        }
        let hash = self.flat[start..]
            .iter()
            .fold(0x811c_9dc5_u32, |h, &g| (h ^ g).wrapping_mul(0x0100_0193));
        let mut slot = hash as usize & (list_size - 1);
        loop {
            match self.lists[slot] {
                0 => {
                    let set = b.push_set(&self.flat[start..]);
                    self.seen.push((start..self.flat.len(), set));
                    self.lists[slot] = self.seen.len() as u32;
                    return set;
                }
                i => {
                    let (range, set) = &self.seen[i as usize - 1];
                    if self.flat[range.clone()] == self.flat[start..] {
                        self.flat.truncate(start);
                        return *set;
                    }
                    slot = (slot + 1) & (list_size - 1);
                }
            }
        }
    }
}

/// What a UTF-16 byte order mark at the start makes of the file (`Builder::utf16`).
enum Utf16 {
    /// Read the bytes as they are, the mark included.
    AsIs,
    /// Skip the mark and read the rest as UTF-8.
    Strip,
    /// The text after the mark, transcoded to UTF-8.
    Transcode(Vec<u8>),
}

/// Whether the text after a UTF-16 byte order mark really is UTF-16. robots.txt text is mostly
/// ASCII, whose UTF-16 code units have a zero high octet, while single-byte text has (nearly) no
/// NUL octets: at least a quarter of the first 256 code units must have one.
fn is_utf16(body: &[u8], big_endian: bool) -> bool {
    let high = usize::from(!big_endian);
    let units = body.chunks_exact(2).take(256);
    let count = units.len();
    let ascii = units.filter(|unit| unit[high] == 0).count();
    count > 0 && ascii * 4 >= count
}

fn utf16_bom(bytes: &[u8]) -> Option<bool> {
    match bytes {
        [0xFE, 0xFF, ..] => Some(true),
        [0xFF, 0xFE, ..] => Some(false),
        _ => None,
    }
}

#[cold]
#[inline(never)]
fn utf16_to_utf8(bytes: &[u8], big_endian: bool) -> Vec<u8> {
    let units = bytes.chunks_exact(2).map(|c| {
        if big_endian {
            u16::from_be_bytes([c[0], c[1]])
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    let mut out = String::with_capacity(bytes.len());
    for c in char::decode_utf16(units) {
        out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    out.into_bytes()
}

impl Builder<'_> {
    /// A UTF-16 byte order mark at the start, before `body`. google/robotstxt reads the bytes as
    /// they are; the other dialects read UTF-16 text as UTF-16, and skip a mark before
    /// single-byte text (an editor's mistake) to read that as UTF-8 (docs/records.md). A
    /// diagnostic either way.
    #[cold]
    #[inline(never)]
    fn utf16(&mut self, body: &[u8], big_endian: bool) -> Utf16 {
        let google = self.r.dialect.id == DialectId::Google;
        let severity = if google {
            Severity::Error
        } else {
            Severity::Warning
        };
        if is_utf16(body, big_endian) {
            self.diag_with(0, severity, Code::Utf16, None);
            return match google {
                true => Utf16::AsIs,
                false => Utf16::Transcode(utf16_to_utf8(body, big_endian)),
            };
        }
        let detail = match google {
            true => "kept, as google/robotstxt does",
            false => "skipped; the text is read as UTF-8",
        };
        self.diag_with(0, severity, Code::Utf16Bom, Some(String::from(detail)));
        match google {
            true => Utf16::AsIs,
            false => Utf16::Strip,
        }
    }

    /// Out of line: a finding is rare, and its code inlined at each of some thirty call sites
    /// was most of what the first parse of a process makes V8 compile.
    #[cold]
    #[inline(never)]
    fn diag(&mut self, line: u32, code: Code, detail: Option<String>) {
        self.diag_with(line, code.severity(), code, detail);
    }

    #[cold]
    #[inline(never)]
    fn diag_with(&mut self, line: u32, severity: Severity, code: Code, detail: Option<String>) {
        self.r.found.push(Diagnostic {
            line,
            severity,
            code,
            detail,
        });
    }

    /// Where `bytes`, a slice of the file, sits in the copy at the start of `Robots::bytes`
    /// (`None` for a slice from elsewhere).
    fn offset(&self, bytes: &[u8]) -> Option<core::ops::Range<u32>> {
        let offset = (bytes.as_ptr() as usize).wrapping_sub(self.base);
        (offset <= self.source_len && bytes.len() <= self.source_len - offset)
            .then(|| offset as u32..(offset + bytes.len()) as u32)
    }

    /// `bytes` as text: its place in the file when that is valid UTF-8 there, else a lossy copy.
    /// (Inlined: every rule's value comes through here, nearly always to the first return.)
    #[inline(always)]
    fn push_text(&mut self, bytes: &[u8]) -> core::ops::Range<u32> {
        if bytes.is_empty() {
            return 0..0;
        }
        if let Some(at) = self.offset(bytes) {
            // Values are split at ASCII octets, so in a valid file they are text already; a
            // line cut at the cap may end inside a character, hence the boundary check.
            let valid = match self.source {
                Some(s) => s.get(span(&at)).is_some(),
                None => core::str::from_utf8(bytes).is_ok(),
            };
            if valid {
                return at;
            }
        }
        self.push_lossy(bytes)
    }

    /// `bytes` copied as UTF-8, invalid sequences replaced.
    #[cold]
    #[inline(never)]
    fn push_lossy(&mut self, bytes: &[u8]) -> core::ops::Range<u32> {
        let start = self.r.bytes.len() as u32;
        match String::from_utf8_lossy(bytes) {
            Cow::Borrowed(s) => self.r.bytes.extend_from_slice(s.as_bytes()),
            Cow::Owned(s) => self.r.bytes.extend_from_slice(s.as_bytes()),
        }
        start..self.r.bytes.len() as u32
    }

    fn line(&mut self, line: &Line<'_>) {
        let n = line.number;
        if line.too_long {
            self.diag(n, Code::LineTooLong, None);
        } else if line.bytes.len() > crate::dialect::GOOGLE.max_line_bytes
            && self.r.dialect.max_line_bytes == 0
        {
            self.diag(n, Code::LongLine, None);
        }
        if line.has_nul {
            self.diag(n, Code::NulByte, None);
        }
        let (key, value) = match line.content {
            Content::Blank => {
                // 1994 §"format", 1996 §3.2: records are separated by blank lines.
                if self.r.dialect.group_boundary == GroupBoundary::BlankLine
                    && self.current.is_some()
                {
                    self.current = None;
                    self.ended_by_blank = true;
                }
                return;
            }
            Content::Comment => return,
            Content::KeyValue {
                key,
                value,
                missing_colon: false,
            } if !key.is_empty() => (key, value),
            _ => match self.odd_line(line) {
                Some(key_value) => key_value,
                None => return,
            },
        };
        // (One call, which the compiler inlines: with a second one, in `odd_line`, it did not,
        // and parsing medium.txt took 8% more instructions.)
        self.key_value(n, key, value, line);
    }

    /// A line without a key, or without a colon: reported, and its key and value when it is
    /// still read as a field (a missing colon, in the dialects that accept it). Out of line:
    /// rare, and compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn odd_line<'l>(&mut self, line: &Line<'l>) -> Option<(&'l [u8], &'l [u8])> {
        let n = line.number;
        match line.content {
            Content::Blank | Content::Comment => None,
            Content::NoSeparator => {
                let code = if line.bytes.contains(&b' ') || line.bytes.contains(&b'\t') {
                    Code::MissingColon
                } else {
                    Code::Ignored
                };
                let detail = Some(self.lossy(trim_comment(line.bytes)));
                self.diag(n, code, detail);
                None
            }
            Content::KeyValue {
                key,
                value,
                missing_colon,
            } => {
                if key.is_empty() {
                    let detail = Some(self.lossy(line.bytes));
                    self.diag(n, Code::Ignored, detail);
                    return None;
                }
                if missing_colon {
                    if !self.r.dialect.leniency.missing_colon {
                        let detail = Some(self.lossy(trim_comment(line.bytes)));
                        self.diag(n, Code::MissingColon, detail);
                        return None;
                    }
                    self.diag(n, Code::MissingColonAccepted, None);
                }
                Some((key, value))
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn lossy(&self, bytes: &[u8]) -> String {
        joined(&[bytes])
    }

    /// `line`: what the lexer found (`rule_key`, the value's classes).
    fn key_value(&mut self, n: u32, key: &[u8], value: &[u8], line: &Line<'_>) {
        // Any line with a field but a user-agent line ends a run of user-agent lines.
        let continues_run = core::mem::replace(&mut self.in_run, false);
        let known = match line.rule_key {
            0 => None,
            // Selected, not branched on: Allow and Disallow lines come in no predictable order.
            k => Some((
                Field::Rule(if k == RULE_DISALLOW {
                    RuleKind::Disallow
                } else {
                    RuleKind::Allow
                }),
                Spelling::Exact,
            )),
        };
        let Some((field, spelling)) = known.or_else(|| field_of(key, &self.r.dialect)) else {
            return self.unknown_field(n, key, value);
        };
        if spelling != Spelling::Exact {
            self.misspelt(n, key, field, spelling);
        }
        match field {
            Field::UserAgent => self.user_agent(n, value, continues_run),
            // The kind is looked at only in the dialects without Allow lines, in a function of
            // its own so the compiler cannot test it first: Allow and Disallow lines come in no
            // predictable order, and a branch on the kind was mispredicted in every dialect.
            Field::Rule(kind)
                if !self.r.dialect.allow_lines && self.allow_ignored(n, kind, key, value) => {}
            Field::Rule(kind) => self.rule(n, kind, value, line.value_classes, line.body_classes),
            Field::Record(kind) => self.record(n, kind, key, value),
        }
    }

    /// A line whose key names no field: reported (with the field it may have meant), and kept
    /// as a record. Out of line: rare, and compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn unknown_field(&mut self, n: u32, key: &[u8], value: &[u8]) {
        let detail = match meant(key) {
            Some(m) => joined(&[key, b": did you mean '", m.as_bytes(), b"'?"]),
            None => self.lossy(key),
        };
        self.diag(n, Code::UnknownField, Some(detail));
        self.record(n, RecordKind::Unknown, key, value);
    }

    /// A key read as `field` though not spelt as its name (a typo, or google's prefix).
    #[cold]
    #[inline(never)]
    fn misspelt(&mut self, n: u32, key: &[u8], field: Field, spelling: Spelling) {
        let detail = joined(&[key, b" read as ", field_name(field).as_bytes()]);
        let code = if spelling == Spelling::Typo {
            Code::Typo
        } else {
            Code::KeyPrefix
        };
        self.diag(n, code, Some(detail));
    }

    /// An Allow line in a dialect without them: an unknown field (1994: "unrecognised headers
    /// are ignored"). Returns whether the line was one.
    #[cold]
    #[inline(never)]
    fn allow_ignored(&mut self, n: u32, kind: RuleKind, key: &[u8], value: &[u8]) -> bool {
        if kind != RuleKind::Allow {
            return false;
        }
        self.diag(n, Code::AllowIgnored, None);
        self.record(n, RecordKind::Unknown, key, value);
        true
    }

    /// `continues_run`: the line before (of those with a field) was a user-agent line too.
    fn user_agent(&mut self, n: u32, value: &[u8], continues_run: bool) {
        let starts_group = match self.current {
            None => true,
            Some(_) => self.seen_rule,
        };
        if starts_group || !continues_run {
            self.run_start = self.r.agents.len() as u32;
        }
        self.in_run = true;
        if starts_group {
            let at = self.r.agents.len() as u32;
            let rules = self.r.rules.len() as u32;
            let usage = self.r.usage.len() as u32;
            let signals = self.r.signals.len() as u32;
            self.r.groups.push(Group {
                line: n,
                agents: at..at,
                rules: rules..rules,
                records: 0..0,
                usage: usage..usage,
                signals: signals..signals,
            });
            self.current = Some(self.r.groups.len() as u32 - 1);
            self.seen_rule = false;
            self.ended_by_blank = false;
        }
        match self.r.dialect.agent_values {
            Values::One => self.add_agent(n, value),
            Values::WhitespaceSeparated => self.each_word(value, |b, v| b.add_agent(n, v)),
        }
        if let Some(g) = self.current {
            self.r.groups[g as usize].agents.end = self.r.agents.len() as u32;
        }
    }

    /// Each whitespace-separated word of a line's value, or one empty word when it has none:
    /// the dialects that read several agents or paths on a line (revisited). Out of line: rare,
    /// and compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    fn each_word(&mut self, value: &[u8], mut add: impl FnMut(&mut Self, &[u8])) {
        let mut any = false;
        for v in value.split(|&c| is_space(c)).filter(|v| !v.is_empty()) {
            add(self, v);
            any = true;
        }
        if !any {
            add(self, b"");
        }
    }

    /// One agent of a user-agent line.
    fn add_agent(&mut self, n: u32, v: &[u8]) {
        let how = self.r.dialect.agent_match;
        let t = value_token(v, how);
        if v.is_empty() {
            self.diag(n, Code::EmptyUserAgent, None);
        } else if !t.valid
            && matches!(
                how,
                crate::dialect::AgentMatch::Token | crate::dialect::AgentMatch::GoogleWhole
            )
        {
            self.invalid_token(n, v, t.token);
        }
        let written = self.push_text(v);
        let start = self.r.bytes.len() as u32;
        self.r
            .bytes
            .extend(t.token.iter().map(u8::to_ascii_lowercase));
        let token = start..self.r.bytes.len() as u32;
        self.r.agents.push(Agent {
            line: n,
            global: t.global,
            written,
            token,
        });
    }

    /// A user-agent value that is not a valid product token, and what was read of it.
    #[cold]
    #[inline(never)]
    fn invalid_token(&mut self, n: u32, value: &[u8], token: &[u8]) {
        let token = if token.is_empty() { b"no token" } else { token };
        let detail = joined(&[value, b" read as ", token]);
        self.diag(n, Code::InvalidProductToken, Some(detail));
    }

    fn rule(&mut self, n: u32, kind: RuleKind, value: &[u8], classes: u8, body_classes: u8) {
        let Some(group) = self.current else {
            let code = if self.ended_by_blank {
                Code::BlankLineEndsGroup
            } else {
                Code::RuleOutsideGroup
            };
            self.diag(n, code, None);
            return;
        };
        // google/robotstxt: any allow/disallow line, even an empty one, closes the user-agent
        // run (semantics I.13).
        self.seen_rule = true;
        match self.r.dialect.rule_values {
            Values::One => self.add_rule(n, kind, group, value, classes, body_classes),
            Values::WhitespaceSeparated => self.each_word(value, |b, v| {
                // (The empty word has no octets.)
                let (classes, body_classes) = match v.is_empty() {
                    true => (0, 0),
                    false => (classes, body_classes),
                };
                b.add_rule(n, kind, group, v, classes, body_classes)
            }),
        }
        self.r.groups[group as usize].rules.end = self.r.rules.len() as u32;
    }

    /// `classes`, `body_classes`: the lexer's classes of the value's octets, and of all but its
    /// last (supersets), to skip the checks that cannot fail.
    fn add_rule(
        &mut self,
        n: u32,
        kind: RuleKind,
        group: u32,
        value: &[u8],
        classes: u8,
        body_classes: u8,
    ) {
        let d = self.r.dialect;
        if value.is_empty() {
            if !(kind == RuleKind::Allow && d.empty_allow_matches_all) {
                self.diag(n, Code::EmptyRule, None);
            }
        } else if !matches!(value.first(), Some(b'/' | b'*')) {
            let detail = Some(self.lossy(value));
            self.diag(n, Code::PatternNoSlash, detail);
        }
        // A `$` before the end: literal text (RFC 9309 percent-encodes it as %24).
        let dollar_inside = body_classes & DOLLAR != 0
            && value
                .split_last()
                .is_some_and(|(_, body)| body.contains(&b'$'));
        if d.wildcards {
            if dollar_inside {
                self.diag(n, Code::DollarNotAtEnd, None);
            }
        } else if classes & (STAR | DOLLAR) != 0 && (value.contains(&b'*') || value.ends_with(b"$"))
        {
            self.diag(n, Code::WildcardLiteral, None);
        }
        let written = self.push_text(value);
        // Most patterns are stored as written, in the copy of the file: normalisation only
        // changes `%`, controls, spaces, non-ASCII (the SPECIAL class) and a `$` inside.
        let changed = (classes & SPECIAL != 0 || dollar_inside)
            && needs_normalizing(value, d.percent, Side::Rule);
        let pattern = self.store_pattern(value, changed);
        // google/robotstxt's index.htm leniency: the kind is looked at only in that dialect, as
        // in `key_value`.
        if d.leniency.index_html {
            self.index_alternate(kind, pattern.clone());
        }
        self.r.rules.push(Rule {
            line: n,
            kind,
            group,
            written,
            pattern,
        });
    }

    /// A rule path's normalised form: where it stands in the copy of the file when normalising
    /// leaves it as it is (`changed` false), else appended to the bytes.
    /// Inlined: every Allow/Disallow rule comes through here.
    #[inline(always)]
    fn store_pattern(&mut self, value: &[u8], changed: bool) -> core::ops::Range<u32> {
        match self.offset(value) {
            Some(at) if !changed => at,
            _ => {
                let start = self.r.bytes.len() as u32;
                if changed {
                    normalize(value, self.r.dialect.percent, Side::Rule, &mut self.r.bytes);
                } else {
                    self.r.bytes.extend_from_slice(value);
                }
                start..self.r.bytes.len() as u32
            }
        }
    }

    /// A Content-Usage or Content-Signal line in a group, read once here: the rule's path
    /// pattern (normalised as Allow/Disallow paths are, draft-ietf-aipref-attach-05 §3.1) and
    /// statement (§3.2, [I-2]), or the line's signals ([I-8]), with what lint reports of them.
    #[cold]
    #[inline(never)]
    #[cfg(feature = "aipref")]
    fn preference_line(
        &mut self,
        n: u32,
        kind: RecordKind,
        group: u32,
        value: &[u8],
        text: core::ops::Range<u32>,
    ) {
        use crate::aipref::signal::trim;
        use crate::aipref::{
            category, signal, split_rule, Member, Preference, SignalMember, Statement, CATEGORIES,
            SIGNALS, SIGNAL_COUNT,
        };
        use crate::model::{SignalLine, UsageRule};
        if self.r.dialect.preference_rules {
            self.seen_rule = true;
        }
        let g = group as usize;
        if kind == RecordKind::ContentSignal {
            let Some(members) = signal::members(value) else {
                // A path form, which the policy does not define: the line is ignored.
                let detail = Some(self.lossy(value));
                return self.diag(n, Code::SignalPath, detail);
            };
            let mut values = [Preference::Unknown; SIGNAL_COUNT];
            for m in members {
                let (code, key, value) = match m {
                    SignalMember::Signal {
                        signal,
                        value,
                        preference,
                    } => {
                        if let Some(v) = values.get_mut(signal) {
                            *v = v.combine(preference);
                        }
                        if preference != Preference::Unknown {
                            continue;
                        }
                        (
                            Code::SignalValue,
                            SIGNALS.get(signal).map_or("", |s| s.key).as_bytes(),
                            value,
                        )
                    }
                    // `use` (2026) is a known extra key.
                    SignalMember::Extra { key, .. } if key.eq_ignore_ascii_case(b"use") => continue,
                    SignalMember::Extra { key, value } => (Code::UnknownSignal, key, value),
                    SignalMember::Empty => (Code::SignalValue, &b"(empty)"[..], &b""[..]),
                };
                let eq: &[u8] = if value.is_empty() { b"" } else { b"=" };
                self.diag(n, code, Some(joined(&[key, eq, value])));
            }
            self.r.signals.push(SignalLine {
                line: n,
                values,
                value: text,
            });
            self.r.groups[g].signals.end = self.r.signals.len() as u32;
            return;
        }
        let rule = split_rule(value);
        // Normalised into the bytes (not compared with the file first: these lines are rare).
        let pattern = rule.path.map(|path| self.store_pattern(path, true));
        let mut unknown = Vec::new();
        let mut tokens = [&b""[..]; CATEGORIES.len()];
        let statement = Statement::parse_with(rule.statement, |key, value| {
            match category(key).and_then(|i| tokens.get_mut(i)) {
                Some(token) => *token = value.token,
                None => unknown.push(key),
            }
        });
        self.r.usage.push(UsageRule {
            line: n,
            pattern,
            statement,
        });
        self.r.groups[g].usage.end = self.r.usage.len() as u32;
        if let Some(e) = statement.error() {
            // A raw space in the path: the statement starts with the path's rest, a word with
            // no '=', followed by more that does not start with '='.
            let statement = rule.statement;
            let word = statement.iter().position(|&b| b == b' ' || b == b'\t');
            let after = word.map_or(&b""[..], |w| trim(statement.get(w..).unwrap_or_default()));
            let first = statement.get(..word.unwrap_or(0)).unwrap_or_default();
            if rule.path.is_some()
                && !first.contains(&b'=')
                && after.first().is_some_and(|&b| b != b'=')
            {
                self.diag(n, Code::UsagePathSpace, Some(joined(&[statement])));
            }
            // The detail is the statement from where it fails (the CLI's caret points there).
            let at = (e.offset as usize).min(statement.len().saturating_sub(1));
            let detail = Some(self.lossy(statement.get(at..).unwrap_or_default()));
            return self.diag(n, Code::MalformedUsage, detail);
        }
        for key in unknown {
            self.diag(n, Code::UnknownCategory, Some(joined(&[key])));
        }
        for (i, (c, token)) in CATEGORIES.iter().zip(tokens).enumerate() {
            if let Member::Other(kind) = statement.member(i) {
                let (label, kind) = (c.label.as_bytes(), kind.as_str().as_bytes());
                let detail = if token.is_empty() {
                    joined(&[label, b" is ", kind])
                } else {
                    joined(&[label, b"=", token])
                };
                self.diag(n, Code::UsageNotYesNo, Some(detail));
            }
        }
    }

    fn record(&mut self, n: u32, kind: RecordKind, key: &[u8], value: &[u8]) {
        // RFC 9309 §2.2.4: other records never end a group. Sitemap belongs to the file.
        let group = if kind == RecordKind::Sitemap {
            None
        } else {
            self.current
        };
        match kind {
            RecordKind::Sitemap
                if !(starts_with_ci(value, "http://") || starts_with_ci(value, "https://")) =>
            {
                let detail = Some(self.lossy(value));
                self.diag(n, Code::SitemapNotAbsolute, detail);
            }
            RecordKind::CrawlDelay => {
                let problem = match read_seconds(value) {
                    None => Some(Code::InvalidCrawlDelay),
                    Some((_, capped)) => capped.then_some(Code::CrawlDelayCapped),
                };
                self.check_record(n, group, value, problem);
            }
            RecordKind::RequestRate
            | RecordKind::Host
            | RecordKind::ContentUsage
            | RecordKind::ContentSignal => self.check_rare_record(n, kind, group, key, value),
            _ => {}
        }
        // The run of user-agent lines above it (docs/records.md).
        let agents = match group {
            Some(_) => self.run_start..self.r.agents.len() as u32,
            None => 0..0,
        };
        let field = self.push_text(key);
        let text = self.push_text(value);
        let index = self.r.records.len() as u32;
        self.r.records.push(Record {
            line: n,
            kind,
            group,
            field,
            value: text.clone(),
            agents,
        });
        if let Some(g) = group {
            let records = &mut self.r.groups[g as usize].records;
            if records.start == records.end {
                records.start = index;
            }
            records.end = index + 1;
            #[cfg(feature = "aipref")]
            if matches!(kind, RecordKind::ContentUsage | RecordKind::ContentSignal) {
                self.preference_line(n, kind, g, value, text);
            }
        }
    }

    /// The findings of a Crawl-delay or Request-rate line: its value's `problem`, and a line
    /// outside any group.
    fn check_record(&mut self, n: u32, group: Option<u32>, value: &[u8], problem: Option<Code>) {
        if let Some(code) = problem {
            let detail = Some(self.lossy(value));
            self.diag(n, code, detail);
        }
        if group.is_none() {
            self.diag(n, Code::RecordOutsideGroup, None);
        }
    }

    /// The findings of the records most files do not have (Request-rate, Host, AI
    /// preferences). Out of line: compiled only when reached on a cold start.
    #[cold]
    #[inline(never)]
    #[cfg_attr(not(feature = "aipref"), allow(unused_variables))] // `key`: AI preferences' only
    fn check_rare_record(
        &mut self,
        n: u32,
        kind: RecordKind,
        group: Option<u32>,
        key: &[u8],
        value: &[u8],
    ) {
        match kind {
            #[cfg(feature = "aipref")]
            RecordKind::ContentUsage | RecordKind::ContentSignal if group.is_none() => {
                let detail = Some(self.lossy(key));
                self.diag(n, Code::PreferenceOutsideGroup, detail);
            }
            RecordKind::RequestRate => {
                let problem = parse_request_rate(value)
                    .is_none()
                    .then_some(Code::InvalidRequestRate);
                self.check_record(n, group, value, problem);
            }
            // Yandex: the first valid Host counts (`Robots::host`).
            RecordKind::Host => {
                if !is_valid_host(value) {
                    let detail = Some(self.lossy(value));
                    self.diag(n, Code::InvalidHost, detail);
                } else if core::mem::replace(&mut self.host_seen, true) {
                    self.diag(n, Code::MultipleHost, None);
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) {
        for g in 0..self.r.groups.len() {
            let group = &self.r.groups[g];
            // A group of only AI preferences says something: not an empty group.
            if group.rules.is_empty() && group.usage.is_empty() && group.signals.is_empty() {
                let line = group.line;
                self.diag(line, Code::EmptyGroup, None);
            }
        }
        self.build_sets();
    }

    /// Builds the rule set of every product token and of `*` (RFC 9309 §2.2.1: the rules of all
    /// groups naming the token are combined), or of every record (first-record dialects).
    fn build_sets(&mut self) {
        match self.r.dialect.group_merge {
            GroupMerge::All => self.merged_sets(),
            GroupMerge::FirstOnly => self.first_record_sets(),
        }
    }

    /// Merging dialects (RFC 9309 §2.2.1): one rule set per distinct list of groups.
    #[inline(never)]
    fn merged_sets(&mut self) {
        let d = self.r.dialect;
        // Every distinct non-global token (in order of first appearance) and the groups naming
        // it; empty tokens only where the dialect lets an empty caller match them
        // (google/robotstxt). Tokens are found through the hash index queries use, built here.
        let size = (self.r.agents.len() * 2).next_power_of_two().max(8);
        // Both empty, and with the capacity of a file parsed before when reparsing.
        let mut index = core::mem::take(&mut self.r.token_index);
        index.resize(size, 0);
        let mut tokens = core::mem::take(&mut self.r.tokens);
        // Each token's first and last group; its further groups (rare) as (token, group), in
        // file order.
        // Working arrays kept with the file's (`Scratch`), empty, so that reparsing allocates none.
        let mut scratch = core::mem::take(&mut self.r.scratch);
        let Scratch {
            spans,
            global,
            group_sets,
        } = &mut scratch;
        let mut more: Vec<(u64, u64)> = Vec::new();
        for (g, group) in self.r.groups.iter().enumerate() {
            let g = g as u32;
            for a in &self.r.agents[span(&group.agents)] {
                if a.global {
                    if global.last() != Some(&g) {
                        global.push(g);
                    }
                    continue;
                }
                if a.token.is_empty() && d.agent_match != crate::dialect::AgentMatch::GoogleWhole {
                    continue;
                }
                let token = self.r.token(&a.token);
                let mut slot = crate::agent::hash_lower(token) as usize & (size - 1);
                loop {
                    match index[slot] {
                        0 => {
                            tokens.push(TokenEntry {
                                token: a.token.clone(),
                                set: 0,
                            });
                            spans.push((g, g));
                            index[slot] = tokens.len() as u32;
                            break;
                        }
                        i if self.r.token(&tokens[i as usize - 1].token) == token => {
                            let id = i as usize - 1;
                            if spans[id].1 != g {
                                spans[id].1 = g;
                                more.push((id as u64, u64::from(g)));
                            }
                            break;
                        }
                        _ => slot = (slot + 1) & (size - 1),
                    }
                }
            }
        }
        // Each token's further groups together, in file order (the sort is stable).
        radix_sort(&mut more, &mut Vec::new());
        // Tokens naming the same groups share one rule set. A token of one group (most) takes
        // that group's set; a token of several groups, the set of its list (`SharedLists`).
        group_sets.resize(self.r.groups.len(), u32::MAX);
        let mut shared = SharedLists {
            more,
            at: 0,
            lists: Vec::new(),
            seen: Vec::new(),
            flat: Vec::new(),
        };
        let count = tokens.len();
        for (id, &(first, _)) in spans.iter().enumerate() {
            tokens[id].set = if shared.names_several(id) {
                shared.set(self, id, first, count)
            } else {
                match group_sets[first as usize] {
                    u32::MAX => {
                        let set = self.push_set(&[first]);
                        group_sets[first as usize] = set;
                        set
                    }
                    set => set,
                }
            };
        }
        if !global.is_empty() {
            self.r.global = Some(self.push_set(global));
        }
        spans.clear();
        global.clear();
        group_sets.clear();
        self.r.scratch = scratch;
        self.r.tokens = tokens;
        self.r.token_index = index;
    }

    /// First-record dialects (1994, 1996): one rule set per record.
    #[inline(never)]
    fn first_record_sets(&mut self) {
        // One rule set per record; tokens in file order, the first match wins.
        let mut tokens = core::mem::take(&mut self.r.tokens);
        for g in 0..self.r.groups.len() as u32 {
            let set = self.push_set(&[g]);
            let group = &self.r.groups[g as usize];
            let mut is_default = false;
            for a in &self.r.agents[span(&group.agents)] {
                if a.global {
                    is_default = true;
                } else if !a.token.is_empty() {
                    tokens.push(TokenEntry {
                        token: a.token.clone(),
                        set,
                    });
                }
            }
            if is_default {
                if self.r.global.is_none() {
                    self.r.global = Some(set);
                } else {
                    let line = self.r.groups[g as usize].line;
                    self.diag(line, Code::MultipleDefaultGroups, None);
                }
            }
        }
        self.r.tokens = tokens;
    }

    /// google/robotstxt: `Allow: /d/index.htm...` also allows `/d/` exactly, with the priority
    /// of the pattern `/d/$` (semantics I.17). Stores that pattern for the rule about to be
    /// added (`Robots::alternates`).
    #[inline(never)]
    fn index_alternate(&mut self, kind: RuleKind, pattern: core::ops::Range<u32>) {
        if kind != RuleKind::Allow {
            return;
        }
        let bytes = &mut self.r.bytes;
        let Some(p) = bytes.get(span(&pattern)) else {
            return;
        };
        let Some(slash) = p.iter().rposition(|&b| b == b'/') else {
            return;
        };
        if !p[slash..].starts_with(b"/index.htm") {
            return;
        }
        let start = bytes.len() as u32;
        bytes.extend_from_within(pattern.start as usize..pattern.start as usize + slash + 1);
        bytes.push(b'$');
        let at = start..bytes.len() as u32;
        self.r.alternates.push((self.r.rules.len() as u32, at));
    }

    /// A new rule set of `groups` (compiled on first use, `compile`); returns its index.
    fn push_set(&mut self, groups: &[u32]) -> u32 {
        let start = self.r.set_groups.len() as u32;
        self.r.set_groups.extend_from_slice(groups);
        self.r.sets.push(RuleSet {
            groups: start..self.r.set_groups.len() as u32,
            compiled: Default::default(),
        });
        self.r.sets.len() as u32 - 1
    }
}

fn trim_comment(line: &[u8]) -> &[u8] {
    let end = line.iter().position(|&b| b == b'#').unwrap_or(line.len());
    crate::lines::trim(&line[..end])
}

/// A diagnostic's detail: the parts, as text (invalid UTF-8 replaced).
fn joined(parts: &[&[u8]]) -> String {
    let mut s = String::new();
    for part in parts {
        // (`from_utf8` first: every parse has compiled it already, while the lossy reading is
        // compiled only when reached.)
        match core::str::from_utf8(part) {
            Ok(text) => s.push_str(text),
            Err(_) => push_lossy_text(&mut s, part),
        }
    }
    s
}

/// `bytes` appended to `s` with invalid UTF-8 replaced. Out of line: rare, and compiled only when
/// reached on a cold start.
#[cold]
#[inline(never)]
fn push_lossy_text(s: &mut String, bytes: &[u8]) {
    s.push_str(&String::from_utf8_lossy(bytes));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `field_of` finds a name spelt exactly before the dialect's own reading of keys
    /// (`field_of_inexact`): right only while no field name nor typo is a prefix of a record's
    /// name, which google's prefix matching would find first.
    #[test]
    fn exact_names_read_alike() {
        let prefixes = FIELDS.iter().chain(TYPOS).map(|&(n, _)| n);
        for p in prefixes {
            for &(record, _) in RECORDS {
                assert!(!starts_with_ci(record.as_bytes(), p), "{p} {record}");
            }
        }
    }
}
