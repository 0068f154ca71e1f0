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
