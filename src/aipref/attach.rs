//! How statements are attached to content (draft-ietf-aipref-attach-05): the `Content-Usage`
//! rule of robots.txt (§3) and the `Content-Usage` response header (§2).

use super::signal::{trim, uncommented};
use super::vocab::Statement;

/// A Content-Usage rule's value, split into its path pattern and its statement (ATTACH §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleValue<'a> {
    /// The path pattern when the value starts with `/`; `None` when the rule has no path, which
    /// matches every URL with length 0 ([I-1]).
    pub path: Option<&'a [u8]>,
    /// The statement of preference (possibly empty: every category unknown, [I-3]).
    pub statement: &'a [u8],
}

fn is_ws(b: &u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// Splits a Content-Usage rule value (ATTACH §3.2): the value ends at the first `#` (always a
/// comment, even in a quoted string); a value starting with `/` has a path up to the first SP
/// or HTAB, and every SP/HTAB after it separates it from the statement ([I-2]: the ABNF's
/// `1*WS`); any other value (`*` included) is all statement. A raw space inside a path thus ends
/// the path (§3.1 asks for `%20`).
pub fn split_rule(value: &[u8]) -> RuleValue<'_> {
    let value = trim(uncommented(value));
    if value.first() != Some(&b'/') {
        return RuleValue {
            path: None,
            statement: value,
        };
    }
    let end = value.iter().position(is_ws).unwrap_or(value.len());
    let (path, rest) = value.split_at(end);
    RuleValue {
        path: Some(path),
        statement: trim(rest),
    }
}

/// The `Content-Usage` response header (ATTACH §2), a Dictionary structured field given as its
/// field lines: several lines are one value joined with ", " (RFC 9651 §4.2, RFC 9110 §5.3), so
/// the last duplicate key wins across lines and one malformed line makes the whole field
/// unknown. (Joining several lines allocates; a query takes the value joined.)
pub fn parse_header(lines: &[&[u8]]) -> Statement {
    match lines {
        [] => Statement::default(),
        [value] => Statement::parse(value),
        _ => Statement::parse(&lines.join(&b", "[..])),
    }
}
