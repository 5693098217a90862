//! The modules of `src/` stand in layers that only point down (`docs/architecture.md`): this
//! test reads every module file's `crate::` and `super::` paths (in `use` items and in code, not
//! in comments or `#[cfg(test)] mod tests`), builds the module graph, and fails naming each
//! import cycle it finds, and each module of the core that reaches into `lifecycle/` (the core
//! must build without it: the `lifecycle` feature).
//!
//! A path is charged to the longest module it names (`crate::lifecycle::fetch::decide` to
//! `lifecycle::fetch`); a name the crate root re-exports (`crate::Options`) to the module it
//! comes from; anything else the root itself holds to the root, which declares every module, so
//! reaching up to it is a cycle too.
//!
//! And the files a newcomer reads stay small (`files_stay_small`): no hand-written file of `src/`,
//! `js/`, `wasm*/` or `www/` over 1,000 lines, README.md at most 400, docs/performance.md 300.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The module graph: each module and the modules it refers to.
type Graph = BTreeMap<String, BTreeSet<String>>;

const ROOT: &str = "crate";

#[test]
fn src_has_no_import_cycle() {
    let files = read_src(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")));
    let graph = graph(&files);
    has_edges(
        &graph,
        &[
            ("parse", "model"),
            ("decide", "compile"),
            ("lifecycle::meta", "lifecycle::date"),
        ],
    );
    let mut failures = cycles(&graph)
        .iter()
        .map(|c| format!("import cycle: {}", c.join(" -> ")))
        .collect::<Vec<_>>();
    for (from, to) in graph
        .iter()
        .flat_map(|(f, t)| t.iter().map(move |t| (f, t)))
    {
        let core = from != ROOT && !from.starts_with("lifecycle");
        if core && to.starts_with("lifecycle") {
            failures.push(format!(
                "the core module {from} uses {to}: the core must build without lifecycle/"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The npm package's JavaScript (js/) points down too: each file imports only files below it (the
/// engine under the class's parts, the class under the entries), so no two files import each
/// other through any chain. Read from each `import`/`export ... from './file'`.
#[test]
fn js_has_no_import_cycle() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/js"));
    let mut graph = Graph::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.ends_with(".js") || name.ends_with(".mjs")) {
            continue;
        }
        let source = fs::read_to_string(&path).unwrap();
        let mut imports = BTreeSet::new();
        // An import's last line: `import ... from './x.js';`, or `} from './x.js';` after a
        // list over several lines (comments start otherwise).
        for line in source.lines().map(str::trim_start) {
            let Some(at) = line.find("from './") else {
                continue;
            };
            if !["import", "export", "}"]
                .iter()
                .any(|s| line.starts_with(s))
            {
                continue;
            }
            let rest = &line[at + "from './".len()..];
            if let Some(end) = rest.find(['\'', '"']) {
                imports.insert(rest[..end].to_string());
            }
        }
        graph.insert(name, imports);
    }
    has_edges(
        &graph,
        &[
            ("robots.js", "engine.js"),
            ("robots.js", "selections.js"),
            ("index.js", "robots.js"),
        ],
    );
    let failures = cycles(&graph)
        .iter()
        .map(|c| format!("import cycle in js/: {}", c.join(" -> ")))
        .collect::<Vec<_>>();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_cycle_is_named() {
    let files = [
        (ROOT, "mod a; mod b; mod c; pub use a::Thing;"),
        (
            "a",
            "use crate::b::{self, Other};\nfn f() { crate::c::g() }",
        ),
        (
            "b",
            "// crate::a in a comment is not a reference\nuse crate::Thing;",
        ),
        (
            "c",
            "use super::b;\n#[cfg(test)]\nmod tests {\n    use crate::a::f;\n}",
        ),
    ];
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(m, s)| (m.to_string(), s.to_string()))
        .collect();
    let graph = graph(&files);
    assert_eq!(graph["a"], BTreeSet::from(["b".into(), "c".into()]));
    assert_eq!(graph["b"], BTreeSet::from(["a".into()]));
    assert_eq!(graph["c"], BTreeSet::from(["b".into()]));
    let found = cycles(&graph);
    assert_eq!(
        found,
        [vec!["a", "b", "a"], vec!["c", "b", "a", "c"]],
        "{graph:#?}"
    );
    // Reaching up to an item of the root is a cycle through the root.
    let up = vec![
        (ROOT.to_string(), "mod a; pub struct Options;".to_string()),
        ("a".to_string(), "use crate::Options;".to_string()),
    ];
    assert_eq!(cycles(&self::graph(&up)), [["a", "crate", "a"]]);
}

/// (module path, source) of every module file under `dir` (`src/bin` holds binaries, not modules).
fn read_src(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), Vec::<String>::new())];
    while let Some((d, prefix)) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if path.is_dir() {
                if !(prefix.is_empty() && name == "bin") {
                    stack.push((path, [prefix.clone(), vec![name]].concat()));
                }
                continue;
            }
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            let module = match stem {
                "lib" if prefix.is_empty() => ROOT.to_string(),
                "mod" => prefix.join("::"),
                _ => [prefix.clone(), vec![stem.to_string()]].concat().join("::"),
            };
            out.push((module, fs::read_to_string(&path).unwrap()));
        }
    }
    out.sort();
    out
}

/// The module graph of `files`: the root and every `mod.rs` point to the modules they declare.
fn graph(files: &[(String, String)]) -> Graph {
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    // What the root re-exports: `pub use a::b::{X, c}` makes `crate::X` mean `crate::a::b::X`.
    let root = files
        .iter()
        .find(|(m, _)| m == ROOT)
        .map_or("", |(_, s)| s.as_str());
    let mut aliases = BTreeMap::new();
    for item in code(root).split(';') {
        let Some(at) = item.find("pub use ") else {
            continue;
        };
        for path in paths(&item[at + "pub use ".len()..]) {
            if let Some(last) = path.last() {
                aliases.insert(last.clone(), path.clone());
            }
        }
    }
    let mut graph = Graph::new();
    for (module, source) in files {
        let edges = graph.entry(module.clone()).or_default();
        let here: Vec<String> = if module == ROOT {
            vec![]
        } else {
            module.split("::").map(String::from).collect()
        };
        for child in modules
            .iter()
            .filter(|m| parent(m) == Some(module.as_str()))
        {
            edges.insert(child.clone());
        }
        for (base, path) in references(&code(source)) {
            let mut full = match base {
                Base::Crate => path,
                Base::Super(n) => [here[..here.len().saturating_sub(n)].to_vec(), path].concat(),
            };
            if let Some(alias) = full.first().and_then(|f| aliases.get(f)) {
                full = [alias.clone(), full[1..].to_vec()].concat();
            }
            let target = (1..=full.len())
                .rev()
                .map(|n| full[..n].join("::"))
                .find(|m| modules.contains(m))
                .unwrap_or_else(|| ROOT.to_string());
            if &target != module {
                edges.insert(target);
            }
        }
    }
    graph
}

fn parent(module: &str) -> Option<&str> {
    match module.rfind("::") {
        Some(i) => Some(&module[..i]),
        None if module != ROOT => Some(ROOT),
        None => None,
    }
}

/// The source without comments and without the unit tests at its end.
fn code(source: &str) -> String {
    let end = source
        .find("#[cfg(test)]\nmod tests")
        .unwrap_or(source.len());
    source[..end]
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[derive(Clone, Copy)]
enum Base {
    Crate,
    /// `super::` this many times.
    Super(usize),
}

/// Every path that starts with `crate::` or `super::` (a `{...}` group gives one path per item).
fn references(code: &str) -> Vec<(Base, Vec<String>)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let starts_word = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || matches!(bytes[i - 1], b'_' | b'$' | b':'));
        let base = if !starts_word {
            None
        } else if rest.starts_with("crate::") {
            Some((Base::Crate, "crate::".len()))
        } else if rest.starts_with("super::") {
            let mut n = 0;
            let mut at = 0;
            while rest[at..].starts_with("super::") {
                n += 1;
                at += "super::".len();
            }
            Some((Base::Super(n), at))
        } else {
            None
        };
        let Some((base, skip)) = base else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let tail = &rest[skip..];
        let len = path_len(tail);
        for path in paths(&tail[..len]) {
            out.push((base, path));
        }
        i += skip + len.max(1);
    }
    out
}

/// The length of the path at the start of `s`: segments, `::`, and a balanced `{...}` group.
fn path_len(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' => {}
            _ => return i,
        }
    }
    s.len()
}

/// The paths of a `use` tree (`a::{b, c::{d, self}}` is `a::b`, `a::c::d`, `a::c`), without `self`.
fn paths(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let segments: Vec<String> = tree
            .split("::")
            .map(|s| s.split_whitespace().next().unwrap_or("").to_string())
            .filter(|s| !s.is_empty() && s != "self")
            .collect();
        return if segments.is_empty() {
            vec![]
        } else {
            vec![segments]
        };
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().to_string())
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    let mut out: Vec<Vec<String>> = items
        .iter()
        .flat_map(|item| paths(item))
        .map(|p| [prefix.clone(), p].concat())
        .collect();
    if out.is_empty() && !prefix.is_empty() {
        out.push(prefix);
    }
    out
}

/// The reader must see the real edges, or an empty graph would pass.
fn has_edges(graph: &Graph, edges: &[(&str, &str)]) {
    for (from, to) in edges {
        assert!(
            graph.get(*from).is_some_and(|t| t.contains(*to)),
            "expected an edge {from} -> {to} in {graph:#?}"
        );
    }
}

/// The cycles of the graph: for each module in name order that is not on a cycle already
/// reported, the shortest cycle through it (as a path from it back to it), if there is one.
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut covered = BTreeSet::new();
    for start in graph.keys() {
        if covered.contains(start) {
            continue;
        }
        // The shortest way from `start` back to itself, by breadth-first search.
        let mut previous: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closed = None;
        while let Some(m) = queue.pop_front() {
            for next in graph.get(m).into_iter().flatten() {
                if next == start {
                    closed = Some(m);
                    break;
                }
                if !previous.contains_key(next) {
                    previous.insert(next, m);
                    queue.push_back(next);
                }
            }
            if closed.is_some() {
                break;
            }
        }
        let Some(mut at) = closed else { continue };
        let mut back = Vec::new(); // from the last step back to the first
        while at != start {
            back.push(at.clone());
            at = previous[at];
        }
        back.reverse();
        let cycle = [vec![start.clone()], back, vec![start.clone()]].concat();
        covered.extend(cycle.iter().cloned());
        found.push(cycle);
    }
    found
}

/// The hand-written files a newcomer reads stay small enough to hold one job (issue 32): no file
/// of `src/`, `js/`, `wasm*/` or `www/` over `CODE_LIMIT` lines, README.md over 400 and
/// docs/performance.md over 300. A line count is a proxy; the aim is one job per file.
#[test]
fn files_stay_small() {
    const CODE_LIMIT: usize = 1000;
    // Data, not code: copied from elsewhere with their sources.
    const NOT_HAND_WRITTEN: &[&str] = &["www/presets.js"];
    // Over their limit today, each with its count: none may grow, and each leaves this list
    // once it is under (the test says so).
    const OVER_TODAY: &[(&str, usize)] = &[];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut limits: Vec<(String, usize)> = vec![
        ("README.md".into(), 400),
        ("docs/performance.md".into(), 300),
    ];
    let dirs = fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| matches!(n.as_str(), "src" | "js" | "www") || n.starts_with("wasm"));
    for dir in dirs {
        let mut stack = vec![root.join(&dir)];
        while let Some(d) = stack.pop() {
            for entry in fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy();
                if path.is_dir() {
                    // Built, not written (git-ignored): www/vendor/ is the playground's build.
                    if !matches!(&*name, "target" | "node_modules" | "vendor") {
                        stack.push(path);
                    }
                    continue;
                }
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if !NOT_HAND_WRITTEN.contains(&rel.as_str()) {
                    limits.push((rel, CODE_LIMIT));
                }
            }
        }
    }
    assert!(
        limits.iter().any(|(f, _)| f == "src/lib.rs") && limits.len() > 50,
        "the walk must see the tree: {limits:?}"
    );
    let mut failures = Vec::new();
    for (file, limit) in &limits {
        let Ok(text) = fs::read(root.join(file)) else {
            continue; // not text (or gone)
        };
        let lines = text.iter().filter(|&&b| b == b'\n').count();
        match OVER_TODAY.iter().find(|(f, _)| f == file) {
            Some((_, _)) if lines <= *limit => failures.push(format!(
                "{file}: {lines} lines, under its limit of {limit} now: remove it from OVER_TODAY"
            )),
            Some((_, before)) if lines > *before => failures.push(format!(
                "{file}: {lines} lines, over its limit of {limit} and grown from {before}"
            )),
            Some(_) => {}
            None if lines > *limit => {
                failures.push(format!("{file}: {lines} lines, over its limit of {limit}"))
            }
            None => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
