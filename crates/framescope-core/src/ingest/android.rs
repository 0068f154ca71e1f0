//! Android's frame-timing text dumps (`metrics.md` §16), as `adb shell dumpsys` prints
//! them (saved by a Windows shell they are often UTF-16 with a byte-order mark:
//! `decode` has undone that before these readers see the text).
//!
//! * `dumpsys SurfaceFlinger --latency LAYER` (layout from AOSP
//!   `frameworks/native/services/surfaceflinger` `FrameTracker::dumpStats` and the
//!   docs): line 1 the display's refresh period in ns; then one line per frame of the
//!   layer's last ~128 buffers, `desiredPresent<TAB>actualPresent<TAB>frameReady` in
//!   ns. Rows not yet presented hold 0 (a buffer not filled yet: `0 0 0`) or
//!   `INT64_MAX` in the actual-present time: pending, skipped and counted.
//! * `dumpsys gfxinfo PACKAGE framestats` (layout from the Android developer docs
//!   "Test UI performance" and AOSP `libs/hwui/FrameInfo.cpp`): a summary (`Total
//!   frames rendered`, `Janky frames`, percentiles) then, per window, a
//!   `---PROFILEDATA---` block: a header `Flags,IntendedVsync,…,FrameCompleted,…` (the
//!   columns vary by version; found by name, any case, `_` ignored; every line ends
//!   with a `,`), one row per frame in ns, and `---PROFILEDATA---` again. Rows with
//!   non-zero `Flags` (a window's first frame, a frame skipped or measured) are no
//!   normal frames: skipped and counted.

use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Lines, Trace, TraceMeta, Warning};
use std::io::BufRead;
use std::path::Path;

/// An actual-present time that says "not presented yet".
const PENDING: i64 = i64::MAX;
/// A dump line longer than this is no dump line.
const MAX_LINE: u64 = 64 * 1024;
/// Without a stated refresh period, the 60 Hz frame deadline gfxinfo's jank uses.
const DEFAULT_PERIOD_MS: f64 = 1000.0 / 60.0;
/// The gfxinfo block delimiter.
const PROFILEDATA: &str = "---PROFILEDATA---";

/// The first non-blank lines of `text` (at most `n`), trimmed.
fn first_lines(text: &[u8], n: usize) -> Vec<&str> {
    let text = std::str::from_utf8(text).unwrap_or_else(|e| {
        // A buffer may end inside a character: what is valid before it.
        std::str::from_utf8(&text[..e.valid_up_to()]).unwrap_or_default()
    });
    text.lines().map(str::trim).filter(|l| !l.is_empty()).take(n).collect()
}

/// The whitespace-separated integers of a line, when it is only those.
fn integers(line: &str) -> Option<Vec<i64>> {
    line.split_whitespace().map(|w| w.parse::<i64>().ok()).collect()
}

/// True for a SurfaceFlinger `--latency` dump: a lone positive integer (the refresh
/// period, ns), then a line of three integers.
#[must_use]
pub fn is_surfaceflinger(text: &[u8]) -> bool {
    let lines = first_lines(text, 2);
    let period = lines.first().and_then(|l| integers(l)).is_some_and(|v| v.len() == 1 && v[0] > 0);
    period && lines.get(1).is_none_or(|l| integers(l).is_some_and(|v| v.len() == 3))
}

/// True for a gfxinfo dump: its title, a package's section, or a profile block first.
#[must_use]
pub fn is_gfxinfo(text: &[u8]) -> bool {
    first_lines(text, 1).first().is_some_and(|dump_line| {
        dump_line.starts_with("Applications Graphics Acceleration Info")
            || dump_line.starts_with("** Graphics info for pid")
            || dump_line.starts_with(PROFILEDATA)
    })
}

/// Reads the dump's lines with their 1-based numbers (each at most [`MAX_LINE`]
/// bytes: a longer one is an error naming its line).
fn lines(
    path: &Path,
    reader: &mut dyn BufRead,
    progress: &Progress,
) -> Result<Vec<(u64, String)>, LoadError> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for line in 1u64.. {
        buf.clear();
        let n = std::io::Read::take(&mut *reader, MAX_LINE + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| LoadError::new(path, Some(line), LoadErrorKind::Io(e)))?;
        if n == 0 {
            break;
        }
        if n as u64 > MAX_LINE {
            let msg = format!("line longer than {MAX_LINE} bytes: not an Android dumpsys text");
            return Err(LoadError::new(path, Some(line), LoadErrorKind::NotACapture(msg)));
        }
        if line.is_multiple_of(8192) && progress.is_cancelled() {
            return Err(LoadError::new(path, None, LoadErrorKind::Cancelled));
        }
        out.push((line, String::from_utf8_lossy(&buf).trim().to_owned()));
    }
    Ok(out)
}

/// A trace from per-frame event times (ns, ascending): frame `k`'s time is `t_k −
/// t_{k−1}` (the first time opens the clock); `columns` hold one value per time
/// (the first dropped with it). Times that do not advance are skipped rows.
struct Timeline {
    times_ns: Vec<i64>,
    lines: Vec<u64>,
    columns: Vec<(String, ColumnKind, Vec<f64>)>,
}

impl Timeline {
    fn into_trace(self, meta: TraceMeta, display: bool, skipped: &mut Vec<u64>) -> Trace {
        let mut f = Frames::default();
        let mut lines = Lines::default();
        let mut cols: Vec<Vec<f64>> = vec![Vec::new(); self.columns.len()];
        let mut last: Option<i64> = None;
        for (k, (&t, &line)) in self.times_ns.iter().zip(&self.lines).enumerate() {
            match last {
                Some(prev) if t > prev => {
                    let ft = (t - prev) as f64 / 1e6;
                    f.frame_time_ms.push(ft);
                    f.start_ms.push((prev - self.times_ns[0]) as f64 / 1e6);
                    if display {
                        f.display_ms.push(ft);
                    }
                    lines.push(line);
                    for (c, (_, _, v)) in cols.iter_mut().zip(&self.columns) {
                        c.push(v.get(k).copied().unwrap_or(f64::NAN));
                    }
                }
                Some(_) => {
                    skipped.push(line);
                    continue;
                }
                None => {}
            }
            last = Some(t);
        }
        f.line = lines;
        f.columns = self
            .columns
            .into_iter()
            .zip(cols)
            .map(|((name, kind, _), values)| Column { name, kind, values: values.into() })
            .collect();
        Trace { meta, frames: f, warnings: Vec::new() }
    }
}

/// The warning for rows that are no frames: how many, the first lines, and why. Rows
/// the dump always has (`expected`: pending buffers, flagged frames) are counted in a
/// plain warning; malformed ones are skipped rows (`WarningKind::SkippedRows`, which
/// `--max-skipped` and `--strict` count).
fn skipped_warning(lines: &[u64], why: &str, expected: bool) -> Option<Warning> {
    let first = *lines.first()?;
    let shown: Vec<String> = lines.iter().take(5).map(u64::to_string).collect();
    let more = if lines.len() > 5 { ", …" } else { "" };
    let msg = format!("{} rows {why}: skipped (lines {}{more})", lines.len(), shown.join(", "));
    let w = Warning::at(first, msg);
    if expected {
        return Some(w);
    }
    Some(w.with_kind(crate::model::WarningKind::SkippedRows {
        count: lines.len() as u64,
        first_lines: lines.iter().take(5).copied().collect(),
    }))
}

/// Reads a SurfaceFlinger `--latency` dump.
pub(super) fn load_surfaceflinger(
    path: &Path,
    mut reader: super::decode::Text<'_>,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let all = lines(path, &mut reader, progress)?;
    let mut rows = all.iter().filter(|(_, l)| !l.is_empty());
    let period_ns = rows.next().and_then(|(_, l)| integers(l)).and_then(|v| v.first().copied()).unwrap_or(0);
    let (mut t, mut pending, mut bad) =
        (Timeline { times_ns: Vec::new(), lines: Vec::new(), columns: Vec::new() }, Vec::new(), Vec::new());
    let mut ready_to_present = Vec::new();
    for (line, text) in rows {
        match integers(text).as_deref() {
            Some(&[_, actual, _]) if actual == 0 || actual == PENDING => pending.push(*line),
            Some(&[_, actual, ready]) => {
                t.times_ns.push(actual);
                t.lines.push(*line);
                let latch = if ready > 0 && ready != PENDING && actual >= ready {
                    (actual - ready) as f64 / 1e6
                } else {
                    f64::NAN
                };
                ready_to_present.push(latch);
            }
            _ => bad.push(*line),
        }
    }
    t.columns.push((
        "Ready to present (frame ready → actual present)".to_owned(),
        ColumnKind::FrameDuration,
        ready_to_present,
    ));
    let mut backwards = Vec::new();
    let mut trace = t.into_trace(super::table::meta_for(path), true, &mut backwards);
    if trace.frames.frame_time_ms.is_empty() {
        let msg =
            "fewer than two presented frames (rows with an actual-present time other than 0 and INT64_MAX)"
                .to_owned();
        return Err(LoadError::new(
            path,
            pending.first().or(bad.first()).copied(),
            LoadErrorKind::NoFrames(msg),
        ));
    }
    let stated_ms = period_ns as f64 / 1e6;
    trace.frames.stated_period_ms = Some(stated_ms);
    trace.warnings.extend(skipped_warning(
        &pending,
        "not presented yet (actual present 0 or INT64_MAX)",
        true,
    ));
    trace.warnings.extend(skipped_warning(&bad, "are not three integers", false));
    trace.warnings.extend(skipped_warning(&backwards, "present no later than the frame before", false));
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::AndroidSurfaceFlinger,
        format_version: "dumpsys SurfaceFlinger --latency".into(),
        system: vec![("refresh period".to_owned(), format!("{period_ns} ns ({:.2} Hz)", 1000.0 / stated_ms))],
        dropped_known: false,
        target_fps: None,
    };
    Ok(Capture { info, traces: vec![trace], warnings: Vec::new() })
}

/// A gfxinfo header name without case and `_` (`INTENDED_VSYNC` = `IntendedVsync`).
fn bare(name: &str) -> String {
    name.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase()
}

/// The summary lines gfxinfo prints above the blocks, as the dump writes them.
const SUMMARY_KEYS: [&str; 7] = [
    "Total frames rendered",
    "Janky frames",
    "50th percentile",
    "90th percentile",
    "95th percentile",
    "99th percentile",
    "Number Missed Vsync",
];

/// One `---PROFILEDATA---` block being read.
struct Block {
    name: String,
    flags: Option<usize>,
    intended: Option<usize>,
    completed: Option<usize>,
    timeline: Timeline,
    durations: Vec<f64>,
    skipped_flags: Vec<u64>,
    bad: Vec<u64>,
}

impl Block {
    fn new(name: String, header: &str, line: u64) -> Result<Self, (u64, String)> {
        let header: Vec<String> = header.split(',').map(|h| bare(h.trim())).collect();
        let find = |n: &str| header.iter().position(|h| h == n);
        let (flags, intended, completed) = (find("flags"), find("intendedvsync"), find("framecompleted"));
        if intended.is_none() {
            return Err((line, "a ---PROFILEDATA--- block without an IntendedVsync column".to_owned()));
        }
        let timeline = Timeline { times_ns: Vec::new(), lines: Vec::new(), columns: Vec::new() };
        Ok(Self {
            name,
            flags,
            intended,
            completed,
            timeline,
            durations: Vec::new(),
            skipped_flags: Vec::new(),
            bad: Vec::new(),
        })
    }

    fn row(&mut self, line: u64, text: &str) {
        let cells: Vec<&str> = text.split(',').map(str::trim).collect();
        let at = |i: Option<usize>| i.and_then(|i| cells.get(i)).and_then(|c| c.parse::<i64>().ok());
        if at(self.flags).is_some_and(|f| f != 0) {
            self.skipped_flags.push(line);
            return;
        }
        let Some(iv) = at(self.intended).filter(|v| *v > 0) else {
            self.bad.push(line);
            return;
        };
        let done = at(self.completed).filter(|c| *c >= iv);
        self.timeline.times_ns.push(iv);
        self.timeline.lines.push(line);
        self.durations.push(done.map_or(f64::NAN, |c| (c - iv) as f64 / 1e6));
    }

    fn finish(mut self, period_ms: f64) -> Trace {
        let jank: Vec<f64> =
            self.durations.iter().map(|&d| if d > period_ms { d } else { f64::NAN }).collect();
        let durations = std::mem::take(&mut self.durations);
        self.timeline.columns.push((
            "Frame duration (IntendedVsync → FrameCompleted)".to_owned(),
            ColumnKind::FrameDuration,
            durations,
        ));
        self.timeline.columns.push((
            format!("Janky (duration over {period_ms:.2} ms)"),
            ColumnKind::FrameMark,
            jank,
        ));
        let mut backwards = Vec::new();
        let mut trace = self.timeline.into_trace(TraceMeta::named(self.name), false, &mut backwards);
        trace.warnings.extend(skipped_warning(
            &self.skipped_flags,
            "have non-zero Flags (no normal frame)",
            true,
        ));
        trace.warnings.extend(skipped_warning(&self.bad, "have no IntendedVsync", false));
        trace.warnings.extend(skipped_warning(&backwards, "start no later than the frame before", false));
        trace
    }
}

/// Reads a `dumpsys gfxinfo PACKAGE framestats` text: one trace per block.
pub(super) fn load_gfxinfo(
    path: &Path,
    mut reader: super::decode::Text<'_>,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let all = lines(path, &mut reader, progress)?;
    let mut system = Vec::new();
    let mut traces = Vec::new();
    let mut package = String::from("app");
    let mut label = String::new();
    let mut block: Option<Block> = None;
    let mut opened = false;
    for (line, text) in &all {
        if text == PROFILEDATA {
            if let Some(b) = block.take() {
                traces.push(b.finish(DEFAULT_PERIOD_MS));
                opened = false;
            } else {
                opened = true;
            }
            continue;
        }
        if opened {
            let name = if label.is_empty() {
                format!("{package} window {}", traces.len() + 1)
            } else {
                std::mem::take(&mut label)
            };
            block = Some(
                Block::new(name, text, *line)
                    .map_err(|(l, m)| LoadError::new(path, Some(l), LoadErrorKind::NotACapture(m)))?,
            );
            opened = false;
            continue;
        }
        match block.as_mut() {
            Some(b) if !text.is_empty() => b.row(*line, text),
            Some(_) => {}
            None => note_line(text, &mut package, &mut label, &mut system),
        }
    }
    if let Some(b) = block.take() {
        traces.push(b.finish(DEFAULT_PERIOD_MS));
    }
    traces.retain(|t| !t.frames.frame_time_ms.is_empty());
    if traces.is_empty() {
        let msg = "no ---PROFILEDATA--- block with two normal frames (Flags 0) in it".to_owned();
        return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(msg)));
    }
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::AndroidGfxinfo,
        format_version: "dumpsys gfxinfo framestats".into(),
        system,
        dropped_known: false,
        target_fps: None,
    };
    Ok(Capture { info, traces, warnings: Vec::new() })
}

/// A line outside the blocks: the package (`** Graphics info for pid N [pkg] **`), a
/// window's name (the line before a block), or a summary figure kept as the dump's own.
fn note_line(text: &str, package: &mut String, label: &mut String, system: &mut Vec<(String, String)>) {
    if let Some(rest) = text.strip_prefix("** Graphics info for pid") {
        if let Some(pkg) = rest.split('[').nth(1).and_then(|r| r.split(']').next()) {
            pkg.clone_into(package);
            system.push(("package".to_owned(), pkg.to_owned()));
        }
        return;
    }
    if let Some((key, value)) = text.split_once(':')
        && let Some(k) = SUMMARY_KEYS.iter().find(|k| key.trim().eq_ignore_ascii_case(k))
    {
        if !system.iter().any(|(s, _)| s.ends_with(*k)) {
            system.push((format!("gfxinfo's own: {k}"), value.trim().to_owned()));
        }
        return;
    }
    if !text.is_empty() {
        // The window a block belongs to is named on a line of its own above it
        // (`pkg/pkg.MainActivity/android.view.ViewRootImpl@… (visibility=0)`).
        if text.contains('/') && !text.contains(':') {
            text.clone_into(label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_by_first_lines() {
        assert!(is_surfaceflinger(b"16666666\n0\t0\t0\n"));
        assert!(is_surfaceflinger(b"\n16666666\n"));
        assert!(!is_surfaceflinger(b"16666666\n1,2,3\n"));
        assert!(!is_surfaceflinger(b"0.8.1\nfps,frametime\n"));
        assert!(is_gfxinfo(b"Applications Graphics Acceleration Info:\nUptime: 1"));
        assert!(is_gfxinfo(b"\n---PROFILEDATA---\nFlags,IntendedVsync\n"));
        assert!(!is_gfxinfo(b"Application,ProcessID\n"));
        assert_eq!(bare("INTENDED_VSYNC"), "intendedvsync");
    }
}
