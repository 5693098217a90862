//! Line -> model: what each line of the file is (a blank, a comment, a field, a line of no
//! field), the field its key names, and the records (every line that is not a user-agent or a
//! rule) with their findings. User-agent and rule lines go to `groups`, AI preferences to `usage`.

use super::builder::{joined, trim_comment, Builder};
use super::fields::{field_name, field_of, meant, starts_with_ci, Field, Spelling};
use crate::diagnostic::Code;
use crate::dialect::GroupBoundary;
use crate::lines::{Content, Line, RULE_DISALLOW};
use crate::model::{Record, RecordKind, RuleKind};
use crate::value::{is_valid_host, parse_request_rate, read_seconds};

impl Builder<'_> {
    pub(super) fn line(&mut self, line: &Line<'_>) {
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

    pub(super) fn record(&mut self, n: u32, kind: RecordKind, key: &[u8], value: &[u8]) {
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
}
