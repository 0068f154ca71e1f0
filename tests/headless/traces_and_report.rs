//! Traces and the report (format quirks): swap-chain normalisation, the trace split
//! and the default trace, the `report --json` contract and the `--trace` selectors.
//!
//! Every capture below is an inline byte string whose header is copied from a real file
//! in `shared/real-traces/`; every expected figure is derived by hand from
//! `shared/spec/metrics.md` §1–2 and `shared/spec/formats.md` §1–5, with the arithmetic in
//! a comment beside the assertion. Frame times are chosen so that the sums stay simple.
//! Helpers and shared fixtures: `common::quirks`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::quirks::*;

// ---------------------------------------------------------------------------------
// 3. Swap-chain normalisation, trace split, default trace
// ---------------------------------------------------------------------------------

#[test]
fn swap_chains_with_and_without_padding_are_one_trace_and_traces_keep_file_order() {
    let text = pm1_file(&[
        ("Game.exe", 100, "0x0000000000000AB0", "1.010", "10.000"), // line 2: trace 0
        ("dwm.exe", 200, "0x00000224B280A1C0", "1.012", "16.000"),  // line 3: trace 1
        ("Game.exe", 100, "0xAB0", "1.030", "20.000"),              // line 4: trace 0 (unpadded)
        ("Other.exe", 300, "0x0000000000000AB0", "1.040", "10.000"), // line 5: trace 2
        ("Game.exe", 100, "0x0000000000000CD0", "1.045", "10.000"), // line 6: trace 3
        ("dwm.exe", 200, "0x224B280A1C0", "1.028", "16.000"),       // line 7: trace 1
        ("Game.exe", 100, "0x00000AB0", "1.060", "30.000"),         // line 8: trace 0
        ("Other.exe", 300, "0xAB0", "1.050", "10.000"),             // line 9: trace 2
        ("dwm.exe", 200, "0x00000224B280A1C0", "1.044", "16.000"),  // line 10: trace 1
        ("dwm.exe", 200, "0x00000224B280A1C0", "1.060", "16.000"),  // line 11: trace 1
    ]);
    let c = load("multi.csv", text.as_bytes());
    let keys: Vec<(&str, Option<u32>, Option<&str>)> = c
        .traces
        .iter()
        .map(|t| {
            let m = &t.meta;
            (m.application.as_str(), m.process_id, m.swap_chain.as_deref())
        })
        .collect();
    // Split by (Application, ProcessID, SwapChainAddress), in order of first appearance.
    assert_eq!(
        keys,
        vec![
            ("Game.exe", Some(100), Some("0xAB0")),
            ("dwm.exe", Some(200), Some("0x224B280A1C0")),
            ("Other.exe", Some(300), Some("0xAB0")),
            ("Game.exe", Some(100), Some("0xCD0")),
        ]
    );
    let lines: Vec<Vec<u64>> = c.traces.iter().map(|t| t.frames.line.to_vec()).collect();
    assert_eq!(lines, vec![vec![2, 4, 8], vec![3, 7, 10, 11], vec![5, 9], vec![6]]);
    // Game.exe/0xAB0: ft 10, 20, 30 at 1010, 1030, 1060 ms → starts 1000, 1010, 1030;
    // earliest start in the file is Game's 1000 (dwm's first is 1012 − 16 = 996!):
    // dwm starts 996, 1012, 1028, 1044 → file origin 996 → Game at 4, 14, 34.
    assert_all_close(&c.traces[0].frames.frame_time_ms, &[10.0, 20.0, 30.0], "ft");
    assert_all_close(&c.traces[0].frames.start_ms, &[4.0, 14.0, 34.0], "Game start");
    assert_all_close(&c.traces[1].frames.start_ms, &[0.0, 16.0, 32.0, 48.0], "dwm start");
    // Other.exe: 1040 − 10 = 1030 → 34; 1050 − 10 = 1040 → 44.
    assert_all_close(&c.traces[2].frames.start_ms, &[34.0, 44.0], "Other start");
    // Most frames ignoring dwm.exe (4 frames): Game.exe/0xAB0 with 3.
    assert_eq!(c.default_trace(), Some(0));
}

#[test]
fn default_trace_ties_go_to_the_first_and_dwm_counts_only_when_alone() {
    // A has 2, B has 2 (tie → A, the first), DWM.EXE (any case) has 3 and is ignored.
    let tie = pm1_file(&[
        ("DWM.EXE", 9, "0x1", "1.016", "16.000"),
        ("A.exe", 1, "0x10", "1.010", "10.000"),
        ("B.exe", 2, "0x20", "1.010", "10.000"),
        ("B.exe", 2, "0x20", "1.020", "10.000"),
        ("A.exe", 1, "0x10", "1.020", "10.000"),
        ("DWM.EXE", 9, "0x1", "1.032", "16.000"),
        ("DWM.EXE", 9, "0x1", "1.048", "16.000"),
    ]);
    let c = load("tie.csv", tie.as_bytes());
    assert_eq!(c.traces.len(), 3);
    assert_eq!(c.traces[1].meta.application, "A.exe");
    assert_eq!(c.default_trace(), Some(1));

    // One more B frame: B (3) beats A (2).
    let b_wins = format!("{tie}{}", pm1_row("B.exe", 2, "0x20", "1.030", "10.000"));
    let c = load("b.csv", b_wins.as_bytes());
    assert_eq!(c.traces[2].meta.application, "B.exe");
    assert_eq!(c.default_trace(), Some(2));

    // Only dwm.exe traces (two swap chains): the larger one (index 1, 2 frames) wins.
    let only_dwm = pm1_file(&[
        ("dwm.exe", 9, "0x1", "1.016", "16.000"),
        ("dwm.exe", 9, "0x100000000", "1.016", "16.000"),
        ("dwm.exe", 9, "0x100000000", "1.032", "16.000"),
    ]);
    let c = load("dwm.csv", only_dwm.as_bytes());
    assert_eq!(c.traces.len(), 2);
    assert_eq!(c.traces[1].meta.swap_chain.as_deref(), Some("0x100000000"));
    assert_eq!(c.default_trace(), Some(1));
}

// ---------------------------------------------------------------------------------
// 13. The binary: `report --json` contract and `--trace` selectors
// ---------------------------------------------------------------------------------

/// A temporary file removed on drop.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> Self {
        let path =
            std::env::temp_dir().join(format!("framescope_format_quirks_{}_{name}", std::process::id()));
        std::fs::write(&path, bytes).expect("write temp capture");
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Four traces, interleaved; in order of first appearance:
/// dwm.exe/1268 (16, 16), Game.exe/4242/0xAB0 (10, 20, 30, 40 + an NA row on line 7),
/// Other.exe/777/0x10 (12, 12, 12, the second dropped), Game.exe/4242/0xCD0 (20, 20).
fn multi_trace_file() -> String {
    let r = |app: &str, pid: u32, sc: &str, dropped: u8, t: &str, ft: &str| {
        let (disp, until) = if dropped == 1 { ("0.000", "0.000") } else { ("16.000", "9.000") };
        format!(
            "{app},{pid},{sc},DXGI,1,0,0,Hardware: Legacy Flip,{dropped},{t},{ft},{disp},1.000,2.000,{until}\n"
        )
    };
    let (dwm, dwm_sc) = ("dwm.exe", "0x00000224B280A1C0");
    let (game, ab0, cd0) = ("Game.exe", "0x0000000000000AB0", "0x0000000000000CD0");
    let (other, o_sc) = ("Other.exe", "0x0000000000000010");
    [
        format!("{PM1_HEADER}\n"),
        r(dwm, 1268, dwm_sc, 0, "1.016", "16.000"), // line 2
        r(game, 4242, ab0, 0, "1.010", "10.000"),   // line 3
        r(other, 777, o_sc, 0, "1.012", "12.000"),  // line 4
        r(game, 4242, cd0, 0, "1.020", "20.000"),   // line 5
        r(game, 4242, ab0, 0, "1.030", "20.000"),   // line 6
        r(game, 4242, ab0, 0, "1.040", "NA"),       // line 7: skipped
        r(other, 777, o_sc, 1, "1.024", "12.000"),  // line 8: dropped
        r(dwm, 1268, dwm_sc, 0, "1.032", "16.000"), // line 9
        r(game, 4242, ab0, 0, "1.060", "30.000"),   // line 10
        r(game, 4242, cd0, 0, "1.040", "20.000"),   // line 11
        r(game, 4242, ab0, 0, "1.100", "40.000"),   // line 12
        r(other, 777, o_sc, 0, "1.036", "12.000"),  // line 13
    ]
    .concat()
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> =
        v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect();
    k.sort();
    k
}

#[track_caller]
fn assert_has_keys(v: &serde_json::Value, want: &[&str], what: &str) {
    let have = keys(v);
    for k in want {
        assert!(have.iter().any(|h| h == k), "{what}: no key {k} in {have:?}");
    }
}

#[track_caller]
fn json_f64(v: &serde_json::Value, what: &str) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{what}: not a number: {v}"))
}

/// The keys of `settings` (`cli-report.md`).
const SETTING_KEYS: [&str; 7] = [
    "target_fps",
    "stutter_threshold",
    "stutter_floor_ms",
    "window_frames",
    "frame_time",
    "trim_start_s",
    "trim_end_s",
];

/// The keys every run has (`cli-report.md`).
const RUN_KEYS: [&str; 17] = [
    "file",
    "format",
    "application",
    "process_id",
    "swap_chain",
    "frame_time",
    "sampled",
    "frames",
    "dropped_frames",
    "duration_ms",
    "warnings",
    "summary",
    "pacing",
    "stutters",
    "osc",
    "health",
    "latency",
];

/// The keys of a run's `latency` (`cli-report.md`, `metrics.md` §7).
const LATENCY_KEYS: [&str; 12] = [
    "pcl_ms",
    "i2fs_ms",
    "fs2p_ms",
    "p2d_ms",
    "pc_latency_column_mean_ms",
    "pc_latency_min_ms",
    "pc_latency_max_ms",
    "display_latency_mean_ms",
    "click_to_photon_mean_ms",
    "render_present_latency_mean_ms",
    "all_input_to_photon_mean_ms",
    "animation_error_mean_abs_ms",
];

#[test]
fn report_json_has_every_contract_key_and_hand_derived_figures() {
    let file = TempFile::new("contract.csv", multi_trace_file().as_bytes());
    let (code, doc) = common::report_json([&file.0]);
    assert_eq!(code, 0, "{doc}");
    assert_has_keys(&doc, &["schema", "settings", "runs"], "document");
    assert_eq!(doc["schema"], 1);
    let settings = &doc["settings"];
    assert_has_keys(settings, &SETTING_KEYS, "settings");
    assert_close(json_f64(&settings["target_fps"], "target_fps"), 60.0, "target");
    // What was asked (the default, auto) and, per run, what it resolved to: no frame
    // generation here, so presents.
    assert_eq!(settings["frame_time"], "auto");
    let runs = doc["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "the default trace only");
    let run = &runs[0];
    assert_has_keys(run, &RUN_KEYS, "run");
    // Default trace: Game.exe/0xAB0 (4 frames; dwm.exe ignored; Other 3, CD0 2).
    assert_eq!(run["file"], file.0.to_str().expect("utf-8 temp path"));
    assert_eq!(run["format"], "presentmon-1");
    assert_eq!(run["application"], "Game.exe");
    assert_eq!(run["process_id"], 4242);
    assert_eq!(run["swap_chain"], "0xAB0");
    assert_eq!(run["frame_time"], "presents");
    assert_eq!(run["sampled"], false);
    // Line 7 (NA) has no present interval: not in the presents series (it was displayed,
    // so the display series would count it).
    assert_eq!(run["frames"], 4);
    assert_eq!(run["dropped_frames"], 0);
    // duration = 10 + 20 + 30 + 40 = 100 (the skipped row adds nothing).
    assert_close(json_f64(&run["duration_ms"], "duration"), 100.0, "duration_ms");
    let warned: Vec<u64> =
        run["warnings"].as_array().expect("warnings").iter().filter_map(|w| w["line"].as_u64()).collect();
    assert_eq!(warned, vec![7], "{}", run["warnings"]);
    let s = &run["summary"];
    let w = &WANT_10_TO_40;
    for (key, want) in [
        ("avg_fps", w.avg_fps),
        ("min_fps", w.min_fps),
        ("max_fps", w.max_fps),
        ("p50_ms", w.p50),
        ("p90_ms", w.p90),
        ("p95_ms", w.p95),
        ("p99_ms", w.p99),
        ("p99_9_ms", w.p99_9),
        ("low_1pct_fps", w.low_1),
        ("low_0_1pct_fps", w.low_0_1),
    ] {
        assert_close(json_f64(&s[key], key), want, key);
    }
    assert_has_keys(&run["latency"], &LATENCY_KEYS, "latency");
    // No PCL log, no PCL column → null, never 0.
    assert!(run["latency"]["pcl_ms"].is_null());
    assert!(run["latency"]["pc_latency_column_mean_ms"].is_null());
    // Mean MsUntilDisplayed over displayed frames: every Game row says 9.
    assert_close(
        json_f64(&run["latency"]["display_latency_mean_ms"], "display latency"),
        9.0,
        "display_latency_mean_ms",
    );
}

/// (application, process_id, swap_chain, frames, dropped_frames, duration_ms) of a run.
fn run_key(run: &serde_json::Value) -> (String, u64, String, u64, u64, f64) {
    (
        run["application"].as_str().expect("application").to_owned(),
        run["process_id"].as_u64().expect("process_id"),
        run["swap_chain"].as_str().expect("swap_chain").to_owned(),
        run["frames"].as_u64().expect("frames"),
        run["dropped_frames"].as_u64().expect("dropped_frames"),
        json_f64(&run["duration_ms"], "duration_ms"),
    )
}

/// Runs `report --json --trace SELECTOR FILE`; exit code and the runs.
fn report_trace(file: &TempFile, selector: &str) -> (i32, Vec<serde_json::Value>) {
    let args: Vec<std::ffi::OsString> = vec!["--trace".into(), selector.into(), file.0.clone().into()];
    let (code, doc) = common::report_json(&args);
    (code, doc["runs"].as_array().expect("runs").clone())
}

#[test]
fn trace_all_lists_every_trace_in_file_order_with_hand_derived_totals() {
    let file = TempFile::new("all.csv", multi_trace_file().as_bytes());
    let (code, runs) = report_trace(&file, "all");
    assert_eq!(code, 0);
    let got: Vec<_> = runs.iter().map(run_key).collect();
    let want = [
        // dwm: 16 + 16 = 32.
        ("dwm.exe", 1268, "0x224B280A1C0", 2, 0, 32.0),
        // Game/0xAB0: 10 + 20 + 30 + 40 = 100 (line 7 skipped).
        ("Game.exe", 4242, "0xAB0", 4, 0, 100.0),
        // Other: 12 · 3 = 36, line 8 dropped but kept.
        ("Other.exe", 777, "0x10", 3, 1, 36.0),
        // Game/0xCD0: 20 + 20 = 40.
        ("Game.exe", 4242, "0xCD0", 2, 0, 40.0),
    ];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0.as_str(), g.1, g.2.as_str(), g.3, g.4), (w.0, w.1, w.2, w.3, w.4));
        assert_close(g.5, w.5, "duration_ms");
    }
    // Other.exe: avg = 1000·3/36 = 83.33…; all frames 12 ms → p50 = 12, lows 1000/12.
    let other = &runs[2]["summary"];
    assert_close(json_f64(&other["avg_fps"], "avg"), 3000.0 / 36.0, "Other avg_fps");
    assert_close(json_f64(&other["p50_ms"], "p50"), 12.0, "Other p50");
    assert_close(json_f64(&other["low_1pct_fps"], "low"), 1000.0 / 12.0, "Other low");
}

#[test]
fn trace_selectors_pick_by_pid_app_and_pid_swap_chain() {
    let file = TempFile::new("select.csv", multi_trace_file().as_bytes());
    for (selector, app, pid, sc) in [
        // PID with two swap chains: the one with most frames (0xAB0, 4 > 2).
        ("4242", "Game.exe", 4242, "0xAB0"),
        // APP, case-insensitive; again the swap chain with most frames.
        ("GAME.EXE", "Game.exe", 4242, "0xAB0"),
        ("game.exe", "Game.exe", 4242, "0xAB0"),
        // PID:SWAPCHAIN, unpadded and zero-padded.
        ("4242:0xCD0", "Game.exe", 4242, "0xCD0"),
        ("4242:0x0000000000000CD0", "Game.exe", 4242, "0xCD0"),
        ("777", "Other.exe", 777, "0x10"),
        // dwm.exe can still be picked by name or PID.
        ("dwm.exe", "dwm.exe", 1268, "0x224B280A1C0"),
        ("1268:0x00000224B280A1C0", "dwm.exe", 1268, "0x224B280A1C0"),
    ] {
        let (code, runs) = report_trace(&file, selector);
        assert_eq!(code, 0, "--trace {selector}");
        assert_eq!(runs.len(), 1, "--trace {selector}");
        let k = run_key(&runs[0]);
        assert_eq!((k.0.as_str(), k.1, k.2.as_str()), (app, pid, sc), "--trace {selector}");
    }
}

#[test]
fn a_selector_matching_nothing_exits_1_with_an_error_run_listing_the_traces() {
    let file = TempFile::new("nomatch.csv", multi_trace_file().as_bytes());
    for selector in ["9999", "nothing.exe", "4242:0x999"] {
        let (code, runs) = report_trace(&file, selector);
        assert_eq!(code, 1, "--trace {selector}");
        assert_eq!(runs.len(), 1, "--trace {selector}");
        let run = &runs[0];
        assert_eq!(run["file"], file.0.to_str().expect("utf-8 temp path"));
        let msg = run["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("--trace {selector}: no error message in {run}"));
        // Every trace of the file is listed, so the user can pick one.
        for needle in ["dwm.exe", "1268", "Game.exe", "4242", "0xAB0", "0xCD0", "Other.exe", "777"] {
            assert!(msg.contains(needle), "--trace {selector}: {needle} not in {msg}");
        }
        assert!(run.get("summary").is_none(), "an error run has no figures: {run}");
    }
}
