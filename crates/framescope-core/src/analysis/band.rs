//! The P90 of a per-window figure without an array of every window's value: a
//! sample of the values (taken ahead) gives a band around the P90; the pass over
//! every value counts those below the band and keeps only those inside it, and the
//! P90 is selected among them — bit-identical to [`super::rolling::p90_of`] over
//! every value. When the band misses the P90's ranks (a sample that does not
//! represent the series), the caller falls back to every value and
//! [`super::rolling::p90_of`], as before.

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

    /// Whether `v` is below, inside or above the band.
    #[inline]
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
    /// Counts or keeps `v`.
    #[inline]
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
            for &v in &values {
                kept.add(&band, v);
            }
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
