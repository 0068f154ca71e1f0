//! Latency figures that come straight from a capture's own columns (`metrics.md` §7,
//! last paragraphs; `cli-report.md` `latency`). PCL marker logs add I2FS/FS2P/P2D.

use crate::model::{ColumnKind, Trace};
use serde::Serialize;

/// The `latency` section of a run.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Latency {
    /// `mean(I2FS) + mean(FS2P) + mean(P2D)` from a PCL marker log.
    pub pcl_ms: Option<f64>,
    /// Mean input to simulation start (PCL marker log).
    pub i2fs_ms: Option<f64>,
    /// Mean simulation start to present (PCL marker log).
    pub fs2p_ms: Option<f64>,
    /// Mean present to display (PCL marker log joined to the capture).
    pub p2d_ms: Option<f64>,
    /// Mean of the capture's `MsPCLatency` cells.
    pub pc_latency_column_mean_ms: Option<f64>,
    /// Mean `DisplayLatency` (2.0–2.3), else mean `MsUntilDisplayed`, over displayed frames.
    pub display_latency_mean_ms: Option<f64>,
    /// Mean of the capture's click-to-photon cells.
    pub click_to_photon_mean_ms: Option<f64>,
}

impl Latency {
    /// The figures a capture's own columns give.
    #[must_use]
    pub fn from_columns(trace: &Trace) -> Self {
        let mean_of = |kind: ColumnKind| trace.column(kind).and_then(|c| mean_where(&c.values, |_| true));
        let displayed = |kind: ColumnKind| {
            trace.column(kind).and_then(|c| mean_where(&c.values, |i| !trace.frames.dropped[i]))
        };
        Self {
            pc_latency_column_mean_ms: mean_of(ColumnKind::PcLatency),
            display_latency_mean_ms: displayed(ColumnKind::DisplayLatency)
                .or_else(|| displayed(ColumnKind::UntilDisplayed)),
            click_to_photon_mean_ms: mean_of(ColumnKind::ClickToPhoton),
            ..Self::default()
        }
    }
}

/// The per-frame latency stages a capture's own columns give, in pipeline order —
/// what the timeline's latency row stacks. PresentMon 2.x: CPU busy, CPU wait, GPU
/// latency, GPU busy, GPU wait, display latency, input to photon; 1.x: time in
/// Present(), until render complete, until displayed.
pub const STAGE_KINDS: [ColumnKind; 12] = [
    ColumnKind::CpuBusy,
    ColumnKind::CpuWait,
    ColumnKind::GpuLatency,
    ColumnKind::GpuBusy,
    ColumnKind::GpuWait,
    ColumnKind::DisplayLatency,
    ColumnKind::InPresentApi,
    ColumnKind::UntilRenderComplete,
    ColumnKind::UntilDisplayed,
    ColumnKind::ClickToPhoton,
    ColumnKind::AllInputToPhoton,
    ColumnKind::PcLatency,
];

/// One latency stage of every frame.
#[derive(Debug, Clone, Copy)]
pub struct Stage<'a> {
    /// Header name as the file writes it.
    pub name: &'a str,
    /// What it measures.
    pub kind: ColumnKind,
    /// Value per trace frame (NaN where missing or dropped).
    pub values_ms: &'a [f64],
}

/// The latency stages a trace has, in [`STAGE_KINDS`] order.
#[must_use]
pub fn stages(trace: &Trace) -> Vec<Stage<'_>> {
    STAGE_KINDS
        .iter()
        .filter_map(|&kind| trace.column(kind))
        .map(|c| Stage { name: &c.name, kind: c.kind, values_ms: &c.values })
        .collect()
}

/// Mean of the present values whose index passes `keep`; `None` when there are none.
fn mean_where(values: &[f64], keep: impl Fn(usize) -> bool) -> Option<f64> {
    let (sum, n) = values
        .iter()
        .enumerate()
        .filter(|&(i, v)| !v.is_nan() && keep(i))
        .fold((0.0, 0usize), |(s, n), (_, v)| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_come_in_pipeline_order() {
        let csv = "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed,MsGPUBusy,MsCPUBusy\n\
                   g.exe,1,0x1,10,5,3,2\n";
        let c = crate::ingest::load_bytes(
            std::path::Path::new("s.csv"),
            csv.as_bytes(),
            crate::ingest::LoadOptions::default(),
        );
        let trace = c.unwrap_or_else(|e| panic!("{e}")).traces.remove(0);
        let names: Vec<&str> = stages(&trace).iter().map(|s| s.name).collect();
        assert_eq!(names, ["MsCPUBusy", "MsGPUBusy", "MsUntilDisplayed"]);
    }

    #[test]
    fn means_skip_missing_and_dropped() {
        assert_eq!(mean_where(&[1.0, f64::NAN, 3.0], |_| true), Some(2.0));
        assert_eq!(mean_where(&[1.0, 5.0, 3.0], |i| i != 1), Some(2.0));
        assert_eq!(mean_where(&[f64::NAN], |_| true), None);
    }
}
