//! The crate's layering is what its docs say: `src/lib.rs` lists the modules from the bottom
//! up ("Each module uses only the modules listed before it"), and every module's code (its
//! unit tests aside) names only modules listed before it. Within a folder module the files are
//! layered too, in the order its root file's docs list them (`Files, bottom up: ...`).
//!
//! The code is read exactly, not searched as text: [`lex`] tokenizes it (comments, strings,
//! char literals and lifetimes told apart) and marks what only a test build compiles (the
//! item after `#[cfg(test)]` or `#[test]`, wherever it is); [`model`] follows the `mod`
//! declarations from `src/lib.rs` (`#[path]` included) and resolves every path the rest of the
//! code writes, in `use` trees (groups, `self`, renames, globs) and in expressions, types and
//! attribute strings, from `crate`, `super`, `self` or an imported name, re-exports followed,
//! to the module it lands in. The tests at the bottom show each way the old text search was
//! fooled, on small crates, with the old search kept beside to show it missed them.

mod common;
#[path = "layering/lex.rs"]
mod lex;
#[path = "layering/model.rs"]
mod model;
#[path = "layering/sources.rs"]
mod sources;
use sources::source_files;

use model::{files_line, Crate, ModPath};
use std::collections::{BTreeMap, BTreeSet};

/// The modules in the order the crate docs list them (`//! N. [`name`]: ...`).
fn documented_order(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .filter_map(|l| {
            let (num, rest) = l.split_once(". ")?;
            num.trim().parse::<u32>().ok()?;
            let rest = rest.strip_prefix('[').unwrap_or(rest).strip_prefix('`')?;
            Some(rest.split('`').next()?.to_string())
        })
        .collect()
}

/// Where module `to` is in `order`, for messages.
fn placed(order: &[String], to: &str, from: &str) -> String {
    if order.iter().any(|o| o == to) {
        format!("listed after {from}")
    } else {
        "which the crate docs do not list".into()
    }
}

/// Every use of a module the crate docs list after the module that uses it.
fn layer_problems(c: &Crate) -> Vec<String> {
    let order = documented_order(&c.files["src/lib.rs"]);
    let mut out = BTreeSet::new();
    let declared = &c.modules[&Vec::new()].children;
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    if *declared != listed {
        out.insert(format!(
            "the modules of src/lib.rs {declared:?} and the layers its docs list {listed:?} differ"
        ));
    }
    for (r, to, missing) in c.landings() {
        let Some(from) = r.module.first() else {
            continue; // src/lib.rs itself
        };
        let k = order.iter().position(|o| o == from).unwrap_or(0);
        match to.first() {
            Some(t) if t == from || order[..k].contains(t) => {}
            Some(t) => {
                out.insert(format!(
                    "{}:{} uses crate::{t} (`{}`), {}",
                    r.file,
                    r.line,
                    r.text(),
                    placed(&order, t, from)
                ));
            }
            None => {
                if let Some(name) = missing {
                    out.insert(format!(
                        "{}:{} uses crate::{name} (`{}`), which src/lib.rs neither declares as a \
                         module nor re-exports",
                        r.file,
                        r.line,
                        r.text()
                    ));
                }
            }
        }
    }
    out.into_iter().collect()
}

/// Every folder module without its `Files, bottom up:` line or whose line lists other files
/// than it has, and every use of a file of a folder module listed after the file that uses it.
fn folder_problems(c: &Crate) -> Vec<String> {
    let mut out = BTreeSet::new();
    let mut lists: BTreeMap<&ModPath, (Vec<String>, &str)> = BTreeMap::new();
    for (p, m) in &c.modules {
        if p.is_empty() || m.test || !m.owns_file || m.file_children.is_empty() {
            continue;
        }
        let Some(list) = files_line(&c.files[&m.file]) else {
            out.insert(format!("{} does not list its files bottom up", m.file));
            continue;
        };
        let (mut a, mut b) = (list.clone(), m.file_children.clone());
        a.sort();
        b.sort();
        if a != b {
            out.insert(format!(
                "{}: the files listed {a:?} and its modules with a file {b:?} differ",
                m.file
            ));
        }
        lists.insert(p, (list, &m.file));
    }
    for (r, to, _) in c.landings() {
        for (p, (list, root)) in &lists {
            let n = p.len();
            if r.module.len() <= n
                || to.len() <= n
                || !r.module.starts_with(p)
                || !to.starts_with(p)
            {
                continue;
            }
            let at = |x: &String| list.iter().position(|l| l == x);
            if let (Some(a), Some(b)) = (at(&r.module[n]), at(&to[n])) {
                if b > a {
                    out.insert(format!(
                        "{}:{} uses {} (`{}`), listed after `{}` in {root}",
                        r.file,
                        r.line,
                        to[..=n].join("::"),
                        r.text(),
                        r.module[n]
                    ));
                }
            }
        }
    }
    out.into_iter().collect()
}

/// The most lines a source file holds: a file that outgrows it is split by job (a large type
/// gets a folder; unit tests go to a file of their own beside it).
const MAX_FILE_LINES: usize = 800;

#[test]
fn no_source_file_is_over_800_lines() {
    let long: Vec<String> = source_files()
        .into_iter()
        .filter(|(_, text)| text.lines().count() > MAX_FILE_LINES)
        .map(|(path, text)| format!("{path}: {} lines", text.lines().count()))
        .collect();
    assert!(long.is_empty(), "over {MAX_FILE_LINES} lines: {long:?}");
}

#[test]
fn every_module_uses_only_the_modules_the_crate_docs_put_below_it() {
    let files = source_files();
    let order = documented_order(&files["src/lib.rs"]);
    assert!(
        order.len() >= 10,
        "src/lib.rs lists too few layers: {order:?}"
    );
    let lib = Crate::load(files.clone(), "src/lib.rs");
    let bin = Crate::load(files.clone(), "src/main.rs");
    let mut problems: Vec<String> = lib.problems.iter().chain(&bin.problems).cloned().collect();
    for f in files.keys() {
        if !lib.reached.contains(f) && !bin.reached.contains(f) {
            problems.push(format!("{f} is no module of the crate or the binary"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let wrong = layer_problems(&lib);
    assert!(
        wrong.is_empty(),
        "modules that use a module listed after them:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_files_of_a_folder_module_use_only_those_its_docs_put_below_them() {
    let lib = Crate::load(source_files(), "src/lib.rs");
    let folders = lib
        .modules
        .values()
        .filter(|m| m.owns_file && !m.test && !m.file_children.is_empty())
        .count();
    assert!(folders >= 3, "only {folders} folder modules found");
    let wrong = folder_problems(&lib);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The uses between the command line's files (`src/cli/`), as `(user, used)` module names,
/// with where each first appears.
fn cli_uses(bin: &Crate) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for (r, to, _) in bin.landings() {
        if let ([c, from, ..], [c2, used, ..]) = (&r.module[..], &to[..]) {
            if c == "cli" && c2 == "cli" && from != used {
                out.entry((from.clone(), used.clone()))
                    .or_insert_with(|| format!("{}:{} (`{}`)", r.file, r.line, r.text()));
            }
        }
    }
    out
}

/// A circle of uses in `uses`, if there is one: its modules and where each use is.
fn circle(uses: &BTreeMap<(String, String), String>) -> Option<Vec<String>> {
    fn walk(
        n: &str,
        uses: &BTreeMap<(String, String), String>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(k) = path.iter().position(|p| p == n) {
            let mut c: Vec<String> = path[k..].to_vec();
            c.push(n.to_string());
            let wheres = c
                .windows(2)
                .map(|w| uses[&(w[0].clone(), w[1].clone())].clone());
            return Some(wheres.collect());
        }
        if !done.insert(n.to_string()) {
            return None;
        }
        path.push(n.to_string());
        for ((a, b), _) in uses.range((n.to_string(), String::new())..) {
            if a != n {
                break;
            }
            if let Some(c) = walk(b, uses, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    let starts: BTreeSet<&String> = uses.keys().map(|(a, _)| a).collect();
    starts
        .into_iter()
        .find_map(|s| walk(s, uses, &mut Vec::new(), &mut done))
}

#[test]
fn the_command_lines_files_use_each_other_without_a_circle() {
    let bin = Crate::load(source_files(), "src/main.rs");
    let uses = cli_uses(&bin);
    assert!(
        uses.len() >= 10,
        "only {} uses between cli files",
        uses.len()
    );
    if let Some(c) = circle(&uses) {
        panic!(
            "the command line's files use each other in a circle:\n{}",
            c.join("\n")
        );
    }
    // The check finds a circle where there is one.
    let mut planted = uses.clone();
    planted.insert(("common".into(), "evolve".into()), "planted".into());
    assert!(circle(&planted).is_some());
}

#[test]
fn a_use_planted_in_the_real_crate_is_caught() {
    let files = source_files();
    let order = documented_order(&files["src/lib.rs"]);
    let (bottom, top) = (&order[0], &order[order.len() - 1]);
    let mut planted = files.clone();
    let file = [format!("src/{bottom}.rs"), format!("src/{bottom}/mod.rs")]
        .into_iter()
        .find(|f| files.contains_key(f))
        .expect("the bottom module's file");
    planted.get_mut(&file).unwrap().push_str(&format!(
        "\n#[cfg(test)]\nmod tests {{}}\npub fn planted() {{ crate :: {top} /* */ :: x() }}\n"
    ));
    let wrong = layer_problems(&Crate::load(planted, "src/lib.rs"));
    assert!(
        wrong
            .iter()
            .any(|w| w.starts_with(&format!("{file}:")) && w.contains(top)),
        "{wrong:?}"
    );
    // The first file of each folder module uses its last.
    let lib = Crate::load(files.clone(), "src/lib.rs");
    for (p, m) in &lib.modules {
        if p.is_empty() || !m.owns_file || m.test || m.file_children.len() < 2 {
            continue;
        }
        let list = files_line(&files[&m.file]).expect("a list");
        let mut child = p.clone();
        child.push(list[0].clone());
        let first = lib.modules[&child].file.clone();
        let mut planted = files.clone();
        let last = &list[list.len() - 1];
        planted
            .get_mut(&first)
            .unwrap()
            .push_str(&format!("\nuse super::{{{last}}};\n"));
        let wrong = folder_problems(&Crate::load(planted, "src/lib.rs"));
        assert!(
            wrong
                .iter()
                .any(|w| w.starts_with(&format!("{first}:")) && w.contains(last.as_str())),
            "{first}: {wrong:?}"
        );
    }
}

/// The modules a file declares `pub mod` (plain `pub`, not `pub(crate)`), with their lines;
/// what only a test build compiles left out.
fn pub_mods(text: &str) -> Vec<(usize, String)> {
    let mut toks = lex::lex(text);
    lex::mark_tests(&mut toks);
    toks.windows(3)
        .filter(|w| !w[0].test && w[0].is("pub") && w[1].is("mod"))
        .filter(|w| w[2].kind == lex::Kind::Ident)
        .map(|w| (w[0].line, w[2].text.clone()))
        .collect()
}

#[test]
fn pub_mods_are_read_as_code() {
    let text = "//! pub mod doc;\npub mod a;\npub(crate) mod b;\nmod c;\n// pub mod d;\n\
                const S: &str = \"pub mod e;\";\n#[cfg(test)]\npub mod f {}\npub  mod\n  g {}\n";
    assert_eq!(pub_mods(text), vec![(2, "a".into()), (9, "g".into())]);
}

/// The public namespaces, each with the folder its file is in: the modules src/lib.rs
/// declares `pub mod`, and those it re-exports from a folder (`pub use games::{matchplay,
/// play};`, each a file of that folder).
fn namespaces(files: &BTreeMap<String, String>) -> Vec<(String, String)> {
    let lib = &files["src/lib.rs"];
    let mut out: Vec<(String, String)> = pub_mods(lib)
        .into_iter()
        .map(|(_, m)| ("src".to_string(), m))
        .collect();
    for line in lib.lines() {
        let Some(rest) = line.strip_prefix("pub use ") else {
            continue;
        };
        let Some((folder, names)) = rest.split_once("::") else {
            continue;
        };
        let dir = format!("src/{folder}");
        let names = names
            .trim_end_matches(';')
            .trim_matches(|c| c == '{' || c == '}');
        for name in names.split(',').map(str::trim) {
            let module = [format!("{dir}/{name}.rs"), format!("{dir}/{name}/mod.rs")];
            if module.iter().any(|f| files.contains_key(f)) {
                out.push((dir.clone(), name.to_string()));
            }
        }
    }
    out
}

/// Every public namespace (a module src/lib.rs declares `pub mod` or re-exports) exposes the items it
/// chooses at its own path (`matchplay::Wdl`), never a file of its own as a module
/// (`matchplay::stats::Wdl`): it declares no `pub mod`, so each of its items has one path.
#[test]
fn the_public_namespaces_expose_their_items_not_their_files() {
    let files = source_files();
    let namespaces = namespaces(&files);
    assert!(
        namespaces.len() >= 5,
        "src/lib.rs declares too few public namespaces: {namespaces:?}"
    );
    let mut wrong = Vec::new();
    for (dir, ns) in &namespaces {
        let file = [format!("{dir}/{ns}.rs"), format!("{dir}/{ns}/mod.rs")]
            .into_iter()
            .find(|f| files.contains_key(f))
            .unwrap_or_else(|| panic!("the file of module {ns}"));
        for (line, m) in pub_mods(&files[&file]) {
            wrong.push(format!(
                "{file}:{line}: `pub mod {m}` makes {ns}::{m}::* a second path to {ns}'s items; \
                 make it `mod {m}` and re-export what {ns} shows"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// A test of the test: each trick that fooled the old text search, on a small crate.

/// The old test's reading of a file: cut at `#[cfg(test)]\nmod tests`, then each line at `//`.
fn old_code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The old test's crate modules a file's code names: what follows each `crate::`.
fn old_uses(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .map(|(i, m)| {
            code[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// Whether the old test saw file `text` of module `name` use `used` (a later module).
fn old_saw(text: &str, used: &str) -> bool {
    old_uses(&old_code(text)).contains(used)
}

/// Whether the old folder test saw file `text` of folder module `name` use its file `later`.
fn old_saw_file(text: &str, name: &str, later: &str) -> bool {
    let code = old_code(text);
    [format!("super::{later}"), format!("crate::{name}::{later}")]
        .iter()
        .any(|p| code.contains(p))
}

const LIB: &str = "//! 1. [`low`]: the bottom.\n//! 2. [`high`]: the top.\n\
                   pub mod low;\npub mod high;\npub use high::Session;\n";
const HIGH: &str = "pub struct Session;\npub fn run() {}\n";

/// The problems both checks find in a crate of `src/lib.rs` (two layers, `low` below `high`),
/// `src/high.rs` and `files`.
fn problems(files: &[(&str, &str)]) -> Vec<String> {
    let mut all: BTreeMap<String, String> = [("src/lib.rs", LIB), ("src/high.rs", HIGH)]
        .iter()
        .chain(files)
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    if !all.contains_key("src/low.rs") && !all.contains_key("src/low/mod.rs") {
        all.insert("src/low.rs".into(), String::new());
    }
    let c = Crate::load(all, "src/lib.rs");
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    let mut out = layer_problems(&c);
    out.extend(folder_problems(&c));
    out
}

/// `src/low.rs` of `text` uses `crate::high`, the new test says so and the old did not see it.
fn caught_missed_before(text: &str) {
    let found = problems(&[("src/low.rs", text)]);
    assert!(
        found.iter().any(|p| p.contains("uses crate::high")),
        "not caught: {text}\n{found:?}"
    );
    assert!(!old_saw(text, "high"), "the old test saw it too: {text}");
}

#[test]
fn a_clean_crate_passes() {
    let low = "//! `crate::high` in a doc comment, /* crate::high */ nowhere.\n\
               pub fn f() -> &'static str { \"crate::high::run()\" }\n\
               pub fn g<'a>(x: &'a str) -> char { let _ = x; '\\'' }\n\
               #[cfg(test)]\nfn helper() { crate::high::run(); }\n\
               #[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::high::Session;\n}\n\
               pub fn h() { /* a /* nested */ crate::high::run(); */ }\n";
    assert_eq!(problems(&[("src/low.rs", low)]), Vec::<String>::new());
    // The old test read the string and the nested comment as code.
    assert!(old_saw(low, "high"));
}

#[test]
fn a_grouped_import_is_caught() {
    caught_missed_before("use crate::{high::Session};\n");
    caught_missed_before("use crate::{\n    high::{self, run},\n};\n");
}

#[test]
fn super_is_caught() {
    caught_missed_before("use super::high::Session;\n");
    caught_missed_before("pub fn f() { super::high::run() }\n");
    // From a file deeper in a folder module, `super::super::`.
    let found = problems(&[
        (
            "src/low/mod.rs",
            "//! Files, bottom up: `deep`.\nmod deep;\n",
        ),
        (
            "src/low/deep.rs",
            "pub fn f() { super::super::high::run() }\n",
        ),
    ]);
    assert!(
        found
            .iter()
            .any(|p| p.contains("src/low/deep.rs:1 uses crate::high")),
        "{found:?}"
    );
    assert!(!old_saw(
        "pub fn f() { super::super::high::run() }\n",
        "high"
    ));
}

#[test]
fn code_after_the_test_module_is_caught() {
    caught_missed_before(
        "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n\
         pub fn g() { crate::high::run() }\n",
    );
    caught_missed_before("#[cfg(test)]\nmod tests {}\nuse crate::high::Session;\n");
}

#[test]
fn code_after_a_double_slash_in_a_string_or_comment_is_caught() {
    caught_missed_before("const U: &str = \"http://x\"; use crate::high::Session;\n");
    caught_missed_before("const U: &str = r#\"a \"// b\"#; use crate::high::Session;\n");
    caught_missed_before("/* see http://x */ use crate::high::Session;\n");
    caught_missed_before("fn f() { let _ = ('/', \"//\"); crate::high::run() }\n");
    // A reader that strips strings naively would take `'"'` for a string's start.
    let text = "const Q: char = '\"'; fn f() { crate::high::run() } const S: &str = \"x\";\n";
    assert!(problems(&[("src/low.rs", text)])
        .iter()
        .any(|p| p.contains("crate::high")));
}

#[test]
fn spaced_renamed_and_re_exported_paths_are_caught() {
    caught_missed_before("use crate :: high :: Session;\n");
    caught_missed_before("use crate /* what */ ::high::run;\n");
    caught_missed_before("use crate as c;\npub fn f() { c::high::run() }\n");
    caught_missed_before("extern crate self as me;\npub fn f() { me::high::run() }\n");
    caught_missed_before("use super as up;\npub fn f() { up::high::run() }\n");
    // A re-export of `src/lib.rs` leads to the module it comes from.
    let found = problems(&[("src/low.rs", "pub fn f(_: crate::Session) {}\n")]);
    assert!(
        found
            .iter()
            .any(|p| p.contains("uses crate::high (`crate::Session`)")),
        "{found:?}"
    );
}

#[test]
fn paths_in_attribute_strings_and_macros_are_caught() {
    let text = "#[derive(serde::Serialize)]\npub struct S {\n    \
                #[serde(with = \"crate::high::codec\")]\n    x: u8,\n}\n";
    assert!(problems(&[("src/low.rs", text)])
        .iter()
        .any(|p| p.contains("uses crate::high")));
    caught_missed_before("macro_rules! m { () => { $crate :: high::run() }; }\n");
}

#[test]
fn a_file_moved_out_by_path_is_caught() {
    let found = problems(&[
        ("src/low.rs", "#[path = \"elsewhere/x.rs\"]\nmod x;\n"),
        ("src/elsewhere/x.rs", "pub fn f() { crate::high::run() }\n"),
    ]);
    assert!(
        found
            .iter()
            .any(|p| p.contains("src/elsewhere/x.rs:1 uses crate::high")),
        "{found:?}"
    );
    // The old test read only `src/low.rs` and `src/low/`.
}

#[test]
fn test_only_code_anywhere_is_left_out() {
    let low = "#[cfg(test)]\nuse crate::high::Session;\n#[cfg(all(test, feature = \"x\"))]\n\
               fn f() { crate::high::run() }\n#[test]\nfn g() { crate::high::run() }\n\
               pub fn h() {\n    #[cfg(test)]\n    crate::high::run();\n}\n";
    assert_eq!(problems(&[("src/low.rs", low)]), Vec::<String>::new());
    let whole = "#![cfg(test)]\nuse crate::high::Session;\n";
    assert_eq!(
        problems(&[
            ("src/low.rs", "#[cfg(test)]\nmod t;\n"),
            ("src/low/t.rs", whole)
        ]),
        Vec::<String>::new()
    );
    assert_eq!(problems(&[("src/low.rs", whole)]), Vec::<String>::new());
    let not_test = "#[cfg(not(test))]\nuse crate::high::Session;\n";
    assert!(!problems(&[("src/low.rs", not_test)]).is_empty());
}

/// A folder module `low` of files `a`, `b` (bottom up) whose `a` is `text`.
fn folder(a: &str, root: &str) -> Vec<String> {
    let root = format!("//! Files, bottom up: `a`,\n//! `b`.\n{root}mod a;\nmod b;\n");
    problems(&[
        ("src/low/mod.rs", &root),
        ("src/low/a.rs", a),
        ("src/low/b.rs", "pub struct B;\npub fn f() {}\n"),
    ])
}

/// `a` of `folder` uses `b`, the new test says so and the old did not see it.
fn file_caught_missed_before(a: &str, root: &str) {
    let found = folder(a, root);
    assert!(
        found
            .iter()
            .any(|p| p.contains("src/low/a.rs") && p.contains("uses low::b")),
        "not caught: {a}\n{found:?}"
    );
    assert!(!old_saw_file(a, "low", "b"), "the old test saw it too: {a}");
}

#[test]
fn the_files_of_a_folder_module_are_read_exactly() {
    assert_eq!(folder("pub struct A;\n", ""), Vec::<String>::new());
    // `b` may use `a` and the root's own items.
    let ok = problems(&[
        (
            "src/low/mod.rs",
            "//! Files, bottom up: `a`, `b`.\nmod a;\nmod b;\npub struct R;\n",
        ),
        ("src/low/a.rs", "use super::R;\n"),
        (
            "src/low/b.rs",
            "use super::a;\nuse crate::low::{R, a::*};\n",
        ),
    ]);
    assert_eq!(ok, Vec::<String>::new());
    file_caught_missed_before("use super::{b::B};\n", "");
    file_caught_missed_before("use crate::low::{a, b};\n", "");
    file_caught_missed_before("pub fn g() { super ::b::f() }\n", "");
    file_caught_missed_before("pub fn g() { super::super::low::b::f() }\n", "");
    file_caught_missed_before("use crate :: low :: b;\n", "");
    // Through a re-export of the root, and through a glob import of it.
    file_caught_missed_before("use super::B;\n", "pub use self::b::B;\n");
    file_caught_missed_before("use super::*;\npub fn g() { b::f() }\n", "");
    file_caught_missed_before("use super::*;\npub fn g(_: B) {}\n", "pub use b::B;\n");
    // From an inline module of `a`.
    file_caught_missed_before("mod inner {\n    use super::super::{b::B};\n}\n", "");
}

#[test]
fn nested_folders_and_their_lists_are_checked() {
    // `low/a` is a folder itself (`low/a.rs` and `low/a/`); its file `x` uses `low::b`.
    let found = problems(&[
        (
            "src/low/mod.rs",
            "//! Files, bottom up: `a`, `b`.\nmod a;\nmod b;\n",
        ),
        (
            "src/low/a.rs",
            "//! Files, bottom up: `x`, `y`.\nmod x;\nmod y;\n",
        ),
        (
            "src/low/a/x.rs",
            "use self::super::y::Y;\nuse super::super::b::B;\n",
        ),
        ("src/low/a/y.rs", "pub struct Y;\n"),
        ("src/low/b.rs", "pub struct B;\n"),
    ]);
    let expect = [
        "src/low/a/x.rs:1 uses low::a::y (`self::super::y::Y`), listed after `x` in src/low/a.rs",
        "src/low/a/x.rs:2 uses low::b (`super::super::b::B`), listed after `a` in src/low/mod.rs",
    ];
    assert_eq!(found, expect);
    // A folder without its list, and a list that misses a file.
    let found = problems(&[
        (
            "src/low/mod.rs",
            "//! Files, bottom up: `a`.\nmod a;\nmod b;\n",
        ),
        ("src/low/a.rs", "mod x;\n"),
        ("src/low/a/x.rs", ""),
        ("src/low/b.rs", ""),
    ]);
    assert_eq!(
        found,
        [
            "src/low/a.rs does not list its files bottom up",
            "src/low/mod.rs: the files listed [\"a\"] and its modules with a file [\"a\", \"b\"] differ",
        ]
    );
}

#[test]
fn the_lexer_tells_strings_comments_chars_and_lifetimes_apart() {
    use lex::{lex, Kind};
    let toks =
        lex("a /* x /* y */ z */ 'b' '\\'' 'c br#\"q\"# r\"//\" b'\"' c\"w\" x::y :: z $crate");
    let kinds: Vec<(Kind, &str)> = toks.iter().map(|t| (t.kind, t.text.as_str())).collect();
    use Kind::*;
    assert_eq!(
        kinds,
        [
            (Ident, "a"),
            (Lit, "'b'"),
            (Lit, "'\\''"),
            (Lifetime, "'c"),
            (Str, "q"),
            (Str, "//"),
            (Lit, "b'\"'"),
            (Str, "w"),
            (Ident, "x"),
            (Punct, "::"),
            (Ident, "y"),
            (Punct, "::"),
            (Ident, "z"),
            (Ident, "crate"),
        ]
    );
}
