//! Where the whole lines of a live capture's bytes end, found once per byte (each poll
//! looks at its new bytes only), and the batch reader's over-long-line rule applied as
//! the bytes arrive: an unterminated line that grows past [`MAX_PENDING`] bytes keeps
//! that many (its content replaced by a neutral filler) and the rest of it is dropped up
//! to its end. So a huge line costs its bytes once and [`MAX_PENDING`] of memory, and a
//! load of the bytes kept says what a load of the whole input says: a row of more than
//! 1 MiB is skipped as too long (at its line), a line before the header of more than
//! 256 KiB is refused.

use crate::ingest::records::MAX_ROW_BYTES;

/// The bytes an over-long line keeps: twice the longest row, so the row is over-long
/// however many fields it has (at most 131 072 before the field limit marks it so).
pub const MAX_PENDING: usize = 2 * MAX_ROW_BYTES + 2;

/// What stands in for an over-long line's content: no separator, quote or line end.
const FILLER: u8 = b'x';

/// The line ends of a live capture's bytes so far.
#[derive(Debug, Default)]
pub(super) struct LineEnds {
    /// Bytes looked at.
    scanned: usize,
    /// The length of the whole lines (up to and including the last `\n`).
    whole: usize,
    /// Where the last line starts (after the last `\n` or `\r`: both end a row).
    last_start: usize,
    /// The rest of an over-long line is being dropped, up to its end.
    dropping: bool,
    /// Whether the bytes are text whose lines may be cut ([`LineEnds::cuts_lines`]),
    /// once known.
    cuts: Option<bool>,
    /// Bytes known to be white space from the start (where that look goes on).
    blank: usize,
}

impl LineEnds {
    /// The length of the whole lines of the bytes seen (everything when `all`).
    pub(super) fn whole(&self, bytes: &[u8], all: bool) -> usize {
        if all { bytes.len() } else { self.whole }
    }

    /// Looks at the bytes appended to `bytes` since the last call: drops what belongs to
    /// an over-long line being dropped, finds the last line end, and cuts the last line
    /// when it grew past [`MAX_PENDING`] (only in text read line by line:
    /// [`LineEnds::cuts_lines`]).
    pub(super) fn update(&mut self, bytes: &mut Vec<u8>) {
        if bytes.len() < self.scanned {
            // The buffer was cleared: start over with it.
            *self = Self::default();
        }
        if self.dropping {
            let Some(k) = memchr::memchr2(b'\n', b'\r', &bytes[self.scanned..]) else {
                bytes.truncate(self.scanned);
                return;
            };
            bytes.drain(self.scanned..self.scanned + k);
            self.dropping = false;
        }
        let new = &bytes[self.scanned..];
        if let Some(k) = memchr::memrchr(b'\n', new) {
            self.whole = self.scanned + k + 1;
        }
        if let Some(k) = memchr::memrchr2(b'\n', b'\r', new) {
            self.last_start = self.scanned + k + 1;
        }
        self.scanned = bytes.len();
        if bytes.len() - self.last_start > MAX_PENDING && self.cuts_lines(bytes) {
            bytes.truncate(self.last_start + MAX_PENDING);
            bytes[self.last_start..].fill(FILLER);
            self.scanned = bytes.len();
            self.dropping = true;
        }
    }

    /// True when the bytes are text read line by line, whose over-long lines may be
    /// cut: neither gzip, UTF-16 nor an ETW trace, and not JSON (a CapFrameX JSON
    /// document may be one long line) — its first byte other than white space (after a
    /// UTF-8 byte-order mark) is there and is no `{`. Decided once; the look for that
    /// byte goes on from where it stopped, so a long run of white space is looked at
    /// once.
    fn cuts_lines(&mut self, bytes: &[u8]) -> bool {
        if let Some(cuts) = self.cuts {
            return cuts;
        }
        let head = &bytes[..bytes.len().min(4096)];
        if !super::super::decode::is_plain(head) || super::super::etl::looks_like_etl(head) {
            self.cuts = Some(false);
            return false;
        }
        let from = if bytes.starts_with(b"\xEF\xBB\xBF") { self.blank.max(3) } else { self.blank };
        let Some(k) = bytes[from..].iter().position(|b| !b.is_ascii_whitespace()) else {
            self.blank = bytes.len();
            return false;
        };
        let cuts = bytes[from + k] != b'{';
        self.cuts = Some(cuts);
        cuts
    }
}
