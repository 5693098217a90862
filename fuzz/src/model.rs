//! Random robots.txt files over a small alphabet, with the reference verdict for every query.
//! Shared (one copy) by the `differential` fuzz target and `tests/reference.rs`.
//!
//! A file is a list of groups (user-agent lines, then rules) with noise between them: comments,
//! blank lines, Sitemap / Crawl-delay / unknown records, a BOM, LF / CRLF / CR line ends, case
//! and spacing variants of the keys. Everything about it that decides a verdict is known here
//! without parsing, so `check` compares `robots_eval` with `crate::reference` alone.
//!
//! Only the `google` and `rfc9309` dialects are modelled (longest match, wildcards, merged groups).
#![allow(dead_code)]

use robots_eval::{DialectId, Options, Robots};

use crate::reference::{self, Decision, Rule};

/// Where the random choices come from: a PRNG in the tests, the fuzzer's bytes in the target.
pub trait Source {
    /// A number in `0..n` (`n > 0`); a source that has run dry answers 0.
    fn below(&mut self, n: u32) -> u32;

    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u32) as usize]
    }
}

/// xorshift64*: deterministic, no dependency.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Source for XorShift {
    fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() >> 32) % u64::from(n)) as u32
    }
}

/// The fuzzer's input, read as a stream of choices.
pub struct Bytes<'a>(pub &'a [u8]);

impl Source for Bytes<'_> {
    fn below(&mut self, n: u32) -> u32 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        let v = if n > 256 {
            let Some((&c, rest)) = self.0.split_first() else {
                return u32::from(b) % n;
            };
            self.0 = rest;
            u32::from(b) << 8 | u32::from(c)
        } else {
            u32::from(b)
        };
        v % n
    }
}

/// Pieces rules are made of. `*` runs and `$` anywhere; `%` escapes valid and not; non-ASCII.
const GOOGLE_PIECES: &[&str] = &[
    "/",
    "/",
    "a",
    "a",
    "b",
    "*",
    "*",
    "$",
    "%",
    ".",
    "?",
    "%2F",
    "%2f",
    "%ab",
    "ab",
    "**",
    "index.htm",
    "é",
    "%C3%A9",
];
const RFC_PIECES: &[&str] = &[
    "/", "/", "a", "a", "b", "*", "*", "$", "%", ".", "?", "%2F", "%2f", "%ab", "%41", "%7e", "~",
    "A", "-", "%2A", "%24", "%25", "é", "%C3%A9", "%c3%a9", "**",
];
/// User-agent values, and the product token each names (`/` ends a token in both dialects).
const AGENT_VALUES: &[&str] = &["*", "*", "FooBot", "foobot", "FooBot/1.0", "BarBot"];
/// What a crawler asks as.
pub const QUERY_AGENTS: &[&str] = &["FooBot", "barbot", "OtherBot"];

#[derive(Clone, Debug)]
struct Group {
    agents: Vec<&'static str>,
    /// (allow, pattern as written, line)
    rules: Vec<(bool, String, u32)>,
}

/// A generated file and the queries to ask of it.
#[derive(Clone, Debug)]
pub struct Case {
    pub dialect: DialectId,
    pub text: Vec<u8>,
    groups: Vec<Group>,
    pub paths: Vec<String>,
}

fn pieces(d: DialectId) -> &'static [&'static str] {
    if d == DialectId::Google {
        GOOGLE_PIECES
    } else {
        RFC_PIECES
    }
}

fn pattern(d: DialectId, src: &mut impl Source) -> String {
    let mut p = String::new();
    match src.below(10) {
        0 => {
            // Hostile: a long run of `*` (and some text), maybe anchored.
            p.push('/');
            for _ in 0..src.below(40) {
                p.push_str(if src.chance(70) { "*" } else { "a" });
            }
            if src.chance(50) {
                p.push('$');
            }
        }
        1 => {} // empty
        _ => {
            if src.chance(85) {
                p.push('/');
            }
            for _ in 0..src.below(8) {
                p.push_str(src.pick(pieces(d)));
            }
        }
    }
    p
}

/// A path, often made from a rule so that it has a chance to match: each `*` becomes a few
/// pieces, a final `$` is dropped (or kept, as a literal).
fn path(d: DialectId, rules: &[&str], src: &mut impl Source) -> String {
    let mut p = String::from("/");
    if !rules.is_empty() && src.chance(70) {
        let r = rules[src.below(rules.len() as u32) as usize];
        let r = if src.chance(80) {
            r.strip_suffix('$').unwrap_or(r)
        } else {
            r
        };
        for c in r.chars() {
            if c == '*' && src.chance(85) {
                for _ in 0..src.below(4) {
                    p.push_str(src.pick(pieces(d)));
                }
            } else {
                p.push(c);
            }
        }
    }
    if src.chance(30) {
        // Hostile: a long run of `a`.
        for _ in 0..src.below(200) {
            p.push('a');
        }
    }
    for _ in 0..src.below(5) {
        p.push_str(src.pick(pieces(d)));
    }
    // Both dialects read a leading `//` as an authority: keep one `/`.
    while p.starts_with("//") {
        p.remove(0);
    }
    if !p.starts_with('/') {
        p.insert(0, '/');
    }
    p
}

/// The file being written, and the number of the next line.
struct Writer {
    text: Vec<u8>,
    line: u32,
    last_cr: bool,
}

impl Writer {
    /// Writes one line with a random line end; returns its number.
    fn emit(&mut self, s: &str, src: &mut impl Source) -> u32 {
        self.text.extend_from_slice(s.as_bytes());
        let mut end = [&b"\n"[..], b"\n", b"\r\n", b"\r"][src.below(4) as usize];
        if s.is_empty() && self.last_cr && end == b"\n" {
            // "\r" + "" + "\n" would be one CRLF break, not two lines.
            end = b"\r\n";
        }
        self.text.extend_from_slice(end);
        self.last_cr = end == b"\r";
        self.line += 1;
        self.line - 1
    }
}

/// Generates a file of up to 4 groups (of up to 8 rules, or now and then 80) and up to 8 paths
/// to ask about.
pub fn generate(dialect: DialectId, src: &mut impl Source) -> Case {
    let google = dialect == DialectId::Google;
    let mut w = Writer {
        text: Vec::new(),
        line: 1,
        last_cr: false,
    };
    if src.chance(10) {
        w.text.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let mut groups: Vec<Group> = Vec::new();
    let n_groups = src.below(5);
    for g in 0..n_groups {
        let mut group = Group {
            agents: Vec::new(),
            rules: Vec::new(),
        };
        for _ in 0..1 + src.below(2) {
            let value = src.pick(AGENT_VALUES);
            let key = src.pick(&[
                "User-agent",
                "user-agent",
                "USER-AGENT",
                "useragent",
                "User-Agent",
            ]);
            let sep = src.pick(&[": ", ":", " : ", ":\t"]);
            w.emit(&format!("{key}{sep}{value}"), src);
            group.agents.push(value);
        }
        // A group without rules merges with the next one; allow that now and then. One group in
        // ten has up to 80 rules, so a query scans several chunks of a rule set's filters and
        // computes the path's pair filter (`decide::first_match`, `PAIR_FILTER_FROM`).
        let min = u32::from(g + 1 < n_groups && src.chance(90));
        let most = if src.chance(10) { 80 } else { 8 };
        for _ in 0..min + src.below(most) {
            if src.chance(15) {
                let noise = src.pick(&[
                    "",
                    "# comment",
                    "   ",
                    "Sitemap: https://x.test/s.xml",
                    "Crawl-delay: 5",
                    "X-Noise: 1",
                ]);
                w.emit(noise, src);
            }
            let allow = src.chance(50);
            let p = pattern(dialect, src);
            let key = match (allow, src.below(4)) {
                (true, 0) => "allow",
                (true, 1) => "ALLOW",
                (true, _) => "Allow",
                (false, 0) => "disallow",
                (false, 1) => "Dissallow",
                (false, _) => "Disallow",
            };
            // google/robotstxt also reads `key value` without a colon.
            let sep = if google && !p.is_empty() && src.chance(10) {
                " "
            } else {
                src.pick(&[": ", ":", " :  ", ":\t"])
            };
            let tail = src.pick(&["", "", "  ", " # c", "#c"]);
            let n = w.emit(&format!("{key}{sep}{p}{tail}"), src);
            group.rules.push((allow, p, n));
        }
        groups.push(group);
    }
    if src.chance(20) {
        w.emit("# the end", src);
    }
    let written: Vec<&str> = groups
        .iter()
        .flat_map(|g| g.rules.iter().map(|r| r.1.as_str()))
        .collect();
    let paths = (0..1 + src.below(8))
        .map(|_| path(dialect, &written, src))
        .collect();
    Case {
        dialect,
        text: w.text,
        groups,
        paths,
    }
}

fn token(value: &str) -> &str {
    value.split('/').next().unwrap_or_default()
}

/// The groups as a parser reads them: a group without rules runs on into the next one (its
/// user-agent lines join it).
fn merged(case: &Case) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for g in &case.groups {
        match groups.last_mut() {
            Some(last) if last.rules.is_empty() => {
                last.agents.extend(g.agents.iter().copied());
                last.rules.extend(g.rules.iter().cloned());
            }
            _ => groups.push(g.clone()),
        }
    }
    groups
}

/// The reference's rules for `agent`: those of every group naming it, else of every `*` group,
/// normalised as the dialect compares them.
fn rules_for(case: &Case, groups: &[Group], agent: &str) -> Vec<Rule> {
    let named: Vec<&Group> = groups
        .iter()
        .filter(|g| {
            g.agents
                .iter()
                .any(|a| *a != "*" && token(a).eq_ignore_ascii_case(agent))
        })
        .collect();
    let chosen = if named.is_empty() {
        groups.iter().filter(|g| g.agents.contains(&"*")).collect()
    } else {
        named
    };
    let google = case.dialect == DialectId::Google;
    let mut rules = Vec::new();
    for (allow, written, line) in chosen.iter().flat_map(|g| g.rules.iter()) {
        let pattern = if google {
            reference::google_rule(written.as_bytes())
        } else {
            reference::rfc9309_rule(written.as_bytes())
        };
        let alternate = match pattern.iter().rposition(|&b| b == b'/') {
            Some(slash) if google && *allow && pattern[slash..].starts_with(b"/index.htm") => {
                Some([&pattern[..=slash], b"$"].concat())
            }
            _ => None,
        };
        rules.push(Rule {
            allow: *allow,
            pattern,
            line: *line,
        });
        if let Some(pattern) = alternate {
            rules.push(Rule {
                allow: true,
                pattern,
                line: *line,
            });
        }
    }
    rules
}

/// The reference verdict for `path` under `rules`.
fn expected(case: &Case, rules: &[Rule], path: &str) -> Decision {
    if case.dialect == DialectId::Google {
        reference::decide(rules, path.as_bytes())
    } else {
        reference::decide(rules, &reference::rfc9309_url(path.as_bytes()))
    }
}

/// Parses the case and asks every path as every agent; the first disagreement is the error.
/// Returns the number of queries checked.
pub fn check(case: &Case) -> Result<usize, String> {
    let robots = Robots::parse_with(&case.text, &Options::dialect(case.dialect));
    let groups = merged(case);
    let mut n = 0;
    for agent in QUERY_AGENTS {
        // Worked out once per agent, not per query: most of a run's time was spent here.
        let rules = rules_for(case, &groups, agent);
        for path in &case.paths {
            let want = expected(case, &rules, path);
            let v = robots.check(path, agent);
            let line = robots.line_of(&v);
            if v.allowed != want.allowed || line != want.line {
                return Err(format!(
                    "{:?}: robots.txt {:?}\n  check({path:?}, {agent:?}) = allowed {} line {line} ({:?}); reference: allowed {} line {}",
                    case.dialect,
                    String::from_utf8_lossy(&case.text),
                    v.allowed,
                    v.reason,
                    want.allowed,
                    want.line
                ));
            }
            n += 1;
        }
    }
    Ok(n)
}
