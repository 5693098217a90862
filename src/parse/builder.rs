//! The parser's state while it reads a file's lines into a `Robots` (`Builder`), and the two
//! things every other part of the parser does with it: store a value as text, report a finding.

use alloc::borrow::Cow;
use alloc::string::String;

#[cfg(feature = "findings")]
use crate::diagnostic::Diagnostic;
use crate::diagnostic::{Code, Severity};
use crate::model::span;
use crate::robots::Robots;

pub(super) struct Builder<'s> {
    /// The file being built, in place (`reset` first): a `Robots` is some 200 bytes, and each
    /// move of one was a copy (in WebAssembly a `memory.copy`, through a call out of the module).
    pub(super) r: &'s mut Robots,
    /// The file as text when it is valid UTF-8: values are sliced from it, not re-validated.
    pub(super) source: Option<&'s str>,
    /// Where the file's bytes start in memory, and how many there are: `Robots::bytes` begins
    /// with a copy of them, so a value of the file is stored as its offset, not copied again.
    pub(super) base: usize,
    pub(super) source_len: usize,
    /// The group rules and agents are being added to.
    pub(super) current: Option<u32>,
    /// A rule has been seen in the current group (a user-agent line then starts a new one).
    pub(super) seen_rule: bool,
    /// A blank line ended the last record (for the hint on the rules that follow it).
    pub(super) ended_by_blank: bool,
    /// The last line read (of those with a field) was a user-agent line: the next one continues
    /// its run.
    pub(super) in_run: bool,
    /// Where in `Robots::agents` the current group's last run of user-agent lines starts: the
    /// agents the records after it apply to (docs/records.md).
    pub(super) run_start: u32,
    /// A valid Host line has been read (a later one is reported).
    pub(super) host_seen: bool,
}

impl Builder<'_> {
    /// Out of line: a finding is rare, and its code inlined at each of some thirty call sites
    /// was most of what the first parse of a process makes V8 compile.
    ///
    /// Without the `findings` feature (the npm package's verdict module, which never reports
    /// them) a finding is dropped: this and `lossy`/`joined` are then empty and inlined, so the
    /// compiler drops the work of every finding with them (1.4 KB of that module's gzip).
    #[cfg_attr(feature = "findings", cold, inline(never))]
    #[cfg_attr(not(feature = "findings"), inline(always))]
    pub(super) fn diag(&mut self, line: u32, code: Code, detail: Option<String>) {
        self.diag_with(line, code.severity(), code, detail);
    }

    #[cfg_attr(feature = "findings", cold, inline(never))]
    #[cfg_attr(not(feature = "findings"), inline(always))]
    pub(super) fn diag_with(
        &mut self,
        line: u32,
        severity: Severity,
        code: Code,
        detail: Option<String>,
    ) {
        #[cfg(feature = "findings")]
        self.r.found.push(Diagnostic {
            line,
            severity,
            code,
            detail,
        });
        #[cfg(not(feature = "findings"))]
        let _ = (line, severity, code, detail);
    }

    /// Where `bytes`, a slice of the file, sits in the copy at the start of `Robots::bytes`
    /// (`None` for a slice from elsewhere).
    pub(super) fn offset(&self, bytes: &[u8]) -> Option<core::ops::Range<u32>> {
        let offset = (bytes.as_ptr() as usize).wrapping_sub(self.base);
        (offset <= self.source_len && bytes.len() <= self.source_len - offset)
            .then(|| offset as u32..(offset + bytes.len()) as u32)
    }

    /// `bytes` as text: its place in the file when that is valid UTF-8 there, else a lossy copy.
    /// (Inlined: every rule's value comes through here, nearly always to the first return.)
    #[inline(always)]
    pub(super) fn push_text(&mut self, bytes: &[u8]) -> core::ops::Range<u32> {
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

    #[cfg_attr(feature = "findings", cold, inline(never))]
    #[cfg_attr(not(feature = "findings"), inline(always))]
    pub(super) fn lossy(&self, bytes: &[u8]) -> String {
        joined(&[bytes])
    }
}

pub(super) fn trim_comment(line: &[u8]) -> &[u8] {
    let end = line.iter().position(|&b| b == b'#').unwrap_or(line.len());
    crate::lines::trim(&line[..end])
}

/// A diagnostic's detail: the parts, as text (invalid UTF-8 replaced); empty without the
/// `findings` feature (see `Builder::diag`).
#[cfg_attr(not(feature = "findings"), inline(always))]
pub(super) fn joined(parts: &[&[u8]]) -> String {
    if cfg!(not(feature = "findings")) {
        let _ = parts;
        return String::new();
    }
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
