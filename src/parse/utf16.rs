//! A file that starts with a UTF-16 byte order mark: read as UTF-16, as the bytes it is, or as
//! UTF-8 after the mark, per dialect (RFC 9309 §2.3 lets crawlers bridge encoding mismatches).

use alloc::string::String;
use alloc::vec::Vec;

use super::builder::Builder;
use crate::diagnostic::{Code, Severity};
use crate::dialect::DialectId;

/// What a UTF-16 byte order mark at the start makes of the file (`Builder::utf16`).
pub(super) enum Utf16 {
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

pub(super) fn utf16_bom(bytes: &[u8]) -> Option<bool> {
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
    pub(super) fn utf16(&mut self, body: &[u8], big_endian: bool) -> Utf16 {
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
}
