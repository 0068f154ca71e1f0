//! Where a chart samples its curves: the percentile curve and the slow- and
//! excess-time curves are drawn from a few hundred points, the same for the window and
//! the HTML page, so both show the same curve.

/// Percentiles sampled, in millionths (0..=1_000_000): steps of 1 % up to 90, then ten
/// times finer for each further "nine", down to 0.0001 % above 99.99 (461 points).
pub fn percentile_grid() -> impl Iterator<Item = u32> {
    const RUNS: [(u32, u32, usize); 5] = [
        (0, 900_000, 10_000),
        (900_000, 990_000, 1_000),
        (990_000, 999_000, 100),
        (999_000, 999_900, 10),
        (999_900, 1_000_001, 1),
    ];
    RUNS.into_iter().flat_map(|(first, end, step)| (first..end).step_by(step))
}

/// Target rates sampled for S(F) and E(F): every integer to 240 (so the usual targets
/// are exact), every 2nd to 500, every 5th to 1000 (470 points).
pub fn fps_grid() -> impl Iterator<Item = f64> {
    (1..=240_u32).chain((242..=500).step_by(2)).chain((505..=1000).step_by(5)).map(f64::from)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_grids_have_their_documented_sizes_and_ends() {
        let p: Vec<u32> = super::percentile_grid().collect();
        assert_eq!(p.len(), 90 + 90 + 90 + 90 + 101);
        assert_eq!((p[0], p[p.len() - 1]), (0, 1_000_000));
        let f: Vec<f64> = super::fps_grid().collect();
        assert_eq!(f.len(), 240 + 130 + 100);
        assert_eq!((f[0], f[f.len() - 1]), (1.0, 1000.0));
    }
}
