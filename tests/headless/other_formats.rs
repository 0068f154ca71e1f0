//! Formats beyond the PresentMon family: the CapFrameX capture JSON against its own
//! arrays. (MangoHud logs are in `tests/headless/mangohud.rs`, the NVIDIA App and Afterburner
//! sampled logs in `tests/headless/sampled_logs.rs`.)
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
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
