//! Floor 1 (a leaf; uses `dialect` and `lines`): product tokens: how a group's user-agent
//! value is read, and which group a crawler obeys.
//!
//! | dialect | the group's value | the crawler's agent | match |
//! |---|---|---|---|
//! | rfc9309 | `*` (alone or followed by space) is global; otherwise its leading run of `[A-Za-z0-9_.-]` (so `Googlebot/2.1` is `Googlebot`, `MJ12bot` stays whole) | a product token as given; a full User-Agent header is split into words and the longest word that names a group is used | case-insensitive equality; all groups naming the token merge, else all `*` groups |
//! | google | as google/robotstxt: `*` (alone or followed by whitespace) is global; otherwise the leading `[A-Za-z_-]` run (`MJ12bot` is `MJ`) | the whole string, as the library compares it (pass the product token) | case-insensitive equality of the whole string; merge as rfc9309 |
//! | draft1996 | the whole value; `*` is the default record | the robot's name token: the string itself, or for a full header its first product that is not `Mozilla`/`compatible` | the first record whose value contains the name (case-insensitive), else the first `*` record |
//! | original1994, revisited | the whole value (revisited: each whitespace-separated id); `*` is the default | the whole string | the first record with a value that is a case-insensitive substring of the agent, else the first `*` record |

use crate::dialect::AgentMatch;
use crate::lines::is_space;

/// The most of the caller's agent that substring dialects read (a User-Agent header is far
/// shorter); it keeps substring matching linear in the file however long the agent is.
pub const MAX_AGENT_BYTES: usize = 256;

/// How a group's user-agent value reads in a dialect.
pub(crate) struct ValueToken<'a> {
    pub global: bool,
    /// The product token, as written (not yet lower-cased); empty when there is none.
    pub token: &'a [u8],
    /// The value is exactly a valid RFC 9309 product token (or `*`).
    pub valid: bool,
}

const fn is_rfc_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

/// Bytes of a product token as rfc9309 reads it, leniently: letters, digits, `-`, `_`, `.`.
const fn is_lenient_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

fn leading(value: &[u8], keep: fn(u8) -> bool) -> &[u8] {
    let end = value.iter().position(|&b| !keep(b)).unwrap_or(value.len());
    &value[..end]
}

pub(crate) fn value_token(value: &[u8], how: AgentMatch) -> ValueToken<'_> {
    let valid = !value.is_empty() && (value == b"*" || value.iter().all(|&b| is_rfc_token_byte(b)));
    match how {
        AgentMatch::Token | AgentMatch::GoogleWhole => {
            // semantics I.14: `*` followed by whitespace is still the global agent.
            if let [b'*', rest @ ..] = value {
                if rest.first().is_none_or(|&b| is_space(b)) {
                    return ValueToken {
                        global: true,
                        token: b"",
                        valid,
                    };
                }
            }
            let token = if how == AgentMatch::Token {
                leading(value, is_lenient_token_byte)
            } else {
                leading(value, is_rfc_token_byte)
            };
            ValueToken {
                global: false,
                token,
                valid,
            }
        }
        AgentMatch::ValueContainsName | AgentMatch::NameContainsValue => ValueToken {
            global: value == b"*",
            token: value,
            valid,
        },
    }
}

/// Whether `agent` is a valid RFC 9309 product token: non-empty, only letters, `-` and `_`
/// (§2.2.1; google/robotstxt's `IsValidUserAgentToObey`).
pub fn is_valid_product_token(agent: &str) -> bool {
    !agent.is_empty() && agent.bytes().all(is_rfc_token_byte)
}

/// Whether the caller gave a full User-Agent header rather than a product token.
pub(crate) fn is_header(agent: &[u8]) -> bool {
    agent.iter().any(|&b| HEADER_SEPARATOR[usize::from(b)])
}

/// The octets that only a User-Agent header has: space, tab, `/`, `(`, `)` and `;`.
const HEADER_SEPARATOR: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'/' as usize] = true;
    t[b'(' as usize] = true;
    t[b')' as usize] = true;
    t[b';' as usize] = true;
    t
};

/// The words of a User-Agent header that could be product tokens (rfc9309).
pub(crate) fn header_words(agent: &[u8]) -> impl Iterator<Item = &[u8]> {
    agent
        .split(|&b| !is_lenient_token_byte(b))
        .filter(|w| !w.is_empty())
}

/// The robot's name token in a User-Agent header (1996 draft): its first product that is not
/// the `Mozilla/x.y (compatible; ...)` wrapper. `Mozilla/5.0 (compatible; Googlebot/2.1)` names
/// `Googlebot`; `Lycos_Spider_(Rex)/1.0 libwww/3.1` names `Lycos_Spider_`.
pub(crate) fn robot_name(agent: &[u8]) -> &[u8] {
    if !is_header(agent) {
        return agent;
    }
    agent
        .split(|&b| matches!(b, b' ' | b'\t' | b'(' | b')' | b';' | b','))
        .map(|w| w.split(|&b| b == b'/').next().unwrap_or_default())
        .find(|w| {
            !w.is_empty()
                && w.iter().any(u8::is_ascii_alphabetic)
                && !w.starts_with(b"+")
                && !w.eq_ignore_ascii_case(b"mozilla")
                && !w.eq_ignore_ascii_case(b"compatible")
        })
        .unwrap_or_default()
}

/// Orders a stored lower-case token against a caller's bytes, ignoring the caller's ASCII case:
/// by length first (most comparisons of a binary search end there), then octet by octet.
pub(crate) fn cmp_lower(stored: &[u8], caller: &[u8]) -> core::cmp::Ordering {
    stored.len().cmp(&caller.len()).then_with(|| {
        for (&s, &c) in stored.iter().zip(caller) {
            let c = c.to_ascii_lowercase();
            if s != c {
                return s.cmp(&c);
            }
        }
        core::cmp::Ordering::Equal
    })
}

/// The product-token index's hash, of every octet ASCII-lower-cased (FxHash's step). Every
/// octet: a hash of a few octets would put tokens that differ only inside (`bot1234`,
/// `bot1334`, ...) in one probe sequence, and a file naming thousands of them would take
/// quadratic time to index. Tokens are short, so this costs a query a few nanoseconds.
pub(crate) fn hash_lower(s: &[u8]) -> u32 {
    let h = s.iter().fold(s.len() as u64, |h, &b| {
        (h.rotate_left(5) ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x517C_C1B7_2722_0A95)
    });
    (h >> 32) as u32
}

/// Lower-cases at most `MAX_AGENT_BYTES` of `s` into `buf`, cut at a UTF-8 boundary.
pub(crate) fn lower_into<'b>(s: &[u8], buf: &'b mut [u8; MAX_AGENT_BYTES]) -> &'b [u8] {
    let mut n = s.len().min(MAX_AGENT_BYTES);
    // Never cut inside a UTF-8 sequence (continuation bytes are 0b10xxxxxx).
    while n < s.len() && n > 0 && (s[n] & 0xC0) == 0x80 {
        n -= 1;
    }
    for (d, &c) in buf.iter_mut().zip(&s[..n]) {
        *d = c.to_ascii_lowercase();
    }
    &buf[..n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let t = value_token(b"Googlebot/2.1", AgentMatch::GoogleWhole);
        assert_eq!(
            (t.global, t.token, t.valid),
            (false, &b"Googlebot"[..], false)
        );
        assert_eq!(
            value_token(b"MJ12bot", AgentMatch::GoogleWhole).token,
            b"MJ"
        );
        assert_eq!(value_token(b"MJ12bot", AgentMatch::Token).token, b"MJ12bot");
        assert!(value_token(b"* foo", AgentMatch::Token).global);
        assert!(!value_token(b"*foo", AgentMatch::GoogleWhole).global);
    }

    /// Tokens that differ only in their middle octets spread over the index: the file that
    /// names `crawler-00000` .. `crawler-09999` is indexed in linear time. Case does not matter.
    #[test]
    fn hash_reads_every_octet() {
        let mut hashes: alloc::vec::Vec<u32> = (0..10_000)
            .map(|i| hash_lower(alloc::format!("crawler-{i:05}").as_bytes()))
            .collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert!(hashes.len() > 9_990, "{} distinct hashes", hashes.len());
        assert_eq!(hash_lower(b"GoogleBot"), hash_lower(b"googlebot"));
    }

    #[test]
    fn names() {
        assert_eq!(
            robot_name(b"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
            b"Googlebot"
        );
        assert_eq!(
            robot_name(b"Lycos_Spider_(Rex)/1.0 libwww/3.1"),
            b"Lycos_Spider_"
        );
        assert_eq!(robot_name(b"NosyBot"), b"NosyBot");
    }
}
