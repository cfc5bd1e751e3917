//! The codec's modules form a stack (`docs/codec-stack.md`): every module has a layer in the
//! document's table, uses no module of a higher layer, and no modules use each other in a cycle.
//! The imports are read from the sources as the document says.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers of `docs/codec-stack.md`'s table, in order, each with its module prefixes.
fn layers() -> Vec<(String, Vec<String>)> {
    let doc = std::fs::read_to_string(root().join("../../docs/codec-stack.md")).expect("docs/codec-stack.md");
    let mut out = Vec::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | 0 ground | `a`, `b` | … |
        let Some(layer) = cells.get(1) else { continue };
        if !layer.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let modules = cells.get(2).copied().unwrap_or_default();
        let names = modules.split(',').map(|m| m.trim().trim_matches('`').to_owned()).filter(|m| !m.is_empty());
        out.push((layer.to_string(), names.collect()));
    }
    assert!(out.len() >= 2, "no layer table in docs/codec-stack.md");
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every source file of the crate as its module path (`crate` for `lib.rs`, `h2::decode`,
/// `serde` for `serde/mod.rs`) and its code without comments and test modules.
fn sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(base).expect("under src").with_extension("");
                let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                let module = match parts.as_slice() {
                    [lib] if lib == "lib" => "crate".to_owned(),
                    [dirs @ .., last] if last == "mod" => dirs.join("::"),
                    all => all.join("::"),
                };
                out.insert(module, code_of(&std::fs::read_to_string(&path).expect("source")));
            }
        }
    }
    let mut out = BTreeMap::new();
    let src = root().join("src");
    walk(&src, &src, &mut out);
    out
}

/// `source` without comments and from its first `#[cfg(test)]` module on.
fn code_of(source: &str) -> String {
    let mut code = String::new();
    for line in source.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // the test modules come last in every file of the crate
            break;
        }
        let line = match line.find("//") {
            // (a `//` in a string cuts the rest of that line only: no import follows one there)
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The identifiers path segments are made of.
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim_end_matches("::").trim();
        let inner = tree[open + 1..tree.rfind('}').unwrap_or(tree.len())].trim();
        let prefix = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], &prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], &prefix, out);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(join(prefix, path));
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_owned(),
        (_, true) => a.to_owned(),
        _ => format!("{a}::{b}"),
    }
}

/// The paths a module's code names: its `use` trees expanded and every other `crate::`,
/// `super::` or `self::` path, each made absolute (without `crate::`).
fn paths_of(module: &str, code: &str) -> Vec<String> {
    let mut raw = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before_ok = !rest[..i].chars().last().is_some_and(ident_char);
        let after = &rest[i + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if before_ok {
            expand(&after[..end], "", &mut raw);
        }
        rest = &after[end.min(after.len())..];
    }
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if code[..at].chars().last().is_some_and(ident_char) {
                continue;
            }
            let end = code[at..].find(|c: char| !(ident_char(c) || c == ':')).map_or(code.len(), |e| at + e);
            raw.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
    // `super` of `a::b` (file a/b.rs) is `a`; of `a` (a/mod.rs or a.rs) it is the crate
    let parent = |m: &str| m.rsplit_once("::").map_or(String::new(), |(p, _)| p.to_owned());
    let here = if module == "crate" { String::new() } else { module.to_owned() };
    raw.into_iter()
        .filter_map(|p| {
            let mut base = here.clone();
            let mut segs: Vec<&str> = p.split("::").collect();
            match segs.first().copied() {
                Some("crate") => {
                    segs.remove(0);
                    base.clear();
                }
                Some("self") => {
                    segs.remove(0);
                }
                Some("super") => {
                    while segs.first() == Some(&"super") {
                        segs.remove(0);
                        base = parent(&base);
                    }
                }
                // a path from outside the crate (`std::…`, `serde::…`)
                _ => return None,
            }
            Some(join(&base, &segs.join("::")))
        })
        .collect()
}

/// The names the crate's root re-exports, with the module each comes from.
fn root_exports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in lib.split(';') {
        let Some(tree) = stmt.trim().strip_prefix("pub use ") else { continue };
        let mut paths = Vec::new();
        expand(tree.trim_start_matches("crate::"), "", &mut paths);
        for p in paths {
            if let Some((module, name)) = p.rsplit_once("::") {
                out.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    out
}

/// The module a path names: the longest module it starts with.
fn module_of(path: &str, modules: &BTreeSet<String>, exports: &BTreeMap<String, String>) -> Option<String> {
    let segs: Vec<&str> = path.split("::").collect();
    for n in (1..=segs.len()).rev() {
        let m = segs[..n].join("::");
        if modules.contains(&m) {
            return Some(m);
        }
    }
    let first = segs.first()?;
    let via = exports.get(*first)?;
    module_of(via, modules, exports)
}

#[test]
fn the_codec_is_a_stack_without_cycles() {
    let layers = layers();
    let files = sources();
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let exports = root_exports(&files["crate"]);
    let layer_of = |m: &str| -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (i, (_, prefixes)) in layers.iter().enumerate() {
            for p in prefixes {
                let hit = m == p || m.starts_with(&format!("{p}::"));
                if hit && !best.is_some_and(|(len, _)| p.len() <= len) {
                    best = Some((p.len(), i));
                }
            }
        }
        best.map(|(_, i)| i)
    };
    let mut problems = Vec::new();
    for (_, prefixes) in &layers {
        for p in prefixes {
            if !modules.contains(p) {
                problems.push(format!("the table names `{p}`, which is no module of the crate"));
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, code) in &files {
        let Some(mine) = layer_of(m) else {
            problems.push(format!("module `{m}` has no layer in docs/codec-stack.md"));
            continue;
        };
        for p in paths_of(m, code) {
            let Some(to) = module_of(&p, &modules, &exports) else { continue };
            // a module's own submodules and its parents are itself (`mod` declarations, `super`)
            if to == *m || to == "crate" || to.starts_with(&format!("{m}::")) {
                continue;
            }
            if m.starts_with(&format!("{to}::")) {
                continue;
            }
            if let Some(theirs) = layer_of(&to) {
                if theirs > mine {
                    problems.push(format!(
                        "`{m}` ({}) uses `{to}` ({}) through `{p}`: an import that runs upward",
                        layers[mine].0, layers[theirs].0
                    ));
                }
            }
            edges.entry(m.clone()).or_default().insert(to);
        }
    }
    for cycle in cycles(&edges) {
        problems.push(format!("a cycle: {}", cycle.join(" → ")));
    }
    assert!(problems.is_empty(), "the codec's module stack (docs/codec-stack.md):\n{}", problems.join("\n"));
    // the check sees imports at all: the decoder of Hessian 2 uses the token layer
    assert!(edges.get("h2::decode").is_some_and(|e| e.contains("token") && e.contains("error")), "{edges:?}");
}

/// The cycles of the graph: each strongly connected component of more than one module, as one
/// path through it.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: order by finish time, then collect components on the reversed graph
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for &n in &nodes {
        let mut stack = vec![(n, false)];
        while let Some((v, done)) = stack.pop() {
            if done {
                order.push(v);
                continue;
            }
            if !seen.insert(v) {
                continue;
            }
            stack.push((v, true));
            for w in edges.get(v).into_iter().flatten() {
                if !seen.contains(w) {
                    stack.push((w, false));
                }
            }
        }
    }
    let mut reversed: BTreeMap<&String, Vec<&String>> = BTreeMap::new();
    for (from, tos) in edges {
        for to in tos {
            reversed.entry(to).or_default().push(from);
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for &v in order.iter().rev() {
        if assigned.contains(v) {
            continue;
        }
        let mut component = Vec::new();
        let mut stack = vec![v];
        assigned.insert(v);
        while let Some(x) = stack.pop() {
            component.push(x.clone());
            for &w in reversed.get(x).into_iter().flatten() {
                if assigned.insert(w) {
                    stack.push(w);
                }
            }
        }
        if component.len() > 1 {
            component.sort();
            out.push(component);
        }
    }
    out
}

#[test]
fn the_reading_of_imports_finds_what_the_document_says() {
    let mut paths = Vec::new();
    expand("crate::{a, b::{c, d as e}}", "", &mut paths);
    assert_eq!(paths, ["crate::a", "crate::b::c", "crate::b::d"]);
    let code = "use super::x::Y;\nfn f() { crate::h2::decode::f(); let _ = self::z; }\n";
    let got = paths_of("serde::h2", code);
    assert!(got.contains(&"serde::x::Y".to_owned()), "{got:?}");
    assert!(got.contains(&"h2::decode::f".to_owned()), "{got:?}");
    assert!(got.contains(&"serde::h2::z".to_owned()), "{got:?}");
    assert_eq!(code_of("use a::b; // crate::c\n#[cfg(test)]\nmod tests { use crate::d; }\n"), "use a::b; \n");
    let mut e = BTreeMap::new();
    e.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    e.insert("b".to_owned(), BTreeSet::from(["c".to_owned()]));
    e.insert("c".to_owned(), BTreeSet::from(["a".to_owned()]));
    e.insert("d".to_owned(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(cycles(&e), [["a", "b", "c"]]);
}
