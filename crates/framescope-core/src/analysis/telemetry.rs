//! The `telemetry` section (`cli-report.md`): for every telemetry column of a run (GPU
//! and CPU clocks, utilisation, temperature, power, …), the mean, minimum and maximum
//! of its numeric cells. Per-frame captures average per frame, as FrameView's summary
//! file does; sampled logs weight each sample by its interval (`metrics.md` §10).

use crate::model::Trace;
use serde::Serialize;
use std::collections::BTreeMap;

/// One telemetry column's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TelemetryStats {
    /// Mean of the numeric cells (weighted by the sample interval in sampled logs).
    pub mean: f64,
    /// Smallest cell.
    pub min: f64,
    /// Largest cell.
    pub max: f64,
}

/// Telemetry column name (as the header writes it) → its statistics.
pub type Telemetry = BTreeMap<String, TelemetryStats>;

/// The statistics of every telemetry column over every frame of `trace` (dropped ones
/// too, as FrameView's summary averages), each weighted by `weight(index)`.
#[must_use]
pub fn of(trace: &Trace, weight: impl Fn(usize) -> f64) -> Telemetry {
    let mut out = Telemetry::new();
    for column in trace.frames.columns.iter().filter(|c| c.is_telemetry()) {
        let (mut sum, mut weights) = (0.0, 0.0);
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..trace.len() {
            let Some(v) = column.values.get(i) else { continue };
            if v.is_nan() {
                continue;
            }
            let w = weight(i);
            sum += v * w;
            weights += w;
            min = min.min(v);
            max = max.max(v);
        }
        if weights > 0.0 {
            out.insert(column.name.clone(), TelemetryStats { mean: sum / weights, min, max });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Column, ColumnKind, Frames, TraceMeta};

    /// GPU temperature 60, NaN, 70, 80 over 4 frames: mean (60 + 70 + 80)/3 = 70 per
    /// frame; weighted 1, 1, 2, 1 (the NaN skipped): (60 + 140 + 80)/4 = 70 as well; with
    /// weights 1, 1, 1, 3: (60 + 70 + 240)/5 = 74.
    #[test]
    fn means_are_per_frame_or_weighted() {
        let trace = Trace {
            meta: TraceMeta::named("x"),
            frames: Frames {
                frame_time_ms: vec![10.0; 4],
                columns: vec![
                    Column {
                        name: "GPU0Temp(C)".into(),
                        kind: ColumnKind::Telemetry,
                        values: vec![60.0, f64::NAN, 70.0, 80.0].into(),
                    },
                    Column {
                        name: "SyncInterval".into(),
                        kind: ColumnKind::Other,
                        values: vec![1.0; 4].into(),
                    },
                ],
                ..Frames::default()
            },
            warnings: vec![],
        };
        let t = of(&trace, |_| 1.0);
        assert_eq!(t.len(), 1);
        assert_eq!(t["GPU0Temp(C)"], TelemetryStats { mean: 70.0, min: 60.0, max: 80.0 });
        let w = of(&trace, |i| if i == 3 { 3.0 } else { 1.0 });
        assert!((w["GPU0Temp(C)"].mean - 74.0).abs() < 1e-12);
        assert!(of(&trace, |_| 0.0).is_empty(), "no weight, no mean");
    }
}
