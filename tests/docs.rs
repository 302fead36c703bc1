//! The repository's own documentation: docs/parameters.md lists every parameter with the name
//! and description the code uses; every relative link of the README and docs/ leads to a file
//! of the repository; nothing refers to a document outside it.

mod common;

use checkers_ga::ALL_PARAMS;
use common::repo;
use std::path::{Path, PathBuf};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Markdown files of the repository: the README and docs/*.md.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![repo("README.md")];
    for e in std::fs::read_dir(repo("docs")).expect("docs/ exists") {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    files
}

#[test]
fn the_parameter_table_has_every_parameter_as_the_code_names_and_describes_it() {
    let doc = read(&repo("docs/parameters.md"));
    for (i, p) in ALL_PARAMS.iter().enumerate() {
        let row = format!("| {} | `{}` | {} |", i + 1, p.name, p.description);
        assert!(
            doc.contains(&row),
            "docs/parameters.md lacks the row\n{row}"
        );
    }
    let rows = doc
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" | `"))
        .filter(|l| l[2..].split(' ').next().unwrap().parse::<usize>().is_ok())
        .count();
    assert_eq!(rows, ALL_PARAMS.len(), "one row per parameter");
}

#[test]
fn relative_links_lead_to_files_of_the_repository() {
    let mut checked = 0;
    for file in markdown_files() {
        let text = read(&file);
        let dir = file.parent().unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let target = &rest[..rest.find(')').unwrap_or(rest.len())];
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let path = target.split('#').next().unwrap();
            assert!(
                dir.join(path).exists(),
                "{}: link to '{target}' leads nowhere",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 5,
        "the docs link to each other ({checked} links)"
    );
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn nothing_refers_to_documents_outside_the_repository() {
    // The sources, tests (and their data), scripts, CI and docs refer to the repository's own
    // docs only.
    let mut files = vec![repo("README.md"), repo("Cargo.toml")];
    for dir in ["src", "tests", "scripts", ".ci", "docs", "weights", "data"] {
        files_under(&repo(dir), &mut files);
    }
    // Built by pieces, so this file does not match itself.
    let needles = [["SP", "EC"].concat(), ["../", "shared"].concat()];
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for n in &needles {
            let found = bytes.windows(n.len()).any(|w| w == n.as_bytes());
            assert!(!found, "{} mentions '{n}'", f.display());
        }
    }
    assert!(files.len() > 40, "{} files", files.len());
}

#[test]
fn the_readme_opens_with_the_two_commands_and_keeps_one_short_line_per_command() {
    let readme = read(&repo("README.md"));
    // The first code block is the contract: the main job and the tests, nothing else.
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a ```sh block");
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    // The tests run to the end whatever fails: one failing test (of 40 binaries) must not hide
    // the others' results, and CI runs exactly this command.
    assert_eq!(
        commands,
        ["cargo run --release -- new", "cargo test --no-fail-fast"]
    );
    let ci = read(&repo(".ci/run"));
    assert!(
        ci.lines().any(|l| l.trim() == commands[1]),
        ".ci/run does not run the README's test command"
    );
    let at = readme.find(block).unwrap();
    assert!(
        readme[..at].lines().count() < 12,
        "the two commands are near the top"
    );
    // The commands table: one row per command, each short (the options are in --help and
    // docs/).
    let rows: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `")).collect();
    for cmd in [
        "new", "resume", "show", "export", "history", "report", "play", "match", "features",
        "perft", "bench",
    ] {
        let n = rows
            .iter()
            .filter(|r| {
                r[3..].starts_with(&format!("{cmd}`")) || r[3..].starts_with(&format!("{cmd} "))
            })
            .count();
        assert_eq!(n, 1, "one row for {cmd}");
    }
    for r in &rows {
        assert!(r.len() <= 160, "a long row ({}): {r}", r.len());
    }
}

#[test]
fn the_slurm_script_that_scripts_test_slurm_reads_is_in_docs_clusters() {
    // scripts/test-slurm.sh takes the first ```sh block after the line starting **Slurm**.
    let doc = read(&repo("docs/clusters.md"));
    let after = doc
        .split("\n**Slurm**")
        .nth(1)
        .expect("docs/clusters.md has a **Slurm** paragraph");
    let script = after
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    assert!(script.starts_with("#!/bin/bash\n#SBATCH"), "{script}");
    assert!(script.contains("checkers-ga resume big --generations 100000"));
    let test = read(&repo("scripts/test-slurm.sh"));
    assert!(
        test.contains("' docs/clusters.md >"),
        "the test reads docs/clusters.md"
    );
    assert!(doc.contains("`scripts/test-slurm.sh` (run by CI) reads it from this\nfile"));
}

/// The README's Layout section names every folder and top-level file of src/ (as `name/` or
/// `name.rs`), and the library's modules in the order src/lib.rs lists its layers.
#[test]
fn the_readme_layout_names_every_part_of_src_in_the_layer_order() {
    let readme = read(&repo("README.md"));
    let start = readme.find("## Layout").expect("a Layout section");
    let end = readme[start + 3..]
        .find("\n## ")
        .map_or(readme.len(), |i| start + 3 + i);
    let layout = &readme[start..end];
    let mut names = Vec::new();
    for e in std::fs::read_dir(repo("src")).expect("src/") {
        let p = e.unwrap().path();
        let file = p.file_name().unwrap().to_string_lossy().to_string();
        names.push(if p.is_dir() { format!("{file}/") } else { file });
    }
    for n in &names {
        assert!(
            layout.contains(&format!("`{n}`")) || layout.contains(&format!("`src/{n}`")),
            "the README's Layout section does not name src/{n}"
        );
    }
    // The layers, in src/lib.rs's order: `N. `name`` lines of its docs.
    let lib = read(&repo("src/lib.rs"));
    let layers: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .filter_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            n.trim().parse::<u32>().ok()?;
            let rest = rest.strip_prefix('[').unwrap_or(rest).strip_prefix('`')?;
            Some(rest.split('`').next()?.to_string())
        })
        .collect();
    assert!(layers.len() >= 8, "{layers:?}");
    let mut at = 0;
    for m in &layers {
        let word = if repo("src").join(m).is_dir() {
            format!("`{m}/`")
        } else {
            format!("`{m}.rs`")
        };
        let Some(i) = layout[at..].find(&word) else {
            panic!(
                "the README's Layout section names {word} before a layer below it, or not at all"
            );
        };
        at += i;
    }
}
