//! The further columns of a generic CSV's mapping (`formats.md` §11, issue 20): beside
//! the frame-time column the user may name a GPU time, a CPU time and a PC latency
//! column, and any number of telemetry columns; each becomes the trace's column of
//! that kind (so it shows as its timeline row and feeds the figures that read it),
//! in its unit converted to ms.

use super::table::ColumnSpec;
use crate::model::{ColumnKind, TimeUnit};
use serde::{Deserialize, Serialize};

/// What a further mapped column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExtraRole {
    /// The GPU's busy time per frame (read as `GPUBusy`).
    GpuTime,
    /// The CPU's (main thread's) busy time per frame (read as `CPUBusy`).
    CpuTime,
    /// NVIDIA PC Latency or any input-to-photon latency per frame (read as `PCLatency`).
    PcLatency,
    /// A sensor or counter drawn as a telemetry row (kept in its own unit).
    Telemetry,
}

impl ExtraRole {
    /// Every role, in the order the window offers them.
    pub const ALL: [Self; 4] = [Self::GpuTime, Self::CpuTime, Self::PcLatency, Self::Telemetry];

    /// The column kind the role gives.
    #[must_use]
    pub fn kind(self) -> ColumnKind {
        match self {
            Self::GpuTime => ColumnKind::GpuBusy,
            Self::CpuTime => ColumnKind::CpuBusy,
            Self::PcLatency => ColumnKind::PcLatency,
            Self::Telemetry => ColumnKind::Telemetry,
        }
    }

    /// The role's name in the window and in the file's description.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::GpuTime => "GPU time",
            Self::CpuTime => "CPU time",
            Self::PcLatency => "PC latency",
            Self::Telemetry => "telemetry",
        }
    }

    /// True for the roles a file has at most one column of.
    #[must_use]
    pub fn is_single(self) -> bool {
        self != Self::Telemetry
    }
}

/// One further column of a mapping: its role, header name and unit (times only).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExtraColumn {
    /// What it holds.
    pub role: ExtraRole,
    /// The column's header name (matched trimmed, any case).
    pub column: String,
    /// Its unit, for the time roles (telemetry keeps its values).
    pub unit: TimeUnit,
}

/// The unit a column's name suggests: `(ns)`, `_us`, ` s`, … else ms.
#[must_use]
pub fn unit_from_name(name: &str) -> TimeUnit {
    let l = name.to_ascii_lowercase();
    if l.contains("(ns)") || l.ends_with("_ns") || l.ends_with(" ns") {
        TimeUnit::Nanos
    } else if l.contains("(us)") || l.contains("(µs)") || l.ends_with("_us") || l.ends_with(" us") {
        TimeUnit::Micros
    } else if l.contains("(s)") || l.ends_with("_s") || l.ends_with(" s") || l.contains("second") {
        TimeUnit::Seconds
    } else {
        TimeUnit::Millis
    }
}

/// Gives the specs of the columns named in `extra` their role's kind and unit (a
/// name not in the header is left alone: the file's other columns still read).
pub(super) fn apply(specs: &mut [ColumnSpec], extra: &[ExtraColumn]) {
    for e in extra {
        let name = e.column.trim();
        if let Some(spec) = specs.iter_mut().find(|s| s.name.trim().eq_ignore_ascii_case(name)) {
            spec.kind = e.role.kind();
            if e.role != ExtraRole::Telemetry {
                spec.scale = e.unit.to_ms();
            }
        }
    }
}

/// The extra columns as the file's description adds them (` + GPU time NAME`).
#[must_use]
pub fn describe(extra: &[ExtraColumn]) -> String {
    let mut out = String::new();
    for e in extra {
        out.push_str(" + ");
        out.push_str(e.role.label());
        out.push(' ');
        out.push_str(&e.column);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{ColumnMapping, LoadOptions, MappedRole, load_bytes};
    use std::path::Path;

    /// 16, 16, 20 ms frames; GPU 10, 10, 30 µs·1000 (10, 10, 30 ms); CPU 12, 14, 18 ms;
    /// latency 30, 31, 35 ms; a temperature; a label column.
    const LOG: &str = "tick,dt_ms,gpu_us,cpu,lat,temp C,note\n\
        0,16,10000,12,30,60,a\n1,16,10000,14,31,61,b\n2,20,30000,18,35,62,c\n";

    fn mapping(extra: Vec<ExtraColumn>) -> LoadOptions {
        let mapping = ColumnMapping {
            role: MappedRole::FrameTime,
            column: "dt_ms".into(),
            unit: TimeUnit::Millis,
            extra,
        };
        LoadOptions { mapping: Some(mapping), ..LoadOptions::default() }
    }

    fn extra(role: ExtraRole, column: &str, unit: TimeUnit) -> ExtraColumn {
        ExtraColumn { role, column: column.into(), unit }
    }

    #[test]
    fn mapped_columns_become_the_traces_gpu_cpu_latency_and_telemetry_columns() {
        let opts = mapping(vec![
            extra(ExtraRole::GpuTime, "gpu_us", TimeUnit::Micros),
            extra(ExtraRole::CpuTime, "CPU", TimeUnit::Millis),
            extra(ExtraRole::PcLatency, "lat", TimeUnit::Millis),
            extra(ExtraRole::Telemetry, "temp C", TimeUnit::Millis),
        ]);
        let cap = load_bytes(Path::new("log.csv"), LOG.as_bytes(), opts).unwrap();
        let t = &cap.traces[0];
        assert_eq!(t.frames.frame_time_ms, [16.0, 16.0, 20.0]);
        let values = |k: ColumnKind| t.column(k).map(|c| c.values.to_vec());
        // µs to ms: 10000 µs = 10 ms.
        assert_eq!(values(ColumnKind::GpuBusy), Some(vec![10.0, 10.0, 30.0]));
        assert_eq!(values(ColumnKind::CpuBusy), Some(vec![12.0, 14.0, 18.0]));
        assert_eq!(values(ColumnKind::PcLatency), Some(vec![30.0, 31.0, 35.0]));
        // Telemetry keeps its values and name.
        let temp = t.column(ColumnKind::Telemetry).unwrap();
        assert_eq!((temp.name.as_str(), temp.values.to_vec()), ("temp C", vec![60.0, 61.0, 62.0]));
        assert!(
            cap.info
                .format_version
                .ends_with(" + GPU time gpu_us + CPU time CPU + PC latency lat + telemetry temp C")
        );
    }

    #[test]
    fn without_extra_columns_nothing_changes_and_a_missing_one_is_named() {
        let cap = load_bytes(Path::new("log.csv"), LOG.as_bytes(), mapping(Vec::new())).unwrap();
        let t = &cap.traces[0];
        assert!(t.column(ColumnKind::GpuBusy).is_none() && t.column(ColumnKind::PcLatency).is_none());
        assert_eq!(cap.info.format_version, "--column frame-time=dt_ms --unit ms");
        let bad = mapping(vec![extra(ExtraRole::GpuTime, "gpu_ms", TimeUnit::Millis)]);
        let e = load_bytes(Path::new("log.csv"), LOG.as_bytes(), bad).unwrap_err().to_string();
        assert!(e.contains("log.csv") && e.contains("no column named 'gpu_ms'"), "{e}");
    }

    #[test]
    fn units_follow_the_columns_name() {
        assert_eq!(unit_from_name("gpu (ns)"), TimeUnit::Nanos);
        assert_eq!(unit_from_name("gpu_us"), TimeUnit::Micros);
        assert_eq!(unit_from_name("elapsed seconds"), TimeUnit::Seconds);
        assert_eq!(unit_from_name("gpu"), TimeUnit::Millis);
    }
}
