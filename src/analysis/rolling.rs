//! The 19-frame rolling statistics (`metrics.md` §4–5): for every frame, the median
//! and quartiles of the window centred on it (9 before, itself, 9 after), cut to the
//! frames that exist at the edges. Computed once per series, in parallel.

use super::summary::percentile;
use rayon::prelude::*;

/// Frames on each side of the centre.
pub const HALF_WINDOW: usize = 9;

/// Per-frame window statistics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rolling {
    /// Median of each window (mean of the two middle values for an even count).
    pub median: Vec<f64>,
    /// First quartile (linear interpolation).
    pub q1: Vec<f64>,
    /// Third quartile (linear interpolation).
    pub q3: Vec<f64>,
}

impl Rolling {
    /// Computes the statistics of every window of `values` (all finite).
    #[must_use]
    pub fn of(values: &[f64]) -> Self {
        let stats: Vec<[f64; 3]> = (0..values.len())
            .into_par_iter()
            .with_min_len(4096)
            .map_init(Vec::new, |buf, i| {
                window_sorted(values, i, buf);
                [
                    percentile(buf, 0.5),
                    percentile(buf, 0.25),
                    percentile(buf, 0.75),
                ]
            })
            .collect();
        let mut out = Self {
            median: Vec::with_capacity(stats.len()),
            q1: Vec::with_capacity(stats.len()),
            q3: Vec::with_capacity(stats.len()),
        };
        for [m, a, b] in stats {
            out.median.push(m);
            out.q1.push(a);
            out.q3.push(b);
        }
        out
    }
}

/// The median of each window over `values`, leaving out missing (NaN) values; NaN
/// when a window has no present value.
#[must_use]
pub fn rolling_median_present(values: &[f64]) -> Vec<f64> {
    (0..values.len())
        .into_par_iter()
        .with_min_len(4096)
        .map_init(Vec::new, |buf, i| {
            window_sorted(values, i, buf);
            buf.retain(|v| !v.is_nan());
            percentile(buf, 0.5)
        })
        .collect()
}

/// Fills `buf` with the window centred on `i`, sorted ascending.
fn window_sorted(values: &[f64], i: usize, buf: &mut Vec<f64>) {
    let lo = i.saturating_sub(HALF_WINDOW);
    let hi = (i + HALF_WINDOW + 1).min(values.len());
    buf.clear();
    buf.extend_from_slice(&values[lo..hi]);
    buf.sort_unstable_by(f64::total_cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_cut_at_the_edges() {
        let v: Vec<f64> = (1..=30).map(f64::from).collect();
        let r = Rolling::of(&v);
        // Frame 0: window is values 1..=10 (10 values): median = (5 + 6) / 2.
        assert!((r.median[0] - 5.5).abs() < 1e-12);
        // Frame 15 (value 16): window 7..=25: median 16, q1 at h = 4.5 → 11.5, q3 → 20.5.
        assert!((r.median[15] - 16.0).abs() < 1e-12);
        assert!((r.q1[15] - 11.5).abs() < 1e-12);
        assert!((r.q3[15] - 20.5).abs() < 1e-12);
        // Frame 29: window 21..=30: median 25.5.
        assert!((r.median[29] - 25.5).abs() < 1e-12);
    }

    #[test]
    fn missing_values_are_left_out() {
        let v = [f64::NAN, 2.0, f64::NAN, 4.0];
        let m = rolling_median_present(&v);
        assert!(m.iter().all(|x| (x - 3.0).abs() < 1e-12));
        assert!(
            rolling_median_present(&[f64::NAN; 3])
                .iter()
                .all(|x| x.is_nan())
        );
        assert!(Rolling::of(&[]).median.is_empty());
    }
}
