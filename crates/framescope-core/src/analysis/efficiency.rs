//! Efficiency: frames per joule (`metrics.md` §15). `fps_per_watt = avg_fps / P`, `P`
//! the mean of the capture's GPU power series over the analysed frames, each frame's
//! power sample weighted by its frame time (a sampled log's by its interval `Δt`);
//! likewise for the CPU package power. Frames per second per watt is frames per joule;
//! CapFrameX's "FPS/10 W" is ten times it.

use super::Series;
use crate::model::{Column, Trace};
use serde::Serialize;

/// A run's efficiency; `None` (the JSON's `null`) without a power series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Efficiency {
    /// `avg_fps / P` (GPU power), frames per joule; null without a GPU power series.
    pub fps_per_watt: Option<f64>,
    /// The GPU power column used, as its header writes it.
    pub power_source: Option<String>,
    /// `P`: the time-weighted mean GPU power, W.
    pub power_mean_w: Option<f64>,
    /// `avg_fps /` the time-weighted mean CPU package power.
    pub cpu_fps_per_watt: Option<f64>,
    /// The time-weighted mean CPU package power, W.
    pub cpu_power_mean_w: Option<f64>,
}

/// GPU power columns, most preferred first (`metrics.md` §15): a PCAT board's
/// measurement, NVIDIA's board power (FrameView's "GPU NV Power"), CapFrameX's sensor,
/// Afterburner's, MangoHud's, PresentMon's capture app's. AMD and Intel FrameView
/// columns (`…Pwr(W) (API)`) come after these ([`is_other_api_power`]).
const GPU_POWER: [&str; 7] =
    ["PCAT Power Total(W)", "NV Pwr(W) (API)", "GPU Power", "Power", "gpu_power", "GPUPower", "GPU power"];

/// CPU package power columns, most preferred first: FrameView, CapFrameX, MangoHud,
/// PresentMon's capture app, Afterburner.
const CPU_POWER: [&str; 5] =
    ["CPU Package Power(W)", "CPU Package Power", "cpu_power", "CPUPower", "CPU power"];

/// FrameView's other vendors' board power, `AMDPwr(W) (API)` and the like — not its
/// chip-only `GPUOnlyPwr` nor the `NV-Total-USBCPwr` variant.
fn is_other_api_power(name: &str) -> bool {
    let lower = name.trim().to_ascii_lowercase();
    lower.ends_with("pwr(w) (api)") && !lower.starts_with("gpuonly") && !lower.starts_with("nv")
}

/// The efficiency of the analysed `series` of `trace` at `avg_fps`; `None` when the
/// trace has no power series with a value on an analysed frame.
#[must_use]
pub fn of(trace: &Trace, series: &Series, avg_fps: f64) -> Option<Efficiency> {
    let gpu = gpu_column(trace).and_then(|c| weighted_mean(trace, series, c).map(|p| (c, p)));
    let cpu = CPU_POWER
        .iter()
        .filter_map(|name| trace.column_named(name))
        .find_map(|c| weighted_mean(trace, series, c));
    if gpu.is_none() && cpu.is_none() {
        return None;
    }
    let per_watt = |p: f64| (p > 0.0 && avg_fps.is_finite()).then(|| avg_fps / p);
    Some(Efficiency {
        fps_per_watt: gpu.and_then(|(_, p)| per_watt(p)),
        power_source: gpu.map(|(c, _)| c.name.clone()),
        power_mean_w: gpu.map(|(_, p)| p),
        cpu_fps_per_watt: cpu.and_then(per_watt),
        cpu_power_mean_w: cpu,
    })
}

/// The GPU power column of `trace`: the first of [`GPU_POWER`] with a number, then an
/// AMD or Intel FrameView column. Afterburner's `Power` counts only in watts (its
/// `Power percent` is a share of the limit; an older log may declare `%`).
fn gpu_column(trace: &Trace) -> Option<&Column> {
    let has_number =
        |c: &&Column| (0..trace.len()).any(|i| c.values.get(i).is_some_and(|p| p.is_finite() && p > 0.0));
    let in_watts =
        |c: &&Column| !trace.frames.units.iter().any(|(name, unit)| name == &c.name && unit.trim() == "%");
    GPU_POWER
        .iter()
        .filter_map(|name| trace.column_named(name))
        .chain(trace.frames.columns.iter().filter(|c| is_other_api_power(&c.name)))
        .filter(in_watts)
        .find(has_number)
}

/// The mean of `column` over the series' frames with a finite value > 0 (a sensor that
/// reads 0 W measured nothing: MangoHud writes 0 without a power sensor), each weighted
/// by its frame time (a sample by its interval); `None` when no frame has a value.
fn weighted_mean(trace: &Trace, series: &Series, column: &Column) -> Option<f64> {
    let sampled = trace.is_sampled();
    let (mut sum, mut weights) = (0.0, 0.0);
    for (k, &ft) in series.frame_time_ms.iter().enumerate() {
        let Some(i) = series.frame_of(k).map(|i| i as usize) else { continue };
        let Some(p) = column.values.get(i).filter(|p| p.is_finite() && *p > 0.0) else { continue };
        let w = if sampled { trace.frames.sample_ms.get(i).copied().unwrap_or(f64::NAN) } else { ft };
        if w.is_finite() && w > 0.0 {
            sum += p * w;
            weights += w;
        }
    }
    (weights > 0.0).then(|| sum / weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::FrameTimeSource;
    use crate::model::{ColumnKind, Frames, TraceMeta};

    fn column(name: &str, values: Vec<f64>) -> Column {
        Column { name: name.into(), kind: ColumnKind::Telemetry, values: values.into() }
    }

    /// Frames of 10, 20, 10 ms (3 frames in 40 ms: 75 FPS) at 100, 200, 100 W: the
    /// time-weighted power is (1000 + 4000 + 1000) / 40 = 150 W (the row mean would be
    /// 133.3), so 75 / 150 = 0.5 frames per joule. CPU 30, NaN, 60 W: (300 + 600) / 20
    /// = 45 W, 75 / 45 = 1.667. The chip-only column is never the GPU's power.
    #[test]
    fn power_is_time_weighted_over_the_analysed_frames() {
        let trace = Trace {
            meta: TraceMeta::named("x"),
            frames: Frames {
                frame_time_ms: vec![10.0, 20.0, 10.0],
                columns: vec![
                    column("GPUOnlyPwr(W) (API)", vec![1.0, 1.0, 1.0]),
                    column("NV Pwr(W) (API)", vec![100.0, 200.0, 100.0]),
                    column("CPU Package Power(W)", vec![30.0, f64::NAN, 60.0]),
                ],
                ..Frames::default()
            },
            warnings: vec![],
        };
        let series = Series::of(&trace, FrameTimeSource::Presents);
        let e = of(&trace, &series, 75.0).unwrap();
        assert_eq!(e.power_source.as_deref(), Some("NV Pwr(W) (API)"));
        assert!((e.power_mean_w.unwrap() - 150.0).abs() < 1e-12);
        assert!((e.fps_per_watt.unwrap() - 0.5).abs() < 1e-12);
        assert!((e.cpu_power_mean_w.unwrap() - 45.0).abs() < 1e-12);
        assert!((e.cpu_fps_per_watt.unwrap() - 75.0 / 45.0).abs() < 1e-12);
    }

    /// A sampled log weights by the interval: 2 samples of 60 and 120 FPS over 1 s and
    /// 3 s at 100 and 200 W: (100 + 600) / 4 = 175 W. Afterburner's `Power` in % is
    /// not a power; without any power column there is no efficiency.
    #[test]
    fn sampled_logs_weight_by_interval_and_percent_is_no_power() {
        let mut trace = Trace {
            meta: TraceMeta::named("x"),
            frames: Frames {
                frame_time_ms: vec![1000.0 / 60.0, 1000.0 / 120.0],
                sample_ms: vec![1000.0, 3000.0],
                columns: vec![column("Power", vec![100.0, 200.0])],
                ..Frames::default()
            },
            warnings: vec![],
        };
        let series = Series::of(&trace, FrameTimeSource::Presents);
        let e = of(&trace, &series, 105.0).unwrap();
        assert!((e.power_mean_w.unwrap() - 175.0).abs() < 1e-12);
        assert!((e.fps_per_watt.unwrap() - 0.6).abs() < 1e-12);
        assert_eq!(e.cpu_power_mean_w, None);
        trace.frames.units = vec![("Power".into(), "%".into())];
        assert_eq!(of(&trace, &series, 105.0), None);
        assert!(is_other_api_power("AMDPwr(W) (API)") && !is_other_api_power("NV-Total-USBCPwr(W) (API)"));
    }
}
