//! The invariants ARCHITECTURE.md states, checked on the source (offline,
//! no build of anything): no import cycle among the core's modules (each
//! resource a module of its own) nor among the CLI's, so no resource names
//! one downstream of it; no redb type in the core's public API; only
//! organiser-server knows HTTP servers; only the clocks read the time of
//! day; only `net` reaches the network.
//!
//! The cycle check is `../shared/tools/core_cycles.py` in Rust: every path
//! a file names is read, `use` trees and paths in the code, `crate::`,
//! `super::` and `self::` resolved from the file's place; tests are left
//! out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every `.rs` file under `dir`, with its path relative to `dir`, tests
/// (`tests.rs`, `tests/`) left out.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "tests" {
                    walk(base, &path, out);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push((path.strip_prefix(base).unwrap().to_owned(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// The text of a source file without its test module and comments.
fn code(text: &str) -> String {
    static TESTS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"#\[cfg\(test\)\]\s*mod\s+tests").unwrap());
    static COMMENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"//[^\n]*").unwrap());
    let text = TESTS.split(text).next().unwrap_or("");
    COMMENT.replace_all(text, "").into_owned()
}

/// A file's module path: `resources/notes/body.rs` is
/// `[resources, notes, body]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Expands a use tree (`a::{b, c::{d, e}}`) into paths.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    static RENAMED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\s+as\s+[A-Za-z_][A-Za-z0-9_]*").unwrap());
    let tree: String = RENAMED
        .replace_all(tree, "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
        for (i, ch) in tree.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&tree[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&tree[start..]);
        let segments = |s: &str| -> Vec<String> {
            s.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        };
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            match part.find('{') {
                Some(b) if part.ends_with('}') => {
                    let mut inner = prefix.to_vec();
                    inner.extend(segments(&part[..b]));
                    walk(&inner, &part[b + 1..part.len() - 1], out);
                }
                _ => {
                    let mut path = prefix.to_vec();
                    path.extend(segments(part));
                    out.push(path);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&[], &tree, &mut out);
    out
}

/// A path as written in the file at module path `here`, crate-absolute;
/// `None` for an external crate or a local name.
fn resolve(path: &[String], here: &[String]) -> Option<Vec<String>> {
    match path.first()?.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "super" | "self" => {
            let mut base = here.to_vec();
            let mut i = 0;
            while i < path.len() && (path[i] == "super" || path[i] == "self") {
                if path[i] == "super" {
                    base.pop();
                }
                i += 1;
            }
            base.extend_from_slice(&path[i..]);
            Some(base)
        }
        _ => None,
    }
}

/// The module graph of the crate at `src`: a module is a top-level file
/// or folder, except the folders in `split`, whose children are modules
/// each (the core's `resources/`).
fn graph(src: &Path, split: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let module_of = |path: &[String]| -> Option<String> {
        let first = path.first()?;
        if split.contains(&first.as_str()) {
            path.get(1).map(|child| format!("{first}/{child}"))
        } else {
            Some(first.clone())
        }
    };
    let use_stmt = Regex::new(r"\buse\s+((?:crate|super|self)\b[^;]*);").unwrap();
    let code_path = Regex::new(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)").unwrap();
    let files = sources(src);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, _) in &files {
        if let Some(m) = module_of(&module_path(rel)) {
            edges.entry(m).or_default();
        }
    }
    for (rel, text) in &files {
        let here = module_path(rel);
        let Some(from) = module_of(&here) else {
            continue;
        };
        let text = code(text);
        let mut paths: Vec<Vec<String>> = use_stmt
            .captures_iter(&text)
            .flat_map(|c| expand_use(&c[1]))
            .collect();
        let rest = use_stmt.replace_all(&text, "");
        paths.extend(
            code_path
                .find_iter(&rest)
                .map(|m| m.as_str().split("::").map(str::to_owned).collect()),
        );
        for path in paths {
            let Some(to) = resolve(&path, &here).and_then(|p| module_of(&p)) else {
                continue;
            };
            if to != from && edges.contains_key(&to) {
                edges.get_mut(&from).unwrap().insert(to);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn strong(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in &self.edges[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.strong(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on.remove(w);
                    component.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.strong(v);
        }
    }
    t.found
}

fn assert_no_cycle(crate_dir: &str, split: &[&str]) {
    let edges = graph(&Path::new(ROOT).join(crate_dir).join("src"), split);
    assert!(edges.len() > 5, "{crate_dir}: no modules read");
    let found = cycles(&edges);
    let shown: Vec<String> = found
        .iter()
        .map(|c| {
            let inside: Vec<String> = c
                .iter()
                .map(|m| {
                    let to: Vec<&str> = edges[m]
                        .iter()
                        .filter(|w| c.contains(w))
                        .map(String::as_str)
                        .collect();
                    format!("  {m} -> {}", to.join(", "))
                })
                .collect();
            format!("cycle of {}:\n{}", c.len(), inside.join("\n"))
        })
        .collect();
    assert!(found.is_empty(), "{crate_dir}:\n{}", shown.join("\n"));
}

#[test]
fn no_module_of_the_core_imports_one_that_imports_it() {
    assert_no_cycle("organiser-core", &["resources"]);
}

#[test]
fn no_module_of_the_cli_imports_one_that_imports_it() {
    assert_no_cycle("organiser-cli", &[]);
}

/// The checker sees the paths it must: a planted cycle through a use tree,
/// a `super::` path and a path in the code is found.
#[test]
fn the_cycle_check_finds_a_planted_cycle() {
    let dir = std::env::temp_dir().join(format!("organiser-cycles-{}", std::process::id()));
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "mod engine; mod resources;");
    write("engine/mod.rs", "pub fn run() {}");
    write("resources/mod.rs", "mod notes; mod people;");
    write(
        "resources/notes/mod.rs",
        "use crate::resources::{people::Person, x};\nfn f() { crate::engine::run() }",
    );
    write(
        "resources/people/mod.rs",
        "pub struct Person;\nfn g() { super::notes::refresh() }",
    );
    write("resources/tags.rs", "use super::super::engine;");
    write("other.rs", "fn h() {}");
    write("more.rs", "fn h() {}");
    let edges = graph(&dir, &["resources"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        cycles(&edges),
        [vec![
            "resources/notes".to_owned(),
            "resources/people".to_owned()
        ]]
    );
    assert!(edges["resources/tags"].contains("engine"));
}

/// A `pub` item (not `pub(crate)` or `pub(super)`) that names redb, or a
/// conversion from one of its types: the store keeps redb to itself.
#[test]
fn no_redb_type_is_in_the_cores_public_api() {
    let public = Regex::new(r"^\s*pub\s+[^(].*\bredb::").unwrap();
    let from = Regex::new(r"impl[^{]*From<\s*redb::").unwrap();
    let mut found = Vec::new();
    for (rel, text) in sources(&Path::new(ROOT).join("organiser-core/src")) {
        let text = code(&text);
        for line in text.lines() {
            if public.is_match(line) || from.is_match(line) {
                found.push(format!("{}: {}", rel.display(), line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The dependencies a crate's manifest lists.
fn dependencies(crate_dir: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join(crate_dir).join("Cargo.toml"))
        .expect("a manifest");
    let manifest: toml::Table = manifest.parse().expect("a manifest");
    ["dependencies", "build-dependencies"]
        .iter()
        .filter_map(|t| manifest.get(*t)?.as_table())
        .flat_map(|t| t.keys().cloned())
        .collect()
}

const HTTP_SERVERS: &[&str] = &["axum", "hyper", "hyper-util", "tower", "tower-http"];

#[test]
fn only_the_server_knows_http_servers() {
    assert!(
        dependencies("organiser-server")
            .iter()
            .any(|d| HTTP_SERVERS.contains(&d.as_str()))
    );
    let named = Regex::new(r"\b(axum|hyper|tower_http|tower)::").unwrap();
    for crate_dir in ["organiser-core", "organiser-cli"] {
        let deps = dependencies(crate_dir);
        let servers: Vec<_> = deps
            .iter()
            .filter(|d| HTTP_SERVERS.contains(&d.as_str()))
            .collect();
        assert!(servers.is_empty(), "{crate_dir} depends on {servers:?}");
        for (rel, text) in sources(&Path::new(ROOT).join(crate_dir).join("src")) {
            assert!(
                !named.is_match(&code(&text)),
                "{crate_dir}/src/{}: names an HTTP server crate",
                rel.display()
            );
        }
    }
}

/// Every "now" of the core comes from the injected clock: only `clock.rs`
/// reads the time of day (monotonic `Instant`s, which budgets and timeouts
/// measure with, are not the time of day).
#[test]
fn only_the_clocks_read_the_time_of_day() {
    let now = Regex::new(r"\b(SystemTime|Timestamp|Zoned|Utc|Local)::now\(").unwrap();
    for (rel, text) in sources(&Path::new(ROOT).join("organiser-core/src")) {
        if rel == Path::new("clock.rs") {
            continue;
        }
        assert!(
            !now.is_match(&code(&text)),
            "organiser-core/src/{}: reads the time of day; use the core's Clock",
            rel.display()
        );
    }
}

/// Only `net` opens connections; the rest of the core may parse URLs.
#[test]
fn only_net_reaches_the_network() {
    let client = Regex::new(r"\breqwest::(blocking|Client|ClientBuilder|get)\b").unwrap();
    for (rel, text) in sources(&Path::new(ROOT).join("organiser-core/src")) {
        if rel.starts_with("net") {
            continue;
        }
        assert!(
            !client.is_match(&code(&text)),
            "organiser-core/src/{}: reaches the network; use the injected HttpClient",
            rel.display()
        );
    }
}
