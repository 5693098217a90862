//! `coverage`: which rule of a robots.txt decides how much of a site. Computed by the core
//! (`robots_eval::coverage`, as the npm command's and the playground's); here only put in the
//! command's JSON shape, with the crawlers' names and the URLs as the user wrote them
//! (tests/data/cli-cases.json holds the cases both commands print alike; fields in docs/cli.md).

use robots_eval::coverage::{self as core, Answers};
use robots_eval::Robots;
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
    pub status: &'static str,
    pub matched: usize,
    /// The URLs it decides, in input order.
    pub urls: Vec<String>,
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

#[derive(Serialize)]
pub struct Coverage {
    pub urls: usize,
    pub agents: Vec<String>,
    pub answers: usize,
    pub rules: Vec<Rule>,
    pub no_rule: Answers,
    pub other_groups: usize,
}

/// The coverage of `urls` for `agents` (each a list of product tokens, `names` as written);
/// `step` is called after each URL (progress).
pub fn coverage(
    robots: &Robots,
    urls: &[String],
    agents: &[Vec<&str>],
    names: &[String],
    step: impl FnMut(usize),
) -> Coverage {
    let picked: Vec<&str> = agents.iter().map(|t| robots.pick_agent(t)).collect();
    let c = core::coverage(robots, urls, &picked, step);
    Coverage {
        urls: urls.len(),
        agents: names.to_vec(),
        answers: c.answers as usize,
        rules: c
            .rules
            .into_iter()
            .map(|r| Rule {
                line: r.line,
                rule: r.text,
                agents: r
                    .agents
                    .iter()
                    .map(|a| (names[a.agent as usize].clone(), a.answers as usize))
                    .collect(),
                allowed: r.allowed as usize,
                disallowed: r.disallowed as usize,
                status: r.status,
                matched: r.matched as usize,
                urls: r.urls.iter().map(|&u| urls[u as usize].clone()).collect(),
            })
            .collect(),
        no_rule: c.no_rule,
        other_groups: c.other_groups as usize,
    }
}
