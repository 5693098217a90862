//! Lifecycle, floor 6: the W3C TDM Reservation Protocol (TDMRep, Community Group Final Report,
//! 10 May 2024): the site's `/.well-known/tdmrep.json` (§6.1), the `tdm-reservation` and
//! `tdm-policy` response header fields (§6.2) and META tags (§6.3), layered in that order (§6.7).
//! Where the report leaves a choice, the readings are `docs/ai-signals.md` [S-10], [S-11]
//! and [D-6]; `docs/ai-use.md` has them with citations.
//!
//! Malformed input is never an error here: it is a value that says what was wrong (a rule
//! [`Problem`], a [`FileError`]), for the trace. The JSON is read by serde_json (its default
//! recursion limit, 128 levels, bounds nesting), at most [`MAX_FILE_BYTES`] of it and at most
//! [`MAX_RULES`] rules.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use crate::dialect::PercentEncoding;
use crate::pattern::{normalize, Compiled, Side, Subject};

/// The largest tdmrep.json read: 1 MiB. A larger body is [`FileError::TooLarge`] (no file
/// value): a real file holds a few rules.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;

/// The most rules kept from one file; later rules are dropped and [`TdmFile::truncated`] says so.
pub const MAX_RULES: usize = 10_000;

/// A `tdm-reservation` value (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reservation {
    /// `0`: TDM rights are not reserved.
    NotReserved,
    /// `1`: TDM rights are reserved (the CDSM Article 4 opt-out).
    Reserved,
}

impl Reservation {
    pub const fn as_u8(self) -> u8 {
        match self {
            Reservation::NotReserved => 0,
            Reservation::Reserved => 1,
        }
    }
}

/// Why a tdmrep.json gives no value at all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileError {
    /// Not JSON (serde_json's message, with line and column), or not UTF-8.
    NotJson(String),
    /// JSON, but not an array (§6.1.2 note: the brackets are mandatory even for one rule).
    NotArray(&'static str),
    /// Longer than [`MAX_FILE_BYTES`].
    TooLarge(usize),
}

impl FileError {
    /// A stable kebab-case code.
    pub const fn code(&self) -> &'static str {
        match self {
            FileError::NotJson(_) => "not-json",
            FileError::NotArray(_) => "not-an-array",
            FileError::TooLarge(_) => "too-large",
        }
    }
}

impl core::fmt::Display for FileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FileError::NotJson(e) => write!(f, "not JSON: {e}"),
            FileError::NotArray(kind) => {
                write!(f, "a JSON {kind}, not an array of rules (TDMREP §6.1)")
            }
            FileError::TooLarge(n) => write!(
                f,
                "{n} bytes, more than the {MAX_FILE_BYTES} read (robots_eval::tdmrep::MAX_FILE_BYTES)"
            ),
        }
    }
}

/// What is wrong with one rule of the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// The element is not an object: skipped, it matches nothing ([D-6]).
    NotObject,
    /// No `location`, or one that is not a string: matches nothing ([D-6], [S-10]).
    NoLocation,
    /// A `location` that is empty or starts with neither `/` nor `*`: matches nothing ([S-10]).
    BadLocation,
    /// `tdm-reservation` missing, or not the JSON number 0 or 1 (a string, a boolean, `null`, 2):
    /// a protocol error (§5.1); the rule still matches, with an unset value ([D-6]).
    BadReservation,
}

impl Problem {
    pub const fn code(self) -> &'static str {
        match self {
            Problem::NotObject => "not-an-object",
            Problem::NoLocation => "no-location",
            Problem::BadLocation => "bad-location",
            Problem::BadReservation => "bad-reservation",
        }
    }

    pub const fn message(self) -> &'static str {
        match self {
            Problem::NotObject => "not an object: skipped (matches nothing)",
            Problem::NoLocation => "no string \"location\": matches nothing",
            Problem::BadLocation => {
                "\"location\" is empty or starts with neither / nor *: matches nothing"
            }
            Problem::BadReservation => {
                "\"tdm-reservation\" is not the number 0 or 1: protocol error, value unset (TDMREP §5.1)"
            }
        }
    }
}

/// One rule of the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TdmRule {
    /// Its 0-based index in the array.
    pub index: u32,
    /// `location` as written, when it is a string.
    pub location: Option<String>,
    /// `tdm-reservation`, when it is 0 or 1.
    pub reservation: Option<Reservation>,
    /// `tdm-reservation` as written (JSON), when present.
    pub raw_reservation: Option<String>,
    /// `tdm-policy`, when it is a string.
    pub policy: Option<String>,
    pub problem: Option<Problem>,
}

impl TdmRule {
    /// Whether the rule can match at all (an element that is not an object, or has no usable
    /// location, matches nothing).
    pub fn matchable(&self) -> bool {
        !matches!(
            self.problem,
            Some(Problem::NotObject | Problem::NoLocation | Problem::BadLocation)
        )
    }
}

/// A parsed tdmrep.json.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TdmFile {
    /// The rules in file order (empty when [`TdmFile::error`] is set).
    pub rules: Vec<TdmRule>,
    /// Why the file gives no value, if it does not.
    pub error: Option<FileError>,
    /// More than [`MAX_RULES`] rules: the rest were dropped.
    pub truncated: bool,
}

impl TdmFile {
    /// Reads the body of `/.well-known/tdmrep.json`.
    pub fn parse(body: &[u8]) -> TdmFile {
        if body.len() > MAX_FILE_BYTES {
            return TdmFile::failed(FileError::TooLarge(body.len()));
        }
        // A UTF-8 byte order mark is not JSON, but editors write one; serde_json would reject it.
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
        let value: Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => return TdmFile::failed(FileError::NotJson(alloc::format!("{e}"))),
        };
        let Value::Array(items) = value else {
            return TdmFile::failed(FileError::NotArray(kind(&value)));
        };
        let truncated = items.len() > MAX_RULES;
        let rules = items
            .iter()
            .take(MAX_RULES)
            .zip(0u32..)
            .map(|(item, index)| rule(item, index))
            .collect();
        TdmFile {
            rules,
            error: None,
            truncated,
        }
    }

    fn failed(error: FileError) -> TdmFile {
        TdmFile {
            rules: Vec::new(),
            error: Some(error),
            truncated: false,
        }
    }

    /// The rule that decides `path` (the URL's path and query as the file's site matches it,
    /// normalised as `pct` does: [`crate::Robots::path`]): the first in array order whose
    /// location matches (§6.1: "the most specific match is the first in sequence", not the
    /// longest), even when its value is invalid ([S-10]). `None`: no rule matches (unset).
    pub fn matching(&self, path: &[u8], pct: PercentEncoding) -> Option<&TdmRule> {
        let subject = Subject::new(path);
        let mut buf = Vec::new();
        self.rules.iter().find(|r| {
            let Some(location) = r.location.as_deref().filter(|_| r.matchable()) else {
                return false;
            };
            buf.clear();
            normalize(location.as_bytes(), pct, Side::Rule, &mut buf);
            // §6.1.1: agents MUST support `*` and `$`, whatever the robots.txt dialect.
            Compiled::new(&buf, true).matches(&subject)
        })
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn rule(item: &Value, index: u32) -> TdmRule {
    let mut out = TdmRule {
        index,
        location: None,
        reservation: None,
        raw_reservation: None,
        policy: None,
        problem: None,
    };
    let Value::Object(map) = item else {
        out.problem = Some(Problem::NotObject);
        return out;
    };
    out.location = map
        .get("location")
        .and_then(Value::as_str)
        .map(String::from);
    out.policy = map
        .get("tdm-policy")
        .and_then(Value::as_str)
        .map(String::from);
    let raw = map.get("tdm-reservation");
    out.raw_reservation = raw.map(|v| alloc::format!("{v}"));
    out.reservation = match raw.and_then(Value::as_u64) {
        // The JSON number 0 or 1 ([D-6]): `1.0` is a float, not accepted either.
        Some(0) if raw.is_some_and(|v| v.is_u64()) => Some(Reservation::NotReserved),
        Some(1) if raw.is_some_and(|v| v.is_u64()) => Some(Reservation::Reserved),
        _ => None,
    };
    out.problem = match out.location.as_deref() {
        None => Some(Problem::NoLocation),
        Some(l) if !(l.starts_with('/') || l.starts_with('*')) => Some(Problem::BadLocation),
        Some(_) if out.reservation.is_none() => Some(Problem::BadReservation),
        Some(_) => None,
    };
    out
}

/// What one carrier (the header fields, or the META tags) says ([S-11]): its values trimmed of
/// SP and HTAB, split at commas; invalid ones dropped; any `1` gives 1, else any `0` gives 0,
/// else nothing. The second value: the invalid values, as written, for the trace.
pub fn carrier<'a>(
    values: impl IntoIterator<Item = &'a str>,
) -> (Option<Reservation>, Vec<&'a str>) {
    let mut found = None;
    let mut invalid = Vec::new();
    for v in values.into_iter().flat_map(|v| v.split(',')) {
        let v = v.trim_matches([' ', '\t']);
        let r = match v {
            "1" => Reservation::Reserved,
            "0" => Reservation::NotReserved,
            _ => {
                invalid.push(v);
                continue;
            }
        };
        found = Some(match (found, r) {
            (Some(Reservation::Reserved), _) | (_, Reservation::Reserved) => Reservation::Reserved,
            _ => Reservation::NotReserved,
        });
    }
    (found, invalid)
}
