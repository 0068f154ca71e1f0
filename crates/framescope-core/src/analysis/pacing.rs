//! Pacing figures from SuperTuxKart 1.5's benchmark (`metrics.md` §3): Steady, Mostly
//! Steady and Typical FPS, and the slow-time and excess-time curves S(F), E(F).

use serde::Serialize;

/// The highest integer rate the headline figures scan.
pub const MAX_ANALYZED_FPS: u32 = 1000;

/// Pacing figures of a series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pacing {
    /// Highest F with S(F) < 1 % and E(F) < 0.1 % (0 if none).
    pub steady_fps: u32,
    /// Highest F with S(F) < 12 % and E(F) < 2 %.
    pub mostly_steady_fps: u32,
    /// Highest F with S(F) < 50 % and E(F) < 10 %.
    pub typical_fps: u32,
    /// S at the user's target rate (f64).
    pub slow_time_fraction: f64,
    /// E at the user's target rate (f64).
    pub excess_time_fraction: f64,
}

impl Pacing {
    /// Computes the pacing figures; `None` when the series has no time.
    #[must_use]
    pub fn of(frame_time_ms: &[f64], target_fps: f64) -> Option<Self> {
        let (steady_fps, mostly_steady_fps, typical_fps) = headline_fps(frame_time_ms)?;
        let mut sorted = frame_time_ms.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        let curve = SlowTimeCurve::from_sorted(&sorted, frame_time_ms.iter().sum())?;
        let (slow_time_fraction, excess_time_fraction) = curve.at(target_fps);
        Some(Self { steady_fps, mostly_steady_fps, typical_fps, slow_time_fraction, excess_time_fraction })
    }
}

/// A frame time truncated to whole microseconds, as SuperTuxKart's profiler stores it
/// (`int(ms * 1000)`). The truncation follows the decimal value: `1.005 ms` is 1005 µs
/// even though `1.005 * 1000` is 1004.999… in binary floating point.
#[must_use]
pub fn whole_microseconds(frame_time_ms: f64) -> u64 {
    let us = frame_time_ms * 1000.0;
    // For a positive value the cast truncates, which is the floor (and no libm call).
    if us.is_finite() && us > 0.0 { (us + 1e-6) as u64 } else { 0 }
}

/// Steady, Mostly Steady and Typical FPS exactly as `Profiler::computeStableFPS()`:
/// integer-µs frame times (those that truncate to 0 add nothing), integer budgets
/// `1_000_000 / F`, ratios in 32-bit float, strict comparisons. `None` when the total
/// time is 0.
#[must_use]
pub fn headline_fps(frame_time_ms: &[f64]) -> Option<(u32, u32, u32)> {
    let mut sorted = frame_time_ms.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    headline_fps_sorted(&sorted)
}

/// [`headline_fps`] of frame times already sorted ascending (truncation to whole
/// microseconds keeps the order).
#[must_use]
pub fn headline_fps_sorted(sorted_ms: &[f64]) -> Option<(u32, u32, u32)> {
    // The µs values are read as they are needed, slowest first: no copy of the series.
    headline_fps_iter(sorted_ms.iter().rev().map(|&ft| whole_microseconds(ft)).filter(|&v| v > 0))
}

/// [`headline_fps`] of whole-microsecond frame times sorted descending.
#[cfg(test)]
fn headline_fps_us(descending_us: &[u64]) -> Option<(u32, u32, u32)> {
    headline_fps_iter(descending_us.iter().copied())
}

/// The headline figures from whole-µs frame times, slowest first, in one pass: the
/// walk down the budgets notes the time spent in slow frames and their count at each
/// rate, the frames faster than every budget complete the total, and the ratios are
/// then taken. Sums are `u128`: a long capture of huge frame times cannot wrap them (a
/// `u64` would after 1.8·10¹³ s of frames, which a hostile file can reach).
fn headline_fps_iter(descending_us: impl Iterator<Item = u64>) -> Option<(u32, u32, u32)> {
    let mut descending_us = descending_us.peekable();
    // Budgets shrink as F grows, so the slow frames are a growing prefix.
    let (mut slow, mut spent) = (0usize, 0u128);
    let mut at_rate = Vec::with_capacity(MAX_ANALYZED_FPS as usize);
    for fps in 1..=MAX_ANALYZED_FPS {
        let budget = 1_000_000 / u64::from(fps);
        while let Some(v) = descending_us.next_if(|&v| v > budget) {
            spent += u128::from(v);
            slow += 1;
        }
        at_rate.push((fps, budget, spent, slow));
    }
    let total: u128 = spent + descending_us.map(u128::from).sum::<u128>();
    if total == 0 {
        return None;
    }
    let (mut steady, mut mostly, mut typical) = (0, 0, 0);
    for (fps, budget, spent, slow) in at_rate {
        let waited = spent - slow as u128 * u128::from(budget);
        let ratio_spent = spent as f32 / total as f32;
        let ratio_waited = waited as f32 / total as f32;
        if ratio_spent < 0.5 && ratio_waited < 0.1 {
            typical = fps;
        }
        if ratio_spent < 0.12 && ratio_waited < 0.02 {
            mostly = fps;
        }
        if ratio_spent < 0.01 && ratio_waited < 0.001 {
            steady = fps;
        }
    }
    Some((steady, mostly, typical))
}

/// Slow-time and excess-time fractions at any target rate (`metrics.md` §3), from
/// the sorted series and the sums of its slowest frames.
#[derive(Debug, Clone)]
pub struct SlowTimeCurve {
    /// The frame times, ascending (shared with the summary, the conventions and the
    /// window's charts).
    ascending_ms: std::sync::Arc<[f64]>,
    /// `slowest_ms[k]`: the sum of the `k` slowest frame times, added slowest first;
    /// built on the first [`SlowTimeCurve::sums`] (a report asks for one target and
    /// sums only its slow frames; charts ask for many).
    slowest_ms: std::sync::OnceLock<Vec<f64>>,
    total_ms: f64,
}

impl SlowTimeCurve {
    /// The curve of a series (sorted here).
    #[must_use]
    pub fn new(frame_time_ms: &[f64]) -> Option<Self> {
        let mut sorted = frame_time_ms.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        Self::from_sorted_vec(sorted, frame_time_ms.iter().sum())
    }

    /// The curve of an ascending series whose sum is `total_ms`.
    #[must_use]
    pub fn from_sorted(sorted_ms: &[f64], total_ms: f64) -> Option<Self> {
        Self::from_sorted_vec(sorted_ms.to_vec(), total_ms)
    }

    /// [`SlowTimeCurve::from_sorted`], keeping the sorted series without a copy.
    #[must_use]
    pub fn from_sorted_vec(ascending_ms: Vec<f64>, total_ms: f64) -> Option<Self> {
        (total_ms > 0.0).then(|| Self {
            ascending_ms: ascending_ms.into(),
            slowest_ms: std::sync::OnceLock::new(),
            total_ms,
        })
    }

    /// [`SlowTimeCurve::from_sorted`] of a series already shared, kept as it is.
    #[must_use]
    pub fn from_sorted_shared(ascending_ms: std::sync::Arc<[f64]>, total_ms: f64) -> Option<Self> {
        (total_ms > 0.0).then(|| Self { ascending_ms, slowest_ms: std::sync::OnceLock::new(), total_ms })
    }

    /// The series, ascending.
    #[must_use]
    pub fn ascending_ms(&self) -> &[f64] {
        &self.ascending_ms
    }

    /// Builds the running sums of the slowest frames, so that every later
    /// [`SlowTimeCurve::at`] is a binary search (for callers that ask for many rates).
    pub fn sums(&self) {
        self.slowest_ms.get_or_init(|| {
            let mut sums = Vec::with_capacity(self.ascending_ms.len() + 1);
            let mut acc = 0.0;
            sums.push(acc);
            for &v in self.ascending_ms.iter().rev() {
                acc += v;
                sums.push(acc);
            }
            sums
        });
    }

    /// The series, ascending, shared (no copy).
    #[must_use]
    pub fn ascending_shared(&self) -> std::sync::Arc<[f64]> {
        std::sync::Arc::clone(&self.ascending_ms)
    }

    /// (slow-time fraction, excess-time fraction) at `fps`.
    #[must_use]
    pub fn at(&self, fps: f64) -> (f64, f64) {
        let budget = 1000.0 / fps;
        let slow = self.slow_count(budget);
        let spent = match self.slowest_ms.get() {
            Some(sums) => sums[slow],
            // The same additions in the same order as the sums would hold.
            None => self.ascending_ms.iter().rev().take(slow).fold(0.0, |acc, &v| acc + v),
        };
        self.fractions(budget, slow, spent)
    }

    /// [`SlowTimeCurve::at`] at every rate of `fps`, bit-identical, in one pass over
    /// the series without the running sums [`SlowTimeCurve::sums`] keeps (8 bytes a
    /// frame): what a chart over a grid of rates needs once.
    #[must_use]
    pub fn at_each(&self, fps: &[f64]) -> Vec<(f64, f64)> {
        if self.slowest_ms.get().is_some() {
            return fps.iter().map(|&f| self.at(f)).collect();
        }
        let slow: Vec<usize> = fps.iter().map(|&f| self.slow_count(1000.0 / f)).collect();
        let mut order: Vec<usize> = (0..fps.len()).collect();
        order.sort_by_key(|&j| slow[j]);
        let mut spent = vec![0.0; fps.len()];
        let (mut acc, mut taken) = (0.0, 0);
        let mut slowest_first = self.ascending_ms.iter().rev();
        for j in order {
            // The sums' additions, slowest first, up to this rate's slow frames.
            for &v in slowest_first.by_ref().take(slow[j] - taken) {
                acc += v;
            }
            taken = slow[j];
            spent[j] = acc;
        }
        (0..fps.len()).map(|j| self.fractions(1000.0 / fps[j], slow[j], spent[j])).collect()
    }

    /// How many frames are slower than `budget`.
    fn slow_count(&self, budget: f64) -> usize {
        self.ascending_ms.len() - self.ascending_ms.partition_point(|&v| v <= budget)
    }

    /// (slow-time fraction, excess-time fraction) of `slow` frames taking `spent` ms.
    fn fractions(&self, budget: f64, slow: usize, spent: f64) -> (f64, f64) {
        let excess = spent - slow as f64 * budget;
        (spent / self.total_ms, excess.max(0.0) / self.total_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four frames of 2^62 µs sum to 2^64, one past `u64::MAX`: a `u64` total wraps to
    /// 0 (no figures) or, in release builds, gives nonsense. Every frame is slower than
    /// any budget, so S(F) = 1 and no F passes: all three figures are 0.
    #[test]
    fn huge_sums_do_not_wrap() {
        let us = [1u64 << 62; 4];
        assert_eq!(headline_fps_us(&us), Some((0, 0, 0)));
        // The same shape at a sane scale gives the same answer.
        assert_eq!(headline_fps_us(&[2_000_000; 4]), Some((0, 0, 0)));
        // 10 ms frames: at F = 100 the budget is 10 000 µs and 10 000 > 10 000 is false
        // (strict), so F = 100 passes; at F = 101 (budget 9 900) every frame is slow.
        assert_eq!(headline_fps_us(&[10_000; 4]), Some((100, 100, 100)));
    }

    /// The one-pass figures are those of the former two passes (the total first, then
    /// the walk with the ratios at each rate), on series of varied spread, with frames
    /// faster than every budget, and empty.
    #[test]
    fn one_pass_matches_total_then_walk() {
        fn two_passes(descending_us: &[u64]) -> Option<(u32, u32, u32)> {
            let total: u128 = descending_us.iter().map(|&v| u128::from(v)).sum();
            if total == 0 {
                return None;
            }
            let mut it = descending_us.iter().copied().peekable();
            let (mut steady, mut mostly, mut typical) = (0, 0, 0);
            let (mut slow, mut spent) = (0usize, 0u128);
            for fps in 1..=MAX_ANALYZED_FPS {
                let budget = 1_000_000 / u64::from(fps);
                while let Some(v) = it.next_if(|&v| v > budget) {
                    spent += u128::from(v);
                    slow += 1;
                }
                let waited = spent - slow as u128 * u128::from(budget);
                let (s, w) = (spent as f32 / total as f32, waited as f32 / total as f32);
                typical = if s < 0.5 && w < 0.1 { fps } else { typical };
                mostly = if s < 0.12 && w < 0.02 { fps } else { mostly };
                steady = if s < 0.01 && w < 0.001 { fps } else { steady };
            }
            Some((steady, mostly, typical))
        }
        let mut x: u64 = 17;
        for (n, spread) in [(0, 1), (1, 10), (500, 300), (5000, 20_000), (20_000, 2_000_000), (3000, 900)] {
            let mut us: Vec<u64> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    1 + x % spread
                })
                .collect();
            us.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(headline_fps_us(&us), two_passes(&us), "{n} frames up to {spread} µs");
        }
    }

    /// `at_each` over a grid gives what `at` gives at each rate, bit for bit, with
    /// and without the running sums (rates in any order, one repeated).
    #[test]
    fn one_pass_over_a_grid_is_at_each_rate() {
        let ft: Vec<f64> =
            (0..5000).map(|i| 5.0 + f64::from(i % 97) * 0.137 + f64::from(i % 13) / 7.0).collect();
        let curve = SlowTimeCurve::new(&ft).expect("curve");
        let grid = [30.0, 240.0, 60.0, 144.0, 60.0, 1000.0, 10.0, 75.5];
        let bits =
            |v: Vec<(f64, f64)>| v.into_iter().map(|(s, e)| (s.to_bits(), e.to_bits())).collect::<Vec<_>>();
        let one_by_one: Vec<(f64, f64)> = grid.iter().map(|&f| curve.at(f)).collect();
        assert_eq!(bits(curve.at_each(&grid)), bits(one_by_one.clone()));
        curve.sums();
        assert_eq!(bits(grid.iter().map(|&f| curve.at(f)).collect()), bits(one_by_one.clone()));
        assert_eq!(bits(curve.at_each(&grid)), bits(one_by_one));
    }

    #[test]
    fn truncation_follows_the_decimal_value() {
        assert_eq!(whole_microseconds(16.6669), 16_666);
        assert_eq!(whole_microseconds(16.667), 16_667);
        assert_eq!(whole_microseconds(1.005), 1005);
        assert_eq!(whole_microseconds(0.0004), 0);
        assert_eq!(whole_microseconds(f64::NAN), 0);
    }

    /// The budget at 60 FPS is 1_000_000 / 60 = 16_666 µs. 16.6669 ms truncates to
    /// 16_666 µs: not slower than the budget, so every F up to 60 is steady. 16.667 ms
    /// is 16_667 µs > 16_666: at F = 60 all time is slow, so 59 is the answer.
    #[test]
    fn supertuxkart_integer_microsecond_boundaries() {
        assert_eq!(headline_fps(&[16.6669; 100]), Some((60, 60, 60)));
        assert_eq!(headline_fps(&[16.667; 100]), Some((59, 59, 59)));
    }

    /// 99 frames of 10 ms and one of 50 ms: T = 1040 ms. At F = 100 (budget 10_000 µs)
    /// only the 50 ms frame is slow: S = 50/1040 = 4.8 %, E = 40/1040 = 3.8 %.
    /// Typical (S < 50 %, E < 10 %) holds up to F = 100; at F = 101 (budget 9_900 µs)
    /// every frame is slow (S = 100 %). Mostly Steady needs E < 2 %: with only the
    /// 50 ms frame slow, E = (50 − B)/1040 < 0.02 ⇔ B > 29.2 ms ⇔ F ≤ 34 (B = 29_411 µs:
    /// E = 20_589/1_040_000 = 1.98 %; F = 35: B = 28_571, E = 2.06 %). S = 4.8 % < 12 %.
    /// Steady needs S < 1 %: impossible while the 50 ms frame is slow (4.8 %), so F ≤ 20
    /// (B = 50_000 µs, not strictly exceeded): F = 20.
    #[test]
    fn headline_figures_by_hand() {
        let mut ft = vec![10.0; 99];
        ft.push(50.0);
        assert_eq!(headline_fps(&ft), Some((20, 34, 100)));
        let curve = SlowTimeCurve::new(&ft).unwrap_or_else(|| unreachable!());
        let (s, e) = curve.at(100.0);
        assert!((s - 50.0 / 1040.0).abs() < 1e-12);
        assert!((e - 40.0 / 1040.0).abs() < 1e-12);
        assert_eq!(curve.at(20.0), (0.0, 0.0));
    }

    #[test]
    fn empty_or_zero_time_has_no_figures() {
        assert_eq!(headline_fps(&[]), None);
        assert_eq!(headline_fps(&[0.0001, 0.0002]), None);
        assert!(Pacing::of(&[], 60.0).is_none());
    }
}
