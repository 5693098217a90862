//! The real-world corpus: the `google` dialect must agree with google/robotstxt on all 70,885
//! verdicts of `../shared/corpus/expected-google.jsonl`, and on the matching line. Each file is
//! parsed once, with the default 500 KiB cap (the expected data was made with that cut).
//! Every other dialect must parse every file and answer every probe without panicking.

mod common;

use std::collections::HashMap;

use common::{parse, shared, Failures};
use robots_eval::DialectId;
use serde_json::Value;

#[test]
fn google_agrees_with_reference_library() {
    let Some(s) = shared("corpus verdicts") else {
        return;
    };
    let text = std::fs::read_to_string(s.join("corpus/expected-google.jsonl")).unwrap();
    let mut parsed = HashMap::new();
    let mut f = Failures::default();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let file = v["file"].as_str().unwrap().to_string();
        let robots = parsed.entry(file.clone()).or_insert_with(|| {
            parse(
                &std::fs::read(s.join("corpus/files").join(&file)).unwrap(),
                DialectId::Google,
            )
        });
        let (agent, url) = (v["agent"].as_str().unwrap(), v["url"].as_str().unwrap());
        let verdict = robots.check(url, agent);
        let want = v["allowed"].as_bool().unwrap();
        let want_line = v["line"].as_u64().unwrap() as u32;
        let got_line = robots.line_of(&verdict);
        f.check(verdict.allowed == want && got_line == want_line, || {
            format!("{file} {agent} {url}: allowed {} line {got_line}, expected {want} line {want_line}", verdict.allowed)
        });
    }
    assert!(
        f.checked >= 70_000,
        "expected the whole corpus, read {}",
        f.checked
    );
    f.finish("corpus (google dialect)");
}

/// The corpus's probe URLs (`corpus/urls.txt`), by file name.
fn probes_by_file(shared: &std::path::Path) -> HashMap<String, Vec<String>> {
    let probes = std::fs::read_to_string(shared.join("corpus/urls.txt")).unwrap();
    let mut by_file: HashMap<String, Vec<String>> = HashMap::new();
    for line in probes.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        by_file
            .entry(v["file"].as_str().unwrap().into())
            .or_default()
            .push(v["url"].as_str().unwrap().into());
    }
    by_file
}

#[test]
fn every_dialect_reads_every_file() {
    let Some(s) = shared("corpus files") else {
        return;
    };
    let by_file = probes_by_file(&s);
    let agents = [
        "Googlebot",
        "bingbot",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "",
    ];
    let mut answered = 0;
    for entry in std::fs::read_dir(s.join("corpus/files")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for d in DialectId::ALL {
            let robots = parse(&bytes, d);
            for url in by_file.get(&name).into_iter().flatten().take(20) {
                for agent in agents {
                    let v = robots.check(url, agent);
                    // A verdict's reported rule is always a real rule of a selected group.
                    if let Some(rule) = robots.deciding_rule(&v) {
                        assert!(
                            robots
                                .selected_groups(v.selection)
                                .any(|g| g.rules().contains(&rule.index)),
                            "{name} [{}] {url}",
                            d.name()
                        );
                    }
                    answered += 1;
                }
            }
        }
    }
    eprintln!("every dialect: {answered} answers");
}

/// `Robots::reparse` gives what a fresh parse gives, whatever the file parsed into the value
/// before (and whatever its queries and diagnostics left computed): every corpus file in turn
/// into one value per dialect, against `Robots::parse_with`, on the parsed form, the
/// diagnostics and the probes' verdicts. Every seventh file with a small size cap, so that
/// truncation is reused too.
#[test]
fn reparse_matches_a_fresh_parse() {
    let Some(s) = shared("corpus files") else {
        return;
    };
    let by_file = probes_by_file(&s);
    let mut paths: Vec<_> = std::fs::read_dir(s.join("corpus/files"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut f = Failures::default();
    for d in DialectId::ALL {
        let mut reused = robots_eval::Robots::parse(b"User-agent: *\nDisallow: /x\n");
        for (i, path) in paths.iter().enumerate() {
            let bytes = std::fs::read(path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let mut options = robots_eval::Options::dialect(d);
            if i % 7 == 0 {
                options.max_bytes = bytes.len() / 2;
            }
            reused.reparse(&bytes, &options);
            let fresh = robots_eval::Robots::parse_with(&bytes, &options);
            f.check(format!("{reused:?}") == format!("{fresh:?}"), || {
                format!("{name} [{}]: the parsed forms differ", d.name())
            });
            for url in by_file.get(&name).into_iter().flatten().take(10) {
                for agent in ["Googlebot", "bingbot", "*"] {
                    let (a, b) = (reused.check(url, agent), fresh.check(url, agent));
                    f.check(
                        a.allowed == b.allowed && reused.line_of(&a) == fresh.line_of(&b),
                        || format!("{name} [{}] {agent} {url}: verdicts differ", d.name()),
                    );
                }
            }
            f.check(
                format!("{:?}", reused.diagnostics()) == format!("{:?}", fresh.diagnostics()),
                || format!("{name} [{}]: diagnostics differ", d.name()),
            );
        }
    }
    f.finish("reparse");
}
