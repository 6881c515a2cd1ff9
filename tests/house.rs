//! The house's rules that a reader can count (CONTRIBUTING.md, "The house"):
//! the modules of `src/` and the files of `ui/src` import each other without
//! a circle, and no file does more than one file's worth: `src/` files at
//! most 700 lines without their test module, `ui/src` files at most 400
//! (the generated `schema.d.ts` aside).
//!
//! The graphs are read from the text, as a reader follows imports: in Rust a
//! `use`, a `crate::`/`super::`/`self::` path or a parent's `pub use child::`
//! re-export is an edge to the deepest module it names; in TypeScript an
//! `import`/`export … from` or `import()` of a relative file that is not
//! `import type` (types vanish from the build).

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

const SRC_MAX_LINES: usize = 700;
const UI_MAX_LINES: usize = 400;

fn files(root: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if keep(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A file's text before its `#[cfg(test)] mod tests { … }` (the test module
/// is the last item of our files), comments removed.
fn without_tests(text: &str) -> String {
    let test_module = Regex::new(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*(\{|;)").unwrap();
    let code = match test_module.find(text) {
        Some(found) => &text[..found.start()],
        None => text,
    };
    let comments = Regex::new(r"(?m)//[^\n]*").unwrap();
    comments.replace_all(code, "").into_owned()
}

/// Module path of a file of `src/` ("" for lib.rs and main.rs).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Strongly connected components of more than one node (Tarjan).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, node: &'a str) {
            let i = self.index.len();
            self.index.insert(node, i);
            self.low.insert(node, i);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                loop {
                    let member = self.stack.pop().unwrap();
                    self.on_stack.remove(member);
                    component.push(member.to_string());
                    if member == node {
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
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.found
}

fn rust_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let sources = files(src, &|p| p.extension().is_some_and(|e| e == "rs"));
    let modules: BTreeMap<String, &PathBuf> = sources
        .iter()
        .map(|f| (module_of(src, f).join("::"), f))
        .collect();
    let resolve = |mut path: Vec<String>| -> Option<String> {
        while !path.is_empty() {
            let name = path.join("::");
            if modules.contains_key(&name) {
                return Some(name);
            }
            path.pop();
        }
        None
    };
    let path = Regex::new(r"\b(crate|super|self)((?:::(?:\w+|\{[^;]*?\}|\*))+)").unwrap();
    let word = Regex::new(r"::(\w+)").unwrap();
    let item = Regex::new(r"\w+(?:::\w+)*").unwrap();
    let self_word = Regex::new(r"\bself\b").unwrap();
    let re_export = Regex::new(r"pub(?:\([^)]*\))?\s+use\s+(\w+)::").unwrap();
    let mut graph = BTreeMap::new();
    for (name, file) in &modules {
        if name.split("::").any(|part| part == "tests") {
            continue;
        }
        let text = without_tests(&std::fs::read_to_string(file).unwrap());
        let here: Vec<String> = module_of(src, file);
        let mut deps = BTreeSet::new();
        for found in path.captures_iter(&text) {
            let rest = &found[2];
            let (head, group) = match rest.find('{') {
                Some(brace) => (&rest[..brace], Some(&rest[brace + 1..])),
                None => (rest, None),
            };
            let mut segments: Vec<String> =
                word.captures_iter(head).map(|w| w[1].to_string()).collect();
            let mut base = match &found[1] {
                "crate" => Vec::new(),
                "super" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => here.clone(),
            };
            while segments.first().map(String::as_str) == Some("super") {
                segments.remove(0);
                base.pop();
            }
            base.extend(segments);
            let mut targets = Vec::new();
            match group {
                Some(group) => {
                    for named in item.find_iter(group) {
                        let mut target = base.clone();
                        target.extend(named.as_str().split("::").map(String::from));
                        targets.push(target);
                    }
                    if self_word.is_match(group) {
                        targets.push(base.clone());
                    }
                }
                None => targets.push(base),
            }
            for target in targets {
                if let Some(module) = resolve(target)
                    && &module != name
                    && !module.starts_with(&format!("{name}::"))
                    && !name.is_empty()
                {
                    deps.insert(module);
                }
            }
        }
        for found in re_export.captures_iter(&text) {
            let child = &found[1];
            if ["crate", "super", "self", "std"].contains(&child) {
                continue;
            }
            let mut target = here.clone();
            target.push(child.to_string());
            if let Some(module) = resolve(target)
                && &module != name
            {
                deps.insert(module);
            }
        }
        graph.insert(name.clone(), deps);
    }
    graph
}

fn ui_graph(ui_src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let sources = files(ui_src, &|p| {
        let name = p.to_string_lossy();
        (name.ends_with(".ts") || name.ends_with(".tsx")) && !name.ends_with(".d.ts")
    });
    let known: BTreeSet<&PathBuf> = sources.iter().collect();
    let import = Regex::new(
        r#"(?:import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|import\s+"([^"]+)""#,
    )
    .unwrap();
    let mut graph = BTreeMap::new();
    for file in &sources {
        let text = std::fs::read_to_string(file).unwrap();
        let mut deps = BTreeSet::new();
        for found in import.captures_iter(&text) {
            if found.get(1).is_some() {
                continue;
            }
            let spec = found
                .get(2)
                .or(found.get(3))
                .or(found.get(4))
                .unwrap()
                .as_str();
            if !spec.starts_with('.') {
                continue;
            }
            let base = normalize(&file.parent().unwrap().join(spec));
            let candidates = [
                base.clone(),
                PathBuf::from(format!("{}.ts", base.display())),
                PathBuf::from(format!("{}.tsx", base.display())),
                base.join("index.ts"),
                base.join("index.tsx"),
            ];
            if let Some(target) = candidates.iter().find(|c| known.contains(c)) {
                deps.insert(target.strip_prefix(ui_src).unwrap().display().to_string());
            }
        }
        graph.insert(
            file.strip_prefix(ui_src).unwrap().display().to_string(),
            deps,
        );
    }
    graph
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_modules_of_src_import_each_other_without_a_circle() {
    let found = circles(&rust_graph(&root().join("src")));
    assert!(
        found.is_empty(),
        "modules of src/ in a circle (each group imports itself through the others): {found:#?}"
    );
}

#[test]
fn the_files_of_ui_src_import_each_other_without_a_circle() {
    let ui_src = root().join("ui/src");
    let found = circles(&ui_graph(&ui_src));
    assert!(found.is_empty(), "files of ui/src in a circle: {found:#?}");
}

#[test]
fn the_reader_finds_a_circle_where_there_is_one() {
    // The test above must be able to fail: two modules naming each other,
    // a parent re-exporting a child that reads the parent, and a chain.
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n");
    write("a.rs", "use crate::b::Thing;\n");
    write("b.rs", "use crate::a::{self, Other};\n");
    write("c/mod.rs", "mod part;\npub use part::*;\n");
    write("c/part.rs", "use super::*;\nuse super::Kind;\n");
    write(
        "d.rs",
        "// crate::a is only named in a comment\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
    );
    let mut found = circles(&rust_graph(dir.path()));
    found.sort();
    assert_eq!(
        found,
        vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["c".to_string(), "c::part".to_string()],
        ]
    );

    let ui = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = ui.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("x.ts", "import { y } from \"./lib/y\";\n");
    write("lib/y.tsx", "export { x } from \"../x\";\n");
    write("lib/z.ts", "import type { Y } from \"./y\";\n");
    write("lib/w.ts", "import type { Z } from \"./z\";\n");
    assert_eq!(
        circles(&ui_graph(ui.path())),
        vec![vec!["lib/y.tsx".to_string(), "x.ts".to_string()]]
    );
}

#[test]
fn no_file_does_more_than_one_files_worth() {
    let mut long = Vec::new();
    let src = root().join("src");
    let test_module = Regex::new(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{").unwrap();
    for file in files(&src, &|p| p.extension().is_some_and(|e| e == "rs")) {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = match test_module.find(&text) {
            Some(found) => &text[..found.start()],
            None => &text,
        };
        let lines = code.lines().count();
        if lines > SRC_MAX_LINES {
            long.push(format!("{}: {lines} lines", file.display()));
        }
    }
    let ui_src = root().join("ui/src");
    for file in files(&ui_src, &|p| {
        let name = p.to_string_lossy();
        (name.ends_with(".ts") || name.ends_with(".tsx")) && !name.ends_with("schema.d.ts")
    }) {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        if lines > UI_MAX_LINES {
            long.push(format!("{}: {lines} lines", file.display()));
        }
    }
    assert!(
        long.is_empty(),
        "files over {SRC_MAX_LINES} lines (src/, test module aside) or {UI_MAX_LINES} (ui/src): {long:#?}"
    );
}
