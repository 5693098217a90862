//! The behaviours issue 12 found in other libraries' test suites, as data
//! (`tests/data/records.json`, each case naming the peer behaviour it follows): Crawl-delay per
//! run of user-agent lines, Host, Request-rate, the records, agent lists,
//! `is_explicitly_disallowed`, characters outside the URI set and UTF-16 byte order marks.
//! Every case runs in every dialect it lists; one report gives every failure.
//! tests/js/records.test.mjs runs the same data through the npm package.

mod common;

use common::{bytes_field, data, dialect, parse, Failures};
use robots_eval::{DialectId, RecordKind, Robots};
use serde_json::Value;

/// An agent of the data: a product token, or a list of them (the first with a group of its own
/// decides, `Robots::pick_agent`).
fn agent<'r>(robots: &'r Robots, v: &'r Value) -> &'r str {
    match v {
        Value::String(s) => s,
        Value::Array(list) => {
            let list: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
            robots.pick_agent(&list)
        }
        _ => panic!("an agent is a string or a list of strings: {v}"),
    }
}

/// The `[a, b, c]` entries of a check.
fn rows<'v>(case: &'v Value, check: &str) -> impl Iterator<Item = &'v [Value]> {
    case.get(check)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|row| row.as_array().map(Vec::as_slice).unwrap_or_default())
}

fn run(case: &Value, d: DialectId, f: &mut Failures) {
    let name = format!("{} [{}]", case["name"].as_str().unwrap_or("?"), d.name());
    let robots = parse(&bytes_field(case, "robots"), d);
    for row in rows(case, "crawl_delay") {
        let got = robots.crawl_delay(agent(&robots, &row[0]));
        f.check(got == row[1].as_f64(), || {
            format!(
                "{name}: crawl_delay({}) = {got:?}, expected {}",
                row[0], row[1]
            )
        });
    }
    for row in rows(case, "request_rate") {
        let got = robots
            .request_rate(agent(&robots, &row[0]))
            .map(|r| (f64::from(r.requests), r.seconds));
        let expected = row[1].as_object().map(|r| {
            let n = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
            (n("requests"), n("seconds"))
        });
        f.check(got == expected, || {
            format!(
                "{name}: request_rate({}) = {got:?}, expected {}",
                row[0], row[1]
            )
        });
    }
    for row in rows(case, "allowed") {
        let (url, who) = (row[0].as_str().unwrap_or(""), agent(&robots, &row[1]));
        let got = robots.is_allowed(url, who);
        f.check(Some(got) == row[2].as_bool(), || {
            format!("{name}: is_allowed({url:?}, {}) = {got}", row[1])
        });
    }
    for row in rows(case, "explicitly_disallowed") {
        let (url, who) = (row[0].as_str().unwrap_or(""), agent(&robots, &row[1]));
        let got = robots.is_explicitly_disallowed(url, who);
        f.check(Some(got) == row[2].as_bool(), || {
            format!(
                "{name}: is_explicitly_disallowed({url:?}, {}) = {got}",
                row[1]
            )
        });
    }
    if let Some(expected) = case.get("host") {
        let got = robots.host();
        f.check(got == expected.as_str(), || {
            format!("{name}: host() = {got:?}, expected {expected}")
        });
    }
    if let Some(expected) = case.get("records") {
        // What the npm package's `records` lists: every record but Sitemap.
        let got: Vec<Value> = robots
            .records()
            .filter(|r| r.kind != RecordKind::Sitemap)
            .map(|r| {
                let agents: Vec<&str> = r.agents().collect();
                serde_json::json!({
                    "key": r.field, "value": r.value, "line": r.line,
                    "agents": r.group.map(|_| agents),
                })
            })
            .collect();
        f.check(Value::Array(got.clone()) == *expected, || {
            format!("{name}: records() = {got:?}, expected {expected}")
        });
    }
    let found: Vec<(&str, u32)> = robots
        .diagnostics()
        .iter()
        .map(|d| (d.code.as_str(), d.line))
        .collect();
    for row in rows(case, "diagnostics") {
        let want = (
            row[0].as_str().unwrap_or(""),
            row[1].as_u64().unwrap_or(0) as u32,
        );
        f.check(found.contains(&want), || {
            format!("{name}: no diagnostic {want:?}; found {found:?}")
        });
    }
    for code in case
        .get("not_diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let code = code.as_str().unwrap_or("");
        f.check(found.iter().all(|&(c, _)| c != code), || {
            format!("{name}: unexpected diagnostic {code}; found {found:?}")
        });
    }
}

#[test]
fn records_and_peer_behaviours() {
    let text = std::fs::read_to_string(data("records.json")).expect("tests/data/records.json");
    let doc: Value = serde_json::from_str(&text).expect("records.json is JSON");
    let mut f = Failures::default();
    for case in doc["cases"].as_array().expect("cases") {
        let dialects: Vec<DialectId> = match case.get("dialects").and_then(Value::as_array) {
            Some(list) => list
                .iter()
                .map(|d| dialect(d.as_str().unwrap_or("")))
                .collect(),
            None => DialectId::ALL.to_vec(),
        };
        for d in dialects {
            run(case, d, &mut f);
        }
    }
    f.finish("records");
}

/// The agent list of the CLI and the npm package: an empty list is no product token, so only `*`
/// can apply.
#[test]
fn pick_agent_of_no_agents_is_the_global_group() {
    let robots = Robots::parse(b"User-agent: a\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n");
    assert_eq!(robots.pick_agent(&[]), "");
    assert!(!robots.is_allowed("/x", robots.pick_agent(&[])));
    assert_eq!(robots.pick_agent(&["b", "a"]), "a");
    assert_eq!(robots.pick_agent(&["b", "c"]), "b");
}

/// The records keep what a record applies to when the file is parsed into a value that held
/// another (`Robots::reparse`).
#[test]
fn reparse_keeps_record_runs() {
    let first = b"User-agent: a\nUser-agent: b\nCrawl-delay: 3\nDisallow: /\n";
    let second = b"User-agent: c\nCrawl-delay: 4\nUser-agent: d\nDisallow: /\n";
    let mut robots = Robots::parse(first);
    robots.reparse(second, &Default::default());
    let fresh = Robots::parse(second);
    for agent in ["a", "b", "c", "d"] {
        assert_eq!(
            robots.crawl_delay(agent),
            fresh.crawl_delay(agent),
            "{agent}"
        );
    }
    assert_eq!(robots.crawl_delay("c"), Some(4.0));
    assert_eq!(robots.crawl_delay("d"), None);
}

/// A valid Crawl-delay as the naive reading sees it: its group, the agents of its run of
/// user-agent lines (lower-cased), its line and its value.
struct Delay {
    group: usize,
    agents: Vec<String>,
    line: u32,
    value: f64,
}

/// The naive reading of `lines`: the agents of each group, and the valid Crawl-delays. Groups as
/// RFC 9309 §2.2.4 forms them (a user-agent line after a rule starts one), and where
/// `blank_ends`, as the 1994 and 1996 texts do too (a blank line ends one). Allow is a rule only
/// where `allow` (the 1994 standard has none).
fn naive_reading(lines: &[&str], blank_ends: bool, allow: bool) -> (Vec<Vec<String>>, Vec<Delay>) {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut delays = Vec::new();
    let (mut open, mut rule_seen, mut in_run) = (false, false, false);
    let mut run = Vec::<String>::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((key, value)) = line.split_once(": ") else {
            open &= !(blank_ends && line.is_empty());
            continue; // comments change nothing
        };
        let (key, value) = (key.to_ascii_lowercase(), value.to_ascii_lowercase());
        if key == "user-agent" {
            if !open || rule_seen {
                groups.push(Vec::new());
                (open, rule_seen, in_run) = (true, false, false);
            }
            if !in_run {
                run.clear();
            }
            run.push(value.clone());
            groups.last_mut().unwrap().push(value);
            in_run = true;
            continue;
        }
        in_run = false;
        match key.as_str() {
            "disallow" => rule_seen |= open,
            "allow" if allow => rule_seen |= open,
            "crawl-delay" if open => {
                if let Ok(v) = value.parse::<u32>() {
                    delays.push(Delay {
                        group: groups.len() - 1,
                        agents: run.clone(),
                        line: i as u32 + 1,
                        value: f64::from(v),
                    });
                }
            }
            _ => {}
        }
    }
    (groups, delays)
}

/// Crawl-delay and `multiple-crawl-delay` (docs/records.md) against the naive reading, on random
/// files in every dialect but revisited: for each agent, the last valid value under a run naming
/// it, in the groups it obeys (all that name it where groups merge, else the first); a line is
/// reported when it replaces an earlier value of one of its agents (of any group where groups
/// merge, of its own group elsewhere).
#[test]
fn crawl_delay_agrees_with_a_naive_reading() {
    const PIECES: &[&str] = &[
        "User-agent: a",
        "User-agent: A",
        "User-agent: b",
        "User-agent: *",
        "Disallow: /x",
        "Allow: /y",
        "Crawl-delay: 1",
        "Crawl-delay: 2",
        "crawl-delay: 3",
        "Crawl-delay: soon",
        "",
        "# c",
        "Sitemap: https://s.test/s.xml",
        "X-Other: v",
    ];
    // A 64-bit linear congruential generator (Knuth's MMIX constants), its high bits.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    let mut checked = 0;
    for _ in 0..3000 {
        let lines: Vec<&str> = (0..next() % 14)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        let text = lines.join("\n");
        for d in [
            DialectId::Rfc9309,
            DialectId::Google,
            DialectId::Draft1996,
            DialectId::Original1994,
        ] {
            let merging = matches!(d, DialectId::Rfc9309 | DialectId::Google);
            let allow = d != DialectId::Original1994;
            let (groups, delays) = naive_reading(&lines, !merging, allow);
            // The groups an agent obeys by `key` (itself, or `*`): every group naming it where
            // groups merge, else the first.
            let obeys = |key: &str, g: usize| {
                let names = |g: &Vec<String>| g.iter().any(|a| a == key);
                names(&groups[g]) && (merging || groups.iter().position(names) == Some(g))
            };
            let applies =
                |key: &str, x: &Delay| obeys(key, x.group) && x.agents.iter().any(|a| a == key);
            let robots = parse(text.as_bytes(), d);
            for agent in ["a", "A", "b", "c"] {
                let lower = agent.to_ascii_lowercase();
                let key = [lower.as_str(), "*"]
                    .into_iter()
                    .find(|k| groups.iter().any(|g| g.iter().any(|a| a == k)));
                let want =
                    key.and_then(|k| delays.iter().rev().find(|x| applies(k, x)).map(|x| x.value));
                assert_eq!(
                    robots.crawl_delay(agent),
                    want,
                    "{agent} in {text:?} ({d:?})"
                );
                checked += 1;
            }
            let mut replaced: Vec<u32> = if merging {
                let mut all = Vec::new();
                for key in ["a", "b", "*"] {
                    let on = delays.iter().filter(|x| applies(key, x)).map(|x| x.line);
                    all.extend(on.skip(1));
                }
                all
            } else {
                // An earlier value in the same group for one of its agents.
                let shares = |x: &Delay, y: &Delay| {
                    x.group == y.group && x.agents.iter().any(|a| y.agents.contains(a))
                };
                let later = delays
                    .iter()
                    .enumerate()
                    .filter(|&(i, x)| delays[..i].iter().any(|e| shares(e, x)));
                later.map(|(_, x)| x.line).collect()
            };
            replaced.sort();
            replaced.dedup();
            let mut flagged: Vec<u32> = robots
                .diagnostics()
                .iter()
                .filter(|x| x.code.as_str() == "multiple-crawl-delay")
                .map(|x| x.line)
                .collect();
            flagged.dedup();
            assert_eq!(flagged, replaced, "{text:?} ({d:?})");
        }
    }
    eprintln!("crawl-delay reading: {checked} delays agree");
}
