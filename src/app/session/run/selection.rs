//! The figures of a time selection: the kept frames inside the range, measured with
//! the frame-time source and VSYNC grid of the whole run.

use super::SelectionResult;
use crate::app::work::{self, ChartData};
use framescope_core::analysis::{Settings, Trim};
use framescope_core::model::Capture;
use framescope_core::report::{self, RunSource};
use std::sync::Arc;

/// The figures of the kept frames (`trim`) that start inside `range` (ms), with the
/// frame-time source and the VSYNC grid of the whole trimmed run (`auto` resolved and
/// the refresh rate detected on the run, not on the part: a handful of frames must
/// not find a refresh rate the run does not have).
pub(super) fn selection_run(
    capture: &Capture,
    trace: usize,
    name: &str,
    settings: Settings,
    trim: Trim,
    range: (f64, f64),
) -> SelectionResult {
    let t = &capture.traces[trace];
    let keep = trim.range(t);
    let trimmed = if trim.is_none() { None } else { Some(t.slice(keep.clone())) };
    let whole = trimmed.as_ref().unwrap_or(t);
    let settings = Settings { frame_time: settings.frame_time.resolve(whole), ..settings };
    let part = t.slice(work::selection::selected_frames(t, trim, range));
    let mut run = report::run_trace(
        &RunSource { file: name, info: &capture.info, warnings: &[] },
        &part,
        &settings,
        None,
    );
    if !whole.is_sampled() {
        run.vsync = framescope_core::analysis::Vsync::of(whole, settings.refresh_hz);
    }
    let charts = if whole.is_sampled() {
        ChartData::new(&[], None)
    } else {
        work::selection::charts_of(&part, &settings)
    };
    (run, Arc::new(charts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    /// A PresentMon 1.x capture whose display intervals are its frame times.
    fn capture(intervals: &[f64]) -> Capture {
        let mut text = String::from(
            "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,\
             Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,\
             MsUntilDisplayed\n",
        );
        let mut t = 1.0;
        for d in intervals {
            t += d / 1000.0;
            let _ = writeln!(
                text,
                "g.exe,1,0x1,DXGI,0,0,1,Hardware: Independent Flip,0,{t:.6},{d:.4},{d:.4},0.1,0.5,3.0"
            );
        }
        framescope_core::ingest::load_bytes(
            std::path::Path::new("g.csv"),
            text.as_bytes(),
            framescope_core::ingest::LoadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The run's start times of frames `a` and `b` (ms), as a selection range.
    fn range(c: &Capture, a: usize, b: usize) -> (f64, f64) {
        (c.traces[0].frames.start_ms[a], c.traces[0].frames.start_ms[b])
    }

    /// Variable refresh over 3000 frames (5–12 ms) with 150 frames at exactly 120 Hz in
    /// the middle: the run has no refresh rate, and neither has a selection of those
    /// 150 frames (detected on them alone, they would say 120 Hz, confidence 1).
    #[test]
    fn a_selection_keeps_the_runs_refresh_rate() {
        let p = 1000.0 / 120.0;
        let intervals: Vec<f64> = (0..3000u32)
            .map(|i| if (1000..1150).contains(&i) { p } else { 5.0 + f64::from((i * 37) % 100) * 0.07 })
            .collect();
        let c = capture(&intervals);
        let settings = Settings::default();
        let whole = report::run("g", &c, 0, &settings, None);
        assert_eq!(whole.vsync, None);
        let part = c.traces[0].slice(1001..1150);
        assert!(
            report::run_trace(&RunSource { file: "g", info: &c.info, warnings: &[] }, &part, &settings, None)
                .vsync
                .is_some(),
            "alone: 120 Hz"
        );
        let sel = selection_run(&c, 0, "g", settings, Trim::default(), range(&c, 1001, 1149)).0;
        assert_eq!(sel.frames, 148);
        assert_eq!(sel.vsync, None);
        // With a refresh rate set, the selection has it too.
        let set = Settings { refresh_hz: Some(144.0), ..settings };
        let sel = selection_run(&c, 0, "g", set, Trim::default(), range(&c, 1001, 1149)).0;
        assert_eq!(sel.vsync.map(|v| v.refresh_hz), Some(144.0));
    }

    /// A 120 Hz series: every selection of it has the run's grid, bit for bit.
    #[test]
    fn a_selection_of_a_120_hz_run_has_the_runs_grid() {
        let p = 1000.0 / 119.84;
        let intervals: Vec<f64> = (0..2400u32).map(|i| if i % 7 == 0 { 2.0 * p } else { p }).collect();
        let c = capture(&intervals);
        let whole = report::run("g", &c, 0, &Settings::default(), None);
        let grid = whole.vsync.unwrap_or_else(|| panic!("120 Hz detected"));
        assert!((grid.refresh_hz - 119.84).abs() < 0.01, "{}", grid.refresh_hz);
        for (a, b) in [(0, 1100), (600, 1700), (1300, 2399), (10, 40)] {
            let sel = selection_run(&c, 0, "g", Settings::default(), Trim::default(), range(&c, a, b)).0;
            assert_eq!(sel.vsync, Some(grid), "{a}..{b}");
        }
    }
}
