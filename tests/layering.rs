//! The crate's layering is what its docs say: `src/lib.rs` lists the modules from the bottom
//! up ("Each module uses only the modules listed before it"), and every module's code (its
//! unit tests aside) names only modules listed before it. Within a folder module the files are
//! layered too, in the order its root file's docs list them (`Files, bottom up: ...`).

mod common;

use common::repo;
use std::collections::BTreeSet;
use std::path::Path;

/// The modules in the order the crate docs list them.
fn documented_order() -> Vec<String> {
    let lib = std::fs::read_to_string(repo("src/lib.rs")).expect("src/lib.rs");
    let order: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .filter_map(|l| {
            let (num, rest) = l.split_once(". [`")?;
            num.trim().parse::<u32>().ok()?;
            Some(rest.split('`').next()?.to_string())
        })
        .collect();
    assert!(
        order.len() >= 10,
        "src/lib.rs lists too few layers: {order:?}"
    );
    order
}

/// The code of a file without comments and without its `#[cfg(test)]` module (the tests of a
/// module may use anything).
fn code(text: &str) -> String {
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

/// The crate modules `code` names (`crate::X`).
fn uses(code: &str) -> BTreeSet<String> {
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

/// The `.rs` files of module `name`: `src/NAME.rs` or everything under `src/NAME/`.
fn files_of(name: &str) -> Vec<std::path::PathBuf> {
    let file = repo(&format!("src/{name}.rs"));
    let dir = repo(&format!("src/{name}"));
    let mut out = Vec::new();
    if file.is_file() {
        out.push(file);
    }
    fn walk(d: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    if dir.is_dir() {
        walk(&dir, &mut out);
    }
    out
}

#[test]
fn every_module_uses_only_the_modules_the_crate_docs_put_below_it() {
    let order = documented_order();
    let lib = std::fs::read_to_string(repo("src/lib.rs")).unwrap();
    let declared: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    assert_eq!(
        declared, listed,
        "the modules of src/lib.rs and the layers its docs list differ"
    );
    let mut wrong = Vec::new();
    for (k, name) in order.iter().enumerate() {
        let below: BTreeSet<&str> = order[..k].iter().map(String::as_str).collect();
        for f in files_of(name) {
            let text = std::fs::read_to_string(&f).unwrap();
            for used in uses(&code(&text)) {
                if used != *name && !below.contains(used.as_str()) {
                    wrong.push(format!("{} uses crate::{used}", f.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "modules that use a module listed after them:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_files_of_a_folder_module_use_only_those_its_docs_put_below_them() {
    for name in documented_order() {
        if !repo(&format!("src/{name}")).is_dir() {
            continue;
        }
        let root = [format!("src/{name}/mod.rs"), format!("src/{name}.rs")]
            .into_iter()
            .map(|p| repo(&p))
            .find(|p| p.is_file())
            .expect("a folder module's root file");
        let text = std::fs::read_to_string(&root).unwrap();
        // `//! Files, bottom up: `a`, `b`, `c`.`
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("//! Files, bottom up: "))
            .unwrap_or_else(|| panic!("{} does not list its files bottom up", root.display()));
        let subs: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
        let mut on_disk: Vec<String> = std::fs::read_dir(repo(&format!("src/{name}")))
            .unwrap()
            .flatten()
            .filter_map(|e| {
                e.file_name()
                    .to_str()?
                    .strip_suffix(".rs")
                    .map(String::from)
            })
            .filter(|f| f != "mod")
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = subs.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(
            listed,
            on_disk,
            "{}: the files listed and on disk",
            root.display()
        );
        for (k, sub) in subs.iter().enumerate() {
            let path = repo(&format!("src/{name}/{sub}.rs"));
            let code = code(&std::fs::read_to_string(&path).unwrap());
            for later in &subs[k + 1..] {
                for pattern in [format!("super::{later}"), format!("crate::{name}::{later}")] {
                    assert!(
                        !code.contains(&pattern),
                        "{} uses {pattern}, listed after it in {}",
                        path.display(),
                        root.display()
                    );
                }
            }
        }
    }
}
