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

use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use robots_eval::fetch::{self, FetchContext, FetchOutcome, Policy};
use robots_eval::{DialectId, Options, Robots, RuleKind, Severity, Verdict};
use serde::Serialize;

#[path = "robots-eval/ai.rs"]
mod ai;
#[path = "robots-eval/args.rs"]
mod args;
#[path = "robots-eval/coverage.rs"]
mod coverage;
#[path = "robots-eval/progress.rs"]
mod progress;
#[path = "robots-eval/sitemap.rs"]
mod sitemap;

use args::{Args, Fail};

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

// ---- inputs ------------------------------------------------------------------------------------

fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Reads files and standard input (which only one argument may name), fetches URLs.
struct Inputs {
    stdin_taken: Option<&'static str>,
    http: ureq::Agent,
}

/// A parsed robots.txt with its lines, for quoting rules as written.
struct File {
    robots: Robots,
    lines: Option<Vec<String>>,
    name: String,
    /// When it was fetched: the final status and the fetch policy's decision.
    fetched: Option<(u16, fetch::Decision)>,
}

/// What a fetch taken as disallow-all (or deferred) is parsed as: the rules `fetchRobots` builds.
const DISALLOW_ALL: &[u8] = b"User-agent: *\nDisallow: /\n";

/// A robots.txt fetch must be over within this (`fetchRobots`'s default).
const ROBOTS_TIMEOUT: Duration = Duration::from_secs(10);
/// A sitemap's fetch must be over within this.
const SITEMAP_TIMEOUT: Duration = Duration::from_secs(30);
use sitemap::SITEMAP_MAX;

impl Inputs {
    fn new() -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .build();
        Inputs {
            stdin_taken: None,
            http: config.into(),
        }
    }

    fn read(&mut self, path: &str, what: &'static str) -> Result<Vec<u8>, Fail> {
        if path == "-" {
            if let Some(other) = self.stdin_taken {
                return Err(format!("{what} and {other} cannot both be standard input"));
            }
            self.stdin_taken = Some(what);
            let mut buf = Vec::new();
            io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| format!("{what}: cannot read standard input: {e}"))?;
            return Ok(buf);
        }
        std::fs::read(path).map_err(|e| {
            let why = match e.kind() {
                io::ErrorKind::NotFound => "no such file".to_string(),
                io::ErrorKind::IsADirectory => "is a directory".to_string(),
                _ => e.to_string(),
            };
            format!("{what}: cannot read {path}: {why}")
        })
    }

    /// One GET without following redirects: (status, Location, the first `cap` bytes of a 2xx
    /// body).
    fn get(
        &self,
        url: &str,
        cap: u64,
        timeout: Duration,
    ) -> Result<(u16, Option<String>, Vec<u8>), String> {
        let request = self.http.get(url).config().timeout_global(Some(timeout));
        let mut res = request.build().call().map_err(|e| e.to_string())?;
        let status = res.status().as_u16();
        let location = res
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        let mut body = Vec::new();
        if (200..300).contains(&status) {
            let reader = res.body_mut().with_config().limit(u64::MAX).reader();
            reader
                .take(cap)
                .read_to_end(&mut body)
                .map_err(|e| e.to_string())?;
        }
        Ok((status, location, body))
    }

    /// A URL's body (sitemaps), following redirects; exit 2 when it cannot be had.
    fn fetch_bytes(&self, url: &str, what: &str) -> Result<Vec<u8>, Fail> {
        let mut current = url.to_string();
        for _ in 0..=20 {
            let (status, location, body) = self
                .get(&current, SITEMAP_MAX as u64 + 1, SITEMAP_TIMEOUT)
                .map_err(|e| format!("fetch failed: {url}: {e}"))?;
            match (status, location) {
                (300..=399, Some(next)) => current = resolve(&current, &next),
                (200..=299, _) => {
                    progress::note(&format!(
                        "fetched {url}: HTTP {status}, {} bytes ({what})",
                        body.len()
                    ));
                    return Ok(body);
                }
                _ => return Err(format!("fetch failed: {url}: HTTP {status}")),
            }
        }
        Err(format!("fetch failed: {url}: too many redirects"))
    }

    /// A robots.txt: a file, `-`, or the robots.txt of a URL's site, fetched as `fetchRobots`
    /// does (redirects and failures decided by the core's fetch policy for the dialect).
    fn robots(&mut self, arg: &str, options: &Options, what: &'static str) -> Result<File, Fail> {
        if !is_url(arg) {
            let bytes = self.read(arg, what)?;
            let name = if arg == "-" { "<stdin>" } else { arg };
            return Ok(File {
                robots: Robots::parse_with(&bytes, options),
                lines: Some(split_lines(&bytes)),
                name: name.to_string(),
                fetched: None,
            });
        }
        // Only the origin matters: the site's /robots.txt is fetched.
        let robots_url = resolve(arg, "/robots.txt");
        let valid = ureq::http::Uri::try_from(&robots_url)
            .is_ok_and(|u| u.host().is_some_and(|h| !h.is_empty()));
        if !valid {
            return Err(format!("{what}: not a valid URL: {arg:?}"));
        }
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let mut current = robots_url.clone();
        let mut redirects = 0u8;
        let (status, body, decision) = loop {
            let ctx = FetchContext {
                now_ms,
                redirects_followed: redirects,
                ..FetchContext::default()
            };
            // One byte more than the cap, so the parser sees the file was longer (`truncated`).
            let cap = (options.max_bytes as u64).saturating_add(1);
            let (status, location, body) = match self.get(&current, cap, ROBOTS_TIMEOUT) {
                Ok(got) => got,
                Err(e) => return Err(format!("fetch failed: {current}: {e}")),
            };
            let outcome = FetchOutcome::Status(status);
            if (300..400).contains(&status) {
                let next = location
                    .map(|l| resolve(&current, &l))
                    .filter(|n| is_url(n));
                let Some(next) = next else {
                    return Err(format!(
                        "fetch failed: {current}: HTTP {status} without a usable Location"
                    ));
                };
                let decision = fetch::decide(options.dialect, &outcome, &ctx);
                if decision.policy == Policy::FollowRedirect {
                    current = next;
                    redirects += 1;
                    continue;
                }
                break (status, body, decision);
            }
            break (status, body, fetch::decide(options.dialect, &outcome, &ctx));
        };
        let (treated_as, text): (&str, &[u8]) = match decision.policy {
            Policy::Parse { .. } => ("parse", &body),
            Policy::AllowAll => ("allow-all", b""),
            _ => ("disallow-all", DISALLOW_ALL),
        };
        let via = match redirects {
            0 => String::new(),
            1 => format!(" after 1 redirect to {current}"),
            n => format!(" after {n} redirects to {current}"),
        };
        progress::note(&format!(
            "fetched {robots_url}: HTTP {status}{via}: {treated_as} ({})",
            decision.reason
        ));
        Ok(File {
            robots: Robots::parse_with(text, options),
            lines: (treated_as == "parse").then(|| split_lines(&body)),
            name: robots_url,
            fetched: Some((status, decision)),
        })
    }

    /// The URLs of --urls or --sitemap.
    fn urls(&mut self, a: &Args) -> Result<Vec<String>, Fail> {
        match (&a.urls, &a.sitemap) {
            (Some(path), None) => {
                let bytes = self.read(path, "--urls")?;
                Ok(split_lines(&bytes)
                    .iter()
                    .map(|l| l.trim())
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(String::from)
                    .collect())
            }
            (None, Some(sitemap)) => {
                let mut urls = Vec::new();
                let mut seen = Vec::new();
                self.sitemap(sitemap, 0, &mut urls, &mut seen)?;
                progress::clear();
                Ok(urls)
            }
            _ => Err(format!(
                "{} needs one of --urls FILE|- and --sitemap FILE|URL",
                a.command
            )),
        }
    }

    fn sitemap(
        &mut self,
        at: &str,
        depth: u8,
        urls: &mut Vec<String>,
        seen: &mut Vec<String>,
    ) -> Result<(), Fail> {
        if seen.iter().any(|s| s == at) {
            return Ok(());
        }
        seen.push(at.to_string());
        let bytes = if is_url(at) {
            self.fetch_bytes(at, "sitemap")?
        } else {
            self.read(at, "--sitemap")?
        };
        let (index, locs) = sitemap::locs(bytes, at)?;
        if !index {
            urls.extend(locs);
            progress::update(true, || {
                let (n, u) = (progress::count(seen.len()), progress::count(urls.len()));
                format!("sitemaps: {n} read, {u} URLs")
            });
        } else if depth > 0 {
            return Err(format!(
                "--sitemap: {at}: a sitemap index inside a sitemap index"
            ));
        } else {
            for loc in locs {
                self.sitemap(&loc, depth + 1, urls, seen)?;
            }
        }
        Ok(())
    }
}

/// `reference` resolved against `base` (an absolute http(s) URL): enough for Location headers
/// and a site's /robots.txt.
/// (Hand-written: ureq resolves no relative references, and a URL crate would add its whole
/// WHATWG parser to the binary for a Location header and a site's /robots.txt; dot segments are
/// left to the server.)
fn resolve(base: &str, reference: &str) -> String {
    if is_url(reference) {
        return reference.to_string();
    }
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let origin_end = base[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(base.len(), |i| scheme_end + i);
    if let Some(rest) = reference.strip_prefix("//") {
        return format!("{}{rest}", &base[..scheme_end]);
    }
    if reference.starts_with('/') {
        return format!("{}{reference}", &base[..origin_end]);
    }
    let path = &base[origin_end..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    format!("{}{dir}{reference}", &base[..origin_end])
}

/// (Hand-written, as in js/cli.mjs: the lines must be numbered exactly as the core numbers them.)
/// The file's lines as the core numbers them (LF, CR and CRLF each end one), as they are shown:
/// cut at a NUL (the core reads no further), other control characters but tab as U+FFFD.
fn split_lines(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let shown = |line: &str| -> String {
        let line = line.split('\0').next().unwrap_or_default();
        line.chars()
            .map(|c| match c {
                '\u{1}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => '\u{fffd}',
                c => c,
            })
            .collect()
    };
    let mut lines = Vec::new();
    let mut rest: &str = &text;
    while let Some(i) = rest.find(['\r', '\n']) {
        lines.push(shown(&rest[..i]));
        let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + skip..];
    }
    lines.push(shown(rest));
    lines
}

// ---- answers -----------------------------------------------------------------------------------

/// A verdict as the JSON output has it (the rule as written).
#[derive(Serialize, Clone)]
struct Answer {
    allowed: bool,
    reason: &'static str,
    line: u32,
    rule: Option<String>,
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
    }
}

/// "line 3: Disallow: /x (rule)", "no rule matches (no-match)".
fn why(a: &Answer) -> String {
    let what = match (&a.rule, a.reason) {
        (Some(rule), _) => format!("line {}: {rule}", a.line),
        (None, "no-match") => "no rule matches".into(),
        (None, "no-group") => "no group applies".into(),
        (None, "robots-txt") => "/robots.txt is always allowed".into(),
        (None, other) => other.into(),
    };
    format!("{what} ({})", a.reason)
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
    let c = coverage::coverage(
        &file.robots,
        file.lines.as_deref(),
        &urls,
        &tokens,
        &a.agents,
        |done| step(done, urls.len(), a.agents.len()),
    );
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
        count(c.no_rule.allowed),
        count(c.no_rule.disallowed),
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
            _ => batch(&a),
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

// ---- batch (native only: the conformance runners' interface) -----------------------------------

fn batch(args: &Args) -> Result<u8, Fail> {
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
