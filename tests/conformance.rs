//! The conformance runner: every case is data with its provenance; every failure is reported.
//!
//! - `../shared/conformance/google-robotstxt.json`: google/robotstxt's own vectors, in `google`
//!   (verdict and matching line) and in `rfc9309` (where the verdicts differ only as listed in
//!   `tests/data/rfc9309-differences.json`, checked both ways).
//! - `../shared/conformance/seeds.json`: the seed documents' cases, in every dialect they name.
//! - `tests/data/dialects.json`: this project's cases for every knob of every dialect.

mod common;

use std::collections::BTreeMap;

use common::{bytes_field, data, dialect, parse, shared, Failures};
use robots_eval::DialectId;
use serde_json::Value;

fn load(path: &std::path::Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn google() -> Option<Value> {
    shared("google-robotstxt conformance")
        .map(|s| load(&s.join("conformance/google-robotstxt.json")))
}

#[test]
fn google_vectors_in_google_dialect() {
    let Some(g) = google() else { return };
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
    let Some(g) = google() else { return };
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
    let Some(g) = google() else { return };
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

/// Runs a file of `{name, source, robots, agent, url, expect: {dialect: bool}, line?: {dialect: n}}`.
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
        }
    }
    f.finish(suite);
}

#[test]
fn seed_cases() {
    let Some(s) = shared("seed cases") else {
        return;
    };
    run_cases(&load(&s.join("conformance/seeds.json")), "seed cases");
}

#[test]
fn dialect_cases() {
    run_cases(&load(&data("dialects.json")), "dialect cases");
}
