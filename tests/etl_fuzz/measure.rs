//! This process's peak memory and time over one piece of work: the peak (`VmHWM`) is
//! reset before it (`/proc/self/clear_refs`, Linux), and the tests that measure run one
//! at a time ([`crate::serial`]), so the peak is the work's (plus what the test process
//! already holds).

use std::time::{Duration, Instant};

pub const MIB: u64 = 1 << 20;

/// What a piece of work gave, how long it took and the peak memory meanwhile (`None`
/// where `/proc` cannot say: the Windows build under Wine).
pub struct Measured<T> {
    pub value: T,
    pub took: Duration,
    pub peak: Option<u64>,
    /// Resident memory when the work started.
    pub start: Option<u64>,
}

impl<T> std::fmt::Display for Measured<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |b: Option<u64>| b.map_or_else(|| "n/a".to_owned(), |p| format!("{} MiB", p / MIB));
        write!(f, "{:.2} s, peak {} (from {})", self.took.as_secs_f64(), mib(self.peak), mib(self.start))
    }
}

/// A memory figure of this process (Linux) from `/proc/self/status`, in bytes.
fn status(field: &str) -> Option<u64> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

/// Peak resident memory of this process since the last reset (Linux), in bytes.
pub fn peak_rss() -> Option<u64> {
    status("VmHWM:")
}

/// Sets the peak back to the current resident memory (Linux 4.0+).
pub fn reset_peak() {
    if cfg!(target_os = "linux") {
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
}

/// Runs `work`, measuring its time and the peak memory meanwhile.
pub fn measured<T>(work: impl FnOnce() -> T) -> Measured<T> {
    reset_peak();
    let start = status("VmRSS:");
    let started = Instant::now();
    let value = work();
    Measured { took: started.elapsed(), peak: peak_rss(), start, value }
}
