//! Generated captures for the history tests: runs of a scene whose frame times are one
//! fixed pattern (10 ms frames with a jitter of ±20 %, every 250th frame a 30 ms hitch)
//! scaled by a level: the build's level (a step, a drift) times a run's noise, drawn
//! from a seeded normal distribution with a standard deviation of 0.3 %. Every figure
//! that scales with frame times therefore moves by the level, and none other moves.

use crate::common::{PM1_HEADER, TempDir, framescope};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Frames per run.
pub const FRAMES: usize = 2000;
/// The run-to-run noise (standard deviation of a run's level).
pub const NOISE: f64 = 0.003;

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-12);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// The frame-time pattern every run scales.
pub fn pattern() -> Vec<f64> {
    let mut rng = Rng(7);
    (0..FRAMES).map(|i| if i % 250 == 125 { 30.0 } else { 10.0 * (0.8 + 0.4 * rng.uniform()) }).collect()
}

/// A PresentMon capture of `app` whose frame times are the pattern times `level`.
pub fn capture(dir: &TempDir, name: &str, app: &str, level: f64) -> PathBuf {
    let mut text = format!("{PM1_HEADER}\n");
    let mut t = 0.0;
    for ms in pattern() {
        let ms = ms * level;
        t += ms / 1000.0;
        let _ = writeln!(
            text,
            "{app},7,0x1,DXGI,0,0,0,Hardware: Independent Flip,0,{t:.6},{ms:.6},{ms:.6},0.4,1.5,5.0"
        );
    }
    dir.file(name, text.as_bytes())
}

/// `framescope history ARGS`, with the environment given.
pub fn history(args: &[&std::ffi::OsStr]) -> crate::common::Run {
    let mut all: Vec<&std::ffi::OsStr> = vec!["history".as_ref()];
    all.extend_from_slice(args);
    framescope(all)
}
