//! Formats beyond the PresentMon family. MangoHud logs: frame times in µs (≤ 0.6.8) or ms (≥ 0.6.9) told apart by the
//! rolling `fps` column, the system-info and versioning lines above the frame metrics,
//! `elapsed` in ns, sampled logs said to be sampled, the application from the file name.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use framescope::analysis::{FrameTimeSource, Series, Summary};
use framescope::ingest::{LoadOptions, load_bytes};
use std::fmt::Write as _;
use std::path::Path;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// 0.6.0 layout, frame times in µs, one row per frame (elapsed advances by them).
/// Frames 10, 20, 30, 40 ms: T = 100 ms, avg = 1000·4/100 = 40 FPS, max = 100, min = 25.
#[test]
fn microseconds_from_mangohud_0_6_0() {
    let text = "os,cpu,gpu,ram,kernel,driver\nArch,Ryzen,AMD,16000000,6.1,Mesa\n\
                fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,ram_used,elapsed\n\
                100,10000,5,5,40,40,400,0,0.3,2.1,10000000\n\
                50,20000,5,5,40,40,400,0,0.3,2.1,30000000\n\
                33.333,30000,5,5,40,40,400,0,0.3,2.1,60000000\n\
                25,40000,5,5,40,40,400,0,0.3,2.1,100000000\n";
    let c = load_bytes(Path::new("game_2021-06-03_21-32-02.csv"), text.as_bytes(), LoadOptions::default())
        .unwrap();
    assert_eq!(c.info.format.name(), "mangohud");
    assert_eq!(c.info.format_version, "0.6.0–0.6.1");
    assert!(c.info.system.contains(&("kernel".to_owned(), "6.1".to_owned())));
    let t = &c.traces[0];
    assert_eq!(t.meta.application, "game");
    assert_eq!(t.frames.frame_time_ms, vec![10.0, 20.0, 30.0, 40.0]);
    // elapsed is the end of each frame: starts at 0, 10, 30, 60 ms.
    assert_eq!(t.frames.start_ms, vec![0.0, 10.0, 30.0, 60.0]);
    assert_eq!(t.frames.line, vec![4, 5, 6, 7]);
    let s = Summary::of(&Series::of(t, FrameTimeSource::Presents).frame_time_ms).unwrap();
    assert!(close(s.avg_fps, 40.0) && close(s.max_fps, 100.0) && close(s.min_fps, 25.0));
    assert!(c.warnings.is_empty() && t.warnings.is_empty(), "a per-frame log is not sampled");
    assert!(t.column_named("gpu_core_clock").is_some(), "telemetry is kept");
}

/// 0.8.2 layout with log_versioning lines, ms frame times, one row per 100 ms.
#[test]
fn versioned_sampled_log_in_milliseconds() {
    let mut text = String::from(
        "v1\n0.8.2\n---------------------SYSTEM INFO---------------------\n\
         os,cpu,gpu,ram,kernel,driver,cpuscheduler\nCachyOS,9800X3D,RX 9070 XT,65438132,6.17,,performance\n\
         --------------------FRAME METRICS--------------------\n\
         fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed\n",
    );
    for i in 0..20 {
        let ft = if i == 10 { 8.0 } else { 4.0 };
        let (fps, elapsed) = (1000.0 / ft, (i + 1) * 100_000_000);
        let _ = writeln!(text, "{fps},{ft},20,0,80,50,50,3000,1300,4.9,250,10.7,0,0,4800,{elapsed}");
    }
    let c = load_bytes(Path::new("run.csv"), text.as_bytes(), LoadOptions::default()).unwrap();
    assert_eq!(c.info.format_version, "0.8.2+");
    let t = &c.traces[0];
    assert_eq!(t.len(), 20);
    assert_eq!(t.frames.line[0], 8, "the data starts on line 8");
    assert!((t.frames.frame_time_ms[10] - 8.0).abs() < 1e-12, "ms stay ms");
    let w = c.warnings.iter().map(|w| w.message.as_str()).collect::<Vec<_>>().join(" | ");
    assert!(w.contains("one row every 100 ms"), "{w}");
    // 19 frames of 4 ms and one of 8: T = 84 ms, avg = 1000·20/84.
    let s = Summary::of(&t.frames.frame_time_ms).unwrap();
    assert!(close(s.avg_fps, 20_000.0 / 84.0));
}

/// The real logs: every row is a frame, and the figures are those of the frametime
/// column read independently here.
#[test]
fn real_mangohud_logs_match_their_own_columns() {
    let Some(dir) = common::real_traces() else { return };
    for (name, micros) in [
        ("mangohud/mangohud-0.6.0-0.6.1_glxgears_2021-06-03_21-32-02.csv", true),
        ("mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run1.csv", false),
        ("mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run2.csv", false),
    ] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let header: Vec<&str> = lines[2].split(',').collect();
        let col = header.iter().position(|h| *h == "frametime").unwrap();
        let ft: Vec<f64> = lines[3..]
            .iter()
            .map(|l| l.split(',').nth(col).unwrap().parse::<f64>().unwrap() * if micros { 1e-3 } else { 1.0 })
            .collect();
        let want_avg = 1000.0 * ft.len() as f64 / ft.iter().sum::<f64>();
        let (code, doc) = common::report_json([path.as_os_str()]);
        assert_eq!(code, 0, "{name}");
        let run = &doc["runs"][0];
        assert_eq!(run["format"], "mangohud");
        assert_eq!(run["frames"].as_u64(), Some(ft.len() as u64), "{name}");
        let got = run["summary"]["avg_fps"].as_f64().unwrap();
        assert!(close(got, want_avg), "{name}: {got} vs {want_avg}");
        assert!(run["dropped_frames"].is_null(), "MangoHud does not say which frames were dropped");
        assert!(run["warnings"].to_string().contains("not one per frame"), "{name}");
    }
}

/// The real CapFrameX JSON capture: its figures are those of its own
/// `MsBetweenPresents` array, read independently here.
#[test]
fn real_capframex_json_matches_its_own_arrays() {
    let Some(dir) = common::real_traces() else { return };
    let path = dir.join("capframex/CapFrameX-Judgment.exe-2022-12-14T163430.json");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ft: Vec<f64> = doc["Runs"][0]["CaptureData"]["MsBetweenPresents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let mut sorted = ft.clone();
    sorted.sort_by(f64::total_cmp);
    let k = ft.len() / 100;
    let want_low: f64 = 1000.0 * k as f64 / sorted[ft.len() - k..].iter().sum::<f64>();
    let (code, report) = common::report_json([path.as_os_str()]);
    assert_eq!(code, 0);
    let run = &report["runs"][0];
    assert_eq!(run["format"], "capframex-json");
    assert_eq!(run["application"], "Judgment.exe");
    assert_eq!(run["frames"].as_u64(), Some(ft.len() as u64));
    let got = |k: &str| run["summary"][k].as_f64().unwrap();
    assert!(close(got("avg_fps"), 1000.0 * ft.len() as f64 / ft.iter().sum::<f64>()));
    assert!(close(got("low_1pct_fps"), want_low));
}
