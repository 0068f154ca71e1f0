//! Test data shared by the level-of-detail tests.

/// ~118 FPS frames (8.2–8.8 ms) with a 40 ms stutter every 500 frames and a NaN
/// every 97.
pub fn noisy(n: usize) -> Vec<f64> {
    let mut x: u32 = 7;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if i % 500 == 250 {
                40.0
            } else if i % 97 == 3 {
                f64::NAN
            } else {
                8.2 + f64::from(x % 600) / 1000.0
            }
        })
        .collect()
}
