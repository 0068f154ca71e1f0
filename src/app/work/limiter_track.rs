//! Level-of-detail data of the "CPU · GPU" and animation-error rows (`metrics.md` §13),
//! built on the tracks' worker: each frame's CPU busy, GPU busy and CPU interval with
//! their pyramids, the limiter class of each frame as running sums of time per class
//! (kept every `SUM_STEP` (64) frames and continued from there, so any range's shares
//! are two look-ups and at most twice `SUM_STEP` additions), and the signed animation
//! error.

use framescope_core::analysis::percentile_unsorted;
use framescope_core::analysis::{ANIMATION_ERROR_LIMIT_MS, BusyColumns, Class};
use framescope_core::lod::{MaxIndex, SeriesIndex};
use framescope_core::model::{ColumnKind, Trace, Values, ValuesBuilder};

/// Frames between two kept running sums of [`LimiterTrack`].
const SUM_STEP: usize = 64;

/// Each frame's CPU busy, GPU busy and CPU interval, and its class as time sums.
pub struct LimiterTrack {
    /// CPU busy per frame (ms; NaN for an unclassified frame).
    pub cpu_busy: Vec<f64>,
    /// GPU busy per frame.
    pub gpu_busy: Vec<f64>,
    /// The frame's CPU interval `fc` (CPU busy + wait, or an engine's frame time).
    pub fc: Vec<f64>,
    /// Pyramids of `fc`, `cpu_busy`, `gpu_busy`.
    pub index: [SeriesIndex; 3],
    /// `Σ fc` of the classified frames of each class (GPU, CPU, neither) before frame
    /// `k · SUM_STEP`, for every such frame up to `n` (3 bytes a frame in all, not
    /// 24: [`LimiterTrack::sums_before`] continues from the last one).
    checkpoints: Vec<[f64; 3]>,
    /// Each frame's class (`None`: unclassified).
    pub class: Vec<Option<Class>>,
    /// The row's scale: p99 of `fc` · 1.3.
    pub scale_ms: f64,
}

impl LimiterTrack {
    /// The track of a trace with CPU and GPU busy columns (`None` without them).
    #[must_use]
    pub fn new(trace: &Trace) -> Option<Self> {
        let cols = BusyColumns::of(trace)?;
        let n = cols.len();
        let (mut cpu_busy, mut gpu_busy, mut fc, mut class) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut checkpoints = Vec::with_capacity(n / SUM_STEP + 1);
        let mut sums = [0.0; 3];
        for i in 0..n {
            let b = cols.frame(i);
            if i % SUM_STEP == 0 {
                checkpoints.push(sums);
            }
            // Only classified frames are drawn: a generated frame's zeros would pull a
            // zoomed-out column's typical values down.
            let keep = |v: f64| if b.class.is_some() { v } else { f64::NAN };
            if let Some(c) = b.class {
                sums[c as usize] += b.fc_ms;
            }
            cpu_busy.push(keep(b.cpu_busy_ms));
            gpu_busy.push(keep(b.gpu_busy_ms));
            fc.push(keep(b.fc_ms));
            class.push(b.class);
        }
        if n.is_multiple_of(SUM_STEP) {
            checkpoints.push(sums);
        }
        if sums.iter().sum::<f64>() <= 0.0 {
            return None;
        }
        let body = fc.iter().copied().filter(|v| v.is_finite() && *v > 0.0);
        let scale_ms = (percentile_unsorted(body, 0.99) * 1.3).max(1.0);
        let index = [SeriesIndex::new(&fc), SeriesIndex::new(&cpu_busy), SeriesIndex::new(&gpu_busy)];
        Some(Self { cpu_busy, gpu_busy, fc, index, checkpoints, class, scale_ms })
    }

    /// The shares of classified time of frames `range` per class (GPU, CPU, neither);
    /// `None` when none of them is classified.
    #[must_use]
    pub fn shares(&self, range: std::ops::Range<usize>) -> Option<[f64; 3]> {
        let end = range.end.min(self.class.len());
        let start = range.start.min(end);
        let (a, b) = (self.sums_before(start), self.sums_before(end));
        let t: [f64; 3] = std::array::from_fn(|c| b[c] - a[c]);
        let total: f64 = t.iter().sum();
        (total > 0.0).then(|| t.map(|v| v / total))
    }
}

impl LimiterTrack {
    /// `Σ fc` of the classified frames of each class before frame `i` (`i ≤ n`): the
    /// kept sum at or before `i`, continued frame by frame with the same additions in
    /// the same order as the running sum, so bit-identical to it.
    fn sums_before(&self, i: usize) -> [f64; 3] {
        let k = (i / SUM_STEP).min(self.checkpoints.len().saturating_sub(1));
        let mut sums = self.checkpoints.get(k).copied().unwrap_or_default();
        for j in k * SUM_STEP..i {
            if let (Some(Some(c)), Some(&fc)) = (self.class.get(j), self.fc.get(j)) {
                sums[*c as usize] += fc;
            }
        }
        sums
    }
}

/// The signed animation error of every frame, with what a zoomed-out column needs.
pub struct AnimationTrack {
    /// Per frame (ms; NaN where missing or garbage, |v| ≥ 10⁶ ms), stored compactly
    /// (PresentMon's 10⁻⁴ ms steps as `i32`: 4 bytes a frame, not 8; issue 40 item 9).
    /// Read with [`AnimationTrack::at`]: indexing would materialise every frame's f64.
    values: Values,
    /// The typical value and the largest of a range.
    pub index: SeriesIndex,
    /// The most negative value of a range (the largest of `−v`, computed on the fly:
    /// no copy of every frame's, [`AnimationTrack::lowest`]).
    low: MaxIndex,
    /// The row's half-height: p99 of |v| · 1.5 (at least 1 ms).
    pub scale_ms: f64,
    /// (frame time, animation error) of at most [`SCATTER_POINTS`] frames spread
    /// evenly over the trace: the chart of animation error against frame time.
    pub scatter: Vec<[f64; 2]>,
}

/// The most frames the animation-error chart plots.
pub const SCATTER_POINTS: usize = 6000;

impl AnimationTrack {
    /// The track of a trace with an animation-error column holding a value.
    #[must_use]
    pub fn new(trace: &Trace) -> Option<Self> {
        let column = trace.column(ColumnKind::AnimationError)?;
        let mut kept = ValuesBuilder::default();
        kept.extend(
            column.values.iter().map(|v| if v.abs() < ANIMATION_ERROR_LIMIT_MS { v } else { f64::NAN }),
        );
        let values = kept.finish();
        let abs = values.iter().filter(|v| v.is_finite()).map(f64::abs);
        abs.clone().next()?;
        let scale_ms = (percentile_unsorted(abs, 0.99) * 1.5).max(1.0);
        let step = values.len().div_ceil(SCATTER_POINTS).max(1);
        let ft = &trace.frames.frame_time_ms;
        let scatter = (0..values.len())
            .step_by(step)
            .filter(|&i| values.at(i).is_finite() && ft.get(i).is_some_and(|&t| t > 0.0))
            .map(|i| [ft[i], values.at(i)])
            .collect();
        let n = values.len();
        let (index, low) =
            (SeriesIndex::from_fn(n, |i| values.at(i)), MaxIndex::from_fn(n, |i| -values.at(i)));
        Some(Self { values, index, low, scale_ms, scatter })
    }

    /// The frame of the most negative value in `range` (the first on ties); `None`
    /// for an empty range.
    #[must_use]
    pub fn lowest(&self, range: std::ops::Range<usize>) -> Option<usize> {
        self.low.argmax_by(self.values.len(), |i| -self.values.at(i), range)
    }

    /// The value of frame `i` (NaN where missing, or past the end).
    #[must_use]
    pub fn at(&self, i: usize) -> f64 {
        self.values.get(i).unwrap_or(f64::NAN)
    }

    /// The number of frames.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True for a track of no frames.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The frame of the largest value in `range` (the first on ties).
    #[must_use]
    pub fn highest(&self, range: std::ops::Range<usize>) -> Option<usize> {
        self.index.max.argmax_by(self.values.len(), |i| self.values.at(i), range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(csv: &str) -> Trace {
        let c = framescope_core::ingest::load_bytes(
            std::path::Path::new("t.csv"),
            csv.as_bytes(),
            framescope_core::ingest::LoadOptions::default(),
        );
        c.unwrap_or_else(|e| panic!("{e}")).traces.remove(0)
    }

    #[test]
    fn shares_of_a_range_come_from_the_running_sums() {
        // fc 10 GPU (GPU 9), fc 10 CPU (CPU 9.5), fc 20 neither (CPU 5, GPU 5).
        let t = trace(
            "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsCPUWait,MsGPUBusy,MsAnimationError\n\
             g.exe,1,0x1,10,5,5,9,0.5\ng.exe,1,0x1,10,9.5,0.5,2,-2\ng.exe,1,0x1,20,5,15,5,1e16\n",
        );
        let l = LimiterTrack::new(&t).expect("track");
        assert_eq!(l.class, [Some(Class::Gpu), Some(Class::Cpu), Some(Class::Neither)]);
        assert_eq!(l.shares(0..3), Some([0.25, 0.25, 0.5]));
        assert_eq!(l.shares(1..2), Some([0.0, 1.0, 0.0]));
        let a = AnimationTrack::new(&t).expect("animation");
        assert_eq!(a.values[..2], [0.5, -2.0]);
        assert!(a.values[2].is_nan(), "garbage is no value");
        // The most negative frame: −2 (frame 1) over all three; frame 0 alone; none
        // in an empty range.
        assert_eq!((a.lowest(0..3), a.lowest(0..1), a.lowest(2..2)), (Some(1), Some(0), None));
        assert_eq!(a.scatter, [[10.0, 0.5], [10.0, -2.0]], "(frame time, error) of frames with a value");
    }

    /// The shares read from sums kept every `SUM_STEP` frames are bit-identical to
    /// those of a running sum kept at every frame (what the track stored before), over
    /// ranges that start and end on and off the kept frames.
    #[test]
    fn kept_sums_give_the_running_sums_shares_exactly() {
        use std::fmt::Write as _;
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsCPUWait,MsGPUBusy\n",
        );
        for i in 0..300u32 {
            // GPU-limited, CPU-limited and neither, with fc not multiples of each other.
            let (cpu, wait, gpu) = match i % 3 {
                0 => (3.1, 7.3, 9.9),
                1 => (9.7, 0.3 + f64::from(i % 7) / 10.0, 2.0),
                _ => (2.5, 11.0 + f64::from(i % 5) / 3.0, 4.0),
            };
            let _ = writeln!(csv, "g.exe,1,0x1,10,{cpu},{wait},{gpu}");
        }
        let l = LimiterTrack::new(&trace(&csv)).expect("track");
        let n = l.class.len();
        assert_eq!(n, 300);
        let mut running = vec![[0.0; 3]];
        for i in 0..n {
            let mut s = running[i];
            if let Some(c) = l.class[i] {
                s[c as usize] += l.fc[i];
            }
            running.push(s);
        }
        for (a, b) in [(0, 300), (1, 299), (63, 65), (64, 128), (5, 6), (100, 257), (256, 300), (299, 300)] {
            let t: [f64; 3] = std::array::from_fn(|c| running[b][c] - running[a][c]);
            let total: f64 = t.iter().sum();
            let want = t.map(|v| v / total);
            let got = l.shares(a..b).expect("classified");
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{a}..{b}");
        }
        assert_eq!(l.shares(300..300), None);
    }
}
