//! Comparing runs in the window (issue 5), driven through the accessibility tree: two
//! runs open side by side, a baseline chosen, and the table's deltas are the ones
//! `framescope compare --json` prints for the same files.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope::app::{App, Persisted};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

type Window = Harness<'static, Option<App>>;

const A: &str = "sample-traces/synthetic-run-a.csv";
const B: &str = "sample-traces/synthetic-run-b.csv";

fn compared(files: &[PathBuf]) -> Window {
    let mut h = Harness::builder().with_size(egui::vec2(1400.0, 900.0)).build_ui_state(
        |ui, app: &mut Option<App>| {
            if let Some(app) = app {
                app.ui_root(ui);
            }
        },
        None,
    );
    let ctx = h.ctx.clone();
    let mut app = App::new(Persisted::default(), &ctx);
    app.set_saving(false);
    app.open_all(files, &ctx);
    *h.state_mut() = Some(app);
    settle(&mut h);
    h.state_mut().as_mut().expect("app").set_compare(true, 0);
    settle(&mut h);
    h
}

fn settle(h: &mut Window) {
    let start = Instant::now();
    let mut steps = 0;
    loop {
        h.run_steps(1);
        steps += 1;
        if steps >= 3 && h.state().as_ref().is_some_and(App::is_idle) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "not idle after 30 s: {}",
            h.state().as_ref().map_or_else(String::new, App::idle_report)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

/// The values labelled by a figure's name, in table order: baseline, other, delta, change.
fn row(h: &Window, name: &str) -> Vec<String> {
    let owned = name.to_owned();
    h.query_all_by(move |n| {
        n.role() == Role::Label && n.labelled_by().any(|l| l.value().as_deref() == Some(owned.as_str()))
    })
    .filter_map(|n| n.accesskit_node().value())
    .collect()
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
