//! Progress of a long run (sitemaps read, answers computed) on one line of standard error, redrawn
//! at most ten times a second, when standard error is a terminal and `enable` was called; nothing
//! otherwise (a log or a pipe gets only the lines that say what was fetched). As js/cli.mjs does.

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::NAME;

struct State {
    on: bool,
    shown: bool,
    last: Option<Instant>,
}

static STATE: Mutex<State> = Mutex::new(State {
    on: false,
    shown: false,
    last: None,
});

const EVERY: Duration = Duration::from_millis(100);

/// Shows progress from now on, if standard error is a terminal.
pub fn enable() {
    if let Ok(mut s) = STATE.lock() {
        s.on = io::stderr().is_terminal();
    }
}

/// Redraws the progress line (at most every 100 ms unless `force`); `text` is made only then.
pub fn update(force: bool, text: impl FnOnce() -> String) {
    let Ok(mut s) = STATE.lock() else { return };
    if !s.on || (!force && s.last.is_some_and(|t| t.elapsed() < EVERY)) {
        return;
    }
    s.last = Some(Instant::now());
    s.shown = true;
    let _ = write!(io::stderr(), "\r{NAME}: {}\x1b[K", text());
}

/// Clears the progress line, if one is shown.
pub fn clear() {
    let Ok(mut s) = STATE.lock() else { return };
    if s.shown {
        let _ = write!(io::stderr(), "\r\x1b[K");
        s.shown = false;
    }
}

/// A line on standard error (what was fetched), above the progress line.
pub fn note(text: &str) {
    clear();
    eprintln!("{NAME}: {text}");
}

/// `n` with thousands separators, as the npm command prints it (en-US).
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}
