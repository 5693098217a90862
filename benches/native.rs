//! Native benchmark, side by side with the Rust peers in one run: parse throughput and ns per
//! query on ../shared/bench/{small,medium,large}.txt (1,000 queries over 8 agents), and parse
//! throughput over the whole real-world corpus. Not a test: it prints a Markdown table.
//!
//! Run: `cargo bench --bench native` (figures in the README come from this command).
//!
//! Peers: `texting_robots` and `robotxt` parse per agent (one parse per agent is counted as their
//! parse; queries use the prebuilt per-agent object); `robotstxt` is the Rust port of
//! google/robotstxt, which re-parses the file on every query. robots-eval compiles a crawler's
//! rule set on its first query, so its parse is shown alone and with a first query per agent.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use robots_eval::{DialectId, Options, Robots};

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    dir.join("bench").exists().then_some(dir)
}

/// Median time of `f` over `runs` runs of `iters` iterations each, per iteration.
fn time<F: FnMut()>(runs: usize, iters: usize, mut f: F) -> Duration {
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed() / iters as u32
        })
        .collect();
    samples.sort();
    samples[samples.len() / 2]
}

fn ns(d: Duration) -> f64 {
    d.as_secs_f64() * 1e9
}

fn main() {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED: ../shared/bench is absent");
        return;
    };
    let queries: Vec<(String, String)> =
        serde_json::from_slice(&std::fs::read(shared.join("bench/queries.json")).unwrap()).unwrap();
    let agents: Vec<String> = {
        let mut a: Vec<String> = queries.iter().map(|q| q.1.clone()).collect();
        a.sort();
        a.dedup();
        a
    };
    println!("| file | evaluator | parse | parse ns/byte | query ns | ours vs peer (query) |");
    println!("|---|---|---:|---:|---:|---:|");
    for name in ["small", "medium", "large"] {
        let body = std::fs::read(shared.join(format!("bench/{name}.txt"))).unwrap();
        let text = String::from_utf8_lossy(&body).into_owned();
        let iters = (200_000 / body.len()).max(20);
        let opts = Options::dialect(DialectId::Rfc9309);

        let parse = time(9, iters, || {
            black_box(Robots::parse_with(black_box(&body), &opts));
        });
        let robots = Robots::parse_with(&body, &opts);
        let query = time(9, 20, || {
            for (path, agent) in &queries {
                black_box(robots.is_allowed(black_box(path), black_box(agent)));
            }
        }) / queries.len() as u32;
        // A crawler's rule set is compiled by its first query (src/compile.rs), so the parse
        // above does not include it: this does, for each of the 8 agents (what the per-agent
        // peers below count as their parse).
        let parse_and_compile = time(9, iters, || {
            let robots = Robots::parse_with(black_box(&body), &opts);
            for a in &agents {
                black_box(robots.is_allowed("/", a));
            }
        });
        let google_opts = Options::dialect(DialectId::Google);
        let parse_google = time(9, iters, || {
            black_box(Robots::parse_with(black_box(&body), &google_opts));
        });
        let google = Robots::parse_with(&body, &google_opts);
        let query_google = time(9, 20, || {
            for (path, agent) in &queries {
                black_box(google.is_allowed(black_box(path), black_box(agent)));
            }
        }) / queries.len() as u32;
        let ours = ns(query);
        let row = |who: &str, p: Duration, q: f64| {
            let ratio = if who.starts_with("robots-eval") {
                String::from("-")
            } else {
                format!("{:.1}x", q / ours)
            };
            println!(
                "| {name} ({} B) | {who} | {:.1} µs | {:.2} | {:.0} | {ratio} |",
                body.len(),
                ns(p) / 1e3,
                ns(p) / body.len() as f64,
                q
            );
        };
        row("robots-eval (rfc9309)", parse, ours);
        row(
            "robots-eval (rfc9309), parse + 1st query of each agent",
            parse_and_compile,
            ours,
        );
        row("robots-eval (google)", parse_google, ns(query_google));

        // texting_robots: one Robot per agent.
        let parse_t = time(5, (iters / 8).max(3), || {
            for a in &agents {
                black_box(texting_robots::Robot::new(a, black_box(&body)).ok());
            }
        });
        let bots: Vec<(String, texting_robots::Robot)> = agents
            .iter()
            .map(|a| (a.clone(), texting_robots::Robot::new(a, &body).unwrap()))
            .collect();
        let query_t = time(9, 5, || {
            for (path, agent) in &queries {
                let bot = &bots.iter().find(|b| &b.0 == agent).unwrap().1;
                black_box(bot.allowed(black_box(path)));
            }
        }) / queries.len() as u32;
        row("texting_robots 0.2 (8 agents)", parse_t, ns(query_t));

        // robotxt: one Robots per agent.
        let parse_r = time(5, (iters / 8).max(3), || {
            for a in &agents {
                let _ = black_box(robotxt::Robots::parse(black_box(&body), a.as_str()));
            }
        });
        let rx: Vec<(String, robotxt::Robots)> = agents
            .iter()
            .map(|a| (a.clone(), robotxt::Robots::parse(&body, a.as_str())))
            .collect();
        let query_r = time(9, 5, || {
            for (path, agent) in &queries {
                let r = &rx.iter().find(|b| &b.0 == agent).unwrap().1;
                black_box(r.is_allowed(black_box(path)));
            }
        }) / queries.len() as u32;
        row("robotxt 0.7 (8 agents)", parse_r, ns(query_r));

        // robotstxt (google/robotstxt port): every query re-parses.
        let n = if name == "large" { 50 } else { 300 };
        let query_g = time(3, 1, || {
            for (path, agent) in queries.iter().take(n) {
                let url = format!("https://example.com{path}");
                let mut m = robotstxt::DefaultMatcher::default();
                black_box(m.one_agent_allowed_by_robots(black_box(&text), agent, &url));
            }
        }) / n as u32;
        row(
            "robotstxt 0.3 (google port, re-parses)",
            Duration::ZERO,
            ns(query_g),
        );
    }

    // The corpus: parse throughput over every file.
    let files: Vec<Vec<u8>> = std::fs::read_dir(shared.join("corpus/files"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    let total: usize = files
        .iter()
        .map(|f| f.len().min(robots_eval::DEFAULT_MAX_BYTES))
        .sum();
    let opts = Options::default();
    let corpus = time(5, 1, || {
        for f in &files {
            black_box(Robots::parse_with(black_box(f), &opts));
        }
    });
    println!(
        "\ncorpus: {} files, {:.1} MB read, parsed in {:.1} ms: {:.2} ns/byte",
        files.len(),
        total as f64 / 1e6,
        ns(corpus) / 1e6,
        ns(corpus) / total as f64
    );
}
