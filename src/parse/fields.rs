//! The field tables: which names a line's key may have (fields, records, other spellings,
//! google/robotstxt's typos), and the lookup from a key to the field it names in a dialect.

use crate::dialect::Dialect;
use crate::model::{RecordKind, RuleKind};

/// What a line's key names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Field {
    UserAgent,
    Rule(RuleKind),
    Record(RecordKind),
}

/// How the key was spelt.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Spelling {
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

pub(super) fn field_name(field: Field) -> &'static str {
    match field {
        Field::UserAgent => "user-agent",
        Field::Rule(kind) => kind.as_str(),
        Field::Record(kind) => kind.as_str(),
    }
}

pub(super) fn starts_with_ci(key: &[u8], name: &str) -> bool {
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
pub(super) fn field_of(key: &[u8], dialect: &Dialect) -> Option<(Field, Spelling)> {
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
pub(super) fn meant(key: &[u8]) -> Option<&'static str> {
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
