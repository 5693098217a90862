//! `check --ai` and `batch`'s `"ai": true`: the AI usage preferences of an answer, as text and as
//! JSON fields (the names of `tests/data/ai-preferences.json`: `content_usage`, `content_signal`,
//! `header_usage`, `combined`; each category's reason in the matching `*_why`).

use robots_eval::aipref::{yes_no, Answers, Origin, Why, CATEGORIES, SIGNALS};
use robots_eval::{AiPreferences, Robots};
use serde_json::{json, Map, Value};

/// The preferences of `url` for `agent`; `headers`: Content-Usage field lines, joined with ", "
/// as one value (RFC 9110 §5.3).
pub fn ask(robots: &Robots, url: &str, agent: &str, headers: &[String]) -> AiPreferences {
    let header = (!headers.is_empty()).then(|| headers.join(", "));
    robots.ai_preferences(url, agent, header.as_deref().map(str::as_bytes))
}

/// A category map (label -> "y" | "n" | null), as the vectors and the npm package write it.
fn usage(answers: &Answers) -> Value {
    let map: Map<String, Value> = CATEGORIES
        .iter()
        .zip(answers)
        .map(|(c, a)| (c.label.into(), a.preference.token().into()))
        .collect();
    map.into()
}

/// Each category's reason: its code, the line (or header) it comes from, the failure point or
/// value type where there is one, and the sentence.
fn reasons(answers: &Answers) -> Value {
    let map: Map<String, Value> = CATEGORIES
        .iter()
        .zip(answers)
        .map(|(c, a)| {
            let mut why = json!({ "code": a.why.code(), "text": a.why.to_string() });
            match a.why.origin() {
                Some(Origin::Line(line)) => why["line"] = line.into(),
                Some(Origin::Header) => why["header"] = true.into(),
                None => {}
            }
            match a.why {
                Why::Malformed(_, e) => {
                    why["offset"] = e.offset.into();
                    why["failure"] = e.failure.as_str().into();
                }
                Why::NotYesNo(_, kind) => why["type"] = kind.as_str().into(),
                Why::NotCrawlable(line) => why["line"] = line.into(),
                _ => {}
            }
            (c.label.into(), why)
        })
        .collect();
    map.into()
}

/// The AI-preference fields of a JSON answer.
pub fn fields(robots: &Robots, p: &AiPreferences) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("content_usage".into(), usage(&p.content_usage));
    out.insert("content_usage_why".into(), reasons(&p.content_usage));
    let signal = p.content_signal.map_or(Value::Null, |signals| {
        let mut values = Map::new();
        for (s, a) in SIGNALS.iter().zip(signals) {
            values.insert(s.key.into(), yes_no(a.preference).into());
        }
        robots.content_signal_extras(p.verdict.selection, |_, key, value| {
            values.insert(key.to_ascii_lowercase(), value.into());
        });
        values.into()
    });
    out.insert("content_signal".into(), signal);
    if let Some(signals) = p.content_signal {
        let lines: Map<String, Value> = SIGNALS
            .iter()
            .zip(signals)
            .map(|(s, a)| (s.key.into(), a.line.into()))
            .collect();
        out.insert("content_signal_lines".into(), lines.into());
    }
    if let (Some(header), Some(combined)) = (&p.header_usage, &p.combined) {
        out.insert("header_usage".into(), usage(header));
        out.insert("header_usage_why".into(), reasons(header));
        out.insert("combined".into(), usage(combined));
        out.insert("combined_why".into(), reasons(combined));
    }
    out
}

/// `check --ai`: one indented line per category and source, then Content-Signal.
pub fn text(robots: &Robots, p: &AiPreferences) -> String {
    let mut lines = Vec::new();
    let sources = [
        ("content-usage", Some(&p.content_usage)),
        ("header", p.header_usage.as_ref()),
        ("combined", p.combined.as_ref()),
    ];
    for (source, answers) in sources {
        for (c, a) in CATEGORIES.iter().zip(answers.into_iter().flatten()) {
            let value = a.preference.token().unwrap_or("unknown");
            lines.push(format!("  {source} {}={value}: {}", c.label, a.why));
        }
    }
    lines.push(match p.content_signal {
        None => "  content-signal: none applies to this crawler's group".into(),
        Some(signals) => {
            let mut line = String::from("  content-signal:");
            for (s, a) in SIGNALS.iter().zip(signals) {
                let value = yes_no(a.preference).unwrap_or("unknown");
                line.push_str(&match a.line {
                    Some(n) => format!(" {}={value} (line {n})", s.key),
                    None => format!(" {}={value}", s.key),
                });
            }
            robots.content_signal_extras(p.verdict.selection, |n, key, value| {
                line.push_str(&format!(" {key}={value} (line {n})"));
            });
            line
        }
    });
    lines.join("\n")
}

/// A batch line's `"header"`: a string, or an array of field lines.
pub fn header_lines(v: Option<&Value>) -> Result<Vec<String>, String> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(Value::Array(lines)) => lines
            .iter()
            .map(|l| l.as_str().map(String::from))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| "\"header\" lines must be strings".into()),
        Some(_) => Err("\"header\" must be a string or an array of strings".into()),
    }
}
