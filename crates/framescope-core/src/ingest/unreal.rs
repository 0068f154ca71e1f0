//! Unreal Engine CSV profiler captures (`formats.md` §10), both layouts: 4.2x–5.x
//! (`EVENTS` first; a repeat of the full header and a `[HasHeaderRowAtEnd]` metadata
//! line at the end) and 4.17–4.19 (`EVENTS` last, when there is one; no footer).
//!
//! Columns are found by name. Stats that appear mid-capture get columns appended to
//! the header, so early rows are shorter than the header: their missing trailing cells
//! are missing values. Events (`;`-separated in the events cell) become labelled
//! [`Event`]s of the frame; a skipped row's events go to the next kept frame.
//! `FrameTime` is the frame time; `GameThreadTime`, `RenderThreadTime`,
//! `RHIThreadTime` and `GPUTime` are health actions; every other numeric column is
//! telemetry. One trace per file, no display data.

use super::builder::SkipReason;
use super::engine_rows::{RowFormat, no_frames, read_frames};
use super::table::{Accumulator, ColumnSpec, Head, meta_for};
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, ColumnKind, Event, FileInfo, Format, Warning};
use std::io::Read;
use std::path::Path;

/// The two layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnrealLayout {
    /// UE 4.2x–5.x: `EVENTS` first, footer at the end.
    Modern,
    /// UE 4.17–4.19: `EVENTS` last (or no events column), no footer.
    Old,
}

/// The health actions: (name, is the GPU time).
pub const ACTIONS: [(&str, bool); 4] =
    [("GameThreadTime", false), ("RenderThreadTime", false), ("RHIThreadTime", false), ("GPUTime", true)];

/// Metadata keys kept as the trace's facts (`formats.md` §10), in this order.
const METADATA_KEYS: [&str; 6] =
    ["platform", "engineversion", "cpu", "deviceprofile", "buildversion", "config"];

/// The `[key],value` pairs of the footer's metadata line; keys lower-cased.
fn metadata(rec: &csv::ByteRecord) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < rec.len() {
        let key = String::from_utf8_lossy(rec.get(k).unwrap_or_default());
        if let Some(inner) = key.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            let value = rec.get(k + 1).map(|v| String::from_utf8_lossy(v).into_owned()).unwrap_or_default();
            out.push((inner.trim().to_ascii_lowercase(), value));
            k += 2;
        } else {
            k += 1;
        }
    }
    out
}

/// A column's role from its name: a health action, else telemetry.
fn kind_of(name: &str) -> ColumnKind {
    match ACTIONS.iter().find(|(a, _)| a.eq_ignore_ascii_case(name)).map(|&(_, gpu)| gpu) {
        Some(true) => ColumnKind::EngineGpu,
        Some(false) => ColumnKind::EngineThread,
        None => ColumnKind::Telemetry,
    }
}

fn spec_of(pos: usize, name: &str) -> ColumnSpec {
    ColumnSpec { pos, name: name.to_owned(), kind: kind_of(name), scale: 1.0, zero_missing: false }
}

/// The file's facts: the footer's metadata, the target, the layout.
fn file_info(path: &Path, meta: &[(String, String)], layout: UnrealLayout) -> FileInfo {
    let get = |key: &str| meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let target_fps = get("targetframerate")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0);
    let mut system: Vec<(String, String)> =
        METADATA_KEYS.iter().filter_map(|k| get(k).map(|v| ((*k).to_owned(), v))).collect();
    if let Some(t) = get("targetframerate") {
        system.push(("targetframerate".into(), t));
    }
    FileInfo {
        path: path.to_path_buf(),
        format: Format::UnrealCsv,
        format_version: match layout {
            UnrealLayout::Modern => "4.2x–5.x".into(),
            UnrealLayout::Old => "4.17–4.19".into(),
        },
        system,
        dropped_known: false,
        target_fps,
    }
}

/// Names the columns by the final header (the footer's when it is longer: stats
/// added mid-capture) and skips the rows longer than it. `long_rows`: (frame, fields,
/// line) of the rows longer than the first header.
fn apply_final_header(acc: &mut Accumulator, names: &[String], long_rows: &[(usize, usize, u64)]) {
    for spec in acc.specs_mut() {
        if let Some(name) = names.get(spec.pos).filter(|n| !n.is_empty()) {
            spec.kind = kind_of(name);
            spec.name.clone_from(name);
        }
    }
    let too_long: Vec<&(usize, usize, u64)> =
        long_rows.iter().filter(|(_, fields, _)| *fields > names.len()).collect();
    if too_long.is_empty() {
        return;
    }
    let mut drop = vec![false; acc.frame_time_ms.len()];
    for &&(frame, fields, line) in &too_long {
        if let Some(d) = drop.get_mut(frame) {
            *d = true;
        }
        acc.skip(line, SkipReason::TooLong { fields, header: names.len() });
    }
    acc.remove_frames(&drop);
    let mut t = 0.0;
    for (s, ft) in acc.start_ms.iter_mut().zip(&acc.frame_time_ms) {
        *s = t;
        t += ft;
    }
}

/// A named column whose name no column before it has.
fn is_new_name(head: &Head, pos: usize, name: &str) -> bool {
    !name.is_empty() && !head.header[..pos].iter().any(|h| h.eq_ignore_ascii_case(name))
}

/// The events of a row: its events cell split at `;`, trimmed, empty ones left out.
fn event_texts(rec: &csv::ByteRecord, events_index: Option<usize>) -> Vec<String> {
    events_index
        .and_then(|i| rec.get(i))
        .map(|cell| {
            String::from_utf8_lossy(cell)
                .split(';')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Events a capture keeps (a real one has a few hundred bookmarks); further ones are
/// counted in a warning. An event cell of `a;a;a…` would otherwise cost ~20 × its text.
const MAX_EVENTS: usize = 1 << 16;
/// Events of skipped rows kept for the next frame; further ones are counted.
const MAX_PENDING: usize = 1024;
/// Events after the last frame named in the warning that says they are not shown.
const LISTED_PENDING: usize = 5;

/// What the end of the file leaves to say: events after the last frame, events left
/// out, lines after the footer, a 5.x capture without its footer.
fn end_warnings(rows: &UnrealRows<'_>, no_footer: bool) -> Vec<Warning> {
    let (pending, after_footer) = (&rows.pending, rows.after_footer);
    let mut warnings = Vec::new();
    if !pending.is_empty() {
        let listed: Vec<&str> = pending.iter().take(LISTED_PENDING).map(String::as_str).collect();
        let more = pending.len() - listed.len();
        warnings.push(Warning::file(format!(
            "{} event(s) on rows after the last frame are not shown: {}{}",
            pending.len(),
            listed.join("; "),
            if more > 0 { format!("; and {more} more") } else { String::new() }
        )));
    }
    if rows.events_left_out > 0 {
        warnings.push(Warning::file(format!(
            "{} events were left out: a capture keeps at most {MAX_EVENTS}, and {MAX_PENDING} of skipped rows at a \
             time",
            rows.events_left_out
        )));
    }
    if after_footer > 0 {
        warnings.push(Warning::file(format!("{after_footer} line(s) after the footer were not read")));
    }
    if no_footer {
        warnings.push(Warning::file(
            "no [HasHeaderRowAtEnd] footer: the capture may have been cut short (a .csv.inprogress file?); no \
             metadata or target frame rate",
        ));
    }
    warnings
}

fn is_cell(rec: &csv::ByteRecord, pos: usize, text: &[u8]) -> bool {
    rec.get(pos).is_some_and(|c| c.eq_ignore_ascii_case(text))
}

/// The state of an Unreal capture's rows while they are read.
struct UnrealRows<'a> {
    head: &'a Head,
    layout: UnrealLayout,
    ft_index: usize,
    events_index: Option<usize>,
    /// The widest row so far (columns are added for cells past the header).
    width: usize,
    /// Frames whose row is longer than the first header: (frame, fields, line).
    long_rows: Vec<(usize, usize, u64)>,
    /// Events of skipped rows, for the next kept frame (at most [`MAX_PENDING`]).
    pending: Vec<String>,
    /// Events not kept: past [`MAX_EVENTS`], or past [`MAX_PENDING`] waiting.
    events_left_out: u64,
    /// The repeat of the header at the end (modern layout).
    footer_header: Option<Vec<String>>,
    /// The footer's metadata line.
    meta: Option<Vec<(String, String)>>,
    /// Lines after the footer, not read.
    after_footer: u64,
}

impl RowFormat for UnrealRows<'_> {
    fn take_other(&mut self, rec: &csv::ByteRecord) -> bool {
        if self.meta.is_some() {
            self.after_footer += 1;
        } else if is_cell(rec, 0, b"[HasHeaderRowAtEnd]") {
            self.meta = Some(metadata(rec));
        } else if self.layout == UnrealLayout::Modern && is_cell(rec, 0, b"EVENTS") {
            self.footer_header =
                Some(rec.iter().map(|c| String::from_utf8_lossy(c).trim().to_owned()).collect());
        } else if self.footer_header.is_some() {
            // Rows after the repeated header but before the metadata line: not frames.
            self.after_footer += 1;
        } else {
            return false;
        }
        true
    }

    fn frame(&mut self, acc: &mut Accumulator, rec: &csv::ByteRecord, line: u64) -> Result<(), SkipReason> {
        let texts = event_texts(rec, self.events_index);
        match acc.frame_time(rec.get(self.ft_index), 1.0) {
            Ok(ft) => {
                let frame = acc.frame_time_ms.len();
                for label in self.pending.drain(..).chain(texts) {
                    if acc.events.len() < MAX_EVENTS {
                        acc.events.push(Event { frame, time_ms: 0.0, label });
                    } else {
                        self.events_left_out += 1;
                    }
                }
                if rec.len() > self.width {
                    // A stat that appeared mid-capture: a column named by the footer.
                    for pos in self.width..rec.len() {
                        acc.add_column(spec_of(pos, &format!("column {}", pos + 1)));
                    }
                    self.width = rec.len();
                }
                if rec.len() > self.head.header.len() {
                    self.long_rows.push((frame, rec.len(), line));
                }
                let start = acc.start_ms.last().zip(acc.frame_time_ms.last()).map_or(0.0, |(s, f)| s + f);
                acc.push(rec, ft, start, line);
                Ok(())
            }
            Err(reason) => {
                for label in texts {
                    if self.pending.len() < MAX_PENDING {
                        self.pending.push(label);
                    } else {
                        self.events_left_out += 1;
                    }
                }
                Err(reason)
            }
        }
    }
}

/// Reads an Unreal CSV profiler capture whose head was read already.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    layout: UnrealLayout,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let Some(ft_index) = head.find("FrameTime") else {
        return Err(LoadError::new(
            path,
            Some(head.header_line),
            LoadErrorKind::NotACapture("an Unreal CSV profiler header without a FrameTime column".into()),
        ));
    };
    let events_index = head.find("EVENTS");
    let specs: Vec<ColumnSpec> = head
        .header
        .iter()
        .enumerate()
        .filter(|&(pos, name)| pos != ft_index && Some(pos) != events_index && is_new_name(head, pos, name))
        .map(|(pos, name)| spec_of(pos, name))
        .collect();
    let mut warnings = Vec::new();
    if !ACTIONS.iter().any(|(a, _)| head.find(a).is_some()) {
        warnings.push(Warning::at(
            head.header_line,
            "read as an Unreal CSV profiler capture (EVENTS and FrameTime), but the header has none of \
             GameThreadTime, RenderThreadTime, RHIThreadTime, GPUTime: no health actions",
        ));
    }

    let mut acc = Accumulator::new(specs, head.decimal_comma());
    let mut state = UnrealRows {
        head,
        layout,
        ft_index,
        events_index,
        width: head.header.len(),
        long_rows: Vec::new(),
        pending: Vec::new(),
        events_left_out: 0,
        footer_header: None,
        meta: None,
        after_footer: 0,
    };
    read_frames(path, head, reader, &mut acc, progress, &mut state)?;
    warnings.extend(end_warnings(&state, layout == UnrealLayout::Modern && state.meta.is_none()));
    let UnrealRows { long_rows, footer_header, meta, .. } = state;
    let mut names = head.header.clone();
    if let Some(footer) = footer_header.filter(|f| f.len() > names.len()) {
        names = footer;
    }
    apply_final_header(&mut acc, &names, &long_rows);
    if acc.frame_time_ms.is_empty() {
        return Err(no_frames(path, &acc, "no row has a FrameTime above 0".into()));
    }
    acc.warnings.extend(warnings);
    let trace = acc.finish(meta_for(path));
    let info = file_info(path, &meta.unwrap_or_default(), layout);
    Ok(Capture { info, traces: vec![trace], warnings: Vec::new() })
}

#[cfg(test)]
mod tests {
    use crate::ingest::{LoadOptions, load_bytes};
    use std::fmt::Write as _;
    use std::path::Path;

    /// Events are capped: 70 000 on frames keep 65 536, 2000 on skipped rows before a
    /// frame keep 1024, and 3000 after the last frame are named five at a time; the
    /// rest are counted in a warning.
    #[test]
    fn events_are_kept_up_to_a_cap_and_the_rest_counted() {
        let mut text = String::from("EVENTS,FrameTime,GameThreadTime\n");
        text.push_str(&"e;".repeat(70_000));
        text.push_str(",16.6,5\n");
        for _ in 0..2000 {
            text.push_str("s,,5\n");
        }
        text.push_str(",16.7,5\n");
        for k in 0..3000 {
            let _ = writeln!(text, "after{k},,5");
        }
        let c = load_bytes(Path::new("u.csv"), text.as_bytes(), LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let t = &c.traces[0];
        assert_eq!(t.frames.events.len(), super::MAX_EVENTS);
        let messages: Vec<&str> = t.warnings.iter().map(|w| w.message.as_str()).collect();
        let after = messages.iter().find(|m| m.contains("after the last frame")).copied().unwrap_or_default();
        assert!(
            after.starts_with("1024 event(s) on rows after the last frame are not shown: after0; after1;"),
            "{after}"
        );
        assert!(after.ends_with("after4; and 1019 more"), "{after}");
        // 70 000 − 65 536 on the first frame, 2000 − 1024 skipped ones waiting, the
        // 1024 that waited (no room on the second frame), 3000 − 1024 after the end.
        let left_out = 70_000 - super::MAX_EVENTS + 976 + 1024 + 1976;
        assert!(
            messages.iter().any(|m| m.starts_with(&format!("{left_out} events were left out"))),
            "{messages:?}"
        );
    }
}
