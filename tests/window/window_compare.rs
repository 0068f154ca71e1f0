//! Comparing runs in the window, driven as a user drives it: the "Compare runs"
//! checkbox ticked, a baseline radio clicked, a run closed with its button, a frame
//! clicked on a timeline. Every row of the comparison table — both values, the delta
//! and the change — is what `framescope compare --json` prints for the same files.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{
    Window, app, click_at, compared, default_trace, frame_pos, labelled, run_id, settle, window,
};
use eframe::egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use framescope_core::figures::{Figure, Unit, figure};
use serde_json::Value;

const A: &str = "sample-traces/synthetic-run-a.csv";
const B: &str = "sample-traces/synthetic-run-b.csv";
/// A capture without generated frames, with display data.
const SAMPLE: &str = "sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv";
const NARAKA: &str = "presentmon-2x/pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv";

/// `v` with `d` decimals, never "-0.00".
fn fixed(v: f64, d: usize) -> String {
    let text = format!("{v:.d$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => text,
    }
}

/// A figure's name in the table (the registry's) and the figure, whose unit and
/// decimals say how its values are written.
fn name_and_unit(qualified: &str) -> (String, &'static Figure) {
    let f = figure(qualified).unwrap_or_else(|| panic!("{qualified} is not in the registry"));
    (f.display_name(), f)
}

/// A value as the table shows it, written here independently of the window: the
/// registry's decimals in the unit's scale, then the unit ("ms", "s", "%").
fn shown(v: f64, f: &Figure) -> String {
    let d = f.decimals;
    match f.unit {
        Unit::Fps | Unit::Ratio | Unit::Count => fixed(v, d),
        Unit::Ms => format!("{} ms", fixed(v, d)),
        Unit::Seconds => format!("{} s", fixed(v / 1000.0, d)),
        Unit::Fraction => format!("{} %", fixed(v * 100.0, d)),
        Unit::Watts => format!("{} W", fixed(v, d)),
        Unit::FpsPerWatt => format!("{} FPS/W", fixed(v, d)),
    }
}

/// A delta as the table shows it: "+" when it shows as more than zero; a fraction's in
/// percentage points.
fn signed(v: f64, f: &Figure) -> String {
    let text =
        if f.unit == Unit::Fraction { format!("{} pp", fixed(v * 100.0, f.decimals)) } else { shown(v, f) };
    let number = text.split(' ').next().unwrap_or_default().to_owned();
    if v > 0.0 && number.parse::<f64>().unwrap() != 0.0 { format!("+{text}") } else { text }
}

/// A relative change: "+1.2 %".
fn change(r: f64) -> String {
    let text = fixed(r * 100.0, 1);
    if text.starts_with('-') || text.parse::<f64>().unwrap() == 0.0 {
        format!("{text} %")
    } else {
        format!("+{text} %")
    }
}

/// The verdict column for a compared figure, from the CLI's JSON with the same noise
/// band (`compare --noise-band`, default ±1 %, as the window's): frames, duration and
/// `max_fps` have none ("—"); an unchanged figure is "same"; a change with `better`
/// null (inside the band: checked against `band`) "noise".
fn verdict(figure: &str, entry: &Value, band: f64) -> &'static str {
    // Never judged: the counts, `max_fps` (metrics.md §9) and the limiter (§13).
    if figure == "run.frames"
        || figure == "run.duration_ms"
        || figure.ends_with(".max_fps")
        || figure.starts_with("limiter.")
    {
        assert!(entry["better"].is_null(), "{figure} never gets a verdict: {entry}");
        return "—";
    }
    let inside = entry["relative"].as_f64().is_some_and(|r| r.abs() < band);
    match (entry["better"].as_bool(), entry["delta"].as_f64()) {
        (None, Some(0.0)) => "same",
        (None, _) => {
            assert!(inside, "{figure}: better null outside the band: {entry}");
            "noise"
        }
        (Some(_), _) => {
            assert!(!inside, "{figure}: a verdict inside the band: {entry}");
            if entry["better"].as_bool() == Some(true) { "better" } else { "worse" }
        }
    }
}

/// A figure's value in a run of the JSON document.
fn run_value(run: &Value, section: &str, name: &str) -> Option<f64> {
    match (section, name.strip_suffix("_fps")) {
        ("run", _) => run[name].as_f64(),
        ("frame_types", Some(kind)) => run["frame_types"][kind]["fps"].as_f64(),
        _ => run[section][name].as_f64(),
    }
}

/// Checks every row of the comparison table against the CLI's comparison: a figure
/// either run has is a row of five cells (baseline, other, delta, change, verdict)
/// under its name; one side missing shows "—" and "not comparable"; a figure neither
/// run has is no row. `band` is the noise band set in the window.
fn check_every_row(h: &Window, doc: &Value, band: f64) {
    let mut rows = 0;
    // The window lists framescope's own figures; the peer tools' (`conventions`) are the
    // CLI's `--convention`, and the telemetry means have a table of their own.
    let sections = doc["comparison"]
        .as_object()
        .expect("comparison")
        .iter()
        .filter(|(k, _)| *k != "conventions" && *k != "telemetry");
    for (section, figures) in sections {
        for (name, entry) in figures.as_object().expect("a section") {
            let figure = format!("{section}.{name}");
            let (title, unit) = name_and_unit(&figure);
            let side = |k: usize| run_value(&doc["runs"][k], section, name);
            let want: Vec<String> = if entry.is_null() {
                match (side(0), side(1)) {
                    (None, None) => Vec::new(),
                    (b, o) => {
                        let cell = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| shown(v, unit));
                        vec![cell(b), cell(o), "not comparable".into(), "—".into(), "—".into()]
                    }
                }
            } else {
                let f = |k: &str| entry[k].as_f64().unwrap_or_else(|| panic!("{figure}.{k}: {entry}"));
                let rel = entry["relative"].as_f64().map_or_else(|| "—".to_owned(), change);
                vec![
                    shown(f("baseline"), unit),
                    shown(f("other"), unit),
                    signed(f("delta"), unit),
                    rel,
                    verdict(&figure, entry, band).to_owned(),
                ]
            };
            assert_eq!(labelled(h, &title), want, "{figure} ({title}): {entry}");
            rows += usize::from(!want.is_empty());
        }
    }
    assert!(rows >= 20, "only {rows} rows");
}

#[test]
fn every_row_of_the_table_is_the_clis_and_follows_the_baseline() {
    let files = [common::repo_file(A), common::repo_file(B)];
    let mut h = compared(&files);
    check_every_row(&h, &common::compare_json(&files[0], &files[1]), 0.01);
    // B is the worse run: its average FPS delta is negative with A as baseline.
    assert!(labelled(&h, "Average FPS")[2].starts_with('-'));

    // Make B the baseline by clicking its "baseline" radio: every row follows.
    let radios: Vec<_> = h.query_all_by_label("baseline").collect();
    assert_eq!(radios.len(), 2, "one baseline choice per run");
    radios[1].click();
    settle(&mut h);
    assert!(labelled(&h, "Average FPS")[2].starts_with('+'));
    check_every_row(&h, &common::compare_json(&files[1], &files[0]), 0.01);
}

#[test]
fn closing_runs_while_comparing_keeps_the_baseline() {
    let files = [
        common::repo_file(A),
        common::repo_file(B),
        common::repo_file("sample-traces/pm-1.x_FarCryNewDawn.csv"),
    ];
    let mut h = compared(&files);
    let radios: Vec<_> = h.query_all_by_label("baseline").collect();
    radios[2].click();
    settle(&mut h);
    let baseline = app(&h).baseline_name().map(str::to_owned);
    assert!(baseline.as_deref().is_some_and(|n| n.ends_with("FarCryNewDawn.csv")), "{baseline:?}");
    // Close the first run with its button: the baseline is still FarCry, and nothing
    // indexes past the end.
    let close = || h.query_all_by_role_and_label(Role::Button, "x").next().expect("a close button");
    close().click();
    settle(&mut h);
    assert_eq!(app(&h).run_names().len(), 2);
    assert_eq!(app(&h).baseline_name().map(str::to_owned), baseline);
    // Close another: one run left, no comparison.
    let close = || h.query_all_by_role_and_label(Role::Button, "x").next().expect("a close button");
    close().click();
    settle(&mut h);
    assert!(!app(&h).comparing());
}

#[test]
fn a_frame_clicked_while_comparing_shows_its_details() {
    let files = [common::repo_file(A), common::repo_file(B)];
    let mut h = compared(&files);
    // Click frame 7 of B, on B's timeline (the second: the baseline's is first).
    let b = default_trace(&files[1]);
    let pos = frame_pos(&h, 1, run_id(&h, 1), b.frames.start_ms[7], b.frames.frame_time_ms[7]);
    click_at(&mut h, pos);
    settle(&mut h);
    let labels: Vec<String> = h
        .query_all_by_role(Role::Label)
        .filter_map(|n| egui_kittest::kittest::NodeT::accesskit_node(&n).value())
        .collect();
    let heading = labels.iter().position(|v| v.starts_with("Frame of ")).expect("a frame-details heading");
    assert!(labels[heading].ends_with("synthetic-run-b.csv"), "{}", labels[heading]);
    let at = labels[heading..].iter().position(|v| v == "Frame").expect("the Frame row") + heading;
    assert_eq!(labels[at + 1], "7");
    // The comparison table is still there.
    assert_eq!(labelled(&h, "Average FPS").len(), 5);
}

#[test]
fn compared_runs_share_one_frame_time_source() {
    let Some(dir) = common::real_traces() else { return };
    let naraka = dir.join(NARAKA);
    let sample = common::repo_file(SAMPLE);
    // Alone, the sample is analysed on present intervals.
    let h = window(std::slice::from_ref(&sample));
    assert_eq!(
        labelled(&h, "Frame time"),
        ["presents (auto — frame generation: not recorded by this format)"]
    );
    // Compared with a frame-generation capture, auto resolves once, for both: the
    // sample has display data, so both runs are analysed on display intervals.
    let h = compared(&[naraka.clone(), sample.clone()]);
    let doc = common::compare_json(&naraka, &sample);
    assert_eq!(doc["runs"][0]["frame_time"], "display");
    assert_eq!(doc["runs"][1]["frame_time"], "display");
    assert_eq!(labelled(&h, "Frame time"), ["display (auto — frame generation in a compared run)"]);
    assert_eq!(labelled(&h, "Frame-time source"), ["display", "display"]);
    check_every_row(&h, &doc, 0.01);
    // The frame-generation rows: Naraka has them, the sample not.
    let app_fps = labelled(&h, "Application FPS");
    assert_eq!(app_fps[1..], ["—", "not comparable", "—", "—"], "{app_fps:?}");

    // Against a log without display data (MangoHud), auto is presents for both.
    let mango = dir.join("mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run1.csv");
    let h = compared(&[naraka.clone(), mango.clone()]);
    let doc = common::compare_json(&naraka, &mango);
    assert_eq!(doc["runs"][0]["frame_time"], "presents");
    assert_eq!(labelled(&h, "Frame time"), ["presents (auto — a compared run has no display data)"]);
    assert_eq!(labelled(&h, "Frame-time source"), ["presents", "presents"]);
    check_every_row(&h, &doc, 0.01);
}
