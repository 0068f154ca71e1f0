//! `framescope report FILE.etl`: what an ETW trace holds (`ingest::etl` summary) and,
//! when it holds PCL Stats markers, their PC-latency breakdown alone (`metrics.md` §7
//! without a capture: every marker frame counts as displayed, P2D is unknown). The
//! entry is one of `runs`, told apart by `"format": "etl"` (docs/etl.md).

use super::RunEntry;
use crate::analysis::PclLatency;
use crate::ingest::LoadError;
use crate::model::etl::EtlSummary;
use crate::model::markers::MarkerLog;
use crate::model::{Frames, Trace, TraceMeta, Warning, WarningKind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

/// One frame of the markers-alone breakdown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EtlPclFrame {
    /// The app's FrameID.
    pub frame_id: u64,
    /// SIMULATION_START (ms on the trace's clock).
    pub sim_start_ms: Option<f64>,
    /// Frame start to present.
    pub fs2p_ms: Option<f64>,
    /// Input to frame start of the inputs this frame's SIMULATION_START ended (their mean).
    pub i2fs_ms: Option<f64>,
}

/// The PCL figures of an .etl's markers alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EtlPcl {
    /// Markers read (of the process used).
    pub markers: usize,
    /// PCLStatsInput pings read.
    pub inputs: usize,
    /// Marker frames.
    pub frames: usize,
    /// Mean I2FS.
    pub i2fs_ms: Option<f64>,
    /// Mean FS2P.
    pub fs2p_ms: Option<f64>,
    /// Always null here: present-to-display needs a capture (`--pcl` with one).
    pub p2d_ms: Option<f64>,
    /// Null here for the same reason.
    pub pcl_ms: Option<f64>,
    /// Per frame, in FrameID order.
    pub per_frame: Vec<EtlPclFrame>,
}

/// The report entry of an .etl.
#[derive(Debug, Clone, Serialize)]
pub struct EtlRun {
    /// The path as given.
    pub file: String,
    /// Always `etl`.
    pub format: &'static str,
    /// Problems met (byte offsets in the messages), and notes on the PCL figures.
    pub warnings: Vec<Warning>,
    /// What the trace holds.
    pub etl: EtlSummary,
    /// The PCL breakdown; null when the trace holds no PCL Stats markers.
    pub pcl: Option<EtlPcl>,
}

impl EtlRun {
    /// The entry of a summarised .etl and its marker log (an error when it has none).
    #[must_use]
    pub fn entry(file: &str, mut etl: EtlSummary, markers: Result<MarkerLog, LoadError>) -> RunEntry {
        let mut warnings = std::mem::take(&mut etl.warnings);
        let pcl = match markers {
            Ok(log) => Some(breakdown(&log, &mut warnings)),
            Err(e) => {
                if etl.pcl.is_some() {
                    warnings.push(Warning::file(format!("PCL Stats: {}", e.kind)));
                }
                None
            }
        };
        RunEntry::Etl(Box::new(Self { file: file.to_owned(), format: "etl", warnings, etl, pcl }))
    }
}

fn breakdown(log: &MarkerLog, warnings: &mut Vec<Warning>) -> EtlPcl {
    let meta = TraceMeta::named(String::new());
    let trace = Trace { meta, frames: Frames::default(), warnings: Vec::new() };
    let pcl = PclLatency::of(log, &trace);
    // Without a capture there is no join column: say so in this report's words.
    warnings.push(Warning::note(
        "PCL figures from the markers alone: every marker frame counts as displayed; P2D and the PCL sum need a \
         PresentMon capture of the same session (framescope report CAPTURE --pcl FILE.etl)",
    ));
    let notes =
        log.warnings.iter().chain(pcl.warnings.iter().filter(|w| w.kind != WarningKind::NoFrameIdColumn));
    warnings.extend(notes.map(|w| Warning { message: format!("PCL Stats: {}", w.message), ..w.clone() }));
    let mut i2fs: BTreeMap<u64, (f64, usize)> = BTreeMap::new();
    for (v, id) in pcl.i2fs_ms.iter().zip(&pcl.i2fs_frame_ids) {
        let e = i2fs.entry(*id).or_default();
        *e = (e.0 + v, e.1 + 1);
    }
    let per_frame = pcl
        .frames
        .iter()
        .map(|f| EtlPclFrame {
            frame_id: f.frame_id,
            sim_start_ms: f.sim_start_ms,
            fs2p_ms: f.fs2p_ms,
            i2fs_ms: i2fs.get(&f.frame_id).map(|(s, n)| s / *n as f64),
        })
        .collect();
    EtlPcl {
        markers: log.markers.len(),
        inputs: log.inputs_ms.as_ref().map_or(0, Vec::len),
        frames: pcl.frames.len(),
        i2fs_ms: pcl.i2fs_mean_ms,
        fs2p_ms: pcl.fs2p_mean_ms,
        p2d_ms: None,
        pcl_ms: None,
        per_frame,
    }
}

fn ms(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_owned(), |v| format!("{v:.3} ms"))
}

/// The table lines of an .etl entry (without the leading blank line).
pub fn write_etl(run: &EtlRun, out: &mut impl Write) -> std::io::Result<()> {
    const FRAMES_SHOWN: usize = 10;
    let e = &run.etl;
    writeln!(out, "{}", run.file)?;
    writeln!(
        out,
        "  ETW trace (.etl): logger \"{}\", clock {} at {} Hz, {} CPUs, {} buffers ({} compressed)",
        e.logger_name, e.clock, e.clock_hz, e.processors, e.buffers, e.compressed_buffers
    )?;
    let kinds: Vec<String> = e.records_by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let span = e.span_ms.map_or_else(|| "no timestamps".to_owned(), |s| format!("{:.3} s", s / 1000.0));
    writeln!(out, "  records: {} ({}), span {span}", e.records, kinds.join(", "))?;
    writeln!(out, "  providers:")?;
    for p in &e.providers {
        let id =
            p.guid.clone().unwrap_or_else(|| format!("kernel group 0x{:02X}", p.kernel_group.unwrap_or(0)));
        let name = p.name.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
        let names: Vec<String> = p.event_names.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let names = if names.is_empty() { String::new() } else { format!(" ({})", names.join(", ")) };
        let plural = if p.events == 1 { "" } else { "s" };
        writeln!(out, "    {id}{name}: {} record{plural}{names}", p.events)?;
    }
    match (&run.pcl, &e.pcl) {
        (Some(p), _) => {
            writeln!(out, "  PCL Stats: {} markers, {} inputs, {} frames", p.markers, p.inputs, p.frames)?;
            writeln!(
                out,
                "  from the markers alone: I2FS {}  FS2P {}  (P2D needs a capture)",
                ms(p.i2fs_ms),
                ms(p.fs2p_ms)
            )?;
            for f in p.per_frame.iter().take(FRAMES_SHOWN) {
                writeln!(out, "    frame {}: FS2P {}  I2FS {}", f.frame_id, ms(f.fs2p_ms), ms(f.i2fs_ms))?;
            }
            if p.per_frame.len() > FRAMES_SHOWN {
                writeln!(
                    out,
                    "    … {} more frames (--json lists them all)",
                    p.per_frame.len() - FRAMES_SHOWN
                )?;
            }
        }
        (None, Some(_)) => writeln!(out, "  PCL Stats: events, but no markers to compute latency from")?,
        (None, None) => writeln!(out, "  PCL Stats: none (this trace holds no PCL Stats events)")?,
    }
    for w in &run.warnings {
        writeln!(out, "  {}: {}", if w.informational { "note" } else { "warning" }, w.message)?;
    }
    Ok(())
}
