//! Floor 1: how to parse ([`Options`]: the dialect and the size cap). Read by `parse` and by
//! the lifecycle (`fetch` says how many bytes to parse); imports only `dialect`.

use crate::dialect::DialectId;

/// The default size cap: 500 KiB, the least RFC 9309 §2.5 lets a crawler parse, and the limit
/// Google enforces ("content which is after the maximum file size is ignored").
pub const DEFAULT_MAX_BYTES: usize = 500 * 1024;

/// How to parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub dialect: DialectId,
    /// Bytes after this many are ignored (with a `truncated` diagnostic).
    pub max_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dialect: DialectId::Rfc9309,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl Options {
    /// The defaults, in another dialect.
    pub fn dialect(dialect: DialectId) -> Self {
        Options {
            dialect,
            ..Options::default()
        }
    }
}
