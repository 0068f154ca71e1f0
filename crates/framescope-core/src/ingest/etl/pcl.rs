//! NVIDIA PCL Stats markers from an .etl (`formats.md` §6): the TraceLogging events of
//! `PCLStatsTraceLoggingProvider` {0D216F06-82A6-4D49-BC4F-8F38AE56EFAB}, matched by
//! event name as PresentMon does — `PCLStatsEvent` (Marker, FrameID), `PCLStatsEventV2`
//! (and V3: Marker, FrameID, Flags), `PCLStatsInput`, `PCLStatsInit`,
//! `PCLStatsShutdown`, `PCLStatsFlags`, and the same names with the legacy
//! `ReflexStats` prefix. Events of all per-CPU buffers are merged by timestamp; the
//! result is the [`MarkerLog`] a marker CSV gives, so `analysis::pcl` computes the same
//! figures from either.

use super::records::{Guid, Record, RecordKind};
use super::tracelogging::{EXT_SCHEMA_TL, Schema, Value};
use super::{BufferHeader, EtlFile, read};
use crate::ingest::error::{LoadError, LoadErrorKind};
use crate::model::Warning;
use crate::model::markers::{Marker, MarkerLog, MarkerLogFormat};
use std::collections::BTreeMap;
use std::path::Path;

/// The PCL Stats provider (also the legacy ReflexStats one).
pub const PCL_PROVIDER: Guid =
    Guid::from_parts(0x0D21_6F06, 0x82A6, 0x4D49, [0xBC, 0x4F, 0x8F, 0x38, 0xAE, 0x56, 0xEF, 0xAB]);

/// What a PCL event says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PclKind {
    /// `PCLStatsEvent[V2|V3]`: a latency marker of a frame.
    Marker {
        /// Marker id (`formats.md` §6).
        marker: u32,
        /// The app's FrameID.
        frame_id: u64,
        /// `Flags` of the V2 events (1 = no present markers).
        flags: Option<u32>,
    },
    /// `PCLStatsInput`: a latency ping posted.
    Input,
    /// `PCLStatsInit`.
    Init,
    /// `PCLStatsShutdown`.
    Shutdown,
    /// `PCLStatsFlags`.
    Flags,
}

/// One PCL event with its raw timestamp and process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PclEvent {
    /// Clock ticks.
    pub ticks: u64,
    /// The emitting process.
    pub process_id: u32,
    /// What it says.
    pub kind: PclKind,
}

/// The part of a PCL event name after its `PCLStats` / `ReflexStats` prefix.
fn suffix(name: &str) -> Option<&str> {
    name.strip_prefix("PCLStats").or_else(|| name.strip_prefix("ReflexStats"))
}

fn number(fields: &[(String, Value)], name: &str) -> Option<u64> {
    fields.iter().find(|(n, _)| n == name).and_then(|(_, v)| match v {
        Value::U64(x) => Some(*x),
        Value::I64(x) => u64::try_from(*x).ok(),
        _ => None,
    })
}

/// The PCL event of a record: `None` when the record is not one; an error when it is
/// a PCL event that cannot be decoded.
pub fn pcl_event(r: &Record<'_>) -> Option<Result<PclEvent, String>> {
    if r.kind != RecordKind::Event || r.provider != Some(PCL_PROVIDER) {
        return None;
    }
    let meta = r.extended.iter().find(|(t, _)| *t == EXT_SCHEMA_TL).map(|(_, d)| *d);
    let Some(meta) = meta else {
        return Some(Err("a PCL Stats event without its TraceLogging schema".into()));
    };
    let schema = match Schema::parse(meta) {
        Ok(s) => s,
        Err(e) => return Some(Err(format!("a PCL Stats event's schema cannot be read: {e}"))),
    };
    let kind = match suffix(&schema.name) {
        Some("Input") => PclKind::Input,
        Some("Init") => PclKind::Init,
        Some("Shutdown") => PclKind::Shutdown,
        Some("Flags") => PclKind::Flags,
        Some("Event" | "EventV2" | "EventV3") => {
            let fields = match schema.decode(r.payload, if r.is_64bit { 8 } else { 4 }) {
                Ok(f) => f,
                Err(e) => return Some(Err(format!("a {} event cannot be decoded: {e}", schema.name))),
            };
            match (number(&fields, "Marker"), number(&fields, "FrameID")) {
                (Some(m), Some(frame_id)) if u32::try_from(m).is_ok() => PclKind::Marker {
                    marker: m as u32,
                    frame_id,
                    flags: number(&fields, "Flags").and_then(|f| u32::try_from(f).ok()),
                },
                _ => return Some(Err(format!("a {} event without a Marker and FrameID", schema.name))),
            }
        }
        _ => return None,
    };
    let (ticks, process_id) = (r.timestamp.unwrap_or(0), r.process_id.unwrap_or(0));
    Some(Ok(PclEvent { ticks, process_id, kind }))
}

/// Different reasons for undecodable PCL events listed; events of other reasons are
/// counted together (a damaged schema can name any field, so the reasons are many).
const LISTED_REASONS: usize = 16;

/// Reads the PCL events of a file, merged across buffers in time order (ties keep
/// file order), with the problems met: undecodable PCL events are counted by reason,
/// the first 16 reasons (`LISTED_REASONS`) kept as warnings.
pub fn markers_of(path: &Path) -> Result<(EtlFile, Vec<PclEvent>), LoadError> {
    let mut events = Vec::new();
    let mut bad: BTreeMap<String, u64> = BTreeMap::new();
    let mut other_reasons = 0u64;
    let mut file = read(path, |_: &BufferHeader, r| match pcl_event(r) {
        Some(Ok(e)) => events.push(e),
        Some(Err(msg)) => {
            if let Some(n) = bad.get_mut(&msg) {
                *n += 1;
            } else if bad.len() < LISTED_REASONS {
                bad.insert(msg, 1);
            } else {
                other_reasons += 1;
            }
        }
        None => {}
    })?;
    for (msg, n) in bad {
        let times = if n == 1 { String::new() } else { format!(" ({n} events)") };
        file.warnings.push(Warning::file(format!("{msg}{times}; skipped")));
    }
    if other_reasons > 0 {
        file.warnings.push(Warning::file(format!(
            "{other_reasons} more PCL Stats events cannot be decoded, for other reasons; skipped"
        )));
    }
    events.sort_by_key(|e| e.ticks);
    Ok((file, events))
}

/// Reads an .etl's PCL Stats markers as a [`MarkerLog`] (`metrics.md` §7): markers
/// and inputs of the process with the most markers, times in ms on the file's clock.
pub fn load_marker_log(path: &Path) -> Result<MarkerLog, LoadError> {
    let (file, events) = markers_of(path)?;
    let mut per_process: BTreeMap<u32, usize> = BTreeMap::new();
    for e in &events {
        if matches!(e.kind, PclKind::Marker { .. }) {
            *per_process.entry(e.process_id).or_default() += 1;
        }
    }
    // The most markers wins; on a tie, the lowest process id.
    let Some((&pid, _)) = per_process.iter().max_by_key(|&(pid, n)| (*n, std::cmp::Reverse(*pid))) else {
        let msg = format!(
            "the trace holds no PCL Stats markers (no PCLStatsEvent from provider {PCL_PROVIDER}); record them with \
             logman or WPR (docs/etl.md)"
        );
        return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(msg)));
    };
    let mut warnings = file.warnings;
    if per_process.len() > 1 {
        warnings.push(Warning::file(format!(
            "PCL Stats markers from {} processes; process {pid} (the most markers) is used",
            per_process.len()
        )));
    }
    let clock = file.clock;
    let mut markers = Vec::new();
    let mut inputs = Vec::new();
    for e in events.iter().filter(|e| e.process_id == pid) {
        match e.kind {
            PclKind::Marker { marker, frame_id, .. } => {
                markers.push(Marker { time_ms: clock.ms(e.ticks), marker, frame_id });
            }
            PclKind::Input => inputs.push(clock.ms(e.ticks)),
            _ => {}
        }
    }
    Ok(MarkerLog { format: MarkerLogFormat::Etl, markers, inputs_ms: Some(inputs), warnings })
}
