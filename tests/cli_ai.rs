//! `robots-eval ai <url> --agent A [--json]` against a real HTTP server on 127.0.0.1 (started
//! here, on a free port, stopped at the end): it fetches robots.txt (status policy),
//! /.well-known/tdmrep.json (redirects followed) and the page (its headers and head), and answers
//! with the trace, saying what it fetched.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use serde_json::Value;

/// A response: status, headers, body.
type Route = (u16, Vec<(&'static str, String)>, Vec<u8>);

/// A loopback HTTP/1.1 server answering `routes` (anything else: 404), one connection at a time,
/// `Connection: close`. Stops when dropped.
struct Server {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Server {
    fn start(routes: HashMap<&'static str, Route>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(s) = stream {
                    answer(s, &routes);
                }
            }
        });
        Server {
            port,
            stop,
            thread: Some(thread),
        }
    }

    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn answer(stream: TcpStream, routes: &HashMap<&'static str, Route>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/");
    let (status, headers, body) =
        routes
            .get(path)
            .cloned()
            .unwrap_or((404, vec![], b"not found".to_vec()));
    let mut out = stream;
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = out.write_all(head.as_bytes());
    let _ = out.write_all(&body);
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_robots-eval"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn site() -> Server {
    let mut routes: HashMap<&'static str, Route> = HashMap::new();
    routes.insert(
        "/robots.txt",
        (
            200,
            vec![("Content-Type", "text/plain".into())],
            b"User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n".to_vec(),
        ),
    );
    // tdmrep.json behind a redirect (TDMREP §6.1: redirects leading to a success).
    routes.insert(
        "/.well-known/tdmrep.json",
        (301, vec![("Location", "/tdm/rules.json".into())], vec![]),
    );
    routes.insert(
        "/tdm/rules.json",
        (
            200,
            vec![("Content-Type", "application/json".into())],
            br#"[{"location": "/blog/", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}]"#.to_vec(),
        ),
    );
    routes.insert(
        "/blog/post",
        (
            200,
            vec![
                ("Content-Type", "text/html".into()),
                ("X-Robots-Tag", "noai".into()),
                ("Content-Usage", "search=y".into()),
            ],
            b"<html><head><meta name=\"robots\" content=\"max-snippet:50\"><meta name=\"tdm-reservation\" content=\"0\"></head><body>x</body></html>".to_vec(),
        ),
    );
    Server::start(routes)
}

#[test]
fn answers_from_a_real_site_with_what_it_fetched() {
    let server = site();
    let url = format!("{}/blog/post", server.origin());
    let (code, out, err) = run(&["ai", &url, "--agent", "GPTBot", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    // GPTBot's own group allows /blog/post (dedicated training token: allow), noai denies
    // training; the META tag's 0 supersedes the file's 1 (TDMREP §6.7), allowing AI use;
    // Content-Usage search=y allows search (the `*` Content-Signal is not GPTBot's, but is read
    // for OAI-SearchBot, which governs search and AI use for OpenAI).
    assert_eq!(v["train-ai"]["answer"], "deny", "{out}");
    assert_eq!(v["ai-use"]["answer"], "allow", "{out}");
    assert_eq!(v["search"]["answer"], "allow", "{out}");
    let fetched: Vec<(String, Value)> = v["fetched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["what"].as_str().unwrap().to_string(), f["status"].clone()))
        .collect();
    assert_eq!(
        fetched,
        [
            ("robots.txt".to_string(), Value::from(200)),
            ("tdmrep.json".to_string(), Value::from(200)),
            ("page".to_string(), Value::from(200)),
        ],
        "{out}"
    );
    assert!(v["fetched"][1]["url"]
        .as_str()
        .unwrap()
        .ends_with("/tdm/rules.json"));
    let conditions: Vec<&str> = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["condition"].as_str().unwrap())
        .collect();
    assert!(conditions.contains(&"use"), "{out}");
    let signals: Vec<&str> = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["signal"].as_str().unwrap())
        .collect();
    for s in [
        "robots.txt",
        "content-signal",
        "content-usage-header",
        "tdmrep",
        "x-robots-tag",
    ] {
        assert!(signals.contains(&s), "no {s} in {signals:?}");
    }

    // The text form names every answer, what decided it, and the fetches.
    let (code, text, _) = run(&["ai", &url, "--agent", "GPTBot"]);
    assert_eq!(code, 0);
    for needle in [
        "train-ai: deny",
        "ai-use: allow",
        "search: allow",
        "fetched robots.txt",
        "fetched tdmrep.json",
        "fetched page",
        "by [",
        "trace:",
    ] {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
}

#[test]
fn a_disallowed_page_and_an_unreachable_site() {
    let server = site();
    let url = format!("{}/private/x", server.origin());
    let (code, out, err) = run(&["ai", &url, "--agent", "GPTBot", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["crawlable"], false);
    for p in ["train-ai", "ai-use", "search"] {
        assert_eq!(v[p]["answer"], "deny", "{p}: {out}");
    }
    // The page was a 404 here: headers read, no body; nothing of it decides.
    assert_eq!(v["fetched"][2]["status"], 404);

    // Nothing listens: robots.txt unreachable is a complete disallow (RFC 9309 §2.3.1.4).
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{closed}/a");
    let (code, out, err) = run(&["ai", &url, "--agent", "ClaudeBot", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["train-ai"]["answer"], "deny", "{out}");
    assert_eq!(v["fetched"][0]["status"], Value::Null);
}

#[test]
fn offline_inputs_and_usage_errors() {
    let dir = std::env::temp_dir().join(format!("robots-eval-ai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let robots = dir.join("robots.txt");
    let html = dir.join("page.html");
    let tdm = dir.join("tdmrep.json");
    std::fs::write(&robots, "User-agent: Google-Extended\nDisallow: /\n").unwrap();
    std::fs::write(&html, "<head><meta name=robots content=nosnippet></head>").unwrap();
    std::fs::write(&tdm, "{not json").unwrap();
    let (code, out, err) = run(&[
        "ai",
        "https://example.com/a",
        "--agent",
        "Googlebot",
        "--robots",
        robots.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--tdmrep",
        tdm.to_str().unwrap(),
        "--header",
        "X-Robots-Tag: noindex",
        "--json",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["train-ai"]["answer"], "deny");
    assert_eq!(v["ai-use"]["answer"], "deny");
    assert_eq!(v["search"]["answer"], "deny");
    assert_eq!(v["fetched"], Value::Array(vec![]));
    let tdm_error = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["signal"] == "tdmrep")
        .and_then(|e| e["error"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(tdm_error.starts_with("not JSON"), "{out}");

    for (args, message) in [
        (vec!["ai"], "ai needs the page's <url>"),
        (vec!["ai", "https://example.com/"], "ai needs --agent"),
        (vec!["ai", "x", "--agent", "a"], "<url>: not an http(s) URL"),
        (
            vec!["ai", "https://example.com/", "-a", "a", "--purpose", "x"],
            "--purpose \"x\": not a purpose",
        ),
        (
            vec!["ai", "https://example.com/", "-a", "a", "--bogus"],
            "unknown option --bogus",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let (code, help, _) = run(&["ai", "--help"]);
    assert_eq!(code, 0);
    assert!(help.starts_with("robots-eval ai <url> --agent A"));
}
