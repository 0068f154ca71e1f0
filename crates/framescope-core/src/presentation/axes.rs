//! Axes of the rows a front end draws: round tick steps, and for telemetry columns
//! (GPU clock, temperature, power, an engine's stats) the unit a column's name says and
//! an axis of round numbers around its values that does not turn a small change into a
//! cliff.

/// The unit a telemetry column's name says (°C, W, MHz, %, ms, …), or "" when it
/// says none.
#[must_use]
pub fn telemetry_unit(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if has(&["limited"]) {
        // PresentMon's throttling flags: 0 or 1.
        ""
    } else if has(&["(mb)", "mbytes"]) || n.ends_with("mb") {
        // Unreal's stats end in MB (`MemoryFreeMB`, `PhysicalUsedMB`; formats.md §10).
        "MB"
    } else if ["exclusive/", "inclusive/", "gpu/"].iter().any(|p| n.starts_with(p))
        || n.ends_with("_ms")
        || n.contains("(ms)")
    {
        // Unreal's `Exclusive/…` and `GPU/…` stats are ms; so are `*_ms` / `(ms)` columns.
        "ms"
    } else if n.ends_with("_us") || n.contains("(us)") || n.contains("(µs)") {
        "µs"
    } else if has(&["temperature", "temp", "celsius", "°c"]) {
        "°C"
    } else if has(&["utilization", "util", "load", "usage", "%", "percent"]) {
        "%"
    } else if has(&["power", "watt"]) {
        "W"
    } else if has(&["voltage", "volt"]) {
        "V"
    } else if has(&["frequency", "clock", "clk", "mhz"]) {
        "MHz"
    } else if has(&["fan", "rpm"]) {
        "RPM"
    } else if has(&["bandwidth"]) {
        "B/s"
    } else if has(&["size", "memory", "vram"]) {
        "B"
    } else {
        ""
    }
}

/// A telemetry row's axis: round bounds around `[lo, hi]` that are at least a tenth of
/// the values' size apart (so that 75 → 76 °C is a small step, not a cliff), from 0
/// when the values are near it.
#[must_use]
pub fn telemetry_axis(lo: f64, hi: f64) -> (f64, f64) {
    let size = lo.abs().max(hi.abs());
    let span = (hi - lo).max(0.1 * size).max(1e-9);
    let centre = f64::midpoint(lo, hi);
    let (mut a, mut b) = (centre - span * 0.6, centre + span * 0.6);
    a = a.min(lo);
    b = b.max(hi);
    if lo >= 0.0 && a < 0.0 {
        a = 0.0;
    }
    if lo >= 0.0 && a < 0.25 * b {
        a = 0.0;
    }
    let step = nice_step((b - a) / 2.0);
    ((a / step).floor() * step, (b / step).ceil() * step)
}

/// The smallest step of the form {1, 2, 5} · 10^k not below `raw` (1 for a raw step
/// that is not a positive number): the tick step of an axis.
#[must_use]
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let decade = 10_f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&w| w >= raw * 0.999_999)
        .unwrap_or(10.0 * decade)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_stat_units() {
        assert_eq!(telemetry_unit("MemoryFreeMB"), "MB");
        assert_eq!(telemetry_unit("Exclusive/GameThread/Physics"), "ms");
        assert_eq!(telemetry_unit("GPU/BasePass"), "ms");
        assert_eq!(telemetry_unit("cpu_us"), "µs");
        assert_eq!(telemetry_unit("CPUUsage_Process"), "%");
        assert_eq!(telemetry_unit("GPU0Clk(MHz)"), "MHz");
        assert_eq!(telemetry_unit("Memory Used"), "B");
        assert_eq!(telemetry_unit("GPU Temperature"), "°C");
        assert_eq!(telemetry_unit("CPU Power Limited"), "");
    }

    /// 75 → 76 °C: the span is at least a tenth of 76 (7.6), 1.2 × that around the
    /// middle (75.5 ± 4.56 = 70.94 … 80.06), rounded out to steps of 5 (nice_step of
    /// 9.12 / 2 = 4.56): 70 … 85. Values from 0.5 to 3 start at 0 (0.5 < a quarter of
    /// the top) and round up to steps of 2: 0 … 4.
    #[test]
    fn axes_are_round_and_never_a_cliff() {
        assert_eq!(telemetry_axis(75.0, 76.0), (70.0, 85.0));
        assert_eq!(telemetry_axis(0.5, 3.0), (0.0, 4.0));
        assert!((nice_step(0.0) - 1.0).abs() < 1e-15);
        assert!((nice_step(3.0) - 5.0).abs() < 1e-15);
        assert!((nice_step(0.02) - 0.02).abs() < 1e-15);
        assert!((nice_step(101.0) - 200.0).abs() < 1e-12);
    }
}
