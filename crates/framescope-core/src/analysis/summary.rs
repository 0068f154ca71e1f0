//! Summary figures (`metrics.md` §2): average, extremes, percentiles and lows.

use rayon::slice::ParallelSliceMut;
use serde::Serialize;

/// The summary of a frame-time series. Times in ms, rates in frames per second.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// `1000 · n / T`: time-weighted, not the mean of per-frame FPS.
    pub avg_fps: f64,
    /// `1000 / max ft`.
    pub min_fps: f64,
    /// `1000 / min ft`.
    pub max_fps: f64,
    /// Median frame time.
    pub p50_ms: f64,
    /// 90th percentile frame time.
    pub p90_ms: f64,
    /// 95th percentile frame time.
    pub p95_ms: f64,
    /// 99th percentile frame time.
    pub p99_ms: f64,
    /// 99.9th percentile frame time.
    pub p99_9_ms: f64,
    /// `1000 · k / Σ` of the k = max(1, ⌊n/100⌋) slowest frames.
    pub low_1pct_fps: f64,
    /// The same with k = max(1, ⌊n/1000⌋).
    pub low_0_1pct_fps: f64,
}

impl Summary {
    /// Computes the summary of frame times (all finite and > 0); `None` when empty.
    #[must_use]
    pub fn of(frame_time_ms: &[f64]) -> Option<Self> {
        let mut sorted = frame_time_ms.to_vec();
        sorted.par_sort_unstable_by(f64::total_cmp);
        Self::from_sorted(&sorted, frame_time_ms.iter().sum())
    }

    /// The summary from frame times already sorted ascending, and their sum in file
    /// order (`T`).
    #[must_use]
    pub fn from_sorted(sorted: &[f64], total: f64) -> Option<Self> {
        let n = sorted.len();
        if n == 0 {
            return None;
        }
        let low = |divisor: usize| {
            let k = (n / divisor).max(1);
            let slowest: f64 = sorted[n - k..].iter().rev().sum();
            1000.0 * k as f64 / slowest
        };
        Some(Self {
            avg_fps: 1000.0 * n as f64 / total,
            min_fps: 1000.0 / sorted[n - 1],
            max_fps: 1000.0 / sorted[0],
            p50_ms: percentile(sorted, 0.50),
            p90_ms: percentile(sorted, 0.90),
            p95_ms: percentile(sorted, 0.95),
            p99_ms: percentile(sorted, 0.99),
            p99_9_ms: percentile(sorted, 0.999),
            low_1pct_fps: low(100),
            low_0_1pct_fps: low(1000),
        })
    }
}

pub use crate::model::percentile;

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    /// Worked on paper: ft = 10, 20, 30, 40, 100 ms (n = 5, T = 200 ms).
    #[test]
    fn five_frames_by_hand() {
        let s = Summary::of(&[30.0, 10.0, 100.0, 20.0, 40.0]).unwrap_or_else(|| unreachable!());
        assert!(close(s.avg_fps, 25.0)); // 1000·5/200
        assert!(close(s.min_fps, 10.0)); // 1000/100
        assert!(close(s.max_fps, 100.0)); // 1000/10
        assert!(close(s.p50_ms, 30.0)); // h = 2
        assert!(close(s.p90_ms, 76.0)); // h = 3.6: 40 + 0.6·60
        assert!(close(s.p95_ms, 88.0)); // h = 3.8: 40 + 0.8·60
        assert!(close(s.p99_ms, 97.6)); // h = 3.96
        assert!(close(s.p99_9_ms, 99.76)); // h = 3.996
        assert!(close(s.low_1pct_fps, 10.0)); // k = 1: 1000/100
        assert!(close(s.low_0_1pct_fps, 10.0));
    }

    /// 200 frames: 198 of 10 ms and two of 50 ms. k(1 %) = 2 → 1000·2/100 = 20 FPS;
    /// k(0.1 %) = 1 → 20 FPS; avg = 1000·200/2080.
    #[test]
    fn lows_take_the_k_slowest() {
        let mut ft = vec![10.0; 198];
        ft.insert(50, 50.0);
        ft.insert(150, 50.0);
        let s = Summary::of(&ft).unwrap_or_else(|| unreachable!());
        assert!(close(s.low_1pct_fps, 20.0));
        assert!(close(s.low_0_1pct_fps, 20.0));
        assert!(close(s.avg_fps, 200_000.0 / 2080.0));
        assert!(close(s.p99_ms, 10.0 + 0.01 * 40.0)); // h = 197.01 → between 10 and 50
    }

    #[test]
    fn single_frame_and_empty() {
        let s = Summary::of(&[16.0]).unwrap_or_else(|| unreachable!());
        assert!(close(s.p99_9_ms, 16.0) && close(s.avg_fps, 62.5) && close(s.low_1pct_fps, 62.5));
        assert!(Summary::of(&[]).is_none());
        assert!(percentile(&[], 0.5).is_nan());
    }
}
