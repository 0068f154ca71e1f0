//! Tests of the comparison of two runs: names, deltas, directions, telemetry, conventions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::analysis::{Latency, Oscillation, Pacing, Stutters, Summary};

/// A sample run: its duration and summary frame times scale by `scale`, its summary
/// rates by `1 / scale`. Shared with the gate's tests.
pub(in crate::report) fn run(scale: f64) -> Run {
    Run {
        file: "a.csv".into(),
        format: "presentmon-1",
        format_version: "1.x".into(),
        application: "game.exe".into(),
        process_id: Some(1),
        swap_chain: None,
        runtime: None,
        present_modes: Vec::new(),
        frame_time: "presents",
        sampled: false,
        conventions: None,
        efficiency: Some(crate::analysis::Efficiency {
            fps_per_watt: Some(0.5 / scale),
            power_source: Some("NV Pwr(W) (API)".into()),
            power_mean_w: Some(200.0),
            cpu_fps_per_watt: None,
            cpu_power_mean_w: None,
        }),
        tool_figures: None,
        tool_summary: None,
        telemetry: crate::analysis::Telemetry::new(),
        system: Vec::new(),
        other_traces: Vec::new(),
        samples: None,
        frames: 1000,
        dropped_frames: Some(7),
        duration_ms: Some(10_000.0 * scale),
        warnings: Vec::new(),
        summary: Some(Summary {
            avg_fps: 100.0 / scale,
            min_fps: 50.0 / scale,
            max_fps: 200.0 / scale,
            p50_ms: 10.0 * scale,
            p90_ms: 11.0 * scale,
            p95_ms: 12.0 * scale,
            p99_ms: 13.0 * scale,
            p99_9_ms: 14.0 * scale,
            low_1pct_fps: 70.0 / scale,
            low_0_1pct_fps: 60.0 / scale,
        }),
        pacing: Some(Pacing {
            steady_fps: 41,
            mostly_steady_fps: 98,
            typical_fps: 158,
            slow_time_fraction: 0.0,
            excess_time_fraction: 0.01,
        }),
        stutters: Some(Stutters { count: 3, time_fraction: 0.004, frames: vec![1, 2, 3] }),
        osc: Some(Oscillation {
            flag: false,
            p90_iqr_ms: 1.5,
            p90_iqr_ratio: 1.1,
            oscillating_frames: 0,
            oscillating: Vec::new(),
        }),
        health: None,
        latency: Some(Latency { display_latency_mean_ms: Some(12.0), ..Latency::default() }),
        vsync: None,
        frame_types: None,
        limiter: None,
    }
}

#[test]
fn compare_every_table_name_is_the_runs_json_name() {
    let r = run(1.0);
    let json = serde_json::to_value(&r).unwrap();
    for f in FIGURES {
        let v = match (f.section, f.name.strip_suffix("_fps")) {
            (Section::Run, _) => &json[f.name],
            (Section::FrameTypes, Some(kind)) => &json["frame_types"][kind]["fps"],
            (s, _) => &json[s.name()][f.name],
        };
        assert_eq!(v.as_f64(), (f.value)(&r), "{}", f.qualified_name());
    }
}

#[test]
fn compare_delta_relative_and_direction() {
    let (a, b) = (run(1.0), run(1.25));
    let c = compare(&a, &b);
    let avg = c.row("avg_fps").unwrap().entry.unwrap();
    assert!((avg.delta - (80.0 - 100.0)).abs() < 1e-12);
    assert!((avg.relative.unwrap() + 0.2).abs() < 1e-12);
    assert_eq!(avg.better, Some(false));
    let p99 = c.row("summary.p99_ms").unwrap().entry.unwrap();
    assert_eq!(p99.better, Some(false));
    // Equal values: delta 0, better null. Baseline 0: relative null.
    let steady = c.row("steady_fps").unwrap().entry.unwrap();
    assert_eq!(steady.better, None);
    let slow = c.row("slow_time_fraction").unwrap().entry.unwrap();
    assert_eq!((slow.relative, slow.better), (None, None));
    // Neutral figures never say better or worse.
    assert_eq!(c.row("duration_ms").unwrap().entry.unwrap().better, None);
    // Missing on both sides: null entry, and in the JSON.
    assert!(c.row("pcl_ms").unwrap().entry.is_none());
    let json = serde_json::to_value(&c).unwrap();
    assert!(json["latency"]["pcl_ms"].is_null());
    assert_eq!(json["summary"]["avg_fps"]["better"], serde_json::Value::Bool(false));
    // Every section, the peer tools' nested under `conventions`, and `telemetry`.
    let core = Section::ALL.len() - Section::CONVENTIONS.len();
    assert_eq!(json.as_object().unwrap().len(), core + 2);
    assert!(json["telemetry"].is_object());
    assert_eq!(json["conventions"].as_object().unwrap().len(), Section::CONVENTIONS.len());
}

#[test]
fn compare_frame_generation_rates() {
    use crate::analysis::framegen::{FrameTypes, KindFigures};
    let with_kinds = |scale: f64| {
        let mut r = run(scale);
        let fps = r.summary.map(|s| s.avg_fps);
        let kind = |frames| KindFigures { count: frames + 1, fps, frames, summary: r.summary };
        r.frame_types = Some(FrameTypes { application: kind(400), generated: kind(600) });
        r
    };
    let (a, b) = (with_kinds(1.0), with_kinds(1.25));
    let c = compare(&a, &b);
    let app = c.row("frame_types.application_fps").unwrap().entry.unwrap();
    assert!((app.baseline - 100.0).abs() < 1e-12 && (app.other - 80.0).abs() < 1e-12);
    assert_eq!(app.better, Some(false));
    assert!(c.row("generated_fps").unwrap().entry.is_some());
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["frame_types"]["generated_fps"]["better"], serde_json::Value::Bool(false));
    // A run without generated frames: nothing to compare, null in the JSON.
    let c = compare(&a, &run(1.0));
    assert_eq!(c.row("application_fps").unwrap().missing(), Some("other"));
    assert!(serde_json::to_value(&c).unwrap()["frame_types"]["application_fps"].is_null());
}

/// GPU clock in both runs (1500 → 1800 MHz: delta 300, +20 %, no verdict), GPU
/// power in the other only; union by name, sorted.
#[test]
fn compare_telemetry_means_without_a_verdict() {
    use crate::analysis::telemetry::TelemetryStats;
    let stats = |mean: f64| TelemetryStats { mean, min: mean - 100.0, max: mean + 100.0 };
    let mut a = run(1.0);
    let mut b = run(1.0);
    a.telemetry.insert("GPU0Clk(MHz)".into(), stats(1500.0));
    b.telemetry.insert("GPU0Clk(MHz)".into(), stats(1800.0));
    b.telemetry.insert("CPU Package Power(W)".into(), stats(90.0));
    let rows = compare_telemetry(&a, &b);
    let names: Vec<&str> = rows.iter().map(|r| r.column.as_str()).collect();
    assert_eq!(names, ["CPU Package Power(W)", "GPU0Clk(MHz)"]);
    assert_eq!((rows[0].baseline, rows[0].entry), (None, None));
    let e = rows[1].entry.unwrap();
    assert!((e.delta - 300.0).abs() < 1e-12 && (e.relative.unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(e.better, None);
}

/// Framescope's own figures hide the peers'; a tool's figures stand in for the
/// summary and leave the other tools out.
#[test]
fn a_convention_replaces_the_summary() {
    let c = compare(&run(1.0), &run(1.25));
    let sections = |convention| {
        let mut s: Vec<Section> = c.listed(convention).iter().map(|r| r.figure.section).collect();
        s.dedup();
        s
    };
    let own = sections(None);
    assert!(own.contains(&Section::Summary) && !own.iter().any(|s| s.is_convention()));
    let fv = sections(Some(Section::FrameView));
    // FrameView's rows where the summary's were: after the run's counts.
    assert_eq!(fv[..3], [Section::Run, Section::FrameView, Section::Pacing]);
    assert!(!fv.contains(&Section::Summary) && !fv.contains(&Section::CapFrameX));
}

#[test]
fn compare_missing_on_one_side_is_null() {
    let a = run(1.0);
    let mut b = run(1.0);
    b.summary = None;
    b.dropped_frames = None;
    let c = compare(&a, &b);
    assert!(c.row("avg_fps").unwrap().entry.is_none());
    assert_eq!(c.row("dropped_frames").unwrap().missing(), Some("other"));
}
