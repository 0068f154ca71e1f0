//! Format quirks, one small hand-built capture (or a few) per quirk.
//!
//! Every capture below is an inline byte string whose header is copied from a real file
//! in `shared/real-traces/`; every expected figure is derived by hand from
//! `shared/spec/metrics.md` §1–2 and `shared/spec/formats.md` §1–5, with the arithmetic in
//! a comment beside the assertion. Frame times are chosen so that the sums stay simple.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use framescope_core::analysis::{FrameTimeSource, Series, Summary};
use framescope_core::ingest::{LoadOptions, load_bytes};
use framescope_core::model::{Capture, ColumnKind, Trace};
use std::path::Path;

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

/// Loads bytes with the default options (QPC at 10 MHz); the load must succeed.
fn load(name: &str, bytes: &[u8]) -> Capture {
    load_with(name, bytes, LoadOptions::default())
}

fn load_with(name: &str, bytes: &[u8], opts: LoadOptions) -> Capture {
    load_bytes(Path::new(name), bytes, opts).unwrap_or_else(|e| panic!("{name} should load: {e:?}"))
}

/// Relative tolerance 1e-9; values below 1 in size are compared with an absolute 1e-9
/// (a start time of 0 computed as `1010.0 - 10.0 - 1000.0` may be off by 1e-13).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[track_caller]
fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!(close(actual, expected), "{what}: got {actual}, expected {expected}");
}

#[track_caller]
fn assert_all_close(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: length of {actual:?} vs {expected:?}");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        if e.is_nan() {
            assert!(a.is_nan(), "{what}[{i}]: got {a}, expected NaN (missing)");
        } else {
            assert!(close(a, e), "{what}[{i}]: got {a}, expected {e} ({actual:?})");
        }
    }
}

/// Start times whose raw clock sits far from 0 (FrameView seconds since launch, QPC):
/// compared as absolute times `origin_ms + start`, with relative tolerance 1e-9.
#[track_caller]
fn assert_starts(actual: &[f64], expected: &[f64], origin_ms: f64) {
    let shift = |v: &[f64]| v.iter().map(|x| x + origin_ms).collect::<Vec<f64>>();
    assert_all_close(&shift(actual), &shift(expected), "start_ms (+ origin)");
}

/// Every warning of the capture, file-level and per trace.
fn all_warnings(c: &Capture) -> Vec<(Option<u64>, String)> {
    c.warnings
        .iter()
        .chain(c.traces.iter().flat_map(|t| t.warnings.iter()))
        .map(|w| (w.line, w.message.clone()))
        .collect()
}

/// The only trace of a capture.
#[track_caller]
fn single(c: &Capture) -> &Trace {
    assert_eq!(c.traces.len(), 1, "expected one trace");
    &c.traces[0]
}

/// Summary of the frame-time series of a trace.
fn summary(t: &Trace, source: FrameTimeSource) -> Summary {
    Summary::of(&Series::of(t, source).frame_time_ms).expect("a summary")
}

/// Expected summary, written out by hand.
struct Want {
    avg_fps: f64,
    min_fps: f64,
    max_fps: f64,
    p50: f64,
    p90: f64,
    p95: f64,
    p99: f64,
    p99_9: f64,
    low_1: f64,
    low_0_1: f64,
}

#[track_caller]
fn assert_summary(s: &Summary, w: &Want) {
    assert_close(s.avg_fps, w.avg_fps, "avg_fps");
    assert_close(s.min_fps, w.min_fps, "min_fps");
    assert_close(s.max_fps, w.max_fps, "max_fps");
    assert_close(s.p50_ms, w.p50, "p50_ms");
    assert_close(s.p90_ms, w.p90, "p90_ms");
    assert_close(s.p95_ms, w.p95, "p95_ms");
    assert_close(s.p99_ms, w.p99, "p99_ms");
    assert_close(s.p99_9_ms, w.p99_9, "p99_9_ms");
    assert_close(s.low_1pct_fps, w.low_1, "low_1pct_fps");
    assert_close(s.low_0_1pct_fps, w.low_0_1, "low_0_1pct_fps");
}

/// Summary of the frame times 10, 20, 30, 40 ms (in any order).
/// n = 4, T = 100 ms → avg = 1000·4/100 = 40 fps; min = 1000/40 = 25; max = 1000/10 = 100.
/// Sorted [10,20,30,40]; h = 3p: p50 h=1.5 → 20+0.5·10 = 25; p90 h=2.7 → 30+0.7·10 = 37;
/// p95 h=2.85 → 38.5; p99 h=2.97 → 39.7; p99.9 h=2.997 → 39.97.
/// Lows: k = max(1, ⌊4/100⌋) = 1 → 1000·1/40 = 25 (both).
const WANT_10_TO_40: Want = Want {
    avg_fps: 40.0,
    min_fps: 25.0,
    max_fps: 100.0,
    p50: 25.0,
    p90: 37.0,
    p95: 38.5,
    p99: 39.7,
    p99_9: 39.97,
    low_1: 25.0,
    low_0_1: 25.0,
};

// ---------------------------------------------------------------------------------
// 1. BOM, CRLF, missing final newline
// ---------------------------------------------------------------------------------

/// PresentMon 1.2–1.6 header (`presentmon-1x/pm-1.x_FarCryNewDawn.csv`).
const PM1_HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed";

/// Four frames of 10, 20, 30, 40 ms presented at 1.010, 1.030, 1.060, 1.100 s.
const PM1_PLAIN: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.010000,10.000,16.000,0.500,4.000,14.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.030000,20.000,17.000,0.500,4.000,15.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.060000,30.000,33.000,0.500,4.000,16.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.100000,40.000,34.000,0.500,4.000,17.000
";

#[test]
fn plain_1x_file_gives_the_hand_derived_frames_and_summary() {
    let c = load("pm1.csv", PM1_PLAIN.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-1");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.application, "FarCryNewDawn.exe");
    assert_eq!(t.meta.process_id, Some(9208));
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x259DAE0BCF0"));
    assert_eq!(t.meta.runtime.as_deref(), Some("DXGI"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = present − ft: 1010−10 = 1000, 1030−20 = 1010, 1060−30 = 1030, 1100−40 = 1060;
    // shifted so the earliest (1000) is 0 → 0, 10, 30, 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_all_close(&t.frames.display_ms, &[16.0, 17.0, 33.0, 34.0], "display");
    // Data rows are file lines 2..=5.
    assert_eq!(t.frames.line, vec![2, 3, 4, 5]);
    assert_eq!(t.dropped_count(), 0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn bom_crlf_and_missing_final_newline_read_like_the_plain_file() {
    let plain = load("plain.csv", PM1_PLAIN.as_bytes());
    let crlf = PM1_PLAIN.replace('\n', "\r\n");
    let variants: Vec<(&str, Vec<u8>)> = vec![
        ("bom", [b"\xEF\xBB\xBF".as_slice(), PM1_PLAIN.as_bytes()].concat()),
        ("crlf", crlf.clone().into_bytes()),
        ("no final newline", PM1_PLAIN.trim_end().as_bytes().to_vec()),
        ("bom + crlf + no final newline", [b"\xEF\xBB\xBF".as_slice(), crlf.trim_end().as_bytes()].concat()),
    ];
    let p = single(&plain);
    for (what, bytes) in variants {
        let c = load("variant.csv", &bytes);
        assert!(all_warnings(&c).is_empty(), "{what}: {:?}", all_warnings(&c));
        assert_eq!(c.info.format.name(), "presentmon-1", "{what}");
        let t = single(&c);
        // The BOM must not stick to the first header name ("\u{feff}Application").
        assert_eq!(t.meta.application, "FarCryNewDawn.exe", "{what}");
        assert_eq!(t.meta.process_id, Some(9208), "{what}");
        assert_all_close(&t.frames.frame_time_ms, &p.frames.frame_time_ms, what);
        assert_all_close(&t.frames.start_ms, &p.frames.start_ms, what);
        // CRLF: the last column must not keep a '\r' and become unreadable.
        assert_all_close(
            &t.column(ColumnKind::UntilDisplayed).expect("MsUntilDisplayed").values,
            &[14.0, 15.0, 16.0, 17.0],
            what,
        );
        assert_eq!(t.frames.line.len(), 4, "{what}");
        assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    }
}

#[test]
fn bom_and_no_final_newline_keep_file_line_numbers() {
    // The BOM sits on line 1 (the header); data rows stay lines 2..=5.
    let bom = [b"\xEF\xBB\xBF".as_slice(), PM1_PLAIN.as_bytes()].concat();
    assert_eq!(single(&load("bom.csv", &bom)).frames.line, vec![2, 3, 4, 5]);
    let no_nl = load("no_nl.csv", PM1_PLAIN.trim_end().as_bytes());
    assert_eq!(single(&no_nl).frames.line, vec![2, 3, 4, 5]);
}

#[test]
fn crlf_keeps_file_line_numbers_for_frames_and_warnings() {
    let crlf = PM1_PLAIN.replace('\n', "\r\n");
    // Data rows are file lines 2, 3, 4, 5, exactly as in the LF file.
    assert_eq!(single(&load("crlf.csv", crlf.as_bytes())).frames.line, vec![2, 3, 4, 5]);
    // Frame time 0 on file line 4 (the third data row): the warning must name line 4.
    let bad = crlf.replacen("1.060000,30.000", "1.060000,0.000", 1);
    let c = load("crlf_bad.csv", bad.as_bytes());
    let lines: Vec<u64> = all_warnings(&c).iter().filter_map(|w| w.0).collect();
    assert_eq!(lines, vec![4], "{:?}", all_warnings(&c));
}

// ---------------------------------------------------------------------------------
// 2. NA, N/A, empty cells, padded values
// ---------------------------------------------------------------------------------

#[test]
fn na_and_empty_cells_are_missing_and_padded_values_parse() {
    // Row 2: padded frame time " 20.000 ", display "N/A", MsInPresentAPI empty.
    // Row 3: display "NA", MsUntilRenderComplete "  3.5". Row 4: display empty.
    let text = format!(
        "{PM1_HEADER}
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0,1.010000,10.000,16.000,0.500,4.000,14.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0,1.030000, 20.000 ,N/A,,4.000,15.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0,1.060000,30.000,NA,0.500,  3.5,16.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0, 1.100000,40.000,,0.500,4.000, 17.000
"
    );
    let c = load("na.csv", text.as_bytes());
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Same present times as the plain file → 0, 10, 30, 60 (row 4's " 1.100000" padded).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // N/A, NA, empty display → missing (NaN), never 0.
    assert_all_close(&t.frames.display_ms, &[16.0, f64::NAN, f64::NAN, f64::NAN], "display");
    assert_all_close(
        &t.column(ColumnKind::InPresentApi).expect("in present").values,
        &[0.5, f64::NAN, 0.5, 0.5],
        "MsInPresentAPI",
    );
    assert_all_close(
        &t.column(ColumnKind::UntilRenderComplete).expect("render complete").values,
        &[4.0, 4.0, 3.5, 4.0],
        "MsUntilRenderComplete",
    );
    assert_all_close(
        &t.column(ColumnKind::UntilDisplayed).expect("until displayed").values,
        &[14.0, 15.0, 16.0, 17.0],
        "MsUntilDisplayed",
    );
    // A missing display value is not a drop (Dropped = 0 on every row).
    assert_eq!(t.dropped_count(), 0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Display series: only row 1 has a positive display interval → [16].
    assert_eq!(Series::of(t, FrameTimeSource::Display).frame_time_ms, vec![16.0]);
}

// ---------------------------------------------------------------------------------
// 4. PresentMon 1.x Dropped = 1
// ---------------------------------------------------------------------------------

#[test]
fn dropped_1x_frames_stay_in_presents_figures_and_leave_display_figures() {
    // Row 3 (frame 1) is dropped: PresentMon writes 0.000 in both display columns.
    let text = format!(
        "{PM1_HEADER}
csgo.exe,27396,0x000000001AB0B4C0,D3D9,-1,0,0,Composed: Copy with GPU GDI,0,1.010000,10.000,12.000,0.370,1.370,20.000
csgo.exe,27396,0x000000001AB0B4C0,D3D9,-1,0,0,Composed: Copy with GPU GDI,1,1.030000,20.000,0.000,0.370,1.370,0.000
csgo.exe,27396,0x000000001AB0B4C0,D3D9,-1,0,0,Composed: Copy with GPU GDI,0,1.060000,30.000,24.000,0.370,1.370,21.000
csgo.exe,27396,0x000000001AB0B4C0,D3D9,-1,0,0,Composed: Copy with GPU GDI,0,1.100000,40.000,36.000,0.370,1.370,22.000
"
    );
    let c = load("dropped.csv", text.as_bytes());
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x1AB0B4C0"));
    assert_eq!(t.frames.dropped, vec![false, true, false, false]);
    assert_eq!(t.dropped_count(), 1);
    // Dropped frames' display values (written 0) read as missing.
    assert_all_close(&t.frames.display_ms, &[12.0, f64::NAN, 24.0, 36.0], "display");
    assert_all_close(
        &t.column(ColumnKind::UntilDisplayed).expect("until displayed").values,
        &[20.0, f64::NAN, 21.0, 22.0],
        "MsUntilDisplayed",
    );
    // Presents: the dropped frame costs CPU time and stays → the 10..40 summary.
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Display: [12, 24, 36], n = 3, T = 72 → avg = 3000/72 = 41.666…; min = 1000/36;
    // max = 1000/12; h = 2p: p50 h=1 → 24; p90 h=1.8 → 24+0.8·12 = 33.6;
    // p95 h=1.9 → 34.8; p99 h=1.98 → 35.76; p99.9 h=1.998 → 35.976; lows k=1 → 1000/36.
    let display = Series::of(t, FrameTimeSource::Display);
    assert_eq!(display.frame, vec![0, 2, 3]);
    assert_summary(
        &Summary::of(&display.frame_time_ms).expect("display summary"),
        &Want {
            avg_fps: 3000.0 / 72.0,
            min_fps: 1000.0 / 36.0,
            max_fps: 1000.0 / 12.0,
            p50: 24.0,
            p90: 33.6,
            p95: 34.8,
            p99: 35.76,
            p99_9: 35.976,
            low_1: 1000.0 / 36.0,
            low_0_1: 1000.0 / 36.0,
        },
    );
}

// ---------------------------------------------------------------------------------
// 3. Swap-chain normalisation, trace split, default trace
// ---------------------------------------------------------------------------------

/// One PresentMon 1.2–1.6 row (`PM1_HEADER`), displayed, 1 ms in Present().
fn pm1_row(app: &str, pid: u32, swap_chain: &str, time_s: &str, ft: &str) -> String {
    format!(
        "{app},{pid},{swap_chain},DXGI,1,0,0,Hardware: Legacy Flip,0,{time_s},{ft},16.000,1.000,2.000,16.000\n"
    )
}

/// Rows in file order (line 2 first): (app, pid, swap chain, present time s, frame time).
fn pm1_file(rows: &[(&str, u32, &str, &str, &str)]) -> String {
    let mut text = format!("{PM1_HEADER}\n");
    for &(app, pid, sc, t, ft) in rows {
        text.push_str(&pm1_row(app, pid, sc, t, ft));
    }
    text
}

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
    let lines: Vec<Vec<u64>> = c.traces.iter().map(|t| t.frames.line.clone()).collect();
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
// 5. PresentMon 2.0: frame time = CPUBusy + CPUWait; DisplayedTime exactly 0 = dropped
// ---------------------------------------------------------------------------------

#[test]
fn pm20_frame_time_is_cpu_busy_plus_wait_and_displayed_time_zero_is_dropped() {
    // Header of `presentmon-2x/pm-v2.0.0_gold_test_case_0_qpc.csv` (CPUStartQPC, 10 MHz).
    // CPU starts 2000 s + 0, 10, 30, 60 ms = +0, +100000, +300000, +600000 ticks.
    let text = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,CPUStartQPC,CPUBusy,CPUWait,GPULatency,GPUBusy,GPUWait,VideoBusy,DisplayLatency,DisplayedTime,ClickToPhotonLatency
dwm.exe,1268,0x00000224B280A1C0,DXGI,1,0,0,Hardware: Legacy Flip,20000000000,8.000000,2.000000,0.852900,1.075200,14.439200,0.000000,32.729600,16.000000,0.000000
dwm.exe,1268,0x00000224B280A1C0,DXGI,1,0,0,Hardware: Legacy Flip,20000100000,15.000000,5.000000,0.852900,1.075200,14.439200,0.000000,0.000000,0.000000,0.000000
dwm.exe,1268,0x00000224B280A1C0,DXGI,1,0,0,Hardware: Legacy Flip,20000300000,25.000000,5.000000,0.852900,1.075200,14.439200,0.000000,40.000000,0.000100,0.000000
dwm.exe,1268,0x00000224B280A1C0,DXGI,1,0,0,Hardware: Legacy Flip,20000600000,39.500000,0.500000,0.852900,1.075200,14.439200,0.000000,50.000000,34.000000,0.000000
";
    let c = load("pm20.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-2.0");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x224B280A1C0"));
    // 8+2 = 10, 15+5 = 20, 25+5 = 30, 39.5+0.5 = 40.
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = CPU start: (ticks − 20000000000) / 10 MHz · 1000 → 0, 10, 30, 60 ms.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // DisplayedTime 0.000000 exactly → dropped; 0.000100 is displayed (not exactly 0).
    assert_eq!(t.frames.dropped, vec![false, true, false, false]);
    // DisplayedTime is how long a frame stayed on screen: a displayed frame's display
    // interval is the previous displayed frame's DisplayedTime (metrics.md §1). Frame 0
    // is the first displayed (none), frame 2 gets frame 0's 16, frame 3 frame 2's 0.0001.
    assert_all_close(&t.frames.display_ms, &[f64::NAN, f64::NAN, 16.0, 0.0001], "display");
    // The dropped frame's DisplayLatency (written 0.000000) is missing too.
    assert_all_close(
        &t.column(ColumnKind::DisplayLatency).expect("DisplayLatency").values,
        &[32.7296, f64::NAN, 40.0, 50.0],
        "DisplayLatency",
    );
    assert_all_close(
        &t.column(ColumnKind::CpuBusy).expect("CPUBusy").values,
        &[8.0, 15.0, 25.0, 39.5],
        "CPUBusy",
    );
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    let display = Series::of(t, FrameTimeSource::Display);
    assert_eq!(display.frame, vec![2, 3]);
    assert_all_close(&display.frame_time_ms, &[16.0, 0.0001], "display series");
}

// ---------------------------------------------------------------------------------
// 6. PresentMon 2.1–2.3 (FrameTime / DisplayedTime NA) and 2.4+ (MsBetweenPresents)
// ---------------------------------------------------------------------------------

#[test]
fn pm21_to_23_frame_time_column_and_na_display_is_dropped() {
    // Header of `presentmon-2x/pm-v2.3.0_gold_test_case_5_frametype.csv` with
    // CPUStartTime (console: ms) instead of CPUStartQPC. Frame 2 (line 4) not displayed.
    let text = "\u{feff}Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,CPUStartTime,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,GPUBusy,GPUWait,VideoBusy,DisplayLatency,DisplayedTime,AnimationError,AnimationTime,AllInputToPhotonLatency,ClickToPhotonLatency,InstrumentedLatency
PresentBench.exe,24892,0x2A70D2CAC00,DXGI,0,0,0,Composed: Flip,Application,500.0000,10.0000,9.0000,1.0000,1.1731,8.0000,7.0000,1.0000,0.0000,20.0000,12.0000,0.0000,500.0000,NA,NA,NA
PresentBench.exe,24892,0x2A70D2CAC00,DXGI,0,0,0,Composed: Flip,Application,510.0000,20.0000,19.0000,1.0000,1.1731,8.0000,7.0000,1.0000,0.0000,25.0000,24.0000,0.5000,510.0000,NA,NA,NA
PresentBench.exe,24892,0x2A70D2CAC00,DXGI,0,0,0,Composed: Flip,Application,530.0000,30.0000,29.0000,1.0000,1.1731,8.0000,7.0000,1.0000,0.0000,NA,NA,NA,NA,NA,NA,NA
PresentBench.exe,24892,0x2A70D2CAC00,DXGI,0,0,0,Composed: Flip,Application,560.0000,40.0000,39.0000,1.0000,1.1731,8.0000,7.0000,1.0000,0.0000,45.0000,36.0000,-1.0000,560.0000,NA,NA,NA
";
    let c = load("pm23.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-2.1");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.application, "PresentBench.exe");
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x2A70D2CAC00"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = CPU start: 500−500 = 0, 10, 30, 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_eq!(t.frames.dropped, vec![false, false, true, false]);
    // Shifted DisplayedTime: frame 0 first displayed (none), frame 1 gets frame 0's 12,
    // frame 2 dropped, frame 3 gets frame 1's 24 (the previous *displayed* frame).
    assert_all_close(&t.frames.display_ms, &[f64::NAN, 12.0, f64::NAN, 24.0], "display");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Display [12, 24] → avg = 2000/36; p90 = 12 + 0.9·(24 − 12) = 22.8.
    let d = summary(t, FrameTimeSource::Display);
    assert_close(d.avg_fps, 2000.0 / 36.0, "display avg_fps");
    assert_close(d.p90_ms, 22.8, "display p90");
}

/// PresentMon 2.4+ default header (`pm-v2.4plus_gold_test_case_0_default_pcl.csv`)
/// with the time columns given as arguments.
fn pm24_header(time: &str, cpu_start: &str) -> String {
    format!(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,{time},MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,{cpu_start},MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsVideoBusy,MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency,MsInstrumentedLatency"
    )
}

/// One 2.4 row: present time, CPU start, frame time, display change, until displayed,
/// animation error (cells written as given).
fn pm24_row(time: &str, cpu: &str, ft: &str, disp: &str, until: &str, anim: &str) -> String {
    format!(
        "Heaven.exe,12820,0x19284328,DXGI,1,0,0,Composed: Flip,Application,{time},NA,{ft},{disp},0.5000,2.0000,{until},NA,{cpu},{ft},5.0000,1.0000,0.8529,4.0000,3.0000,1.0000,0.0000,{anim},100.0000,NA,NA,NA,NA\n"
    )
}

/// The PresentMon GUI writes `TimeInSeconds` with 4 significant digits, so past 10 s
/// the present times are rounded to 10 ms (the Apex capture). Frames of 2 and 6 ms
/// alternate; their true starts advance by the frame times, but `t − ft` from rounded
/// times can land before the previous frame's start (e.g. rounded t 10.01 twice with
/// ft 2 then 6: starts 10008, then 10004). That is rounding, not time going back: no
/// warning, starts never go back, and each stays within the 10 ms step of its true start.
#[test]
fn a_coarse_time_column_is_rounding_not_time_going_back() {
    let mut text = format!("\u{feff}{}\n", pm24_header("TimeInSeconds", "CPUStartTimeInMs"));
    let mut present = 10_000.0_f64;
    let mut true_starts = Vec::new();
    for k in 0..40 {
        let ft = if k % 2 == 0 { 2.0 } else { 6.0 };
        true_starts.push(present);
        present += ft;
        let written = format!("{:.2}", present / 1000.0);
        text.push_str(&pm24_row(&written, "NA", &format!("{ft:.4}"), "4.0000", "5.0000", "NA"));
    }
    let c = load("coarse.csv", text.as_bytes());
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let starts = &single(&c).frames.start_ms;
    assert!(starts.windows(2).all(|w| w[1] >= w[0]), "{starts:?}");
    // Start times are relative to the earliest one; compare differences from frame 0.
    for (k, (s, t)) in starts.iter().zip(&true_starts).enumerate() {
        let (got, want) = (s - starts[0], t - true_starts[0]);
        assert!((got - want).abs() <= 10.0 + 1e-9, "frame {k}: start {got} vs true {want}");
    }
}

#[test]
fn pm24_ms_between_presents_and_na_until_displayed_is_dropped() {
    // TimeInMs = Present() time in ms: 1010, 1030, 1060, 1100; frame 1 not displayed.
    let mut text = format!("\u{feff}{}\n", pm24_header("TimeInMs", "CPUStartTimeInMs"));
    text.push_str(&pm24_row("1010.0000", "1000.0000", "10.0000", "12.0000", "20.0000", "NA"));
    text.push_str(&pm24_row("1030.0000", "1010.0000", "20.0000", "NA", "NA", "NA"));
    text.push_str(&pm24_row("1060.0000", "1030.0000", "30.0000", "24.0000", "21.0000", "0.5000"));
    text.push_str(&pm24_row("1100.0000", "1060.0000", "40.0000", "36.0000", "22.0000", "0.5000"));
    let c = load("pm24.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-2.4");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x19284328"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = present − ft: 1000, 1010, 1030, 1060 → 0, 10, 30, 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_eq!(t.frames.dropped, vec![false, true, false, false]);
    assert_all_close(&t.frames.display_ms, &[12.0, f64::NAN, 24.0, 36.0], "display");
    assert_all_close(
        &t.column(ColumnKind::UntilDisplayed).expect("MsUntilDisplayed").values,
        &[20.0, f64::NAN, 21.0, 22.0],
        "MsUntilDisplayed",
    );
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    let d = summary(t, FrameTimeSource::Display);
    // Display [12, 24, 36]: avg 3000/72, p50 24, min 1000/36.
    assert_close(d.avg_fps, 3000.0 / 72.0, "display avg_fps");
    assert_close(d.p50_ms, 24.0, "display p50");
    assert_close(d.min_fps, 1000.0 / 36.0, "display min_fps");
}

// ---------------------------------------------------------------------------------
// 7. OCAT: system info on the first row only
// ---------------------------------------------------------------------------------

#[test]
fn ocat_long_first_row_with_quoted_commas_and_short_later_rows() {
    // Header of `ocat/OCAT-MetroExodus.exe-2019-02-20T101522.csv` (29 columns); the first
    // data row has all 29 fields, later rows 17. Present times 10, 30, 60, 100 ms.
    let text = r#"Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed,Motherboard,OS,Processor,System RAM,Base Driver Version,Driver Package,GPU #,GPU,GPU Core Clock (MHz),GPU Memory Clock (MHz),GPU Memory (MB),Comment
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.010000,10.000,11.785,0.192,13.518,13.518,"Micro-Star International Co., Ltd. MPG Z390 GAMING PRO CARBON (MS-7B17)","Windows 10 Pro, 1809 (OS Build 17763.1.amd64fre.rs5_release.180914-1434)",Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz,32 GB DDR4 3200 MT/s,41891,r418_77,1,GeForce RTX 2080 Ti,1350,-,11264,Test
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.030000,20.000,18.668,0.201,20.021,20.021
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,1,0.060000,30.000,0.000,0.201,20.021,0.000
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.100000,40.000,31.000,0.201,20.021,20.021
"#;
    let c = load("OCAT-x.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "ocat");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x215D7910"));
    assert_eq!(t.frames.line, vec![2, 3, 4, 5]);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = present − ft: 10−10 = 0, 30−20 = 10, 60−30 = 30, 100−40 = 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // Line 4 has Dropped = 1.
    assert_eq!(t.frames.dropped, vec![false, false, true, false]);
    assert_all_close(&t.frames.display_ms, &[11.785, 18.668, f64::NAN, 31.0], "display");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    let sys = &c.info.system;
    let get = |k: &str| {
        sys.iter()
            .find(|(key, _)| key == k)
            .map_or_else(|| panic!("{k} missing from {sys:?}"), |(_, v)| v.as_str())
    };
    assert_eq!(get("Motherboard"), "Micro-Star International Co., Ltd. MPG Z390 GAMING PRO CARBON (MS-7B17)");
    assert_eq!(get("OS"), "Windows 10 Pro, 1809 (OS Build 17763.1.amd64fre.rs5_release.180914-1434)");
    assert_eq!(get("Processor"), "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz");
    assert_eq!(get("GPU"), "GeForce RTX 2080 Ti");
    assert_eq!(get("System RAM"), "32 GB DDR4 3200 MT/s");
}

// ---------------------------------------------------------------------------------
// 8. Time columns in unexpected units
// ---------------------------------------------------------------------------------

#[test]
fn capframex_raw_dump_time_in_seconds_holding_ms_still_advances_with_frame_times() {
    // `//Ignore=true` + CapFrameX's embedded-PresentMon header (formats.md §3b):
    // TimeInSeconds is in ms (1010, 1030, 1060, 1100), CPUStartQPCTimeInMs absolute ms.
    let head = "//Ignore=true\nApplication,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,CPUStartQPCTimeInMs,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsFlipDelay,EtwBufferFillPct,EtwBuffersInUse,EtwTotalBuffers,EtwEventsLost,EtwBuffersLost\n";
    let row = |t: &str, ft: &str, cpu: &str| {
        format!(
            "re2.exe,1936,0x76F3DB00,DXGI,0,0,0,Composed: Flip,{t},NA,{ft},16.6667,0.5000,2.0000,14.0000,{cpu},{ft},6.0000,1.0000,0.5000,5.0000,4.0000,1.0000,0.0000,100.0000,NA,0,0,0,0,0\n"
        )
    };
    let text = [
        head.to_owned(),
        row("1010.0000", "10.0000", "246696000.0000"),
        row("1030.0000", "20.0000", "246696010.0000"),
        row("1060.0000", "30.0000", "246696030.0000"),
        row("1100.0000", "40.0000", "246696060.0000"),
    ]
    .concat();
    let c = load("cx_raw.csv", text.as_bytes());
    // A CapFrameX CSV flavour (formats.md §3b).
    assert_eq!(c.info.format.name(), "capframex-csv");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    // Data rows are lines 3..=6 (line 1 is the comment, line 2 the header).
    assert_eq!(t.frames.line, vec![3, 4, 5, 6]);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Read as ms: present − ft = 1000, 1010, 1030, 1060 → 0, 10, 30, 60 (read as seconds
    // it would be 1010000 − 10 … and advance 1000× too fast).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

/// PresentMon GUI (2.3-era pmcap) header, `presentmon-2x/pmcap-cs2.exe-250211-212150.csv`.
const PMCAP_23_HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,CPUStartTime,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,GPUBusy,GPUWait,DisplayLatency,DisplayedTime,AnimationError,AnimationTime,AllInputToPhotonLatency,ClickToPhotonLatency,InstrumentedLatency,GPUPower,GPUVoltage,GPUFrequency,GPUTemperature,GPUUtilization,3D/ComputeUtilization,MediaUtilization,GPUMemoryPower,GPUMemoryVoltage,GPUMemoryFrequency,GPUMemoryEffectiveFrequency,GPUMemoryTemperature,GPUMemorySize,GPUMemorySizeUsed,GPUMemoryMaxBandwidth,GPUMemoryReadBandwidth,GPUMemoryWriteBandwidth,GPUFanSpeed[0],GPUFanSpeed[1],GPUFanSpeed[2],GPUFanSpeed[3],GPUPowerLimited,GPUTemperatureLimited,GPUCurrentLimited,GPUVoltageLimited,GPUUtilizationLimited,GPUMemoryPowerLimited,GPUMemoryTemperatureLimited,GPUMemoryCurrentLimited,GPUMemoryVoltageLimited,GPUMemoryUtilizationLimited,CPUUtilization,CPUPower,CPUTemperature,CPUFrequency";

#[test]
fn gui_pmcap_cpu_start_time_in_seconds_still_advances_with_frame_times() {
    // pmcap CPUStartTime is in seconds: 0, 0.010, 0.030, 0.060; CRLF as in real files.
    let row = |cpu_s: &str, ft: &str| {
        format!(
            "cs2.exe,11364,0x1E5CB226D40,DXGI,0,512,1,Hardware Composed: Independent Flip,Application,{cpu_s},{ft},6.2767,0.0743,3.8348,6.2671,4.3275,1.9396,10.2396,4.0125,-2.3237,7062.4899,NA,NA,0.0000,140.1980,NA,1845.0000,75.0000,82.0000,NA,0.0000,NA,NA,7000.9800,NA,NA,8589934592,5786689536,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,27.0379,NA,NA,4920.9759\r\n"
        )
    };
    let text = [
        format!("{PMCAP_23_HEADER}\r\n"),
        row("0", "10.0000"),
        row("0.010000", "20.0000"),
        row("0.030000", "30.0000"),
        row("0.060000", "40.0000"),
    ]
    .concat();
    // Fixture sanity: every row has as many fields as the header (59).
    for line in text.lines() {
        assert_eq!(line.split(',').count(), 59, "{line}");
    }
    let c = load("pmcap-cs2.exe-250211-212150.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-gui");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Seconds → ms: 0, 10, 30, 60 (read as ms they would be 0, 0.01, 0.03, 0.06).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // DisplayedTime shifted to the next displayed frame: the first has none.
    assert_all_close(&t.frames.display_ms, &[f64::NAN, 4.0125, 4.0125, 4.0125], "DisplayedTime");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

/// PresentMon GUI (2.4+-era pmcap) header, `presentmon-2x/pmcap-r5apex_dx12.exe-250709-222519.csv`.
const PMCAP_24_HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,CPUStartTime,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsAllInputToPhotonLatency,MsClickToPhotonLatency,InstrumentedLatency,GPUPower,GPUVoltage,GPUFrequency,GPUTemperature,GPUUtilization,3D/ComputeUtilization,MediaUtilization,GPUMemoryPower,GPUMemoryVoltage,GPUMemoryFrequency,GPUMemoryEffectiveFrequency,GPUMemoryTemperature,GPUMemorySize,GPUMemorySizeUsed,GPUMemoryMaxBandwidth,GPUMemoryReadBandwidth,GPUMemoryWriteBandwidth,GPUFanSpeed[0],GPUFanSpeed[1],GPUFanSpeed[2],GPUFanSpeed[3],GPUPowerLimited,GPUTemperatureLimited,GPUCurrentLimited,GPUVoltageLimited,GPUUtilizationLimited,GPUMemoryPowerLimited,GPUMemoryTemperatureLimited,GPUMemoryCurrentLimited,GPUMemoryVoltageLimited,GPUMemoryUtilizationLimited,CPUUtilization,CPUPower,CPUTemperature,CPUFrequency";

#[test]
fn gui_pmcap_24_era_time_in_seconds_and_cpu_start_in_seconds() {
    // Both TimeInSeconds (Present() time) and CPUStartTime are seconds in pmcap files.
    let row = |time_s: &str, cpu_s: &str, ft: &str| {
        format!(
            "r5apex_dx12.exe,18660,0x1F741139B80,DXGI,0,512,1,Hardware: Independent Flip,Application,{time_s},NA,{ft},20.1571,1.1623,4.5556,20.0351,NA,{cpu_s},{ft},3.3132,1.1623,3.1912,4.6776,4.6666,0.0110,-15.0825,831886.5402,NA,NA,NA,53.7450,NA,1575.0000,86.0000,88.0000,NA,17.0000,NA,NA,6120.9840,NA,NA,6442450944,2334281728,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,55.5077,NA,NA,2410.1218\r\n"
        )
    };
    let text = [
        format!("{PMCAP_24_HEADER}\r\n"),
        row("0.010000", "0", "10.0000"),
        row("0.030000", "0.010000", "20.0000"),
        row("0.060000", "0.030000", "30.0000"),
        row("0.100000", "0.060000", "40.0000"),
    ]
    .concat();
    for line in text.lines() {
        assert_eq!(line.split(',').count(), 65, "fixture: {line}");
    }
    let c = load("pmcap-r5apex_dx12.exe-250709-222519.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-gui");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x1F741139B80"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // present − ft in ms: 10−10 = 0, 30−20 = 10, 60−30 = 30, 100−40 = 60
    // (CPU start says the same: 0, 10, 30, 60).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn two_hundred_frames_take_the_two_slowest_for_the_1pct_low() {
    // 1.x file, 200 frames: 198 of 10 ms, then 50 ms on frames 100 and 150.
    let mut text = format!("{PM1_HEADER}\n");
    let mut present_ms = 1000.0;
    for i in 0..200 {
        let ft = if i == 100 || i == 150 { 50.0 } else { 10.0 };
        present_ms += ft;
        let time_s = format!("{:.6}", present_ms / 1000.0);
        text.push_str(&pm1_row("Game.exe", 1, "0x1", &time_s, &format!("{ft:.3}")));
    }
    let c = load("n200.csv", text.as_bytes());
    let t = single(&c);
    assert_eq!(t.len(), 200);
    // n = 200, T = 198·10 + 2·50 = 2080 → avg = 200000/2080 = 96.153…;
    // min = 1000/50 = 20, max = 1000/10 = 100.
    // Sorted: indices 0..=197 are 10, 198 and 199 are 50; h = 199p.
    // p50 h=99.5 → 10; p90 h=179.1 → 10; p95 h=189.05 → 10;
    // p99 h=197.01 → 10 + 0.01·(50−10) = 10.4; p99.9 h=198.801 → 50.
    // 1% low: k = max(1, ⌊200/100⌋) = 2 → 1000·2/(50+50) = 20;
    // 0.1% low: k = max(1, ⌊200/1000⌋) = 1 → 1000/50 = 20.
    assert_summary(
        &summary(t, FrameTimeSource::Presents),
        &Want {
            avg_fps: 200_000.0 / 2080.0,
            min_fps: 20.0,
            max_fps: 100.0,
            p50: 10.0,
            p90: 10.0,
            p95: 10.0,
            p99: 10.4,
            p99_9: 50.0,
            low_1: 20.0,
            low_0_1: 20.0,
        },
    );
    // start of frame i = sum of the earlier frame times: frame 101 starts at
    // 100·10 + 50 = 1050, frame 199 at 197·10 + 2·50 = 2070.
    assert_close(t.frames.start_ms[101], 1050.0, "start of frame 101");
    assert_close(t.frames.start_ms[199], 2070.0, "start of frame 199");
}

/// A 2.4 default-layout file with QPC time columns; `ticks(ms)` converts a time in ms
/// to the raw tick text.
fn pm24_qpc_file(ticks: impl Fn(f64) -> String) -> String {
    let mut text = format!("\u{feff}{}\n", pm24_header("TimeInQPC", "CPUStartQPC"));
    // Present at 1010, 1030, 1060, 1100 ms; CPU start = present − ft.
    for (present, ft) in [(1010.0, 10.0), (1030.0, 20.0), (1060.0, 30.0), (1100.0, 40.0)] {
        let ft_text = format!("{ft:.4}");
        text.push_str(&pm24_row(
            &ticks(present),
            &ticks(present - ft),
            &ft_text,
            "16.0000",
            "15.0000",
            "0.1000",
        ));
    }
    text
}

#[test]
fn time_in_qpc_at_10_mhz_gives_start_times_in_ms() {
    // 10 MHz = 10000 ticks per ms; base 2_000_000_000 ticks (200 s).
    let text = pm24_qpc_file(|ms| format!("{}", 2_000_000_000_u64 + (ms as u64) * 10_000));
    let c = load("qpc10.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-2.4");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    // (1000 − 1000, 1010 − 1000, 1030 − 1000, 1060 − 1000) ms.
    assert_starts(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 201_000.0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn time_in_qpc_at_3_mhz_with_default_options_is_measured_and_warned() {
    // A 3 MHz QPC clock (3000 ticks per ms) read with the default 10 MHz: taken at face
    // value the starts would advance 3.33× too slowly (0, 3, 9, 18). The measured rate
    // keeps them at 0, 10, 30, 60 and a file warning says so.
    let text = pm24_qpc_file(|ms| format!("{}", 6_000_000_000_u64 + (ms as u64) * 3_000));
    let c = load("qpc3.csv", text.as_bytes());
    let t = single(&c);
    assert_starts(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 2_001_000.0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    let warnings = all_warnings(&c);
    assert!(warnings.iter().any(|(_, m)| m.contains("QPC")), "no QPC warning in {warnings:?}");
    // With the right frequency there is nothing to warn about.
    let right = LoadOptions { qpc_frequency_hz: Some(3_000_000.0), ..LoadOptions::default() };
    let c = load_with("qpc3.csv", text.as_bytes(), right);
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    assert_starts(&single(&c).frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 2_001_000.0);
}

#[test]
fn a_qpc_frequency_the_user_sets_is_used_as_given() {
    // The 3 MHz clock read with a frequency the user set to 6 MHz: the user's value wins,
    // so every tick time reads as half the real time: presents at 505, 515, 530, 550 ms
    // (+ base), starts = present − frame time = 495, 495, 500, 510, i.e. 0, 0, 5, 15 ms
    // from the first. A warning reports the measured rate instead of silently using it.
    let text = pm24_qpc_file(|ms| format!("{}", 6_000_000_000_u64 + (ms as u64) * 3_000));
    let given = LoadOptions { qpc_frequency_hz: Some(6_000_000.0), ..LoadOptions::default() };
    let c = load_with("qpc3.csv", text.as_bytes(), given);
    assert_starts(&single(&c).frames.start_ms, &[0.0, 0.0, 5.0, 15.0], 1_000_495.0);
    let warnings = all_warnings(&c);
    assert!(
        warnings.iter().any(|(_, m)| m.contains("you set with --qpc-frequency")),
        "no warning in {warnings:?}"
    );
}

// ---------------------------------------------------------------------------------
// 9. Garbage values in other columns
// ---------------------------------------------------------------------------------

/// A −1.8·10¹⁵ `MsAnimationError` (an unsigned underflow) is implausible (`metrics.md`
/// §1, issue 18: 10⁶ ms or more in a duration column): the cell is missing, with a
/// warning on its line (4); no row is skipped and the frame-time figures stay.
#[test]
fn garbage_animation_error_is_missing_and_frame_time_figures_are_unchanged() {
    let mut text = format!("\u{feff}{}\n", pm24_header("TimeInMs", "CPUStartTimeInMs"));
    text.push_str(&pm24_row("1010.0000", "1000.0000", "10.0000", "12.0000", "20.0000", "NA"));
    text.push_str(&pm24_row("1030.0000", "1010.0000", "20.0000", "12.0000", "20.0000", "0.2500"));
    text.push_str(&pm24_row(
        "1060.0000",
        "1030.0000",
        "30.0000",
        "12.0000",
        "20.0000",
        "-1800000000000000.0000",
    ));
    text.push_str(&pm24_row("1100.0000", "1060.0000", "40.0000", "12.0000", "20.0000", "-0.5000"));
    let c = load("garbage.csv", text.as_bytes());
    let t = single(&c);
    assert_eq!(t.len(), 4);
    let warnings = all_warnings(&c);
    let on_lines: Vec<_> = warnings.iter().filter(|(line, _)| line.is_some()).collect();
    assert_eq!(on_lines.len(), 1, "no row may be skipped: {warnings:?}");
    assert_eq!(on_lines[0].0, Some(4));
    assert!(on_lines[0].1.starts_with("column MsAnimationError: 1 value is implausible"), "{warnings:?}");
    let anim = t.column(ColumnKind::AnimationError).expect("MsAnimationError");
    assert_eq!(anim.name, "MsAnimationError");
    assert_all_close(&anim.values, &[f64::NAN, 0.25, f64::NAN, -0.5], "MsAnimationError");
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

// ---------------------------------------------------------------------------------
// 10. Unusable frame times: row skipped, warning names its line
// ---------------------------------------------------------------------------------

/// 1.x file: kept rows (lines 2, 4, 7, 9) are the 10/20/30/40 ms frames presented at
/// 1010, 1030, 1060, 1100 ms; lines 3, 5, 6, 8, 10 have frame time 0, −5, NA, empty, inf
/// and were never displayed (`Dropped` 1), so they are frames of neither series. (A
/// displayed frame without a present interval is kept for the display series: see
/// `displayed_time_is_the_next_frames_display_interval`.)
fn bad_frame_time_file() -> String {
    let r = |t: &str, ft: &str| pm1_row("Game.exe", 42, "0x0000000000001000", t, ft);
    let bad = |t: &str, ft: &str| r(t, ft).replacen("Legacy Flip,0,", "Legacy Flip,1,", 1);
    [
        format!("{PM1_HEADER}\n"),
        r("1.010", "10.000"),   // line 2
        bad("1.015", "0.000"),  // line 3: 0
        r("1.030", "20.000"),   // line 4
        bad("1.035", "-5.000"), // line 5: negative
        bad("1.040", "NA"),     // line 6: missing
        r("1.060", "30.000"),   // line 7
        bad("1.070", ""),       // line 8: empty
        r("1.100", "40.000"),   // line 9
        bad("1.105", "inf"),    // line 10: not finite
    ]
    .concat()
}

#[test]
fn rows_with_zero_negative_missing_or_infinite_frame_time_are_skipped_by_line() {
    let c = load("bad_ft.csv", bad_frame_time_file().as_bytes());
    let t = single(&c);
    // Only kept rows are frames: n = 4, lines 2, 4, 7, 9.
    assert_eq!(t.len(), 4);
    assert_eq!(t.frames.line, vec![2, 4, 7, 9]);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Kept presents − ft: 1000, 1010, 1030, 1060 → 0, 10, 30, 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // T = 10+20+30+40 = 100 = duration; the summary is the plain 10..40 one.
    assert_close(Series::of(t, FrameTimeSource::Presents).total_ms(), 100.0, "T");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Every skipped line is named by a warning (its line, or in its text when grouped).
    let warnings = all_warnings(&c);
    for bad in [3_u64, 5, 6, 8, 10] {
        assert!(
            warnings.iter().any(|(line, msg)| *line == Some(bad) || msg.contains(&bad.to_string())),
            "line {bad} not named in {warnings:?}"
        );
    }
    // No warning names a kept line.
    for (line, msg) in &warnings {
        if let Some(l) = line {
            assert!(![2, 4, 7, 9].contains(l), "kept line warned: {l} {msg}");
        }
    }
}

// ---------------------------------------------------------------------------------
// 11. CapFrameX legacy `//Key=Value` preamble
// ---------------------------------------------------------------------------------

#[test]
fn capframex_legacy_comment_lines_are_system_info_and_count_as_lines() {
    // First 18 lines of `capframex/capframex-legacy-csv_ResidentEvil2_with_header.csv`:
    // 17 comment lines, the header on line 18, data from line 19.
    let text = "//GameName=re2.exe
//ProcessName=Resident Evil 2 Remake
//CreationDate=2019-03-30
//CreationTime=12:01:36
//RecordTime=25
//Motherboard=ASUSTeK COMPUTER INC. ROG MAXIMUS XI HERO
//OS=Windows OS
//Processor=Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz
//System RAM=32 GB 3800 MT/s
//Base Driver Version=bla
//Driver Package=bla
//GPU=NVIDIA GeForce RTX 2080 Ti
//GPU #=1
//GPU Core Clock (MHz)=1920
//GPU Memory Clock (MHz)=7000
//GPU Memory (MB)=11278
//Comment=Test
Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,0,1,0.010,10.000,0.000,1.709,5.437,0.000
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.030,20.000,8.334,2.094,5.436,15.518
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.060,30.000,8.340,2.157,5.532,16.873
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.100,40.000,8.330,2.157,5.532,16.873
";
    let c = load("cx.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "capframex-csv");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let sys = &c.info.system;
    for (k, v) in [
        ("GameName", "re2.exe"),
        ("ProcessName", "Resident Evil 2 Remake"),
        ("Processor", "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz"),
        ("GPU", "NVIDIA GeForce RTX 2080 Ti"),
        ("GPU #", "1"),
        ("Comment", "Test"),
    ] {
        assert!(sys.iter().any(|(key, val)| key == k && val == v), "({k}, {v}) missing from {sys:?}");
    }
    let t = single(&c);
    assert_eq!(t.meta.application, "re2.exe");
    assert_eq!(t.frames.line, vec![19, 20, 21, 22]);
    // Line 19 has Dropped = 1.
    assert_eq!(t.frames.dropped, vec![true, false, false, false]);
    assert_all_close(&t.frames.display_ms, &[f64::NAN, 8.334, 8.340, 8.330], "display");
    // start: 10−10 = 0, 30−20 = 10, 60−30 = 30, 100−40 = 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn capframex_legacy_skipped_row_warning_counts_the_comment_lines() {
    // Two comment lines, header on line 3, frame time 0 on line 5 (never displayed, so a
    // frame of neither series).
    let text = "//GameName=re2.exe
//GPU=NVIDIA GeForce RTX 2080 Ti
Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.010,10.000,8.334,2.094,5.436,15.518
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,1,0.020,0.000,8.334,2.094,5.436,15.518
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.030,20.000,8.334,2.094,5.436,15.518
";
    let c = load("cx2.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "capframex-csv");
    let t = single(&c);
    assert_eq!(t.frames.line, vec![4, 6]);
    let lines: Vec<u64> = all_warnings(&c).iter().filter_map(|w| w.0).collect();
    assert_eq!(lines, vec![5], "{:?}", all_warnings(&c));
}

// ---------------------------------------------------------------------------------
// 12. FrameView: system columns, padded CPU name, MsPCLatency NA
// ---------------------------------------------------------------------------------

/// FrameView 1.4/1.5 header (`frameview/FrameView_AlanWake2_…_Log.csv`), cut after the
/// second per-core column to keep the rows short.
const FV_HEADER: &str = "Application,GPU,CPU,Resolution,Runtime,AllowsTearing,ProcessID,SwapChainAddress,SyncInterval,PresentFlags,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,Render Queue Depth,MsPCLatency,GPU0Clk(MHz),GPU0MemClk(MHz),GPU0Util(%),GPU0Temp(C),GPU1Clk(MHz),GPU1MemClk(MHz),GPU1Util(%),GPU1Temp(C),PCAT Power Total(W),Perf/W Total(F/J) (PCAT),Perf/W Total(F/J) (API),Perf/W GPUOnly(F/J) (API),Perf/W Total-USBC(F/J) (API),GPUOnlyPwr(W) (API),NV-Total-USBCPwr(W) (API),NV Pwr(W) (API),AMDPwr(W) (API),CPUClk(MHz),CPUUtil(%),CPU Package Temp(C),CPU Package Power(W),CPU TDP (W),CPUCoreUtil%[ 0],CPUCoreUtil%[ 1]";

/// One FrameView row; the CPU name is padded with spaces and `CPU Package Temp(C)` has a
/// leading space (" 50"), as in real files.
fn fv_row(dropped: u8, time_s: &str, ft: &str, disp: &str, until: &str, pcl: &str) -> String {
    format!(
        "AlanWake2.exe,NVIDIA GeForce RTX 4060 Ti,AMD Ryzen 7 2700X Eight-Core Processor         ,3840x2160,D3D12,0,11720,0x000001610132BAA0,0,0,Hardware Composed: Independent Flip,{dropped},{time_s},{ft},{disp},0.224,14.090,{until},0.956,{pcl},2775,9001,99,63,NA,NA,NA,NA,NA,NA,0.441,0.587,0.441,115,153,153,NA,4398,29, 50,62.883, 65,100,1\n"
    )
}

#[test]
fn frameview_system_columns_padded_cpu_and_na_pc_latency() {
    // TimeInSeconds counts from FrameView's start: 4158.010, .030, .060, .100 s.
    let text = [
        format!("{FV_HEADER}\n"),
        fv_row(0, "4158.010000", "10.000", "14.262", "14.171", "38.135"),
        fv_row(0, "4158.030000", "20.000", "16.000", "15.000", "NA"),
        fv_row(1, "4158.060000", "30.000", "0.000", "0.000", "NA"),
        fv_row(0, "4158.100000", "40.000", "30.000", "16.000", "40.000"),
    ]
    .concat();
    for line in text.lines() {
        assert_eq!(line.split(',').count(), 44, "fixture: {line}");
    }
    let c = load("FrameView_AlanWake2.exe_2024_04_16T234455_Log.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "frameview");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let sys = &c.info.system;
    for (k, v) in [
        ("GPU", "NVIDIA GeForce RTX 4060 Ti"),
        ("CPU", "AMD Ryzen 7 2700X Eight-Core Processor"), // padding trimmed
        ("Resolution", "3840x2160"),
    ] {
        assert!(sys.iter().any(|(key, val)| key == k && val == v), "({k}, {v:?}) missing from {sys:?}");
    }
    let t = single(&c);
    assert_eq!(t.meta.application, "AlanWake2.exe");
    assert_eq!(t.meta.process_id, Some(11720));
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x1610132BAA0"));
    assert_eq!(t.meta.runtime.as_deref(), Some("D3D12"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // present − ft: 4158000, 4158010, 4158030, 4158060 ms → 0, 10, 30, 60.
    assert_starts(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 4_158_000.0);
    assert_eq!(t.frames.dropped, vec![false, false, true, false]);
    assert_all_close(&t.frames.display_ms, &[14.262, 16.0, f64::NAN, 30.0], "display");
    let pcl = t.column_named("MsPCLatency").expect("MsPCLatency column");
    assert_all_close(&pcl.values, &[38.135, f64::NAN, f64::NAN, 40.0], "MsPCLatency");
    // " 50" with a leading space parses.
    let temp = t.column_named("CPU Package Temp(C)").expect("CPU Package Temp(C)");
    assert_all_close(&temp.values, &[50.0; 4], "CPU Package Temp(C)");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Display [14.262, 16, 30]: T = 60.262 → avg = 3000/60.262; min = 1000/30;
    // max = 1000/14.262; p50 (h = 1) = 16.
    let d = summary(t, FrameTimeSource::Display);
    assert_close(d.avg_fps, 3000.0 / 60.262, "display avg_fps");
    assert_close(d.min_fps, 1000.0 / 30.0, "display min_fps");
    assert_close(d.max_fps, 1000.0 / 14.262, "display max_fps");
    assert_close(d.p50_ms, 16.0, "display p50");
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

#[test]
fn report_json_has_every_contract_key_and_hand_derived_figures() {
    let file = TempFile::new("contract.csv", multi_trace_file().as_bytes());
    let (code, doc) = common::report_json([&file.0]);
    assert_eq!(code, 0, "{doc}");
    assert_has_keys(&doc, &["schema", "settings", "runs"], "document");
    assert_eq!(doc["schema"], 1);
    let settings = &doc["settings"];
    let setting_keys = [
        "target_fps",
        "stutter_threshold",
        "stutter_floor_ms",
        "window_frames",
        "frame_time",
        "trim_start_s",
        "trim_end_s",
    ];
    assert_has_keys(settings, &setting_keys, "settings");
    assert_close(json_f64(&settings["target_fps"], "target_fps"), 60.0, "target");
    // What was asked (the default, auto) and, per run, what it resolved to: no frame
    // generation here, so presents.
    assert_eq!(settings["frame_time"], "auto");
    let runs = doc["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "the default trace only");
    let run = &runs[0];
    let run_keys = [
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
    assert_has_keys(run, &run_keys, "run");
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
    let latency_keys = [
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
    assert_has_keys(&run["latency"], &latency_keys, "latency");
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

// ---------------------------------------------------------------------------------
// 10. Display timing of the 2.0–2.3 layouts and frame generation (metrics.md §1)
// ---------------------------------------------------------------------------------

/// A 2.1–2.3 (`--v2_metrics`) capture with XeSS frame generation, one trace:
///
/// | row | line | type | FrameTime | DisplayLatency | DisplayedTime | CPUBusy |
/// |-----|------|------|-----------|----------------|---------------|---------|
/// | A   | 2    | app  | 10        | 20             | 16            | 4       |
/// | B   | 3    | gen  | 0         | 21             | 8             | 0       |
/// | C   | 4    | app  | 10        | NA             | NA            | 4       |
/// | D   | 5    | app  | 10        | 22             | NA            | 5       |
/// | E   | 6    | gen  | 0         | 23             | 9             | 0       |
/// | F   | 7    | app  | 10        | 24             | 7             | 6       |
/// | G   | 8    | app  | 0         | NA             | NA            | 0       |
///
/// `DisplayedTime` is how long a frame stayed on screen, so a displayed frame's display
/// interval is the previous displayed frame's `DisplayedTime`: A none (first), B 16,
/// C dropped (DisplayLatency NA), D 8 (B's), E none (D's is NA), F 9 (E's). D's
/// `DisplayedTime` NA does not make it dropped. G has neither a present interval nor a
/// display: skipped. B and E have no present interval (FrameTime 0) but are displayed.
const FG_V2: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,FrameType,CPUStartQPC,FrameTime,CPUBusy,CPUWait,DisplayLatency,DisplayedTime
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Application,1000,10,4,6,20,16
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Intel XeSS-FG,100000,0,0,0,21,8
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Application,100000,10,4,6,NA,NA
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Application,200000,10,5,5,22,NA
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Intel XeSS-FG,300000,0,0,0,23,9
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Application,300000,10,6,4,24,7
g.exe,1,0x10,DXGI,0,0,0,Composed: Flip,Application,400000,0,0,0,NA,NA
";

#[test]
fn displayed_time_is_the_next_frames_display_interval() {
    let c = load("fg_v2.csv", FG_V2.as_bytes());
    let t = single(&c);
    let f = &t.frames;
    assert_eq!(f.line, [2, 3, 4, 5, 6, 7], "G (line 8) is a frame of neither series");
    assert_eq!(f.dropped, [false, false, true, false, false, false]);
    let display: Vec<Option<f64>> = f.display_ms.iter().map(|&d| d.is_finite().then_some(d)).collect();
    assert_eq!(display, [None, Some(16.0), None, Some(8.0), None, Some(9.0)]);
    assert_eq!(f.frame_time_ms, [10.0, 0.0, 10.0, 10.0, 0.0, 10.0]);

    // Presents: A C D F (10 ms each). Display: B D F = 16, 8, 9 ms; T = 33 ms,
    // 3 frames: 1000·3/33 = 90.909… FPS. Auto = display (generated frames + display).
    let presents = Series::of(t, FrameTimeSource::Presents);
    assert_eq!(presents.frame, [0, 2, 3, 5]);
    let display = Series::of(t, FrameTimeSource::Display);
    assert_eq!(display.frame, [1, 3, 5]);
    assert_eq!(display.frame_time_ms, [16.0, 8.0, 9.0]);
    assert_eq!(FrameTimeSource::Auto.resolve(t), FrameTimeSource::Display);
    assert!((summary(t, FrameTimeSource::Auto).avg_fps - 3000.0 / 33.0).abs() < 1e-9);
    // The warning says what happened to B and E, by line.
    let w = all_warnings(&c);
    assert!(
        w.iter().any(|(l, m)| *l == Some(3) && m.contains("2 displayed frames have no present interval")),
        "{w:?}"
    );
    assert!(w.iter().any(|(l, _)| *l == Some(8)), "G is warned about: {w:?}");
}

#[test]
fn frame_generation_report_uses_display_and_splits_the_kinds() {
    let dir = std::env::temp_dir().join(format!("framescope-fg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("fg_v2.csv");
    std::fs::write(&path, FG_V2).expect("write");
    let (code, doc) = common::report_json([path.as_os_str()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0);
    assert_eq!(doc["settings"]["frame_time"], "auto");
    let run = &doc["runs"][0];
    assert_eq!(run["frame_time"], "display");
    assert_eq!(run["frames"], 3);
    assert_eq!(run["dropped_frames"], 1);
    // Application frames in the display series: D (after B) and F; intervals from one
    // application frame to the next: D = 16 + 8 (B, D) from the start has no predecessor,
    // so only F: 9 ms → 1 interval. Generated: B only → no interval.
    let types = &run["frame_types"];
    assert_eq!(types["application"]["frames"], 1);
    assert!(common::close(types["application"]["summary"]["avg_fps"].as_f64().unwrap_or(0.0), 1000.0 / 9.0));
    assert_eq!(types["generated"]["frames"], 0);
    // Present-to-display over displayed application frames: DisplayLatency − CPUBusy
    // for A (20 − 4) , D (22 − 5), F (24 − 6) = 16, 17, 18 → 17 ms. B and E (generated)
    // have no present of their own in this layout.
    assert!(common::close(run["latency"]["display_latency_mean_ms"].as_f64().unwrap_or(0.0), 17.0));
}

/// `Dropped` is 1 for a frame never displayed and 0 otherwise (metrics.md §1). A 2 or
/// a 0.5 is neither: the frame is read as displayed, and a warning names the line.
#[test]
fn a_dropped_value_other_than_0_or_1_is_displayed_with_a_warning() {
    let r = |dropped: &str, t: &str| {
        pm1_row("Game.exe", 42, "0x1", t, "10.000").replacen(
            "Legacy Flip,0,",
            &format!("Legacy Flip,{dropped},"),
            1,
        )
    };
    let text =
        [format!("{PM1_HEADER}\n"), r("0", "1.010"), r("1", "1.020"), r("2", "1.030"), r("0.5", "1.040")]
            .concat();
    let c = load("odd_dropped.csv", text.as_bytes());
    let t = single(&c);
    assert_eq!(t.frames.dropped, [false, true, false, false]);
    let w = all_warnings(&c);
    assert!(w.iter().any(|(l, m)| *l == Some(4) && m.contains("neither 0 nor 1")), "{w:?}");
    assert!(w.iter().any(|(l, _)| *l == Some(5)), "{w:?}");
}
