//! "May this crawler use this page for AI?" (`Robots::ai_use`) as data, every case run and every
//! failure reported:
//! - `tests/data/ai-use-examples.json`: the 53 worked examples of `shared/docs/ai-signals.md` §6;
//! - `tests/data/ai-use-project.json`: this project's cases for every reading [S-1]..[S-22] and
//!   decision [D-1]..[D-11], and for every class of malformed input.
//!
//! Each case's answer is compared as it serialises (the `serde` feature: the JSON the npm
//! contract names), so the field names are under test too. Plus: hostile inputs stay linear.

mod common;

use common::{data, dialect, Failures};
use robots_eval::ai_use::{AiUseInputs, RobotsFetch};
use robots_eval::aipref::operators::Purpose;
use robots_eval::fetch::{self, FetchContext, FetchOutcome};
use robots_eval::{DialectId, Options, Robots};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn load(name: &str) -> Vec<Value> {
    let path = data(name);
    let v: Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    v["cases"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| panic!("{name}: no cases"))
}

/// Runs one case: the answer as JSON.
fn run(case: &Value) -> Value {
    let d = case["dialect"].as_str().map_or(DialectId::Rfc9309, dialect);
    let status = case["robots_status"].as_u64().map(|s| s as u16);
    let robots_text = case["robots"].as_str();
    // No robots.txt is a 404 (the digest's notation); a status given is decided by the policy.
    let status = status.or(robots_text.is_none().then_some(404));
    let robots_fetch = status.map(|s| {
        let decision = fetch::decide(d, &FetchOutcome::Status(s), &FetchContext::default());
        RobotsFetch {
            status: Some(s),
            policy: decision.policy,
            reason: decision.reason,
        }
    });
    let robots = Robots::parse_with(robots_text.unwrap_or("").as_bytes(), &Options::dialect(d));
    let headers: Vec<(String, String)> = case["headers"]
        .as_array()
        .map(|h| {
            h.iter()
                .map(|pair| {
                    (
                        pair[0].as_str().expect("a header name").to_string(),
                        pair[1].as_str().expect("a header value").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let purposes: Option<Vec<Purpose>> = case["purposes"].as_array().map(|p| {
        p.iter()
            .map(|l| Purpose::from_label(l.as_str().unwrap()).expect("a purpose label"))
            .collect()
    });
    let policy_tokens: Vec<&str> = case["policy_tokens"]
        .as_array()
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let html = case["html"].as_str().map(str::as_bytes);
    let repeat = case["html_repeat"].as_u64().unwrap_or(0) as usize;
    let long_html: Option<Vec<u8>> = (repeat > 0).then(|| html.unwrap_or_default().repeat(repeat));
    // `tdmrep_pad`: that many spaces after the body's first byte (an oversized file).
    let padded: Option<Vec<u8>> = case["tdmrep_pad"].as_u64().map(|n| {
        let body = case["tdmrep"].as_str().unwrap_or("[]").as_bytes();
        let (first, rest) = body.split_at(1);
        [first, &vec![b' '; n as usize][..], rest].concat()
    });
    let inputs = AiUseInputs {
        headers: &headers,
        html: long_html.as_deref().or(html),
        tdmrep: padded
            .as_deref()
            .or(case["tdmrep"].as_str().map(str::as_bytes)),
        purposes: purposes.as_deref(),
        policy_tokens: &policy_tokens,
        robots_fetch,
    };
    let agent = case["agent"].as_str().expect("an agent");
    let url = case["url"].as_str().expect("a url");
    serde_json::to_value(robots.ai_use(url, agent, &inputs)).expect("serialises")
}

/// Whether `pattern` is a subset of `v` (objects: every key of the pattern, recursively; else equal).
fn subset(pattern: &Value, v: &Value) -> bool {
    match (pattern, v) {
        (Value::Object(p), Value::Object(o)) => p
            .iter()
            .all(|(k, pv)| o.get(k).map_or(pv.is_null(), |ov| subset(pv, ov))),
        _ => pattern == v,
    }
}

fn check(f: &mut Failures, file: &str, case: &Value) {
    let name = format!("{file}: {}", case["name"].as_str().unwrap_or("?"));
    let got = run(case);
    let trace = got["trace"].as_array().cloned().unwrap_or_default();
    let explain = || serde_json::to_string_pretty(&got).unwrap_or_default();
    for (purpose, want) in case["expected"].as_object().expect("expected").iter() {
        let answer = &got[purpose]["answer"];
        f.check(answer == want, || {
            format!(
                "{name}: {purpose} = {answer}, expected {want}\n{}",
                explain()
            )
        });
        let by = got[purpose]["by"].as_array().cloned().unwrap_or_default();
        // `by` is never empty unless the answer is unknown, and always points into the trace.
        f.check((by.is_empty()) == (answer == "unknown"), || {
            format!("{name}: {purpose}: by = {by:?} for {answer}")
        });
        f.check(
            by.iter()
                .all(|i| i.as_u64().is_some_and(|i| (i as usize) < trace.len())),
            || format!("{name}: {purpose}: by {by:?} outside the trace"),
        );
        if let Some(signals) = case["decided_by"].get(purpose) {
            let mut want: Vec<&str> = signals
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            want.sort();
            let mut have: Vec<&str> = by
                .iter()
                .filter_map(|i| trace.get(i.as_u64()? as usize)?["signal"].as_str())
                .collect();
            have.sort();
            have.dedup();
            f.check(have == want, || {
                format!(
                    "{name}: {purpose} decided by {have:?}, expected {want:?}\n{}",
                    explain()
                )
            });
        }
    }
    if let Some(want) = case.get("conditions").and_then(Value::as_array) {
        let mut want: Vec<&str> = want.iter().filter_map(Value::as_str).collect();
        want.sort();
        let conditions = got["conditions"].as_array().cloned().unwrap_or_default();
        let mut have: Vec<&str> = conditions
            .iter()
            .filter_map(|c| c["condition"].as_str())
            .collect();
        have.sort();
        f.check(have == want, || {
            format!(
                "{name}: conditions {have:?}, expected {want:?}\n{}",
                explain()
            )
        });
    }
    if let Some(values) = case.get("condition_values").and_then(Value::as_object) {
        for (condition, want) in values {
            let have = got["conditions"]
                .as_array()
                .and_then(|c| c.iter().find(|c| c["condition"] == condition.as_str()))
                .map(|c| c["value"].clone());
            f.check(have.as_ref() == Some(want), || {
                format!("{name}: condition {condition} = {have:?}, expected {want}")
            });
        }
    }
    if let Some(want) = case.get("crawlable") {
        f.check(&got["crawlable"] == want, || {
            format!("{name}: crawlable = {}, expected {want}", got["crawlable"])
        });
    }
    for pattern in case["trace_has"].as_array().into_iter().flatten() {
        f.check(trace.iter().any(|e| subset(pattern, e)), || {
            format!("{name}: no trace entry like {pattern}\n{}", explain())
        });
    }
    for signal in case["error_signals"].as_array().into_iter().flatten() {
        f.check(
            trace
                .iter()
                .any(|e| &e["signal"] == signal && e["error"].is_string()),
            || format!("{name}: no {signal} entry with an error\n{}", explain()),
        );
    }
    for part in case["trace_notes"].as_array().into_iter().flatten() {
        let part = part.as_str().unwrap_or("");
        f.check(
            trace
                .iter()
                .any(|e| e["note"].as_str().is_some_and(|n| n.contains(part))),
            || format!("{name}: no trace note with {part:?}\n{}", explain()),
        );
    }
    for e in &trace {
        f.check(e["signal"].is_string() && e["where"].is_object(), || {
            format!("{name}: a trace entry without signal or where: {e}")
        });
    }
}

#[test]
fn the_digests_worked_examples() {
    let mut f = Failures::default();
    let cases = load("ai-use-examples.json");
    assert!(cases.len() >= 53, "{} examples", cases.len());
    for case in &cases {
        check(&mut f, "ai-use-examples.json", case);
    }
    f.finish("ai-use examples");
}

#[test]
fn the_projects_cases() {
    let mut f = Failures::default();
    for case in &load("ai-use-project.json") {
        check(&mut f, "ai-use-project.json", case);
    }
    f.finish("ai-use project cases");
}

/// The JSON shape of the contract, in full, for one answer (the example docs/ai-use.md shows).
#[test]
fn the_serialised_shape() {
    let robots = Robots::parse(b"User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n");
    let headers = [("Content-Usage", "train-ai=n"), ("X-Robots-Tag", "noai")];
    let inputs = AiUseInputs {
        headers: &headers,
        tdmrep: Some(br#"[{"location": "/", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}]"#),
        ..AiUseInputs::default()
    };
    let got =
        serde_json::to_value(robots.ai_use("https://example.com/a", "GPTBot", &inputs)).unwrap();
    let expected: Value =
        serde_json::from_slice(&std::fs::read(data("ai-use-shape.json")).unwrap()).unwrap();
    assert_eq!(
        got,
        expected,
        "{}",
        serde_json::to_string_pretty(&got).unwrap()
    );
    for key in [
        "train-ai",
        "ai-use",
        "search",
        "trace",
        "conditions",
        "crawler",
        "crawlable",
    ] {
        assert!(got.get(key).is_some(), "no {key}");
    }
    let _ = json!(null);
}

/// Hostile inputs stay linear: each doubles in size, and the time may not grow much faster
/// (a quadratic reader would take four times as long; the bound allows for noise).
#[test]
fn hostile_inputs_stay_linear() {
    let robots = Robots::parse(b"User-agent: *\nAllow: /\n");
    let time = |make: &dyn Fn(usize) -> (Vec<u8>, Vec<u8>, String), n: usize| -> Duration {
        let (html, tdm, header) = make(n);
        let headers = [
            ("X-Robots-Tag", header.as_str()),
            ("tdm-reservation", header.as_str()),
        ];
        let inputs = AiUseInputs {
            headers: &headers,
            html: Some(&html),
            tdmrep: Some(&tdm),
            ..AiUseInputs::default()
        };
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            let r = robots.ai_use("https://example.com/a/b/c", "GPTBot", &inputs);
            best = best.min(t.elapsed());
            assert!(!r.trace.is_empty());
        }
        best
    };
    type Make = fn(usize) -> (Vec<u8>, Vec<u8>, String);
    let cases: [(&str, Make); 6] = [
        ("64 KiB-scale nesting in tdmrep.json", |n| {
            (
                vec![],
                format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes(),
                String::new(),
            )
        }),
        ("a run of * in a tdmrep.json location", |n| {
            let loc = format!("/{}x", "*".repeat(n));
            (
                vec![],
                format!(r#"[{{"location":"{loc}","tdm-reservation":1}}]"#).into_bytes(),
                String::new(),
            )
        }),
        ("many tdmrep.json rules", |n| {
            let rules: Vec<String> = (0..n / 16)
                .map(|i| format!(r#"{{"location":"/r{i}*","tdm-reservation":1}}"#))
                .collect();
            (
                vec![],
                format!("[{}]", rules.join(",")).into_bytes(),
                String::new(),
            )
        }),
        ("a huge head of META tags", |n| {
            let tag = b"<meta name=\"robots\" content=\"noai, noimageai\"><meta name=tdm-reservation content=1>";
            (
                b"<head>"
                    .iter()
                    .chain(tag.repeat(n / tag.len()).iter())
                    .copied()
                    .collect(),
                vec![],
                String::new(),
            )
        }),
        ("a long header of directives", |n| {
            (vec![], vec![], "noai,".repeat(n / 5))
        }),
        ("a body of unclosed tags", |n| {
            (
                "<div data-x ".repeat(n / 12).into_bytes(),
                vec![],
                String::new(),
            )
        }),
    ];
    let mut failures = Vec::new();
    for (what, make) in cases {
        let small = time(&make, 64 * 1024);
        let large = time(&make, 256 * 1024);
        // Four times the input: linear is about 4x, quadratic 16x; the bound leaves room for a
        // loaded machine (the best of five runs each).
        let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
        eprintln!("{what}: 64 KiB {small:?}, 256 KiB {large:?} ({ratio:.1}x)");
        if ratio > 12.0 && large > Duration::from_millis(20) {
            failures.push(format!(
                "{what}: {ratio:.1}x for 4x the input ({small:?} -> {large:?})"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
