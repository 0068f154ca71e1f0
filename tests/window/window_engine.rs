//! Engine captures and unknown CSVs in the real window (egui_kittest): an Unreal
//! capture's events listed and drawn on the timeline, its target offered with one
//! click; a CSV of no known format opened through the *Map columns* step, its mapping
//! remembered per header. Figures are checked against `framescope report --json`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, labelled, settle};
use eframe::egui;
use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope::app::Persisted;
use framescope_core::ingest::{ColumnMapping, ExtraRole, MappedRole, TimeUnit};
use std::path::PathBuf;

/// A window with `persisted` settings and `files` open, settled.
fn window_with(persisted: Persisted, files: &[PathBuf]) -> Window {
    common::ui::window_of(egui::vec2(1400.0, 900.0), persisted, files, |_| {})
}

fn avg_fps_cli(args: &[&str]) -> String {
    let (code, doc) = common::report_json(args);
    assert_eq!(code, 0, "{doc}");
    format!("{:.2}", doc["runs"][0]["summary"]["avg_fps"].as_f64().unwrap())
}

#[test]
fn an_unreal_capture_shows_its_events_and_offers_its_target() {
    let file = common::repo_file("sample-traces/unreal-csvprofile-5x-example.csv");
    let persisted = Persisted { target_fps: 144.0, ..Persisted::default() };
    let mut h = window_with(persisted, std::slice::from_ref(&file));
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    assert_eq!(labelled(&h, "Average FPS"), [avg_fps_cli(&[&file.to_string_lossy()])]);
    // Every event of the capture is listed (and drawn on the timeline).
    for label in ["LoadMap/Arena_01", "Gameplay/BossSpawn", "Audio/MusicChange", "Checkpoint"] {
        h.get_by_label(label);
    }
    // The capture's [TargetFramerate] 60, one click away from the 144 set.
    h.get_by_label("Use the capture's target: 60 FPS").click();
    settle(&mut h);
    assert!((app(&h).persisted().target_fps - 60.0).abs() < 1e-9);
    assert!(h.query_by_label("Use the capture's target: 60 FPS").is_none(), "offered only while it differs");
    let at_60 = common::report_json([file.as_os_str(), "--target-fps".as_ref(), "60".as_ref()]).1;
    let slow = at_60["runs"][0]["pacing"]["slow_time_fraction"].as_f64().unwrap();
    assert_eq!(labelled(&h, "Slow time at target"), [format!("{:.2} %", slow * 100.0)]);
    // A click on an event centres the view on it: Checkpoint is frame 35, at 604 ms (the oracle's time axis).
    h.get_by_label("Checkpoint").click();
    settle(&mut h);
    let v = app(&h).view();
    assert!((v.start_ms + v.span_ms / 2.0 - 604.0).abs() < 1e-6, "{v:?}");
    assert!(h.unnamed_widgets().is_empty(), "{:?}", h.unnamed_widgets());
}

fn temp(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("framescope-window-engine-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// 16, 16, 20, 16 ms frames in `dt_ms`; `gpu_ms` 10, 10, 10, 30.
const LOG: &str = "tick,dt_ms,gpu_ms\n0,16.0,10.0\n1,16.0,10.0\n2,20.0,10.0\n3,16.0,30.0\n";

#[test]
fn an_unknown_csv_opens_through_map_columns_and_the_mapping_is_remembered() {
    let first = temp("first.csv", LOG);
    let mut h = window_with(Persisted::default(), std::slice::from_ref(&first));
    let header = ["tick", "dt_ms", "gpu_ms"].map(str::to_owned).to_vec();
    assert_eq!(app(&h).mapping_columns(), Some(header.as_slice()), "the step waits for a mapping");
    assert!(app(&h).run_names().is_empty() && app(&h).errors().is_empty());
    // The likely frame-time column is proposed; the preview shows the frame times.
    h.get_by_label("dt_ms  (likely)");
    assert!(h.unnamed_widgets().is_empty(), "{:?}", h.unnamed_widgets());
    h.get_by_label_contains("first frame times: 16.000, 16.000, 20.000, 16.000 ms");
    // Pick gpu_ms instead, open.
    h.get_by_label("gpu_ms").click();
    h.run_steps(2);
    h.get_by_label_contains("first frame times: 10.000, 10.000, 10.000, 30.000 ms");
    h.get_by_label("Open with this mapping").click();
    settle(&mut h);
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    assert_eq!(app(&h).run_names().len(), 1);
    let cli = avg_fps_cli(&[&first.to_string_lossy(), "--column", "frame-time=gpu_ms"]);
    assert_eq!(cli, "66.67", "4 frames in 60 ms");
    assert_eq!(labelled(&h, "Average FPS"), [cli]);
    let remembered = ColumnMapping {
        role: MappedRole::FrameTime,
        column: "gpu_ms".into(),
        unit: TimeUnit::Millis,
        extra: Vec::new(),
    };
    assert_eq!(app(&h).persisted().mapping_for(&header), Some(&remembered));

    // Another file with the same header opens with that mapping, without the step.
    let second = temp("second.csv", "tick,dt_ms,gpu_ms\n0,16.0,25.0\n1,16.0,25.0\n");
    let ctx = h.ctx.clone();
    h.state_mut().as_mut().unwrap().open_all(std::slice::from_ref(&second), &ctx);
    settle(&mut h);
    assert!(app(&h).mapping_columns().is_none());
    assert_eq!(app(&h).run_names().len(), 2);
    assert_eq!(labelled(&h, "Average FPS"), ["40.00"], "2 frames of 25 ms");

    // A CSV with another header asks again; Cancel leaves its error.
    let third = temp("third.csv", "a;b\n1;16,5\n2;16,5\n");
    h.state_mut().as_mut().unwrap().open_all(std::slice::from_ref(&third), &ctx);
    settle(&mut h);
    assert_eq!(app(&h).mapping_columns().map(<[String]>::len), Some(2));
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert!(app(&h).mapping_columns().is_none());
    assert!(
        app(&h).errors().iter().any(|e| e.contains("--column frame-time=NAME")),
        "{:?}",
        app(&h).errors()
    );
    for f in [first, second, third] {
        let _ = std::fs::remove_file(f);
    }
}

/// File › Open an engine example opens the built-in made-up Unity capture: format and
/// average FPS as the CLI reads the same file.
#[test]
fn the_engine_examples_open_from_the_file_menu() {
    let mut h = window_with(Persisted::default(), &[]);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open an engine example").click();
    h.run_steps(2);
    h.get_by_label("Unity recorder (FramescopeRecorder.cs)").click();
    settle(&mut h);
    assert!(
        app(&h).run_names().iter().any(|n| n == "example: unity-recorder-example.csv"),
        "{:?}",
        app(&h).run_names()
    );
    let file = common::repo_file("sample-traces/unity-recorder-example.csv");
    assert_eq!(labelled(&h, "Average FPS").last().cloned(), Some(avg_fps_cli(&[&file.to_string_lossy()])));
}

/// Picks `column` in the *Map columns* step's picker `picker` (a combo box).
fn pick(h: &mut Window, picker: &str, column: &str) {
    h.get_by_role_and_label(Role::ComboBox, picker).click();
    h.run_steps(3);
    // The column's name is also its radio button in the list: the popup's item is the other.
    h.query_all_by_label(column)
        .find(|n| n.accesskit_node().role() != Role::RadioButton)
        .expect("the picker's item")
        .click();
    h.run_steps(3);
}

/// True when hovering down the timeline's label column finds a row titled `title`.
fn has_row(h: &mut Window, title: &str) -> bool {
    let rect = h.get_by_label("Timeline").rect();
    let mut y = 24.0;
    let mut found = false;
    while y < rect.height() && !found {
        h.hover_at(egui::Pos2::new(rect.left() + 20.0, rect.top() + y));
        h.run_steps(3);
        found = h
            .query_all_by_role(Role::Label)
            .filter_map(|n| n.accesskit_node().value())
            .any(|l| l.starts_with(title));
        y += 10.0;
    }
    found
}

#[test]
fn map_columns_also_maps_a_gpu_time_and_a_pc_latency_column() {
    // 16, 16, 20, 16 ms frames; GPU 10, 10, 10, 30 ms; latency 30, 32, 34, 40 ms (mean 34).
    let file = temp(
        "extra.csv",
        "tick,dt_ms,gpu_ms,lat_ms\n0,16.0,10.0,30\n1,16.0,10.0,32\n2,20.0,10.0,34\n3,16.0,30.0,40\n",
    );
    let mut h = window_with(Persisted::default(), std::slice::from_ref(&file));
    h.get_by_label("dt_ms  (likely)");
    pick(&mut h, "GPU time column", "gpu_ms");
    pick(&mut h, "PC latency column", "lat_ms");
    assert!(h.unnamed_widgets().is_empty(), "{:?}", h.unnamed_widgets());
    h.get_by_label("Open with this mapping").click();
    settle(&mut h);
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    assert_eq!(labelled(&h, "Average FPS"), ["58.82"], "4 frames in 68 ms");
    assert_eq!(labelled(&h, "PC latency mean"), ["34.00 ms"]);
    // The CLI maps the same columns with --extra-column.
    let f = file.to_string_lossy();
    let extra = ["--column", "frame-time=dt_ms", "--extra-column", "gpu-time=gpu_ms"];
    let (code, doc) =
        common::report_json([&f, extra[0], extra[1], extra[2], extra[3], extra[2], "pc-latency=lat_ms"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["runs"][0]["latency"]["pc_latency_column_mean_ms"].as_f64(), Some(34.0));
    let described = doc["runs"][0]["format_version"].as_str().unwrap();
    assert!(described.ends_with(" + GPU time gpu_ms + PC latency lat_ms"), "{described}");
    assert!(has_row(&mut h, "GPU gpu_ms"), "the GPU row");
    assert!(has_row(&mut h, "PC latency ("), "the PC latency row");
    let header = ["tick", "dt_ms", "gpu_ms", "lat_ms"].map(str::to_owned).to_vec();
    let extra = &app(&h).persisted().mapping_for(&header).expect("remembered").extra;
    let roles: Vec<(ExtraRole, &str)> = extra.iter().map(|e| (e.role, e.column.as_str())).collect();
    assert_eq!(roles, [(ExtraRole::GpuTime, "gpu_ms"), (ExtraRole::PcLatency, "lat_ms")]);
    let _ = std::fs::remove_file(file);
}
