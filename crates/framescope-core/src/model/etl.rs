//! What an ETW trace (`.etl`) holds, as `ingest::etl` reads it and `framescope report
//! FILE.etl` prints it (docs/etl.md): the session, clock, records per kind, providers
//! and PCL Stats events.

use super::Warning;
use serde::Serialize;
use std::collections::BTreeMap;

/// One provider's events.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderSummary {
    /// The provider GUID (Windows form); for kernel records, their group's GUID when
    /// known, else null.
    pub guid: Option<String>,
    /// The kernel event group of system and perfinfo records; null for others.
    pub kernel_group: Option<u8>,
    /// The provider's name when the file (TraceLogging traits) or the kernel table gives it.
    pub name: Option<String>,
    /// Its records.
    pub events: u64,
    /// Its records per header kind.
    pub kinds: BTreeMap<&'static str, u64>,
    /// TraceLogging events per event name (empty for other providers).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub event_names: BTreeMap<String, u64>,
}

/// The PCL Stats events of the file, per name kind, and the processes that sent them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PclEvents {
    /// `PCLStatsEvent*` markers.
    pub markers: u64,
    /// `PCLStatsInput` pings.
    pub inputs: u64,
    /// `PCLStatsInit`.
    pub init: u64,
    /// `PCLStatsShutdown`.
    pub shutdown: u64,
    /// `PCLStatsFlags`.
    pub flags: u64,
    /// PCL events that could not be decoded.
    pub undecodable: u64,
    /// Process ids that sent markers.
    pub processes: Vec<u32>,
}

/// What an .etl holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EtlSummary {
    /// The session (logger) name.
    pub logger_name: String,
    /// `QPC`, `system time` or `CPU cycles`.
    pub clock: &'static str,
    /// Ticks per second of the timestamps.
    pub clock_hz: f64,
    /// Pointer size of the recording machine (4 or 8).
    pub pointer_size: u32,
    /// CPUs of the recording machine.
    pub processors: u32,
    /// Buffers read.
    pub buffers: u64,
    /// Of which compressed.
    pub compressed_buffers: u64,
    /// Events the session lost (log-file header).
    pub events_lost: u32,
    /// Buffers the session lost (log-file header).
    pub buffers_lost: u32,
    /// Records read.
    pub records: u64,
    /// Records per header kind.
    pub records_by_kind: BTreeMap<&'static str, u64>,
    /// Providers, most records first.
    pub providers: Vec<ProviderSummary>,
    /// From the first to the last timestamped record, in ms.
    pub span_ms: Option<f64>,
    /// PCL Stats events (null when there are none).
    pub pcl: Option<PclEvents>,
    /// Problems, with their byte offsets (the report moves them to its entry's warnings).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}
