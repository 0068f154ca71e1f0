//! What stands between a file's bytes and its text: gzip compression and UTF-16
//! (some Windows tools and spreadsheet re-saves write captures as UTF-16, with or
//! without a byte-order mark). Both are undone while reading, a buffer at a time, so a
//! compressed or UTF-16 capture costs no more memory than its UTF-8 text would.
//!
//! The rest of the reader sees UTF-8 text (the UTF-16 byte-order mark dropped, invalid
//! UTF-16 as U+FFFD); line numbers are those of the text.
//!
//! The gzip budget: a file is charged its text as the text costs to keep — the bytes
//! decompressed, each line counted as at least [`LINE_CHARGE`] bytes (what a dense
//! plain capture is charged per frame) and JSON as [`JSON_CHARGE`] × its bytes (its
//! arrays of numbers cost about that) — and that charge may be at most [`GZIP_RATIO`] ×
//! the archive's size, or [`GZIP_FLOOR`], whichever is more. Real captures compress
//! 5–15 × (a capture compressed 20 × reads); past the budget the read fails with
//! [`OverBudget`], which the loader turns into a message naming the file (decompressed
//! by hand, a capture is charged its own size). The text is never held decompressed
//! (it is read a buffer at a time), so a gzip input costs about what its text would,
//! and that is at most 32 × the archive.

use std::io::{BufRead, BufReader, Read};

/// A reader of text, whatever wrapped it.
pub(super) type Text<'a> = Box<dyn BufRead + Send + 'a>;

/// Times its size a gzip file's text may be (the text charged as [`LINE_CHARGE`]
/// bytes a line at least).
#[cfg_attr(not(feature = "gzip"), allow(dead_code))]
pub const GZIP_RATIO: u64 = 32;
/// The text any gzip file may expand to, however small.
#[cfg_attr(not(feature = "gzip"), allow(dead_code))]
pub const GZIP_FLOOR: u64 = 16 << 20;
/// The least a line of decompressed text is charged: a dense capture is charged per
/// frame (`docs/decisions.md`, "Bounded memory"), since a frame costs more than a short row.
#[cfg_attr(not(feature = "gzip"), allow(dead_code))]
pub const LINE_CHARGE: u64 = 48;

/// How many times its bytes a JSON document's text is charged: a CapFrameX JSON keeps
/// about 3 bytes a byte of text (a 48 MB document of 6 M numbers peaks at 147 MB).
#[cfg_attr(not(feature = "gzip"), allow(dead_code))]
pub const JSON_CHARGE: u64 = 3;

/// What the text read is charged for a byte, shared with the reader of the text: the
/// loader says so when the text is JSON ([`Charge::json`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Charge(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Charge {
    /// The text is a JSON document: its bytes are charged [`JSON_CHARGE`] × from now on.
    pub(super) fn json(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    #[cfg_attr(not(feature = "gzip"), allow(dead_code))]
    fn per_byte(&self) -> u64 {
        if self.0.load(std::sync::atomic::Ordering::Relaxed) { JSON_CHARGE } else { 1 }
    }
}

/// The error a gzip input past its budget fails with (inside an [`std::io::Error`]).
#[derive(Debug)]
pub struct OverBudget(pub String);

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OverBudget {}

/// The message of an [`OverBudget`] error, when `e` is one.
pub(super) fn over_budget(e: &std::io::Error) -> Option<&str> {
    e.get_ref()?.downcast_ref::<OverBudget>().map(|o| o.0.as_str())
}

/// Bytes looked at to recognise UTF-16 without a byte-order mark.
const SNIFF_BYTES: usize = 4096;

/// How a file's bytes are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// UTF-8 (or ASCII, or bytes that are not text: the readers say what they found).
    Plain,
    /// gzip (RFC 1952), possibly several members.
    Gzip,
    /// UTF-16; `big_endian`, and whether a byte-order mark (2 bytes) leads.
    Utf16 { big_endian: bool, bom: bool },
}

/// The encoding of a file that starts with `head`. UTF-16 must look like text: a
/// capture's header is ASCII, so most units have a zero high byte (binary data that
/// happens to start with a byte-order mark stays binary, and is refused as such).
fn sniff(head: &[u8]) -> Encoding {
    let (bom, rest) = match head {
        [0x1F, 0x8B, 0x08, ..] => return Encoding::Gzip,
        [0xFF, 0xFE, rest @ ..] => (Some(false), rest),
        [0xFE, 0xFF, rest @ ..] => (Some(true), rest),
        _ => (None, head),
    };
    match (bom, ascii_utf16(rest)) {
        // A mark with (almost) nothing after it: nothing contradicts it.
        (Some(big_endian), _) if rest.len() < 4 => Encoding::Utf16 { big_endian, bom: true },
        (Some(big_endian), Some(found)) if found == big_endian => Encoding::Utf16 { big_endian, bom: true },
        (None, Some(big_endian)) => Encoding::Utf16 { big_endian, bom: false },
        _ => Encoding::Plain,
    }
}

/// True when a file that starts with `head` is read as it is (neither gzip nor UTF-16).
pub(super) fn is_plain(head: &[u8]) -> bool {
    sniff(head) == Encoding::Plain
}

/// `Some(big_endian)` when `bytes` read as UTF-16 of mostly ASCII characters: a NUL in
/// at least 70 % of the units' high bytes (odd positions in UTF-16LE, even in BE) and
/// in at most 10 % of their low bytes. Binary data (PNG, zeros) does not look like that.
fn ascii_utf16(bytes: &[u8]) -> Option<bool> {
    let bytes = &bytes[..bytes.len().min(SNIFF_BYTES) & !1];
    let units = bytes.len() / 2;
    if units < 2 {
        return None;
    }
    let zeros = |parity: usize| bytes.iter().skip(parity).step_by(2).filter(|&&b| b == 0).count();
    let (even, odd) = (zeros(0), zeros(1));
    let mostly = |n: usize| n * 10 >= units * 7;
    let few = |n: usize| n * 10 <= units;
    if mostly(odd) && few(even) {
        Some(false)
    } else if mostly(even) && few(odd) {
        Some(true)
    } else {
        None
    }
}

/// The text of `reader`: gunzipped when it is gzip, transcoded to UTF-8 when it is
/// UTF-16 (inside gzip too). `size` is the file's size when known (else 0: the bytes
/// read so far count), for the gzip budget; `charge` what a byte of text costs.
pub(super) fn text<'a, R: BufRead + Send + 'a>(
    reader: R,
    size: u64,
    charge: &Charge,
) -> std::io::Result<Text<'a>> {
    #[cfg(not(feature = "gzip"))]
    let _ = (size, charge);
    let (encoding, reader) = sniffed(Box::new(reader))?;
    match encoding {
        #[cfg(not(feature = "gzip"))]
        Encoding::Gzip => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the file is gzip-compressed and this build reads no gzip (core feature `gzip`): decompress it first",
        )),
        #[cfg(feature = "gzip")]
        Encoding::Gzip => {
            let archive = Consumed { inner: reader, bytes: 0 };
            let decoder = flate2::bufread::MultiGzDecoder::new(archive);
            let gunzip = Gunzip { decoder, size, charge: charge.clone(), text: 0, charged: 0, lines: 0 };
            // What the archive holds may be UTF-16 (never gzip again: one layer is undone).
            match sniffed(Box::new(BufReader::with_capacity(1 << 16, gunzip)))? {
                (Encoding::Utf16 { big_endian, bom }, inner) => utf16(inner, big_endian, bom),
                (_, inner) => Ok(inner),
            }
        }
        Encoding::Utf16 { big_endian, bom } => utf16(reader, big_endian, bom),
        Encoding::Plain => Ok(reader),
    }
}

/// The encoding of `reader`'s first [`SNIFF_BYTES`], and the reader, unread. A first
/// buffer shorter than that (a pipe's first write, a test's tiny buffer) is topped up.
fn sniffed(mut reader: Text<'_>) -> std::io::Result<(Encoding, Text<'_>)> {
    let buf = reader.fill_buf()?;
    if buf.len() >= SNIFF_BYTES || buf.is_empty() {
        return Ok((sniff(buf), reader));
    }
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    (&mut reader).take(SNIFF_BYTES as u64).read_to_end(&mut head)?;
    let encoding = sniff(&head);
    let replayed = std::io::Cursor::new(head).chain(reader);
    Ok((encoding, Box::new(BufReader::with_capacity(1 << 16, replayed))))
}

/// A reader that counts the bytes consumed from it (the archive's, for the budget).
#[cfg(feature = "gzip")]
struct Consumed<R> {
    inner: R,
    bytes: u64,
}

#[cfg(feature = "gzip")]
impl<R: BufRead> Read for Consumed<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

#[cfg(feature = "gzip")]
impl<R: BufRead> BufRead for Consumed<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.bytes += n as u64;
        self.inner.consume(n);
    }
}

/// A gzip decoder within the budget (module doc), whose errors say the file is a
/// damaged archive.
#[cfg(feature = "gzip")]
struct Gunzip<R> {
    decoder: flate2::bufread::MultiGzDecoder<Consumed<R>>,
    /// The archive's size when known, else 0.
    size: u64,
    charge: Charge,
    /// Text bytes decompressed so far, what they are charged, and their lines.
    text: u64,
    charged: u64,
    lines: u64,
}

#[cfg(feature = "gzip")]
impl<R: BufRead> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.decoder.read(buf).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("the file is gzip-compressed and the archive is damaged ({e})"),
            )
        })?;
        self.text += n as u64;
        self.charged += n as u64 * self.charge.per_byte();
        self.lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        let archive = self.size.max(self.decoder.get_ref().bytes);
        let budget = archive.saturating_mul(GZIP_RATIO).max(GZIP_FLOOR);
        let charged = self.charged.max(self.lines.saturating_mul(LINE_CHARGE));
        if charged > budget {
            let mib = |b: u64| b as f64 / f64::from(1 << 20);
            let message = format!(
                "the file is gzip-compressed and expands to more than {GZIP_RATIO} × its {:.1} MiB ({:.1} MiB of \
                 text so far, charged as {:.1} MiB: a line as at least {LINE_CHARGE} bytes, JSON as {JSON_CHARGE} × \
                 its bytes; any file may expand to {} MiB): real captures compress 5–15 ×, so it is refused as \
                 damaged or built to exhaust memory; decompress a real capture and open its text",
                mib(archive),
                mib(self.text),
                mib(charged),
                GZIP_FLOOR >> 20
            );
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, OverBudget(message)));
        }
        Ok(n)
    }
}

/// `reader` (UTF-16 text) as UTF-8 text.
fn utf16(mut reader: Text<'_>, big_endian: bool, bom: bool) -> std::io::Result<Text<'_>> {
    if bom {
        reader.read_exact(&mut [0u8; 2])?;
    }
    let utf16 = Utf16 { inner: reader, big_endian, out: Vec::new(), pos: 0, odd_byte: None, high: None };
    Ok(Box::new(BufReader::with_capacity(1 << 16, utf16)))
}

/// UTF-16 bytes read as UTF-8, a buffer at a time.
struct Utf16<R> {
    inner: R,
    big_endian: bool,
    /// UTF-8 made from the last buffer, and how much of it was read.
    out: Vec<u8>,
    pos: usize,
    /// A unit's first byte when a buffer ended between its two.
    odd_byte: Option<u8>,
    /// A high surrogate waiting for its low one.
    high: Option<u16>,
}

impl<R: BufRead> Utf16<R> {
    /// Decodes the next buffer of the input into `out`; false at the end of the input.
    fn refill(&mut self) -> std::io::Result<bool> {
        self.out.clear();
        self.pos = 0;
        let input = self.inner.fill_buf()?;
        if input.is_empty() {
            // A unit cut short or a lone high surrogate at the very end.
            let cut = self.odd_byte.take().is_some();
            let lone = self.high.take().is_some();
            let dangling = cut || lone;
            if dangling {
                self.push(char::REPLACEMENT_CHARACTER);
            }
            return Ok(dangling);
        }
        let n = input.len();
        let big_endian = self.big_endian;
        let unit =
            |a: u8, b: u8| if big_endian { u16::from_be_bytes([a, b]) } else { u16::from_le_bytes([a, b]) };
        let mut bytes = input.iter().copied();
        let mut units = Vec::with_capacity(n / 2 + 1);
        if let Some(first) = self.odd_byte.take() {
            match bytes.next() {
                Some(second) => units.push(unit(first, second)),
                None => self.odd_byte = Some(first),
            }
        }
        while let Some(a) = bytes.next() {
            match bytes.next() {
                Some(b) => units.push(unit(a, b)),
                None => self.odd_byte = Some(a),
            }
        }
        self.inner.consume(n);
        for u in units {
            self.decode(u);
        }
        Ok(true)
    }

    /// One UTF-16 unit: a character, half of a surrogate pair, or U+FFFD when it breaks
    /// the pairing.
    fn decode(&mut self, u: u16) {
        if let Some(high) = self.high.take() {
            if (0xDC00..0xE000).contains(&u) {
                let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                self.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                return;
            }
            self.push(char::REPLACEMENT_CHARACTER);
        }
        match u {
            0xD800..0xDC00 => self.high = Some(u),
            0xDC00..0xE000 => self.push(char::REPLACEMENT_CHARACTER),
            _ => self.push(char::from_u32(u32::from(u)).unwrap_or(char::REPLACEMENT_CHARACTER)),
        }
    }

    fn push(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
}

impl<R: BufRead> Read for Utf16<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.out.len() {
            if !self.refill()? {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16_bytes(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
        for u in units {
            out.extend_from_slice(&if big_endian { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        out
    }

    /// Read through a buffer of `cap` bytes (odd: units and surrogate pairs are cut
    /// between reads; the sniff sees the first buffer only).
    fn read_with(cap: usize, bytes: &[u8]) -> String {
        let mut s = String::new();
        let mut r = text(BufReader::with_capacity(cap, bytes), 0, &Charge::default()).expect("sniff");
        r.read_to_string(&mut s).expect("valid UTF-8");
        s
    }

    fn read_text(bytes: &[u8]) -> String {
        read_with(3, bytes)
    }

    #[test]
    fn utf16_with_and_without_a_mark_reads_as_utf8() {
        let text = "Frame,Time (ms)\r\n1,0.5 µs 😀\n";
        for big_endian in [false, true] {
            for bom in [false, true] {
                let bytes = utf16_bytes(text, big_endian, bom);
                assert_eq!(read_with(33, &bytes), text, "BE {big_endian}, mark {bom}");
                if bom {
                    assert_eq!(read_text(&bytes), text, "BE {big_endian}, a 3-byte buffer");
                }
            }
        }
        assert_eq!(read_text(b"a,b\n1,2\n"), "a,b\n1,2\n", "UTF-8 passes unchanged");
    }

    #[test]
    fn broken_utf16_becomes_replacement_characters() {
        // Text, a lone low surrogate, a high one followed by 'a', an odd last byte.
        let mut bytes = utf16_bytes("ab,cd,ef,gh\n", false, true);
        bytes.extend_from_slice(&[0x00, 0xDC, 0x3D, 0xD8, b'a', 0, b'z']);
        assert_eq!(read_text(&bytes), "ab,cd,ef,gh\n\u{FFFD}\u{FFFD}a\u{FFFD}");
    }

    /// gzip of `member` repeated `times` (concatenated members, as `gzip -c a b` writes).
    #[cfg(feature = "gzip")]
    fn members(member: &[u8], times: usize) -> Vec<u8> {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(member).expect("compress");
        gz.finish().expect("compress").repeat(times)
    }

    /// Reads `bytes` through [`text`] (the file's size given or not): its length, or
    /// the budget's message.
    #[cfg(feature = "gzip")]
    fn gunzipped(bytes: &[u8], size: u64) -> Result<usize, String> {
        let mut out = Vec::new();
        let charge = Charge::default();
        let read = text(BufReader::with_capacity(1 << 16, bytes), size, &charge)
            .and_then(|mut r| r.read_to_end(&mut out));
        read.map_err(|e| over_budget(&e).map_or_else(|| format!("not the budget: {e}"), str::to_owned))
    }

    #[test]
    #[cfg(feature = "gzip")]
    fn gzip_text_stays_within_its_budget() {
        // 10 MiB of 100-byte lines, a few KB of archive: within the 16 MiB any file may
        // expand to.
        let line = format!("{}\n", "7".repeat(99));
        let fine = members(line.repeat(1 << 14).as_bytes(), 6);
        assert_eq!(gunzipped(&fine, fine.len() as u64), Ok((6 * 100) << 14));
        // 4-byte lines are charged 48 bytes each: 2 MiB of them (524 288 lines, 24 MiB
        // charged) pass the budget, whether the size is known or not (a pipe).
        let dense = members("1,2\n".repeat(1 << 18).as_bytes(), 2);
        for size in [dense.len() as u64, 0] {
            let e = gunzipped(&dense, size).expect_err("over the budget");
            assert!(e.starts_with("the file is gzip-compressed and expands to more than 32 × its"), "{e}");
            assert!(e.contains("MiB: a line as at least 48 bytes"), "{e}");
        }
        // Past 16 MiB, a file may expand 32 × its size: 19 MiB of text (in about 0.2 MiB
        // of archive) read as a file of 1 MiB, not as the archive it is.
        let big = members(line.repeat(1 << 15).as_bytes(), 6);
        let text_len = (6 * 100) << 15;
        assert!(text_len > 16 << 20 && big.len() * 32 < 16 << 20, "{}", big.len());
        assert_eq!(gunzipped(&big, 1 << 20), Ok(text_len));
        let e = gunzipped(&big, big.len() as u64);
        assert!(e.as_ref().is_err_and(|e| e.contains("any file may expand to 16 MiB")), "{e:?}");
        // JSON is charged 3 × its bytes: 6 MiB of it (18 MiB charged) does not read.
        let json = members(format!("[{}0]", "1.25,".repeat(1 << 18)).as_bytes(), 5);
        let charge = Charge::default();
        charge.json();
        let mut out = Vec::new();
        let read = text(BufReader::new(&json[..]), json.len() as u64, &charge)
            .and_then(|mut r| r.read_to_end(&mut out));
        assert!(read.as_ref().is_err_and(|e| over_budget(e).is_some()), "{read:?}");
        assert_eq!(gunzipped(&json, json.len() as u64), Ok(5 * ((1 << 18) * 5 + 3)), "not JSON: 6 MiB reads");
    }

    #[test]
    #[cfg(feature = "gzip")]
    fn gzip_is_undone_and_binary_is_left_alone() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&utf16_bytes("x,y\n1,2\n", false, true)).expect("compress");
        let packed = gz.finish().expect("compress");
        assert_eq!(read_text(&packed), "x,y\n1,2\n", "UTF-16 inside gzip");
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Encoding::Plain);
        assert_eq!(sniff(&[0u8; 64]), Encoding::Plain, "zeros are no text");
        let mut bom_then_binary: Vec<u8> =
            (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        bom_then_binary[..2].copy_from_slice(&[0xFF, 0xFE]);
        assert_eq!(sniff(&bom_then_binary), Encoding::Plain, "a mark before binary data");
    }
}
