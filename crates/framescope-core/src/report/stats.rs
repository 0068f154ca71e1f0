//! The statistics of sets of runs (`metrics.md` §12): mean, sample standard deviation,
//! median, and Welch's 95 % confidence interval for a difference of means with
//! Student's t quantile (computed here from the regularized incomplete beta function,
//! no table).

/// The mean of `values` (`None` when empty).
#[must_use]
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The sample variance (n − 1); `None` with fewer than two values.
#[must_use]
pub fn variance(values: &[f64]) -> Option<f64> {
    let m = mean(values)?;
    (values.len() >= 2)
        .then(|| values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (values.len() - 1) as f64)
}

/// The sample standard deviation (n − 1); `None` with fewer than two values.
#[must_use]
pub fn std_dev(values: &[f64]) -> Option<f64> {
    variance(values).map(f64::sqrt)
}

/// The median (the mean of the two middle values for an even count); `None` when empty.
#[must_use]
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some(f64::midpoint(v[n / 2 - 1], v[n / 2])),
    }
}

/// Welch's interval for `mean_B − mean_A`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Welch {
    /// `mean_B − mean_A`.
    pub delta: f64,
    /// `√(s_A²/n_A + s_B²/n_B)`.
    pub se: f64,
    /// Welch–Satterthwaite degrees of freedom; `None` when `se` is 0.
    pub df: Option<f64>,
    /// `delta ± t(0.975, ν)·se` (`[delta, delta]` when `se` is 0).
    pub ci95: [f64; 2],
}

impl Welch {
    /// The interval for two samples of at least two values each; `None` otherwise.
    #[must_use]
    pub fn of(a: &[f64], b: &[f64]) -> Option<Self> {
        let (ma, mb) = (mean(a)?, mean(b)?);
        let (va, vb) = (variance(a)?, variance(b)?);
        let (na, nb) = (a.len() as f64, b.len() as f64);
        let (qa, qb) = (va / na, vb / nb);
        let delta = mb - ma;
        let se = (qa + qb).sqrt();
        if se == 0.0 || !se.is_finite() {
            return Some(Self { delta, se: 0.0, df: None, ci95: [delta, delta] });
        }
        let df = (qa + qb).powi(2) / (qa * qa / (na - 1.0) + qb * qb / (nb - 1.0));
        let half = t_quantile(0.975, df) * se;
        Some(Self { delta, se, df: Some(df), ci95: [delta - half, delta + half] })
    }

    /// True when the interval excludes 0.
    #[must_use]
    pub fn significant(&self) -> bool {
        self.ci95[0] > 0.0 || self.ci95[1] < 0.0
    }
}

/// Student's t quantile: the `t` with `P(T ≤ t) = p` for `ν` degrees of freedom
/// (`ν > 0`, any real). Bisection on [`t_cdf`] to full double precision; for `ν` above
/// 10⁵ the Cornish–Fisher expansion around the normal quantile (error below 10⁻¹²).
#[must_use]
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if p.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    match p.partial_cmp(&0.5) {
        Some(std::cmp::Ordering::Equal) => return 0.0,
        Some(std::cmp::Ordering::Less) => return -t_quantile(1.0 - p, df),
        _ => {}
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    if df > 1e5 {
        let z = normal_quantile(p);
        let (z3, z5) = (z.powi(3), z.powi(5));
        return z
            + (z3 + z) / (4.0 * df)
            + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
            + (3.0 * z.powi(7) + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3));
    }
    let mut hi = 1.0;
    while t_cdf(hi, df) < p {
        hi *= 2.0;
        if hi > 1e300 {
            return f64::INFINITY;
        }
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = f64::midpoint(lo, hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    f64::midpoint(lo, hi)
}

/// Student's t distribution function `P(T ≤ t)` with `ν` degrees of freedom:
/// `1 − ½·I_{ν/(ν+t²)}(ν/2, ½)` for `t ≥ 0`, symmetric below.
#[must_use]
pub fn t_cdf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return if t > 0.0 { 1.0 } else { 0.0 };
    }
    // For small |t| the complement form keeps precision: I_{t²/(ν+t²)}(½, ν/2).
    let tail = if t * t < df {
        0.5 - 0.5 * reg_inc_beta(0.5, df / 2.0, t * t / (df + t * t))
    } else {
        0.5 * reg_inc_beta(df / 2.0, 0.5, df / (df + t * t))
    };
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The standard normal quantile: Acklam's rational approximation refined by one
/// Halley step on the normal distribution function (relative error near 10⁻¹⁵).
#[must_use]
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    let low = 0.024_25;
    let x = if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    // One Halley step on Φ(x) − p, with Φ from the error function.
    let e = 0.5 * erfc(-x / std::f64::consts::SQRT_2) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// The complementary error function, from the regularized incomplete gamma function
/// `erfc(x) = Q(½, x²)` for `x ≥ 0`.
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    upper_inc_gamma(0.5, x * x)
}

/// The regularized upper incomplete gamma function `Q(a, x)` (series below `a + 1`,
/// continued fraction above; Numerical Recipes §6.2).
fn upper_inc_gamma(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-17 {
                break;
            }
        }
        1.0 - sum * front
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        front * h
    }
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; relative error near 10⁻¹⁵).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized incomplete beta function `I_x(a, b)` (continued fraction by the
/// modified Lentz method, Numerical Recipes §6.4).
fn reg_inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let away_from_zero = |v: f64| if v.abs() < tiny { tiny } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / away_from_zero(1.0 - qab * x / qap);
    let mut h = d;
    // One step of the modified Lentz method with coefficient `aa`: the factor `h`
    // is multiplied by.
    let mut step = |aa: f64| {
        d = 1.0 / away_from_zero(1.0 + aa * d);
        c = away_from_zero(1.0 + aa / c);
        d * c
    };
    for m in 1..100_000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)));
        let delta = step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)));
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn near(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Printed tables give three decimals; the closed forms and 8-digit references
    /// (Abramowitz & Stegun table 26.10) pin the rest.
    #[test]
    fn t_quantile_matches_the_tables() {
        for (df, want) in [
            (1.0, 12.706),
            (2.0, 4.303),
            (3.0, 3.182),
            (4.0, 2.776),
            (5.0, 2.571),
            (10.0, 2.228),
            (20.0, 2.086),
            (30.0, 2.042),
            (120.0, 1.980),
        ] {
            let t = t_quantile(0.975, df);
            assert!(near(t, want, 0.0005), "t(0.975, {df}) = {t}, table {want}");
        }
        // ν = 1 is Cauchy: tan(π(p − ½)); ν = 2: (2p − 1)·√(2 / (4p(1 − p))).
        let p: f64 = 0.975;
        assert!(near(t_quantile(p, 1.0), (std::f64::consts::PI * (p - 0.5)).tan(), 1e-9));
        assert!(near(t_quantile(p, 2.0), (2.0 * p - 1.0) * (2.0 / (4.0 * p * (1.0 - p))).sqrt(), 1e-10));
        assert!(near(t_quantile(0.975, 10.0), 2.228_138_85, 1e-8));
        assert!(near(t_quantile(0.975, 30.0), 2.042_272_46, 1e-8));
        // Large ν: the normal quantile 1.959964.
        assert!(near(t_quantile(0.975, 1e4), 1.960_201_24, 1e-7), "{}", t_quantile(0.975, 1e4));
        assert!(near(t_quantile(0.975, 1e6), 1.959_966_4, 1e-6));
        assert!(near(t_quantile(0.975, 1e12), 1.959_963_985, 1e-9));
        assert!(near(normal_quantile(0.975), 1.959_963_984_540_054, 1e-13));
        // The expansion and the bisection agree where they meet.
        let below = t_quantile(0.975, 99_999.0);
        let above = t_quantile(0.975, 100_001.0);
        assert!(near(below, above, 1e-9), "{below} {above}");
        // Symmetry, the median, and fractional ν lying between its neighbours.
        assert!(near(t_quantile(0.025, 7.0), -t_quantile(0.975, 7.0), 1e-12));
        assert!(t_quantile(0.5, 3.0).abs() < 1e-300);
        let mid = t_quantile(0.975, 2.5);
        assert!(mid < t_quantile(0.975, 2.0) && mid > t_quantile(0.975, 3.0), "{mid}");
        // The distribution function at the quantile gives p back.
        for df in [1.0, 1.7, 2.941_176_470_588_235, 9.3, 57.0, 4000.0] {
            assert!(near(t_cdf(t_quantile(0.975, df), df), 0.975, 1e-12), "{df}");
        }
    }

    #[test]
    fn mean_std_and_median() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        // Deviations −2, −1, 3: (4 + 1 + 9) / 2 = 7.
        assert_eq!(variance(&[1.0, 2.0, 6.0]), Some(7.0));
        assert_eq!(std_dev(&[5.0]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }
}
