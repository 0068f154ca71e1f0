//! VSYNC markers (`metrics.md` §8): the refresh period, detected from display-change
//! intervals or set by the user, and an anchor so markers sit at `anchor + k·period`.

use crate::model::{ColumnKind, Trace};
use serde::Serialize;

/// Refresh rates tried when detecting, in Hz.
const CANDIDATE_HZ: [f64; 24] = [
    24.0, 30.0, 48.0, 50.0, 59.94, 60.0, 72.0, 75.0, 90.0, 100.0, 120.0, 144.0, 165.0, 170.0, 175.0, 180.0,
    200.0, 240.0, 280.0, 300.0, 360.0, 480.0, 500.0, 540.0,
];

/// Where the period came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VsyncSource {
    /// Detected from the capture's display intervals.
    Detected,
    /// Set by the user.
    User,
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
        // Gathered once (24 candidates read them): `Prepared` runs this early, while
        // little else is held.
        let f = &trace.frames;
        let intervals: Vec<f64> = f
            .display_ms
            .iter()
            .zip(&f.dropped)
            .filter(|(d, dropped)| !**dropped && d.is_finite() && **d > 0.0)
            .map(|(d, _)| *d)
            .collect();
        let (period_ms, confidence) = detect_period(&intervals)?;
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
fn score(intervals: &Distinct, period_ms: f64) -> f64 {
    let chance = (2.0 * tolerance_ms(period_ms) / period_ms).min(0.99);
    ((fit_share(intervals, period_ms) - chance) / (1.0 - chance)).max(0.0)
}

/// Share of the intervals that are a whole number (≥ 1) of `period_ms`.
fn fit_share(intervals: &Distinct, period_ms: f64) -> f64 {
    let tol = tolerance_ms(period_ms);
    let inv = 1.0 / period_ms;
    let hits: u64 = intervals
        .values
        .iter()
        .zip(&intervals.counts)
        .filter(|&(&d, _)| {
            let k = periods(d, period_ms, inv).max(1.0);
            (d - k * period_ms).abs() <= tol
        })
        .map(|(_, &c)| u64::from(c))
        .sum();
    hits as f64 / intervals.total as f64
}

/// The distinct values of a series with how often each occurs: display intervals
/// repeat (PresentMon writes 4 decimals, displays tick at a fixed rate), so the 24
/// candidates are scored over a few thousand values instead of every interval.
struct Distinct {
    values: Vec<f64>,
    counts: Vec<u32>,
    total: usize,
}

impl Distinct {
    fn of(intervals: &[f64]) -> Self {
        let total = intervals.len();
        let mut slots: std::collections::HashMap<u64, u32, BuildMix> =
            std::collections::HashMap::with_capacity_and_hasher(1024, BuildMix);
        let (mut values, mut counts) = (Vec::new(), Vec::<u32>::new());
        for (k, &d) in intervals.iter().enumerate() {
            let slot = *slots.entry(d.to_bits()).or_insert_with(|| {
                values.push(d);
                counts.push(0);
                (values.len() - 1) as u32
            });
            counts[slot as usize] += 1;
            // Nearly all distinct: counting buys nothing; each interval counts once.
            if k == 4095 && values.len() > 2048 {
                return Self { values: intervals.to_vec(), counts: vec![1; total], total };
            }
        }
        Self { values, counts, total }
    }
}

/// A multiplicative hasher for `f64` bit patterns (the keys are not chosen by anyone
/// who could aim for collisions worse than a slow detection).
#[derive(Clone, Copy, Default)]
struct BuildMix;

impl std::hash::BuildHasher for BuildMix {
    type Hasher = Mix;
    fn build_hasher(&self) -> Mix {
        Mix(0)
    }
}

struct Mix(u64);

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        let x = (self.0 ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }
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

/// The dominant refresh period and its confidence (see [`MIN_CONFIDENCE`]). Multiples of a period also fit
/// its divisors' harmonics, so among candidates that score within 0.05 of the best,
/// the lowest rate wins; the period is then refined by least squares over the
/// intervals that fit it.
#[must_use]
pub fn detect_period(intervals: &[f64]) -> Option<(f64, f64)> {
    if intervals.len() < 2 {
        return None;
    }
    let distinct = Distinct::of(intervals);
    let scored: Vec<(f64, f64)> =
        CANDIDATE_HZ.iter().map(|&hz| (1000.0 / hz, score(&distinct, 1000.0 / hz))).collect();
    let best = scored.iter().map(|s| s.1).fold(0.0, f64::max);
    let &(period, confidence) = scored.iter().find(|s| s.1 >= best - 0.05)?;
    let tol = tolerance_ms(period);
    let (sum_d, sum_k) = intervals.iter().fold((0.0, 0.0), |(sd, sk), &d| {
        let k = round_positive(d / period).max(1.0);
        if (d - k * period).abs() <= tol { (sd + d, sk + k) } else { (sd, sk) }
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
    (0..trace.len()).filter(|&i| !f.dropped[i]).find_map(|i| {
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
/// `x − ⌊x⌋` is exact below 2^52.
#[inline]
fn round_positive(x: f64) -> f64 {
    if x.is_nan() || x >= 4.5e15 {
        return x.round();
    }
    let i = x as u64 as f64;
    if x - i >= 0.5 { i + 1.0 } else { i }
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
        for x in [
            0.0,
            0.499_999_999_999_999_94,
            0.5,
            1.5,
            2.5,
            2.499_999_9,
            7.0,
            1e15 + 0.5,
            3.3e9,
            1e300,
            f64::MIN_POSITIVE,
        ] {
            assert_eq!(round_positive(x).to_bits(), x.round().to_bits(), "{x}");
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
