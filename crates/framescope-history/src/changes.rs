//! Change points over a figure's series of build values (`metrics.md` §14, the history
//! page): binary segmentation with Welch's t-test between the two segments. The split
//! with the largest |t| is tested; it is a change point when the test's two-sided
//! p-value is below [`ALPHA`] divided by the number of splits tried (Bonferroni: at most a 1 % chance of a false change point
//! per segment searched when the level does not move), both segments hold at least
//! [`MIN_SEGMENT`] builds, and the level moves by more than the noise band (a slow drift
//! is no step). Segments on either side are searched again.

use framescope_core::report::{Welch, t_cdf};

/// The false-alarm rate per segment searched.
pub const ALPHA: f64 = 0.01;
/// The fewest builds on each side of a change point.
pub const MIN_SEGMENT: usize = 3;

/// The indices into `values` where a new level starts (ascending).
#[must_use]
pub fn change_points(values: &[f64], noise_band: f64) -> Vec<usize> {
    let mut out = Vec::new();
    split(values, 0, noise_band, &mut out);
    out.sort_unstable();
    out
}

/// The two-sided p-value of Welch's test between `a` and `b` (0 for a difference with no
/// spread at all, 1 for none).
fn p_value(a: &[f64], b: &[f64]) -> Option<f64> {
    let w = Welch::of(a, b)?;
    match w.df {
        Some(df) => Some(2.0 * (1.0 - t_cdf((w.delta / w.se).abs(), df))),
        None => Some(if w.delta == 0.0 { 1.0 } else { 0.0 }),
    }
}

/// Running sums of values and squares: any segment's mean and variance in O(1).
struct Sums {
    s1: Vec<f64>,
    s2: Vec<f64>,
}

impl Sums {
    fn new(values: &[f64]) -> Self {
        let (mut s1, mut s2) = (vec![0.0], vec![0.0]);
        for v in values {
            s1.push(s1[s1.len() - 1] + v);
            s2.push(s2[s2.len() - 1] + v * v);
        }
        Self { s1, s2 }
    }

    /// Count, mean and sample variance of `values[a..b]`.
    fn of(&self, a: usize, b: usize) -> (f64, f64, f64) {
        let n = (b - a) as f64;
        let mean = (self.s1[b] - self.s1[a]) / n;
        let var = ((self.s2[b] - self.s2[a]) - n * mean * mean).max(0.0) / (n - 1.0);
        (n, mean, var)
    }

    /// Welch's |t| at split `k` of `values[..n]`: the splits are ranked by it (p-values
    /// of large steps all round to 0); the best is then tested with the core's [`Welch`].
    fn t_at(&self, k: usize, n: usize) -> f64 {
        let ((na, ma, va), (nb, mb, vb)) = (self.of(0, k), self.of(k, n));
        let se = (va / na + vb / nb).sqrt();
        if se > 0.0 && se.is_finite() {
            ((mb - ma) / se).abs()
        } else if (mb - ma).abs() <= 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn split(values: &[f64], offset: usize, noise_band: f64, out: &mut Vec<usize>) {
    let n = values.len();
    if n < 2 * MIN_SEGMENT {
        return;
    }
    let tried = n - 2 * MIN_SEGMENT + 1;
    let sums = Sums::new(values);
    let best = (MIN_SEGMENT..=n - MIN_SEGMENT)
        .filter(|&k| {
            let (ma, mb) = (sums.of(0, k).1, sums.of(k, n).1);
            (mb - ma).abs() > noise_band * ma.abs()
        })
        .map(|k| (k, sums.t_at(k, n)))
        .max_by(|x, y| x.1.total_cmp(&y.1));
    let Some((k, _)) = best else { return };
    let (a, b) = values.split_at(k);
    let moved = (mean(b) - mean(a)).abs() > noise_band * mean(a).abs();
    if moved && p_value(a, b).is_some_and(|p| p < ALPHA / tried as f64) {
        out.push(offset + k);
        split(a, offset, noise_band, out);
        split(b, offset + k, noise_band, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.2 % noise around 100 (a fixed pattern), then a 10 % step at build 8.
    fn noisy(n: usize) -> Vec<f64> {
        (0..n).map(|i| 100.0 + [0.2, -0.1, 0.15, -0.2, 0.05, -0.15, 0.1][i % 7]).collect()
    }

    #[test]
    fn a_step_is_found_where_it_starts() {
        let mut v = noisy(14);
        for x in &mut v[8..] {
            *x *= 0.9;
        }
        assert_eq!(change_points(&v, 0.01), vec![8]);
        // Two steps.
        for x in &mut v[11..] {
            *x *= 0.9;
        }
        assert_eq!(change_points(&v, 0.01), vec![8, 11]);
    }

    #[test]
    fn a_long_history_is_searched_quickly() {
        let mut v = noisy(3000);
        for x in &mut v[1700..] {
            *x *= 1.05;
        }
        let start = std::time::Instant::now();
        assert_eq!(change_points(&v, 0.01), vec![1700]);
        assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
    }

    #[test]
    fn noise_an_outlier_and_a_slow_drift_are_not_change_points() {
        assert!(change_points(&noisy(14), 0.01).is_empty());
        let mut one = noisy(14);
        one[6] *= 0.9;
        assert!(change_points(&one, 0.01).is_empty(), "one bad build that recovers");
        let drift: Vec<f64> =
            noisy(14).iter().enumerate().map(|(i, x)| x * (1.0 + 0.001 * i as f64)).collect();
        assert!(change_points(&drift, 0.01).is_empty());
        assert!(change_points(&[1.0, 2.0, 3.0], 0.01).is_empty());
    }
}
