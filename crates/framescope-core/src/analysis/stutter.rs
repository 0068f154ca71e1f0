//! The stutter row (Nsight Systems' rule, `metrics.md` §4) and oscillation (§5).

use super::rolling::{HighWindows, Rolling, RollingStats, p90_of};
use serde::Serialize;

/// The relative IQR ratio above which a window oscillates.
pub const OSC_RATIO: f64 = 1.2;

/// True when `value` stands out of its window's `median` by more than `floor_ms` and
/// by more than `threshold` relative to it (strictly). A median of 0 counts as an
/// infinite relative excess.
#[must_use]
pub fn spikes(value: f64, median: f64, threshold: f64, floor_ms: f64) -> bool {
    let excess = value - median;
    if excess.is_nan() || excess <= floor_ms {
        return false;
    }
    median == 0.0 || excess / median > threshold
}

/// Stutter figures of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stutters {
    /// Number of stutter frames.
    pub count: usize,
    /// Σ frame time of stutters / T.
    pub time_fraction: f64,
    /// Stutter frame indices, ascending.
    pub frames: Vec<usize>,
}

impl Stutters {
    /// Flags every frame of `frame_time_ms` against its rolling median.
    #[must_use]
    pub fn of(frame_time_ms: &[f64], rolling: &Rolling, threshold: f64, floor_ms: f64) -> Self {
        Self::with_median(frame_time_ms, &rolling.median, threshold, floor_ms)
    }

    /// [`Stutters::of`] from the rolling medians alone.
    #[must_use]
    pub fn with_median(frame_time_ms: &[f64], median: &[f64], threshold: f64, floor_ms: f64) -> Self {
        let frames: Vec<usize> = (0..frame_time_ms.len())
            .filter(|&i| spikes(frame_time_ms[i], median[i], threshold, floor_ms))
            .collect();
        let total: f64 = frame_time_ms.iter().sum();
        // An empty f64 sum is -0.0; fold from +0.0 so "no stutter" prints as 0.
        let stutter_time: f64 = frames.iter().map(|&i| frame_time_ms[i]).fold(0.0, |a, b| a + b);
        let time_fraction = if total > 0.0 { stutter_time / total } else { 0.0 };
        Self { count: frames.len(), time_fraction, frames }
    }
}

/// Oscillation figures of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Oscillation {
    /// The trace-level OSC flag.
    pub flag: bool,
    /// P90 of the per-frame IQR `q3 − q1`.
    pub p90_iqr_ms: f64,
    /// P90 of the per-frame ratio `q3 / q1`.
    pub p90_iqr_ratio: f64,
    /// Number of oscillating frames.
    pub oscillating_frames: usize,
    /// Per-frame mask (not in the JSON report).
    #[serde(skip)]
    pub oscillating: Vec<bool>,
}

impl Oscillation {
    /// Computes the flag and mask from the rolling quartiles; `None` when empty.
    #[must_use]
    pub fn of(rolling: &Rolling, floor_ms: f64) -> Option<Self> {
        if rolling.q1.is_empty() {
            return None;
        }
        let iqr: Vec<f64> = rolling.q3.iter().zip(&rolling.q1).map(|(q3, q1)| q3 - q1).collect();
        let ratio: Vec<f64> = rolling.q3.iter().zip(&rolling.q1).map(|(q3, q1)| q3 / q1).collect();
        let high: Vec<u32> = (0..ratio.len()).filter(|&k| ratio[k] > OSC_RATIO).map(|k| k as u32).collect();
        let high_iqr = high.iter().map(|&k| iqr[k as usize]).collect();
        let median = vec![0.0; iqr.len()];
        let p90 = Some((p90_of(iqr), p90_of(ratio)));
        let high = HighWindows::Every { at: high, iqr: high_iqr };
        Self::from_stats(&RollingStats { median, high, p90 }, floor_ms)
    }

    /// [`Oscillation::of`] from the compact rolling statistics (the P90s are kept
    /// there: a floor change re-flags frames without sorting anything; statistics kept
    /// at one floor, [`HighWindows::AtFloor`], answer for that floor).
    #[must_use]
    pub fn from_stats(stats: &RollingStats, floor_ms: f64) -> Option<Self> {
        let (p90_iqr_ms, p90_iqr_ratio) = stats.p90?;
        let mut oscillating = vec![false; stats.median.len()];
        stats.high.oscillating(floor_ms, |k| {
            if let Some(o) = oscillating.get_mut(k) {
                *o = true;
            }
        });
        Some(Self {
            flag: p90_iqr_ms > floor_ms && p90_iqr_ratio > OSC_RATIO,
            p90_iqr_ms,
            p90_iqr_ratio,
            oscillating_frames: oscillating.iter().filter(|&&o| o).count(),
            oscillating,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nsight's own examples with the default threshold 0.2 and floor 4 ms.
    #[test]
    fn nsight_examples() {
        assert!(!spikes(13.0, 10.0, 0.2, 4.0)); // +3 ms: under the floor
        assert!(!spikes(71.0, 60.0, 0.2, 4.0)); // +11 ms but 18 % < 20 %
        assert!(spikes(80.0, 60.0, 0.2, 4.0)); // +20 ms and 33 %
        assert!(!spikes(72.0, 60.0, 0.2, 4.0)); // exactly 20 %: strict
        assert!(spikes(5.0, 0.0, 0.2, 4.0)); // median 0: infinite relative excess
        assert!(!spikes(4.0, 0.0, 0.2, 4.0)); // but the floor still holds
        assert!(!spikes(f64::NAN, 1.0, 0.2, 4.0)); // missing never spikes
    }

    /// 30 frames of 10 ms with one of 30 ms at index 12: the window median there is
    /// 10 ms, +20 ms and +200 %: one stutter; time fraction 30 / 320.
    #[test]
    fn one_stutter_by_hand() {
        let mut ft = vec![10.0; 30];
        ft[12] = 30.0;
        let r = Rolling::of(&ft);
        let s = Stutters::of(&ft, &r, 0.2, 4.0);
        assert_eq!(s.frames, vec![12]);
        assert!((s.time_fraction - 30.0 / 320.0).abs() < 1e-12);
        let osc = Oscillation::of(&r, 4.0).unwrap_or_else(|| unreachable!());
        assert!(!osc.flag);
        assert_eq!(osc.oscillating_frames, 0);
    }

    /// Alternating 10 / 30 ms: every window has q1 = 10, q3 = 30 (IQR 20 ms, ratio 3)
    /// so the trace oscillates everywhere; the 30 ms frames sit 20 ms above a median
    /// of 10 or 30 — the median is 10 when the window holds more 10s.
    #[test]
    fn alternating_frames_oscillate() {
        let ft: Vec<f64> = (0..40).map(|i| if i % 2 == 0 { 10.0 } else { 30.0 }).collect();
        let r = Rolling::of(&ft);
        let osc = Oscillation::of(&r, 4.0).unwrap_or_else(|| unreachable!());
        assert!(osc.flag);
        assert!((osc.p90_iqr_ms - 20.0).abs() < 1e-12);
        assert!((osc.p90_iqr_ratio - 3.0).abs() < 1e-12);
        assert_eq!(osc.oscillating_frames, 40);
    }

    /// Five frames: every window is the whole trace, median 10; the 30 ms frame is a
    /// stutter (+20 ms, +200 %).
    #[test]
    fn traces_shorter_than_the_window() {
        let ft = [10.0, 10.0, 30.0, 10.0, 10.0];
        let r = Rolling::of(&ft);
        assert!(r.median.iter().all(|m| (m - 10.0).abs() < 1e-12));
        assert_eq!(Stutters::of(&ft, &r, 0.2, 4.0).frames, vec![2]);
        let one = Rolling::of(&[16.0]);
        assert_eq!(Stutters::of(&[16.0], &one, 0.2, 4.0).count, 0);
    }

    #[test]
    fn all_equal_and_short_traces() {
        let ft = vec![16.0; 5];
        let r = Rolling::of(&ft);
        let none = Stutters::of(&ft, &r, 0.2, 4.0);
        assert_eq!(none.count, 0);
        assert!(none.time_fraction.is_sign_positive(), "no stutter is +0, not -0");
        let osc = Oscillation::of(&r, 4.0).unwrap_or_else(|| unreachable!());
        assert!(!osc.flag && osc.p90_iqr_ms == 0.0);
        assert!(Oscillation::of(&Rolling::of(&[]), 4.0).is_none());
    }
}
