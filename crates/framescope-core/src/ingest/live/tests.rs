//! Tests of [`follow`] on sources built in memory: a capture handed over in pieces cut
//! inside rows is read as the whole bytes are, one update per piece; a source that
//! starts over starts the capture over; a format read whole (CapFrameX JSON) is read
//! again as it grows.

#![allow(clippy::unwrap_used)]

use super::{Event, Flow, Live, Poll, Source, follow};
use crate::ingest::{LoadOptions, load_bytes};
use std::collections::VecDeque;
use std::path::Path;

/// Parts handed over one a poll (`None`: the source starts over), then the end.
struct Parts(VecDeque<Option<&'static [u8]>>);

impl Source for Parts {
    fn poll(&mut self, into: &mut Vec<u8>) -> std::io::Result<Poll> {
        Ok(match self.0.pop_front() {
            Some(Some(p)) => {
                into.extend_from_slice(p);
                Poll::Data
            }
            Some(None) => {
                into.clear();
                Poll::Reset("started over".into())
            }
            None => Poll::End,
        })
    }
}

const CSV: &str = "Application,ProcessID,SwapChainAddress,MsBetweenPresents\n\
                   g.exe,1,0x1,10\ng.exe,1,0x1,20\ng.exe,1,0x1,30\ng.exe,1,0x1,40\n";

/// What one update saw: incremental, frames of the main trace, bytes, frames of the
/// capture taken then.
type Seen = (bool, usize, usize, usize);

/// What each update saw, and the notes of starting over.
fn updates(parts: Vec<Option<&'static [u8]>>) -> (Vec<Seen>, Vec<String>) {
    let mut seen = Vec::new();
    let mut notes = Vec::new();
    let mut source = Parts(parts.into());
    let mut on = |e: Event<'_>| {
        match e {
            Event::Update(l) => seen.push(row(l)),
            Event::Restarted(n) => notes.push(n),
        }
        Flow::Continue
    };
    follow(&mut source, Path::new("g.csv"), &LoadOptions::default(), &mut on).unwrap();
    (seen, notes)
}

fn row(l: &Live<'_>) -> Seen {
    let frames = l.capture().map_or(0, |c| c.traces[0].frames.frame_time_ms.len());
    (l.incremental(), l.frame_times_where(&|_| true).len(), l.bytes().len(), frames)
}

/// The header (57 bytes) and four rows of 15 bytes (ending at 72, 87, 102, 117) cut at
/// bytes 50, 70, 95 and 110: no whole header, then a header with half a row (not yet
/// incremental: no whole row), then 2 rows (the half-written third waits), 3, and all
/// 4 (the last update is the end's); the capture is the whole file's, frame for frame.
#[test]
fn pieces_cut_inside_rows_are_read_as_whole_lines() {
    let b = CSV.as_bytes();
    let (seen, notes) =
        updates(vec![Some(&b[..50]), Some(&b[50..70]), Some(&b[70..95]), Some(&b[95..110]), Some(&b[110..])]);
    assert!(notes.is_empty());
    let incremental: Vec<(bool, usize)> = seen.iter().map(|s| (s.0, s.1)).collect();
    assert_eq!(incremental, [(false, 0), (false, 0), (true, 2), (true, 3), (true, 4), (true, 4)]);
    let last = seen.last().unwrap();
    assert_eq!((last.2, last.3), (b.len(), 4));
    let whole = load_bytes(Path::new("g.csv"), b, LoadOptions::default()).unwrap();
    let mut source = Parts(vec![Some(b)].into());
    let mut got = None;
    follow(&mut source, Path::new("g.csv"), &LoadOptions::default(), &mut |e| {
        if let Event::Update(l) = e {
            got = Some(l.capture().unwrap());
        }
        Flow::Continue
    })
    .unwrap();
    let got = got.unwrap();
    assert_eq!(got.traces[0].frames.frame_time_ms, whole.traces[0].frames.frame_time_ms);
    assert_eq!(got.traces[0].frames.start_ms, whole.traces[0].frames.start_ms);
    assert_eq!(got.traces[0].frames.line, whole.traces[0].frames.line);
}

/// A source that starts over after two rows: a note, then the new content (one row of
/// 5 ms) alone.
#[test]
fn a_source_that_starts_over_starts_the_capture_over() {
    let b = CSV.as_bytes();
    let again: &'static [u8] = b"Application,ProcessID,SwapChainAddress,MsBetweenPresents\ng.exe,1,0x1,5\n";
    let (seen, notes) = updates(vec![Some(&b[..87]), None, Some(again)]);
    assert_eq!(notes, ["started over"]);
    assert_eq!(seen.iter().map(|s| s.1).collect::<Vec<_>>(), [2, 1, 1]);
}

/// CapFrameX JSON is no CSV: read whole, the capture appears once the document is.
#[test]
fn other_formats_are_read_whole() {
    let json: &'static [u8] = br#"{"Info":{"ProcessName":"g.exe"},"Runs":[{"CaptureData":{"MsBetweenPresents":[10.0,20.0],"TimeInSeconds":[0.0,0.01]}}]}"#;
    let (seen, _) = updates(vec![Some(&json[..40]), Some(&json[40..])]);
    assert!(seen.iter().all(|s| !s.0));
    assert_eq!(seen.last().unwrap().3, 2);
}

/// Owned bytes handed over `chunk` at a time, then the end.
struct Chunks {
    data: Vec<u8>,
    pos: usize,
    chunk: usize,
}

impl Source for Chunks {
    fn poll(&mut self, into: &mut Vec<u8>) -> std::io::Result<Poll> {
        if self.pos >= self.data.len() {
            return Ok(Poll::End);
        }
        let end = (self.pos + self.chunk).min(self.data.len());
        into.extend_from_slice(&self.data[self.pos..end]);
        self.pos = end;
        Ok(Poll::Data)
    }
}

/// Follows `data` handed over in 64 KiB pieces: the most bytes an update held, and the
/// last capture (or its error's message).
fn follow_chunks(data: Vec<u8>) -> (usize, Result<crate::model::Capture, String>) {
    let mut source = Chunks { data, pos: 0, chunk: 64 << 10 };
    let (mut most, mut last) = (0, None);
    follow(&mut source, Path::new("g.csv"), &LoadOptions::default(), &mut |e| {
        if let Event::Update(l) = e {
            most = most.max(l.bytes().len());
            if l.ended {
                last = Some(l.capture().map_err(|e| e.to_string()));
            }
        }
        Flow::Continue
    })
    .unwrap();
    (most, last.unwrap())
}

/// Every warning of a capture: (line, message).
fn warnings_of(c: &crate::model::Capture) -> Vec<(Option<u64>, String)> {
    let all = c.warnings.iter().chain(c.traces.iter().flat_map(|t| &t.warnings));
    let mut out: Vec<_> = all.map(|w| (w.line, w.message.clone())).collect();
    out.sort();
    out
}

/// A row of 6 MiB (fields of two letters) arriving in 64 KiB pieces, then two more rows
/// (issue 34): it is cut to [`super::MAX_PENDING`] bytes as it comes (the update never
/// holds more), and the capture is the batch reader's — four frames, the row skipped as
/// too long at its line (4).
#[test]
fn a_row_that_goes_on_and_on_is_cut_and_skipped_as_the_batch_reader_skips_it() {
    let mut data = CSV.as_bytes()[..87].to_vec();
    data.extend(b"zz,".repeat(2 << 20));
    data.extend_from_slice(b"\ng.exe,1,0x1,30\ng.exe,1,0x1,40\n");
    let whole = load_bytes(Path::new("g.csv"), &data, LoadOptions::default()).unwrap();
    let (most, live) = follow_chunks(data);
    let live = live.unwrap();
    assert!(most <= 87 + super::MAX_PENDING + (64 << 10), "{most}");
    assert_eq!(live.traces[0].frames.frame_time_ms, [10.0, 20.0, 30.0, 40.0]);
    assert_eq!(live.traces[0].frames.frame_time_ms, whole.traces[0].frames.frame_time_ms);
    let warnings = warnings_of(&live);
    assert_eq!(warnings, warnings_of(&whole));
    assert!(warnings.iter().any(|(l, m)| *l == Some(4) && m.contains("row is too long")), "{warnings:?}");
}

/// The same row without an end (the input ends inside it) is skipped alike.
#[test]
fn a_row_that_never_ends_is_skipped_as_the_batch_reader_skips_it() {
    let mut data = CSV.as_bytes()[..87].to_vec();
    data.extend(b"zz,".repeat(2 << 20));
    let whole = load_bytes(Path::new("g.csv"), &data, LoadOptions::default()).unwrap();
    let (most, live) = follow_chunks(data);
    let live = live.unwrap();
    assert!(most <= 87 + super::MAX_PENDING + (64 << 10), "{most}");
    assert_eq!(live.traces[0].frames.frame_time_ms, [10.0, 20.0]);
    assert_eq!(warnings_of(&live), warnings_of(&whole));
}

/// A first line of 6 MiB that never ends: refused with the batch reader's message (a
/// line too long before a header), in bounded memory.
#[test]
fn a_first_line_that_never_ends_is_refused_as_the_batch_reader_refuses_it() {
    let data = b"a".repeat(6 << 20);
    let whole = load_bytes(Path::new("g.csv"), &data, LoadOptions::default()).unwrap_err().to_string();
    let (most, live) = follow_chunks(data);
    assert!(most <= super::MAX_PENDING + (64 << 10), "{most}");
    assert_eq!(live.unwrap_err(), whole);
    assert!(whole.contains("line is longer than 256 KiB"), "{whole}");
}

/// A CapFrameX JSON document on one line longer than [`super::MAX_PENDING`] is no CSV:
/// never cut, read whole.
#[test]
fn a_long_json_line_is_not_cut() {
    let n = 300_000;
    let times: Vec<String> = (0..n).map(|i| format!("{:.2}", f64::from(i) * 0.01)).collect();
    let json = format!(
        r#"{{"Info":{{"ProcessName":"g.exe"}},"Runs":[{{"CaptureData":{{"MsBetweenPresents":[{}],"TimeInSeconds":[{}]}}}}]}}"#,
        vec!["10.0"; n as usize].join(","),
        times.join(",")
    );
    assert!(json.len() > super::MAX_PENDING);
    let len = json.len();
    let (most, live) = follow_chunks(json.into_bytes());
    assert_eq!(most, len);
    assert_eq!(live.unwrap().traces[0].frames.frame_time_ms.len(), n as usize);
}
