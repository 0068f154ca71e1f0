//! [`HalfSteps`]: a list of numbers stored in 4 bytes each when they are multiples of
//! 0.5 · 10⁻⁴ (a PresentMon value written with four decimals, or the mean of two such:
//! a median of an even count), else beside the list; every number reads back
//! bit-identical. What an action's kept candidates (value and rolling median) take in
//! the window: 8 bytes a frame instead of 16.

/// Numbers are stored as `v · SCALE` in an `i32` when that gives `v` back exactly.
const SCALE: f64 = 2e4;
/// The `i32` that says "look in the side list".
const ASIDE: i32 = i32::MIN;

/// Numbers in push order, compactly (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct HalfSteps {
    steps: Vec<i32>,
    /// (position, number) of the numbers that are no multiple of the step, ascending.
    aside: Vec<(u32, f64)>,
}

/// `v` as a multiple of the step, when it reads back bit-identical.
fn encode(v: f64) -> Option<i32> {
    let x = v * SCALE;
    if x.is_nan() || x.abs() >= 2.0e9 {
        return None;
    }
    let r = x.round() as i32;
    [r, r - 1, r + 1].into_iter().find(|&i| i != ASIDE && (f64::from(i) / SCALE).to_bits() == v.to_bits())
}

impl HalfSteps {
    /// Adds a number.
    #[inline]
    pub fn push(&mut self, v: f64) {
        if let Some(i) = encode(v) {
            self.steps.push(i);
        } else {
            self.aside.push((self.steps.len() as u32, v));
            self.steps.push(ASIDE);
        }
    }

    /// Number `k`; NaN out of range.
    #[must_use]
    #[inline]
    pub fn at(&self, k: usize) -> f64 {
        match self.steps.get(k) {
            None => f64::NAN,
            Some(&ASIDE) => self
                .aside
                .binary_search_by_key(&(k as u32), |&(at, _)| at)
                .map_or(f64::NAN, |j| self.aside[j].1),
            Some(&i) => f64::from(i) / SCALE,
        }
    }

    /// How many numbers there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True when there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Every number in order.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        (0..self.len()).map(|k| self.at(k))
    }

    /// Every number in order, as a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<f64> {
        self.iter().collect()
    }

    /// Frees the room reserved for further numbers.
    pub fn shrink_to_fit(&mut self) {
        self.steps.shrink_to_fit();
        self.aside.shrink_to_fit();
    }
}

/// Equal when every number is bit for bit the same.
impl PartialEq for HalfSteps {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_bit_identical_and_most_take_4_bytes() {
        let (a, b) = (6.5123, 6.9876);
        // The median of an even window: the mean of two values, as `percentile` makes it.
        let mean = a + (b - a) * 0.5;
        let values = [a, b, mean, 0.0, -3.25, 1e9, 0.1 + 0.2, f64::INFINITY, -0.0, 99_999.999_95];
        let mut h = HalfSteps::default();
        for &v in &values {
            h.push(v);
        }
        assert_eq!(h.len(), values.len());
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
        assert_eq!(bits(&h.to_vec()), bits(&values));
        assert!(h.at(values.len()).is_nan());
        // 1e9, 0.1 + 0.2, ∞ and −0 are no multiples of the step (−0 reads back as +0).
        assert_eq!(h.aside.iter().map(|e| e.0).collect::<Vec<u32>>(), [5, 6, 7, 8]);
    }
}
