//! AI preferences in the file: Content-Usage and Content-Signal lines validated (the vocabulary,
//! the path, the values) and stored with the group they belong to (docs/ai-preferences.md).

use alloc::vec::Vec;

use super::builder::{joined, Builder};
use crate::diagnostic::Code;
use crate::model::RecordKind;

impl Builder<'_> {
    /// A Content-Usage or Content-Signal line in a group, read once here: the rule's path
    /// pattern (normalised as Allow/Disallow paths are, draft-ietf-aipref-attach-05 §3.1) and
    /// statement (§3.2, [I-2]), or the line's signals ([I-8]), with what lint reports of them.
    #[cold]
    #[inline(never)]
    pub(super) fn preference_line(
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
}
