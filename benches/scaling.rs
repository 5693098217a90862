//! How the costs grow with the file: parse, the first query (which compiles the crawler's rule
//! set) and reading the diagnostics (the lint's findings about whole groups: duplicate,
//! conflicting, shadowed rules), at 10k, 100k and 1M lines, with the size cap lifted. Two shapes:
//! the rules in groups of 20 (as sites write them), and all in one group (the lint's worst case:
//! its group findings compare rules within a group). Per line, a cost that grows linearly stays
//! flat. Not a test: prints a Markdown table.
//!
//! Run: `cargo bench --bench scaling` (`-- 100000`: only the sizes up to that many lines)

use std::hint::black_box;
use std::time::{Duration, Instant};

use robots_eval::{Options, Robots};

/// A deterministic file of `lines` lines: `group` rules per `User-agent` group (each group names
/// its own crawler, the last one `*`), patterns drawn from a small vocabulary so that some rules
/// repeat, conflict or shadow one another, as in real files.
fn file(lines: usize, group: usize) -> String {
    const WORDS: [&str; 12] = [
        "admin", "cart", "search", "img", "api", "private", "tmp", "docs", "en", "fr", "static",
        "user",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut out = String::with_capacity(lines * 28);
    let mut written = 0;
    let mut groups = 0;
    while written < lines {
        let agent = if written + group + 1 >= lines {
            String::from("*")
        } else {
            format!("bot{groups}")
        };
        out.push_str(&format!("User-agent: {agent}\n"));
        written += 1;
        groups += 1;
        for _ in 0..group.min(lines - written) {
            let kind = if next(4) == 0 { "Allow" } else { "Disallow" };
            let mut pattern = String::new();
            for _ in 0..1 + next(3) {
                pattern.push('/');
                pattern.push_str(WORDS[next(WORDS.len())]);
            }
            match next(8) {
                0 => pattern.push_str("/*.php$"),
                1 => pattern.push('*'),
                // Patterns alike at both ends, as product pages are: a hash of their ends
                // alone would put them all in one bucket.
                2 => pattern = format!("/catalogue/{:05}/reviews.html", next(100_000)),
                _ => pattern.push_str(&format!("/{}/", next(1000))),
            }
            out.push_str(&format!("{kind}: {pattern}\n"));
            written += 1;
        }
    }
    out
}

/// The median of `runs` timings of `f` (each on a fresh `setup()`, not timed).
fn time<S, T>(runs: usize, mut setup: impl FnMut() -> S, mut f: impl FnMut(S) -> T) -> Duration {
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let s = setup();
            let t = Instant::now();
            black_box(f(s));
            t.elapsed()
        })
        .collect();
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    // (cargo bench passes `--bench` too.)
    let max_lines: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    let options = Options {
        max_bytes: usize::MAX,
        ..Options::default()
    };
    println!("| shape | lines | bytes | parse | per line | first query (compiles the set) | per line | diagnostics | per line | findings |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (shape, group) in [("groups of 20 rules", 20), ("one group", usize::MAX)] {
        for lines in [10_000usize, 100_000, 1_000_000] {
            if lines > max_lines {
                continue;
            }
            let text = file(lines, group.min(lines - 1));
            let runs = if lines >= 1_000_000 { 3 } else { 7 };
            let parse = time(
                runs,
                || (),
                |()| Robots::parse_with(text.as_bytes(), &options),
            );
            let query = time(
                runs,
                || Robots::parse_with(text.as_bytes(), &options),
                |r| r.is_allowed("https://example.com/admin/42/x.php", "SomeBot"),
            );
            let mut findings = 0;
            let lint = time(
                runs,
                || Robots::parse_with(text.as_bytes(), &options),
                |r| findings = r.diagnostics().len(),
            );
            let per = |d: Duration| format!("{:.0} ns", d.as_secs_f64() * 1e9 / lines as f64);
            let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
            println!(
                "| {shape} | {lines} | {} | {} | {} | {} | {} | {} | {} | {findings} |",
                text.len(),
                ms(parse),
                per(parse),
                ms(query),
                per(query),
                ms(lint),
                per(lint),
            );
        }
    }
}
