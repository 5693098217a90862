//! The conformance runner: every case is data with its provenance; every failure is reported.
//! All of it lives in `tests/data/` (see its README.md for where each file came from and its
//! licence), so a plain clone runs every suite:
//!
//! - `google-robotstxt.json`: google/robotstxt's own vectors (Apache-2.0), in `google` (verdict
//!   and matching line) and in `rfc9309` (where the verdicts differ only as listed in
//!   `rfc9309-differences.json`, checked both ways).
//! - `seeds.json`: the seed documents' cases, in every dialect they name.
//! - `dialects.json`: this project's cases for every knob of every dialect.
//! - `peer-kinds.json`: this project's own cases of the kinds other libraries' suites check.

mod common;

use std::collections::BTreeMap;

use common::{bytes_field, data, dialect, parse, Failures};
use robots_eval::DialectId;
use serde_json::Value;

fn load(path: &std::path::Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn google() -> Value {
    load(&data("google-robotstxt.json"))
}

/// The vectors keep their provenance: the upstream repository, commit and licence in the
/// header, the licence text beside them, and a test name and source line in every record.
#[test]
fn google_vectors_keep_their_provenance() {
    let g = google();
    let h = &g["header"];
    assert_eq!(h["repository"], "https://github.com/google/robotstxt");
    assert_eq!(h["license"], "Apache-2.0");
    assert_eq!(h["commit"].as_str().map(str::len), Some(40));
    let licence = std::fs::read_to_string(data("LICENSE-google-robotstxt")).unwrap();
    assert!(licence.contains("Apache License") && licence.contains("Version 2.0"));
    assert!(std::fs::read_to_string(data("NOTICE-google-robotstxt"))
        .unwrap()
        .contains(h["commit"].as_str().unwrap()));
    let mut records = 0;
    for (section, list) in g.as_object().unwrap() {
        let Some(list) = list.as_array() else {
            continue;
        };
        for r in list {
            assert!(
                r["name"].as_str().is_some_and(|n| n.contains('#')) && r["source_line"].is_u64(),
                "{section}: {r} names no upstream test and line"
            );
            records += 1;
        }
    }
    assert_eq!(u64::try_from(records).ok(), h["counts"]["total"].as_u64());
}

#[test]
fn google_vectors_in_google_dialect() {
    let g = google();
    let mut f = Failures::default();
    for v in g["vectors"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let robots = parse(&bytes_field(v, "robots"), DialectId::Google);
        let (agent, url) = (v["agent"].as_str().unwrap(), v["url"].as_str().unwrap());
        let verdict = robots.check(url, agent);
        let expected = v["allowed"].as_bool().unwrap();
        f.check(verdict.allowed == expected, || {
            format!(
                "{name}: allowed {} expected {expected} ({})",
                verdict.allowed, v["note"]
            )
        });
        let line = v["oracle_matching_line"].as_u64().unwrap() as u32;
        let got = robots.line_of(&verdict);
        f.check(got == line, || {
            format!("{name}: matching line {got} expected {line}")
        });
    }
    f.finish("google vectors (google dialect)");
}

#[test]
fn google_vectors_in_rfc9309_dialect() {
    let g = google();
    let diffs = load(&data("rfc9309-differences.json"));
    let mut listed: BTreeMap<String, (bool, String)> = BTreeMap::new();
    for d in diffs["differences"].as_array().unwrap() {
        let section = d["section"].as_str().unwrap_or("");
        assert!(
            !section.is_empty() && !d["why"].as_str().unwrap_or("").is_empty(),
            "{d}: needs section and why"
        );
        listed.insert(
            d["name"].as_str().unwrap().into(),
            (d["rfc9309"].as_bool().unwrap(), section.into()),
        );
    }
    let mut f = Failures::default();
    let mut seen = 0;
    for v in g["vectors"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let robots = parse(&bytes_field(v, "robots"), DialectId::Rfc9309);
        let got = robots.is_allowed(v["url"].as_str().unwrap(), v["agent"].as_str().unwrap());
        let google = v["allowed"].as_bool().unwrap();
        match listed.get(name) {
            Some((rfc, section)) => {
                seen += 1;
                f.check(google != *rfc, || format!("{name}: listed as a difference ({section}) but google also says {google}"));
                f.check(got == *rfc, || format!("{name}: rfc9309 gives {got}, the differences file says {rfc} ({section})"));
            }
            None => f.check(got == google, || {
                format!("{name}: rfc9309 gives {got} where google gives {google}, and no difference is listed ({})", v["note"])
            }),
        }
    }
    f.check(seen == listed.len(), || {
        format!("{} listed differences name no vector", listed.len() - seen)
    });
    f.finish("google vectors (rfc9309 dialect)");
}

#[test]
fn google_helper_vectors() {
    let g = google();
    let mut f = Failures::default();
    for v in g["path_params_query"].as_array().unwrap() {
        let (path, slash) = robots_eval::url::path_params_query(v["url"].as_str().unwrap());
        let got = if slash {
            format!("/{path}")
        } else {
            path.to_string()
        };
        let want = v["path"].as_str().unwrap();
        f.check(got == want, || {
            format!("{}: path {got:?} expected {want:?}", v["name"])
        });
    }
    for v in g["escape_pattern"].as_array().unwrap() {
        // The escaping is observable as the normalised pattern of a rule.
        let pattern = v["pattern"].as_str().unwrap();
        let robots = parse(
            format!("user-agent: *\nallow: {pattern}\n").as_bytes(),
            DialectId::Google,
        );
        let got = robots
            .rule(0)
            .map(|r| String::from_utf8_lossy(r.normalized).into_owned())
            .unwrap_or_default();
        let want = v["escaped"].as_str().unwrap();
        f.check(got == want, || {
            format!("{}: escaped {got:?} expected {want:?}", v["name"])
        });
    }
    for v in g["valid_user_agent"].as_array().unwrap() {
        let got = robots_eval::agent::is_valid_product_token(v["agent"].as_str().unwrap());
        let want = v["valid"].as_bool().unwrap();
        f.check(got == want, || {
            format!("{}: valid {got} expected {want}", v["name"])
        });
    }
    f.finish("google helper vectors");
}

/// google/robotstxt's parse statistics (`parse_stats`: its test reporter's counts), read
/// through our views in the `google` dialect: directives are user-agent, allow, disallow and
/// sitemap lines (a rule before any user-agent line is one too, though it binds no one: we report
/// it as `rule-outside-group`); every other `key: value` line is an unknown directive (a record);
/// the last line seen is the last line of any of them.
#[test]
fn google_parse_stats() {
    let g = google();
    let mut f = Failures::default();
    for v in g["parse_stats"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let robots = parse(&bytes_field(v, "robots"), DialectId::Google);
        let agents: Vec<u32> = robots
            .groups()
            .flat_map(|g| g.agents().map(|(line, _)| line).collect::<Vec<_>>())
            .collect();
        let rules: Vec<u32> = (0..robots.rule_count())
            .map(|i| robots.rule(i).unwrap().line)
            .chain(
                robots
                    .diagnostics()
                    .iter()
                    .filter(|d| d.code == robots_eval::Code::RuleOutsideGroup)
                    .map(|d| d.line),
            )
            .collect();
        let sitemaps: Vec<&str> = robots.sitemaps().collect();
        let unknown = robots
            .records()
            .filter(|r| r.kind != robots_eval::RecordKind::Sitemap)
            .count();
        let last = agents
            .iter()
            .chain(&rules)
            .copied()
            .chain(robots.records().map(|r| r.line))
            .max()
            .unwrap_or(0);
        let got = serde_json::json!({
            "valid_directives": agents.len() + rules.len() + sitemaps.len(),
            "unknown_directives": unknown,
            "last_line_seen": last,
            "sitemap": sitemaps.concat(),
        });
        for (key, want) in v["expected"].as_object().unwrap() {
            f.check(got[key] == *want, || {
                format!("{name}: {key} {} expected {want}", got[key])
            });
        }
    }
    f.finish("google parse statistics");
}

/// Runs a file of `{name, source, robots, agent, url, expect: {dialect: bool}, line?: {dialect: n},
/// reason?: {dialect: s}, sitemaps?: [s]}`.
fn run_cases(file: &Value, suite: &str) {
    let mut f = Failures::default();
    for c in file["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        assert!(
            c["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{name}: every case names its source"
        );
        let robots_bytes = bytes_field(c, "robots");
        for (d, expected) in c["expect"].as_object().unwrap() {
            let robots = parse(&robots_bytes, dialect(d));
            let verdict = robots.check(c["url"].as_str().unwrap(), c["agent"].as_str().unwrap());
            let expected = expected.as_bool().unwrap();
            f.check(verdict.allowed == expected, || {
                format!(
                    "{name} [{d}]: allowed {} expected {expected} (reason {})",
                    verdict.allowed,
                    verdict.reason.as_str()
                )
            });
            if let Some(line) = c.get("line").and_then(|l| l.get(d)) {
                let got = robots.line_of(&verdict);
                f.check(u64::from(got) == line.as_u64().unwrap(), || {
                    format!("{name} [{d}]: line {got} expected {line}")
                });
            }
            if let Some(reason) = c.get("reason").and_then(|l| l.get(d)) {
                let got = verdict.reason.as_str();
                f.check(reason.as_str() == Some(got), || {
                    format!("{name} [{d}]: reason {got} expected {reason}")
                });
            }
            if let Some(want) = c.get("sitemaps") {
                let got: Vec<&str> = robots.sitemaps().collect();
                f.check(serde_json::json!(got) == *want, || {
                    format!("{name} [{d}]: sitemaps {got:?} expected {want}")
                });
            }
        }
    }
    f.finish(suite);
}

#[test]
fn seed_cases() {
    let seeds = load(&data("seeds.json"));
    for c in seeds["cases"].as_array().unwrap() {
        assert!(
            c["section"].as_str().is_some_and(|s| !s.is_empty()),
            "{}: every seed case names the section of its document",
            c["name"]
        );
    }
    run_cases(&seeds, "seed cases");
}

/// Our own cases of the kinds other libraries' suites check; each names the library, its
/// repository and the test whose kind it is.
#[test]
fn peer_kind_cases() {
    let peers = load(&data("peer-kinds.json"));
    for c in peers["cases"].as_array().unwrap() {
        let from = &c["inspired_by"];
        assert!(
            ["library", "repository", "test"]
                .iter()
                .all(|k| from[k].as_str().is_some_and(|s| !s.is_empty())),
            "{}: inspired_by names the library, its repository and the test",
            c["name"]
        );
    }
    run_cases(&peers, "peer kinds");
}

#[test]
fn dialect_cases() {
    run_cases(&load(&data("dialects.json")), "dialect cases");
}
