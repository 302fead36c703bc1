//! The crate's source files as the structure tests read them: every `.rs` file under `src/`,
//! by its path from the repository (`src/...`), with its text.

use std::collections::BTreeMap;
use std::path::Path;

/// Every `.rs` file under `src/`, by its path from the repository.
pub fn source_files() -> BTreeMap<String, String> {
    fn walk(d: &Path, rel: &str, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = format!("{rel}/{}", e.file_name().to_string_lossy());
            if p.is_dir() {
                walk(&p, &name, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.insert(name, std::fs::read_to_string(&p).expect("a source file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    walk(&src, "src", &mut out);
    out
}
