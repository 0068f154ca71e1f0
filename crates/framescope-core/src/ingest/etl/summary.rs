//! What an .etl holds, for `framescope report FILE.etl`: the session, its clock, the
//! records per header kind, the providers (GUID, name when the file or a short table
//! of kernel groups gives one) with their events per kind and TraceLogging event
//! names, the time span, and the PCL Stats events.

use super::pcl::{PCL_PROVIDER, PclKind, pcl_event};
use super::records::{Guid, Record, RecordKind};
use super::tracelogging::{EXT_PROVIDER_TRAITS, EXT_SCHEMA_TL, Schema, provider_name};
use super::{BufferHeader, read};
use crate::ingest::error::LoadError;
use crate::model::Warning;
pub use crate::model::etl::{EtlSummary, PclEvents, ProviderSummary};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Kernel event groups (`EVENT_TRACE_GROUP_*`) whose provider GUID and name are known.
const KERNEL_GROUPS: [(u8, Guid, &str); 13] = [
    (
        0x00,
        Guid::from_parts(0x68FD_D900, 0x4A3E, 0x11D1, [0x84, 0xF4, 0, 0, 0xF8, 0x04, 0x64, 0xE3]),
        "EventTrace (header)",
    ),
    (
        0x01,
        Guid::from_parts(0x3D6F_A8D4, 0xFE05, 0x11D0, [0x9D, 0xDA, 0, 0xC0, 0x4F, 0xD7, 0xBA, 0x7C]),
        "Kernel DiskIo",
    ),
    (
        0x02,
        Guid::from_parts(0x3D6F_A8D3, 0xFE05, 0x11D0, [0x9D, 0xDA, 0, 0xC0, 0x4F, 0xD7, 0xBA, 0x7C]),
        "Kernel PageFault",
    ),
    (
        0x03,
        Guid::from_parts(0x3D6F_A8D0, 0xFE05, 0x11D0, [0x9D, 0xDA, 0, 0xC0, 0x4F, 0xD7, 0xBA, 0x7C]),
        "Kernel Process",
    ),
    (
        0x04,
        Guid::from_parts(0x90CB_DC39, 0x4A3E, 0x11D1, [0x84, 0xF4, 0, 0, 0xF8, 0x04, 0x64, 0xE3]),
        "Kernel FileIo",
    ),
    (
        0x05,
        Guid::from_parts(0x3D6F_A8D1, 0xFE05, 0x11D0, [0x9D, 0xDA, 0, 0xC0, 0x4F, 0xD7, 0xBA, 0x7C]),
        "Kernel Thread",
    ),
    (
        0x06,
        Guid::from_parts(0x9A28_0AC0, 0xC8E0, 0x11D1, [0x84, 0xE2, 0, 0xC0, 0x4F, 0xB9, 0x98, 0xA2]),
        "Kernel TcpIp",
    ),
    (
        0x08,
        Guid::from_parts(0xBF3A_50C5, 0xA9C9, 0x4988, [0xA0, 0x05, 0x2D, 0xF0, 0xB7, 0xC8, 0x0F, 0x80]),
        "Kernel UdpIp",
    ),
    (
        0x09,
        Guid::from_parts(0xAE53_722E, 0xC863, 0x11D2, [0x86, 0x59, 0, 0xC0, 0x4F, 0xA3, 0x21, 0xA1]),
        "Kernel Registry",
    ),
    (
        0x0B,
        Guid::from_parts(0x0185_3A65, 0x418F, 0x4F36, [0xAE, 0xFC, 0xDC, 0x0F, 0x1D, 0x2F, 0xD2, 0x35]),
        "Kernel SystemConfig",
    ),
    (
        0x0F,
        Guid::from_parts(0xCE1D_BFB4, 0x137E, 0x4DA6, [0x87, 0xB0, 0x3F, 0x59, 0xAA, 0x10, 0x2C, 0xBC]),
        "Kernel PerfInfo",
    ),
    (
        0x14,
        Guid::from_parts(0x2CB1_5D1D, 0x5FC1, 0x11D2, [0xAB, 0xE1, 0, 0xA0, 0xC9, 0x11, 0xF5, 0x18]),
        "Kernel Image",
    ),
    (
        0x18,
        Guid::from_parts(0xDEF2_FE46, 0x7BD6, 0x4B80, [0xBD, 0x94, 0xF5, 0x7F, 0xE2, 0x0D, 0x0C, 0xE3]),
        "Kernel StackWalk",
    ),
];

/// A provider as counted: by GUID, or by kernel group for system and perfinfo records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Guid(Guid),
    Group(u8),
}

/// Per provider: records per kind, TraceLogging event names, the name from its traits.
type ProviderTally = (BTreeMap<RecordKind, u64>, BTreeMap<String, u64>, Option<String>);

/// Providers listed; the records of any further ones are counted in the totals only
/// (a damaged or hostile file can name a new GUID in every record).
const MAX_PROVIDERS: usize = 1024;
/// TraceLogging event names listed, over all providers; further ones are counted only.
const MAX_EVENT_NAMES: usize = 4096;
/// Characters of a provider or event name kept (the file may state 64 KiB).
const MAX_NAME_CHARS: usize = 200;

fn clipped(mut name: String) -> String {
    if let Some((at, _)) = name.char_indices().nth(MAX_NAME_CHARS) {
        name.truncate(at);
        name.push('…');
    }
    name
}

#[derive(Default)]
struct Tally {
    records: u64,
    kinds: BTreeMap<RecordKind, u64>,
    providers: BTreeMap<Key, ProviderTally>,
    /// Records of providers past [`MAX_PROVIDERS`].
    unlisted_provider_records: u64,
    /// Event names kept, and events whose name was past [`MAX_EVENT_NAMES`].
    event_names: usize,
    unlisted_event_names: u64,
    first: Option<u64>,
    last: Option<u64>,
    pcl: PclEvents,
    pcl_pids: BTreeSet<u32>,
}

impl Tally {
    fn add(&mut self, r: &Record<'_>) {
        self.records += 1;
        *self.kinds.entry(r.kind).or_default() += 1;
        let key = match (r.provider, r.hook) {
            (Some(g), _) => Some(Key::Guid(g)),
            (None, Some((group, _))) => Some(Key::Group(group)),
            (None, None) => None,
        };
        if let Some(key) = key {
            if self.providers.len() >= MAX_PROVIDERS && !self.providers.contains_key(&key) {
                self.unlisted_provider_records += 1;
            } else {
                let (kinds, names, name) = self.providers.entry(key).or_default();
                *kinds.entry(r.kind).or_default() += 1;
                for (t, data) in &r.extended {
                    if *t == EXT_SCHEMA_TL {
                        let event = Schema::parse(data)
                            .map_or_else(|_| "(unreadable schema)".to_owned(), |s| clipped(s.name));
                        if let Some(n) = names.get_mut(&event) {
                            *n += 1;
                        } else if self.event_names < MAX_EVENT_NAMES {
                            names.insert(event, 1);
                            self.event_names += 1;
                        } else {
                            self.unlisted_event_names += 1;
                        }
                    } else if *t == EXT_PROVIDER_TRAITS && name.is_none() {
                        *name = provider_name(data).map(clipped);
                    }
                }
            }
        }
        if let Some(t) = r.timestamp.filter(|&t| t > 0) {
            self.first = Some(self.first.map_or(t, |f| f.min(t)));
            self.last = Some(self.last.map_or(t, |l| l.max(t)));
        }
        match pcl_event(r) {
            Some(Ok(e)) => {
                let p = &mut self.pcl;
                match e.kind {
                    PclKind::Marker { .. } => {
                        p.markers += 1;
                        self.pcl_pids.insert(e.process_id);
                    }
                    PclKind::Input => p.inputs += 1,
                    PclKind::Init => p.init += 1,
                    PclKind::Shutdown => p.shutdown += 1,
                    PclKind::Flags => p.flags += 1,
                }
            }
            Some(Err(_)) => self.pcl.undecodable += 1,
            None => {}
        }
    }

    fn providers(&mut self) -> Vec<ProviderSummary> {
        let mut out: Vec<ProviderSummary> = std::mem::take(&mut self.providers)
            .into_iter()
            .map(|(key, (kinds, event_names, traits_name))| {
                let (guid, kernel_group, known) = match key {
                    Key::Guid(g) => {
                        (Some(g), None, (g == PCL_PROVIDER).then_some("PCLStatsTraceLoggingProvider"))
                    }
                    Key::Group(n) => {
                        let k = KERNEL_GROUPS.iter().find(|(id, ..)| *id == n);
                        (k.map(|k| k.1), Some(n), k.map(|k| k.2))
                    }
                };
                ProviderSummary {
                    guid: guid.map(|g| g.to_string()),
                    kernel_group,
                    name: traits_name.or_else(|| known.map(str::to_owned)),
                    events: kinds.values().sum(),
                    kinds: kinds.into_iter().map(|(k, n)| (k.name(), n)).collect(),
                    event_names,
                }
            })
            .collect();
        out.sort_by(|a, b| b.events.cmp(&a.events).then_with(|| a.guid.cmp(&b.guid)));
        out
    }
}

/// Reads the whole file and says what it holds.
pub fn summarize(path: &Path) -> Result<EtlSummary, LoadError> {
    let mut tally = Tally::default();
    let file = read(path, |_: &BufferHeader, r| tally.add(r))?;
    let h = &file.header;
    let mut pcl = std::mem::take(&mut tally.pcl);
    pcl.processes = tally.pcl_pids.iter().copied().collect();
    let any_pcl = pcl.markers + pcl.inputs + pcl.init + pcl.shutdown + pcl.flags + pcl.undecodable > 0;
    let mut warnings = file.warnings;
    if tally.unlisted_provider_records > 0 {
        warnings.push(Warning::file(format!(
            "{} records of providers past the first {MAX_PROVIDERS} are counted but their providers not listed",
            tally.unlisted_provider_records
        )));
    }
    if tally.unlisted_event_names > 0 {
        warnings.push(Warning::file(format!(
            "{} TraceLogging events of names past the first {MAX_EVENT_NAMES} are counted but their names not \
             listed",
            tally.unlisted_event_names
        )));
    }
    Ok(EtlSummary {
        logger_name: h.logger_name.clone(),
        clock: file.clock.name(),
        clock_hz: file.clock.hz,
        pointer_size: h.pointer_size,
        processors: h.processors,
        buffers: file.buffers,
        compressed_buffers: file.compressed_buffers,
        events_lost: h.events_lost,
        buffers_lost: h.buffers_lost,
        records: tally.records,
        records_by_kind: tally.kinds.iter().map(|(k, n)| (k.name(), *n)).collect(),
        providers: tally.providers(),
        span_ms: tally.first.zip(tally.last).map(|(f, l)| file.clock.ms(l) - file.clock.ms(f)),
        pcl: any_pcl.then_some(pcl),
        warnings,
    })
}
