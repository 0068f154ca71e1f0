//! Figures of a sampled log (`metrics.md` §10): NVIDIA App, MSI Afterburner, MangoHud
//! with a `log_interval`. Sample `i` reports the average rate `r_i` over its interval
//! `Δt_i`, so it stands for `w_i = r_i · Δt_i / 1000` frames of `ft_i = 1000 / r_i` ms.
//! Every figure weights the samples accordingly; nothing here treats a row as a frame.

use super::{Latency, Summary};
use crate::model::{ColumnKind, Trace};

/// The whole-run figures of a sampled log besides its summary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampledRun {
    /// Number of samples.
    pub samples: usize,
    /// `round(W)`, half to even: the estimated number of frames.
    pub frames: usize,
    /// `W = Σ w_i` before rounding.
    pub weight: f64,
    /// `Σ Δt_i`.
    pub duration_ms: f64,
}

/// One sample: its frame time `1000 / r` and its weight `Δt / ft` (= `r · Δt / 1000`).
#[derive(Debug, Clone, Copy)]
struct Sample {
    ft: f64,
    w: f64,
}

/// The samples of a trace with a usable frame time and interval, in file order.
fn samples(frame_time_ms: &[f64], interval_ms: &[f64]) -> Vec<Sample> {
    frame_time_ms
        .iter()
        .zip(interval_ms)
        .filter(|&(&ft, &dt)| ft > 0.0 && ft.is_finite() && dt > 0.0 && dt.is_finite())
        .map(|(&ft, &dt)| Sample { ft, w: dt / ft })
        .collect()
}

/// The run figures and the summary of samples with frame times `frame_time_ms` (`1000
/// / r`) and intervals `interval_ms`; `None` without a usable sample.
#[must_use]
pub fn summary(frame_time_ms: &[f64], interval_ms: &[f64]) -> Option<(SampledRun, Summary)> {
    let samples = samples(frame_time_ms, interval_ms);
    if samples.is_empty() {
        return None;
    }
    let (mut weight, mut duration_ms, mut rate_time) = (0.0, 0.0, 0.0);
    for (&ft, &dt) in frame_time_ms.iter().zip(interval_ms) {
        if ft > 0.0 && ft.is_finite() && dt > 0.0 && dt.is_finite() {
            let rate = 1000.0 / ft;
            weight += rate * dt / 1000.0;
            duration_ms += dt;
            rate_time += rate * dt;
        }
    }
    // Stable sorts: samples of equal frame time keep file order.
    let mut ascending = samples;
    ascending.sort_by(|a, b| a.ft.total_cmp(&b.ft));
    let mut descending = ascending.clone();
    descending.sort_by(|a, b| b.ft.total_cmp(&a.ft));
    let (fastest, longest) = (ascending[0].ft, descending[0].ft);
    let percentile = |p: f64| weighted_percentile(&ascending, p, weight);
    let summary = Summary {
        avg_fps: rate_time / duration_ms,
        min_fps: 1000.0 / longest,
        max_fps: 1000.0 / fastest,
        p50_ms: percentile(0.50),
        p90_ms: percentile(0.90),
        p95_ms: percentile(0.95),
        p99_ms: percentile(0.99),
        p99_9_ms: percentile(0.999),
        low_1pct_fps: weighted_low(&descending, weight / 100.0),
        low_0_1pct_fps: weighted_low(&descending, weight / 1000.0),
    };
    let run = SampledRun { samples: ascending.len(), frames: round_half_even(weight), weight, duration_ms };
    Some((run, summary))
}

/// `round(W)` with ties to even (Python's `round`, which the oracle uses), saturating.
fn round_half_even(w: f64) -> usize {
    w.round_ties_even().max(0.0) as usize
}

/// The frame time of the first sample (ascending frame time) at which the running
/// weight reaches `p · W`; the slowest sample when rounding never gets there.
fn weighted_percentile(ascending: &[Sample], p: f64, total: f64) -> f64 {
    let target = p * total;
    let mut running = 0.0;
    for s in ascending {
        running += s.w;
        if running >= target {
            return s.ft;
        }
    }
    ascending.last().map_or(f64::NAN, |s| s.ft)
}

/// `1000 · K / Σ(taken · ft)`: the slowest samples taken until their weight reaches
/// `K` frames, the last one in part.
fn weighted_low(descending: &[Sample], k: f64) -> f64 {
    let (mut taken, mut spent) = (0.0, 0.0);
    for s in descending {
        let part = s.w.min(k - taken);
        spent += part * s.ft;
        taken += part;
        if taken >= k {
            break;
        }
    }
    1000.0 * k / spent
}

/// The latency figures of a sampled log (`metrics.md` §10): NVIDIA App's `Average PC
/// Latency` → `pc_latency_column_mean_ms` (and its extremes), its `Render Latency` →
/// `render_present_latency_mean_ms`, each the `Δt`-weighted mean over the samples
/// whose cell is a number > 0. Everything else is null.
#[must_use]
pub fn latency(trace: &Trace) -> Latency {
    let f = &trace.frames;
    let weighted = |kind: ColumnKind| {
        let column = trace.column(kind)?;
        let (mut sum, mut time) = (0.0, 0.0);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for ((v, &dt), &ft) in column.values.iter().zip(&f.sample_ms).zip(&f.frame_time_ms) {
            if v > 0.0 && dt > 0.0 && ft > 0.0 {
                sum += v * dt;
                time += dt;
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        (time > 0.0).then(|| (sum / time, lo, hi))
    };
    let mean = |kind: ColumnKind| {
        let (sum, n) = trace
            .column(kind)?
            .values
            .iter()
            .filter(|v| v.is_finite())
            .fold((0.0, 0u64), |(s, n), v| (s + v, n + 1));
        (n > 0).then(|| sum / n as f64)
    };
    let pcl = weighted(ColumnKind::PcLatency);
    Latency {
        pc_latency_column_mean_ms: pcl.map(|p| p.0),
        pc_latency_min_ms: pcl.map(|p| p.1),
        pc_latency_max_ms: pcl.map(|p| p.2),
        render_present_latency_mean_ms: weighted(ColumnKind::RenderPresentLatency).map(|r| r.0),
        // A latency-measurement log's rows are measurements, one per synthetic input,
        // not samples of a rate: their plain means, as the tool's own analysis takes.
        input_to_present_mean_ms: mean(ColumnKind::InputToPresent),
        present_to_gpu_idle_mean_ms: mean(ColumnKind::PresentToGpuIdle),
        gpu_idle_to_display_mean_ms: mean(ColumnKind::GpuIdleToDisplay),
        input_to_display_mean_ms: mean(ColumnKind::InputToDisplay),
        ..Latency::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    /// Two samples of different Δt: 500 ms at 100 FPS (10 ms, w = 50) and 1000 ms at
    /// 50 FPS (20 ms, w = 50). W = 100, duration 1500 ms, avg = (100·500 + 50·1000) /
    /// 1500 = 66.67 (the harmonic mean of the rows would be 66.67 too, but the plain
    /// mean 75). p50: the running weight reaches 50 at the 10 ms sample; p90 at 20 ms.
    /// 1 % low: K = 1 frame, all from the 20 ms sample: 1000·1/20 = 50.
    #[test]
    fn two_samples_of_different_intervals() {
        let (run, s) = summary(&[10.0, 20.0], &[500.0, 1000.0]).unwrap_or_else(|| unreachable!());
        assert_eq!(run.frames, 100);
        assert_eq!(run.samples, 2);
        assert!(close(run.duration_ms, 1500.0));
        assert!(close(s.avg_fps, 100_000.0 / 1500.0));
        assert!(close(s.min_fps, 50.0) && close(s.max_fps, 100.0));
        assert!(close(s.p50_ms, 10.0) && close(s.p90_ms, 20.0));
        assert!(close(s.low_1pct_fps, 50.0));
    }

    /// (ft 10, Δt 1000 → w 100), (ft 20, Δt 100 → w 5), (ft 40, Δt 40 → w 1): W = 106.
    /// p90: 95.4 is reached at ft 10; p95: 100.7 → ft 20; p99: 104.94 → ft 20; p99.9:
    /// 105.894 → ft 40. 1 % low: K = 1.06 = 1 (ft 40) + 0.06 (ft 20):
    /// 1000·1.06/(40 + 1.2) = 25.728…; 0.1 % low: K = 0.106, all inside ft 40 → 25.
    #[test]
    fn weighted_percentiles_and_a_low_taken_in_part() {
        let (run, s) = summary(&[10.0, 20.0, 40.0], &[1000.0, 100.0, 40.0]).unwrap_or_else(|| unreachable!());
        assert_eq!(run.frames, 106);
        assert!(close(run.duration_ms, 1140.0));
        assert!(close(s.avg_fps, 106_000.0 / 1140.0));
        let got = [s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms, s.p99_9_ms];
        assert!(got.iter().zip([10.0, 10.0, 20.0, 20.0, 40.0]).all(|(&g, w)| close(g, w)), "{got:?}");
        assert!(close(s.low_1pct_fps, 1060.0 / 41.2));
        assert!(close(s.low_0_1pct_fps, 25.0));
    }

    #[test]
    fn frames_round_half_to_even_and_no_sample_is_no_summary() {
        assert_eq!((round_half_even(2.5), round_half_even(3.5), round_half_even(7.49)), (2, 4, 7));
        assert!(summary(&[], &[]).is_none());
        assert!(summary(&[10.0], &[0.0]).is_none());
    }
}
