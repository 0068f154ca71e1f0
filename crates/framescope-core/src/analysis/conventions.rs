//! "As other tools report it" (`metrics.md` §11): the figures CapFrameX, FrameView,
//! PresentMon's app and MangoHud print for the same frame series, each computed the way
//! that tool computes it. The tools disagree on "1 % low" and percentiles because they
//! define them differently; these let a user hold framescope's figures against the
//! numbers a peer printed and see which definition explains the difference.
//!
//! Every function takes the analysed series `ft` (ms, all > 0) in frame order.

use serde::Serialize;

use crate::model::{Frames, MangoSummary};

/// Each tool's figures for one run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Conventions {
    /// CapFrameX (`FrametimeStatisticProvider.cs`).
    pub capframex: Option<CapFrameX>,
    /// NVIDIA FrameView's summary file.
    pub frameview: Option<FrameView>,
    /// Intel PresentMon's app (`StatisticsTracker.cpp`).
    pub presentmon: Option<PresentMon>,
    /// MangoHud's summary (`src/logging.cpp`).
    pub mangohud: Option<MangoHud>,
}

impl Conventions {
    /// Every tool's figures for a per-frame series; `None` when it is empty.
    #[must_use]
    pub fn of(ft: &[f64]) -> Option<Self> {
        Self::of_sorted(ft, &sorted_ascending(ft))
    }

    /// [`Conventions::of`] with the series also given sorted ascending (`asc`), so
    /// no tool's figures sort it again.
    #[must_use]
    pub fn of_sorted(ft: &[f64], asc: &[f64]) -> Option<Self> {
        Self::of_sorted_total(ft, asc, ft.iter().sum())
    }

    /// [`Conventions::of_sorted`] with the sum of the series also given (`total`, as
    /// `ft.iter().sum()` adds it): every tool's mean and shares divide that one sum
    /// rather than adding the series again each.
    #[must_use]
    pub fn of_sorted_total(ft: &[f64], asc: &[f64], total: f64) -> Option<Self> {
        if ft.is_empty() || asc.len() != ft.len() {
            return None;
        }
        Some(Self {
            capframex: CapFrameX::of_sorted(ft, asc, total),
            frameview: FrameView::of_sorted(ft, asc, total),
            presentmon: PresentMon::of_sorted(ft, asc, total),
            mangohud: MangoHud::of_sorted(ft, asc, total),
        })
    }

    /// A MangoHud log written with a `log_interval` (a sampled log): only MangoHud's
    /// own convention, on the logged `frametime` values, as its summary file does —
    /// or, for a version that summarises its rows by `fps` (`frames.logged_fps` not
    /// empty), as that version does (`MangoHud::of_log`).
    #[must_use]
    pub fn mangohud_only(logged_ft: &[f64], frames: &Frames) -> Option<Self> {
        let mangohud = MangoHud::of_log(frames)
            .or_else(|| MangoHud::of_sorted(logged_ft, &sorted_ascending(logged_ft), logged_ft.iter().sum()));
        mangohud.map(|m| Self { capframex: None, frameview: None, presentmon: None, mangohud: Some(m) })
    }

    /// These figures with MangoHud's replaced by the summary of the version that wrote
    /// a per-frame MangoHud log when that version summarises its rows by `fps`
    /// (`metrics.md` §11, `MangoHud::of_log`).
    #[must_use]
    pub fn with_logged_fps(mut self, frames: &Frames) -> Self {
        if let Some(m) = MangoHud::of_log(frames) {
            self.mangohud = Some(m);
        }
        self
    }
}

impl Conventions {
    /// The figures with FrameView's power figures (`metrics.md` §15) from the run's
    /// `telemetry`, whose means are per row as FrameView's summary takes them.
    #[must_use]
    pub fn with_frameview_power(mut self, telemetry: &super::Telemetry) -> Self {
        let mean = |name: &str| {
            telemetry
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, s)| s.mean)
                .filter(|m| m.is_finite())
        };
        if let Some(fv) = self.frameview.as_mut() {
            fv.gpu_nv_power_w = mean("NV Pwr(W) (API)");
            fv.cpu_package_power_w = mean("CPU Package Power(W)");
            fv.perf_per_watt_pcat =
                mean("PCAT Power Total(W)").filter(|p| *p > 0.0).map(|p| fv.average_fps / p);
        }
        self
    }
}

/// CapFrameX's figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CapFrameX {
    /// `1000 · n / Σft`.
    pub average_fps: f64,
    /// `1000 / min ft`.
    pub max_fps: f64,
    /// `1000 / max ft`.
    pub min_fps: f64,
    /// R8 quantiles of the per-frame FPS values at 0.99 … 0.001.
    pub p99_fps: f64,
    /// τ = 0.95.
    pub p95_fps: f64,
    /// τ = 0.5.
    pub median_fps: f64,
    /// τ = 0.05.
    pub p5_fps: f64,
    /// τ = 0.01 (CapFrameX's "P1").
    pub p1_fps: f64,
    /// τ = 0.002.
    pub p0_2_fps: f64,
    /// τ = 0.001.
    pub p0_1_fps: f64,
    /// `1000 / mean{ft ≥ Q(ft, 0.99)}` ("1% low average").
    pub low_1pct_avg_fps: f64,
    /// The same at 0.999.
    pub low_0_1pct_avg_fps: f64,
    /// Slowest-first walk to 1 % of the time: `1000 /` the frame time where it gets there.
    pub low_1pct_integral_fps: f64,
    /// The same at 0.1 %.
    pub low_0_1pct_integral_fps: f64,
    /// Time share of frames over 2.5× their moving average.
    pub stuttering_time_fraction: f64,
    /// Time share of the other frames under 25 FPS.
    pub low_fps_time_fraction: f64,
    /// CapFrameX's "GPU active deviation", `round(|1 − gpu_busy_share| · 100)` over the
    /// limiter's classified frames (`metrics.md` §13); null without a limiter.
    pub gpu_active_deviation_pct: Option<f64>,
}

/// FrameView's summary figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FrameView {
    /// `1000 · n / Σft`.
    pub average_fps: f64,
    /// `1000 · k / Σ(k slowest)` with `k = ⌊0.01·n⌋ + 1`.
    pub low_1pct_fps: f64,
    /// The same with `k = ⌊0.001·n⌋ + 1`.
    pub low_0_1pct_fps: f64,
    /// `1000 /` the `(⌊0.10·n⌋ + 1)`-th slowest frame time.
    pub fps_10pct: f64,
    /// At 0.05.
    pub fps_5pct: f64,
    /// At 0.01.
    pub fps_1pct: f64,
    /// At 0.001.
    pub fps_0_1pct: f64,
    /// The summary's "GPU NV Power (Watts) (API)": the plain per-row mean of the log's
    /// `NV Pwr(W) (API)` (`metrics.md` §15); null without the column.
    pub gpu_nv_power_w: Option<f64>,
    /// "CPU Package Power(Watts)": the per-row mean of `CPU Package Power(W)`.
    pub cpu_package_power_w: Option<f64>,
    /// "Perf/Watt (F/J) (PCAT)": `average_fps /` the per-row mean of `PCAT Power
    /// Total(W)`; null without a PCAT board (FrameView writes NA).
    pub perf_per_watt_pcat: Option<f64>,
}

/// PresentMon app's figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PresentMon {
    /// `1000 / mean ft`.
    pub average_fps: f64,
    /// `1000 / P99(ft)` ("1st percentile FPS"), linear percentile.
    pub p1_fps: f64,
    /// `1000 / P95(ft)`.
    pub p5_fps: f64,
    /// `1000 / max ft`.
    pub min_fps: f64,
    /// `1000 / min ft`.
    pub max_fps: f64,
}

/// MangoHud's summary figures: 0.8.2 and later of the frame times (below), earlier
/// versions each their own way of the logged rows (`MangoHud::of_log`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MangoHud {
    /// `1000 / mean ft` (0.6.x: the mean of the logged `fps`).
    pub average_fps: f64,
    /// `m(0.01)`: one frame, `1000 / d[max(0, trunc(0.01·n − 1))]` of `ft` sorted
    /// descending (0.6.x: the mean of the lowest `⌈0.01·n⌉` logged `fps`).
    pub low_1pct_fps: f64,
    /// `m(0.001)` (0.6.x: the mean of the lowest `⌈0.001·n⌉` logged `fps`).
    pub low_0_1pct_fps: f64,
    /// `m(0.97)` (0.6.x: `a[⌊0.97·(n − 1)⌋]` of the logged `fps` ascending).
    pub p97_fps: f64,
}

fn sorted_ascending(v: &[f64]) -> Vec<f64> {
    let mut s = v.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    s
}

/// The mean of `n` values that add up to `total` (as `total / n`).
fn mean(total: f64, n: usize) -> f64 {
    total / n as f64
}

/// MathNet's R8 quantile (`QuantileInplace`, what CapFrameX calls) of `sorted`
/// (ascending): `h = (n + 1/3)·τ + 1/3`, 1-based ranks, clamped at the ends.
fn r8(sorted: &[f64], tau: f64) -> f64 {
    r8_by(sorted.len(), |k| sorted[k], tau)
}

/// [`r8`] over `n` sorted values read through `at`.
fn r8_by(n: usize, at: impl Fn(usize) -> f64, tau: f64) -> f64 {
    let h = (n as f64 + 1.0 / 3.0) * tau + 1.0 / 3.0;
    if h < 1.0 {
        return at(0);
    }
    if h >= n as f64 {
        return at(n - 1);
    }
    let lo = h.floor();
    let i = lo as usize; // 1-based rank ⌊h⌋, 1 ≤ i < n
    at(i - 1) + (h - lo) * (at(i) - at(i - 1))
}

/// Linear-interpolation percentile (`metrics.md` §2) of `sorted` (ascending).
fn linear(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

impl CapFrameX {
    fn of_sorted(ft: &[f64], asc: &[f64], total: f64) -> Option<Self> {
        if ft.is_empty() {
            return None;
        }
        // The FPS of the frames, ascending, read where R-8 needs them (no copy).
        let n = asc.len();
        let fps_at = |k: usize| 1000.0 / asc[n - 1 - k];
        let q = |tau: f64| r8_by(n, fps_at, tau);
        // Both lows' sums in one pass (each adds its frames in order, from −0 as `sum`).
        let (limit_1, limit_0_1) = (r8(asc, 0.99), r8(asc, 0.999));
        let (sum_1, count_1, sum_0_1, count_0_1) =
            ft.iter().fold((-0.0, 0usize, -0.0, 0usize), |(s1, c1, s2, c2), &t| {
                let (a, b) = (t >= limit_1, t >= limit_0_1);
                (
                    if a { s1 + t } else { s1 },
                    c1 + usize::from(a),
                    if b { s2 + t } else { s2 },
                    c2 + usize::from(b),
                )
            });
        let integral = |share: f64| {
            let goal = share * total;
            let mut sum = 0.0;
            let mut at = asc[0];
            for &t in asc.iter().rev() {
                sum += t;
                at = t;
                if sum >= goal {
                    break;
                }
            }
            1000.0 / at
        };
        let (stuttering, low_fps) = stuttering(ft, total);
        Some(Self {
            average_fps: 1000.0 * ft.len() as f64 / total,
            max_fps: 1000.0 / asc[0],
            min_fps: 1000.0 / asc[asc.len() - 1],
            p99_fps: q(0.99),
            p95_fps: q(0.95),
            median_fps: q(0.5),
            p5_fps: q(0.05),
            p1_fps: q(0.01),
            p0_2_fps: q(0.002),
            p0_1_fps: q(0.001),
            low_1pct_avg_fps: 1000.0 / (sum_1 / count_1 as f64),
            low_0_1pct_avg_fps: 1000.0 / (sum_0_1 / count_0_1 as f64),
            low_1pct_integral_fps: integral(0.01),
            low_0_1pct_integral_fps: integral(0.001),
            stuttering_time_fraction: stuttering,
            low_fps_time_fraction: low_fps,
            gpu_active_deviation_pct: None,
        })
    }
}

/// CapFrameX's stuttering and low-FPS time shares: a window of
/// `s = round(√(mean ft)·10)` frames (half to even); the moving average at `i` is the
/// mean of the `s` frames ending at `i` (fewer at the start), where a frame more than 3×
/// its predecessor counts as its predecessor's value; frame `i` stutters when it is over
/// 2.5× that average. Low-FPS frames are the others under 25 FPS.
fn stuttering(ft: &[f64], total: f64) -> (f64, f64) {
    let window = (mean(total, ft.len()).sqrt() * 10.0).round_ties_even().max(1.0) as usize;
    // Each frame time capped at its predecessor when more than 3 × it, worked out
    // where it is needed (no copy of the series).
    let capped = |i: usize| if i > 0 && ft[i] > 3.0 * ft[i - 1] { ft[i - 1] } else { ft[i] };
    let (mut stutter_ms, mut low_ms, mut sum) = (0.0, 0.0, 0.0);
    for (i, &t) in ft.iter().enumerate() {
        sum += capped(i);
        if i >= window {
            sum -= capped(i - window);
        }
        let average = sum / (i + 1).min(window) as f64;
        if t > 2.5 * average {
            stutter_ms += t;
        } else if 1000.0 / t < 25.0 {
            low_ms += t;
        }
    }
    (stutter_ms / total, low_ms / total)
}

impl FrameView {
    fn of_sorted(ft: &[f64], asc: &[f64], total: f64) -> Option<Self> {
        if ft.is_empty() {
            return None;
        }
        let n = ft.len();
        let slowest = |k: usize| -> f64 { asc[n - k.min(n)..].iter().sum() };
        // FrameView counts ⌊p·n⌋ + 1 frames (at most n) for both kinds of figure.
        let k_of = |p: f64| ((p * n as f64).floor() as usize + 1).min(n);
        let low = |p: f64| {
            let k = k_of(p);
            1000.0 * k as f64 / slowest(k)
        };
        let nth_slowest = |p: f64| 1000.0 / asc[n - k_of(p)];
        Some(Self {
            average_fps: 1000.0 * n as f64 / total,
            low_1pct_fps: low(0.01),
            low_0_1pct_fps: low(0.001),
            fps_10pct: nth_slowest(0.10),
            fps_5pct: nth_slowest(0.05),
            fps_1pct: nth_slowest(0.01),
            fps_0_1pct: nth_slowest(0.001),
            gpu_nv_power_w: None,
            cpu_package_power_w: None,
            perf_per_watt_pcat: None,
        })
    }
}

impl PresentMon {
    fn of_sorted(ft: &[f64], asc: &[f64], total: f64) -> Option<Self> {
        if ft.is_empty() {
            return None;
        }
        Some(Self {
            average_fps: 1000.0 / mean(total, ft.len()),
            p1_fps: 1000.0 / linear(asc, 0.99),
            p5_fps: 1000.0 / linear(asc, 0.95),
            min_fps: 1000.0 / asc[asc.len() - 1],
            max_fps: 1000.0 / asc[0],
        })
    }
}

impl MangoHud {
    fn of_sorted(ft: &[f64], asc: &[f64], total: f64) -> Option<Self> {
        if ft.is_empty() {
            return None;
        }
        let n = ft.len();
        let m = |v: f64| {
            let idx = (v * n as f64 - 1.0).trunc().max(0.0) as usize;
            1000.0 / asc[n - 1 - idx.min(n - 1)]
        };
        Some(Self {
            average_fps: 1000.0 / mean(total, ft.len()),
            low_1pct_fps: m(0.01),
            low_0_1pct_fps: m(0.001),
            p97_fps: m(0.97),
        })
    }
}

impl MangoHud {
    /// The summary of the MangoHud version that wrote the log, for the versions that
    /// summarise their rows by logged `fps` ([`MangoSummary`]); `None` for the others
    /// (their summary is of the frame times, [`MangoHud::of_sorted`]) and when no row
    /// has the values the rule needs.
    #[must_use]
    pub fn of_log(frames: &Frames) -> Option<Self> {
        let (fps, ft) = (&frames.logged_fps, &frames.logged_fps_ft_ms);
        match frames.mangohud_summary {
            MangoSummary::FrameTimeRanks => None,
            MangoSummary::LoggedFpsMeans => Self::of_logged_fps(fps),
            MangoSummary::SlowRowsFrameTimes => Self::of_slow_rows(fps, ft),
            MangoSummary::LoggedFpsRanks => Self::of_fps_ranks(fps, ft),
        }
    }

    /// MangoHud 0.7.x's summary (its `writeSummary` sorts the rows by `fps`
    /// ascending): the lows are `1000 /` the mean `frametime` of the first `⌈p·n⌉`
    /// rows, `p97_fps = 1000 / frametime` of row `⌊0.97·(n − 1)⌋`, the average
    /// `1000 / mean frametime`; on the rows with both values (`frametime` > 0).
    fn of_slow_rows(fps: &[f64], ft: &[f64]) -> Option<Self> {
        let mut rows: Vec<(f64, f64)> =
            fps.iter().zip(ft).filter(|&(r, t)| r.is_finite() && *t > 0.0).map(|(&r, &t)| (r, t)).collect();
        if rows.is_empty() {
            return None;
        }
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        let n = rows.len();
        let low = |per: usize| {
            let k = n.div_ceil(per).clamp(1, n);
            1000.0 / (rows[..k].iter().map(|r| r.1).sum::<f64>() / k as f64)
        };
        let p97 = ((0.97 * (n - 1) as f64).floor() as usize).min(n - 1);
        Some(Self {
            average_fps: 1000.0 / mean(rows.iter().map(|r| r.1).sum(), n),
            low_1pct_fps: low(100),
            low_0_1pct_fps: low(1000),
            p97_fps: 1000.0 / rows[p97].1,
        })
    }

    /// MangoHud 0.8.0–0.8.1's summary (`fpsMetrics` of the logged `fps`): `a` = the
    /// `fps` ascending, each figure `a[max(0, trunc(p·n − 1))]` for p = 0.001, 0.01,
    /// 0.97; the average `1000 / mean frametime`; on the rows with both values.
    fn of_fps_ranks(fps: &[f64], ft: &[f64]) -> Option<Self> {
        let rows: Vec<(f64, f64)> =
            fps.iter().zip(ft).filter(|&(r, t)| r.is_finite() && *t > 0.0).map(|(&r, &t)| (r, t)).collect();
        if rows.is_empty() {
            return None;
        }
        let n = rows.len();
        let a = sorted_ascending(&rows.iter().map(|r| r.0).collect::<Vec<_>>());
        let at = |p: f64| a[((p * n as f64 - 1.0).trunc().max(0.0) as usize).min(n - 1)];
        Some(Self {
            average_fps: 1000.0 / mean(rows.iter().map(|r| r.1).sum(), n),
            low_1pct_fps: at(0.01),
            low_0_1pct_fps: at(0.001),
            p97_fps: at(0.97),
        })
    }

    /// MangoHud 0.6.x's summary (`metrics.md` §11; its `writeSummary` sorts the log's
    /// rows by `fps`): `a` = the logged `fps` values (every row, the first included)
    /// ascending; the 0.1 % and 1 % "min" are the means of the lowest `⌈p·n⌉`,
    /// `p97_fps = a[⌊0.97·(n − 1)⌋]` and the average the plain mean. `None` when
    /// there is no value.
    #[must_use]
    pub fn of_logged_fps(fps: &[f64]) -> Option<Self> {
        if fps.is_empty() {
            return None;
        }
        let a = sorted_ascending(fps);
        let n = a.len();
        // ⌈n / per⌉ of the lowest (MangoHud's float product agrees below ~8 million rows).
        let low = |per: usize| {
            let k = n.div_ceil(per).clamp(1, n);
            a[..k].iter().sum::<f64>() / k as f64
        };
        // MangoHud: `sorted[floor(0.97 * (sorted.size() - 1))]` in double.
        let p97 = ((0.97 * (n - 1) as f64).floor() as usize).min(n - 1);
        Some(Self {
            average_fps: mean(fps.iter().sum(), n),
            low_1pct_fps: low(100),
            low_0_1pct_fps: low(1000),
            p97_fps: a[p97],
        })
    }
}

#[cfg(test)]
mod tests;
