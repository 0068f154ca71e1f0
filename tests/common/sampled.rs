//! Helpers and fixtures of the sampled-log tests (`nvidia_app_logs`, `afterburner_logs`,
//! `sampled_logs`): loading a log, its warnings, a temp file, the run of `framescope
//! report --json`, and the two hand-built logs with every quirk of the real files.

use super::report_json;
use framescope_core::ingest::{LoadOptions, load_bytes};
use framescope_core::model::Capture;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn load(name: &str, text: &str) -> Capture {
    load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

pub fn all_messages(c: &Capture) -> String {
    let t = c.traces.iter().flat_map(|t| &t.warnings);
    c.warnings.iter().chain(t).map(|w| format!("{:?}: {}", w.line, w.message)).collect::<Vec<_>>().join("\n")
}

/// `values` equal `want`, NaN standing for a missing value.
pub fn same(values: &[f64], want: &[f64]) -> bool {
    values.len() == want.len()
        && values.iter().zip(want).all(|(a, b)| (a.is_nan() && b.is_nan()) || (a - b).abs() < 1e-9)
}

/// A file in a fresh folder under the system temp dir (removed when dropped).
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str, text: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("framescope_sampled_{}_{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The one run of `framescope report --json FILE`, with exit 0.
pub fn report_of(path: &Path) -> Value {
    let (code, doc) = report_json([path.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0].clone()
}

pub fn figure(run: &Value, section: &str, name: &str) -> f64 {
    run[section][name].as_f64().unwrap_or_else(|| panic!("{section}.{name} in {run}"))
}

/// A run of a sampled log: `sampled`, no per-frame section, no VSYNC grid.
pub fn assert_sampled_run(run: &Value) {
    assert_eq!(run["sampled"], Value::Bool(true), "{run}");
    assert_eq!(run["frame_time"], "presents");
    for section in ["pacing", "stutters", "osc", "health", "frame_types", "vsync"] {
        assert!(run[section].is_null(), "{section} should be null: {}", run[section]);
    }
    assert!(run["dropped_frames"].is_null(), "a sampled log does not say which frames were dropped");
}

/// As the NVIDIA App writes it (trailing comma in the header, CRLF here), plus every
/// kind of row that is not a sample:
/// * line 2, t 0 s: opens the log (its 50 FPS are no sample: no interval before it);
/// * line 3, t 0.5 s, 100 FPS: Δt = 500 ms, w = 100·500/1000 = 50 frames of 10 ms;
/// * line 4, t 1.0 s, FPS N/A: no sample, but it ends the interval 0.5–1.0 s;
/// * line 5: truncated, no timestamp: not a row at all;
/// * line 6, t 2.0 s, 25 FPS: Δt = 1000 ms (from line 4, not line 3), w = 25 of 40 ms;
/// * line 7, t 2.0 s again: Δt = 0, no sample (its 80 FPS would set max_fps);
/// * lines 8–9, PID 0 after the game exited: no samples; line 10 a spreadsheet's
///   summary row without a timestamp: not a row.
///
/// W = 75 → frames 75; duration = 500 + 1000 = 1500 ms; avg = (100·500 + 25·1000) /
/// 1500 = 50 (the mean of the rows' 1000/FPS would say 40: 2000/50). min 25, max 100.
/// Weighted percentiles, ascending: 10 ms (running 50), 40 ms (75): p50 → 37.5 is
/// reached at 10 ms, p90 → 67.5 at 40 ms. 1 % low: K = 0.75 frames, all of the 40 ms
/// sample: 1000·0.75/(0.75·40) = 25. Render latency Δt-weighted: (4·500 + 6·1000) /
/// 1500 = 5.333…; PC latency: 0 is "none", so only line 6's 30 (mean, min, max 30).
/// Samples end at 500 and 2000 ms on the log's clock → start at 0 and 1000 ms. The
/// mean interval (500 + 1000)/2 = 750 ms.
pub const NVIDIA: &str = "Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,Render Latency(MSec),\
Average PC Latency(MSec),CPU Utilization(%),GPU1 Utilization(%),GPU2 Utilization(%),\r\n\
0.000,4242,50.000,40.000,5.000,20.000,10.000,90.000,N/A\r\n\
0.500,4242,100.000,80.000,4.000,0.000,N/A,91.000,N/A\r\n\
1.000,4242,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n\
,4242,60.0,50.0,4.1,21.0\r\n\
2.000,4242,25.000,20.000,6.000,30.000,12.000,95.000,N/A\r\n\
2.000,4242,80.000,70.000,6.000,30.000,12.000,95.000,N/A\r\n\
2.500,0,0.000,0.000,0.000,0.000,5.000,1.000,N/A\r\n\
3.000,0,0.000,0.000,0.000,0.000,4.000,0.000,N/A\r\n\
,,58.333,,,,,,\r\n";

/// The `.hml` shape: 2-digit line types, space-padded names and values, a duplicate
/// `Framerate` (the first is the rate, the second left out), LF. Timed sample lines 6–11, 18:55:13 to
/// 18:55:16: polling period P = 3000 ms / (6 − 1) = 600 ms.
/// * line 6: opens the log; line 7 (2nd timed line): 100 FPS, ends 600 ms after line 6;
/// * line 8: Framerate N/A, line 10: Framerate 0: no samples (still polling instants);
/// * line 9 (4th timed line): 25 FPS, ends 3·600 = 1800 ms after line 6;
/// * line 11: truncated (4 fields, header 7), but timed: counts in P, no sample.
///
/// Samples: (100 FPS, Δt 600 → w 60, 10 ms), (25 FPS, Δt 600 → w 15, 40 ms): W = 75,
/// duration 1200 ms, avg = (100 + 25)/2 = 62.5 (equal intervals: the mean rate).
/// p50 → 37.5 reached at 10 ms; p90 → 67.5 at 40 ms; 1 % low: K = 0.75 of the 40 ms
/// sample → 25. Starts 600 − 600 = 0 and 1800 − 600 = 1200 ms.
pub const HML: &str = "00, 03-06-2021 18:55:13, Hardware monitoring log v1.6 \n\
01, 03-06-2021 18:55:13, NVIDIA GeForce RTX 2070 SUPER\n\
02, 03-06-2021 18:55:13, GPU temperature     ,Framerate           ,Frametime           ,Framerate           ,CPU usage           \n\
03, 03-06-2021 18:55:13, 0                   ,C                   ,0.000               ,100.000             ,10                  ,                    ,                    ,\n\
03, 03-06-2021 18:55:13, 1                   ,FPS                 ,0.000               ,200.000             ,10                  ,                    ,                    ,%.1f\n\
80, 03-06-2021 18:55:13, 60.000              ,50.000              ,20.000              ,51.000              ,10.000              \n\
80, 03-06-2021 18:55:13, 61.000              ,100.000             ,11.000              ,99.000              ,N/A                 \n\
80, 03-06-2021 18:55:14, 62.000              ,N/A                 ,N/A                 ,N/A                 ,12.000              \n\
80, 03-06-2021 18:55:15, 63.000              ,25.000              ,45.000              ,24.000              ,13.000              \n\
80, 03-06-2021 18:55:16, 63.000              ,0.000               ,0.000               ,0.000               ,11.000              \n\
80, 03-06-2021 18:55:16, 63.000              ,0.0\n";
