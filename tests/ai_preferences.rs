//! The AI-preference vectors (`tests/data/ai-preferences.json`, copied from
//! `../shared/conformance/ai-preferences.json` with each case's source): every case run, every
//! failure reported. A case lists the categories it asserts; the engine may know more.

mod common;

use common::{data, Failures};
use robots_eval::aipref::{category, parse_header, Preference};
use serde_json::Value;

fn vectors() -> Value {
    let path = data("ai-preferences.json");
    serde_json::from_slice(&std::fs::read(&path).expect("tests/data/ai-preferences.json"))
        .expect("valid JSON")
}

/// `'y'`, `'n'` or null, as the vectors write a category's outcome.
fn usage_json(p: Preference) -> Value {
    p.token().map_or(Value::Null, Value::from)
}

/// A header case's field value: one string, or an array of field lines.
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

/// Compares the categories the case lists with what the engine answers.
fn check_usage(
    f: &mut Failures,
    name: &str,
    expected: &Value,
    got: impl Fn(usize) -> Preference,
    what: &str,
) {
    for (label, want) in expected.as_object().expect("a category map") {
        let Some(index) = category(label.as_bytes()) else {
            f.check(false, || {
                format!("{name}: {what}: unknown category {label}")
            });
            continue;
        };
        let got = usage_json(got(index));
        f.check(&got == want, || {
            format!("{name}: {what} {label} = {got}, expected {want}")
        });
    }
}

#[test]
fn header_vectors() {
    let v = vectors();
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
        check_usage(
            &mut f,
            name,
            &case["expected"]["content_usage"],
            |i| statement.preference(i),
            "header",
        );
    }
    assert_eq!(cases, 8, "the public set has 8 header cases");
    f.finish("AI-preference header vectors");
}
