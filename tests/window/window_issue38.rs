//! Issue 38's formats in the real window (egui_kittest): CapFrameX on Linux, a
//! pyrofling latency log, Android's SurfaceFlinger and gfxinfo dumps and a Perfetto
//! FrameTimeline trace, XRFrameTools and OVR Metrics Tool CSVs open through the normal loading path, without errors, and the
//! figures panel shows what `framescope report --json` computes.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{app, labelled};
use eframe::egui;
use egui_kittest::kittest::Queryable;
use framescope::app::Persisted;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    common::repo_file(&format!("tests/fixtures/i38/{name}"))
}

/// The figure `key` (`summary.avg_fps`, …) of the first run as the JSON report has it.
fn cli(file: &Path, section: &str, key: &str) -> f64 {
    let (code, doc) = common::report_json([file.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0][section][key].as_f64().unwrap()
}

#[test]
fn the_new_formats_open_in_the_window_with_the_reports_figures() {
    for name in [
        "capframex-linux_vkcube_20260112_201500.csv",
        "android-surfaceflinger-latency-SurfaceView.txt",
        "android-gfxinfo-framestats-utf16le.txt",
        "game-frametimeline.perfetto-trace",
        "DCS 2026-03-14 20-15-00 UTC.csv",
        "Half-Life Alyx 2025-01-10 19-00-00 UTC.csv",
        "com.example.game_20260814_101500.csv",
    ] {
        let file = fixture(name);
        let h = common::ui::window_of(
            egui::vec2(1400.0, 900.0),
            Persisted::default(),
            std::slice::from_ref(&file),
            |_| {},
        );
        assert!(app(&h).errors().is_empty(), "{name}: {:?}", app(&h).errors());
        let want = format!("{:.2}", cli(&file, "summary", "avg_fps"));
        assert_eq!(labelled(&h, "Average FPS"), [want], "{name}");
    }
    // The VR logs offer the headset's rate as the target: 90 Hz found from XRFrameTools'
    // Display XrTime, 72 Hz from OVR Metrics' display_refresh_rate.
    for (name, target) in
        [("DCS 2026-03-14 20-15-00 UTC.csv", "90.00"), ("com.example.game_20260814_101500.csv", "72")]
    {
        let mut h =
            common::ui::window_of(egui::vec2(1400.0, 900.0), Persisted::default(), &[fixture(name)], |_| {});
        h.get_by_label(&format!("Use the capture's target: {target} FPS")).click();
        common::ui::settle(&mut h);
        assert!(
            (app(&h).persisted().target_fps - target.parse::<f64>().unwrap()).abs() < 1e-3,
            "{name}: the target is the headset's rate"
        );
    }
    // The latency log: its stages in the figures panel.
    let file = fixture("latency-measurement-vkcube-2026-07-01-10-32-00.csv");
    let h = common::ui::window_of(
        egui::vec2(1400.0, 900.0),
        Persisted::default(),
        std::slice::from_ref(&file),
        |_| {},
    );
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    let want = format!("{:.2} ms", cli(&file, "latency", "input_to_display_mean_ms"));
    assert_eq!(labelled(&h, "Input to display mean"), [want]);
}
