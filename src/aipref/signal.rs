//! Cloudflare's Content-Signal line (Content Signals Policy, September 2025), read as the
//! project's digest chooses where the policy defines no grammar: [I-8] here, [I-9] and [I-10]
//! where groups are selected.
//!
//! The signals are kept apart from the IETF vocabulary: no official mapping exists (VOCAB-07
//! §6.6, -08 §7 require an alternative format to define one, and the policy defines none).

use super::vocab::Preference;

/// A signal of the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    pub key: &'static str,
}

/// The three signals of the September 2025 policy (what each covers, from the policy's comment
/// block: `search`, building a search index and showing links and short excerpts, not AI
/// summaries; `ai-input`, live input to AI models: retrieval-augmented generation, grounding, AI
/// answers; `ai-train`, training or fine-tuning AI models). A later key (`use`, 2026) is
/// reported as an extra, not as a signal.
pub const SIGNALS: [Signal; 3] = [
    Signal { key: "search" },
    Signal { key: "ai-input" },
    Signal { key: "ai-train" },
];

/// The number of signals: the size of every per-signal array.
pub const SIGNAL_COUNT: usize = SIGNALS.len();

/// The signals' keys, in the order of [`SIGNALS`].
pub const SIGNAL_KEYS: [&str; SIGNAL_COUNT] = names!(SIGNALS, |s| s.key);

/// One comma-separated member of a Content-Signal line ([I-8]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalMember<'a> {
    /// One of [`SIGNALS`] (by index). `value` is as written (trimmed; empty when the member has
    /// no `=`); `preference` is unknown unless it is `yes` or `no` in any case.
    Signal {
        signal: usize,
        value: &'a [u8],
        preference: Preference,
    },
    /// A key that is not a signal (such as `use`): kept as written.
    Extra { key: &'a [u8], value: &'a [u8] },
    /// An empty member, or one with an empty key.
    Empty,
}

/// A robots.txt value up to its comment: `#` always starts one (RFC 9309 §2.2; ATTACH §3.2, even
/// inside a quoted string). The robots.txt parser has cut it already; the public readers cut it
/// again for values given to them directly.
pub(crate) fn uncommented(value: &[u8]) -> &[u8] {
    let end = value.iter().position(|&b| b == b'#').unwrap_or(value.len());
    value.get(..end).unwrap_or_default()
}

/// Without the SP and HTAB around it.
pub(crate) fn trim(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |e| e + 1);
    s.get(start..end).unwrap_or_default()
}

/// The members of a Content-Signal value ([I-8]): the value is cut at `#`, split on `,`, and
/// each member trimmed and split at its first `=`; keys and `yes`/`no` are compared ASCII
/// case-insensitively. `None`: the value starts with `/`, a path form the policy does not
/// define, and the whole line is ignored.
pub fn members(value: &[u8]) -> Option<impl Iterator<Item = SignalMember<'_>>> {
    let value = trim(uncommented(value));
    if value.first() == Some(&b'/') {
        return None;
    }
    // An empty value has no members (not one empty member).
    let members = (!value.is_empty())
        .then(|| value.split(|&b| b == b','))
        .into_iter()
        .flatten();
    Some(members.map(|member| {
        let mut halves = member.splitn(2, |&b| b == b'=');
        let key = trim(halves.next().unwrap_or_default());
        let value = trim(halves.next().unwrap_or_default());
        let signal = SIGNALS
            .iter()
            .position(|s| s.key.as_bytes().eq_ignore_ascii_case(key));
        match signal {
            _ if key.is_empty() => SignalMember::Empty,
            None => SignalMember::Extra { key, value },
            Some(signal) => SignalMember::Signal {
                signal,
                value,
                preference: if value.eq_ignore_ascii_case(b"yes") {
                    Preference::Allowed
                } else if value.eq_ignore_ascii_case(b"no") {
                    Preference::Disallowed
                } else {
                    Preference::Unknown
                },
            },
        }
    }))
}

/// A Content-Signal line's outcome per signal (`None`: the line is ignored, see [`members`]); a
/// signal repeated in the line combines as any `no` gives no, else any `yes` gives yes ([I-9]).
pub fn read_signals(value: &[u8]) -> Option<[Preference; SIGNAL_COUNT]> {
    let mut out = [Preference::Unknown; SIGNAL_COUNT];
    for member in members(value)? {
        if let SignalMember::Signal {
            signal, preference, ..
        } = member
        {
            if let Some(slot) = out.get_mut(signal) {
                *slot = slot.combine(preference);
            }
        }
    }
    Some(out)
}

/// `yes`, `no`, or none for unknown: how the policy writes a signal's value.
pub const fn yes_no(preference: Preference) -> Option<&'static str> {
    match preference {
        Preference::Unknown => None,
        Preference::Allowed => Some("yes"),
        Preference::Disallowed => Some("no"),
    }
}
