//! Helpers and fixtures of the format-quirk tests (`format_quirks`, `presentmon_versions`,
//! `time_columns`, `tool_quirks`, `traces_and_report`): loading hand-built captures,
//! comparing figures with a tolerance, the hand-derived summaries, and the PresentMon
//! header and row builders they share.

use framescope_core::analysis::{FrameTimeSource, Series, Summary};
use framescope_core::ingest::{LoadOptions, load_bytes};
use framescope_core::model::{Capture, Trace};
use std::path::Path;

/// PresentMon 1.2–1.6 header (`presentmon-1x/pm-1.x_FarCryNewDawn.csv`).
pub use super::PM1_HEADER;

/// Loads bytes with the default options (QPC at 10 MHz); the load must succeed.
pub fn load(name: &str, bytes: &[u8]) -> Capture {
    load_with(name, bytes, LoadOptions::default())
}

pub fn load_with(name: &str, bytes: &[u8], opts: LoadOptions) -> Capture {
    load_bytes(Path::new(name), bytes, opts).unwrap_or_else(|e| panic!("{name} should load: {e:?}"))
}

/// Relative tolerance 1e-9; values below 1 in size are compared with an absolute 1e-9
/// (a start time of 0 computed as `1010.0 - 10.0 - 1000.0` may be off by 1e-13).
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[track_caller]
pub fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!(close(actual, expected), "{what}: got {actual}, expected {expected}");
}

#[track_caller]
pub fn assert_all_close(actual: &[f64], expected: &[f64], what: &str) {
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
pub fn assert_starts(actual: &[f64], expected: &[f64], origin_ms: f64) {
    let shift = |v: &[f64]| v.iter().map(|x| x + origin_ms).collect::<Vec<f64>>();
    assert_all_close(&shift(actual), &shift(expected), "start_ms (+ origin)");
}

/// Every warning of the capture, file-level and per trace.
pub fn all_warnings(c: &Capture) -> Vec<(Option<u64>, String)> {
    c.warnings
        .iter()
        .chain(c.traces.iter().flat_map(|t| t.warnings.iter()))
        .map(|w| (w.line, w.message.clone()))
        .collect()
}

/// The only trace of a capture.
#[track_caller]
pub fn single(c: &Capture) -> &Trace {
    assert_eq!(c.traces.len(), 1, "expected one trace");
    &c.traces[0]
}

/// Summary of the frame-time series of a trace.
pub fn summary(t: &Trace, source: FrameTimeSource) -> Summary {
    Summary::of(&Series::of(t, source).frame_time_ms).expect("a summary")
}

/// Expected summary, written out by hand.
pub struct Want {
    pub avg_fps: f64,
    pub min_fps: f64,
    pub max_fps: f64,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub p99_9: f64,
    pub low_1: f64,
    pub low_0_1: f64,
}

#[track_caller]
pub fn assert_summary(s: &Summary, w: &Want) {
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
pub const WANT_10_TO_40: Want = Want {
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

/// One PresentMon 1.2–1.6 row (`PM1_HEADER`), displayed, 1 ms in Present().
pub fn pm1_row(app: &str, pid: u32, swap_chain: &str, time_s: &str, ft: &str) -> String {
    format!(
        "{app},{pid},{swap_chain},DXGI,1,0,0,Hardware: Legacy Flip,0,{time_s},{ft},16.000,1.000,2.000,16.000\n"
    )
}

/// Rows in file order (line 2 first): (app, pid, swap chain, present time s, frame time).
pub fn pm1_file(rows: &[(&str, u32, &str, &str, &str)]) -> String {
    let mut text = format!("{PM1_HEADER}\n");
    for &(app, pid, sc, t, ft) in rows {
        text.push_str(&pm1_row(app, pid, sc, t, ft));
    }
    text
}

/// PresentMon 2.4+ default header (`pm-v2.4plus_gold_test_case_0_default_pcl.csv`)
/// with the time columns given as arguments.
pub fn pm24_header(time: &str, cpu_start: &str) -> String {
    format!(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,{time},MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,{cpu_start},MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsVideoBusy,MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency,MsInstrumentedLatency"
    )
}

/// One 2.4 row: present time, CPU start, frame time, display change, until displayed,
/// animation error (cells written as given).
pub fn pm24_row(time: &str, cpu: &str, ft: &str, disp: &str, until: &str, anim: &str) -> String {
    format!(
        "Heaven.exe,12820,0x19284328,DXGI,1,0,0,Composed: Flip,Application,{time},NA,{ft},{disp},0.5000,2.0000,{until},NA,{cpu},{ft},5.0000,1.0000,0.8529,4.0000,3.0000,1.0000,0.0000,{anim},100.0000,NA,NA,NA,NA\n"
    )
}
