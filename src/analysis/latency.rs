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
    fn means_skip_missing_and_dropped() {
        assert_eq!(mean_where(&[1.0, f64::NAN, 3.0], |_| true), Some(2.0));
        assert_eq!(mean_where(&[1.0, 5.0, 3.0], |i| i != 1), Some(2.0));
        assert_eq!(mean_where(&[f64::NAN], |_| true), None);
    }
}
