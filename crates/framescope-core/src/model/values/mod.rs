//! Column values stored compactly: a column of missing values is a count, a column of
//! one value is that value and a count, a column of decimals with at most four places
//! (PresentMon writes `%.4f`) is 4 bytes a value. Every stored value reads back
//! bit-identical to the `f64` that was pushed.

mod builder;
mod iter;
mod store;

pub use builder::ValuesBuilder;

use std::sync::OnceLock;
use store::{MISSING_I32, Store};

/// Pushes `x`; a full vector of 64 Ki items or more grows by a quarter rather than
/// doubling: a column of a long capture then ends at most about 25 % over its length
/// instead of up to 100 % (reallocating a large block is a page remap, not a copy, so
/// the extra growth steps cost little). Smaller vectors double as usual, so thousands
/// of short traces reserve nothing ahead.
#[inline]
pub fn push_grown<T>(v: &mut Vec<T>, x: T) {
    if v.len() == v.capacity() && v.len() >= 1 << 16 {
        v.reserve_exact(v.len() / 4);
    }
    v.push(x);
}

/// Makes room in `v` for `extra` more items, growing it as [`push_grown`] does: by a
/// quarter once it holds 64 Ki items or more (at least by `extra`), else by doubling.
#[inline]
pub fn reserve_grown<T>(v: &mut Vec<T>, extra: usize) {
    if v.len() + extra > v.capacity() {
        let grow = if v.len() >= 1 << 16 { v.len() / 4 } else { v.len() };
        v.reserve_exact(extra.max(grow));
    }
}

/// Appends `xs` to `v`, growing it as [`push_grown`] does (`reserve_grown`).
#[inline]
pub fn extend_grown<T: Copy>(v: &mut Vec<T>, xs: &[T]) {
    reserve_grown(v, xs.len());
    v.extend_from_slice(xs);
}

/// One value per frame of a column; missing values read as NaN.
///
/// Stored compactly (see the module docs). Reading with [`Values::at`] or
/// [`Values::iter`] never allocates; `&values[..]` (through `Deref`) gives a slice,
/// materialising a compact column once on first use — what drawing code that wants
/// slices pays, and analysis avoids.
#[derive(Default)]
pub struct Values {
    store: Store,
    dense: OnceLock<Vec<f64>>,
}

impl Values {
    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// True when the column has no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i`; NaN when it is missing or out of range.
    #[must_use]
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        self.store.at(i)
    }

    /// Value `i`, `None` out of range.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<f64> {
        (i < self.len()).then(|| self.at(i))
    }

    /// Every value in order (NaN for missing ones), without allocating.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = f64> + Clone + '_ {
        iter::Iter::new(self)
    }

    /// The values as a slice when they are stored as one.
    #[must_use]
    pub fn as_dense(&self) -> Option<&[f64]> {
        match &self.store {
            Store::Dense(v) => Some(v),
            _ => self.dense.get().map(Vec::as_slice),
        }
    }

    /// True when no value is present.
    #[must_use]
    pub fn all_missing(&self) -> bool {
        match &self.store {
            Store::Missing(_) => true,
            Store::Constant(c, n) => c.is_nan() || *n == 0,
            Store::Scaled(v) => v.iter().all(|&m| m == MISSING_I32),
            Store::Ints(v) => v.offsets.iter().all(|&m| m == MISSING_I32),
            Store::Dense(v) => v.iter().all(|x| x.is_nan()),
        }
    }

    /// True when some value is present.
    #[must_use]
    pub fn any_present(&self) -> bool {
        !self.all_missing()
    }

    /// The one value every frame has, when the column is stored as a constant (a
    /// column may still hold one value throughout without being stored so).
    #[must_use]
    pub fn constant(&self) -> Option<f64> {
        match &self.store {
            Store::Constant(c, _) => Some(*c),
            _ => None,
        }
    }

    /// The values in `range` (clamped) as a column of their own.
    #[must_use]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Self {
        let end = range.end.min(self.len());
        let r = range.start.min(end)..end;
        let store = match &self.store {
            Store::Missing(_) => Store::Missing(r.len()),
            Store::Constant(c, _) => Store::Constant(*c, r.len()),
            Store::Scaled(v) => Store::Scaled(v[r].to_vec()),
            Store::Ints(_) => Store::Dense(r.map(|i| self.at(i)).collect()),
            Store::Dense(v) => Store::Dense(v[r].to_vec()),
        };
        Self { store, dense: OnceLock::new() }
    }

    /// Bytes the values take (without a materialised slice).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        let own = match &self.store {
            Store::Missing(_) | Store::Constant(..) => 0,
            Store::Scaled(v) => v.len() * 4,
            Store::Ints(v) => v.offsets.len() * 4 + v.bases.len() * 8,
            Store::Dense(v) => v.len() * 8,
        };
        own + self.dense.get().map_or(0, |v| v.len() * 8)
    }
}

impl std::ops::Deref for Values {
    type Target = [f64];

    fn deref(&self) -> &[f64] {
        match &self.store {
            Store::Dense(v) => v,
            _ => self.dense.get_or_init(|| self.iter().collect()),
        }
    }
}

impl Clone for Values {
    fn clone(&self) -> Self {
        Self { store: self.store.clone(), dense: OnceLock::new() }
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<const N: usize> PartialEq<[f64; N]> for Values {
    fn eq(&self, other: &[f64; N]) -> bool {
        self.len() == N && self.iter().zip(other).all(|(a, &b)| a == b)
    }
}

impl PartialEq<Vec<f64>> for Values {
    fn eq(&self, other: &Vec<f64>) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, &b)| a == b)
    }
}

impl std::fmt::Debug for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<f64>> for Values {
    fn from(v: Vec<f64>) -> Self {
        let mut b = ValuesBuilder::default();
        b.extend(v.iter().copied());
        b.finish()
    }
}

impl FromIterator<f64> for Values {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Self {
        let mut b = ValuesBuilder::default();
        b.extend(iter);
        b.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| if x.is_nan() { 1 } else { x.to_bits() }).collect()
    }

    #[test]
    fn every_store_reads_back_exactly() {
        let cases: Vec<Vec<f64>> = vec![
            vec![],
            vec![f64::NAN; 5],
            vec![0.8; 4],
            vec![6.5123, f64::NAN, 40.0001, 0.0, -3.25],
            vec![1.0, 2.0, 1e12, 0.1 + 0.2],
            vec![-0.0, 1.0],
            vec![0.8, 0.8, f64::NAN, 0.8],
            vec![214_748.364_7, 214_748.364_8],
            vec![f64::NAN, 5.0],
            (0..600).map(|i| if i % 7 == 0 { f64::NAN } else { 1e12 + f64::from(i) * 70_001.0 }).collect(),
            vec![1e12, 2e12, 3e12],
            vec![1e12, 1e12 + 1.0, -0.0],
            vec![1e12, 1e12 + 1.0, 1e12 + 0.5],
            vec![9e15, 1.0],
            (0..300).map(|i| if i % 11 == 0 { f64::NAN } else { f64::from(i) * 0.0625 - 3.0 }).collect(),
            (0..130).map(|i| 0.1 * f64::from(i)).collect(),
            vec![0.8; 100],
            vec![f64::NAN; 100],
            [vec![f64::NAN; 300], (0..300).map(|i| 5e11 + f64::from(i)).collect()].concat(),
        ];
        for c in cases {
            let v = Values::from(c.clone());
            assert_eq!(v.len(), c.len());
            let folded = v.iter().fold(Vec::new(), |mut a, x| {
                a.push(x);
                a
            });
            assert_eq!(bits(&folded), bits(&c), "fold {c:?}");
            let mut ranged = vec![7.0];
            v.extend_range(1..c.len() + 2, &mut ranged);
            let past_end = [f64::NAN; 3];
            let want: Vec<f64> = [&[7.0], c.get(1..).unwrap_or(&[]), &past_end[..=c.len().min(1)]].concat();
            assert_eq!(bits(&ranged), bits(&want), "range {c:?}");
            let mut it = v.iter();
            if c.len() > 70 {
                it.nth(69);
                let rest = it.clone().fold(Vec::new(), |mut a, x| {
                    a.push(x);
                    a
                });
                assert_eq!(bits(&rest), bits(&c[70..]), "fold after 70 {c:?}");
                it = v.iter();
            }
            assert_eq!(it.len(), c.len());
            let half = c.len() / 2;
            assert_eq!(it.nth(half).map(f64::to_bits), (half < c.len()).then(|| v.at(half).to_bits()));
            assert_eq!(it.len(), c.len().saturating_sub(half + 1));
            assert_eq!(bits(&v.iter().collect::<Vec<_>>()), bits(&c), "{c:?}");
            assert_eq!(bits(&v), bits(&c), "deref {c:?}");
            let (lo, hi) = (c.len().min(1), c.len().min(3));
            assert_eq!(bits(&v.slice(1..3).iter().collect::<Vec<_>>()), bits(&c[lo..hi]));
        }
    }

    #[test]
    fn compact_stores_are_chosen() {
        assert!(matches!(Values::from(vec![f64::NAN; 3]).store, Store::Missing(3)));
        assert!(matches!(Values::from(vec![0.8; 3]).store, Store::Constant(_, 3)));
        assert!(matches!(Values::from(vec![6.5123, f64::NAN]).store, Store::Scaled(_)));
        assert!(matches!(Values::from(vec![0.1 + 0.2]).store, Store::Constant(..)));
        assert!(matches!(Values::from(vec![1.0, 0.1 + 0.2]).store, Store::Dense(_)));
        let qpc: Vec<f64> = (0..1000).map(|i| 1e12 + f64::from(i) * 70_001.0).collect();
        assert!(matches!(Values::from(qpc).store, Store::Ints(_)));
        assert!(Values::from(vec![f64::NAN; 3]).all_missing());
    }
}
