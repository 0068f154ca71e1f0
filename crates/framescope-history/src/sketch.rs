//! A compact frame-time sketch of a run: its frame time at fixed percentiles (enough
//! to redraw the percentile curve) and a histogram on log-spaced bins (enough to
//! redraw the distribution), a few hundred bytes of JSON whatever the run's length.

use framescope_core::model::percentile;
use serde::{Deserialize, Serialize};

/// The percentiles (0..=100) a sketch keeps: dense at the slow end, where the lows
/// and the percentile curve's tail are read.
pub const PERCENTILES: [f64; 30] = [
    0.0, 1.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0,
    85.0, 90.0, 95.0, 97.0, 98.0, 99.0, 99.5, 99.8, 99.9, 99.95, 99.99, 100.0,
];

/// Histogram bins per decade of frame time.
const BINS_PER_DECADE: usize = 20;
/// The first bin's lower edge, ms (10 000 FPS).
const LOW_MS: f64 = 0.1;
/// Decades covered: 0.1 ms to 1000 ms.
const DECADES: usize = 4;

/// Frame times on log-spaced bins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    /// The lower edge of the first bin, ms.
    pub low_ms: f64,
    /// Bins per decade: bin `i` spans `low_ms · 10^(i/bins_per_decade)` to the next.
    pub bins_per_decade: usize,
    /// Frames per bin; frames below the first edge count in the first bin, frames above
    /// the last in the last.
    pub counts: Vec<u64>,
}

impl Histogram {
    /// The lower edge of bin `i`, ms.
    #[must_use]
    pub fn edge_ms(&self, i: usize) -> f64 {
        self.low_ms * 10f64.powf(i as f64 / self.bins_per_decade as f64)
    }
}

/// A run's frame-time sketch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sketch {
    /// Frames sketched.
    pub frames: u64,
    /// The frame time (ms, to the nanosecond) at each of [`PERCENTILES`], in that order.
    pub percentile_ms: Vec<f64>,
    /// The histogram.
    pub histogram: Histogram,
}

impl Sketch {
    /// The sketch of frame times in ms (any order; values that are not finite and > 0
    /// are left out).
    #[must_use]
    pub fn of(frame_time_ms: &[f64]) -> Self {
        let mut sorted: Vec<f64> =
            frame_time_ms.iter().copied().filter(|v| v.is_finite() && *v > 0.0).collect();
        sorted.sort_unstable_by(f64::total_cmp);
        let bins = BINS_PER_DECADE * DECADES;
        let mut counts = vec![0u64; bins];
        for &v in &sorted {
            let i = ((v / LOW_MS).log10() * BINS_PER_DECADE as f64).floor();
            counts[(i.max(0.0) as usize).min(bins - 1)] += 1;
        }
        let percentile_ms = if sorted.is_empty() {
            Vec::new()
        } else {
            // Nanoseconds are plenty, and short decimals read back exactly from JSON.
            PERCENTILES.iter().map(|p| (percentile(&sorted, p / 100.0) * 1e6).round() / 1e6).collect()
        };
        Self {
            frames: sorted.len() as u64,
            percentile_ms,
            histogram: Histogram { low_ms: LOW_MS, bins_per_decade: BINS_PER_DECADE, counts },
        }
    }

    /// The frame time at percentile `p` (0..=100), interpolated linearly between the
    /// kept percentiles; `None` for an empty sketch.
    #[must_use]
    pub fn at(&self, p: f64) -> Option<f64> {
        let p = p.clamp(0.0, 100.0);
        let i = PERCENTILES.iter().position(|&q| q >= p)?;
        let hi = *self.percentile_ms.get(i)?;
        if i == 0 || PERCENTILES[i] <= p {
            return Some(hi);
        }
        let lo = *self.percentile_ms.get(i - 1)?;
        let f = (p - PERCENTILES[i - 1]) / (PERCENTILES[i] - PERCENTILES[i - 1]);
        Some(lo + f * (hi - lo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sketch_of_1_to_101_ms() {
        // 1, 2, …, 101 ms: percentile p is 1 + p ms exactly (h = 100 · p / 100).
        let times: Vec<f64> = (1..=101).rev().map(f64::from).collect();
        let s = Sketch::of(&times);
        assert_eq!(s.frames, 101);
        assert_eq!(s.percentile_ms.len(), PERCENTILES.len());
        for (p, v) in PERCENTILES.iter().zip(&s.percentile_ms) {
            assert!((v - (1.0 + p)).abs() < 1e-9, "p{p}: {v}");
        }
        assert_eq!(s.at(50.0), Some(51.0));
        assert!((s.at(2.0).unwrap_or(0.0) - 3.0).abs() < 1e-9);
        assert_eq!(s.histogram.counts.iter().sum::<u64>(), 101);
        // 1 ms is the lower edge of bin 20 (one decade above 0.1 ms).
        assert_eq!(s.histogram.counts[20], 1);
        assert!((s.histogram.edge_ms(20) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn empty_and_out_of_range_times() {
        let s = Sketch::of(&[f64::NAN, -1.0, 0.0]);
        assert_eq!((s.frames, s.at(50.0)), (0, None));
        let s = Sketch::of(&[0.01, 5000.0]);
        assert_eq!(s.histogram.counts[0], 1);
        assert_eq!(s.histogram.counts[79], 1);
    }
}
