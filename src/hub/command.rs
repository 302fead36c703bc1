//! An outside engine's command line: its words split as a shell splits them, its program
//! found as a shell finds it (with a folder, that file; a bare name, on `PATH` only), and its
//! options (`NAME=VALUE`) as a command line gives them.

use std::path::{Path, PathBuf};

/// The program a command line `cmd` starts, found ([`find_program`]), and its name (the
/// program's file name): the command's words with the first made the program's path. The
/// error says what is wrong: no words, a quote not closed, no program where it was looked for.
pub fn program_of(cmd: &str) -> Result<(Vec<String>, String), String> {
    let mut words = split_words(cmd)?;
    let Some(program) = words.first().cloned() else {
        return Err(
            "no command (expected e.g. hub:./scan hub or hub:\"python3 engine.py\")".to_string(),
        );
    };
    let search = std::env::var_os("PATH");
    let path = find_program(&program, search.as_deref()).ok_or_else(|| {
        let here = std::env::current_dir().unwrap_or_default();
        missing_program(&program, &here, search.as_deref())
    })?;
    let name = Path::new(&program)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or(program);
    words[0] = path.to_string_lossy().into_owned();
    Ok((words, name))
}

/// Whether `name` has a folder in it (`./scan`, `bin/scan`): then it is a path, not a name
/// looked up on `PATH`.
fn has_folder(name: &str) -> bool {
    name.contains('/') || (cfg!(windows) && name.contains('\\'))
}

/// Whether `p` is a file we may run.
fn runnable(p: &Path) -> bool {
    p.is_file() && {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        true
    }
}

/// The program `name` means: with a folder a path (relative to the current folder, made
/// absolute), else the first executable file of that name in the folders of `path` (the
/// `PATH`), never the current folder's (as a shell).
fn find_program(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    if has_folder(name) {
        let p = std::path::absolute(name).ok()?;
        return runnable(&p).then_some(p);
    }
    std::env::split_paths(path?)
        .map(|d| d.join(name))
        .find(|p| runnable(p))
}

/// Why `find_program` found no program `name`, saying where it looked (`path`, the `PATH`)
/// and what is in `here` (the current folder): a bare name that is a file here is not run
/// from here, as in a shell (`./name` is).
pub fn missing_program(name: &str, here: &Path, path: Option<&std::ffi::OsStr>) -> String {
    if has_folder(name) {
        let p = here.join(name);
        return if p.is_dir() {
            format!("'{name}' is a folder, not a program")
        } else if p.is_file() {
            format!(
                "'{name}' is not executable (chmod +x it, or run it through its interpreter, \
                 e.g. hub:\"python3 {name}\")"
            )
        } else {
            format!("no program '{name}' (no such file)")
        };
    }
    let searched = match path {
        None => "PATH is not set".to_string(),
        Some(p) => {
            let n = std::env::split_paths(p).count();
            format!("none on PATH ({n} folder{})", if n == 1 { "" } else { "s" })
        }
    };
    if here.join(name).is_file() {
        format!(
            "no program '{name}': {searched}; the '{name}' in the current folder runs as \
             ./{name}, as in a shell (hub:./{name})"
        )
    } else {
        format!("no program '{name}': {searched}, and none in the current folder")
    }
}

/// Words of a command line as a shell splits them: whitespace separates, `'...'` keeps
/// everything, `"..."` keeps all but `\"` and `\\`, a backslash outside quotes keeps the next
/// character.
pub fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a ' without its closing '".to_string()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a \" without its closing \"".to_string()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a \" without its closing \"".to_string()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a \\ at the end".to_string()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// An outside engine's options as given on a command line (`NAME=VALUE` each: `--option-a`,
/// `--engine-option`), in order; the first that is not one is the error.
pub fn parse_options(options: &[String]) -> Result<Vec<(String, String)>, String> {
    options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(o.clone()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_name_equals_value_and_the_first_bad_one_is_named() {
        let given = ["depth= 6 ".to_string(), "k=a=b".to_string()];
        let parsed = parse_options(&given).unwrap();
        assert_eq!(
            parsed,
            [("depth".into(), " 6 ".into()), ("k".into(), "a=b".into())]
        );
        let bad = ["a=1".to_string(), "=2".to_string(), "c".to_string()];
        assert_eq!(parse_options(&bad), Err("=2".to_string()));
        assert_eq!(parse_options(&[]), Ok(Vec::new()));
    }

    #[test]
    fn commands_split_as_a_shell_splits_them() {
        let w = |s: &str| split_words(s).unwrap();
        assert_eq!(w("  scan  hub "), ["scan", "hub"]);
        assert_eq!(
            w(r#"python3 "my engine.py" --x='a b' c\ d"#),
            ["python3", "my engine.py", "--x=a b", "c d"]
        );
        assert_eq!(w(r#""say \"hi\"" '' x"#), [r#"say "hi""#, "", "x"]);
        assert!(split_words("a 'b").is_err());
        assert!(split_words("a \"b").is_err());
        assert!(split_words("a\\").is_err());
    }

    #[test]
    fn a_missing_program_says_where_it_was_looked_for() {
        let here = std::env::temp_dir().join(format!("hub-find-{}", std::process::id()));
        std::fs::create_dir_all(here.join("bin")).unwrap();
        std::fs::write(here.join("myeng"), "#!/bin/sh\n").unwrap();
        let path = std::env::join_paths([here.join("bin"), here.join("none")]).unwrap();
        let path = Some(path.as_os_str());
        // A bare name is looked up on PATH only, even when the current folder has it.
        assert_eq!(find_program("myeng", path), None);
        assert_eq!(
            missing_program("myeng", &here, path),
            "no program 'myeng': none on PATH (2 folders); the 'myeng' in the current folder \
             runs as ./myeng, as in a shell (hub:./myeng)"
        );
        assert_eq!(
            missing_program("other", &here, path),
            "no program 'other': none on PATH (2 folders), and none in the current folder"
        );
        assert_eq!(
            missing_program("other", &here, None),
            "no program 'other': PATH is not set, and none in the current folder"
        );
        // Named with a folder: that file, which must be executable.
        assert!(missing_program("./myeng", &here, path).contains("is not executable"));
        assert!(missing_program("./bin", &here, path).contains("is a folder"));
        assert!(missing_program("./nope", &here, path).contains("(no such file)"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let exe = here.join("bin/found");
            std::fs::write(&exe, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(find_program("found", path), Some(exe));
        }
        let _ = std::fs::remove_dir_all(&here);
    }
}
