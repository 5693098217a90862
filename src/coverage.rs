//! Floor 6: coverage, which rule of a robots.txt decides how much of a site, computed here once
//! for every face (the native CLI's `coverage`, the npm package's `robots.coverage` and its CLI,
//! the playground's chart), which only render it. Over the core's own verdicts, groups and rules:
//! no face reads the file's structure from its text again.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::decide::Reason;
use crate::options::Options;
use crate::robots::Robots;
#[cfg(feature = "serde")]
use serde::Serialize;

/// The coverage of some URLs for some crawlers (`coverage`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Coverage {
    /// URLs × crawlers.
    pub answers: u32,
    /// Every Allow/Disallow rule of the groups these crawlers obey, and every rule that decides
    /// an answer, in line order.
    pub rules: Vec<RuleCoverage>,
    /// The answers no rule decides (no rule matches, no group applies, /robots.txt).
    pub no_rule: Answers,
    /// The rules of groups none of these crawlers obeys (not counted).
    pub other_groups: u32,
}

/// The answers of one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct RuleCoverage {
    pub line: u32,
    /// The rule's line as written, for display: cut at a NUL, invalid UTF-8 and control
    /// characters (but tab) replaced by U+FFFD, trimmed.
    pub text: String,
    /// The crawlers whose groups hold it or that it decides for, in the order given, each with
    /// the answers it decides for that crawler.
    pub agents: Vec<AgentAnswers>,
    pub allowed: u32,
    pub disallowed: u32,
    /// `decides`; `shadowed` when it matches some of the URLs (`matched` of them) but another
    /// rule decides each; `unmatched` when it matches none.
    pub status: &'static str,
    pub matched: u32,
    /// The URLs it decides (indices into the URLs given), in order.
    pub urls: Vec<u32>,
}

/// A crawler (its index in the agents given) and the answers a rule decides for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct AgentAnswers {
    pub agent: u32,
    pub answers: u32,
}

/// Answers, allowed and disallowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Answers {
    pub allowed: u32,
    pub disallowed: u32,
}

/// A rule's tally while the answers are counted.
struct Tally {
    rule: RuleCoverage,
    answers: Answers,
    /// The rules on its line (several in the dialects with several paths a line).
    indices: Vec<u32>,
    counts: Vec<u32>,
    obeyed: Vec<bool>,
}

/// The coverage of `urls` for `agents` (each the product token a crawler obeys, as
/// `Robots::pick_agent` gives it); `step` is called after each URL with the number done (progress).
pub fn coverage<U: AsRef<str>>(
    robots: &Robots,
    urls: &[U],
    agents: &[&str],
    mut step: impl FnMut(usize),
) -> Coverage {
    let n = agents.len();
    // A tally per rule line (several rules share one in the dialects with several paths a
    // line), found through `slot` by line number.
    let last = (0..robots.rule_count())
        .filter_map(|i| robots.rule(i))
        .map(|r| r.line)
        .max()
        .unwrap_or(0);
    let mut slot: Vec<u32> = vec![u32::MAX; last as usize + 1];
    let mut tallies: Vec<Tally> = Vec::new();
    let tally = |line: u32| Tally {
        rule: RuleCoverage {
            line,
            text: String::new(),
            agents: Vec::new(),
            allowed: 0,
            disallowed: 0,
            status: "decides",
            matched: 0,
            urls: Vec::new(),
        },
        answers: Answers::default(),
        indices: Vec::new(),
        counts: vec![0; n],
        obeyed: vec![false; n],
    };
    // The tally of a line, made on first use.
    let at = |slot: &mut [u32], tallies: &mut Vec<Tally>, line: u32| -> usize {
        let s = &mut slot[line as usize];
        if *s == u32::MAX {
            *s = tallies.len() as u32;
            tallies.push(tally(line));
        }
        *s as usize
    };
    let mut no_rule = Answers::default();
    // `check` in its steps, as `report::explain` asks: the path once per URL, the selection once
    // per crawler (and the rich module carries no second copy of `check`'s fast paths).
    let selections: Vec<_> = agents.iter().map(|a| robots.selection(a)).collect();
    for (r, url) in urls.iter().enumerate() {
        let path = robots.path(url.as_ref());
        for (c, &selection) in selections.iter().enumerate() {
            let v = robots.check_path(&path, selection);
            let line = robots.line_of(&v);
            let answers = match line {
                0 => &mut no_rule,
                _ => {
                    let k = at(&mut slot, &mut tallies, line);
                    let t = &mut tallies[k];
                    t.counts[c] += 1;
                    if t.rule.urls.last() != Some(&(r as u32)) {
                        t.rule.urls.push(r as u32);
                    }
                    &mut t.answers
                }
            };
            match v.allowed {
                true => answers.allowed += 1,
                false => answers.disallowed += 1,
            }
        }
        step(r + 1);
    }
    // The groups each crawler obeys (group × crawler): their rules are listed even when they
    // decide nothing.
    let groups = robots.groups().len();
    let mut obeys = vec![false; groups * n];
    for (c, &selection) in selections.iter().enumerate() {
        for g in robots.selected_groups(selection) {
            obeys[g.index() as usize * n + c] = true;
        }
    }
    let mut other_groups: u32 = 0;
    for i in 0..robots.rule_count() {
        let Some(rule) = robots.rule(i) else { continue };
        let obey = obeys
            .get(rule.group as usize * n..(rule.group as usize + 1) * n)
            .unwrap_or_default();
        let decided = slot.get(rule.line as usize).is_some_and(|&s| s != u32::MAX);
        if !obey.contains(&true) && !decided {
            other_groups += 1;
            continue;
        }
        let k = at(&mut slot, &mut tallies, rule.line);
        let t = &mut tallies[k];
        t.indices.push(i);
        for (o, &yes) in t.obeyed.iter_mut().zip(obey) {
            *o |= yes;
        }
    }
    // In line order, through the slots (no sort).
    let mut tallies: Vec<Option<Tally>> = tallies.into_iter().map(Some).collect();
    let rules = slot
        .iter()
        .filter_map(|&s| tallies.get_mut(s as usize).and_then(Option::take))
        .map(|t| {
            let mut rule = t.rule;
            rule.allowed = t.answers.allowed;
            rule.disallowed = t.answers.disallowed;
            rule.agents = (0..n)
                .filter(|&c| t.counts[c] > 0 || t.obeyed[c])
                .map(|c| AgentAnswers {
                    agent: c as u32,
                    answers: t.counts[c],
                })
                .collect();
            rule.text = line_text(robots, rule.line);
            if rule.allowed + rule.disallowed == 0 {
                rule.matched = matched(robots, &t.indices, urls);
                rule.status = if rule.matched > 0 {
                    "shadowed"
                } else {
                    "unmatched"
                };
            }
            rule
        })
        .collect();
    Coverage {
        // (A JavaScript array holds at most 2^32 - 1 items: counts are u32, as they cross.)
        answers: u32::try_from(urls.len() * n).unwrap_or(u32::MAX),
        rules,
        no_rule,
        other_groups,
    }
}

/// How many of `urls` the rules on one line (`indices`) match, asked of them alone in the same
/// dialect (as Disallow rules: the kind does not change what a rule matches), for a line that
/// decides nothing.
fn matched<U: AsRef<str>>(robots: &Robots, indices: &[u32], urls: &[U]) -> u32 {
    let mut text = String::from("User-agent: *\n");
    for rule in indices.iter().filter_map(|&i| robots.rule(i)) {
        text.push_str("Disallow: ");
        text.push_str(rule.pattern);
        text.push('\n');
    }
    let alone = Robots::parse_with(
        text.as_bytes(),
        &Options {
            dialect: robots.dialect().id,
            ..Options::default()
        },
    );
    let all = alone.selection("*");
    urls.iter()
        .filter(|u| alone.check_path(&alone.path(u.as_ref()), all).reason == Reason::Rule)
        .count() as u32
}

/// Line `n` (1-based) of the file as written, for display: from the parse's copy of the file
/// (after a byte order mark; UTF-16 transcoded), where LF, CR and CRLF each end a line.
fn line_text(robots: &Robots, n: u32) -> String {
    let text = robots
        .bytes
        .get(..robots.text_len as usize)
        .unwrap_or_default();
    let mut rest = text;
    let mut at = 1;
    let line = loop {
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        if at == n || end == rest.len() {
            break if at == n { &rest[..end] } else { &[][..] };
        }
        let skip = if rest[end..].starts_with(b"\r\n") {
            2
        } else {
            1
        };
        rest = &rest[end + skip..];
        at += 1;
    };
    let line = line.split(|&b| b == 0).next().unwrap_or_default();
    let shown: String = match String::from_utf8_lossy(line) {
        Cow::Borrowed(s) => s.chars().map(visible).collect(),
        Cow::Owned(s) => s.chars().map(visible).collect(),
    };
    String::from(shown.trim_start_matches('\u{feff}').trim())
}

/// A control character (but tab) as U+FFFD: a line shown on a terminal cannot move its cursor.
fn visible(c: char) -> char {
    match c {
        '\u{1}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => '\u{fffd}',
        c => c,
    }
}
