//! How [`Values`](super::Values) are stored: missing, constant, scaled decimals,
//! blocks of whole numbers, or plain `f64`s; every store reads back bit-identical.

use super::push_grown;

/// Values are stored as `round(v · 10⁴)` in an `i32` when that gives `v` back exactly.
pub(super) const SCALE: f64 = 1e4;
/// The `i32` that stands for a missing value.
pub(super) const MISSING_I32: i32 = i32::MIN;

/// `v` as a scaled integer, when it reads back bit-identical (NaN is the missing mark).
pub(super) fn encode(v: f64) -> Option<i32> {
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

/// The value a scaled integer stands for (NaN for [`MISSING_I32`]).
pub(super) fn decode(i: i32) -> f64 {
    if i == MISSING_I32 { f64::NAN } else { f64::from(i) / SCALE }
}

/// Whole numbers (timestamps, counters) in blocks of [`Ints::BLOCK`]: each block an
/// `i64` base, each value an `i32` from it ([`MISSING_I32`]: missing).
#[derive(Debug, Clone, Default)]
pub(super) struct Ints {
    pub(super) bases: Vec<i64>,
    pub(super) offsets: Vec<i32>,
}

impl Ints {
    const BLOCK: usize = 256;

    /// `v` as a whole number an `f64` holds exactly; `None` otherwise (NaN too).
    pub(super) fn whole(v: f64) -> Option<i64> {
        if v.is_nan() || v.abs() >= 9.0e15 {
            return None;
        }
        let i = v as i64;
        ((i as f64).to_bits() == v.to_bits()).then_some(i)
    }

    /// Adds `v`; false (nothing added) when it does not fit.
    pub(super) fn push(&mut self, v: f64) -> bool {
        let whole = Self::whole(v);
        if whole.is_none() && !v.is_nan() {
            return false;
        }
        self.push_whole(whole)
    }

    /// Adds a whole number (`None`: missing), as [`Ints::push`] of it as an `f64`
    /// does; false (nothing added) when it does not fit.
    #[inline]
    pub(super) fn push_whole(&mut self, whole: Option<i64>) -> bool {
        // The block's base is its first number (unset, `i64::MIN`, while it has none).
        let first_of_block = self.offsets.len().is_multiple_of(Self::BLOCK);
        let d = match (whole, self.bases.last_mut()) {
            (None, _) if first_of_block => {
                self.bases.push(i64::MIN);
                MISSING_I32
            }
            (None, _) => MISSING_I32,
            (Some(i), _) if first_of_block => {
                self.bases.push(i);
                0
            }
            (Some(i), Some(base)) if *base == i64::MIN => {
                *base = i;
                0
            }
            (Some(i), Some(&mut base)) => {
                match i.checked_sub(base).and_then(|d| i32::try_from(d).ok()).filter(|&d| d != MISSING_I32) {
                    Some(d) => d,
                    None => return false,
                }
            }
            // No block yet holds the offsets pushed: not reached (`first_of_block`).
            (Some(_), None) => return false,
        };
        push_grown(&mut self.offsets, d);
        true
    }

    /// Value `i` as the whole number it is (`None`: missing or out of range): what
    /// [`Ints::whole`] of [`Ints::at`] gives, as every stored number is below 9·10¹⁵.
    #[inline]
    pub(super) fn whole_at(&self, i: usize) -> Option<i64> {
        match self.offsets.get(i) {
            Some(&MISSING_I32) | None => None,
            Some(&d) => Some(self.bases[i / Self::BLOCK] + i64::from(d)),
        }
    }

    #[inline]
    pub(super) fn at(&self, i: usize) -> f64 {
        match self.offsets.get(i) {
            Some(&MISSING_I32) | None => f64::NAN,
            Some(&d) => (self.bases[i / Self::BLOCK] + i64::from(d)) as f64,
        }
    }
}

#[derive(Debug, Clone)]
pub(super) enum Store {
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

impl Default for Store {
    fn default() -> Self {
        Self::Missing(0)
    }
}

impl Store {
    /// Number of values stored.
    pub(super) fn len(&self) -> usize {
        match self {
            Self::Missing(n) | Self::Constant(_, n) => *n,
            Self::Scaled(v) => v.len(),
            Self::Ints(v) => v.offsets.len(),
            Self::Dense(v) => v.len(),
        }
    }

    /// Value `i` (NaN when missing or out of range).
    #[inline]
    pub(super) fn at(&self, i: usize) -> f64 {
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
