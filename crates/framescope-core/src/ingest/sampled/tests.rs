//! Tests of the sampled-log plumbing.

use super::*;
use crate::model::TraceMeta;

#[test]
fn repeated_names_are_left_out() {
    let names = first_names(&["Framerate", "", "Frametime", "", "FRAMERATE", "Framerate"]);
    assert_eq!(names, ["Framerate", "", "Frametime", "", "", ""]);
}

#[test]
fn frame_times_from_rates_and_ms() {
    assert_eq!(frame_time_from_rate(Cell::Number(50.0)), Ok(20.0));
    assert_eq!(frame_time_from_rate(Cell::Number(0.0)), Err(SkipReason::NonPositiveFrameTime));
    assert_eq!(frame_time_from_rate(Cell::Number(1e-300)), Err(SkipReason::ImplausibleFrameTime));
    assert_eq!(frame_time_from_rate(Cell::Missing), Err(SkipReason::MissingFrameTime));
    assert_eq!(frame_time_from_ms(Cell::Number(-1.0)), Err(SkipReason::NonPositiveFrameTime));
    assert_eq!(frame_time_from_ms(Cell::Invalid), Err(SkipReason::InvalidFrameTime));
}

/// Rows at 0, 0.5, 1.0, 1.0 and 1.5 s: the first opens the log; the row at 1.0 s
/// without a rate ends the interval (0.5 s lost); the repeated 1.0 s is no sample;
/// the last closes 0.5 s. Samples: 0.5 s at 100 FPS (10 ms), 0.5 s at 50 FPS.
#[test]
fn rows_become_samples_per_metrics_10() {
    let mut s = Samples::new("FPS");
    let mut clock = Clock::default();
    let rows: [(f64, Result<f64, NotSample>); 5] = [
        (0.0, Ok(10.0)),
        (500.0, Ok(10.0)),
        (1000.0, Err(NotSample::Rate(SkipReason::MissingFrameTime))),
        (1000.0, Ok(40.0)),
        (1500.0, Ok(20.0)),
    ];
    for (line, (t, ft)) in (2..).zip(rows) {
        let interval = clock.step(t).map_or(Interval::Opens, Interval::Closes);
        s.row(line, ft, interval, t);
    }
    let meta = TraceMeta::named("x");
    let t = s.finish(meta, Vec::new());
    assert_eq!(t.frames.frame_time_ms, vec![10.0, 20.0]);
    assert_eq!(t.frames.sample_ms, vec![500.0, 500.0]);
    assert_eq!(t.frames.start_ms, vec![0.0, 1000.0]);
    assert_eq!(t.frames.line, vec![3, 6]);
    let lines: Vec<Option<u64>> = t.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, vec![Some(4), Some(5)], "{:?}", t.warnings);
}
