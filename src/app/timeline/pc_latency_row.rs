//! The PC latency row: the capture's own PC latency column (FrameView and PresentMon
//! `MsPCLatency`, the NVIDIA App's `Average PC Latency`), labelled "PC latency", drawn
//! as a telemetry row in ms (also in a comparison's compact timelines). A PCL marker
//! log's latency is the latency row's breakdown.

use super::row::{RowContext, Rows};
use super::telemetry_row::TelemetryRow;

/// Adds the PC latency row when the trace has a varying PC latency column.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if let Some(track) = &ctx.tracks().pc_latency {
        let values: &[f64] = &ctx.trace().frames.columns[track.column].values;
        rows.push(Box::new(TelemetryRow { key: ("pc latency", 0), track, values }));
    }
}
