//! PresentMon's layouts, one small hand-built capture per quirk: 1.x `Dropped`, 2.0
//! `CPUBusy + CPUWait`, 2.1–2.3 `FrameTime` / `DisplayedTime`, 2.4+ `MsBetweenPresents`,
//! and the display timing of frame generation.
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
use framescope_core::analysis::{FrameTimeSource, Series, Summary};
use framescope_core::model::ColumnKind;

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
