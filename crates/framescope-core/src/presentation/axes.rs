//! Axes of the rows a front end draws: round tick steps, and for telemetry columns
//! (GPU clock, temperature, power, an engine's stats) their unit — the one the file
//! declares ([`Frames::units`](crate::model::Frames::units)), else the one the name
//! says — and an axis of round numbers around the values that does not turn a small
//! change into a cliff, and never runs past 100 % for a percentage.

use crate::model::Trace;

/// Units a file may declare, as the axes write them (a declared unit is matched to one
/// of these; any other declared unit is not shown and the name decides).
const KNOWN_UNITS: [&str; 24] = [
    "%", "MB", "GB", "KB", "B", "W", "MHz", "GHz", "Hz", "°C", "ms", "µs", "s", "FPS", "RPM", "V", "mV", "A",
    "B/s", "MB/s", "L/h", "mWh", "dBA", "x",
];

/// The unit of a trace's telemetry column `name`: the one its file declares (MSI
/// Afterburner's `03` lines, CapFrameX's sensor types, MangoHud's known columns), else
/// the one its name says ([``telemetry_unit`). A temperature keeps °C whatever the file
/// declares (a real Afterburner log declares "%" for its temperatures: a mangled "°C").
#[must_use]
pub fn column_unit(trace: &Trace, name: &str) -> &'static str {
    let guessed = telemetry_unit(name);
    let declared = trace.frames.units.iter().find(|(n, _)| n == name).map(|(_, u)| u.trim());
    match declared.and_then(known_unit) {
        Some(_) if guessed == "°C" => guessed,
        Some(unit) => unit,
        None => guessed,
    }
}

/// A declared unit as [`KNOWN_UNITS`] writes it (`C` and `°C` are °C, `Mhz` MHz), or
/// `None` for one it does not know.
fn known_unit(unit: &str) -> Option<&'static str> {
    let unit = unit.trim();
    if unit.is_empty() {
        // Declared without a unit (CapFrameX's Factor sensors): none, whatever the name.
        return Some("");
    }
    if matches!(unit, "C" | "°C" | "ºC" | "degC") {
        return Some("°C");
    }
    KNOWN_UNITS.iter().find(|k| k.eq_ignore_ascii_case(unit)).copied()
}

/// A telemetry row's axis for values in `[lo, hi]` of `unit`: [``telemetry_axis`, with a
/// percentage's axis ending at 100 % when no value is above it (a load of 97 % reads
/// 0–100 %, not 0–150 %) and starting at 0 % at the lowest.
#[must_use]
pub fn telemetry_axis_in(lo: f64, hi: f64, unit: &str) -> (f64, f64) {
    let (a, b) = telemetry_axis(lo, hi);
    if unit == "%" && hi <= 100.0 && lo >= 0.0 { (a.max(0.0), b.min(100.0)) } else { (a, b) }
}

/// The unit a telemetry column's name says (°C, W, MHz, %, ms, …), or "" when it
/// says none.
#[must_use]
pub fn telemetry_unit(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if has(&["limited"]) {
        // PresentMon's throttling flags: 0 or 1.
        ""
    } else if has(&["fps", "framerate"]) {
        // Rates before "%": NVIDIA App's `FPS 1(%) Low` is a frame rate.
        "FPS"
    } else if has(&["(milli volts)", "(mv)"]) {
        // NVIDIA App's `GPU1 Voltage(Milli Volts)`.
        "mV"
    } else if has(&["(msec)"]) {
        "ms"
    } else if has(&["(mib)"]) {
        // XRFrameTools' VRAM, converted from bytes.
        "MiB"
    } else if has(&["(mb)", "mbytes"]) || n.ends_with("mb") {
        // Unreal's stats end in MB (`MemoryFreeMB`, `PhysicalUsedMB`; formats.md §10).
        "MB"
    } else if ["exclusive/", "inclusive/", "gpu/"].iter().any(|p| n.starts_with(p))
        || n.ends_with("_ms")
        || n.ends_with("_milliseconds")
        || n.contains("(ms)")
    {
        // Unreal's `Exclusive/…` and `GPU/…` stats are ms; so are `*_ms` / `(ms)` columns.
        "ms"
    } else if n.ends_with("_us") || n.ends_with("_microseconds") || n.contains("(us)") || n.contains("(µs)")
    {
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
        // The VR logs: XRFrameTools' converted VRAM and its 0/1 flags, OVR Metrics' units.
        assert_eq!(telemetry_unit("VRAM Current Usage (MiB)"), "MiB");
        assert_eq!(telemetry_unit("GPU Power Limited"), "");
        assert_eq!(telemetry_unit("app_gpu_time_microseconds"), "µs");
        assert_eq!(telemetry_unit("average_prediction_milliseconds"), "ms");
        assert_eq!(telemetry_unit("power_wattage"), "W");
        assert_eq!(telemetry_unit("CPUUsage_Process"), "%");
        assert_eq!(telemetry_unit("GPU0Clk(MHz)"), "MHz");
        assert_eq!(telemetry_unit("Memory Used"), "B");
        assert_eq!(telemetry_unit("GPU Temperature"), "°C");
        assert_eq!(telemetry_unit("CPU Power Limited"), "");
        // NVIDIA App's rates and voltages, Afterburner's framerate columns.
        assert_eq!(telemetry_unit("FPS 1(%) Low"), "FPS");
        assert_eq!(telemetry_unit("Framerate 1% Low"), "FPS");
        assert_eq!(telemetry_unit("GPU1 Voltage(Milli Volts)"), "mV");
        assert_eq!(telemetry_unit("GPU1 Temperature(Degrees celsius)"), "°C");
    }

    /// Declared units win over names ("Memory usage" is MB in an Afterburner log, not
    /// %), but a temperature stays °C; a column without a declaration keeps its name's.
    #[test]
    fn declared_units_win() {
        let meta = crate::model::TraceMeta::named("x");
        let mut t = Trace { meta, frames: crate::model::Frames::default(), warnings: vec![] };
        t.frames.units = vec![
            ("Memory usage".into(), "MB".into()),
            ("GPU temperature".into(), "%".into()),
            ("Odd".into(), "furlongs".into()),
            ("GPU Core Load".into(), "%".into()),
        ];
        assert_eq!(column_unit(&t, "Memory usage"), "MB");
        assert_eq!(column_unit(&t, "GPU temperature"), "°C");
        assert_eq!(column_unit(&t, "Odd"), "");
        assert_eq!(column_unit(&t, "GPU Core Load"), "%");
        assert_eq!(column_unit(&t, "CPU usage"), "%");
    }

    /// Loads of 78–99 %: the plain axis is 60–120 (88.5 ± 12.6 = 75.9 … 101.1 in steps
    /// of 20); as a percentage it ends at 100. A value above 100 % (a process over
    /// several cores) keeps the plain axis.
    #[test]
    fn percentages_end_at_100() {
        let plain = telemetry_axis(78.0, 99.0);
        assert_eq!(plain, (60.0, 120.0));
        assert_eq!(telemetry_axis_in(78.0, 99.0, "%"), (plain.0, 100.0));
        assert_eq!(telemetry_axis_in(78.0, 99.0, "W"), plain);
        assert_eq!(telemetry_axis_in(50.0, 180.0, "%"), telemetry_axis(50.0, 180.0));
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
