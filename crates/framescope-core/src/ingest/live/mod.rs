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

mod source;
#[cfg(test)]
mod tests;

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
    /// New bytes were read by this update.
    pub grew: bool,
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

    /// The bytes read so far (what "save as capture" writes).
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

/// The length of the whole lines of `bytes` (all of it once `all`).
fn whole(bytes: &[u8], all: bool) -> usize {
    if all { bytes.len() } else { memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1) }
}

/// Reads the source from its start until it starts over or the owner stops.
fn read_once(
    source: &mut dyn Source,
    path: &Path,
    opts: &LoadOptions,
    bytes: &mut Vec<u8>,
    on: &mut dyn FnMut(Event<'_>) -> Flow,
) -> std::io::Result<Outcome> {
    let mut ended = false;
    let mut idle = false;
    let mut seen = 0;
    // Until the top of a PresentMon-family CSV is in, the capture is read whole.
    let found = loop {
        match source.poll(bytes)? {
            Poll::Reset(note) => return Ok(Outcome::Restart(note)),
            Poll::End => ended = true,
            Poll::Idle => idle = true,
            Poll::Data => idle = false,
        }
        let lines = whole(bytes, ended);
        match head(path, &bytes[..lines]) {
            Some(Ok(h)) => break Some(h),
            Some(Err(_)) => break None,
            None if lines > MAX_HEAD_BYTES => break None,
            None => {}
        }
        let n = whole(bytes, ended || idle);
        let live =
            Live { path, opts, bytes: &bytes[..n], rows: None, grew: n > seen, cost: Duration::ZERO, ended };
        seen = n;
        if on(Event::Update(&live)) == Flow::Stop || ended {
            return Ok(Outcome::Done);
        }
    };
    match found {
        Some(h) => {
            let layout = h.layout.clone();
            let mut rows = LiveRows::new(path, &h, &layout);
            let mut parsed = h.len;
            loop {
                let t = Instant::now();
                let lines = whole(bytes, ended);
                let grew = lines > parsed;
                if grew {
                    rows.feed(&bytes[parsed..lines]);
                    parsed = lines;
                }
                let live = Live {
                    path,
                    opts,
                    bytes: &bytes[..lines],
                    rows: Some(&rows),
                    grew,
                    cost: t.elapsed(),
                    ended,
                };
                if on(Event::Update(&live)) == Flow::Stop || ended {
                    return Ok(Outcome::Done);
                }
                match source.poll(bytes)? {
                    Poll::Reset(note) => return Ok(Outcome::Restart(note)),
                    Poll::End => ended = true,
                    Poll::Idle | Poll::Data => {}
                }
            }
        }
        None => loop {
            let n = whole(bytes, ended || idle);
            let live = Live {
                path,
                opts,
                bytes: &bytes[..n],
                rows: None,
                grew: n > seen,
                cost: Duration::ZERO,
                ended,
            };
            seen = n;
            if on(Event::Update(&live)) == Flow::Stop || ended {
                return Ok(Outcome::Done);
            }
            match source.poll(bytes)? {
                Poll::Reset(note) => return Ok(Outcome::Restart(note)),
                Poll::End => ended = true,
                Poll::Idle => idle = true,
                Poll::Data => idle = false,
            }
        },
    }
}
