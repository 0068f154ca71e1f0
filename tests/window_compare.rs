//! Comparing runs in the window (issue 5), driven through the accessibility tree: two
//! runs open side by side, a baseline chosen, and the table's deltas are the ones
//! `framescope compare --json` prints for the same files.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::ui::{Window, labelled, settle, window};
use egui_kittest::kittest::Queryable as _;
use framescope::app::App;
use serde_json::Value;
use std::path::PathBuf;

const A: &str = "sample-traces/synthetic-run-a.csv";
const B: &str = "sample-traces/synthetic-run-b.csv";

/// A window with `files` open and compared, the first as baseline.
fn compared(files: &[PathBuf]) -> Window {
    let mut h = window(files);
    h.state_mut().as_mut().expect("app").set_compare(true, 0);
    settle(&mut h);
    h
}

/// A comparison row's cells: baseline, other, delta, change.
fn row(h: &Window, name: &str) -> Vec<String> {
    labelled(h, name)
}

fn number(text: &str) -> f64 {
    text.trim().trim_end_matches('%').trim().trim_start_matches('+').parse().unwrap_or(f64::NAN)
}

fn cli_compare(baseline: &str, other: &str) -> Value {
    let run = common::framescope(["compare", "--json", baseline, other]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("compare JSON")
}

#[test]
fn the_table_shows_the_cli_deltas_and_follows_the_baseline() {
    let files = [common::repo_file(A), common::repo_file(B)];
    let mut h = compared(&files);
    assert!(h.state().as_ref().is_some_and(App::comparing));
    let doc = cli_compare(&files[0].to_string_lossy(), &files[1].to_string_lossy());
    for figure in ["summary.avg_fps", "pacing.steady_fps", "stutters.count"] {
        let (section, name) = figure.split_once('.').expect("qualified");
        let want = &doc["comparison"][section][name];
        let cells = row(&h, figure);
        assert_eq!(cells.len(), 4, "{figure}: {cells:?}");
        let f = |v: &Value| v.as_f64().expect("number");
        let tolerance = |v: f64| 0.006 * v.abs().max(1.0);
        assert!(
            (number(&cells[0]) - f(&want["baseline"])).abs() <= tolerance(f(&want["baseline"])),
            "{figure} {cells:?} {want}"
        );
        assert!(
            (number(&cells[1]) - f(&want["other"])).abs() <= tolerance(f(&want["other"])),
            "{figure} {cells:?} {want}"
        );
        assert!(
            (number(&cells[2]) - f(&want["delta"])).abs() <= tolerance(f(&want["delta"])),
            "{figure} {cells:?} {want}"
        );
    }
    // B is the worse run: its average FPS delta is negative with A as baseline.
    assert!(number(&row(&h, "summary.avg_fps")[2]) < 0.0);

    // Make B the baseline by clicking its "baseline" radio: the delta changes sign.
    let radios: Vec<_> = h.query_all_by_label("baseline").collect();
    assert_eq!(radios.len(), 2, "one baseline choice per run");
    radios[1].click();
    settle(&mut h);
    let flipped = row(&h, "summary.avg_fps");
    assert!(number(&flipped[2]) > 0.0, "with B as baseline A is faster: {flipped:?}");
    let doc = cli_compare(&files[1].to_string_lossy(), &files[0].to_string_lossy());
    let want = doc["comparison"]["summary"]["avg_fps"]["delta"].as_f64().expect("delta");
    assert!((number(&flipped[2]) - want).abs() <= 0.01, "{flipped:?} vs {want}");
}

#[test]
fn closing_runs_while_comparing_keeps_the_baseline() {
    let files = [
        common::repo_file(A),
        common::repo_file(B),
        common::repo_file("sample-traces/pm-1.x_FarCryNewDawn.csv"),
    ];
    let mut h = window(&files);
    h.state_mut().as_mut().expect("app").set_compare(true, 2);
    settle(&mut h);
    let baseline = h.state().as_ref().and_then(App::baseline_name).map(str::to_owned);
    assert!(baseline.as_deref().is_some_and(|n| n.ends_with("FarCryNewDawn.csv")), "{baseline:?}");
    // Close the first run: the baseline is still FarCry, and nothing indexes past the end.
    h.state_mut().as_mut().expect("app").close_run(0);
    settle(&mut h);
    let app = h.state().as_ref().expect("app");
    assert_eq!(app.run_names().len(), 2);
    assert_eq!(app.baseline_name().map(str::to_owned), baseline);
    // Close another: one run left, no comparison.
    h.state_mut().as_mut().expect("app").close_run(0);
    settle(&mut h);
    assert!(!h.state().as_ref().expect("app").comparing());
}

#[test]
fn a_frame_clicked_while_comparing_shows_its_details() {
    let files = [common::repo_file(A), common::repo_file(B)];
    let mut h = compared(&files);
    h.state_mut().as_mut().expect("app").apply(framescope::app::timeline::Command::SelectFrame(Some(7)));
    settle(&mut h);
    let labels: Vec<String> =
        h.query_all_by_role(eframe::egui::accesskit::Role::Label).filter_map(|n| n.value()).collect();
    let heading = labels.iter().position(|v| v.starts_with("Frame of ")).expect("a frame-details heading");
    // Commands go to the run the window shows (the last opened, B).
    assert!(labels[heading].ends_with("synthetic-run-b.csv"), "{}", labels[heading]);
    let at = labels[heading..].iter().position(|v| v == "Frame").expect("the Frame row") + heading;
    assert_eq!(labels[at + 1], "7");
    // The comparison table is still there.
    assert!(!row(&h, "summary.avg_fps").is_empty());
}
