//! Live captures: a capture that is still being written (a file that grows, standard
//! input) read as it grows, as one capture.
//!
//! [`follow`] polls a [`Source`] and hands its owner an [`Event::Update`] after every
//! poll. A PresentMon-family CSV (PresentMon, FrameView, OCAT, CapFrameX CSV,
//! MangoHud) is read incrementally: each update parses only the whole lines that
//! arrived since the last (a half-written last line waits for the rest) into the row
//! loop a whole-file load uses, so an update's cost does not grow with the capture
//! and [`Live::capture`] equals a load of the same bytes. Any other format is read
//! again whole when it has grown ([`Live::incremental`] is false): its owner should
//! take captures at a throttled rate. A source that starts over (truncated, replaced,
//! rewritten) gives an [`Event::Restarted`] and is read again from its start.
//!
//! Each byte is looked at once for line ends, so a line that never ends costs no more
//! than its bytes; one that grows past [`MAX_PENDING`] bytes is cut there (its content
//! replaced, the rest dropped up to its end), so it holds no more memory than that and
//! is reported as the batch reader reports it: a row too long to be a frame (skipped at
//! its line), or, before the header, a line too long for a CSV frame log.

mod lines;
mod source;
#[cfg(test)]
mod tests;

pub use lines::MAX_PENDING;
pub use source::{FileSource, MAX_CHUNK, Poll, Source, StreamSource};

use super::csv_capture::live::{LiveRows, head};
use super::{LoadError, LoadOptions, load_bytes};
use crate::model::{Capture, TraceMeta};
use std::path::Path;
use std::time::{Duration, Instant};

/// Whole lines read without finding a PresentMon-family header: the capture is read
/// whole from then on.
const MAX_HEAD_BYTES: usize = 1 << 20;

/// What the owner of a live capture hears.
pub enum Event<'a> {
    /// After every poll: the capture so far.
    Update(&'a Live<'a>),
    /// The source started over (the reason, in words); updates of the new content
    /// follow.
    Restarted(String),
}

/// The owner's answer to an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep following.
    Continue,
    /// Stop: [`follow`] returns.
    Stop,
}

/// A live capture at one moment.
pub struct Live<'a> {
    path: &'a Path,
    opts: &'a LoadOptions,
    /// The bytes read so far that make the capture (whole lines, or everything once
    /// the source is idle or ended).
    bytes: &'a [u8],
    rows: Option<&'a LiveRows<'a>>,
    /// New whole lines were read by this update (bytes to take a capture of).
    pub grew: bool,
    /// The source handed over bytes for this update, whole lines or not: it is not
    /// idle (a line that takes many reads to arrive makes no whole line meanwhile).
    pub read: bool,
    /// The time this update took to read its new lines.
    pub cost: Duration,
    /// The source ended: this is the last update.
    pub ended: bool,
}

impl Live<'_> {
    /// True when the capture is read incrementally (a PresentMon-family CSV whose
    /// header has been read).
    #[must_use]
    pub fn incremental(&self) -> bool {
        self.rows.is_some()
    }

    /// The bytes read so far (what "save as capture" writes), with every over-long
    /// line cut to [`MAX_PENDING`] bytes of filler.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        self.bytes
    }

    /// The kept frame times, so far, of the trace with the most frames among those
    /// whose writer `keep` accepts (empty when none is, or when the capture is not read
    /// incrementally).
    #[must_use]
    pub fn frame_times_where(&self, keep: &dyn Fn(&TraceMeta) -> bool) -> &[f64] {
        self.rows.map_or(&[], |r| r.frame_times_where(keep))
    }

    /// The capture so far, exactly as a load of [`Live::bytes`] gives it. Its cost
    /// grows with the capture (every trace is copied, or, not incremental, read again).
    ///
    /// # Errors
    /// As a load: nothing usable yet, or not a capture.
    pub fn capture(&self) -> Result<Capture, LoadError> {
        match self.rows {
            Some(rows) => rows.capture(self.opts),
            None => load_bytes(self.path, self.bytes, self.opts.clone()),
        }
    }
}

/// How one reading of the source ended.
enum Outcome {
    Restart(String),
    Done,
}

/// Follows `source` (named `path` in messages and in the capture) until `on` says
/// [`Flow::Stop`] or, after the last update, the source ends.
///
/// # Errors
/// Reading the source failed.
pub fn follow(
    source: &mut dyn Source,
    path: &Path,
    opts: &LoadOptions,
    on: &mut dyn FnMut(Event<'_>) -> Flow,
) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    loop {
        match read_once(source, path, opts, &mut bytes, on)? {
            Outcome::Done => return Ok(()),
            Outcome::Restart(note) => {
                bytes.clear();
                if on(Event::Restarted(note)) == Flow::Stop {
                    return Ok(());
                }
            }
        }
    }
}

/// One reading of the source: its bytes and where they stand.
struct Reading<'a> {
    source: &'a mut dyn Source,
    bytes: &'a mut Vec<u8>,
    ended: bool,
    /// The last poll found nothing new.
    idle: bool,
    ends: lines::LineEnds,
}

impl Reading<'_> {
    /// Polls the source for more bytes: `Some` when it started over.
    fn poll(&mut self) -> std::io::Result<Option<Outcome>> {
        match self.source.poll(self.bytes)? {
            Poll::Reset(note) => return Ok(Some(Outcome::Restart(note))),
            Poll::End => (self.ended, self.idle) = (true, true),
            Poll::Idle => self.idle = true,
            Poll::Data => self.idle = false,
        }
        self.ends.update(self.bytes);
        Ok(None)
    }

    /// The length of the whole lines read (all of it once ended, or `or_idle` and idle).
    fn whole(&self, or_idle: bool) -> usize {
        self.ends.whole(self.bytes, self.ended || (or_idle && self.idle))
    }
}

/// Reads the source from its start until it starts over or the owner stops.
fn read_once(
    source: &mut dyn Source,
    path: &Path,
    opts: &LoadOptions,
    bytes: &mut Vec<u8>,
    on: &mut dyn FnMut(Event<'_>) -> Flow,
) -> std::io::Result<Outcome> {
    let mut r = Reading { source, bytes, ended: false, idle: false, ends: lines::LineEnds::default() };
    let mut seen = 0;
    // The whole lines the top was last looked for in (it is looked for again only when
    // they grew).
    let mut looked = None;
    // Until the top of a PresentMon-family CSV is in, the capture is read whole.
    let found = loop {
        if let Some(restart) = r.poll()? {
            return Ok(restart);
        }
        let lines = r.whole(false);
        if looked != Some(lines) {
            looked = Some(lines);
            match head(path, &r.bytes[..lines]) {
                Some(Ok(h)) => break Some(h),
                Some(Err(_)) => break None,
                None if lines > MAX_HEAD_BYTES => break None,
                None => {}
            }
        }
        if let Some(done) = update_whole(&r, path, opts, &mut seen, on) {
            return Ok(done);
        }
    };
    match found {
        Some(h) => read_rows(&mut r, path, opts, &h, on),
        None => loop {
            if let Some(done) = update_whole(&r, path, opts, &mut seen, on) {
                return Ok(done);
            }
            if let Some(restart) = r.poll()? {
                return Ok(restart);
            }
        },
    }
}

/// One update of a capture read whole (`seen`: the bytes of the last); `Some` when the
/// reading is done.
fn update_whole(
    r: &Reading<'_>,
    path: &Path,
    opts: &LoadOptions,
    seen: &mut usize,
    on: &mut dyn FnMut(Event<'_>) -> Flow,
) -> Option<Outcome> {
    let n = r.whole(true);
    let live = Live {
        path,
        opts,
        bytes: &r.bytes[..n],
        rows: None,
        grew: n > *seen,
        read: !r.idle,
        cost: Duration::ZERO,
        ended: r.ended,
    };
    *seen = n;
    (on(Event::Update(&live)) == Flow::Stop || r.ended).then_some(Outcome::Done)
}

/// Reads the rows of a PresentMon-family CSV whose top is `h`, a few whole lines an
/// update.
fn read_rows(
    r: &mut Reading<'_>,
    path: &Path,
    opts: &LoadOptions,
    h: &super::csv_capture::live::Head,
    on: &mut dyn FnMut(Event<'_>) -> Flow,
) -> std::io::Result<Outcome> {
    let layout = h.layout.clone();
    let mut rows = LiveRows::new(path, h, &layout);
    let mut parsed = h.len;
    loop {
        let t = Instant::now();
        let lines = r.whole(false);
        let grew = lines > parsed;
        if grew {
            rows.feed(&r.bytes[parsed..lines]);
            parsed = lines;
        }
        let live = Live {
            path,
            opts,
            bytes: &r.bytes[..lines],
            rows: Some(&rows),
            grew,
            read: !r.idle,
            cost: t.elapsed(),
            ended: r.ended,
        };
        if on(Event::Update(&live)) == Flow::Stop || r.ended {
            return Ok(Outcome::Done);
        }
        if let Some(restart) = r.poll()? {
            return Ok(restart);
        }
    }
}
