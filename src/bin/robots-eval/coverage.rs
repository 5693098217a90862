//! `coverage`: which rule of a robots.txt decides how much of a site. The same computation as the
//! npm command's and the playground's (js/coverage.js, over the package's table()), here over the
//! core's verdicts and its list of groups and rules; tests/data/cli-cases.json holds the cases both
//! print alike. The fields are described in js/coverage.js and docs/cli.md.

use std::collections::BTreeMap;

use robots_eval::{Options, Robots, RuleKind};
use serde::Serialize;

/// The answers of one rule.
#[derive(Serialize)]
pub struct Rule {
    pub line: u32,
    pub rule: String,
    /// The crawlers whose groups hold it (in the order given), with the answers it decides for each.
    #[serde(serialize_with = "in_order")]
    pub agents: Vec<(String, usize)>,
    pub allowed: usize,
    pub disallowed: usize,
    /// `decides`, `shadowed` (it matches some URLs, `matched` of them, but another rule decides
    /// each) or `unmatched` (it matches none).
    pub status: &'static str,
    pub matched: usize,
    /// The URLs it decides, in input order.
    pub urls: Vec<String>,
    #[serde(skip)]
    last: usize,
    #[serde(skip)]
    counts: Vec<usize>,
    #[serde(skip)]
    obeyed: Vec<bool>,
}

/// Pairs as a JSON object, in their order.
fn in_order<S: serde::Serializer>(pairs: &[(String, usize)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

#[derive(Serialize, Default)]
pub struct Undecided {
    pub allowed: usize,
    pub disallowed: usize,
}

#[derive(Serialize)]
pub struct Coverage {
    pub urls: usize,
    pub agents: Vec<String>,
    pub answers: usize,
    pub rules: Vec<Rule>,
    pub no_rule: Undecided,
    pub other_groups: usize,
}

/// The coverage of `urls` for `agents` (each a list of product tokens, `names` as written), with
/// `lines` the file's lines as shown (None when the rules were not read from a text); `step` is
/// called after each URL (progress).
pub fn coverage(
    robots: &Robots,
    lines: Option<&[String]>,
    urls: &[String],
    agents: &[Vec<&str>],
    names: &[String],
    mut step: impl FnMut(usize),
) -> Coverage {
    let mut by_line: BTreeMap<u32, Rule> = BTreeMap::new();
    let new_rule = |line: u32, agents: usize| Rule {
        line,
        rule: String::new(),
        agents: Vec::new(),
        allowed: 0,
        disallowed: 0,
        status: "decides",
        matched: 0,
        urls: Vec::new(),
        last: usize::MAX,
        counts: vec![0; agents],
        obeyed: vec![false; agents],
    };
    let mut no_rule = Undecided::default();
    let picked: Vec<&str> = agents.iter().map(|t| robots.pick_agent(t)).collect();
    // The groups each crawler obeys, and so the rules that can decide for it.
    let mut obeyed: Vec<Vec<usize>> = Vec::new(); // per rule index: the crawlers obeying its group
    for (c, agent) in picked.iter().enumerate() {
        for group in robots.selected_groups(robots.selection(agent)) {
            for i in group.rules() {
                let i = i as usize;
                if obeyed.len() <= i {
                    obeyed.resize(i + 1, Vec::new());
                }
                obeyed[i].push(c);
            }
        }
    }
    for (r, url) in urls.iter().enumerate() {
        for (c, agent) in picked.iter().enumerate() {
            let v = robots.check(url, agent);
            let line = robots.line_of(&v);
            if line == 0 {
                match v.allowed {
                    true => no_rule.allowed += 1,
                    false => no_rule.disallowed += 1,
                }
                continue;
            }
            let e = by_line
                .entry(line)
                .or_insert_with(|| new_rule(line, agents.len()));
            match v.allowed {
                true => e.allowed += 1,
                false => e.disallowed += 1,
            }
            e.counts[c] += 1;
            if e.last != r {
                e.urls.push(url.clone());
            }
            e.last = r;
            if e.rule.is_empty() && lines.is_none() {
                if let Some(rule) = robots.deciding_rule(&v) {
                    e.rule = written(rule.kind, rule.pattern);
                }
            }
        }
        step(r + 1);
    }
    let mut other_groups = 0;
    if lines.is_some() {
        for i in robots.groups().flat_map(|g| g.rules()) {
            let Some(rule) = robots.rule(i) else { continue };
            let obey = obeyed.get(i as usize).map_or(&[][..], Vec::as_slice);
            if obey.is_empty() && !by_line.contains_key(&rule.line) {
                other_groups += 1;
                continue;
            }
            let e = by_line
                .entry(rule.line)
                .or_insert_with(|| new_rule(rule.line, agents.len()));
            for &c in obey {
                // Listed even with no answers: its group is this crawler's.
                e.obeyed[c] = true;
            }
        }
    }
    let mut rules: Vec<Rule> = by_line.into_values().collect();
    for e in &mut rules {
        // The crawlers in the order given: those with answers, and those whose group holds it.
        for (c, name) in names.iter().enumerate() {
            if e.counts[c] > 0 || e.obeyed[c] {
                e.agents.push((name.clone(), e.counts[c]));
            }
        }
        if let Some(text) = lines.and_then(|l| l.get(e.line as usize - 1)) {
            e.rule = shown(text).to_string();
        }
        if e.allowed + e.disallowed > 0 {
            continue;
        }
        // A rule that decides nothing: does it match any of the URLs at all? Asked of the rule
        // alone, in the same dialect (whether it allows or disallows does not change what it
        // matches).
        let pattern = pattern_of(&e.rule);
        let alone = Robots::parse_with(
            format!("User-agent: *\nDisallow: {pattern}\n").as_bytes(),
            &Options {
                dialect: robots.dialect().id,
                ..Options::default()
            },
        );
        e.matched = urls
            .iter()
            .filter(|u| alone.check(u, "*").reason.as_str() == "rule")
            .count();
        e.status = if e.matched > 0 {
            "shadowed"
        } else {
            "unmatched"
        };
    }
    Coverage {
        urls: urls.len(),
        agents: names.to_vec(),
        answers: urls.len() * agents.len(),
        rules,
        no_rule,
        other_groups,
    }
}

/// "Disallow: /x" for a rule with no text.
fn written(kind: RuleKind, pattern: &str) -> String {
    let kind = match kind {
        RuleKind::Allow => "Allow",
        RuleKind::Disallow => "Disallow",
    };
    format!("{kind}: {pattern}")
}

/// A line as shown: trimmed, without a byte order mark (the lines are already cut at a NUL).
fn shown(line: &str) -> &str {
    line.trim_start_matches('\u{feff}').trim()
}

/// The pattern of a rule's line as written: after the field name and its colon, before a comment.
fn pattern_of(line: &str) -> &str {
    let line = line.split('#').next().unwrap_or_default();
    let key_end = line
        .find(|c: char| c == ':' || c.is_whitespace())
        .unwrap_or(line.len());
    let rest = line[key_end..].trim_start();
    rest.strip_prefix(':').unwrap_or(rest).trim()
}
