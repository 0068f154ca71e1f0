//! The layers stay apart: the model, ingest and analysis never use the UI crates
//! (ARCHITECTURE.md), so they build and test without a window.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn model_ingest_and_analysis_never_use_the_ui_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for layer in ["model", "ingest", "analysis"] {
        rust_files(&root.join(layer), &mut files);
    }
    assert!(files.len() >= 15, "found only {} source files", files.len());
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if ["egui", "eframe", "rfd::"].iter().any(|ui| line.contains(ui)) {
                offenders.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "UI crates used below the UI layer:\n{}", offenders.join("\n"));
}

/// `crate::<module>` paths a file's non-test code names (the code above its first
/// `#[cfg(test)]`), with their lines.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + 7..];
            let mut path: String =
                after.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            if path.ends_with("::") && after[path.len()..].starts_with('{') {
                let group = &after[path.len()..];
                path.push_str(&group[..group.find('}').map_or(group.len(), |k| k + 1)]);
            }
            out.push((i + 1, path));
            rest = &after[after.len().min(1)..];
        }
    }
    out
}

/// ARCHITECTURE.md's table: `model` imports nothing of ours, `ingest` only `model`,
/// `analysis` only `model`, `report` only `model`, `analysis` and the ingest errors,
/// and the CLI never the window (`main.rs` opens it). Test modules may load files.
#[test]
fn each_layer_imports_only_what_architecture_md_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: [(&str, &[&str]); 5] = [
        ("model", &["model"]),
        ("ingest", &["model", "ingest"]),
        ("analysis", &["model", "analysis"]),
        (
            "report",
            &[
                "model",
                "analysis",
                "report",
                "ingest::LoadError",
                "ingest::LoadErrorKind",
                "ingest::{LoadError, LoadErrorKind}",
            ],
        ),
        ("cli", &["model", "analysis", "ingest", "report", "cli"]),
    ];
    let mut offenders = Vec::new();
    let mut checked = 0;
    for (layer, ok) in allowed {
        let mut files = Vec::new();
        rust_files(&root.join(layer), &mut files);
        for file in &files {
            checked += 1;
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for (line, path) in crate_paths(&text) {
                let fits =
                    |p: &&str| path == *p || (!p.contains("::") && path.starts_with(&format!("{p}::")));
                if !ok.iter().any(fits) {
                    offenders.push(format!("{}:{line}: crate::{path}", file.display()));
                }
            }
        }
    }
    assert!(checked >= 40, "checked only {checked} files");
    assert!(
        offenders.is_empty(),
        "imports across layers that ARCHITECTURE.md does not allow:\n{}",
        offenders.join("\n")
    );
    let main = std::fs::read_to_string(root.join("main.rs")).unwrap_or_default();
    assert!(main.contains("app::run"), "main.rs opens the window");
}
