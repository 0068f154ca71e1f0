//! The figure registry (`framescope_core::figures`) is what every front end shows:
//! for every figure, on a capture that has it, `report --json` holds its value where
//! the registry says, the readable table writes it under the registry's label with
//! the registry's decimals, and the `--html` page names it with the registry's name
//! and writes it with the registry's decimals and unit. (The window's comparison table
//! and peer panel are held to the registry in `tests/window/window_compare.rs` and
//! `window_peers.rs`.)
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::framescope;
use common::html::run_value;
use framescope_core::figures::{FIGURES, Figure, Unit};
use framescope_core::report::{Run, RunEntry};
use framescope_core::{LoadOptions, Settings, open};
use std::path::PathBuf;

/// The captures in `dir` and its folders, sorted.
fn captures_in(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(captures_in(&path));
        } else if path.extension().is_some_and(|e| e == "csv" || e == "json" || e == "hml") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The bundled captures, then the real traces (frame generation and a PC latency
/// column are only in those): each figure but PC latency from a marker log has a
/// value in at least one of them.
fn captures() -> Vec<PathBuf> {
    let mut files = captures_in(&common::repo_file("sample-traces"));
    // Issue 38's fixtures: the formats no bundled or real capture has (pyrofling's stages).
    files.extend(captures_in(&common::repo_file("tests/fixtures/i38")));
    files.extend(common::real_traces().map(|d| captures_in(&d)).unwrap_or_default());
    files
}

/// The first run of `file`, analysed with the default settings.
fn analysed(file: &PathBuf) -> Option<Run> {
    let report = open(file, &LoadOptions::default()).ok()?.analyze(&Settings::default()).ok()?;
    report.runs.into_iter().find_map(|e| match e {
        RunEntry::Run(r) => Some(*r),
        _ => None,
    })
}

/// The value written here independently of the registry's own formatting: its
/// decimals in its unit's scale, then the unit.
fn written(f: &Figure, v: f64) -> String {
    let d = f.decimals;
    match f.unit {
        Unit::Fps | Unit::Count | Unit::Ratio => format!("{:.d$}", v + 0.0),
        Unit::Ms => format!("{:.d$} ms", v + 0.0),
        Unit::Seconds => format!("{:.d$} s", v / 1000.0),
        Unit::Fraction => format!("{:.d$} %", v * 100.0),
        Unit::Watts => format!("{:.d$} W", v + 0.0),
        Unit::FpsPerWatt => format!("{:.d$} FPS/W", v + 0.0),
    }
}

/// `&`, `<`, `>`, `"`, `'` as the page escapes them.
fn escaped(text: &str) -> String {
    let text = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    text.replace('"', "&quot;").replace('\'', "&#39;")
}

#[test]
fn every_figure_is_shown_with_its_registry_name_and_decimals() {
    let dir = common::TempDir::new("figure_registry");
    let mut unseen: Vec<&'static Figure> = FIGURES.iter().collect();
    let pcl = ["latency.pcl_ms", "latency.i2fs_ms", "latency.fs2p_ms", "latency.p2d_ms"];
    for (k, file) in captures().iter().enumerate() {
        if unseen.iter().all(|f| pcl.contains(&f.qualified_name().as_str())) {
            break;
        }
        let Some(run) = analysed(file) else { continue };
        let here: Vec<&'static Figure> =
            unseen.iter().copied().filter(|f| (f.value)(&run).is_some_and(f64::is_finite)).collect();
        if here.is_empty() {
            continue;
        }
        let json = framescope(["report", "--json", file.to_str().unwrap()]);
        let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("report --json");
        let table = framescope(["report", "--conventions", file.to_str().unwrap()]).stdout;
        let page_path = dir.file(&format!("page{k}.html"), b"");
        std::fs::remove_file(&page_path).unwrap();
        let out = framescope(["report", "--html", page_path.to_str().unwrap(), file.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}: {}", file.display(), out.stderr);
        let page = std::fs::read_to_string(&page_path).expect("the page");
        for f in here {
            let key = f.qualified_name();
            let v = (f.value)(&run).unwrap();
            // JSON: the value where the registry's section and name say.
            let in_json = run_value(&doc["runs"][0], &key).as_f64();
            assert!(
                in_json.is_some_and(|j| common::close(j, v)),
                "{key} in report --json of {}",
                file.display()
            );
            // The table: "label number", the number with the registry's decimals.
            if !f.label.is_empty() {
                let number = written(f, v);
                let number = number.split(' ').next().unwrap();
                let found = table.lines().any(|line| {
                    line.match_indices(&format!("{} ", f.label))
                        .any(|(at, l)| line[at + l.len()..].trim_start().starts_with(number))
                });
                assert!(
                    found,
                    "{key}: \"{} {number}\" not in the table of {}:\n{table}",
                    f.label,
                    file.display()
                );
            }
            // The page: the registry's name in the row's head, its definition on hover,
            // the value with the registry's decimals and unit.
            let name = format!("title=\"{}\">{}</span>", escaped(f.help), escaped(&f.display_name()));
            assert!(page.contains(&name), "{key}: {name} not in the page of {}", file.display());
            let cell = format!("data-key=\"{key}\" data-run=\"0\">{}</td>", written(f, v));
            let cell_sampled = format!("data-key=\"{key}\" data-run=\"0\">≈{}</td>", written(f, v));
            assert!(
                page.contains(&cell) || page.contains(&cell_sampled),
                "{key}: {cell} not in {}",
                file.display()
            );
        }
        unseen.retain(|f| !(f.value)(&run).is_some_and(f64::is_finite));
    }
    // Every figure was checked on some capture, but PC latency from a marker log (a
    // capture and its PCL log), which `pcl_cli.rs` holds to its figures.
    let left: Vec<String> = unseen.iter().map(|f| f.qualified_name()).collect();
    if common::real_traces().is_none() {
        return; // real_traces() said why; the bundled captures were checked
    }
    assert!(left.iter().all(|k| pcl.contains(&k.as_str())), "figures no capture had: {left:?}");
}
