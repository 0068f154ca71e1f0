//! Hand-built runs whose average FPS is known exactly, for sets of runs (the CLI's
//! `compare A1 A2 --vs B1 B2` and the window's sets).

use std::fmt::Write as _;
use std::path::PathBuf;

pub const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,\
MsUntilDisplayed";

/// A 10 s run of `fps` frames per second on average, exactly: 10·fps frames whose
/// times alternate a quarter millisecond around 1000/fps (three decimals) and whose
/// last frame makes the total exactly 10 000 ms, so avg_fps = 1000·n/T = fps.
pub fn run_at(dir: &std::path::Path, name: &str, fps: u32) -> PathBuf {
    let n = fps as usize * 10;
    let base = (1_000_000.0 / f64::from(fps)).round() / 1000.0;
    let mut times_us: Vec<i64> = (0..n - 1)
        .map(|i| ((base + if i % 2 == 0 { 0.25 } else { -0.25 }) * 1000.0).round() as i64)
        .collect();
    times_us.push(10_000_000 - times_us.iter().sum::<i64>());
    write_run(dir, name, times_us)
}

/// A run of `n` frames of `ft(i)` ms each (rounded to the µs), named `name` in `dir`.
pub fn of_times(dir: &std::path::Path, name: &str, n: usize, ft: impl Fn(usize) -> f64) -> PathBuf {
    write_run(dir, name, (0..n).map(|i| (ft(i) * 1000.0).round() as i64))
}

/// The capture of frames `times_us` (µs) as PresentMon 1.x writes it (three decimals).
fn write_run(dir: &std::path::Path, name: &str, times_us: impl IntoIterator<Item = i64>) -> PathBuf {
    let mut text = format!("{HEADER}\n");
    let mut t = 0;
    for ft in times_us {
        t += ft;
        let ms = ft as f64 / 1000.0;
        writeln!(
            text,
            "game.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,0,{:.6},{ms:.3},{ms:.3},0.4,1.5,5.0",
            t as f64 / 1e6
        )
        .unwrap();
    }
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

pub fn set(dir: &std::path::Path, prefix: &str, fps: &[u32]) -> Vec<PathBuf> {
    fps.iter().enumerate().map(|(i, &f)| run_at(dir, &format!("{prefix}{}.csv", i + 1), f)).collect()
}
