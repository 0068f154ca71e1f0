//! Issue 20 in the real window (egui_kittest): a CapFrameX JSON's sensors among the
//! run's telemetry, its "System" box (folded, its header naming GPU and CPU; opened,
//! every fact as `framescope report --json` gives it), and two compared runs' systems
//! side by side.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::ui::{Window, app, labelled, settle, window};
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
/// first (the comparison's sits under its tables).
fn open_header(h: &mut Window, prefix: &str) {
    h.get_by_label_contains(prefix).scroll_to_me();
    h.run_steps(2);
    for _ in 0..3 {
        h.get_by_label_contains(prefix).scroll_down();
        h.run_steps(2);
    }
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
    h.get_by_role_and_label(Role::CheckBox, "Compare runs").click();
    settle(&mut h);
    assert!(app(&h).comparing());
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
