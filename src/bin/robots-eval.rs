//! `robots-eval`: the native command for site owners and crawler operators. It takes the same
//! commands and flags as the npm package's command (js/cli.mjs) and prints the same output;
//! tests/data/cli-cases.json holds the cases both are tested on, and docs/cli.md documents them.
//!
//! ```text
//! robots-eval check <robots> <url>... --agent A [--agent B] [--dialect D] [--json] [--ai [--header V]...]
//! robots-eval lint  <robots> [--strict] [--json]
//! robots-eval table <robots> (--urls FILE|- | --sitemap FILE|URL) --agent A... [--json|--csv|--markdown]
//! robots-eval diff  <old> <new> (--urls FILE|- | --sitemap FILE|URL) --agent A... [--json]
//! robots-eval test  <robots> <expectations-file>
//! robots-eval batch [--dialect D] [--max-bytes N]   (native only: JSON Lines in, JSON Lines out)
//! ```

use std::io::{self, Write};
use std::process::ExitCode;

use robots_eval::{RuleKind, Severity, Verdict};
use serde::Serialize;

#[path = "robots-eval/ai.rs"]
mod ai;
#[path = "robots-eval/args.rs"]
mod args;
#[path = "robots-eval/batch.rs"]
mod batch;
#[path = "robots-eval/coverage.rs"]
mod coverage;
#[path = "robots-eval/inputs.rs"]
mod inputs;
#[path = "robots-eval/progress.rs"]
mod progress;
#[path = "robots-eval/sitemap.rs"]
mod sitemap;

use args::{Args, Fail};
use inputs::{is_url, resolve, split_lines, File, Inputs};

const NAME: &str = "robots-eval";

/// The help of every command, shared with the npm package's command.
const HELP: &str = include_str!("../../js/cli-help.txt");

/// The help of a command ("" for the overview).
fn help(command: &str) -> String {
    let section = |name: &str| {
        let head = format!("== {name} ==\n");
        let body = HELP.split_once(&head).map_or("", |(_, rest)| rest);
        let end = body.find("\n== ").map_or(body.len(), |i| i + 1);
        body[..end].trim_end_matches('\n')
    };
    let name = if command.is_empty() { "main" } else { command };
    section(name).replace("{common}", section("common"))
}

// ---- answers -----------------------------------------------------------------------------------

/// A verdict as the JSON output has it (the rule as written).
#[derive(Serialize, Clone)]
struct Answer {
    allowed: bool,
    reason: &'static str,
    line: u32,
    rule: Option<String>,
    /// `Reason::words`, for the text output.
    #[serde(skip)]
    because: &'static str,
}

#[derive(Serialize)]
struct Cell<'a> {
    url: &'a str,
    agent: &'a str,
    #[serde(flatten)]
    answer: Answer,
}

/// `A,B` (commas, no space): one crawler's product tokens, the first with a group of its own
/// deciding (docs/records.md); a User-Agent header always has a space.
fn crawler(agent: &str) -> Vec<&str> {
    match agent.contains(',') && !agent.contains(char::is_whitespace) {
        true => agent.split(',').filter(|t| !t.is_empty()).collect(),
        false => vec![agent],
    }
}

fn answer(file: &File, url: &str, agent: &str) -> Answer {
    let tokens = crawler(agent);
    let v: Verdict = file.robots.check(url, file.robots.pick_agent(&tokens));
    let rule = file.robots.deciding_rule(&v).map(|r| {
        let written = file
            .lines
            .as_ref()
            .and_then(|l| l.get((r.line as usize).saturating_sub(1)))
            .map(|t| t.trim_start_matches('\u{feff}').trim())
            .filter(|t| !t.is_empty());
        written.map_or_else(
            || {
                let kind = match r.kind {
                    RuleKind::Allow => "Allow",
                    RuleKind::Disallow => "Disallow",
                };
                format!("{kind}: {}", r.pattern)
            },
            String::from,
        )
    });
    Answer {
        allowed: v.allowed,
        reason: v.reason.as_str(),
        line: file.robots.line_of(&v),
        rule,
        because: v.reason.words(),
    }
}

/// "line 3: Disallow: /x (rule)", "no rule matches (no-match)": the core's words
/// (`Reason::words`). The npm command prints the same (docs/architecture.md, "The two commands").
fn why(a: &Answer) -> String {
    match &a.rule {
        Some(rule) => format!("line {}: {rule} ({})", a.line, a.reason),
        None => format!("{} ({})", a.because, a.reason),
    }
}

fn verdict(a: &Answer) -> &'static str {
    if a.allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// Each URL, then each agent.
fn answers<'a>(file: &File, urls: &'a [String], agents: &'a [String]) -> Vec<Cell<'a>> {
    let mut all = Vec::with_capacity(urls.len() * agents.len());
    for (r, url) in urls.iter().enumerate() {
        all.extend(agents.iter().map(|agent| Cell {
            url,
            agent,
            answer: answer(file, url, agent),
        }));
        step(r + 1, urls.len(), agents.len());
    }
    progress::clear();
    all
}

/// Progress: `done` of `urls` URLs answered for `agents` crawlers.
fn step(done: usize, urls: usize, agents: usize) {
    progress::update(false, || {
        let (n, of) = (
            progress::count(done * agents),
            progress::count(urls * agents),
        );
        format!("answers: {n} of {of}")
    });
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Rows of cells as text columns two spaces apart (the last column unpadded).
fn columns(rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (i, c) in row.iter().enumerate() {
            if widths.len() <= i {
                widths.push(0);
            }
            widths[i] = widths[i].max(width(c));
        }
    }
    let lines: Vec<String> = rows
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if i + 1 == row.len() {
                        c.clone()
                    } else {
                        format!("{c}{}", " ".repeat(widths[i] - width(c)))
                    }
                })
                .collect();
            cells.join("  ")
        })
        .collect();
    lines.join("\n")
}

fn print(s: &str) -> Result<(), Fail> {
    let mut out = io::stdout().lock();
    let done = if s.is_empty() {
        Ok(())
    } else {
        writeln!(out, "{s}")
    };
    match done.and_then(|()| out.flush()) {
        // A closed pipe (| head) ends the output quietly.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("standard output: {e}")),
        _ => Ok(()),
    }
}

fn json(v: &impl Serialize) -> Result<(), Fail> {
    print(&serde_json::to_string_pretty(v).map_err(|e| e.to_string())?)
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

// ---- commands ----------------------------------------------------------------------------------

fn need_agents(a: &Args) -> Result<(), Fail> {
    if a.agents.is_empty() {
        return Err(format!(
            "{} needs --agent A (a product token or a User-Agent header)",
            a.command
        ));
    }
    Ok(())
}

/// The positional arguments `names` are there (and no more, unless `more`).
fn need_positional(a: &Args, names: &[&str], more: bool) -> Result<(), Fail> {
    let n = a.positional.len();
    if n < names.len() {
        return Err(format!("{} needs {}", a.command, names[n..].join(" and ")));
    }
    if n > names.len() && !more {
        return Err(format!(
            "{} takes {}, got {n} arguments",
            a.command,
            names.join(" and ")
        ));
    }
    Ok(())
}

fn check(a: &Args, inputs: &mut Inputs) -> Result<u8, Fail> {
    need_positional(a, &["<robots>", "at least one <url>"], true)?;
    need_agents(a)?;
    let file = inputs.robots(&a.positional[0], &a.options, "<robots>")?;
    let all = answers(&file, &a.positional[1..], &a.agents);
    let ai: Vec<_> = all
        .iter()
        .filter(|_| a.ai)
        .map(|c| ai::ask(&file.robots, c.url, c.agent, &a.headers))
        .collect();
    if a.json && a.ai {
        let cells: Vec<serde_json::Value> = all
            .iter()
            .zip(&ai)
            .map(|(c, p)| {
                let mut cell = serde_json::to_value(c).unwrap_or_default();
                if let Some(cell) = cell.as_object_mut() {
                    cell.extend(ai::fields(&file.robots, p));
                }
                cell
            })
            .collect();
        json(&cells)?;
    } else if a.json {
        json(&all)?;
    } else {
        let rows: Vec<Vec<String>> = all
            .iter()
            .map(|c| {
                vec![
                    verdict(&c.answer).into(),
                    c.agent.into(),
                    c.url.into(),
                    why(&c.answer),
                ]
            })
            .collect();
        let text = columns(&rows);
        if a.ai {
            // Each row, then its preferences.
            let blocks: Vec<String> = text
                .lines()
                .zip(&ai)
                .map(|(row, p)| format!("{row}\n{}", ai::text(&file.robots, p)))
                .collect();
            print(&blocks.join("\n"))?;
        } else {
            print(&text)?;
        }
    }
    Ok(u8::from(all.iter().any(|c| !c.answer.allowed)))
}

#[derive(Serialize)]
struct LintEntry {
    line: u32,
    column: Option<usize>,
    severity: &'static str,
    code: &'static str,
    message: String,
    #[serde(skip)]
    length: usize,
}

fn lint(a: &Args, inputs: &mut Inputs) -> Result<u8, Fail> {
    need_positional(a, &["<robots>"], false)?;
    let file = inputs.robots(&a.positional[0], &a.options, "<robots>")?;
    let text_of = |line: u32| {
        (line > 0)
            .then(|| file.lines.as_ref()?.get(line as usize - 1))
            .flatten()
    };
    let list: Vec<LintEntry> = file
        .robots
        .diagnostics()
        .iter()
        .map(|d| {
            let (column, length) = text_of(d.line)
                .and_then(|t| point_at(d.code.as_str(), d.detail.as_deref(), t))
                .map_or((None, 0), |(c, l)| (Some(c), l));
            LintEntry {
                line: d.line,
                column,
                severity: d.severity.as_str(),
                code: d.code.as_str(),
                message: d.message(),
                length,
            }
        })
        .collect();
    let count = |s: Severity| list.iter().filter(|d| d.severity == s.as_str()).count();
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    if a.json {
        json(&list)?;
    } else {
        let mut out = Vec::new();
        for d in &list {
            let col = d.column.map(|c| format!(":{c}")).unwrap_or_default();
            out.push(format!(
                "{}:{}{col}: {}: {} [{}]",
                file.name, d.line, d.severity, d.message, d.code
            ));
            let Some(text) = text_of(d.line) else {
                continue;
            };
            let gutter = d.line.to_string();
            out.push(format!("  {gutter} | {text}"));
            if let Some(column) = d.column {
                out.push(format!(
                    "  {} | {}",
                    " ".repeat(gutter.len()),
                    caret(text, column, d.length)
                ));
            }
        }
        out.push(format!(
            "{}, {}, {} ({})",
            plural(errors, "error"),
            plural(warnings, "warning"),
            plural(infos, "note"),
            a.options.dialect.name()
        ));
        print(&out.join("\n"))?;
    }
    Ok(u8::from(errors > 0 || (a.strict && warnings > 0)))
}

/// Where on its line a diagnostic points, (column, length) in characters, column 1-based; None
/// when a caret would not help. For a missing colon, just after the field name; otherwise what
/// the diagnostic is about (its detail: a field name, a token, a pattern), or the detail's first
/// word, where the line contains it.
fn point_at(code: &str, detail: Option<&str>, text: &str) -> Option<(usize, usize)> {
    if code.starts_with("missing-colon") {
        let blank = [' ', '\t'];
        let start = text.len() - text.trim_start_matches(blank).len();
        let end = text[start..].find(blank).map_or(text.len(), |i| start + i);
        return (end > start).then(|| (width(&text[..end]) + 1, 1));
    }
    let detail = detail?;
    [Some(detail), detail.split(' ').next()]
        .into_iter()
        .flatten()
        .filter(|w| !w.is_empty())
        .find_map(|w| text.find(w).map(|at| (width(&text[..at]) + 1, width(w))))
}

/// Spaces (tabs kept, so it lines up) up to the column, then ^~~~ under `length` characters.
fn caret(text: &str, column: usize, length: usize) -> String {
    let before: String = text
        .chars()
        .take(column - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    format!("{before}^{}", "~".repeat(length.saturating_sub(1)))
}

fn table(a: &Args, inputs: &mut Inputs) -> Result<u8, Fail> {
    need_positional(a, &["<robots>"], false)?;
    need_agents(a)?;
    let urls = inputs.urls(a)?;
    let file = inputs.robots(&a.positional[0], &a.options, "<robots>")?;
    let all = answers(&file, &urls, &a.agents);
    if a.json {
        json(&all)?;
        return Ok(0);
    }
    if a.csv {
        let q = |v: &str| {
            if v.contains(['"', ',', '\r', '\n']) {
                format!("\"{}\"", v.replace('"', "\"\""))
            } else {
                v.to_string()
            }
        };
        let mut out = String::from("url,agent,allowed,reason,line,rule\r\n");
        for c in &all {
            let row = [
                q(c.url),
                q(c.agent),
                c.answer.allowed.to_string(),
                c.answer.reason.to_string(),
                c.answer.line.to_string(),
                q(c.answer.rule.as_deref().unwrap_or("")),
            ];
            out.push_str(&row.join(","));
            out.push_str("\r\n");
        }
        let mut stdout = io::stdout().lock();
        let _ = stdout
            .write_all(out.as_bytes())
            .and_then(|()| stdout.flush());
        return Ok(0);
    }
    let grid = all.chunks(a.agents.len());
    if a.markdown {
        let esc = |s: &str| s.replace('|', "\\|");
        let cell = |c: &Cell| {
            let mark = if c.answer.allowed {
                "✓ allowed"
            } else {
                "✗ disallowed"
            };
            match c.answer.line {
                0 => mark.to_string(),
                n => format!("{mark} (line {n})"),
            }
        };
        let agents: Vec<String> = a.agents.iter().map(|s| esc(s)).collect();
        let mut out = vec![
            format!("| URL | {} |", agents.join(" | ")),
            format!("|---|{}|", vec!["---"; agents.len()].join("|")),
        ];
        for (url, row) in urls.iter().zip(grid) {
            let cells: Vec<String> = row.iter().map(cell).collect();
            out.push(format!("| {} | {} |", esc(url), cells.join(" | ")));
        }
        print(&out.join("\n"))?;
        return Ok(0);
    }
    let mut rows = vec![std::iter::once("URL".to_string())
        .chain(a.agents.iter().cloned())
        .collect::<Vec<_>>()];
    for (url, row) in urls.iter().zip(grid) {
        let mut r = vec![url.clone()];
        r.extend(row.iter().map(|c| match c.answer.line {
            0 => verdict(&c.answer).to_string(),
            n => format!("{} (line {n})", verdict(&c.answer)),
        }));
        rows.push(r);
    }
    print(&columns(&rows))?;
    Ok(0)
}

#[derive(Serialize)]
struct Change<'a> {
    url: &'a str,
    agent: &'a str,
    before: Answer,
    after: Answer,
}

#[derive(Serialize)]
struct Diff<'a> {
    changes: Vec<Change<'a>>,
    unchanged: usize,
}

fn diff(a: &Args, inputs: &mut Inputs) -> Result<u8, Fail> {
    need_positional(a, &["<old>", "<new>"], false)?;
    need_agents(a)?;
    let urls = inputs.urls(a)?;
    let before = inputs.robots(&a.positional[0], &a.options, "<old>")?;
    let after = inputs.robots(&a.positional[1], &a.options, "<new>")?;
    let mut d = Diff {
        changes: Vec::new(),
        unchanged: 0,
    };
    for (r, url) in urls.iter().enumerate() {
        step(r, urls.len(), a.agents.len());
        for agent in &a.agents {
            let b = answer(&before, url, agent);
            let n = answer(&after, url, agent);
            if b.allowed == n.allowed {
                d.unchanged += 1;
            } else {
                d.changes.push(Change {
                    url,
                    agent,
                    before: b,
                    after: n,
                });
            }
        }
    }
    if a.json {
        json(&d)?;
    } else {
        let mut out = Vec::new();
        for c in &d.changes {
            out.push(format!(
                "{}  {}: {} -> {}",
                c.url,
                c.agent,
                verdict(&c.before),
                verdict(&c.after)
            ));
            out.push(format!("    before: {}", why(&c.before)));
            out.push(format!("    after:  {}", why(&c.after)));
        }
        let closed = d.changes.iter().filter(|c| !c.after.allowed).count();
        let total = d.changes.len() + d.unchanged;
        out.push(format!(
            "{} of {} changed ({closed} now disallowed, {} now allowed), {} unchanged",
            d.changes.len(),
            plural(total, "answer"),
            d.changes.len() - closed,
            d.unchanged
        ));
        print(&out.join("\n"))?;
    }
    Ok(u8::from(!d.changes.is_empty()))
}

/// How many of the blocked URLs of a rule the text output lists (--json lists them all).
const BLOCKED_SHOWN: usize = 10;

fn coverage_command(a: &Args, inputs: &mut Inputs) -> Result<u8, Fail> {
    need_positional(a, &["<robots>"], false)?;
    need_agents(a)?;
    let urls = inputs.urls(a)?;
    let file = inputs.robots(&a.positional[0], &a.options, "<robots>")?;
    let tokens: Vec<Vec<&str>> = a.agents.iter().map(|agent| crawler(agent)).collect();
    let c = coverage::coverage(&file.robots, &urls, &tokens, &a.agents, |done| {
        step(done, urls.len(), a.agents.len())
    });
    progress::clear();
    if a.json {
        json(&c)?;
        return Ok(0);
    }
    let count = progress::count;
    let plural =
        |n: usize, word: &str| format!("{} {word}{}", count(n), if n == 1 { "" } else { "s" });
    let who = |r: &coverage::Rule| {
        let each: Vec<String> = r
            .agents
            .iter()
            .map(|(name, n)| format!("{name} {}", count(*n)))
            .collect();
        each.join(", ")
    };
    let mut out = vec![format!(
        "{} × {} = {} ({})",
        plural(c.urls, "URL"),
        plural(c.agents.len(), "crawler"),
        plural(c.answers, "answer"),
        a.options.dialect.name()
    )];
    let mut rows = vec![["line", "rule", "allowed", "disallowed", "crawlers"]
        .map(String::from)
        .to_vec()];
    for r in &c.rules {
        rows.push(vec![
            r.line.to_string(),
            r.rule.clone(),
            count(r.allowed),
            count(r.disallowed),
            who(r),
        ]);
    }
    rows.push(vec![
        String::new(),
        "no rule".into(),
        count(c.no_rule.allowed as usize),
        count(c.no_rule.disallowed as usize),
        String::new(),
    ]);
    out.push(
        columns(&rows)
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let idle: Vec<&coverage::Rule> = c.rules.iter().filter(|r| r.status != "decides").collect();
    if !idle.is_empty() {
        let one = idle.len() == 1;
        out.push(format!(
            "{} {} nothing for these URLs and crawlers (delete {}, or add the URLs {} for):",
            plural(idle.len(), "rule"),
            if one { "decides" } else { "decide" },
            if one { "it" } else { "them" },
            if one { "it is" } else { "they are" }
        ));
        let rows: Vec<Vec<String>> = idle
            .iter()
            .map(|r| {
                let what = match r.status {
                    "shadowed" => format!(
                        "shadowed: matches {}, another rule decides",
                        plural(r.matched, "URL")
                    ),
                    _ => "matches none of the URLs".to_string(),
                };
                vec![format!("  line {}", r.line), r.rule.clone(), what]
            })
            .collect();
        out.push(columns(&rows));
    } else if !c.rules.is_empty() {
        out.push("Every rule decides at least one answer.".into());
    }
    if c.other_groups > 0 {
        out.push(format!(
            "{} in groups none of these crawlers obeys {} not counted.",
            plural(c.other_groups, "rule"),
            if c.other_groups == 1 { "is" } else { "are" }
        ));
    }
    for r in c.rules.iter().filter(|r| r.disallowed > 0) {
        out.push(format!(
            "Blocked by line {}: {} ({})",
            r.line,
            r.rule,
            plural(r.urls.len(), "URL")
        ));
        out.extend(r.urls.iter().take(BLOCKED_SHOWN).map(|u| format!("  {u}")));
        if r.urls.len() > BLOCKED_SHOWN {
            out.push(format!(
                "  … and {} more (--json lists them all)",
                count(r.urls.len() - BLOCKED_SHOWN)
            ));
        }
    }
    print(&out.join("\n"))?;
    Ok(0)
}

fn test(a: &Args, inputs: &mut Inputs) -> Result<u8, Fail> {
    need_positional(a, &["<robots>", "<expectations-file>"], false)?;
    let expect_arg = &a.positional[1];
    let expect_name = if expect_arg == "-" {
        "<stdin>"
    } else {
        expect_arg
    };
    let lines = split_lines(&inputs.read(expect_arg, "<expectations-file>")?);
    let mut expectations = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "{expect_name}:{}: expected \"allow|disallow <agent> <url-or-path>\", got {line:?}",
                i + 1
            )
        };
        // A line of our own small format (verb, agent with spaces, URL), read by hand as the npm
        // command reads it with one regular expression.
        let (verb, rest) = line.split_once(char::is_whitespace).ok_or_else(bad)?;
        let (agent, url) = rest
            .trim_start()
            .rsplit_once(char::is_whitespace)
            .ok_or_else(bad)?;
        let allowed = match verb.to_ascii_lowercase().as_str() {
            "allow" => true,
            "disallow" => false,
            _ => return Err(bad()),
        };
        expectations.push((i + 1, line.to_string(), allowed, agent.trim_end(), url));
    }
    let file = inputs.robots(&a.positional[0], &a.options, "<robots>")?;
    let mut out = Vec::new();
    let mut failed = 0;
    for (at, text, allowed, agent, url) in &expectations {
        let got = answer(&file, url, agent);
        if got.allowed == *allowed {
            continue;
        }
        failed += 1;
        out.push(format!("FAIL {expect_name}:{at}: {text}"));
        out.push(format!("    but {}: {}", verdict(&got), why(&got)));
    }
    out.push(format!(
        "{}, {} passed, {failed} failed",
        plural(expectations.len(), "expectation"),
        expectations.len() - failed
    ));
    print(&out.join("\n"))?;
    Ok(u8::from(failed > 0))
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // `ai` reads its own arguments (src/bin/robots-eval/ai.rs).
    if argv.first().is_some_and(|c| c == "ai") {
        return ai::main(&argv[1..]);
    }
    let result = args::parse(&argv).and_then(|a| {
        if a.command == "version" {
            print(&format!("{NAME} {}", env!("CARGO_PKG_VERSION")))?;
            return Ok(0);
        }
        if a.help {
            print(&help(&a.command))?;
            return Ok(0);
        }
        let mut inputs = Inputs::new();
        if matches!(a.command.as_str(), "table" | "diff" | "coverage") {
            progress::enable();
        }
        match a.command.as_str() {
            "coverage" => coverage_command(&a, &mut inputs),
            "check" => check(&a, &mut inputs),
            "lint" => lint(&a, &mut inputs),
            "table" => table(&a, &mut inputs),
            "diff" => diff(&a, &mut inputs),
            "test" => test(&a, &mut inputs),
            _ => batch::batch(&a),
        }
    });
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            progress::clear();
            eprintln!("{NAME}: {e}");
            ExitCode::from(2)
        }
    }
}
