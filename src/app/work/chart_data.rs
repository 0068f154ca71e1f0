//! Chart data: everything the distribution charts show, prepared once per analysed
//! series off the UI thread — the percentile curve, the slow-time and excess-time
//! curves on a grid of target rates, and frame-time histograms on "nice" bin grids.
//! Pure and egui-free (the window's background work builds it, and the session keeps
//! it with a run's figures); the charts module only draws it.

use framescope_core::analysis::{SlowTimeCurve, percentile};
use framescope_core::presentation::{fps_grid, percentile_grid};
use std::sync::Arc;

/// A point of a chart's curve, in the chart's units (egui-free: the plots convert).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Horizontal value.
    pub x: f64,
    /// Vertical value.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    #[must_use]
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
}

/// Highest target rate on the pacing chart, as in the headline scan.
pub(crate) const MAX_FPS: f64 = 1000.0;
/// Most regular histogram bins; the automatic width keeps 60–120 of them.
const MAX_BINS: f64 = 120.0;

/// Chart data prepared once per analysed series, off the UI thread; drawing only reads it.
#[derive(Debug, Clone)]
pub struct ChartData {
    /// `(percentile in %, frame time in ms)`, percentile ascending, ending at 100 %.
    pub(crate) percentile_ms: Vec<Point>,
    /// `(F, 100 · S(F))` on [`fps_grid`](framescope_core::presentation::fps_grid).
    pub(crate) slow_pct: Vec<Point>,
    /// `(F, 100 · E(F))` on [`fps_grid`](framescope_core::presentation::fps_grid).
    pub(crate) excess_pct: Vec<Point>,
    /// Right end of the pacing chart before the user's target widens it.
    pub(crate) fps_view_max: f64,
    /// The run's own bins, drawn by the charts module's `charts_ui`.
    pub(crate) histogram: Histogram,
    /// The frame times, ascending, for re-binning onto a grid shared with other runs.
    sorted_ms: SortedMs,
}

/// Frame times in ascending order, shared so that cloning [`ChartData`] stays cheap.
#[derive(Clone, Default)]
struct SortedMs(Arc<[f64]>);

impl std::fmt::Debug for SortedMs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SortedMs({} frames)", self.0.len())
    }
}

/// Equal bins of `bin_ms` from `start_ms`: bin `i` holds `[start + i·w, start + (i+1)·w)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BinGrid {
    start_ms: f64,
    bin_ms: f64,
    bins: usize,
}

/// Frame counts in equal bins from `start_ms`, plus the frames past the last bin.
#[derive(Debug, Clone, Default)]
pub(crate) struct Histogram {
    /// Left edge of the first bin.
    pub(crate) start_ms: f64,
    /// Width of every bin.
    pub(crate) bin_ms: f64,
    /// Frames per bin.
    pub(crate) counts: Vec<u64>,
    /// Frames at or past the end of the last bin.
    pub(crate) overflow: u64,
}

impl ChartData {
    /// Prepares every chart from a frame-time series (ms, all finite and > 0) and its
    /// slow-time curve (None when the series is empty).
    #[must_use]
    pub fn new(frame_time_ms: &[f64], curve: Option<&SlowTimeCurve>) -> Self {
        let mut sorted = frame_time_ms.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        Self::from_sorted(&sorted, curve)
    }

    /// [`ChartData::new`] from a slow-time curve, sharing its sorted series.
    #[must_use]
    pub fn from_curve(curve: &SlowTimeCurve) -> Self {
        Self::from_shared(&curve.ascending_shared(), Some(curve))
    }

    /// [`ChartData::new`] of frame times already sorted ascending.
    #[must_use]
    pub fn from_sorted(sorted: &[f64], curve: Option<&SlowTimeCurve>) -> Self {
        Self::from_shared(&sorted.into(), curve)
    }

    fn from_shared(shared: &Arc<[f64]>, curve: Option<&SlowTimeCurve>) -> Self {
        let sorted: &[f64] = shared;
        let percentile_ms = if sorted.is_empty() {
            Vec::new()
        } else {
            percentile_grid()
                .map(|k| Point::new(f64::from(k) / 1e4, percentile(sorted, f64::from(k) / 1e6)))
                .collect()
        };
        // Every rate of the grid in one pass over the series (no running sums kept).
        let (slow_pct, excess_pct) = curve
            .map(|c| {
                let grid: Vec<f64> = fps_grid().collect();
                grid.iter()
                    .zip(c.at_each(&grid))
                    .map(|(&f, (s, e))| (Point::new(f, 100.0 * s), Point::new(f, 100.0 * e)))
                    .unzip()
            })
            .unwrap_or_default();
        // 1.5 × the rate of the fastest 0.1 % of frames: past it S(F) is 100 %. The
        // 0.1th percentile, not the minimum, so one stray tiny interval cannot squash
        // the interesting range into the left edge.
        let fastest_ms = percentile(sorted, 0.001);
        let fps_view_max =
            if fastest_ms > 0.0 { (1.5 * 1000.0 / fastest_ms).clamp(10.0, MAX_FPS) } else { MAX_FPS };
        let histogram = Histogram::new(sorted);
        let sorted_ms = SortedMs(Arc::clone(shared));

        Self { percentile_ms, slow_pct, excess_pct, fps_view_max, histogram, sorted_ms }
    }

    /// True when there is nothing to draw.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.percentile_ms.is_empty()
    }

    /// The fastest frame and the 99.9th percentile (ms): the span the bins cover.
    fn bin_span(&self) -> Option<(f64, f64)> {
        let sorted = &self.sorted_ms.0;
        sorted.first().map(|&min| (min, percentile(sorted, 0.999)))
    }

    /// The percentile curve's frame time at percentile `p` (in %), interpolated between
    /// its samples; `None` outside 0..=100 or without frames.
    #[must_use]
    pub fn percentile_at(&self, p: f64) -> Option<f64> {
        interpolate(&self.percentile_ms, p)
    }

    /// S(F) and E(F) in % at target rate `fps`, interpolated on the chart's grid.
    #[must_use]
    pub(crate) fn pacing_at(&self, fps: f64) -> Option<(f64, f64)> {
        Some((interpolate(&self.slow_pct, fps)?, interpolate(&self.excess_pct, fps)?))
    }

    /// This run's frames counted on `grid`: O(bins · log frames).
    pub(crate) fn rebin(&self, grid: BinGrid) -> Histogram {
        Histogram::on_grid(&self.sorted_ms.0, grid)
    }
}

/// The y of an x-ascending polyline at `x` (linear between samples); `None` outside it.
fn interpolate(points: &[Point], x: f64) -> Option<f64> {
    let (first, last) = (points.first()?, points.last()?);
    if !(first.x..=last.x).contains(&x) {
        return None;
    }
    let k = points.partition_point(|p| p.x < x);
    let b = points[k.min(points.len() - 1)];
    if k == 0 || b.x <= x {
        return Some(b.y);
    }
    let a = points[k - 1];
    Some(a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
}

/// Smallest width of the form {1, 2, 2.5, 5} · 10^k that is at least `raw`.
fn nice_width(raw: f64) -> f64 {
    let decade = 10_f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 2.5, 5.0].into_iter().map(|m| m * decade).find(|&w| w >= raw).unwrap_or(10.0 * decade)
}

impl BinGrid {
    /// Bins of a "nice" width giving 60–120 bins from `min_ms` to `top_ms`, aligned to
    /// multiples of the width (at most 2 · [`MAX_BINS`]).
    fn covering(min_ms: f64, top_ms: f64) -> Self {
        let span = top_ms - min_ms;
        let raw = if span > 0.0 { span / MAX_BINS } else { min_ms / 50.0 };
        let bin_ms = Some(nice_width(raw)).filter(|w| w.is_finite() && *w > 0.0).unwrap_or(1.0);
        let start_ms = (min_ms / bin_ms).floor() * bin_ms;
        let bins = (((top_ms - start_ms) / bin_ms).floor() as usize + 1).min(2 * MAX_BINS as usize);
        Self { start_ms, bin_ms, bins }
    }

    /// One grid for several runs: from the fastest frame of any run to the highest
    /// 99.9th percentile of any; `None` when no run has frames.
    pub(crate) fn shared<'a>(runs: impl IntoIterator<Item = &'a ChartData>) -> Option<Self> {
        let (min, top) = runs
            .into_iter()
            .filter_map(ChartData::bin_span)
            .reduce(|(a_min, a_top), (b_min, b_top)| (a_min.min(b_min), a_top.max(b_top)))?;
        Some(Self::covering(min, top))
    }

    /// Left edge of bin `i` (the right edge of bin `i − 1`).
    fn edge(self, i: usize) -> f64 {
        self.start_ms + i as f64 * self.bin_ms
    }
}

impl Histogram {
    /// Bins of a "nice" width giving 60–120 bins from the fastest frame to the 99.9th
    /// percentile, aligned to multiples of the width; slower frames go to `overflow`.
    fn new(sorted: &[f64]) -> Self {
        let Some(&min) = sorted.first() else { return Self::default() };
        Self::on_grid(sorted, BinGrid::covering(min, percentile(sorted, 0.999)))
    }

    /// Counts ascending `sorted` on `grid` by binary search of each bin edge, so every
    /// frame is counted once: frames below the grid go to the first bin (a rounding
    /// slip), frames at or past its end to `overflow`.
    fn on_grid(sorted: &[f64], grid: BinGrid) -> Self {
        let mut counts = Vec::with_capacity(grid.bins);
        let mut below = 0;
        for i in 1..=grid.bins {
            let edge = grid.edge(i);
            let upto = below + sorted[below..].partition_point(|&v| v < edge);
            counts.push((upto - below) as u64);
            below = upto;
        }
        let overflow = (sorted.len() - below) as u64;
        Self { start_ms: grid.start_ms, bin_ms: grid.bin_ms, counts, overflow }
    }

    /// The bin holding `ms`: its edges and count; `None` outside the bins.
    #[must_use]
    pub(crate) fn bin_at(&self, ms: f64) -> Option<(f64, f64, u64)> {
        if self.bin_ms.is_nan() || self.bin_ms <= 0.0 || ms < self.start_ms {
            return None;
        }
        let i = ((ms - self.start_ms) / self.bin_ms).floor() as usize;
        let count = *self.counts.get(i)?;
        let lo = self.start_ms + i as f64 * self.bin_ms;
        Some((lo, lo + self.bin_ms, count))
    }

    /// Upper edge of the last regular bin: the overflow bin holds frames at or past it.
    pub(crate) fn end_ms(&self) -> f64 {
        self.start_ms + self.counts.len() as f64 * self.bin_ms
    }

    /// Outline of the bins from the first to the last non-empty one, down to 0 at both
    /// ends: `(e₀, 0)`, then `(left, n)` at odd and `(right, n)` at even indices.
    pub(crate) fn step_points(&self) -> Vec<Point> {
        let first = self.counts.iter().position(|&c| c > 0);
        let last = self.counts.iter().rposition(|&c| c > 0);
        let (Some(first), Some(last)) = (first, last) else { return Vec::new() };
        let edge = |i: usize| self.start_ms + i as f64 * self.bin_ms;
        let mut points = Vec::with_capacity(2 * (last - first) + 4);
        points.push(Point::new(edge(first), 0.0));
        for (i, &c) in self.counts.iter().enumerate().take(last + 1).skip(first) {
            points.push(Point::new(edge(i), c as f64));
            points.push(Point::new(edge(i + 1), c as f64));
        }
        points.push(Point::new(edge(last + 1), 0.0));
        points
    }
}

/// Series and helpers the tests of chart data and of the charts share.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::ChartData;
    use framescope_core::analysis::SlowTimeCurve;

    /// A 60 FPS-ish run: 15.5–20.45 ms with an 80 ms hitch every 997 frames.
    pub(crate) fn series(n: usize) -> Vec<f64> {
        (0..n).map(|i| if i % 997 == 500 { 80.0 } else { 15.5 + ((i * 7919) % 100) as f64 * 0.05 }).collect()
    }

    pub(crate) fn prepared(ft: &[f64]) -> ChartData {
        ChartData::new(ft, SlowTimeCurve::new(ft).as_ref())
    }

    pub(crate) fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    /// Three runs over different ranges: a 60 FPS-ish one, a faster one, a slower one
    /// with long hitches.
    pub(crate) fn three_runs() -> [Vec<f64>; 3] {
        let fast: Vec<f64> = (0..7_000).map(|i| 6.0 + f64::from((i * 31) % 50) * 0.04).collect();
        let slow: Vec<f64> = (0..3_000)
            .map(|i| if i % 1000 == 7 { 250.0 } else { 28.0 + f64::from((i * 13) % 70) * 0.1 })
            .collect();
        [series(10_000), fast, slow]
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{close, prepared, series, three_runs};
    use super::*;

    #[test]
    fn histogram_counts_every_frame() {
        for ft in [series(10_000), vec![16.7; 50], vec![3.0], vec![1.0, 1000.0]] {
            let h = prepared(&ft).histogram;
            let total: u64 = h.counts.iter().sum::<u64>() + h.overflow;
            assert_eq!(total, ft.len() as u64);
            assert!(h.counts.len() <= 2 * MAX_BINS as usize && h.bin_ms > 0.0);
        }
        let h = prepared(&series(10_000)).histogram;
        assert!((60..=122).contains(&h.counts.len()), "{} bins", h.counts.len());
        assert_eq!(h.overflow, 10, "the ten 80 ms hitches lie past the 99.9th percentile");
        assert!(h.end_ms() <= 80.0);
        // All frames alike: one bin, nothing past it.
        let h = prepared(&[16.7; 50]).histogram;
        assert_eq!((h.counts.iter().filter(|&&c| c > 0).count(), h.overflow), (1, 0));
        for (raw, want) in [(0.03, 0.05), (1.0, 1.0), (1.01, 2.0), (2.2, 2.5), (3.0, 5.0), (7.0, 10.0)] {
            assert!(close(nice_width(raw), want), "{raw} -> {}", nice_width(raw));
        }
    }

    #[test]
    fn percentile_curve_rises_to_the_slowest_frame() {
        let ft = series(10_000);
        let data = prepared(&ft);
        let pts = &data.percentile_ms;
        assert_eq!(pts.len(), 461);
        assert!(pts.windows(2).all(|w| w[0].x < w[1].x && w[0].y <= w[1].y));
        let (first, last) = (pts[0], pts[pts.len() - 1]);
        assert!(close(first.x, 0.0) && close(first.y, 15.5));
        assert!(close(last.x, 100.0) && last.y.total_cmp(&80.0).is_eq());
        let mut sorted = ft.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let p99 = pts.iter().find(|p| close(p.x, 99.0)).map(|p| p.y);
        assert_eq!(p99.map(f64::to_bits), Some(percentile(&sorted, 0.99).to_bits()));
    }

    #[test]
    fn pacing_curves_follow_the_slow_time_curve() {
        let ft = series(10_000);
        let curve = SlowTimeCurve::new(&ft).unwrap_or_else(|| unreachable!());
        let data = ChartData::new(&ft, Some(&curve));
        assert_eq!((data.slow_pct.len(), data.excess_pct.len()), (470, 470));
        for (s, e) in data.slow_pct.iter().zip(&data.excess_pct) {
            assert!(s.x.total_cmp(&e.x).is_eq());
            let (want_s, want_e) = curve.at(s.x);
            assert!(close(s.y, 100.0 * want_s) && close(e.y, 100.0 * want_e), "at {} FPS", s.x);
        }
        let at = |f: f64| data.slow_pct.iter().find(|p| close(p.x, f)).map(|p| p.y);
        assert!(at(60.0).is_some() && at(144.0).is_some() && at(1000.0).is_some());
        // Fastest 0.1 % ≈ 15.5 ms: the view ends near 1.5 · 64.5 FPS, where S is 100 %.
        assert!((90.0..=100.0).contains(&data.fps_view_max), "{}", data.fps_view_max);
        assert!(close(data.slow_pct.iter().rfind(|p| p.x <= data.fps_view_max).map_or(0.0, |p| p.y), 100.0));
    }

    #[test]
    fn rebinning_onto_a_shared_grid_counts_every_frame() {
        let runs = three_runs();
        let data: Vec<ChartData> = runs.iter().map(|ft| prepared(ft)).collect();
        let grid = BinGrid::shared(&data).unwrap_or_else(|| unreachable!());
        assert!(grid.bin_ms > 0.0 && (1..=2 * MAX_BINS as usize).contains(&grid.bins), "{grid:?}");
        for (ft, d) in runs.iter().zip(&data) {
            let h = d.rebin(grid);
            assert_eq!(h.counts.len(), grid.bins);
            assert_eq!(h.counts.iter().sum::<u64>() + h.overflow, ft.len() as u64);
            // Every bin holds exactly the frames in [left, right); the last bin ends the grid.
            let min = ft.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(grid.start_ms <= min);
            for (i, &c) in h.counts.iter().enumerate() {
                let (lo, hi) = (grid.edge(i), grid.edge(i + 1));
                let want = ft.iter().filter(|&&v| (i == 0 || v >= lo) && v < hi).count() as u64;
                assert_eq!(c, want, "bin {i} [{lo}, {hi})");
            }
            assert_eq!(h.overflow, ft.iter().filter(|&&v| v >= h.end_ms()).count() as u64);
        }
        // The grid spans the fastest 6 ms run to the slow run's 99.9th percentile; the
        // three 250 ms hitches of the slow run (0.1 %) lie past it.
        assert!(
            grid.start_ms <= 6.0 && grid.edge(grid.bins) > 34.9 && grid.edge(grid.bins) < 250.0,
            "{grid:?}"
        );
        assert_eq!(data[2].rebin(grid).overflow, 3);
        // One run on its own grid: the same bins as its one-run histogram.
        let own = BinGrid::shared([&data[0]]).unwrap_or_else(|| unreachable!());
        let (h, rebinned) = (&data[0].histogram, data[0].rebin(own));
        assert_eq!((&h.counts, h.overflow), (&rebinned.counts, rebinned.overflow));
        assert!(BinGrid::shared([&ChartData::new(&[], None)]).is_none());
    }

    #[test]
    fn curves_read_at_any_x() {
        let ft = series(10_000);
        let data = prepared(&ft);
        let mut sorted = ft.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        // On a sample exactly; between samples linearly; outside nothing.
        let p90 = data.percentile_at(90.0).unwrap_or_default();
        assert!(close(p90, percentile(&sorted, 0.9)), "{p90}");
        let between = data.percentile_at(34.5).unwrap_or_default();
        let (a, b) = (percentile(&sorted, 0.34), percentile(&sorted, 0.35));
        assert!(between >= a && between <= b, "{a} {between} {b}");
        assert_eq!(data.percentile_at(100.5), None);
        let (s60, e60) = data.pacing_at(60.0).unwrap_or_default();
        let at = |c: &[Point]| c.iter().find(|p| close(p.x, 60.0)).map_or(f64::NAN, |p| p.y);
        assert!(close(s60, at(&data.slow_pct)) && close(e60, at(&data.excess_pct)));
        let h = &data.histogram;
        let (lo, hi, n) = h.bin_at(h.start_ms + 2.5 * h.bin_ms).unwrap_or_default();
        assert!(close(lo, h.start_ms + 2.0 * h.bin_ms) && close(hi - lo, h.bin_ms) && n == h.counts[2]);
        assert_eq!(h.bin_at(h.start_ms - 1.0), None);
    }

    #[test]
    fn step_line_outlines_the_bins() {
        let h = Histogram { start_ms: 10.0, bin_ms: 0.5, counts: vec![0, 3, 0, 5, 0, 0], overflow: 2 };
        let xy: Vec<(f64, f64)> = h.step_points().iter().map(|p| (p.x, p.y)).collect();
        let want = [
            (10.5, 0.0),
            (10.5, 3.0),
            (11.0, 3.0),
            (11.0, 0.0),
            (11.5, 0.0),
            (11.5, 5.0),
            (12.0, 5.0),
            (12.0, 0.0),
        ];
        assert_eq!(xy.len(), want.len());
        assert!(xy.iter().zip(want).all(|(a, b)| close(a.0, b.0) && close(a.1, b.1)), "{xy:?}");
        assert!(Histogram { counts: vec![0, 0], ..h }.step_points().is_empty());
    }
}
