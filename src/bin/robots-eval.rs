//! `robots-eval`: the native command-line tool for site owners and crawler operators.
//!
//! ```text
//! robots-eval check FILE|- --agent A [--dialect D] [--max-bytes N] URL...
//! robots-eval lint FILE|- [--dialect D] [--max-bytes N]
//! robots-eval batch [--dialect D] [--max-bytes N]      (JSON Lines on stdin -> JSON Lines on stdout)
//! ```

use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;

use base64::Engine;
use robots_eval::{DialectId, Options, Robots, Severity};

const USAGE: &str = "usage:
  robots-eval check FILE|- --agent AGENT [--dialect D] [--max-bytes N] URL...
      one line per URL: allowed|disallowed, the deciding line and the reason
  robots-eval lint FILE|- [--dialect D] [--max-bytes N]
      the diagnostics, one per line; exit status 1 when there are errors
  robots-eval batch [--dialect D] [--max-bytes N]
      reads JSON Lines {\"robots\": \"...\" | \"robots_b64\": \"...\", \"agent\": \"...\", \"url\": \"...\", \"dialect\"?: \"...\"}
      writes one JSON line per input: {\"allowed\": true|false, \"line\": N, \"reason\": \"...\"}
dialects: rfc9309 (default), google, draft1996, original1994, revisited";

struct Args {
    command: String,
    file: Option<String>,
    agent: Option<String>,
    options: Options,
    urls: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it.next().ok_or("missing command")?;
    if command == "-h" || command == "--help" || command == "help" {
        return Err(String::new());
    }
    let mut args = Args {
        command,
        file: None,
        agent: None,
        options: Options::default(),
        urls: Vec::new(),
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--agent" | "-a" => args.agent = Some(it.next().ok_or("--agent needs a value")?),
            "--dialect" | "-d" => {
                let name = it.next().ok_or("--dialect needs a value")?;
                args.options.dialect = DialectId::from_name(&name)
                    .ok_or_else(|| format!("unknown dialect {name:?}"))?;
            }
            "--max-bytes" => {
                let n = it.next().ok_or("--max-bytes needs a value")?;
                args.options.max_bytes = n
                    .parse()
                    .map_err(|_| format!("--max-bytes: not a number: {n:?}"))?;
            }
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ if args.file.is_none() && args.command != "batch" => args.file = Some(a),
            _ => args.urls.push(a),
        }
    }
    Ok(args)
}

fn read_input(file: &str) -> io::Result<Vec<u8>> {
    if file == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file)
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("robots-eval: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match args.command.as_str() {
        "check" => check(&args),
        "lint" => lint(&args),
        "batch" => batch(&args),
        other => Err(format!("unknown command {other:?}")),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("robots-eval: {e}");
            ExitCode::from(2)
        }
    }
}

fn load(args: &Args) -> Result<Robots, String> {
    let file = args
        .file
        .as_deref()
        .ok_or("missing FILE (or - for standard input)")?;
    let bytes = read_input(file).map_err(|e| format!("{file}: {e}"))?;
    Ok(Robots::parse_with(&bytes, &args.options))
}

fn check(args: &Args) -> Result<ExitCode, String> {
    let robots = load(args)?;
    let agent = args.agent.as_deref().ok_or("missing --agent")?;
    if args.urls.is_empty() {
        return Err("no URL given".into());
    }
    let mut out = BufWriter::new(io::stdout().lock());
    for url in &args.urls {
        let v = robots.check(url, agent);
        let verdict = if v.allowed { "allowed" } else { "disallowed" };
        let why = match robots.deciding_rule(&v) {
            Some(r) => format!(
                "line {}: {}: {} ({})",
                r.line,
                capitalised(r.kind.as_str()),
                r.pattern,
                v.reason.as_str()
            ),
            None => format!("line 0 ({})", v.reason.as_str()),
        };
        let groups: Vec<String> = robots
            .selected_groups(v.selection)
            .map(|g| format!("line {}", g.line()))
            .collect();
        let group = if groups.is_empty() {
            String::from("no group")
        } else {
            format!("group at {}", groups.join(", "))
        };
        writeln!(out, "{verdict}\t{url}\t{why}; {group}").map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn lint(args: &Args) -> Result<ExitCode, String> {
    let robots = load(args)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut errors = 0;
    for d in robots.diagnostics() {
        if d.severity == Severity::Error {
            errors += 1;
        }
        writeln!(
            out,
            "{}:{}: {} [{}] {}",
            args.file.as_deref().unwrap_or("-"),
            d.line,
            d.severity.as_str(),
            d.code.as_str(),
            d.message()
        )
        .map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    eprintln!(
        "{} diagnostics, {errors} errors ({} dialect)",
        robots.diagnostics().len(),
        args.options.dialect.name()
    );
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn batch(args: &Args) -> Result<ExitCode, String> {
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
        let answer = answer(&line, args, &mut cache);
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
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn answer(
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
    Ok(
        serde_json::json!({ "allowed": verdict.allowed, "line": parsed.line_of(&verdict), "reason": verdict.reason.as_str() }),
    )
}
