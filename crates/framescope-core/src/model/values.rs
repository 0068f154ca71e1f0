//! Column values stored compactly: a column of missing values is a count, a column of
//! one value is that value and a count, a column of decimals with at most four places
//! (PresentMon writes `%.4f`) is 4 bytes a value. Every stored value reads back
//! bit-identical to the `f64` that was pushed.

use std::sync::OnceLock;

/// Values are stored as `round(v · 10⁴)` in an `i32` when that gives `v` back exactly.
const SCALE: f64 = 1e4;
/// The `i32` that stands for a missing value.
const MISSING_I32: i32 = i32::MIN;

/// `v` as a scaled integer, when it reads back bit-identical (NaN is the missing mark).
fn encode(v: f64) -> Option<i32> {
    if v.is_nan() {
        return Some(MISSING_I32);
    }
    // `v · 10⁴` lies within an ulp of the integer it stands for: truncation (one
    // instruction, unlike `round`) gives it or its neighbour towards zero.
    let x = v * SCALE;
    if x.is_nan() || x.abs() >= 2_147_483_000.0 {
        return None;
    }
    let t = x as i32;
    let away = if x < 0.0 { t - 1 } else { t + 1 };
    [t, away].into_iter().find(|&i| i != MISSING_I32 && (f64::from(i) / SCALE).to_bits() == v.to_bits())
}

fn decode(i: i32) -> f64 {
    if i == MISSING_I32 { f64::NAN } else { f64::from(i) / SCALE }
}

/// Whole numbers (timestamps, counters) in blocks of [`Ints::BLOCK`]: each block an
/// `i64` base, each value an `i32` from it ([`MISSING_I32`]: missing).
#[derive(Debug, Clone, Default)]
struct Ints {
    bases: Vec<i64>,
    offsets: Vec<i32>,
}

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

impl Ints {
    const BLOCK: usize = 256;

    /// `v` as a whole number an `f64` holds exactly; `None` otherwise (NaN too).
    fn whole(v: f64) -> Option<i64> {
        if v.is_nan() || v.abs() >= 9.0e15 {
            return None;
        }
        let i = v as i64;
        ((i as f64).to_bits() == v.to_bits()).then_some(i)
    }

    /// Adds `v`; false (nothing added) when it does not fit.
    fn push(&mut self, v: f64) -> bool {
        let whole = Self::whole(v);
        if whole.is_none() && !v.is_nan() {
            return false;
        }
        let new_block = self.offsets.len().is_multiple_of(Self::BLOCK);
        if new_block {
            // The block's base is its first number (unset while it has none).
            self.bases.push(i64::MIN);
        }
        let Some(i) = whole else {
            push_grown(&mut self.offsets, MISSING_I32);
            return true;
        };
        if let Some(base) = self.bases.last_mut()
            && *base == i64::MIN
        {
            *base = i;
        }
        let base = self.bases.last().copied().unwrap_or(i);
        if let Some(d) = i.checked_sub(base).and_then(|d| i32::try_from(d).ok()).filter(|&d| d != MISSING_I32)
        {
            push_grown(&mut self.offsets, d);
            true
        } else {
            if new_block {
                self.bases.pop();
            }
            false
        }
    }

    #[inline]
    fn at(&self, i: usize) -> f64 {
        match self.offsets.get(i) {
            Some(&MISSING_I32) | None => f64::NAN,
            Some(&d) => (self.bases[i / Self::BLOCK] + i64::from(d)) as f64,
        }
    }
}

#[derive(Debug, Clone)]
enum Store {
    /// Every value missing.
    Missing(usize),
    /// Every value the same number (bit for bit).
    Constant(f64, usize),
    /// Decimals with up to four places; [`MISSING_I32`] for a missing value.
    Scaled(Vec<i32>),
    /// Whole numbers too large for `Scaled` (timestamps).
    Ints(Ints),
    /// Anything else.
    Dense(Vec<f64>),
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

impl Default for Store {
    fn default() -> Self {
        Self::Missing(0)
    }
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
        (0..self.len()).map(move |i| self.at(i))
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

/// Builds [`Values`] one value at a time, in the most compact store that holds
/// every value pushed so far exactly.
#[derive(Debug, Clone, Default)]
pub struct ValuesBuilder {
    store: Store,
}

impl ValuesBuilder {
    /// Adds one value (NaN: missing).
    #[inline]
    pub fn push(&mut self, v: f64) {
        match &mut self.store {
            Store::Missing(n) if v.is_nan() => *n += 1,
            Store::Missing(0) => self.store = Store::Constant(v, 1),
            Store::Constant(c, n) if c.to_bits() == v.to_bits() => *n += 1,
            Store::Scaled(s) => match encode(v) {
                Some(m) => push_grown(s, m),
                None => self.spill(v),
            },
            Store::Ints(ints) => {
                if !ints.push(v) {
                    self.spill(v);
                }
            }
            Store::Dense(d) => push_grown(d, v),
            Store::Missing(_) | Store::Constant(..) => self.spill(v),
        }
    }

    /// Adds every value of `values`.
    pub fn extend(&mut self, values: impl IntoIterator<Item = f64>) {
        for v in values {
            self.push(v);
        }
    }

    /// Moves to the next store able to hold `v` as well, then adds it.
    #[cold]
    fn spill(&mut self, v: f64) {
        let (fill, n) = match &self.store {
            Store::Missing(n) => (f64::NAN, *n),
            Store::Constant(c, n) => (*c, *n),
            Store::Scaled(_) | Store::Ints(_) | Store::Dense(_) => (f64::NAN, 0),
        };
        self.store = match std::mem::take(&mut self.store) {
            Store::Missing(_) | Store::Constant(..) => {
                if let (Some(f), Some(m)) = (encode(fill), encode(v)) {
                    let mut s = Vec::with_capacity(n + 1);
                    s.resize(n, f);
                    s.push(m);
                    Store::Scaled(s)
                } else {
                    let mut ints = Ints::default();
                    if std::iter::repeat_n(fill, n).chain([v]).all(|x| ints.push(x)) {
                        Store::Ints(ints)
                    } else {
                        let mut d = Vec::with_capacity(n + 1);
                        d.resize(n, fill);
                        d.push(v);
                        Store::Dense(d)
                    }
                }
            }
            Store::Scaled(s) => {
                let mut d: Vec<f64> = Vec::with_capacity(s.len() + s.len() / 2 + 1);
                d.extend(s.iter().map(|&m| decode(m)));
                drop(s);
                d.push(v);
                Store::Dense(d)
            }
            Store::Ints(ints) => {
                let mut d: Vec<f64> = Vec::with_capacity(ints.offsets.len() + ints.offsets.len() / 2 + 1);
                d.extend((0..ints.offsets.len()).map(|i| ints.at(i)));
                drop(ints);
                d.push(v);
                Store::Dense(d)
            }
            Store::Dense(mut d) => {
                d.push(v);
                Store::Dense(d)
            }
        };
    }

    /// Number of values pushed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// True before the first push.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when some value pushed is present (not NaN).
    #[must_use]
    pub fn any_present(&self) -> bool {
        match &self.store {
            Store::Missing(_) => false,
            Store::Constant(c, _) => !c.is_nan(),
            Store::Scaled(v) => v.iter().any(|&m| m != MISSING_I32),
            Store::Ints(v) => v.offsets.iter().any(|&m| m != MISSING_I32),
            Store::Dense(v) => v.iter().any(|x| !x.is_nan()),
        }
    }

    /// Value `i` pushed so far (NaN out of range).
    #[must_use]
    pub fn at(&self, i: usize) -> f64 {
        self.store.at(i)
    }

    /// Multiplies every value by `factor`.
    pub fn scale(&mut self, factor: f64) {
        let values: Vec<f64> = self.iter().map(|v| v * factor).collect();
        let mut b = Self::default();
        b.extend(values);
        *self = b;
    }

    /// Every value pushed so far.
    pub fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.len()).map(move |i| self.store.at(i))
    }

    /// The finished column, its storage trimmed to size.
    #[must_use]
    pub fn finish(self) -> Values {
        let store = match self.store {
            Store::Scaled(mut v) => {
                v.shrink_to_fit();
                Store::Scaled(v)
            }
            Store::Dense(mut v) => {
                v.shrink_to_fit();
                Store::Dense(v)
            }
            Store::Ints(mut v) => {
                v.offsets.shrink_to_fit();
                v.bases.shrink_to_fit();
                Store::Ints(v)
            }
            other => other,
        };
        Values { store, dense: OnceLock::new() }
    }
}

impl Store {
    fn len(&self) -> usize {
        match self {
            Self::Missing(n) | Self::Constant(_, n) => *n,
            Self::Scaled(v) => v.len(),
            Self::Ints(v) => v.offsets.len(),
            Self::Dense(v) => v.len(),
        }
    }

    #[inline]
    fn at(&self, i: usize) -> f64 {
        match self {
            Self::Missing(_) => f64::NAN,
            Self::Constant(c, n) => {
                if i < *n {
                    *c
                } else {
                    f64::NAN
                }
            }
            Self::Scaled(v) => v.get(i).map_or(f64::NAN, |&m| decode(m)),
            Self::Ints(v) => v.at(i),
            Self::Dense(v) => v.get(i).copied().unwrap_or(f64::NAN),
        }
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
            [vec![f64::NAN; 300], (0..300).map(|i| 5e11 + f64::from(i)).collect()].concat(),
        ];
        for c in cases {
            let v = Values::from(c.clone());
            assert_eq!(v.len(), c.len());
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
