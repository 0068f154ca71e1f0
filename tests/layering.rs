//! The layers stay apart. The crate graph does most of it: `framescope-core` (model,
//! ingest, analysis, report, lod) has no GUI dependency, so it cannot use egui, and the
//! window is behind the `gui` feature. What the compiler cannot check is checked here:
//! the order of the modules inside the core (ARCHITECTURE.md's table), and that the
//! command line and the window never call each other.
//!
//! Every line of production code is read: `#[cfg(test)]` items (a test module, a
//! test-only function) are skipped to their closing brace, not to the end of the file.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The production lines of a Rust file (1-based numbers): every `#[cfg(test)]` item is
/// left out, from the attribute to the end of the item (its closing brace, or its `;`).
fn production_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut skipping = false;
    let mut depth: i64 = 0;
    let mut opened = false;
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let attr = line.trim_start();
        if !skipping && (attr.starts_with("#[cfg(test)]") || attr.starts_with("#[cfg(all(test,")) {
            skipping = true;
            depth = 0;
            opened = false;
            continue;
        }
        if !skipping {
            out.push((i + 1, line));
            continue;
        }
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
            skipping = false;
        }
    }
    out
}

/// Paths under `prefix` (`crate::`, `framescope_core::`, …) that the production code
/// names, with their lines; a `{…}` group after `::` is kept whole.
fn named_paths(text: &str, prefix: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (line, code) in production_lines(text) {
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let after = &rest[at + prefix.len()..];
            let mut path: String =
                after.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            if path.ends_with("::") && after[path.len()..].starts_with('{') {
                let group = &after[path.len()..];
                path.push_str(&group[..group.find('}').map_or(group.len(), |k| k + 1)]);
            }
            out.push((line, path));
            rest = &after[after.len().min(1)..];
        }
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// ARCHITECTURE.md's table for the core crate: `model` imports nothing of ours,
/// `ingest` only `model`, `analysis` only `model`, `lod` nothing, `presentation`
/// `model`, `analysis` and `lod`, `report` `model`, `analysis` and the ingest errors,
/// `html` the report and what it draws with; `pipeline` (files to documents) every
/// layer but `lod`.
#[test]
fn each_core_module_imports_only_what_architecture_md_allows() {
    let core = root().join("crates/framescope-core/src");
    let allowed: [(&str, &[&str]); 9] = [
        ("model", &["model"]),
        ("ingest", &["model", "ingest"]),
        ("analysis", &["model", "analysis", "lod"]),
        ("lod.rs", &["model"]),
        ("presentation", &["model", "analysis", "lod", "presentation"]),
        (
            "report",
            &[
                "model",
                "analysis",
                "figures",
                "report",
                "ingest::LoadError",
                "ingest::LoadErrorKind",
                "ingest::{LoadError, LoadErrorKind}",
            ],
        ),
        ("pipeline", &["model", "ingest", "analysis", "figures", "report", "pipeline"]),
        ("html", &["model", "analysis", "figures", "report", "lod", "presentation", "html"]),
        ("figures", &["analysis", "report::Run", "figures"]),
    ];
    let mut offenders = Vec::new();
    let mut checked = 0;
    for (layer, ok) in allowed {
        let mut files = Vec::new();
        let path = core.join(layer);
        if path.is_file() {
            files.push(path);
        } else {
            rust_files(&path, &mut files);
        }
        for file in &files {
            checked += 1;
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for (line, path) in named_paths(&text, "crate::") {
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
}

/// The command line never names the window and the window never names the command
/// line: what passes between them is `launch::WindowOptions`, and `main.rs` opens the
/// window.
#[test]
fn the_cli_and_the_window_never_call_each_other() {
    let src = root().join("src");
    let mut offenders = Vec::new();
    for (dir, forbidden) in
        [("cli", ["crate::app", "eframe", "egui"]), ("app", ["crate::cli", "cli::", "clap"])]
    {
        let mut files = Vec::new();
        rust_files(&src.join(dir), &mut files);
        assert!(!files.is_empty(), "no files under src/{dir}");
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for (line, code) in production_lines(&text) {
                if forbidden.iter().any(|f| code.split("//").next().unwrap_or("").contains(f)) {
                    offenders.push(format!("{}:{line}: {}", file.display(), code.trim()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "the CLI and the window call each other:\n{}", offenders.join("\n"));
    let main = std::fs::read_to_string(src.join("main.rs")).unwrap_or_default();
    assert!(main.contains("app::run"), "main.rs opens the window");
}

/// The core's manifest names no GUI crate (the compiler then refuses any use of one).
#[test]
fn the_core_crate_depends_on_no_gui_crate() {
    let manifest =
        std::fs::read_to_string(root().join("crates/framescope-core/Cargo.toml")).unwrap_or_default();
    assert!(manifest.contains("[dependencies]"), "the core's manifest was not read");
    for gui in ["egui", "eframe", "winit", "glow", "rfd", "egui_plot"] {
        assert!(!manifest.lines().any(|l| l.trim_start().starts_with(gui)), "the core depends on {gui}");
    }
}

#[test]
fn test_items_are_skipped_to_their_end_not_to_the_end_of_the_file() {
    let text = "use crate::model;\n#[cfg(test)]\nfn helper() {\n    crate::app::x();\n}\nuse crate::ingest;\n\
                #[cfg(test)]\nmod tests {\n    use crate::app;\n    fn f() { if x { } }\n}\nfn g() { crate::cli::y() }\n";
    let paths: Vec<String> = named_paths(text, "crate::").into_iter().map(|(_, p)| p).collect();
    assert_eq!(paths, ["model", "ingest", "cli::y"]);
}

/// The window's session and its background work are egui-free (`../shared/DESIGN.md`:
/// the window is a view over a session that only commands change): they never name
/// egui, eframe or egui_plot, so their logic is tested without a window.
#[test]
fn the_session_and_its_work_never_name_egui() {
    let app = root().join("src/app");
    let mut files = Vec::new();
    for dir in ["session", "work"] {
        rust_files(&app.join(dir), &mut files);
    }
    files.push(app.join("settings.rs"));
    assert!(files.len() >= 10, "only {} files", files.len());
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        assert!(!text.is_empty(), "{} was not read", file.display());
        for (line, code) in production_lines(&text) {
            let code = code.split("//").next().unwrap_or("");
            if ["egui", "eframe"].iter().any(|g| code.contains(g)) {
                offenders.push(format!("{}:{line}: {}", file.display(), code.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "the session names the GUI:\n{}", offenders.join("\n"));
}

/// The modules a path names right after each `app::` or `super::` in `code`: the next
/// segment, or each item's first segment of a `{…}` group.
fn modules_after_app_or_super(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    for prefix in ["app::", "super::"] {
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let after = &rest[at + prefix.len()..];
            if let Some(group) = after.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                out.extend(group.split(',').map(|item| ident(item.trim())));
            } else {
                out.push(ident(after));
            }
            rest = after;
        }
    }
    out
}

/// The session sits below the drawing: it never names the timeline, the charts, the
/// panels or the shell (through `crate::app::…` or `super::…`), nor egui; the
/// timeline imports its view types (`TimeView`, `TimelineCommand`) from the session,
/// never the other way round.
#[test]
fn the_session_imports_nothing_from_the_drawing_modules() {
    let mut files = Vec::new();
    rust_files(&root().join("src/app/session"), &mut files);
    assert!(files.len() >= 10, "only {} files under src/app/session", files.len());
    let drawing = ["timeline", "charts", "panels", "shell", "theme", "dialog", "icon", "eframe", "egui"];
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        assert!(!text.is_empty(), "{} was not read", file.display());
        for (line, code) in production_lines(&text) {
            let code = code.split("//").next().unwrap_or("");
            let named = modules_after_app_or_super(code);
            if named.iter().any(|m| drawing.contains(&m.as_str())) || code.contains("egui") {
                offenders.push(format!("{}:{line}: {}", file.display(), code.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "the session names a drawing module:\n{}", offenders.join("\n"));
    // The timeline takes its view types from the session and has none of its own.
    let timeline = std::fs::read_to_string(root().join("src/app/timeline/mod.rs")).unwrap_or_default();
    assert!(
        timeline.contains("crate::app::session::{TimeView, TimelineCommand"),
        "the timeline's view types"
    );
    assert!(!root().join("src/app/timeline/view.rs").exists(), "a view module in the timeline");
}

#[test]
fn modules_are_read_after_app_and_super_and_in_groups() {
    let code = "use crate::app::{timeline::Command, work}; use super::super::charts; x::app::panels::y()";
    assert_eq!(modules_after_app_or_super(code), ["timeline", "work", "panels", "super", "charts"]);
}

/// Only the window's shell implements `App`: panels are free functions that read the
/// state and return commands, applied in one place.
#[test]
fn only_the_shell_implements_app() {
    let mut files = Vec::new();
    rust_files(&root().join("src/app"), &mut files);
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "shell"))
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            text.lines().any(|l| l.trim_start().starts_with("impl App") || l.contains("impl eframe::App"))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(files.len() >= 40, "only {} files under src/app", files.len());
    assert!(offenders.is_empty(), "impl App outside src/app/shell: {offenders:?}");
}

/// The text matches of production code that read no message: (file, receiver) and why
/// the text is not a message (column names, lines of the file, keys framescope makes).
const TEXT_MATCHES: &[(&str, &str, &str)] = &[
    ("presentation/axes.rs", "n", "a column name's unit"),
    ("html/compared.rs", "key", "a figure's JSON key"),
    (
        "pipeline/selector.rs",
        "application",
        "the `session N (…)` name the sampled-log reader gives a session",
    ),
    ("ingest/nvidia_app.rs", "n", "column names"),
    ("ingest/xrframetools.rs", "b", "XRFrameTools' column names"),
    ("ingest/xrframetools.rs", "name", "XRFrameTools' column names"),
    ("ingest/xrframetools.rs", "n", "XRFrameTools' column names"),
    ("ingest/nvidia_app.rs", "lower", "column names"),
    ("ingest/generic.rs", "s", "column names"),
    ("ingest/generic_extra.rs", "l", "a column name's unit"),
    ("ingest/preamble.rs", "t", "MangoHud's preamble lines"),
    ("ingest/mangohud_summary.rs", "stem", "a file name (a summary file has no summary beside it)"),
    ("record/mangohud.rs", "name", "a Vulkan layer manifest's file name"),
    ("record/mangohud.rs", "n", "MangoHud's log file names"),
    ("record/presentmon.rs", "pm_name", "PresentMon's program names (PresentMon-2.x.y-x64.exe)"),
    (
        "record/presentmon.rs",
        "pm_output",
        "PresentMon's console output: its one sign of a refused trace session (exit 6 is any failure)",
    ),
    ("ingest/pcl.rs", "t", "a marker log's lines"),
    ("ingest/pcl.rs", "event", "a marker log's event names"),
    ("ingest/detect.rs", "first", "a header's first cell"),
    ("ingest/table/mod.rs", "trimmed", "a file's `//` comment lines"),
    ("analysis/efficiency.rs", "lower", "power column names"),
    ("ingest/android.rs", "dump_line", "an Android dump's title lines (format detection)"),
    ("cli/history.rs", "db", "a history argument's URL scheme (`postgres://`)"),
    ("framescope-history/src/lib.rs", "db", "a history argument's URL scheme (`postgres://`)"),
];

/// Words that make a receiver a message, an error or a warning: never matched on.
const MESSAGE_WORDS: [&str; 6] = ["message", "msg", "err", "warning", "reason", "text"];

/// Each `.contains("…")`, `.starts_with("…")` or `.ends_with("…")` of a production line:
/// the expression it is called on (`a.b.c()`), as far back as the line shows it.
fn text_matches(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for call in [".contains(\"", ".starts_with(\"", ".ends_with(\""] {
        for (at, _) in code.match_indices(call) {
            let before = &code[..at];
            let start = before
                .char_indices()
                .rev()
                .find(|&(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '(' | ')')))
                .map_or(0, |(k, c)| k + c.len_utf8());
            out.push(before[start..].trim_start_matches(['(', ')']).to_owned());
        }
    }
    out
}

/// Issue 35: no production code decides by a message's words. Warnings and errors are
/// typed (`WarningKind`, `DetectError`, `AnalysisError`, …); a text match is allowed only
/// on text that is no message, listed in [`TEXT_MATCHES`] with the reason.
#[test]
fn no_production_code_branches_on_message_text() {
    let mut files = Vec::new();
    for dir in
        ["src", "crates/framescope-core/src", "crates/framescope-py/src", "crates/framescope-history/src"]
    {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 50, "the sources were not found");
    let mut offenders = Vec::new();
    for file in &files {
        let path = file.to_string_lossy().replace('\\', "/");
        // A `tests.rs`, a `*_tests.rs` or a file under `tests/` is a test module
        // (`#[cfg(test)] mod tests;`, `#[cfg(test)] #[path = "x_tests.rs"] mod tests;`).
        if path.ends_with("/tests.rs") || path.ends_with("_tests.rs") || path.contains("/tests/") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (line, code) in production_lines(&text) {
            let code = code.split("//").next().unwrap_or("");
            for receiver in text_matches(code) {
                let root_name = receiver.split('.').next().unwrap_or("");
                let lower = receiver.to_ascii_lowercase();
                let allowed = !MESSAGE_WORDS.iter().any(|w| lower.contains(w))
                    && TEXT_MATCHES.iter().any(|(f, r, _)| path.ends_with(f) && *r == root_name);
                if !allowed {
                    offenders.push(format!("{path}:{line}: `{receiver}`: {}", code.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "production code matches text that may be a message (type it, or list it in TEXT_MATCHES with why):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn text_matches_name_the_expression_they_are_called_on() {
    assert_eq!(text_matches("if w.message.starts_with(\"PCL\") {"), vec!["w.message"]);
    assert_eq!(
        text_matches("e.to_string().contains(\"x\") && (n.ends_with(\"ms\"))"),
        vec!["e.to_string()", "n"]
    );
    assert!(text_matches("names.contains(&x)").is_empty());
}

/// Row names of the window's timeline that are words a figure's name also is: the
/// stutter row is "Stutters" as the figure `stutters.count` is, but it is a row, not
/// the figure.
const NOT_FIGURE_NAMES: &[(&str, &str)] = &[
    ("src/app/timeline/stutter_row.rs", "Stutters"),
    // A column of the summary file MangoHud writes (its header, read by name).
    ("crates/framescope-core/src/ingest/mangohud_summary.rs", "Average FPS"),
];

/// A figure's name is spelled once, in the registry (`framescope_core::figures`): no
/// production file outside it holds a string literal that is a figure's display name,
/// so every front end must take the name from the registry.
#[test]
fn no_production_file_outside_the_registry_spells_a_figure_name() {
    let names: Vec<String> = framescope_core::figures::FIGURES
        .iter()
        .map(framescope_core::figures::Figure::display_name)
        .collect();
    assert!(names.len() >= 70, "{} figures", names.len());
    let mut files = Vec::new();
    for dir in [
        "src",
        "crates/framescope-core/src",
        "crates/framescope-py/src",
        "crates/framescope-parquet/src",
        "crates/framescope-history/src",
    ] {
        rust_files(&root().join(dir), &mut files);
    }
    let registry = root().join("crates/framescope-core/src/figures");
    let mut offenders = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(&registry)) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let relative = file.strip_prefix(root()).unwrap_or(file).to_string_lossy().replace('\\', "/");
        for (line, code) in
            production_lines(&text).into_iter().filter(|(_, c)| !c.trim_start().starts_with("//"))
        {
            for name in &names {
                let allowed = NOT_FIGURE_NAMES.iter().any(|(f, n)| relative == *f && n == name);
                if code.contains(&format!("\"{name}\"")) && !allowed {
                    offenders.push(format!("{relative}:{line}: \"{name}\""));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "figure names spelled outside the registry:\n{}", offenders.join("\n"));
}

#[test]
fn the_figure_name_check_sees_a_spelled_name() {
    let code = "rows.push((\"1% low FPS\", v));";
    let names: Vec<String> = framescope_core::figures::FIGURES
        .iter()
        .map(framescope_core::figures::Figure::display_name)
        .collect();
    assert!(names.iter().any(|n| code.contains(&format!("\"{n}\""))));
}
