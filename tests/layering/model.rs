//! The crate as its modules: the module tree followed from `mod` declarations (`#[path]`
//! included, test-only modules marked), each module's imports (`use` trees with their groups,
//! `self`, renames and globs), and every path the non-test code writes (in `use` trees, in
//! expressions and types, in attribute strings such as `#[serde(with = "crate::x")]`), each
//! resolved to the module it lands in, re-exports followed.

use super::lex::{lex, mark_tests, matching, Kind, Tok};
use std::collections::{BTreeMap, BTreeSet};

/// A module's place: the names from the crate root down (empty for the root).
pub type ModPath = Vec<String>;

/// A path the code writes, where.
#[derive(Debug)]
pub struct Ref {
    pub file: String,
    pub line: usize,
    pub module: ModPath,
    pub segs: Vec<String>,
    /// A lone name (not followed by `::`): it can only come from a glob import.
    pub bare: bool,
}

impl Ref {
    pub fn text(&self) -> String {
        self.segs.join("::")
    }
}

/// One module (a file's root or an inline `mod x { .. }`).
#[derive(Default, Debug)]
pub struct Module {
    pub file: String,
    /// The module is its file's root (not an inline module).
    pub owns_file: bool,
    /// Only a test build compiles it.
    pub test: bool,
    /// Child modules with a file of their own, in declaration order (test-only ones left out).
    pub file_children: Vec<String>,
    /// Every child module (test-only ones left out).
    pub children: BTreeSet<String>,
    /// The names its `use` items bind, each to the path(s) it was given.
    pub bindings: BTreeMap<String, Vec<Vec<String>>>,
    /// The paths of its glob imports (`use x::*`).
    pub globs: Vec<Vec<String>>,
}

/// A crate read from its files (paths like `src/lib.rs`, `/`-separated).
#[derive(Default)]
pub struct Crate {
    pub files: BTreeMap<String, String>,
    pub modules: BTreeMap<ModPath, Module>,
    pub refs: Vec<Ref>,
    /// Every file a `mod` declaration reaches, test-only ones included.
    pub reached: BTreeSet<String>,
    /// Declarations that name no file.
    pub problems: Vec<String>,
}

fn parent(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(d, _)| d)
}

fn join(parts: &[&str]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for p in parts.iter().flat_map(|p| p.split('/')) {
        match p {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            _ => out.push(p),
        }
    }
    out.join("/")
}

/// Whether a string is a whole path from the crate (`crate::x::y`, `super::f`, `self::g`).
fn path_string(s: &str) -> Option<Vec<String>> {
    let segs: Vec<String> = s.split("::").map(|x| x.trim().to_string()).collect();
    let ok = segs.len() > 1
        && matches!(segs[0].as_str(), "crate" | "super" | "self" | "$crate")
        && segs.iter().all(|x| {
            !x.is_empty()
                && x.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        });
    ok.then(|| {
        segs.into_iter()
            .map(|x| if x == "$crate" { "crate".into() } else { x })
            .collect()
    })
}

/// The leaves of a `use` tree: (path, the name it binds, or `None` for a glob).
fn use_tree(toks: &[Tok], prefix: Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut segs = prefix;
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        if t.is("::") {
            if segs.is_empty() {
                segs.push("::".into()); // `::name`: another crate
            }
            k += 1;
        } else if t.is("*") {
            out.push((segs, None));
            return;
        } else if t.is("{") {
            let close = matching(toks, k);
            let inner = &toks[k + 1..close];
            let mut depth = 0i32;
            let mut from = 0;
            for (j, u) in inner.iter().enumerate() {
                if u.is("{") {
                    depth += 1;
                } else if u.is("}") {
                    depth -= 1;
                } else if u.is(",") && depth == 0 {
                    use_tree(&inner[from..j], segs.clone(), out);
                    from = j + 1;
                }
            }
            if from < inner.len() {
                use_tree(&inner[from..], segs, out);
            }
            return;
        } else if t.kind == Kind::Ident && t.text != "as" {
            segs.push(t.text.clone());
            k += 1;
        } else {
            break;
        }
        if toks.get(k).is_some_and(|u| u.is("as")) || k >= toks.len() {
            if segs.last().is_some_and(|s| s == "self") {
                segs.pop();
            }
            let name = match toks.get(k + 1) {
                Some(a) if toks[k].is("as") => a.text.clone(),
                _ => segs.last().cloned().unwrap_or_default(),
            };
            out.push((segs, Some(name)));
            return;
        }
    }
}

impl Crate {
    /// The crate whose root is `root` (`src/lib.rs`), its files `files`.
    pub fn load(files: BTreeMap<String, String>, root: &str) -> Crate {
        let mut c = Crate {
            files,
            ..Crate::default()
        };
        c.load_file(root, Vec::new(), false);
        c
    }

    fn load_file(&mut self, file: &str, path: ModPath, test: bool) {
        self.reached.insert(file.to_string());
        let Some(text) = self.files.get(file) else {
            self.problems
                .push(format!("module {} has no file {file}", path.join("::")));
            return;
        };
        let mut toks = lex(text);
        mark_tests(&mut toks);
        if test {
            toks.iter_mut().for_each(|t| t.test = true);
        }
        self.read(file, &toks, path, test);
    }

    /// The file of child `name`, declared in `file` inside its inline modules `inline`.
    fn child_file(
        &mut self,
        file: &str,
        inline: &[String],
        name: &str,
        at: Option<String>,
    ) -> String {
        let dir = parent(file);
        let fname = file.rsplit('/').next().unwrap_or(file);
        let base = if matches!(fname, "mod.rs" | "lib.rs" | "main.rs") {
            dir.to_string()
        } else {
            join(&[dir, fname.trim_end_matches(".rs")])
        };
        let mut parts: Vec<&str> = vec![&base];
        parts.extend(inline.iter().map(String::as_str));
        if let Some(p) = at {
            return if inline.is_empty() {
                join(&[dir, &p])
            } else {
                parts.push(&p);
                join(&parts)
            };
        }
        let d = join(&parts);
        let cands = [format!("{d}/{name}.rs"), format!("{d}/{name}/mod.rs")];
        cands
            .iter()
            .find(|f| self.files.contains_key(*f))
            .unwrap_or(&cands[0])
            .clone()
    }

    fn read(&mut self, file: &str, toks: &[Tok], path: ModPath, test: bool) {
        let root = self.modules.entry(path.clone()).or_default();
        root.file = file.to_string();
        root.owns_file = true;
        root.test = test;
        let mut stack: Vec<(ModPath, usize)> = vec![(path.clone(), usize::MAX)];
        let mut pending = Vec::new();
        let mut path_attr: Option<String> = None;
        let mut macro_export = false;
        let mut i = 0;
        while i < toks.len() {
            while stack.last().is_some_and(|(_, end)| i > *end) {
                stack.pop();
            }
            let m = stack.last().expect("the file's module").0.clone();
            let t = &toks[i];
            let next = move |k: usize| toks.get(i + k);
            let at = move |k: usize, s: &str| toks.get(i + k).is_some_and(|u| u.is(s));
            if t.is("#") && (at(1, "[") || (at(1, "!") && at(2, "["))) {
                let open = if at(1, "[") { i + 1 } else { i + 2 };
                let close = matching(toks, open);
                let attr = &toks[open + 1..close];
                if attr.len() == 3 && attr[0].is("path") && attr[2].kind == Kind::Str {
                    path_attr = Some(attr[2].text.clone());
                }
                macro_export |= attr.len() == 1 && attr[0].is("macro_export");
                for u in attr.iter().filter(|u| u.kind == Kind::Str && !u.test) {
                    if let Some(segs) = path_string(&u.text) {
                        self.add_ref(file, u.line, &m, segs, false);
                    }
                }
                i = close + 1;
                continue;
            }
            if t.is("mod") && next(1).is_some_and(|u| u.kind == Kind::Ident) {
                let name = toks[i + 1].text.clone();
                let mut child = m.clone();
                child.push(name.clone());
                let parent_test = self.modules.get(&m).is_some_and(|x| x.test);
                if at(2, "{") {
                    let end = matching(toks, i + 2);
                    let md = self.modules.entry(child.clone()).or_default();
                    md.file = file.to_string();
                    md.test = t.test || parent_test;
                    if !md.test {
                        self.module(&m).children.insert(name);
                    }
                    stack.push((child, end));
                    path_attr = None;
                    i += 3;
                    continue;
                }
                if at(2, ";") {
                    let f = self.child_file(file, &m[path.len()..], &name, path_attr.take());
                    if !(t.test || parent_test) {
                        let md = self.module(&m);
                        md.children.insert(name.clone());
                        md.file_children.push(name);
                    }
                    pending.push((f, child, t.test || parent_test));
                    i += 3;
                    continue;
                }
            }
            if t.is(";") || t.is("{") || t.is("}") {
                path_attr = None;
            }
            if t.test {
                i += 1;
                continue;
            }
            if t.is("macro_rules") && at(1, "!") && macro_export {
                // `#[macro_export]`: the macro is `crate::NAME`.
                let mut target = vec!["crate".to_string()];
                target.extend(m.iter().cloned());
                target.push(toks[i + 2].text.clone());
                self.module(&[])
                    .bindings
                    .entry(toks[i + 2].text.clone())
                    .or_default()
                    .push(target);
                macro_export = false;
            }
            if t.is("use") {
                let end = (i..toks.len())
                    .find(|&k| toks[k].is(";"))
                    .unwrap_or(toks.len());
                let mut leaves = Vec::new();
                use_tree(&toks[i + 1..end], Vec::new(), &mut leaves);
                for (segs, name) in leaves {
                    self.add_ref(file, t.line, &m, segs.clone(), false);
                    let md = self.module(&m);
                    match name {
                        Some(n) if n != "_" => {
                            let targets = md.bindings.entry(n).or_default();
                            if !targets.contains(&segs) {
                                targets.push(segs);
                            }
                        }
                        Some(_) => {}
                        None if !md.globs.contains(&segs) => md.globs.push(segs),
                        None => {}
                    }
                }
                i = end + 1;
                continue;
            }
            if t.is("extern") && at(1, "crate") && at(2, "self") && at(3, "as") {
                if let Some(n) = next(4) {
                    let n = n.text.clone();
                    self.module(&m)
                        .bindings
                        .entry(n)
                        .or_default()
                        .push(vec!["crate".into()]);
                }
                i += 5;
                continue;
            }
            let after_sep = i > 0 && (toks[i - 1].is("::") || toks[i - 1].is("."));
            if t.kind == Kind::Ident && !after_sep {
                let mut segs = vec![t.text.clone()];
                let mut j = i;
                while toks.get(j + 1).is_some_and(|u| u.is("::"))
                    && toks.get(j + 2).is_some_and(|u| u.kind == Kind::Ident)
                {
                    segs.push(toks[j + 2].text.clone());
                    j += 2;
                }
                let bare = segs.len() == 1;
                if !(bare && matches!(t.text.as_str(), "crate" | "super" | "self")) {
                    self.add_ref(file, t.line, &m, segs, bare);
                }
                i = j + 1;
                continue;
            }
            i += 1;
        }
        for (f, child, test) in pending {
            self.load_file(&f, child, test);
        }
    }

    fn module(&mut self, m: &[String]) -> &mut Module {
        self.modules.entry(m.to_vec()).or_default()
    }

    fn add_ref(&mut self, file: &str, line: usize, m: &[String], segs: Vec<String>, bare: bool) {
        self.refs.push(Ref {
            file: file.to_string(),
            line,
            module: m.to_vec(),
            segs,
            bare,
        });
    }

    /// The absolute paths (from the crate root, without `crate`) that `segs`, written in module
    /// `m`, may stand for; none for a path into another crate or a local name.
    pub fn resolve(
        &self,
        m: &[String],
        segs: &[String],
        bare: bool,
        depth: usize,
    ) -> Vec<Vec<String>> {
        self.resolve_in(m, segs, bare, depth, true)
    }

    /// [`Crate::resolve`], through the module's glob imports or not (a glob's own path is
    /// read without them).
    fn resolve_in(
        &self,
        m: &[String],
        segs: &[String],
        bare: bool,
        depth: usize,
        globs: bool,
    ) -> Vec<Vec<String>> {
        if depth > 8 || segs.is_empty() {
            return Vec::new();
        }
        match segs[0].as_str() {
            "crate" => vec![segs[1..].to_vec()],
            "self" | "super" => {
                let mut base = m.to_vec();
                let mut k = 0;
                while k < segs.len() && matches!(segs[k].as_str(), "self" | "super") {
                    if segs[k] == "super" && base.pop().is_none() {
                        return Vec::new();
                    }
                    k += 1;
                }
                base.extend(segs[k..].iter().cloned());
                vec![base]
            }
            s0 => {
                let Some(md) = self.modules.get(m) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                let with = |mut base: Vec<String>, rest: &[String]| {
                    base.extend(rest.iter().cloned());
                    base
                };
                if !bare {
                    if md.children.contains(s0) {
                        out.push(with(m.to_vec(), segs));
                    }
                    // `use serde_json;` binds a name to itself: another crate.
                    let targets = md.bindings.get(s0).into_iter().flatten();
                    for target in targets.filter(|t| t[0] != s0) {
                        for abs in self.resolve(m, target, false, depth + 1) {
                            out.push(with(abs, &segs[1..]));
                        }
                    }
                }
                for g in md.globs.iter().filter(|_| globs) {
                    for abs in self.resolve_in(m, g, false, depth + 1, false) {
                        for (gm, rest) in self.canonical(&abs, depth + 1) {
                            // A lone name is an item (a binding of the glob's module); a
                            // module is only named with `::` after it.
                            let named = self.modules.get(&gm).is_some_and(|x| {
                                (!bare && x.children.contains(s0)) || x.bindings.contains_key(s0)
                            });
                            if rest.is_none() && named {
                                out.push(with(gm, segs));
                            }
                        }
                    }
                }
                out
            }
        }
    }

    /// The module(s) an absolute path lands in, re-exports followed, with the first name that
    /// is not a module nor a re-export there (an item of that module), if any.
    pub fn canonical(&self, abs: &[String], depth: usize) -> Vec<(ModPath, Option<String>)> {
        let mut cur: ModPath = Vec::new();
        for (k, s) in abs.iter().enumerate() {
            let mut next = cur.clone();
            next.push(s.clone());
            if self.modules.get(&next).is_some_and(|x| !x.test) {
                cur = next;
                continue;
            }
            let targets = self.modules.get(&cur).and_then(|x| x.bindings.get(s));
            if depth < 8 {
                let mut out = Vec::new();
                for t in targets.into_iter().flatten() {
                    for mut a in self.resolve(&cur, t, false, depth + 1) {
                        a.extend(abs[k + 1..].iter().cloned());
                        out.extend(self.canonical(&a, depth + 1));
                    }
                }
                if !out.is_empty() {
                    return out;
                }
            }
            return vec![(cur, Some(s.clone()))];
        }
        vec![(cur, None)]
    }

    /// Every module a non-test path of the code lands in: (the path, the module, the name
    /// not found in it if any). Paths into other crates and local names give nothing.
    pub fn landings(&self) -> Vec<(&Ref, ModPath, Option<String>)> {
        let mut out = Vec::new();
        for r in &self.refs {
            if self.modules.get(&r.module).is_none_or(|m| m.test) {
                continue;
            }
            for abs in self.resolve(&r.module, &r.segs, r.bare, 0) {
                for (mp, rest) in self.canonical(&abs, 0) {
                    out.push((r, mp, rest));
                }
            }
        }
        out
    }
}

/// The names of a folder module's `Files, bottom up: `a`, `b`, `c`.` line (it may wrap onto
/// the next `//!` lines).
pub fn files_line(text: &str) -> Option<Vec<String>> {
    let docs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .collect();
    let k = docs.iter().position(|l| l.contains("Files, bottom up:"))?;
    let mut rest = docs[k].split_once("Files, bottom up:")?.1.to_string();
    for l in docs[k + 1..].iter().take_while(|l| !l.trim().is_empty()) {
        rest.push(' ');
        rest.push_str(l);
    }
    let mut names = Vec::new();
    let mut s = rest.as_str();
    loop {
        s = s.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if let Some(r) = s.strip_prefix("and ") {
            s = r;
            continue;
        }
        let Some(r) = s.strip_prefix('`') else { break };
        let (name, r) = r.split_once('`')?;
        names.push(name.to_string());
        s = r;
    }
    Some(names)
}
