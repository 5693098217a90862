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

// ---- `robots-eval ai <url> --agent A [--json]`: what a site tells a crawler about AI use ----------
// (Its command line is read in args.rs, `parse_ai`, with the other commands'.)

/// What was fetched, for the output.
struct Fetched {
    what: &'static str,
    url: String,
    status: Option<u16>,
    bytes: usize,
    note: String,
}

/// `robots-eval ai ...`: its answer and exit status.
pub fn main(argv: &[String]) -> std::process::ExitCode {
    match command(argv) {
        Ok(code) => std::process::ExitCode::from(code),
        Err(e) => {
            eprintln!("{}: {e}", super::NAME);
            std::process::ExitCode::from(2)
        }
    }
}

/// The largest page body read: the head scanner's limit.
const PAGE_CAP: usize = robots_eval::meta::HEAD_SCAN_LIMIT;
/// A page or tdmrep.json fetch must be over within this.
const PAGE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// A response: the final URL, the status, the headers and the (capped) body.
type Response = (String, u16, Vec<(String, String)>, Vec<u8>);

/// GET `url` following up to 5 redirects (TDMREP §6.1: "redirects leading to" a success): the
/// final URL, status and headers, and the first `cap` bytes of a 2xx body.
fn get(http: &ureq::Agent, url: &str, cap: usize) -> Result<Response, String> {
    use std::io::Read;
    let mut current = url.to_string();
    for _ in 0..=5 {
        let request = http
            .get(&current)
            .config()
            .timeout_global(Some(PAGE_TIMEOUT));
        let mut res = request.build().call().map_err(|e| e.to_string())?;
        let status = res.status().as_u16();
        let headers: Vec<(String, String)> = res
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let location = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("location"))
            .map(|(_, v)| v.clone());
        if let (300..=399, Some(next)) = (status, location) {
            current = super::resolve(&current, &next);
            continue;
        }
        let mut body = Vec::new();
        if (200..300).contains(&status) {
            let reader = res.body_mut().with_config().limit(u64::MAX).reader();
            reader
                .take(cap as u64)
                .read_to_end(&mut body)
                .map_err(|e| e.to_string())?;
        }
        return Ok((current, status, headers, body));
    }
    Err("too many redirects".into())
}

fn command(argv: &[String]) -> Result<u8, String> {
    use robots_eval::ai_use::{AiUseInputs, RobotsFetch};
    use robots_eval::fetch::{self, FetchContext, FetchOutcome};
    use robots_eval::tdmrep::MAX_FILE_BYTES;
    use robots_eval::Options;
    let Some(a) = super::args::parse_ai(argv)? else {
        super::print(&super::help("ai"))?;
        return Ok(0);
    };
    let agent = a.agent.clone();
    let options = Options::dialect(a.dialect);
    let mut inputs = super::Inputs::new();
    let mut fetched: Vec<Fetched> = Vec::new();
    // robots.txt: a file, or the site's, fetched under the status policy.
    let source = a.robots.clone().unwrap_or_else(|| a.url.clone());
    let (robots, robots_fetch) = match inputs.robots(&source, &options, "robots.txt") {
        Ok(file) => {
            let robots_fetch = file.fetched.map(|(status, d)| {
                fetched.push(Fetched {
                    what: "robots.txt",
                    url: file.name.clone(),
                    status: Some(status),
                    bytes: file.robots.bytes_read(),
                    note: format!("{} ({})", d.message, d.reason),
                });
                RobotsFetch {
                    status: Some(status),
                    policy: d.policy,
                    reason: d.reason,
                }
            });
            (file.robots, robots_fetch)
        }
        // No response at all: the policy for an unreachable robots.txt (RFC 9309 §2.3.1.4).
        Err(e) if a.robots.is_none() && e.starts_with("fetch failed") => {
            let d = fetch::decide(
                a.dialect,
                &FetchOutcome::NetworkError,
                &FetchContext::default(),
            );
            fetched.push(Fetched {
                what: "robots.txt",
                url: super::resolve(&a.url, "/robots.txt"),
                status: None,
                bytes: 0,
                note: format!("{e}: {} ({})", d.message, d.reason),
            });
            let robots =
                robots_eval::Robots::parse_with(robots_eval::fetch::DISALLOW_ALL, &options);
            let f = RobotsFetch {
                status: None,
                policy: d.policy,
                reason: d.reason,
            };
            (robots, Some(f))
        }
        Err(e) => return Err(e),
    };
    // tdmrep.json: a file, "none", or the origin's.
    let tdmrep: Option<Vec<u8>> = match a.tdmrep.as_deref() {
        Some("none") => None,
        Some(path) => Some(inputs.read(path, "--tdmrep")?),
        None => {
            let url = super::resolve(&a.url, "/.well-known/tdmrep.json");
            match get(&inputs.http, &url, MAX_FILE_BYTES + 1) {
                Ok((at, status, _, body)) if (200..300).contains(&status) => {
                    fetched.push(Fetched {
                        what: "tdmrep.json",
                        url: at,
                        status: Some(status),
                        bytes: body.len(),
                        note: "read".into(),
                    });
                    Some(body)
                }
                Ok((at, status, _, _)) => {
                    fetched.push(Fetched {
                        what: "tdmrep.json",
                        url: at,
                        status: Some(status),
                        bytes: 0,
                        note: "absent: the origin does not implement the file (TDMREP §6.1)".into(),
                    });
                    None
                }
                Err(e) => {
                    fetched.push(Fetched {
                        what: "tdmrep.json",
                        url,
                        status: None,
                        bytes: 0,
                        note: format!("absent: {e}"),
                    });
                    None
                }
            }
        }
    };
    // The page: a file (headers from --header), or fetched (its headers, the first 512 KiB).
    let mut headers: Vec<(String, String)> = Vec::new();
    let html: Option<Vec<u8>> = match a.html.as_deref() {
        Some(path) => Some(inputs.read(path, "--html")?),
        None => match get(&inputs.http, &a.url, PAGE_CAP) {
            Ok((at, status, h, body)) => {
                let ok = (200..300).contains(&status);
                fetched.push(Fetched {
                    what: "page",
                    url: at,
                    status: Some(status),
                    bytes: body.len(),
                    note: if !ok {
                        "not a success: its headers are read, no body".into()
                    } else if body.len() >= PAGE_CAP {
                        format!("the first {PAGE_CAP} bytes read (the head scanner's limit)")
                    } else {
                        "headers and body read".into()
                    },
                });
                headers = h;
                ok.then_some(body)
            }
            Err(e) => {
                fetched.push(Fetched {
                    what: "page",
                    url: a.url.clone(),
                    status: None,
                    bytes: 0,
                    note: format!("not fetched: {e}"),
                });
                None
            }
        },
    };
    headers.extend(a.headers.iter().cloned());
    let header_refs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let policy_tokens: Vec<&str> = a.policy_tokens.iter().map(String::as_str).collect();
    let ai_inputs = AiUseInputs {
        headers: &header_refs,
        html: html.as_deref(),
        tdmrep: tdmrep.as_deref(),
        purposes: (!a.purposes.is_empty()).then_some(a.purposes.as_slice()),
        policy_tokens: &policy_tokens,
        robots_fetch,
    };
    let answer = robots.ai_use(&a.url, &agent, &ai_inputs);
    if a.json {
        let mut out = serde_json::to_value(&answer).map_err(|e| e.to_string())?;
        if let Some(map) = out.as_object_mut() {
            map.insert("url".into(), a.url.clone().into());
            map.insert("agent".into(), agent.clone().into());
            let list: Vec<Value> = fetched
                .iter()
                .map(|f| {
                    json!({ "what": f.what, "url": f.url, "status": f.status, "bytes": f.bytes, "note": f.note })
                })
                .collect();
            map.insert("fetched".into(), list.into());
        }
        super::print(&serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?)?;
    } else {
        super::print(&ai_text(&a.url, &agent, &fetched, &answer))?;
    }
    Ok(0)
}

/// The answer for people: what was fetched, each purpose with the entries that decided it, the
/// conditions, then the whole trace.
fn ai_text(url: &str, agent: &str, fetched: &[Fetched], r: &robots_eval::ai_use::AiUse) -> String {
    use robots_eval::aipref::operators::PURPOSES;
    let c = &r.crawler;
    let mut out = vec![format!("{agent} at {url}")];
    let kind = c
        .operator
        .map_or("not in the operator table".to_string(), |o| {
            format!("{o} {}, serves {}", c.kind, labels(&c.purposes))
        });
    out.push(format!(
        "  crawler: {} ({kind}); crawl gate: {}",
        c.token, c.fetch_token
    ));
    for f in fetched {
        let status = f
            .status
            .map_or("no response".to_string(), |s| format!("HTTP {s}"));
        out.push(format!(
            "  fetched {} {}: {status}, {} bytes: {}",
            f.what, f.url, f.bytes, f.note
        ));
    }
    for p in PURPOSES {
        let a = r.answer(p);
        out.push(format!("{}: {}", p.label(), a.answer.as_str()));
        for &i in &a.by {
            if let Some(e) = r.trace.get(i) {
                out.push(format!("  by [{i}] {}", entry(e)));
            }
        }
    }
    if !r.conditions.is_empty() {
        out.push("conditions:".into());
        for k in &r.conditions {
            out.push(format!(
                "  {} = {} ({}, {}; {}): {}",
                k.condition,
                k.value,
                k.signal.as_str(),
                k.at,
                labels(&k.purposes),
                k.note
            ));
        }
    }
    out.push("trace:".into());
    for (i, e) in r.trace.iter().enumerate() {
        out.push(format!("  [{i}] {}", entry(e)));
    }
    out.join("\n")
}

fn labels(purposes: &[robots_eval::aipref::operators::Purpose]) -> String {
    let l: Vec<&str> = purposes.iter().map(|p| p.label()).collect();
    if l.is_empty() {
        "no purpose".into()
    } else {
        l.join(", ")
    }
}

/// One trace entry on one line.
fn entry(e: &robots_eval::ai_use::TraceEntry) -> String {
    let mut s = e.signal.as_str().to_string();
    let at = e.at.to_string();
    if !at.is_empty() {
        s.push_str(&format!(" ({at})"));
    }
    if let Some(scope) = &e.scope {
        s.push_str(&format!(" for {scope}"));
    }
    if let Some(raw) = &e.raw {
        s.push_str(&format!(": {}", raw.replace('\n', " | ")));
    }
    let effects: Vec<String> = e
        .effects()
        .map(|(p, x)| {
            format!(
                "{} {}",
                p.label(),
                if x == robots_eval::ai_use::Effect::Allow {
                    "allow"
                } else {
                    "deny"
                }
            )
        })
        .collect();
    if !effects.is_empty() {
        s.push_str(&format!(" -> {}", effects.join(", ")));
    }
    if let Some(err) = &e.error {
        s.push_str(&format!(" [error: {err}]"));
    }
    if let Some(note) = &e.note {
        s.push_str(&format!(" ({note})"));
    }
    if !e.rules.is_empty() {
        s.push_str(&format!(" [{}]", e.rules.join(", ")));
    }
    s
}
