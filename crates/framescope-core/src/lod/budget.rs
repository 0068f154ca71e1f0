//! The target budget and the colour class of a frame time against it ([`Budget`],
//! [`BudgetClass`]), and the share of a range's time over it ([`BudgetShares`]: prefix
//! sums per block, exact for any range).

use std::ops::Range;

/// Frames within this fraction of the target frame time count as on target when
/// colouring (a 60 Hz display's 16.68 ms intervals against a 60 FPS target's
/// 16.67 ms). The figures follow `metrics.md` to the letter; only colours use it.
pub const ON_TARGET_TOLERANCE: f64 = 0.005;

/// The target frame time and the two limits the colours use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// 1000 / target FPS.
    pub budget_ms: f64,
    /// Slower than this is over budget (the budget plus [`ON_TARGET_TOLERANCE`]).
    pub over_ms: f64,
    /// Slower than this is far over budget (twice `over_ms`).
    pub far_ms: f64,
}

/// Where a frame time falls against a [`Budget`]: the colour class of a frame (or a
/// pixel column) on the timeline. Not a figure's verdict: only colours use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetClass {
    /// Within the budget (and its tolerance).
    Within,
    /// Over it.
    Over,
    /// Over twice the budget.
    FarOver,
}

impl Budget {
    /// The budget of a target rate.
    #[must_use]
    pub fn of_fps(target_fps: f64) -> Self {
        let budget_ms = 1000.0 / target_fps;
        let over_ms = budget_ms * (1.0 + ON_TARGET_TOLERANCE);
        Self { budget_ms, over_ms, far_ms: 2.0 * over_ms }
    }

    /// Where `ms` falls.
    #[must_use]
    pub fn class(&self, ms: f64) -> BudgetClass {
        if ms > self.far_ms {
            BudgetClass::FarOver
        } else if ms > self.over_ms {
            BudgetClass::Over
        } else {
            BudgetClass::Within
        }
    }
}

/// Frames per block of [`BudgetShares`].
pub const SHARE_BLOCK: usize = 32;

/// Time over the budget, per range of frames: prefix sums per block of
/// [`SHARE_BLOCK`] frames of (time, time in frames over budget, time in frames over
/// twice the budget), 0.75 bytes a frame.
#[derive(Debug, Clone)]
pub struct BudgetShares {
    /// The budget the sums are of.
    pub budget: Budget,
    prefix: Vec<[f64; 3]>,
}

impl BudgetShares {
    /// The sums of `values` against `budget` (O(n)).
    #[must_use]
    pub fn new(values: &[f64], budget: Budget) -> Self {
        let mut prefix = Vec::with_capacity(values.len() / SHARE_BLOCK + 2);
        let mut acc = [0.0; 3];
        prefix.push(acc);
        for block in values.chunks(SHARE_BLOCK) {
            let part = sums(block, budget);
            for (a, p) in acc.iter_mut().zip(part) {
                *a += p;
            }
            prefix.push(acc);
        }
        Self { budget, prefix }
    }

    /// (time, over, far over) of `values[range]`.
    #[must_use]
    pub fn sums(&self, values: &[f64], range: Range<usize>) -> [f64; 3] {
        let end = range.end.min(values.len());
        let start = range.start.min(end);
        let (first, last) = (start.div_ceil(SHARE_BLOCK), end / SHARE_BLOCK);
        if last <= first {
            return sums(&values[start..end], self.budget);
        }
        let head = sums(&values[start..first * SHARE_BLOCK], self.budget);
        let tail = sums(&values[last * SHARE_BLOCK..end], self.budget);
        let (a, b) = (self.prefix[first], self.prefix[last]);
        std::array::from_fn(|k| b[k] - a[k] + head[k] + tail[k])
    }

    /// The shares of `values[range]`'s time over the budget and over twice the budget;
    /// `None` when the range holds no time.
    #[must_use]
    pub fn share(&self, values: &[f64], range: Range<usize>) -> Option<(f32, f32)> {
        let [time, over, far] = self.sums(values, range);
        (time > 0.0).then(|| ((over / time).clamp(0.0, 1.0) as f32, (far / time).clamp(0.0, 1.0) as f32))
    }
}

/// (time, over, far over) of a few frames; values that are not positive numbers count
/// nowhere.
fn sums(values: &[f64], budget: Budget) -> [f64; 3] {
    let mut s = [0.0; 3];
    for &v in values {
        if v > 0.0 && v.is_finite() {
            s[0] += v;
            if v > budget.over_ms {
                s[1] += v;
                if v > budget.far_ms {
                    s[2] += v;
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lod::testdata::noisy;

    #[test]
    fn a_frame_within_half_a_percent_of_the_target_is_on_target() {
        let budget = Budget::of_fps(60.0);
        // 16.68 ms (a 59.94 Hz display) is on target at 60 FPS; 16.76 ms is not
        // (16.667 · 1.005 = 16.75 ms); over twice that (33.5 ms) is far over.
        assert_eq!(budget.class(1000.0 / 59.94), BudgetClass::Within);
        assert_eq!(budget.class(16.76), BudgetClass::Over);
        assert_eq!(budget.class(33.6), BudgetClass::FarOver);
    }

    #[test]
    fn budget_shares_match_a_scan() {
        let values = noisy(20_000);
        let budget = Budget::of_fps(118.0);
        let shares = BudgetShares::new(&values, budget);
        for (a, b) in
            [(0, 20_000), (0, 1), (31, 33), (250, 251), (100, 5000), (19_990, 20_000), (64, 128), (5, 5)]
        {
            let (mut t, mut o, mut f) = (0.0, 0.0, 0.0);
            for &v in &values[a..b] {
                if v.is_finite() {
                    t += v;
                    if v > budget.over_ms {
                        o += v;
                    }
                    if v > budget.far_ms {
                        f += v;
                    }
                }
            }
            let got = shares.sums(&values, a..b);
            for (g, w) in got.iter().zip([t, o, f]) {
                assert!((g - w).abs() < 1e-6 * w.max(1.0), "{a}..{b}: {got:?} vs {t} {o} {f}");
            }
        }
        // At 60 FPS only the 40 ms stutters are over (and far over) the budget.
        let at_60 = BudgetShares::new(&values, Budget::of_fps(60.0));
        let (over, far) = at_60.share(&values, 0..20_000).unwrap_or_default();
        assert!((0.005..0.02).contains(&over) && (over - far).abs() < 1e-9, "{over} {far}");
        assert_eq!(at_60.share(&values, 3..4), None, "a NaN frame holds no time");
    }
}
