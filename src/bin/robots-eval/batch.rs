//! `robots-eval batch` (native only): JSON Lines in, JSON Lines out, the conformance runners'
//! interface. One file parsed per distinct input, reparsed in place (`Robots::reparse`).

use std::io::{self, BufRead, BufWriter, Write};

use base64::Engine;
use robots_eval::{DialectId, Options, Robots};

use crate::ai;
use crate::args::{Args, Fail};

pub(crate) fn batch(args: &Args) -> Result<u8, Fail> {
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    // Conformance sets ask many questions of one file: the last file parsed and what it was parsed
    // from are kept, and a new file is parsed into the same value (`Robots::reparse`).
    let mut cache: (Option<(Vec<u8>, DialectId)>, Robots) = (None, Robots::default());
    let mut failed = false;
    for (n, line) in stdin.lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = batch_answer(&line, args, &mut cache);
        match answer {
            Ok(json) => writeln!(out, "{json}"),
            Err(e) => {
                failed = true;
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "error": format!("input line {}: {e}", n + 1) })
                )
            }
        }
        .map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(u8::from(failed))
}

fn batch_answer(
    line: &str,
    args: &Args,
    cache: &mut (Option<(Vec<u8>, DialectId)>, Robots),
) -> Result<serde_json::Value, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let field = |k: &str| v.get(k).and_then(|s| s.as_str());
    let robots = match (field("robots"), field("robots_b64")) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(b64)) => base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| format!("robots_b64: {e}"))?,
        (None, None) => return Err("needs \"robots\" or \"robots_b64\"".into()),
    };
    let agent = field("agent").ok_or("needs \"agent\"")?;
    let url = field("url").ok_or("needs \"url\"")?;
    let dialect = match field("dialect") {
        Some(name) => {
            DialectId::from_name(name).ok_or_else(|| format!("unknown dialect {name:?}"))?
        }
        None => args.options.dialect,
    };
    let (key, parsed) = cache;
    if !matches!(key, Some((bytes, d)) if *bytes == robots && *d == dialect) {
        parsed.reparse(
            &robots,
            &Options {
                dialect,
                ..args.options
            },
        );
        *key = Some((robots, dialect));
    }
    let verdict = parsed.check(url, agent);
    let mut answer = serde_json::json!({ "allowed": verdict.allowed, "line": parsed.line_of(&verdict), "reason": verdict.reason.as_str() });
    if v.get("ai").and_then(serde_json::Value::as_bool) == Some(true) {
        let headers = ai::header_lines(v.get("header"))?;
        let p = ai::ask(parsed, url, agent, &headers);
        if let Some(answer) = answer.as_object_mut() {
            answer.extend(ai::fields(parsed, &p));
        }
    }
    Ok(answer)
}
