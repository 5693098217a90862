//! The command's inputs: files, standard input (which one argument at most may name), and URLs
//! fetched as `fetchRobots` fetches them (the fetch policy of the dialect, redirects followed by
//! hand, sitemaps with their indexes).

use std::io::{self, Read};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use robots_eval::fetch::{self, FetchContext, FetchOutcome, Policy};
use robots_eval::{Options, Robots};

use crate::args::{Args, Fail};
use crate::sitemap::SITEMAP_MAX;
use crate::{progress, sitemap};

pub(crate) fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Reads files and standard input (which only one argument may name), fetches URLs.
pub(crate) struct Inputs {
    pub(crate) stdin_taken: Option<&'static str>,
    pub(crate) http: ureq::Agent,
}

/// A parsed robots.txt with its lines, for quoting rules as written.
pub(crate) struct File {
    pub(crate) robots: Robots,
    pub(crate) lines: Option<Vec<String>>,
    pub(crate) name: String,
    /// When it was fetched: the final status and the fetch policy's decision.
    pub(crate) fetched: Option<(u16, fetch::Decision)>,
}

/// A robots.txt fetch must be over within this (`fetchRobots`'s default).
pub(crate) const ROBOTS_TIMEOUT: Duration = Duration::from_secs(10);
/// A sitemap's fetch must be over within this.
pub(crate) const SITEMAP_TIMEOUT: Duration = Duration::from_secs(30);

impl Inputs {
    pub(crate) fn new() -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .build();
        Inputs {
            stdin_taken: None,
            http: config.into(),
        }
    }

    pub(crate) fn read(&mut self, path: &str, what: &'static str) -> Result<Vec<u8>, Fail> {
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
    pub(crate) fn get(
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
    pub(crate) fn fetch_bytes(&self, url: &str, what: &str) -> Result<Vec<u8>, Fail> {
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
    pub(crate) fn robots(
        &mut self,
        arg: &str,
        options: &Options,
        what: &'static str,
    ) -> Result<File, Fail> {
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
            // A fetch taken as disallow-all (or deferred): the core's complete disallow, as
            // `fetchRobots` parses it.
            _ => ("disallow-all", fetch::DISALLOW_ALL),
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
    pub(crate) fn urls(&mut self, a: &Args) -> Result<Vec<String>, Fail> {
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

    pub(crate) fn sitemap(
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
pub(crate) fn resolve(base: &str, reference: &str) -> String {
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
pub(crate) fn split_lines(bytes: &[u8]) -> Vec<String> {
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
