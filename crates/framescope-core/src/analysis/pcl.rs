//! NVIDIA PC Latency from a PCL Stats marker log (`metrics.md` §7): I2FS (with the
//! dropped-frame extension), FS2P and P2D, per frame and as the PCL sum.
//!
//! The marker log is joined to the capture by FrameID through the capture's
//! `PCLFrameId` (or `AppFrameId`) column: that tells which frames were displayed and
//! their present-to-display time. Without a join every marker frame counts as
//! displayed and P2D is unknown.

use crate::model::markers::{MarkerLog, MarkerLogFormat, marker};
use crate::model::{ColumnKind, Trace, Warning};
use std::collections::{BTreeMap, HashMap};

/// What one marker frame contributes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PclFrame {
    /// The app's FrameID.
    pub frame_id: u64,
    /// The capture frame it joined to, if any.
    pub trace_frame: Option<usize>,
    /// True when the joined capture frame was dropped.
    pub dropped: bool,
    /// True when the frame counts as displayed: joined and not dropped, or no join
    /// column to tell.
    pub displayed: bool,
    /// SIMULATION_START time (ms, log clock).
    pub sim_start_ms: Option<f64>,
    /// Frame start to present (displayed frames).
    pub fs2p_ms: Option<f64>,
    /// Present to display (joined, displayed frames).
    pub p2d_ms: Option<f64>,
}

/// The PCL figures of a marker log against a capture trace.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PclLatency {
    /// One I2FS value per paired input.
    pub i2fs_ms: Vec<f64>,
    /// For each I2FS value, the FrameID of the displayed frame whose
    /// SIMULATION_START ended it.
    pub i2fs_frame_ids: Vec<u64>,
    /// Marker frames in FrameID order.
    pub frames: Vec<PclFrame>,
    /// Mean I2FS (`None` without input events).
    pub i2fs_mean_ms: Option<f64>,
    /// Mean FS2P over displayed frames.
    pub fs2p_mean_ms: Option<f64>,
    /// Mean P2D over displayed joined frames.
    pub p2d_mean_ms: Option<f64>,
    /// `mean(I2FS) + mean(FS2P) + mean(P2D)` when all three are known.
    pub pcl_ms: Option<f64>,
    /// What the user should know (unjoined FrameIDs, inputs with no ping, ...).
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Marks {
    sim_start: Option<f64>,
    render_submit: Option<f64>,
    present: Option<f64>,
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

impl PclLatency {
    /// Computes PC latency from `log` joined to `trace`.
    #[must_use]
    pub fn of(log: &MarkerLog, trace: &Trace) -> Self {
        let mut out = Self::default();
        let mut by_frame: BTreeMap<u64, Marks> = BTreeMap::new();
        for m in &log.markers {
            let e = by_frame.entry(m.frame_id).or_default();
            let slot = match m.marker {
                marker::SIMULATION_START => &mut e.sim_start,
                marker::RENDERSUBMIT_START => &mut e.render_submit,
                marker::PRESENT_START => &mut e.present,
                _ => continue,
            };
            slot.get_or_insert(m.time_ms);
        }
        let brackets_present = by_frame.values().any(|m| m.present.is_some());
        let join = join_column(trace);
        if join.is_none() {
            out.warnings.push(
                Warning::file(
                    "the capture has no PCLFrameId or AppFrameId column: every marker frame counts as \
                     displayed and P2D is unknown",
                )
                .with_kind(crate::model::WarningKind::NoFrameIdColumn),
            );
        }
        let until = trace.column(ColumnKind::UntilDisplayed);
        for (&frame_id, marks) in &by_frame {
            let trace_frame = join.as_ref().and_then(|j| j.get(&frame_id).copied());
            let dropped = trace_frame.is_some_and(|i| trace.frames.is_dropped(i));
            // With a join column, a FrameID the capture lacks is unknown, not displayed.
            let displayed = !dropped && (join.is_none() || trace_frame.is_some());
            let end = if brackets_present { marks.present } else { marks.render_submit };
            let fs2p_ms = match (marks.sim_start, end) {
                (Some(s), Some(e)) if displayed => Some(e - s),
                _ => None,
            };
            let p2d_ms = trace_frame
                .filter(|_| displayed)
                .and_then(|i| until.map(|c| c.values.at(i)))
                .filter(|v| !v.is_nan());
            let sim_start_ms = marks.sim_start;
            out.frames.push(PclFrame {
                frame_id,
                trace_frame,
                dropped,
                displayed,
                sim_start_ms,
                fs2p_ms,
                p2d_ms,
            });
        }
        if join.is_some() {
            let unjoined = out.frames.iter().filter(|f| f.trace_frame.is_none()).count();
            if unjoined == out.frames.len() {
                out.warnings.push(Warning::file(
                    "none of the marker log's FrameIDs appear in the capture; was it recorded in the same session?",
                ));
            } else if unjoined > 0 {
                out.warnings.push(Warning::file(format!(
                    "{unjoined} of the marker log's frames are not in the capture; they are left out"
                )));
            }
        }
        (out.i2fs_ms, out.i2fs_frame_ids) = i2fs(log, &out.frames, &mut out.warnings).into_iter().unzip();
        out.i2fs_mean_ms = if log.format == MarkerLogFormat::DisplayCommander {
            None
        } else {
            mean(out.i2fs_ms.iter().copied())
        };
        out.fs2p_mean_ms = mean(out.frames.iter().filter_map(|f| f.fs2p_ms));
        out.p2d_mean_ms = mean(out.frames.iter().filter_map(|f| f.p2d_ms));
        out.pcl_ms = match (out.i2fs_mean_ms, out.fs2p_mean_ms, out.p2d_mean_ms) {
            (Some(a), Some(b), Some(c)) => Some(a + b + c),
            _ => None,
        };
        out
    }
}

/// FrameID → capture frame, from `PCLFrameId` or else `AppFrameId`.
fn join_column(trace: &Trace) -> Option<HashMap<u64, usize>> {
    // The first capture row of a FrameID wins (generated frames may repeat it).
    let mut map = HashMap::new();
    for (i, &id) in trace.frames.join_id.iter().enumerate() {
        if id != crate::model::MISSING_ID {
            map.entry(id).or_insert(i);
        }
    }
    (!map.is_empty()).then_some(map)
}

/// Pairs each input with the first unused ping at or after it; I2FS runs to the
/// SIMULATION_START of the tagged frame, or of the next displayed frame when the
/// tagged one was dropped.
fn i2fs(log: &MarkerLog, frames: &[PclFrame], warnings: &mut Vec<Warning>) -> Vec<(f64, u64)> {
    let Some(inputs) = &log.inputs_ms else { return Vec::new() };
    // Every ping counts, even two on one frame: dropping one would shift every later
    // pairing by one ping.
    let mut pings: Vec<(f64, u64)> = log
        .markers
        .iter()
        .filter(|m| m.marker == marker::PC_LATENCY_PING)
        .map(|m| (m.time_ms, m.frame_id))
        .collect();
    pings.sort_by(|a, b| a.0.total_cmp(&b.0));
    let position: HashMap<u64, usize> = frames.iter().enumerate().map(|(i, f)| (f.frame_id, i)).collect();
    let mut out = Vec::new();
    let (mut next_ping, mut unpaired) = (0, 0);
    for &input in inputs {
        while next_ping < pings.len() && pings[next_ping].0 < input {
            next_ping += 1;
        }
        let Some(&(_, tagged)) = pings.get(next_ping) else {
            unpaired += 1;
            continue;
        };
        next_ping += 1;
        let shown = position.get(&tagged).and_then(|&p| frames[p..].iter().find(|f| f.displayed));
        match shown.and_then(|f| f.sim_start_ms.map(|s| (s, f.frame_id))) {
            Some((start, frame_id)) => out.push((start - input, frame_id)),
            None => unpaired += 1,
        }
    }
    if unpaired > 0 {
        warnings.push(Warning::file(format!(
            "{unpaired} input events have no following PC_LATENCY_PING on a displayed frame; left out of I2FS"
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::pcl::parse_marker_log;
    use crate::ingest::{LoadOptions, load_bytes};
    use std::fmt::Write as _;
    use std::path::Path;

    /// A capture of frames with PCLFrameId 1..=4; NA in MsUntilDisplayed = dropped.
    fn capture(until: [&str; 4]) -> Trace {
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed,PCLFrameId\n",
        );
        for (i, u) in until.iter().enumerate() {
            let _ = writeln!(csv, "g.exe,1,0x1,5.0,{u},{}", i + 1);
        }
        let c = load_bytes(Path::new("c.csv"), csv.as_bytes(), LoadOptions::default());
        c.unwrap_or_else(|e| panic!("{e}")).traces.remove(0)
    }

    fn log(text: &str) -> MarkerLog {
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        parse_marker_log(Path::new("m.csv"), &lines, 1e7).unwrap_or_else(|e| panic!("{e}"))
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-9)
    }

    /// NVIDIA's example: input at 0; the ping lands on frame X (1), dropped, whose
    /// SIMULATION_START is 2.5 ms after the input; X+1 (2) starts 5 ms later and is
    /// dropped too; X+2 (3) starts 4.5 ms after that and is shown: I2FS = 12 ms.
    #[test]
    fn nvidia_dropped_frame_example_gives_12_ms() {
        let trace = capture(["NA", "NA", "8.0", "6.0"]);
        let log = log("timestamp_ns,event,marker_id,frame_id\n\
            0,PCLStatsInput,,\n\
            2500000,PCLStatsEvent,0,1\n2500000,PCLStatsEvent,8,1\n4000000,PCLStatsEvent,4,1\n\
            7500000,PCLStatsEvent,0,2\n9000000,PCLStatsEvent,4,2\n\
            12000000,PCLStatsEvent,0,3\n15000000,PCLStatsEvent,4,3\n\
            17000000,PCLStatsEvent,0,4\n18000000,PCLStatsEvent,4,4\n");
        let p = PclLatency::of(&log, &trace);
        assert_eq!(p.i2fs_ms.len(), 1);
        assert!((p.i2fs_ms[0] - 12.0).abs() < 1e-9);
        assert_eq!(p.i2fs_frame_ids, vec![3], "it ends on X+2, the first displayed frame");
        // FS2P over displayed frames 3 (15 − 12 = 3 ms) and 4 (18 − 17 = 1 ms): mean 2.
        assert!(close(p.fs2p_mean_ms, 2.0));
        // P2D over displayed frames: (8 + 6) / 2 = 7.
        assert!(close(p.p2d_mean_ms, 7.0));
        assert!(close(p.pcl_ms, 12.0 + 2.0 + 7.0));
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }

    /// Pings are used once, in order; an input after the last ping stays unpaired.
    #[test]
    fn inputs_pair_with_the_first_unused_ping_at_or_after_them() {
        let trace = capture(["1.0", "1.0", "1.0", "1.0"]);
        let log = log("timestamp_ns,event,marker_id,frame_id\n\
            1000000,PCLStatsInput,,\n1500000,PCLStatsInput,,\n\
            2000000,PCLStatsEvent,0,1\n2000000,PCLStatsEvent,8,1\n\
            6000000,PCLStatsEvent,0,2\n6000000,PCLStatsEvent,8,2\n\
            9000000,PCLStatsInput,,\n");
        let p = PclLatency::of(&log, &trace);
        // input 1.0 → ping on frame 1 (sim 2.0): 1.0; input 1.5 → frame 2 (sim 6.0): 4.5.
        assert_eq!(p.i2fs_ms.len(), 2);
        assert!((p.i2fs_ms[0] - 1.0).abs() < 1e-9 && (p.i2fs_ms[1] - 4.5).abs() < 1e-9);
        assert!(p.warnings.iter().any(|w| w.message.contains("1 input events have no following")));
        // No PRESENT_START and no RENDERSUBMIT_START: FS2P unknown, so PCL unknown.
        assert_eq!(p.fs2p_mean_ms, None);
        assert_eq!(p.pcl_ms, None);
    }

    /// Without PRESENT_START markers FS2P ends at RENDERSUBMIT_START; a Display
    /// Commander log has no inputs, so I2FS and PCL are unknown.
    #[test]
    fn display_commander_log_has_fs2p_but_no_i2fs() {
        let trace = capture(["2.0", "4.0", "NA", "6.0"]);
        let lines: Vec<String> = "# PCLStats Event Log\n\
            1.000000, 0, SIMULATION_START, 1, 1000000\n3.000000, 2, RENDERSUBMIT_START, 1, 3000000\n\
            6.000000, 0, SIMULATION_START, 2, 6000000\n7.000000, 2, RENDERSUBMIT_START, 2, 7000000\n"
            .lines()
            .map(str::to_owned)
            .collect();
        let log = parse_marker_log(Path::new("dc.log"), &lines, 1e7).unwrap_or_else(|e| panic!("{e}"));
        let p = PclLatency::of(&log, &trace);
        assert!(close(p.fs2p_mean_ms, 1.5)); // (2 + 1) / 2
        assert!(close(p.p2d_mean_ms, 3.0)); // frames 1 and 2 joined: (2 + 4) / 2
        assert_eq!((p.i2fs_mean_ms, p.pcl_ms), (None, None));
    }

    /// Two pings on one long frame are two pings: the inputs pair one to one.
    #[test]
    fn two_pings_on_one_frame_both_count() {
        let trace = capture(["1.0", "1.0", "1.0", "1.0"]);
        let log = log("timestamp_ns,event,marker_id,frame_id\n\
            1000000,PCLStatsInput,,\n2000000,PCLStatsInput,,\n\
            3000000,PCLStatsEvent,0,1\n3000000,PCLStatsEvent,8,1\n3500000,PCLStatsEvent,8,1\n\
            9000000,PCLStatsInput,,\n10000000,PCLStatsEvent,0,2\n10000000,PCLStatsEvent,8,2\n");
        let p = PclLatency::of(&log, &trace);
        // 3 − 1 = 2, 3 − 2 = 1 (both on frame 1), 10 − 9 = 1 (frame 2).
        assert_eq!(p.i2fs_ms, vec![2.0, 1.0, 1.0]);
    }

    #[test]
    fn frame_ids_missing_from_the_capture_are_reported() {
        let trace = capture(["1.0", "1.0", "1.0", "1.0"]);
        let log =
            log("timestamp_ns,event,marker_id,frame_id\n0,PCLStatsEvent,0,900\n100,PCLStatsEvent,4,900\n");
        let p = PclLatency::of(&log, &trace);
        assert_eq!(p.p2d_mean_ms, None);
        assert!(p.warnings.iter().any(|w| w.message.contains("none of the marker log's FrameIDs")));
    }

    /// FrameIDs 2^53 and 2^53 + 1 are one value as f64; as integers they join to their
    /// own frames: P2D = the mean of their own MsUntilDisplayed, (3 + 7) / 2 = 5.
    #[test]
    fn frame_ids_beyond_2_pow_53_join_exactly() {
        let csv = "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed,PCLFrameId\n\
                   g.exe,1,0x1,5.0,3.0,9007199254740992\n\
                   g.exe,1,0x1,5.0,7.0,9007199254740993\n";
        let c = load_bytes(Path::new("big.csv"), csv.as_bytes(), LoadOptions::default());
        let trace = c.unwrap_or_else(|e| panic!("{e}")).traces.remove(0);
        let log = log("timestamp_ns,event,marker_id,frame_id\n\
            0,PCLStatsEvent,0,9007199254740992\n1000000,PCLStatsEvent,4,9007199254740992\n\
            5000000,PCLStatsEvent,0,9007199254740993\n6000000,PCLStatsEvent,4,9007199254740993\n");
        let p = PclLatency::of(&log, &trace);
        let joined: Vec<Option<usize>> = p.frames.iter().map(|f| f.trace_frame).collect();
        assert_eq!(joined, [Some(0), Some(1)]);
        assert!(close(p.p2d_mean_ms, 5.0), "{:?}", p.p2d_mean_ms);
    }
}
