//! MangoHud logs (`formats.md` §5): frame times in µs (≤ 0.6.8) or ms (≥ 0.6.9), the
//! system-info and versioning lines above the frame metrics, `elapsed` in ns, the
//! application from the file name — and sampled logs (`metrics.md` §10): a log is
//! sampled when the median step of `elapsed` is more than 1.5× its median frame time;
//! its rows are then samples of rate `fps` over the time since the row before, and a
//! log that is not sampled stays per frame.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{close, real_traces, report_json};
use framescope_core::analysis::{FrameTimeSource, Prepared, Series, Settings, Summary};
use framescope_core::ingest::{LoadErrorKind, LoadOptions, load_bytes};
use framescope_core::model::Capture;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;

fn load(name: &str, text: &str) -> Capture {
    load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn messages(c: &Capture) -> String {
    let t = c.traces.iter().flat_map(|t| &t.warnings);
    c.warnings.iter().chain(t).map(|w| format!("{:?}: {}", w.line, w.message)).collect::<Vec<_>>().join("\n")
}

/// 0.6.0 layout, frame times in µs (16 700 against 1000/60 = 16.7 ms: a ratio of 1000),
/// one row per frame: `elapsed` steps 20, 30, 40 ms (median 30) against frame times
/// 10, 20, 30, 40 ms (median 25): 30 is not above 1.5 · 25 = 37.5 → per frame.
/// Frames 10, 20, 30, 40 ms: T = 100 ms, avg = 1000·4/100 = 40 FPS, max 100, min 25.
#[test]
fn microseconds_from_mangohud_0_6_0_per_frame() {
    let text = "os,cpu,gpu,ram,kernel,driver\nArch,Ryzen,AMD,16000000,6.1,Mesa\n\
                fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,ram_used,elapsed\n\
                100,10000,5,5,40,40,400,0,0.3,2.1,10000000\n\
                50,20000,5,5,40,40,400,0,0.3,2.1,30000000\n\
                33.333,30000,5,5,40,40,400,0,0.3,2.1,60000000\n\
                25,40000,5,5,40,40,400,0,0.3,2.1,100000000\n";
    let c = load("game_2021-06-03_21-32-02.csv", text);
    assert_eq!(c.info.format.name(), "mangohud");
    assert_eq!(c.info.format_version, "0.6.0–0.6.1");
    assert!(c.info.system.contains(&("kernel".to_owned(), "6.1".to_owned())));
    let t = &c.traces[0];
    assert!(!t.is_sampled(), "steps of about one frame: one row per frame");
    assert_eq!(t.meta.application, "game");
    assert_eq!(t.frames.frame_time_ms, vec![10.0, 20.0, 30.0, 40.0]);
    // elapsed is the end of each frame: starts at 0, 10, 30, 60 ms.
    assert_eq!(t.frames.start_ms, vec![0.0, 10.0, 30.0, 60.0]);
    assert_eq!(t.frames.line, vec![4, 5, 6, 7]);
    let s = Summary::of(&Series::of(t, FrameTimeSource::Presents).frame_time_ms).unwrap();
    assert!(close(s.avg_fps, 40.0) && close(s.max_fps, 100.0) && close(s.min_fps, 25.0));
    assert!(
        c.warnings.is_empty() && t.warnings.is_empty(),
        "a per-frame log is not sampled: {}",
        messages(&c)
    );
    assert!(t.column_named("gpu_core_clock").is_some(), "telemetry is kept");
    let p = Prepared::new(t, FrameTimeSource::Auto);
    assert!(!p.is_sampled() && p.figures(&Settings::default()).pacing.is_some());
}

/// 0.8.2 layout with log_versioning lines (version 0.8.2: ms), one row per 100 ms:
/// 20 rows at `elapsed` 100, 200, …, 2000 ms; `fps` 250 (frametime 4 ms) except row
/// 10 (line 18) at 100 FPS (10 ms). Median step 100 ms > 1.5 · 4 → sampled.
/// The first row opens the log; 19 samples of Δt 100 ms: 18 of 250 FPS (w = 25 each)
/// and one of 100 FPS (w = 10). W = 460 → frames 460; duration 1900 ms; avg =
/// (18·250 + 100)·100 / 1900 = 242.105…; min 100, max 250. Ascending: 4 ms (running
/// 450), 10 ms (460): p50, p95 (437) → 4 ms; p99 (455.4) → 10 ms. 1 % low: K = 4.6
/// frames, all of the 10 ms sample: 1000·4.6/46 = 100.
#[test]
fn versioned_sampled_log_in_milliseconds() {
    let mut text = String::from(
        "v1\n0.8.2\n---------------------SYSTEM INFO---------------------\n\
         os,cpu,gpu,ram,kernel,driver,cpuscheduler\nCachyOS,9800X3D,RX 9070 XT,65438132,6.17,,performance\n\
         --------------------FRAME METRICS--------------------\n\
         fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed\n",
    );
    for i in 0..20 {
        let ft = if i == 10 { 10.0 } else { 4.0 };
        let (fps, elapsed) = (1000.0 / ft, (i + 1) * 100_000_000);
        let _ = writeln!(text, "{fps},{ft},20,0,80,50,50,3000,1300,4.9,250,10.7,0,0,4800,{elapsed}");
    }
    let c = load("run.csv", &text);
    assert_eq!(c.info.format_version, "0.8.2+");
    let t = &c.traces[0];
    assert!(t.is_sampled());
    assert_eq!(t.len(), 19, "the first row opens the log");
    assert_eq!(t.frames.line.first(), Some(9), "the data starts on line 8; its first row is no sample");
    assert!((t.frames.frame_time_ms[9] - 10.0).abs() < 1e-12, "1000 / fps");
    assert!(t.frames.sample_ms.iter().all(|&d| (d - 100.0).abs() < 1e-9));
    let ft = t.column_named("frametime").expect("the logged frametime is telemetry");
    assert!((ft.values[9] - 10.0).abs() < 1e-12 && (ft.values[0] - 4.0).abs() < 1e-12, "ms stay ms");
    assert!(t.column_named("fps").is_none(), "the rate is no column");
    let w = messages(&c);
    assert!(w.contains("MangoHud wrote one row every ~100 ms, not one per frame"), "{w}");

    let p = Prepared::new(t, FrameTimeSource::Auto);
    let (run, s) = (p.sampled.unwrap(), p.summary.unwrap());
    assert_eq!((run.samples, run.frames), (19, 460));
    assert!(close(run.duration_ms, 1900.0));
    assert!(close(s.avg_fps, 4600.0 / 19.0));
    assert!(close(s.min_fps, 100.0) && close(s.max_fps, 250.0));
    assert!(close(s.p50_ms, 4.0) && close(s.p95_ms, 4.0) && close(s.p99_ms, 10.0));
    assert!(close(s.low_1pct_fps, 100.0) && close(s.low_0_1pct_fps, 100.0));
    let figures = p.figures(&Settings::default());
    assert!(figures.pacing.is_none() && figures.stutters.is_none() && figures.osc.is_none());
}

/// One log, two cadences, frame times 10 ms (ms: a post-0.6.9 column is there): rows
/// every 16 ms are more than 1.5 · 10 = 15 ms apart → sampled; every 14 ms → per frame.
/// Sampled, 4 rows at 60 FPS: 3 samples of 16 ms, w = 0.96 each, W = 2.88 → 3 frames,
/// duration 48 ms. Per frame: 4 frames of 10 ms.
#[test]
fn sampled_detection_both_ways() {
    let log = |step_ms: u64| {
        let mut text = String::from("fps,frametime,swap_used,elapsed\n");
        for i in 0..4 {
            let _ = writeln!(text, "60,10,0,{}", i * step_ms * 1_000_000);
        }
        text
    };
    let sampled = load("a.csv", &log(16));
    let t = &sampled.traces[0];
    assert!(t.is_sampled());
    let p = Prepared::new(t, FrameTimeSource::Auto);
    let run = p.sampled.unwrap();
    assert_eq!((run.samples, run.frames), (3, 3));
    assert!(close(run.duration_ms, 48.0) && close(run.weight, 2.88));
    assert!(close(p.summary.unwrap().avg_fps, 60.0));

    let per_frame = load("b.csv", &log(14));
    let t = &per_frame.traces[0];
    assert!(!t.is_sampled());
    assert_eq!(t.frames.frame_time_ms, vec![10.0; 4]);
}

/// 0.6.0 log (µs) with a 100 ms `log_interval`: frametime 16 700 µs = 16.7 ms against
/// steps of 100 ms → sampled. Row at line 6 has no fps: no sample, but it ends the
/// interval (100 ms lost); the truncated line 7 has no `elapsed`: not a row. Samples:
/// line 5 (60 FPS, Δt 100, w 6) and line 8 (30 FPS, Δt 100 from line 6, w 3): W = 9,
/// duration 200, avg = (60 + 30)/2 = 45.
#[test]
fn a_sampled_log_with_a_row_without_fps() {
    let text = "os,cpu,gpu,ram,kernel,driver\nLinux,cpu,gpu,1,k,d\n\
                fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,ram_used,elapsed\n\
                60,16700,1,1,1,1,1,1,1,1,300000\n\
                60,16700,1,1,1,1,1,1,1,1,100300000\n\
                ,16700,1,1,1,1,1,1,1,1,200300000\n\
                30,33400,1,1\n\
                30,33400,1,1,1,1,1,1,1,1,300300000\n";
    let c = load("glxgears_2021-06-03_21-32-02.csv", text);
    let t = &c.traces[0];
    assert!(t.is_sampled());
    assert_eq!(t.frames.line, vec![5, 8]);
    assert!(close(t.frames.frame_time_ms[1], 1000.0 / 30.0));
    let ft = t.column_named("frametime").unwrap();
    assert!(close(ft.values[1], 33.4), "µs read as ms: {:?}", ft.values);
    let p = Prepared::new(t, FrameTimeSource::Auto);
    let run = p.sampled.unwrap();
    assert_eq!(run.frames, 9);
    assert!(close(run.duration_ms, 200.0) && close(p.summary.unwrap().avg_fps, 45.0));
    let w = messages(&c);
    assert!(w.contains("Some(6): fps is missing: not a sample"), "{w}");
    assert!(w.contains("Some(7): row has 4 fields, header has 11"), "{w}");
}

#[test]
fn a_mangohud_log_without_samples_fails_clearly() {
    let text = "fps,frametime,swap_used,elapsed\n0,10,0,0\n0,10,0,100000000\n0,10,0,200000000\n";
    let err =
        load_bytes(Path::new("idle.csv"), text.as_bytes(), LoadOptions::default()).expect_err("no sample");
    assert!(matches!(err.kind, LoadErrorKind::NoFrames(_)), "{:?}", err.kind);
    assert!(err.to_string().starts_with("idle.csv") && err.to_string().contains("fps"), "{err}");
}

/// The real logs are all sampled (rows every ~100 ms): their figures are those of
/// their own `fps` and `elapsed` columns read independently here — each row after the
/// first a sample of rate `fps` over the time since the row before.
#[test]
fn real_mangohud_logs_are_sampled() {
    let Some(dir) = real_traces() else { return };
    for name in [
        "mangohud/mangohud-0.6.0-0.6.1_glxgears_2021-06-03_21-32-02.csv",
        "mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run1.csv",
        "mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run2.csv",
    ] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let header: Vec<&str> = lines[2].split(',').collect();
        let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
        let (fps, elapsed) = (col("fps"), col("elapsed"));
        let rows: Vec<(f64, f64)> = lines[3..]
            .iter()
            .map(|l| {
                let f: Vec<f64> = l.split(',').map(|c| c.parse().unwrap()).collect();
                (f[fps], f[elapsed])
            })
            .collect();
        let samples: Vec<(f64, f64)> = rows.windows(2).map(|w| (w[1].0, (w[1].1 - w[0].1) * 1e-6)).collect();
        let duration: f64 = samples.iter().map(|s| s.1).sum();
        let want_avg = samples.iter().map(|(r, dt)| r * dt).sum::<f64>() / duration;
        let weight: f64 = samples.iter().map(|(r, dt)| r * dt / 1000.0).sum();
        let (code, doc) = report_json([path.as_os_str()]);
        assert_eq!(code, 0, "{name}");
        let run = &doc["runs"][0];
        assert_eq!(run["format"], "mangohud");
        assert_eq!(run["sampled"], Value::Bool(true), "{name}");
        assert_eq!(run["samples"].as_u64(), Some(samples.len() as u64), "{name}");
        assert_eq!(run["frames"].as_u64(), Some(weight.round() as u64), "{name}");
        assert!(close(run["duration_ms"].as_f64().unwrap(), duration), "{name}");
        let got = run["summary"]["avg_fps"].as_f64().unwrap();
        assert!(close(got, want_avg), "{name}: {got} vs {want_avg}");
        assert!(run["dropped_frames"].is_null(), "MangoHud does not say which frames were dropped");
        assert!(run["pacing"].is_null() && run["stutters"].is_null(), "{name}");
        assert!(run["warnings"].to_string().contains("not one per frame"), "{name}");
    }
}

/// The MangoHud convention reproduces what MangoHud 0.6.8 wrote in its own
/// `_summary.csv` (`metrics.md` §11, the 0.6.x rule: the logged `fps` column, every row),
/// on two real captures of `vkcube` recorded with Debian's MangoHud 0.6.8 (per frame,
/// and sampled every 100 ms); the summary file itself is reported as `tool_summary`,
/// apart from framescope's figures, and the readable table names it.
#[test]
fn mangohud_0_6_8_convention_is_its_own_summary() {
    for (name, sampled, frames) in
        [("vkcube_2026-11-29_06-25-42", false, Some(713)), ("vkcube_2026-11-29_06-25-51", true, None)]
    {
        let path = common::repo_file(&format!("sample-traces/mangohud-0.6.8/{name}.csv"));
        let (code, doc) = report_json([path.as_os_str()]);
        assert_eq!(code, 0, "{doc}");
        let run = &doc["runs"][0];
        assert_eq!(run["sampled"], sampled, "{name}");
        if let Some(n) = frames {
            assert_eq!(run["frames"], n, "{name}: one frame a row, the first row too");
        }
        let mine = &run["conventions"]["mangohud"];
        let theirs = &run["tool_summary"];
        assert_eq!(theirs["tool"], "MangoHud");
        assert_eq!(theirs["file"], format!("{name}_summary.csv"));
        for key in ["low_0_1pct_fps", "low_1pct_fps", "p97_fps", "average_fps"] {
            let (a, b) = (mine[key].as_f64().unwrap(), theirs[key].as_f64().unwrap());
            // MangoHud prints one decimal.
            assert!((a - b).abs() <= 0.05 + 1e-9, "{name} {key}: framescope {a}, MangoHud {b}");
        }
        // framescope's own figures stay its own (per frame: 1000·n / Σft, not the mean fps).
        if !sampled {
            let avg = run["summary"]["avg_fps"].as_f64().unwrap();
            assert!((avg - theirs["average_fps"].as_f64().unwrap()).abs() > 50.0, "{avg}");
        }
    }
    let path = common::repo_file("sample-traces/mangohud-0.6.8/vkcube_2026-11-29_06-25-42.csv");
    let table =
        common::framescope([std::ffi::OsStr::new("report"), "--conventions".as_ref(), path.as_os_str()]);
    assert!(
        table.stdout.contains(
            "MangoHud's own summary (vkcube_2026-11-29_06-25-42_summary.csv): 0.1% min 5.2  1% min 52.5  97% 643.9  average 358.2 FPS"
        ),
        "{}",
        table.stdout
    );
}

/// A summary file whose rows do not match the log's sessions one for one is not shown
/// (a warning says why); a log without one has no `tool_summary` key.
#[test]
fn a_summary_that_does_not_match_the_sessions_is_not_shown() {
    let log = "os,cpu,gpu,ram,kernel,driver\nL,c,g,1,k,d\nfps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,\
               gpu_core_clock,gpu_mem_clock,gpu_vram_used,ram_used,elapsed\n\
               100,10000,5,5,40,40,400,0,0.3,2.1,10000000\n50,20000,5,5,40,40,400,0,0.3,2.1,30000000\n";
    let path = common::temp_file("game_2021-06-03_21-32-02.csv", log);
    let (_, doc) = report_json([path.as_os_str()]);
    assert!(doc["runs"][0].get("tool_summary").is_none(), "{doc}");
    // MangoHud 0.6.x: the mean of the logged fps (75), not 1000 / mean ft (66.7).
    assert!(close(doc["runs"][0]["conventions"]["mangohud"]["average_fps"].as_f64().unwrap(), 75.0));
    let head = "0.1% Min FPS,1% Min FPS,97% Percentile FPS,Average FPS,GPU Load,CPU Load\n";
    let two = format!("{head}1,2,3,4,0,0\n{head}1,2,3,4,0,0\n");
    std::fs::write(path.with_file_name("game_2021-06-03_21-32-02_summary.csv"), two).unwrap();
    let (_, doc) = report_json([path.as_os_str()]);
    assert!(doc["runs"][0].get("tool_summary").is_none(), "{doc}");
    let warned =
        doc["runs"][0]["warnings"].as_array().unwrap().iter().any(|w| {
            w["message"].as_str().is_some_and(|m| m.contains("2 summary rows for 1 logging sessions"))
        });
    assert!(warned, "{doc}");
}

/// MangoHud 0.7.x, one row per frame, its rolling `fps` unlike its `frametime`:
/// (fps, ft ms) = (60, 40), (30, 10), (90, 20), (45, 5), (120, 10). 0.7.x's summary
/// orders the rows by fps: (30,10) (45,5) (60,40) (90,20) (120,10); ⌈0.05⌉ = 1 row →
/// 1 % and 0.1 % = 1000/10 = 100; row ⌊0.97·4⌋ = 3 → 1000/20 = 50; average 1000·5/85.
/// The same rows written by 0.8.0–0.8.1 (its `cpu_power` column): fps ranks → 30, 30,
/// 90. With a version line saying 0.8.2: the frame times → 1000/40 = 25 (both lows)
/// and d[trunc(4.85 − 1)] = 10 ms → 100.
#[test]
fn mangohud_0_7_and_0_8_0_summaries_are_their_own() {
    let rows = [(60, 40), (30, 10), (90, 20), (45, 5), (120, 10)];
    let log = |preamble: &str, extra: &str| {
        let mut text = format!(
            "{preamble}os,cpu,gpu,ram,kernel,driver,cpuscheduler\nL,c,g,1,k,d,s\n\
             fps,frametime,cpu_load,{extra}gpu_load,swap_used,process_rss,elapsed\n"
        );
        let mut elapsed = 0;
        for (fps, ft) in rows {
            elapsed += ft * 1_000_000;
            let power = if extra.is_empty() { "" } else { "20," };
            writeln!(text, "{fps},{ft},5,{power}5,0.1,0.2,{elapsed}").unwrap();
        }
        text
    };
    let avg = 1000.0 * 5.0 / 85.0;
    let cases = [
        ("v07", log("", ""), [100.0, 100.0, 50.0]),
        ("v080", log("", "cpu_power,"), [30.0, 30.0, 90.0]),
        (
            "v082",
            log("v1\n0.8.2\n---------------------SYSTEM INFO---------------------\n", "cpu_power,"),
            [25.0, 25.0, 100.0],
        ),
    ];
    for (name, text, [low01, low1, p97]) in cases {
        let path = common::temp_file(&format!("game_{name}_2026-01-01_10-00-00.csv"), &text);
        let (code, doc) = report_json([path.as_os_str()]);
        assert_eq!(code, 0, "{doc}");
        let mh = &doc["runs"][0]["conventions"]["mangohud"];
        let got = |k: &str| mh[k].as_f64().unwrap_or(f64::NAN);
        assert!(close(got("low_0_1pct_fps"), low01) && close(got("low_1pct_fps"), low1), "{name}: {mh}");
        assert!(close(got("p97_fps"), p97) && close(got("average_fps"), avg), "{name}: {mh}");
        // framescope's own figures are of the frames, whatever the version.
        assert!(close(doc["runs"][0]["summary"]["avg_fps"].as_f64().unwrap_or(0.0), avg), "{name}");
    }
}

/// A trimmed run of a per-frame MangoHud 0.6.x log: MangoHud's convention is that
/// version's rule on the logged `fps` of the rows its kept frames came from (the
/// summary file, of the whole log, is not shown for a part of it).
#[test]
fn a_trimmed_mangohud_0_6_run_takes_the_fps_of_its_rows() {
    let path = common::repo_file("sample-traces/mangohud-0.6.8/vkcube_2026-11-29_06-25-42.csv");
    let (code, doc) = report_json(["--trim-start".as_ref(), "1".as_ref(), path.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert!(run.get("tool_summary").is_none(), "{run}");
    let mh = &run["conventions"]["mangohud"];
    // The kept frames' lines, from `framescope frames`.
    let table = std::env::temp_dir().join(format!("framescope-mh-trim-{}.csv", std::process::id()));
    let out = common::framescope([
        "frames".as_ref(),
        path.as_os_str(),
        "--trim-start".as_ref(),
        "1".as_ref(),
        "-o".as_ref(),
        table.as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<u64> = std::fs::read_to_string(&table)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    let (first, last) = (lines[0], lines[lines.len() - 1]);
    assert!(first > 4, "the trim left out the first second");
    let fps: Vec<f64> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(i, _)| (first..=last).contains(&(*i as u64 + 1)))
        .map(|(_, l)| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    let mut a = fps.clone();
    a.sort_by(f64::total_cmp);
    let n = a.len();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(close(mh["average_fps"].as_f64().unwrap(), mean(&fps)), "{mh}");
    assert!(close(mh["low_1pct_fps"].as_f64().unwrap(), mean(&a[..n.div_ceil(100)])), "{mh}");
    assert!(close(mh["low_0_1pct_fps"].as_f64().unwrap(), mean(&a[..n.div_ceil(1000)])), "{mh}");
    assert!(close(mh["p97_fps"].as_f64().unwrap(), a[(0.97 * (n - 1) as f64).floor() as usize]), "{mh}");
}
