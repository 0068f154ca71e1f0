//! VSYNC markers (`metrics.md` §8): the refresh period, detected from display-change
//! intervals or set by the user, and an anchor so markers sit at `anchor + k·period`.

mod distinct;
mod fit;

use crate::model::{ColumnKind, Trace};
use distinct::Distinct;
use fit::SortedIntervals;
use serde::Serialize;

/// Refresh rates tried when detecting, in Hz. None is below 48 Hz: a steady 24 or 30
/// FPS rhythm is a frame cap far more often than a display's refresh, and every
/// interval of it is also a whole number of 48 or 60 Hz periods, so it is read as that
/// display showing every second refresh (`docs/decisions.md`, "VSYNC").
const CANDIDATE_HZ: [f64; 22] = [
    48.0, 50.0, 59.94, 60.0, 72.0, 75.0, 90.0, 100.0, 120.0, 144.0, 165.0, 170.0, 175.0, 180.0, 200.0, 240.0,
    280.0, 300.0, 360.0, 480.0, 500.0, 540.0,
];

/// A lower rate is preferred to the best-scoring one only when at most this share of
/// the intervals fit the best one but not it: on a real display at the lower rate no
/// interval is an odd multiple of the higher rate's period (none is, in any real
/// capture at hand), so such intervals are evidence against it.
const MAX_CONTRADICTING: f64 = 0.005;

/// Where the period came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VsyncSource {
    /// Detected from the capture's display intervals.
    Detected,
    /// Set by the user.
    User,
    /// Stated by the capture itself (Android SurfaceFlinger's refresh period,
    /// `metrics.md` §16): taken as it is, without detection.
    Capture,
}

/// The VSYNC grid of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Vsync {
    /// Refresh rate in Hz.
    pub refresh_hz: f64,
    /// `1000 / refresh_hz`.
    pub period_ms: f64,
    /// Share of display intervals that are a whole number of periods (1 for a user
    /// setting).
    pub confidence: f64,
    /// A displayed frame's screen time on the trace's time axis, when known.
    pub anchor_ms: Option<f64>,
    /// Detected or set by the user.
    pub source: VsyncSource,
}

impl Vsync {
    /// The grid for a trace: `user_hz` when given, else detected from the display
    /// intervals; `None` when there is no display data to detect from.
    #[must_use]
    pub fn of(trace: &Trace, user_hz: Option<f64>) -> Option<Self> {
        let anchor_ms = anchor(trace);
        if let Some(hz) = user_hz.filter(|h| h.is_finite() && *h > 0.0) {
            let source = VsyncSource::User;
            return Some(Self { refresh_hz: hz, period_ms: 1000.0 / hz, confidence: 1.0, anchor_ms, source });
        }
        if let Some(period_ms) = trace.frames.stated_period_ms.filter(|p| p.is_finite() && *p > 0.0) {
            let source = VsyncSource::Capture;
            return Some(Self {
                refresh_hz: 1000.0 / period_ms,
                period_ms,
                confidence: 1.0,
                anchor_ms,
                source,
            });
        }
        // Read twice (counted, then summed for the refinement) rather than gathered:
        // `Prepared` runs this beside other steps, so it holds no copy of a column.
        let f = &trace.frames;
        let intervals = f
            .display_ms
            .iter()
            .enumerate()
            .filter(|&(i, d)| !f.is_dropped(i) && d.is_finite() && *d > 0.0)
            .map(|(_, d)| *d);
        let (period_ms, confidence) = detect_in(intervals)?;
        if confidence < MIN_CONFIDENCE {
            return None;
        }
        let source = VsyncSource::Detected;
        Some(Self { refresh_hz: 1000.0 / period_ms, period_ms, confidence, anchor_ms, source })
    }
}

/// Below this confidence no refresh grid is reported: display changes are not tied
/// to a fixed refresh (variable refresh rate, tearing).
pub const MIN_CONFIDENCE: f64 = 0.8;

/// How close an interval must be to a whole number of periods.
fn tolerance_ms(period_ms: f64) -> f64 {
    (0.03 * period_ms).max(0.1)
}

/// How far above chance the intervals fit whole numbers (≥ 1) of `period_ms`: the
/// share that fit, less the share that would fit at random (`2·tol / period`),
/// rescaled so that 1 means every interval fits and 0 means no better than chance.
fn score(intervals: &SortedIntervals, period_ms: f64) -> f64 {
    let chance = (2.0 * tolerance_ms(period_ms) / period_ms).min(0.99);
    ((fit_share(intervals, period_ms) - chance) / (1.0 - chance)).max(0.0)
}

/// Share of the intervals that are a whole number (≥ 1) of `period_ms`.
fn fit_share(intervals: &SortedIntervals, period_ms: f64) -> f64 {
    intervals.hits(period_ms) as f64 / intervals.total as f64
}

/// True when `d` is within tolerance of a whole number (≥ 1) of `period_ms`.
#[inline]
fn fits(d: f64, period_ms: f64) -> bool {
    let k = periods(d, period_ms, 1.0 / period_ms).max(1.0);
    (d - k * period_ms).abs() <= tolerance_ms(period_ms)
}

/// Share of the intervals that fit `best_ms` but not `period_ms`: evidence that the
/// display does not tick at `period_ms`.
fn contradicting_share(intervals: &SortedIntervals, period_ms: f64, best_ms: f64) -> f64 {
    intervals.against(period_ms, best_ms) as f64 / intervals.total as f64
}

/// `(d / period).round()` for `d ≥ 0`, by a multiplication with `inv = 1 / period`:
/// the product is within a few ulps of the quotient, so it rounds the same way unless
/// it lies next to a half-integer, where the exact division decides.
#[inline]
fn periods(d: f64, period: f64, inv: f64) -> f64 {
    let q = d * inv;
    let r = round_positive(q);
    if ((q - r).abs() - 0.5).abs() <= 1e-9 * q.max(1.0) { round_positive(d / period) } else { r }
}

#[cfg(test)]
/// The dominant refresh period and its confidence (see [`MIN_CONFIDENCE`]). Multiples of a period also fit
/// its divisors' harmonics, so among candidates that score within 0.05 of the best,
/// the lowest rate wins — unless more than `MAX_CONTRADICTING` of the intervals fit
/// the best candidate but not it (a 60 FPS cap on a 120 Hz display shows the odd
/// 8.3 or 25 ms interval, impossible at 60 Hz); the period is then refined by least
/// squares over the intervals that fit it.
#[must_use]
pub fn detect_period(intervals: &[f64]) -> Option<(f64, f64)> {
    detect_in(intervals.iter().copied())
}

/// [`detect_period`] over the intervals an iterator yields (read twice, in order).
fn detect_in<I: Iterator<Item = f64> + Clone>(intervals: I) -> Option<(f64, f64)> {
    let distinct = Distinct::of(intervals.clone());
    if distinct.total < 2 {
        return None;
    }
    let distinct = SortedIntervals::of(&distinct);
    let scored: Vec<(f64, f64)> =
        CANDIDATE_HZ.iter().map(|&hz| (1000.0 / hz, score(&distinct, 1000.0 / hz))).collect();
    let top = (0..scored.len()).fold(0, |a, k| if scored[k].1 > scored[a].1 { k } else { a });
    let (best_ms, best) = scored[top];
    let (_, &(period, confidence)) = scored.iter().enumerate().find(|&(k, s)| {
        s.1 >= best - 0.05 && (k == top || contradicting_share(&distinct, s.0, best_ms) <= MAX_CONTRADICTING)
    })?;
    let (tol, inv) = (tolerance_ms(period), 1.0 / period);
    // Sums in the intervals' order. Adding 0 for an interval that does not fit changes
    // neither sum (they start at +0 and only grow), and spares a branch that a jittery
    // display mispredicts; `periods` counts by multiplication below 10^9 ms, where it
    // matches the division (see its test), and divides above.
    let (sum_d, sum_k) = intervals.fold((0.0, 0.0), |(sd, sk), d| {
        let k = if d < 1e9 { periods(d, period, inv) } else { round_positive(d / period) }.max(1.0);
        let fit = (d - k * period).abs() <= tol;
        (sd + if fit { d } else { 0.0 }, sk + if fit { k } else { 0.0 })
    });
    let refined = if sum_k > 0.0 { sum_d / sum_k } else { period };
    Some((refined, confidence))
}

/// The screen time of the first displayed frame that says when it was displayed:
/// CPU start + `DisplayLatency` (2.0–2.3), else Present() + `MsUntilDisplayed`.
fn anchor(trace: &Trace) -> Option<f64> {
    let f = &trace.frames;
    let latency = trace.column(ColumnKind::DisplayLatency);
    let until = trace.column(ColumnKind::UntilDisplayed);
    (0..trace.len()).filter(|&i| !f.is_dropped(i)).find_map(|i| {
        if let Some(v) = latency.map(|c| c.values.at(i)).filter(|v| v.is_finite()) {
            return Some(f.start_ms[i] + v);
        }
        until
            .map(|c| c.values.at(i))
            .filter(|v| v.is_finite())
            .map(|v| f.start_ms[i] + f.frame_time_ms[i] + v)
    })
}

/// `x.round()` for `x ≥ 0` without a libm call (half away from zero, as `round`):
/// `x − ⌊x⌋` is exact below 2^52. The half is added as 0 or 1 rather than chosen by a
/// branch: which way a display interval rounds is as good as random, and a mispredicted
/// branch per interval was most of the refinement's time. `⌊x⌋` goes through `i64` (one
/// instruction; the same value as through `u64` below 4.5·10^15).
#[inline]
fn round_positive(x: f64) -> f64 {
    if x.is_nan() || x >= 4.5e15 {
        return x.round();
    }
    let i = x as i64 as f64;
    i + f64::from(u8::from(x - i >= 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counting periods by multiplication agrees with dividing, half-periods included.
    #[test]
    fn periods_match_division() {
        let mut x: u64 = 5;
        for &hz in &CANDIDATE_HZ {
            let p = 1000.0 / hz;
            for k in 0..20_000u32 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let d = match k % 3 {
                    0 => (x % 100_000) as f64 / 1000.0,
                    1 => p * (f64::from(k % 9) + 0.5),
                    _ => p * f64::from(k % 9) + (x % 7) as f64 * 1e-12,
                };
                assert_eq!(periods(d, p, 1.0 / p).to_bits(), (d / p).round().to_bits(), "{d} / {p}");
            }
        }
    }

    #[test]
    fn rounding_matches_round() {
        // Half away from zero, as f64::round; the expected values are written out, since
        // the C runtime's `round` under Wine gives 1 for the largest double below 0.5.
        for (x, expected) in [
            (0.0, 0.0),
            (0.499_999_999_999_999_94, 0.0),
            (0.5, 1.0),
            (1.5, 2.0),
            (2.5, 3.0),
            (2.499_999_9, 2.0),
            (7.0, 7.0),
            (1e15 + 0.5, 1e15 + 1.0),
            (3.3e9, 3.3e9),
            (1e300, 1e300),
            (f64::MIN_POSITIVE, 0.0),
        ] {
            assert_eq!(round_positive(x).to_bits(), f64::to_bits(expected), "{x}");
            if !cfg!(windows) {
                assert_eq!(x.round().to_bits(), f64::to_bits(expected), "{x}");
            }
        }
        assert!(round_positive(f64::NAN).is_nan());
    }

    #[test]
    fn detects_60_hz_from_mixed_multiples() {
        let p = 1000.0 / 60.0;
        let intervals: Vec<f64> = (0..100).map(|i| if i % 5 == 0 { 2.0 * p } else { p } + 0.05).collect();
        let (period, confidence) = detect_period(&intervals).unwrap_or((0.0, 0.0));
        assert!((1000.0 / period - 60.0).abs() < 0.5, "{}", 1000.0 / period);
        assert!(confidence > 0.99);
    }

    #[test]
    fn detects_144_hz() {
        let p = 1000.0 / 144.0;
        let intervals: Vec<f64> = (0..50).map(|i| p * f64::from(1 + i % 3)).collect();
        let (period, _) = detect_period(&intervals).unwrap_or((0.0, 0.0));
        assert!((1000.0 / period - 144.0).abs() < 0.01);
    }

    /// A small deterministic jitter in ±0.05 ms (PresentMon's display times jitter by
    /// a few hundredths of a ms on a fixed-refresh display).
    fn jitter(i: u32) -> f64 {
        f64::from((i * 7919) % 101) / 1000.0 - 0.05
    }

    fn detected_hz(intervals: &[f64]) -> Option<f64> {
        detect_period(intervals).filter(|d| d.1 >= MIN_CONFIDENCE).map(|d| 1000.0 / d.0)
    }

    /// A steady 30 FPS cap on a 60 Hz display: every interval is 33.3 ms, two 60 Hz
    /// periods. The old rule (lowest rate among equals) said 30 Hz; no display rate
    /// below 48 Hz is tried, so it is 60 Hz, a marker on every other refresh.
    #[test]
    fn a_steady_30_fps_cap_on_60_hz_is_not_30_hz() {
        let p = 1000.0 / 60.0;
        let steady: Vec<f64> = (0..900).map(|i| 2.0 * p + jitter(i)).collect();
        let hz = detected_hz(&steady).unwrap_or(0.0);
        assert!((hz - 60.0).abs() < 0.05, "{hz}");
        // With the odd 16.7 or 50 ms interval a real 60 Hz display shows: still 60 Hz,
        // confidence 1.
        let odd: Vec<f64> = (0..900)
            .map(|i| match i % 97 {
                0 => p,
                50 => 3.0 * p,
                _ => 2.0 * p,
            } + jitter(i))
            .collect();
        let (period, confidence) = detect_period(&odd).unwrap_or((0.0, 0.0));
        assert!((1000.0 / period - 60.0).abs() < 0.05 && confidence > 0.99, "{period} {confidence}");
    }

    /// A 60 FPS cap on a 120 Hz display: 16.7 ms intervals with 2 % of 8.3 and 25 ms
    /// ones, which a 60 Hz display cannot show. 60 Hz scores within 0.05 of 120 Hz
    /// ((0.98 − 0.06) / 0.94 = 0.979 against 1), which the old rule took; those
    /// intervals count against it now.
    #[test]
    fn intervals_a_lower_rate_cannot_show_count_against_it() {
        let p = 1000.0 / 120.0;
        let intervals: Vec<f64> = (0..1000)
            .map(|i| match i % 100 {
                0 => p,
                50 => 3.0 * p,
                _ => 2.0 * p,
            } + jitter(i))
            .collect();
        let hz = detected_hz(&intervals).unwrap_or(0.0);
        assert!((hz - 120.0).abs() < 0.05, "{hz}");
    }

    /// A frame cap under variable refresh (the RoboCop capture: intervals spread
    /// around 33.3 ms, most within ±1 ms, with a 16.09 and a 25.00): no refresh rate.
    /// Here 33.33 ms plus a triangular spread of ±1.5 ms: 1 − (0.5/1.5)² = 89 % fit 30 Hz's
    /// ±1 ms, which the old rule took as 30 Hz, confidence (0.89 − 0.06) / 0.94 = 0.88;
    /// 60 Hz's ±0.5 ms holds 1 − (1/1.5)² = 56 %, below 0.8.
    #[test]
    fn a_capped_rate_under_variable_refresh_is_no_refresh_rate() {
        let spread = |i: u32| f64::from((i * 37) % 101) / 100.0 * 1.5 - 0.75;
        let mut intervals: Vec<f64> = (0..895).map(|i| 33.33 + spread(i) + spread(i * 13 + 5)).collect();
        intervals.extend([16.09, 25.0]);
        assert_eq!(detected_hz(&intervals), None, "{:?}", detect_period(&intervals));
    }

    /// A 120 Hz display series (mostly one period, some two or three, jitter) is
    /// detected the same on the whole and on any 1000 consecutive intervals.
    #[test]
    fn any_thousand_intervals_give_the_whole_series_rate() {
        let p = 1000.0 / 119.84;
        let mut x: u32 = 1;
        let intervals: Vec<f64> = (0..6000)
            .map(|i| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let k = match (x >> 16) % 20 {
                    0 => 3.0,
                    1..=4 => 2.0,
                    _ => 1.0,
                };
                k * p + jitter(i)
            })
            .collect();
        let whole = detected_hz(&intervals).unwrap_or(0.0);
        assert!((whole - 119.84).abs() < 0.01, "{whole}");
        for start in (0..5000).step_by(250) {
            let part = detected_hz(&intervals[start..start + 1000]).unwrap_or(0.0);
            assert!((part - whole).abs() < 0.01, "{start}: {part} vs {whole}");
        }
    }

    /// Intervals with no common period (variable refresh) give a low confidence,
    /// also for high candidate rates that fit many intervals by chance.
    #[test]
    fn variable_refresh_has_low_confidence() {
        let intervals: Vec<f64> = (0..200).map(|i| 5.0 + f64::from(i % 17) * 0.731).collect();
        let (_, confidence) = detect_period(&intervals).unwrap_or((0.0, 1.0));
        assert!(confidence < 0.8, "{confidence}");
        assert!(detect_period(&[16.6]).is_none());
    }
}
