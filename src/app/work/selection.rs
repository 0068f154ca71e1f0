//! The charts of a time selection, computed on the selection's worker beside its
//! figures: the analysed series (the whole trimmed run's frame-time source) of the
//! kept frames that start inside the range, as the selection's figures count them.

use super::ChartData;
use framescope_core::analysis::{Series, Settings, SlowTimeCurve, Trim};
use framescope_core::model::Trace;
use std::ops::Range;

/// The frames of `t` the selection `range` (ms) holds: those kept by `trim` that start
/// inside it.
#[must_use]
pub fn selected_frames(t: &Trace, trim: Trim, range: (f64, f64)) -> Range<usize> {
    let keep = trim.range(t);
    let (a, b) = (range.0.min(range.1), range.0.max(range.1));
    let first = t.frames.start_ms.partition_point(|&s| s < a).max(keep.start);
    let last = t.frames.start_ms.partition_point(|&s| s < b).min(keep.end).max(first);
    first..last
}

/// The charts of the frames `part` (a selection's), on the frame-time source
/// `settings.frame_time` (resolved on the whole trimmed run).
#[must_use]
pub fn charts_of(part: &Trace, settings: &Settings) -> ChartData {
    let series = Series::of(part, settings.frame_time);
    ChartData::new(&series.frame_time_ms, SlowTimeCurve::new(&series.frame_time_ms).as_ref())
}
