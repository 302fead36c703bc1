//! A tuner that is a module of its own stays one: each folder of `src/tuners/` (a one-file
//! tuner, whole: its algorithm, its checkpoint, its registration) is named in the code of at
//! most three files outside it, its registration: `src/tuners/mod.rs` (its `mod` line),
//! `src/lib.rs` (its re-exports) and `src/rng.rs` (its random streams' purpose). Everything
//! else (its command and flags, `new --tuner`, `resume`, `show`, `history`, `report`,
//! `export`, `match`, `tune-sim`, the schedule log) reaches it through the list of registered
//! tuners. Comments and test code may name it; code and strings may not.

#[path = "layering/lex.rs"]
#[allow(dead_code)]
mod lex;
#[path = "layering/sources.rs"]
mod sources;
use sources::source_files;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// The files outside a tuner's folder that may name it: its registration.
const REGISTRATION: [&str; 3] = ["src/tuners/mod.rs", "src/lib.rs", "src/rng.rs"];

/// The lines of `src` whose code (not comments, not test code) names `tuner`: an identifier
/// or a string that holds its name, in any case.
fn named_in(src: &str, tuner: &str) -> Vec<usize> {
    let lower = tuner.to_lowercase();
    let mut toks = lex::lex(src);
    lex::mark_tests(&mut toks);
    toks.into_iter()
        .filter(|t| !t.test)
        .filter(|t| matches!(t.kind, lex::Kind::Ident | lex::Kind::Str))
        .filter(|t| t.text.to_lowercase().contains(&lower))
        .map(|t| t.line)
        .collect()
}

/// The tuners that are modules of their own: the folders of `src/tuners/`.
fn tuner_folders() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(repo("src/tuners"))
        .expect("src/tuners")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// Where the code outside tuner `name`'s folder names it, but for its registration.
fn outside(files: &BTreeMap<String, String>, name: &str) -> Vec<String> {
    let own = format!("src/tuners/{name}/");
    let mut wrong = Vec::new();
    for (path, src) in files {
        // A file of tests only (`mod tests;` in its own file, `#[path = "x_tests.rs"]`).
        let tests_only = path.ends_with("/tests.rs") || path.ends_with("_tests.rs");
        if path.starts_with(&own) || REGISTRATION.contains(&path.as_str()) || tests_only {
            continue;
        }
        for line in named_in(src, name) {
            wrong.push(format!("{path}:{line}"));
        }
    }
    wrong
}

#[test]
fn a_tuner_module_is_named_outside_its_folder_only_where_it_is_registered() {
    let files = source_files();
    let tuners = tuner_folders();
    assert!(tuners.contains(&"cmaes".to_string()), "{tuners:?}");
    for name in &tuners {
        let wrong = outside(&files, name);
        assert!(
            wrong.is_empty(),
            "{name} is named outside src/tuners/{name}/ beyond its registration \
             ({REGISTRATION:?}): {wrong:?}"
        );
        // Its registration names it, in every one of those files.
        for r in REGISTRATION {
            assert!(
                !named_in(&files[r], name).is_empty(),
                "{r} does not register {name}"
            );
        }
    }
}

#[test]
fn the_check_sees_a_tuner_named_in_code_but_not_in_comments_or_tests() {
    let mut files = source_files();
    let planted = "src/session/folder.rs";
    let clean = files[planted].clone();
    // A comment, a doc line and a test are not code.
    files.get_mut(planted).unwrap().push_str(
        "\n// cmaes\n/// CMA-ES\n#[cfg(test)]\nmod planted { fn f() { let _ = \"cmaes\"; } }\n",
    );
    assert!(outside(&files, "cmaes").is_empty());
    // A path and a string in code are.
    for code in [
        "\nfn planted() { crate::cmaes::x() }\n",
        "\nconst P: &str = \"cmaes.ckpt\";\n",
        "\nfn planted(_: CmaesState) {}\n",
    ] {
        files.insert(planted.to_string(), format!("{clean}{code}"));
        let wrong = outside(&files, "cmaes");
        assert!(
            wrong.iter().any(|w| w.starts_with(planted)),
            "{code}: {wrong:?}"
        );
    }
}
