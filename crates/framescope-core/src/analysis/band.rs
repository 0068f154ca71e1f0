//! The P90 of a per-window figure without an array of every window's value: a
//! sample of the values (taken ahead) gives a band around the P90; the pass over
//! every value counts those below the band and keeps only those inside it, and the
//! P90 is selected among them — bit-identical to [`super::rolling::p90_of`] over
//! every value. When the band misses the P90's ranks (a sample that does not
//! represent the series), the caller falls back to every value and
//! [`super::rolling::p90_of`], as before.

#[cfg(test)]
use std::cmp::Ordering;

/// One window in this many goes into the sample.
pub(crate) const SAMPLE_EVERY: usize = 64;

/// Where a band starts and ends (both inclusive, in `f64::total_cmp` order); `None`:
/// unbounded on that side.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Band {
    low: Option<f64>,
    high: Option<f64>,
}

impl Band {
    /// The band around the P90 of the values `sample` was drawn from, wide enough
    /// for a sample's error (four standard errors, and at least 16 sample ranks,
    /// either side).
    pub(crate) fn around_p90(mut sample: Vec<f64>) -> Self {
        let m = sample.len();
        if m < 64 {
            return Self { low: None, high: None };
        }
        sample.sort_unstable_by(f64::total_cmp);
        let at = (m - 1) * 9 / 10;
        let margin = (4.0 * (m as f64).sqrt()) as usize + 16;
        let low = at.checked_sub(margin).map(|k| sample[k]);
        let high = (at + margin < m).then(|| sample[at + margin]);
        Self { low, high }
    }

    /// Whether `v` is below, inside or above the band (what [`Keeping`] finds
    /// without a branch; the tests check it against this).
    #[cfg(test)]
    pub(crate) fn place(&self, v: f64) -> Ordering {
        if self.low.is_some_and(|l| v.total_cmp(&l).is_lt()) {
            Ordering::Less
        } else if self.high.is_some_and(|h| v.total_cmp(&h).is_gt()) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    }
}

/// What a pass keeps of one figure: the count below the band and the values inside.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    /// Values below the band.
    pub(crate) below: usize,
    /// The values inside it.
    pub(crate) inside: Vec<f64>,
}

impl Kept {
    /// Counts or keeps `v` (by a branch: [`Keeping::add`] is the pass's way).
    #[cfg(test)]
    pub(crate) fn add(&mut self, band: &Band, v: f64) {
        match band.place(v) {
            Ordering::Less => self.below += 1,
            Ordering::Equal => self.inside.push(v),
            Ordering::Greater => {}
        }
    }

    /// Adds another part's counts and values.
    pub(crate) fn merge(&mut self, other: Self) {
        self.below += other.below;
        self.inside.extend(other.inside);
    }

    /// The P90 of all `n` values, as [`super::rolling::p90_of`] over every one would
    /// give it, when the band holds both ranks it needs; `None` otherwise.
    pub(crate) fn p90(mut self, n: usize) -> Option<f64> {
        if n == 0 {
            return None;
        }
        let h = (n - 1) as f64 * 0.9;
        let lo = h.floor() as usize;
        // Ranks `lo` and (when there is one) `lo + 1` must both be inside.
        let needed = (lo + 2).min(n);
        if self.below > lo || self.below + self.inside.len() < needed {
            return None;
        }
        let k = lo - self.below;
        let (_, &mut at, upper) = self.inside.select_nth_unstable_by(k, f64::total_cmp);
        let next = (lo + 1 < n).then(|| upper.iter().copied().min_by(f64::total_cmp)).flatten();
        let frac = h - lo as f64;
        Some(match next {
            Some(next) if frac > 0.0 => at + frac * (next - at),
            _ => at,
        })
    }
}

/// Values staged by [`Keeping`] before they join [`Kept::inside`].
const STAGE: usize = 64;

/// `v`'s place in `f64::total_cmp` order, as an integer (what `total_cmp` compares).
#[inline]
fn order_key(v: f64) -> i64 {
    let b = v.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

/// A [`Kept`] filled without a branch on where each value falls: the band's ends as
/// `total_cmp` keys, the count below added as 0 or 1, and every value written to a
/// small stage whose length grows by 1 only when it is inside (the stage joins the
/// kept values when full). Near the P90 a value is below, inside or above as good as
/// at random, which a branch per value pays for. Keeps the same values in the same
/// order as [`Kept::add`].
pub(crate) struct Keeping {
    low: i64,
    high: i64,
    stage: [f64; STAGE],
    staged: usize,
    kept: Kept,
}

impl Keeping {
    /// Nothing kept yet, for `band`.
    pub(crate) fn new(band: &Band) -> Self {
        Self {
            low: band.low.map_or(i64::MIN, order_key),
            high: band.high.map_or(i64::MAX, order_key),
            stage: [0.0; STAGE],
            staged: 0,
            kept: Kept::default(),
        }
    }

    /// Counts or keeps `v`, as [`Kept::add`].
    #[inline]
    pub(crate) fn add(&mut self, v: f64) {
        let k = order_key(v);
        let below = k < self.low;
        self.kept.below += usize::from(below);
        self.stage[self.staged % STAGE] = v;
        self.staged += usize::from(!below) & usize::from(k <= self.high);
        if self.staged == STAGE {
            self.kept.inside.extend_from_slice(&self.stage);
            self.staged = 0;
        }
    }

    /// What was counted and kept.
    pub(crate) fn finish(mut self) -> Kept {
        self.kept.inside.extend_from_slice(&self.stage[..self.staged]);
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::rolling::p90_of;

    /// The banded P90 equals the P90 over every value, with ties, NaNs and
    /// infinities; a band that misses gives `None`.
    #[test]
    fn banded_p90_is_the_full_p90() {
        let mut x: u32 = 11;
        for n in [1usize, 2, 10, 64, 1000, 4099, 50_000] {
            let values: Vec<f64> = (0..n)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    match i % 97 {
                        0 => f64::INFINITY,
                        1 => f64::NAN,
                        _ => f64::from(x % 40) / 8.0,
                    }
                })
                .collect();
            let sample: Vec<f64> = values.iter().copied().step_by(SAMPLE_EVERY).collect();
            let band = Band::around_p90(sample);
            let mut kept = Kept::default();
            let mut keeping = Keeping::new(&band);
            for &v in &values {
                kept.add(&band, v);
                keeping.add(v);
            }
            let staged = keeping.finish();
            assert_eq!(staged.below, kept.below);
            let bits = |v: &[f64]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&staged.inside), bits(&kept.inside));
            let want = p90_of(values.clone());
            let got = kept.p90(n).unwrap_or_else(|| p90_of(values));
            assert_eq!(got.to_bits(), want.to_bits(), "n = {n}");
        }
        // A band above every value: nothing below, nothing inside.
        let band = Band { low: Some(100.0), high: None };
        let mut kept = Kept::default();
        (0..50).for_each(|v| kept.add(&band, f64::from(v)));
        assert_eq!(kept.p90(50), None);
        // Inside it: the P90 of 0..50 is 44.1 (h = 49 · 0.9, between 44 and 45).
        let band = Band { low: Some(40.0), high: Some(46.0) };
        let mut kept = Kept::default();
        (0..50).for_each(|v| kept.add(&band, f64::from(v)));
        assert_eq!(kept.below, 40);
        let got = kept.p90(50).unwrap_or(f64::NAN);
        assert!((got - 44.1).abs() < 1e-9);
        assert_eq!(got.to_bits(), p90_of((0..50).map(f64::from).collect()).to_bits());
    }
}
