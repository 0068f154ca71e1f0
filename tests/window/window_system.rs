//! Issue 20 in the real window (egui_kittest): a CapFrameX JSON's sensors among the
//! run's telemetry, its "System" box (folded, its header naming GPU and CPU; opened,
//! every fact as `framescope report --json` gives it), and two compared runs' (or
//! sets') systems side by side, their header in view at 1280×720.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, labelled, settle, tick_compare, window};
use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use serde_json::Value;
use std::path::PathBuf;

const CX: &str = "capframex/CapFrameX-Judgment.exe-2022-12-14T163430.json";
const OCAT: &str = "ocat/OCAT-MetroExodus.exe-2019-02-20T101522.csv";

fn real(rel: &str) -> Option<PathBuf> {
    Some(common::real_traces()?.join(rel))
}

fn report(file: &PathBuf) -> Value {
    let (code, doc) = common::report_json([file]);
    assert_eq!(code, 0);
    doc["runs"][0].clone()
}

/// Clicks the collapsing header whose label starts with `prefix`, scrolled into view
/// first when below the window.
fn open_header(h: &mut Window, prefix: &str) {
    for _ in 0..3 {
        if h.get_by_label_contains(prefix).rect().bottom() < 880.0 {
            break;
        }
        h.get_by_label_contains(prefix).scroll_down();
        h.run_steps(2);
    }
    // Until a smooth scroll has come to rest.
    h.run_steps(30);
    h.get_by_label_contains(prefix).click();
    settle(h);
}

/// The System box starts folded with GPU and CPU in its header; opened, it lists the
/// driver and the comment as the report's `system` has them.
#[test]
fn the_system_box_shows_what_the_capture_says() {
    let Some(file) = real(CX) else { return };
    let run = report(&file);
    let mut h = window(std::slice::from_ref(&file));
    assert!(labelled(&h, "GPUDriverVersion").is_empty(), "folded at first");
    let header = "System: NVIDIA GeForce GTX 1070 · Intel Core i5-10400";
    assert!(h.query_by_label(header).is_some(), "the header names GPU and CPU");
    open_header(&mut h, "System: NVIDIA");
    for key in ["GPUDriverVersion", "Comment", "OS", "SystemRam", "Motherboard"] {
        let want = run["system"][key].as_str().expect(key).to_owned();
        assert_eq!(labelled(&h, key), [want], "{key}");
    }
    assert_eq!(labelled(&h, "Comment"), ["1440p ultra fsr2q"]);
}

/// The 12 sensors are telemetry the window shows: the "As other tools report it" panel
/// lists each with the report's mean, min and max.
#[test]
fn capframex_sensors_are_shown() {
    let Some(file) = real(CX) else { return };
    let run = report(&file);
    let mut h = window(std::slice::from_ref(&file));
    h.get_all_by_label("As other tools report it")
        .find(|n| n.accesskit_node().role() != Role::Label)
        .expect("the toggle under the figures")
        .click();
    settle(&mut h);
    let telemetry = run["telemetry"].as_object().expect("telemetry");
    assert_eq!(telemetry.len(), 12);
    for (column, stats) in telemetry {
        let shown = labelled(&h, column);
        assert_eq!(shown.len(), 3, "{column}: {shown:?}");
        let mean: f64 = shown[0].parse().unwrap_or(f64::NAN);
        let want = stats["mean"].as_f64().unwrap();
        assert!((mean - want).abs() <= 0.005 * want.abs().max(1.0), "{column}: {mean} vs {want}");
    }
}

/// Two compared runs: "System: N facts differ", and opened, each fact's two values on
/// one row (CapFrameX's GPU beside OCAT's).
#[test]
fn compared_systems_are_side_by_side() {
    let (Some(cx), Some(ocat)) = (real(CX), real(OCAT)) else { return };
    let mut h = window(&[cx, ocat]);
    tick_compare(&mut h);
    assert!(h.query_by_label_contains("facts differ").is_some(), "the comparison's System header");
    open_header(&mut h, "System: ");
    let gpu = labelled(&h, "GPU");
    assert!(
        gpu.ends_with(&["NVIDIA GeForce GTX 1070".to_owned(), "GeForce RTX 2080 Ti".to_owned()]),
        "{gpu:?}"
    );
    let cpu = labelled(&h, "Processor");
    assert!(
        cpu.ends_with(&[
            "Intel Core i5-10400".to_owned(),
            "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz".to_owned()
        ]),
        "{cpu:?}"
    );
}

/// The "System: …" header of a comparison is in view at 1280×720 without scrolling:
/// it sits right under the compared runs' names, above the tables.
fn system_header_in_view(h: &mut Window) {
    h.set_size(eframe::egui::vec2(1280.0, 720.0));
    settle(h);
    let header = h
        .query_all_by(|n| n.value().or_else(|| n.label()).is_some_and(|l| l.starts_with("System: ")))
        .map(|n| n.rect())
        .next()
        .expect("a System header");
    assert!(header.top() >= 0.0 && header.bottom() <= 720.0, "System header at {header:?}");
}

/// Two runs compared at 1280×720: their System header is in view.
#[test]
fn at_1280_by_720_the_compared_systems_are_in_view() {
    let (Some(cx), Some(ocat)) = (real(CX), real(OCAT)) else { return };
    let mut h = window(&[cx, ocat]);
    tick_compare(&mut h);
    system_header_in_view(&mut h);
}

/// Two sets of two runs compared at 1280×720 (Alan Wake 2 on FrameView, a MangoHud
/// game): the sets' System header is in view, saying their GPUs differ.
#[test]
fn at_1280_by_720_the_compared_sets_systems_are_in_view() {
    let files = [
        "frameview/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv",
        "frameview/FrameView_AlanWake2_DLSSQuality_run2_2024_04_17T002622_Log.csv",
        "mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run1.csv",
        "mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run2.csv",
    ];
    let Some(files) = files.iter().map(|f| real(f)).collect::<Option<Vec<_>>>() else { return };
    let mut h = window(&files);
    tick_compare(&mut h);
    let mut sets = app(&h).run_sets();
    sets.dedup();
    assert_eq!(sets.len(), 2, "two sets: {sets:?}");
    assert!(h.query_by_label_contains("facts differ").is_some(), "the sets' System header");
    system_header_in_view(&mut h);
}
