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

/// A usage or input error: one line on stderr, exit status 2.
type Fail = String;

// ---- arguments ---------------------------------------------------------------------------------

#[derive(Default)]
struct Args {
    command: String,
    positional: Vec<String>,
    agents: Vec<String>,
    options: Options,
    json: bool,
    csv: bool,
    markdown: bool,
    strict: bool,
    help: bool,
    urls: Option<String>,
    sitemap: Option<String>,
    /// `check --ai`: the AI usage preferences too; `--header`: Content-Usage field lines.
    ai: bool,
    headers: Vec<String>,
}

/// The options each command takes (besides --dialect, --max-bytes and --help).
fn allowed(command: &str) -> Option<&'static [&'static str]> {
    Some(match command {
        "check" => &["json", "agent", "ai", "header"],
        "lint" => &["json", "strict"],
        "table" => &["json", "csv", "markdown", "agent", "urls", "sitemap"],
        "diff" => &["json", "agent", "urls", "sitemap"],
        "test" | "batch" => &[],
        _ => return None,
    })
}

fn parse_args(argv: &[String]) -> Result<Args, Fail> {
    let mut a = Args::default();
    let Some((command, rest)) = argv.split_first() else {
        return Err("missing command (robots-eval --help lists the commands)".into());
    };
    match command.as_str() {
        "--help" | "-h" | "help" => {
            a.help = true;
            return Ok(a);
        }
        "--version" | "-V" => {
            a.command = "version".into();
            return Ok(a);
        }
        _ => {}
    }
    let takes = allowed(command).ok_or_else(|| {
        format!("unknown command {command:?} (commands: check, lint, table, diff, test)")
    })?;
    a.command = command.clone();
    let mut dialect = String::from("rfc9309");
    let mut max_bytes = None;
    let mut used = Vec::new();
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if arg.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--json" | "--csv" | "--markdown" | "--strict" | "--ai" | "--help" | "-h"
                if inline.is_none() =>
            {
                match flag {
                    "--json" => a.json = true,
                    "--ai" => a.ai = true,
                    "--csv" => a.csv = true,
                    "--markdown" => a.markdown = true,
                    "--strict" => a.strict = true,
                    _ => a.help = true,
                }
                used.push(flag.trim_start_matches('-'));
            }
            "--agent" | "-a" => {
                a.agents.push(value()?);
                used.push("agent");
            }
            "--header" => {
                a.headers.push(value()?);
                used.push("header");
            }
            "--dialect" | "-d" => dialect = value()?,
            "--urls" => {
                a.urls = Some(value()?);
                used.push("urls");
            }
            "--sitemap" => {
                a.sitemap = Some(value()?);
                used.push("sitemap");
            }
            "--max-bytes" => max_bytes = Some(value()?),
            _ if arg.starts_with('-') && arg != "-" => {
                return Err(format!(
                    "unknown option {flag} (robots-eval {command} --help lists the options)"
                ))
            }
            _ => a.positional.push(arg.clone()),
        }
    }
    if a.help {
        return Ok(a);
    }
    if let Some(key) = used
        .iter()
        .find(|k| **k != "help" && **k != "h" && !takes.contains(k))
    {
        return Err(format!("{command} takes no --{key}"));
    }
    a.options.dialect = DialectId::from_name(&dialect.to_ascii_lowercase()).ok_or_else(|| {
        format!("unknown dialect {dialect:?} (dialects: rfc9309, google, draft1996, original1994, revisited)")
    })?;
    if let Some(n) = max_bytes {
        // At most 2^53 - 1, as the npm command (a JavaScript integer).
        a.options.max_bytes = n
            .parse::<u64>()
            .ok()
            .filter(|&v| n.bytes().all(|b| b.is_ascii_digit()) && v < 1 << 53)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("--max-bytes: not a number of bytes: {n:?}"))?;
    }
    if !a.headers.is_empty() && !a.ai {
        return Err("--header needs --ai".into());
    }
    if [a.json, a.csv, a.markdown].iter().filter(|b| **b).count() > 1 {
        return Err("choose one of --json, --csv and --markdown".into());
    }
    Ok(a)
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
/// The sitemap protocol's limit: 50 MB (52,428,800 bytes), uncompressed. Larger sitemaps (and gzip
/// bombs) are an input error.
const SITEMAP_MAX: usize = 52_428_800;

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
                    eprintln!(
                        "{NAME}: fetched {url}: HTTP {status}, {} bytes ({what})",
                        body.len()
                    );
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
        eprintln!(
            "{NAME}: fetched {robots_url}: HTTP {status}{via}: {treated_as} ({})",
            decision.reason
        );
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
        let (index, locs) = sitemap_locs(bytes, at)?;
        if !index {
            urls.extend(locs);
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

/// The `<loc>` values of a sitemap or sitemap index (XML, gzipped or not), and whether it is an
/// index.
fn sitemap_locs(mut bytes: Vec<u8>, at: &str) -> Result<(bool, Vec<String>), Fail> {
    let too_large =
        || format!("--sitemap: {at}: larger than 52,428,800 bytes, the sitemap protocol's limit");
    if bytes.len() > SITEMAP_MAX {
        return Err(too_large());
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .take(SITEMAP_MAX as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| format!("--sitemap: {at}: not valid gzip ({e})"))?;
        if out.len() > SITEMAP_MAX {
            return Err(too_large());
        }
        bytes = out;
    }
    let xml = String::from_utf8_lossy(&bytes);
    let mut root = None;
    let mut locs = Vec::new();
    let mut rest: &str = &xml;
    // Each start tag: its local name (after any prefix) decides what it is.
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest
            .find(['>', ' ', '\t', '\r', '\n', '/'])
            .unwrap_or(rest.len());
        let name = &rest[..end];
        let local = name.rsplit(':').next().unwrap_or(name);
        if root.is_none() && (local == "urlset" || local == "sitemapindex") {
            root = Some(local == "sitemapindex");
        }
        if local == "loc" && !name.starts_with(['/', '!', '?']) {
            let Some(open_end) = rest.find('>') else {
                break;
            };
            let body = &rest[open_end + 1..];
            let close = format!("</{name}");
            let Some(stop) = body.find(&close) else { break };
            let text = xml_text(&body[..stop]);
            if !text.is_empty() {
                locs.push(text);
            }
            rest = &body[stop..];
        }
    }
    let index = root
        .ok_or_else(|| format!("--sitemap: {at}: not a sitemap (no <urlset> or <sitemapindex>)"))?;
    Ok((index, locs))
}

/// An element's text: CDATA kept, the five entities and character references decoded, trimmed.
fn xml_text(s: &str) -> String {
    let t = s.trim();
    if let Some(inner) = t
        .strip_prefix("<![CDATA[")
        .and_then(|r| r.strip_suffix("]]>"))
    {
        return inner.trim().to_string();
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let entity = rest[1..].find(';').map(|j| &rest[1..=j]);
        let decoded = entity.and_then(|e| match e {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let n = e.strip_prefix("#x").map_or_else(
                    || e.strip_prefix('#').and_then(|d| d.parse().ok()),
                    |h| u32::from_str_radix(h, 16).ok(),
                );
                n.and_then(char::from_u32)
            }
        });
        match (entity, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &rest[e.len() + 2..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
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

fn answer(file: &File, url: &str, agent: &str) -> Answer {
    // `A,B` (commas, no space): one crawler's product tokens, the first with a group of its own
    // deciding (docs/records.md); a User-Agent header always has a space.
    let tokens: Vec<&str> = match agent.contains(',') && !agent.contains(char::is_whitespace) {
        true => agent.split(',').filter(|t| !t.is_empty()).collect(),
        false => vec![agent],
    };
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
    urls.iter()
        .flat_map(|url| {
            agents.iter().map(move |agent| Cell {
                url,
                agent,
                answer: answer(file, url, agent),
            })
        })
        .collect()
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
    for url in &urls {
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
    let result = parse_args(&argv).and_then(|a| {
        if a.command == "version" {
            print(&format!("{NAME} {}", env!("CARGO_PKG_VERSION")))?;
            return Ok(0);
        }
        if a.help {
            print(&help(&a.command))?;
            return Ok(0);
        }
        let mut inputs = Inputs::new();
        match a.command.as_str() {
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
