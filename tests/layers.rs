//! The layers of ARCHITECTURE.md, checked: no module of the library names
//! (`crate::...`, outside comments) one of a higher layer. A module may use
//! its own layer and those below it.

use std::path::Path;

/// Each top-level module of `src/` and its layer, lowest first.
const LAYERS: &[(&str, u32)] = &[
    ("sealed", 0),
    ("progress", 0),
    ("rules", 1),
    ("shard", 1),
    ("openings", 1),
    ("search", 2),
    ("players", 3),
    ("book", 3),
    ("engine", 4),
    ("analysis", 5),
    ("tools", 5),
    ("lab", 5),
    ("protocol", 6),
    ("referee", 7),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut upward = Vec::new();
    let mut modules = std::collections::BTreeSet::new();
    for file in &files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let top = rel.split('/').next().unwrap().trim_end_matches(".rs");
        if ["main", "cli", "lib"].contains(&top) {
            continue;
        }
        let own = layer(top).unwrap_or_else(|| panic!("src/{rel}: {top} has no layer in LAYERS"));
        modules.insert(top.to_string());
        for (number, line) in std::fs::read_to_string(file).unwrap().lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if let Some(l) = layer(&name)
                    && l > own
                {
                    upward.push(format!("src/{rel}:{}: {top} uses {name}", number + 1));
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports up the layers:\n{}",
        upward.join("\n")
    );
    // Every layer named is a module that exists.
    for (m, _) in LAYERS {
        assert!(modules.contains(*m), "{m} is in LAYERS but not in src/");
    }
}
