//! Every citation in `src/` resolves inside the repository, so a clone can follow each one:
//! - a path `docs/NAME.md` (with `#anchor`, a heading of that file) names a file of `docs/`;
//! - `X.N` (a letter A to I and an item, as in `semantics I.9` or `(G.1)`) is item N of section
//!   X of `docs/semantics.md`, and `semantics X` or `semantics section X` is a section of it;
//! - `[S-N]` and `[D-N]` are the readings and decisions of `docs/ai-signals.md`, `[I-N]` those
//!   of `docs/ai-preferences.md`.
//!
//! Only comments are read (`//` to the end of the line), where citations live.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The comments of `src/`: (file, line number, comment text).
fn comments() -> Vec<(String, usize, String)> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in fs::read_to_string(&f).unwrap().lines().enumerate() {
            if let Some(i) = line.find("//") {
                out.push((name.clone(), n + 1, line[i + 2..].to_string()));
            }
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, punctuation but `-` dropped, spaces `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `docs/....md` paths (and their `#anchor`) in `text`, not inside a URL.
fn doc_paths(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("docs/").map(|i| i + from) {
        from = at + 5;
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || b"/.-_".contains(&bytes[at - 1])) {
            continue;
        }
        let end = text[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/._-#".contains(c)))
            .map_or(text.len(), |i| at + i);
        let cited = text[at..end].trim_end_matches('.');
        let (path, anchor) = match cited.split_once('#') {
            Some((p, a)) => (p, Some(a.to_string())),
            None => (cited, None),
        };
        if path.ends_with(".md") {
            out.push((path.to_string(), anchor));
        }
    }
    out
}

/// `X.N` citations of `docs/semantics.md` in `text`: (section letter, item).
fn section_items(text: &str) -> Vec<(char, u32)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for i in 0..chars.len() {
        let letter = chars[i];
        let before = i.checked_sub(1).map(|j| chars[j]);
        if !('A'..='I').contains(&letter)
            || before.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '-')
            || chars.get(i + 1) != Some(&'.')
        {
            continue;
        }
        let digits: String = chars[i + 2..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let after = chars.get(i + 2 + digits.len());
        if digits.is_empty()
            || after.is_some_and(|c| {
                c.is_alphanumeric()
                    || *c == '.'
                        && chars
                            .get(i + 3 + digits.len())
                            .is_some_and(char::is_ascii_digit)
            })
        {
            continue;
        }
        out.push((letter, digits.parse().unwrap()));
    }
    out
}

/// `semantics X` and `semantics section X`: section letters cited alone.
fn sections(text: &str) -> Vec<char> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("semantics ") {
        let rest = &text[i + "semantics ".len()..];
        let rest = rest.strip_prefix("section ").unwrap_or(rest);
        let mut chars = rest.chars();
        if let (Some(letter @ 'A'..='I'), next, then) = (chars.next(), chars.next(), chars.next()) {
            // (`I.8` is an item, cited by `section_items`; `I.` ends a sentence.)
            let item = next == Some('.') && then.is_some_and(|c| c.is_ascii_digit());
            if next.is_none_or(|c| !c.is_alphanumeric()) && !item {
                out.push(letter);
            }
        }
    }
    out
}

/// `[P-N]` labels in `text` for a prefix letter `P`.
fn labels(text: &str, prefix: char) -> Vec<String> {
    let open = format!("[{prefix}-");
    text.match_indices(&open)
        .filter_map(|(i, _)| {
            let rest = &text[i + open.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty() && rest[digits.len()..].starts_with(']'))
                .then(|| format!("[{prefix}-{digits}]"))
        })
        .collect()
}

/// The sections of `docs/semantics.md` (`## X. ...`) and their top-level items (`N. ...`).
fn semantics_items() -> BTreeSet<(char, Option<u32>)> {
    let text = fs::read_to_string(root().join("docs/semantics.md")).unwrap();
    let mut out = BTreeSet::new();
    let mut section = None;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            let mut c = h.chars();
            section = match (c.next(), c.next()) {
                (Some(l @ 'A'..='I'), Some('.')) => Some(l),
                _ => None,
            };
            if let Some(l) = section {
                out.insert((l, None));
            }
            continue;
        }
        let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
        if let (Some(l), false, true) = (
            section,
            digits.is_empty(),
            line[digits.len()..].starts_with(". "),
        ) {
            out.insert((l, Some(digits.parse().unwrap())));
        }
    }
    out
}

#[test]
fn every_citation_in_src_resolves() {
    let comments = comments();
    let items = semantics_items();
    let signals = fs::read_to_string(root().join("docs/ai-signals.md")).unwrap();
    let preferences = fs::read_to_string(root().join("docs/ai-preferences.md")).unwrap();
    let mut failures = Vec::new();
    let mut seen = [0usize; 4];
    for (file, n, text) in &comments {
        let at = format!("{file}:{n}");
        for (path, anchor) in doc_paths(text) {
            seen[0] += 1;
            let Ok(doc) = fs::read_to_string(root().join(&path)) else {
                failures.push(format!("{at}: {path} is not in the repository"));
                continue;
            };
            if let Some(a) = anchor {
                let found = doc
                    .lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .any(|h| slug(h.trim_start_matches('#')) == a);
                if !found {
                    failures.push(format!("{at}: {path} has no heading #{a}"));
                }
            }
        }
        for (letter, item) in section_items(text) {
            seen[1] += 1;
            if !items.contains(&(letter, Some(item))) {
                failures.push(format!(
                    "{at}: docs/semantics.md has no item {letter}.{item}"
                ));
            }
        }
        for letter in sections(text) {
            seen[2] += 1;
            if !items.contains(&(letter, None)) {
                failures.push(format!("{at}: docs/semantics.md has no section {letter}"));
            }
        }
        for (prefix, doc, name) in [
            ('S', &signals, "docs/ai-signals.md"),
            ('D', &signals, "docs/ai-signals.md"),
            ('I', &preferences, "docs/ai-preferences.md"),
        ] {
            for label in labels(text, prefix) {
                seen[3] += 1;
                if !doc.contains(&label) {
                    failures.push(format!("{at}: {name} has no {label}"));
                }
            }
        }
    }
    // The reader must find the citations there are, or an empty scan would pass.
    assert!(
        seen[0] > 20 && seen[1] > 30 && seen[2] > 2 && seen[3] > 100,
        "too few citations found: {seen:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_readers_find_what_they_should() {
    assert_eq!(
        doc_paths("see docs/records.md. and https://x/docs/bots and docs/a.md#b-c"),
        [
            ("docs/records.md".to_string(), None),
            ("docs/a.md".to_string(), Some("b-c".to_string()))
        ]
    );
    assert_eq!(
        section_items("(semantics I.9, C.14; G.1) v1.2 XI.3 I.17."),
        [('I', 9), ('C', 14), ('G', 1), ('I', 17)]
    );
    assert_eq!(
        sections("semantics B; semantics section I. semantics I.8"),
        ['B', 'I']
    );
    assert_eq!(labels("[S-1], [D-11] and [S-x]", 'S'), ["[S-1]"]);
    assert_eq!(
        slug("C. RFC 9309, Robots Exclusion"),
        "c-rfc-9309-robots-exclusion"
    );
}
