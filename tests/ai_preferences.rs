//! AI usage preferences as data, every case run and every failure reported:
//! - `tests/data/ai-preferences.json`: the public vectors (copied from
//!   `../shared/conformance/ai-preferences.json`, each with its source);
//! - `tests/data/ai-preferences-project.json`: this project's cases for each reading [I-n], the
//!   reasons, the header combined with robots.txt, Content-Signal lines and extra keys.
//!
//! A case lists the categories it asserts; the engine may know more (VOCAB-08 adds `ai-use`).

mod common;

use common::{data, dialect, parse, Failures};
use robots_eval::aipref::{
    category, parse_header, yes_no, Answers, Preference, SignalAnswer, SIGNALS, SIGNAL_COUNT,
};
use robots_eval::AiPreferences;
use serde_json::{Map, Value};

fn load(name: &str) -> Value {
    let path = data(name);
    serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}")))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `'y'`, `'n'` or null, as the vectors write a category's outcome.
fn usage_json(p: Preference) -> Value {
    p.token().map_or(Value::Null, Value::from)
}

/// A header: one field value, or an array of field lines.
fn field_lines(header: &Value) -> Vec<Vec<u8>> {
    match header {
        Value::String(s) => vec![s.as_bytes().to_vec()],
        Value::Array(lines) => lines
            .iter()
            .map(|l| l.as_str().expect("a field line").as_bytes().to_vec())
            .collect(),
        other => panic!("header must be a string or an array: {other}"),
    }
}

/// Compares each category a case lists (`expected`: label -> JSON) with `got(index)`.
fn per_category(
    f: &mut Failures,
    name: &str,
    what: &str,
    expected: &Value,
    got: impl Fn(usize) -> Value,
) {
    let Some(expected) = expected.as_object() else {
        return;
    };
    for (label, want) in expected {
        let Some(index) = category(label.as_bytes()) else {
            f.check(false, || {
                format!("{name}: {what}: unknown category {label}")
            });
            continue;
        };
        let got = got(index);
        f.check(&got == want, || {
            format!("{name}: {what} {label} = {got}, expected {want}")
        });
    }
}

fn check_answers(
    f: &mut Failures,
    name: &str,
    what: &str,
    expected: &Value,
    got: Option<&Answers>,
) {
    let Some(got) = got else {
        f.check(expected.is_null(), || {
            format!("{name}: no {what}, expected {expected}")
        });
        return;
    };
    per_category(f, name, what, expected, |i| usage_json(got[i].preference));
}

fn check_reasons(
    f: &mut Failures,
    name: &str,
    what: &str,
    expected: &Value,
    got: Option<&Answers>,
) {
    if let Some(got) = got {
        per_category(f, name, what, expected, |i| got[i].why.to_string().into());
    }
}

fn signals_json(
    signals: Option<[SignalAnswer; SIGNAL_COUNT]>,
    field: fn(&SignalAnswer) -> Value,
) -> Value {
    signals.map_or(Value::Null, |signals| {
        let map: Map<String, Value> = SIGNALS
            .iter()
            .zip(&signals)
            .map(|(s, a)| (s.key.to_string(), field(a)))
            .collect();
        map.into()
    })
}

/// Runs one robots.txt case in its dialect (rfc9309 unless it names one).
fn robots_case(f: &mut Failures, case: &Value) {
    let name = case["name"].as_str().expect("a name");
    let d = case["dialect"].as_str().unwrap_or("rfc9309");
    let name = format!("{name} [{d}]");
    let robots = parse(case["robots"].as_str().unwrap().as_bytes(), dialect(d));
    // Field lines are one value joined with ", " (RFC 9110 §5.3).
    let header = case.get("header").map(|h| field_lines(h).join(&b", "[..]));
    let (url, agent) = (
        case["url"].as_str().unwrap(),
        case["agent"].as_str().unwrap(),
    );
    let p: AiPreferences = robots.ai_preferences(url, agent, header.as_deref());
    let expected = &case["expected"];
    let allowed = expected["allowed"].as_bool().unwrap();
    f.check(p.verdict.allowed == allowed, || {
        format!("{name}: allowed {} expected {allowed}", p.verdict.allowed)
    });
    check_answers(
        f,
        &name,
        "content_usage",
        &expected["content_usage"],
        Some(&p.content_usage),
    );
    check_reasons(f, &name, "why", &expected["why"], Some(&p.content_usage));
    if let Some(want) = expected.get("content_signal") {
        let got = signals_json(p.content_signal, |a| {
            yes_no(a.preference).map_or(Value::Null, Value::from)
        });
        f.check(&got == want, || {
            format!("{name}: content_signal {got}, expected {want}")
        });
    }
    if let Some(want) = expected.get("signal_lines").and_then(Value::as_object) {
        let got = signals_json(p.content_signal, |a| {
            a.line.map_or(Value::Null, Value::from)
        });
        for (key, line) in want {
            f.check(got[key] == *line, || {
                format!(
                    "{name}: signal {key} from line {}, expected {line}",
                    got[key]
                )
            });
        }
    }
    if let Some(want) = expected.get("extras") {
        let mut got = Vec::new();
        robots.content_signal_extras(p.verdict.selection, |line, key, value| {
            got.push(serde_json::json!([line, key, value]));
        });
        let got = Value::from(got);
        f.check(&got == want, || {
            format!("{name}: extras {got}, expected {want}")
        });
    }
    for (field, got) in [("header_usage", p.header_usage), ("combined", p.combined)] {
        if let Some(want) = expected.get(field) {
            check_answers(f, &name, field, want, got.as_ref());
        }
    }
    if let Some(want) = expected.get("combined_why") {
        check_reasons(f, &name, "combined_why", want, p.combined.as_ref());
    }
}

/// The public vectors' robots.txt cases are asserted in the default dialect, rfc9309, whose
/// groups follow draft-ietf-aipref-attach-05 ([I-6]: a Content-Usage line is a rule, so a
/// user-agent line after it starts a new group). The google dialect keeps google/robotstxt's
/// groups, where the line is an unknown record: three of the cases depend on that difference
/// (`ai-preferences-project.json` has one of them in google).
#[test]
fn public_robots_vectors() {
    let v = load("ai-preferences.json");
    let mut f = Failures::default();
    let cases: Vec<&Value> = v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c.get("robots").is_some())
        .collect();
    assert_eq!(cases.len(), 32, "the public set has 32 robots.txt cases");
    for case in &cases {
        robots_case(&mut f, case);
    }
    eprintln!("{} robots.txt cases", cases.len());
    f.finish("AI-preference public vectors, robots.txt");
}

#[test]
fn public_header_vectors() {
    let v = load("ai-preferences.json");
    let mut f = Failures::default();
    let mut cases = 0;
    for case in v["cases"].as_array().expect("cases") {
        let Some(header) = case.get("header") else {
            continue;
        };
        cases += 1;
        let name = case["name"].as_str().expect("a name");
        let lines = field_lines(header);
        let refs: Vec<&[u8]> = lines.iter().map(Vec::as_slice).collect();
        let statement = parse_header(&refs);
        per_category(
            &mut f,
            name,
            "header",
            &case["expected"]["content_usage"],
            |i| usage_json(statement.preference(i)),
        );
    }
    assert_eq!(cases, 8, "the public set has 8 header cases");
    eprintln!("{cases} header cases");
    f.finish("AI-preference public vectors, header");
}

#[test]
fn project_cases() {
    let v = load("ai-preferences-project.json");
    let mut f = Failures::default();
    let cases = v["cases"].as_array().expect("cases");
    eprintln!("{} project cases", cases.len());
    for case in cases {
        assert!(
            case["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{case}: needs a source"
        );
        robots_case(&mut f, case);
    }
    f.finish("AI-preference project cases");
}

/// The native command gives the same answers: every robots.txt case (public and project) through
/// one `robots-eval batch` with `"ai": true`, compared with the expectations.
#[cfg(feature = "cli")]
#[test]
fn native_batch_gives_the_same_answers() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cases = Vec::new();
    for file in ["ai-preferences.json", "ai-preferences-project.json"] {
        let v = load(file);
        cases.extend(
            v["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c.get("robots").is_some())
                .cloned(),
        );
    }
    let input: String = cases
        .iter()
        .map(|c| {
            let mut q = serde_json::json!({
                "robots": c["robots"], "url": c["url"], "agent": c["agent"], "ai": true,
                "dialect": c.get("dialect").cloned().unwrap_or("rfc9309".into()),
            });
            if let Some(h) = c.get("header") {
                q["header"] = h.clone();
            }
            format!("{q}\n")
        })
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_robots-eval"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the native command");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());
    let mut f = Failures::default();
    for (case, got) in cases.iter().zip(&answers) {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        f.check(got["allowed"] == expected["allowed"], || {
            format!("{name}: allowed {}", got["allowed"])
        });
        for field in ["content_usage", "header_usage", "combined"] {
            if let Some(want) = expected.get(field).and_then(Value::as_object) {
                for (label, value) in want {
                    f.check(&got[field][label] == value, || {
                        format!(
                            "{name}: {field} {label} = {}, expected {value}",
                            got[field][label]
                        )
                    });
                }
            }
        }
        if let Some(want) = expected.get("why").and_then(Value::as_object) {
            for (label, text) in want {
                let got = &got["content_usage_why"][label]["text"];
                f.check(got == text, || {
                    format!("{name}: why {label} = {got}, expected {text}")
                });
            }
        }
        if let Some(want) = expected.get("content_signal") {
            let got = &got["content_signal"];
            let same = match (want.as_object(), got.as_object()) {
                (Some(w), Some(g)) => w.iter().all(|(k, v)| g.get(k) == Some(v)),
                _ => want.is_null() && got.is_null(),
            };
            f.check(same, || {
                format!("{name}: content_signal {got}, expected {want}")
            });
        }
    }
    f.finish("AI preferences through the native command");
}
