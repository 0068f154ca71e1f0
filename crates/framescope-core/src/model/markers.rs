//! PCL Stats marker logs as loaded (`formats.md` §6, §9): what `ingest::pcl` reads
//! and `analysis::pcl` joins to a capture.

use super::Warning;

/// PCL Stats marker ids (`NV_LATENCY_MARKER_TYPE`).
pub(crate) mod marker {
    /// Start of the frame's simulation.
    pub const SIMULATION_START: u32 = 0;
    /// Start of render submission.
    pub const RENDERSUBMIT_START: u32 = 2;
    /// Start of Present().
    pub const PRESENT_START: u32 = 4;
    /// The frame that sampled a latency ping.
    pub const PC_LATENCY_PING: u32 = 8;
}

/// Which kind of marker log it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerLogFormat {
    /// `DisplayCommander_PCLStats.log`: markers only, no input events.
    DisplayCommander,
    /// `timestamp_ns,event,marker_id,frame_id` (or `qpc,...`).
    PlainCsv,
    /// An ETW trace (`.etl`) holding the PCL Stats TraceLogging events.
    Etl,
}

/// One marker event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Marker {
    /// Time in ms on the log's own clock.
    pub time_ms: f64,
    /// Marker id.
    pub marker: u32,
    /// The app's FrameID.
    pub frame_id: u64,
}

/// A loaded marker log.
#[derive(Debug, Clone)]
pub struct MarkerLog {
    /// The kind of log.
    pub format: MarkerLogFormat,
    /// Markers in file order.
    pub markers: Vec<Marker>,
    /// Times (ms) of PCLStatsInput events; `None` when the format cannot hold them.
    pub inputs_ms: Option<Vec<f64>>,
    /// Problems found while reading.
    pub warnings: Vec<Warning>,
}
