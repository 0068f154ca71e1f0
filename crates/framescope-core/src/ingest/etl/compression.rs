//! Compressed ETW buffers: the Plain LZ77 ("Xpress", `COMPRESSION_FORMAT_XPRESS` = 3)
//! decoder of [MS-XCA] §2.4 ("Plain LZ77 Decompression", Microsoft Open
//! Specifications), which ETW uses for files written with `EVENT_TRACE_COMPRESSED_MODE`.
//!
//! Written here rather than taken from a crate: `rust-lzxpress` 0.7.1 indexes past the
//! input on a truncated 32-bit match length (a panic) and `xpress_rs` 0.2.0 slices past
//! the input on truncated flags; neither caps its output. This decoder never reads
//! past its input and never writes more than the caller's limit.

/// Why a compressed buffer could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// The stream ends inside a flag word, a match or a length field.
    Truncated {
        /// Offset in the compressed input.
        at: usize,
    },
    /// A match reaches before the start of the output.
    BadOffset {
        /// Offset in the compressed input.
        at: usize,
    },
    /// A match length below the smallest the encoding can hold.
    BadLength {
        /// Offset in the compressed input.
        at: usize,
    },
    /// The output would exceed the limit (the buffer's stated filled length).
    TooLong,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Truncated { at } => write!(f, "the compressed data ends early (at byte {at} of it)"),
            Self::BadOffset { at } => {
                write!(f, "a match points before the start (at byte {at} of the compressed data)")
            }
            Self::BadLength { at } => {
                write!(f, "an impossible match length (at byte {at} of the compressed data)")
            }
            Self::TooLong => write!(f, "the data decompresses to more than the buffer's stated size"),
        }
    }
}

/// A little-endian reader over the compressed input that reports truncation.
struct Input<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Input<'_> {
    fn u8(&mut self) -> Result<u8, DecodeError> {
        let v = *self.bytes.get(self.pos).ok_or(DecodeError::Truncated { at: self.pos })?;
        self.pos += 1;
        Ok(v)
    }

    fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from(self.u8()?) | (u16::from(self.u8()?) << 8))
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from(self.u16()?) | (u32::from(self.u16()?) << 16))
    }

    fn done(&self) -> bool {
        self.pos >= self.bytes.len()
    }
}

/// Decodes a Plain LZ77 stream into `out` (cleared first), at most `limit` bytes. The
/// stream ends where its input ends (at a flag word boundary, or where a match would
/// start). On an error `out` holds what was decoded before it, so the caller can
/// charge the work done to its budget.
pub fn decompress_lz77(compressed: &[u8], limit: usize, out: &mut Vec<u8>) -> Result<(), DecodeError> {
    let mut input = Input { bytes: compressed, pos: 0 };
    out.clear();
    // Room for a typical expansion, not the whole limit: a buffer may state 64 MiB and
    // hold a few bytes, and 600 000 of them would map and unmap 64 MiB each. A large
    // output grows by reallocation (remapped pages, not copies, past the heap's mmap
    // threshold).
    out.reserve(limit.min(compressed.len().saturating_mul(8)));
    let (mut flags, mut flag_count) = (0u32, 0u32);
    // Where the shared length nibble is kept (§2.4.4: two matches share one byte).
    let mut half_byte: Option<usize> = None;
    loop {
        if flag_count == 0 {
            if input.done() {
                return Ok(());
            }
            flags = input.u32()?;
            flag_count = 32;
        }
        flag_count -= 1;
        if flags & (1 << flag_count) == 0 {
            if input.done() {
                return Ok(());
            }
            if out.len() >= limit {
                return Err(DecodeError::TooLong);
            }
            out.push(input.u8()?);
            continue;
        }
        if input.done() {
            return Ok(());
        }
        let at = input.pos;
        let (offset, length) = match_of(&mut input, &mut half_byte)?;
        if offset > out.len() {
            return Err(DecodeError::BadOffset { at });
        }
        if length > limit - out.len() {
            return Err(DecodeError::TooLong);
        }
        // An overlapping match (offset < length) repeats the `offset` bytes before it:
        // copied in runs that double, each a whole number of repeats (all but the last).
        let start = out.len() - offset;
        let mut copied = 0;
        while copied < length {
            let n = (length - copied).min(offset + copied);
            out.extend_from_within(start..start + n);
            copied += n;
        }
    }
}

/// Reads one match: (offset back from the end of the output, length).
fn match_of(input: &mut Input<'_>, half_byte: &mut Option<usize>) -> Result<(usize, usize), DecodeError> {
    let at = input.pos;
    let word = input.u16()?;
    let offset = usize::from(word >> 3) + 1;
    let mut length = usize::from(word & 7);
    if length == 7 {
        length = match half_byte.take() {
            None => {
                *half_byte = Some(input.pos);
                usize::from(input.u8()? & 0x0F)
            }
            Some(p) => usize::from(input.bytes.get(p).copied().unwrap_or(0) >> 4),
        };
        if length == 15 {
            length = usize::from(input.u8()?);
            if length == 255 {
                length = usize::from(input.u16()?);
                if length == 0 {
                    length = input.u32()? as usize;
                }
                length = length.checked_sub(15 + 7).ok_or(DecodeError::BadLength { at })?;
            }
            length += 15;
        }
        length += 7;
    }
    Ok((offset, length + 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(compressed: &[u8], limit: usize) -> Result<Vec<u8>, DecodeError> {
        let mut out = Vec::new();
        decompress_lz77(compressed, limit, &mut out).map(|()| out)
    }

    /// Matches copied in runs give what a byte-by-byte copy gives: every offset from 1
    /// to 9 against every length from 3 to 40, after a 9-byte start.
    #[test]
    fn overlapping_matches_repeat_the_bytes_before_them() {
        for offset in 1..=9u16 {
            for length in 3..=40usize {
                // Flags: 9 literals, then a match, then the end. Length 3..=9 fits the
                // word (length - 3), 10..=24 the nibble, 25..=40 the byte after it.
                let mut s = (0xFFFF_FFFFu32 >> 9).to_le_bytes().to_vec();
                s.extend_from_slice(b"123456789");
                let l = length - 3;
                let word = ((offset - 1) << 3) | (l.min(7) as u16);
                s.extend_from_slice(&word.to_le_bytes());
                if l >= 7 {
                    s.push((l - 7).min(15) as u8);
                    if l >= 22 {
                        s.push((l - 22) as u8);
                    }
                }
                let mut expected = b"123456789".to_vec();
                let start = expected.len() - usize::from(offset);
                for i in 0..length {
                    expected.push(expected[start + i]);
                }
                assert_eq!(decode(&s, 100), Ok(expected), "offset {offset}, length {length}");
            }
        }
    }

    #[test]
    fn literals_and_matches() {
        // MS-XCA §2.3 example: "abcdefghijklmnopqrstuvwxyz" is all literals (26 flag bits
        // 0, then the rest 1 to mark the end).
        let mut stream = vec![0x3f, 0x00, 0x00, 0x00];
        stream.extend_from_slice(b"abcdefghijklmnopqrstuvwxyz");
        assert_eq!(decode(&stream, 100).as_deref(), Ok(&b"abcdefghijklmnopqrstuvwxyz"[..]));
        // "abc" then a match of offset 3, length 100: flags 0b000 1 then 1s to end.
        // Length 100: 100 - 3 = 97 → 7 in the word, nibble 15, byte 97 - 7 - 15 = 75.
        let word: u16 = (2 << 3) | 7;
        let mut s = vec![0xff, 0xff, 0xff, 0x1f];
        s.extend_from_slice(b"abc");
        s.extend_from_slice(&word.to_le_bytes());
        s.extend_from_slice(&[0x0f, 75]);
        let out = decode(&s, 1000).unwrap_or_default();
        assert_eq!(out.len(), 103);
        assert!(out.chunks(3).all(|c| c == &b"abc"[..c.len()]));
        // The same stream with a limit below its length is refused, not cut.
        assert_eq!(decode(&s, 50), Err(DecodeError::TooLong));
        // What was decoded before the error is left in the output (charged to the budget).
        let mut out = Vec::new();
        assert_eq!(decompress_lz77(&s, 50, &mut out), Err(DecodeError::TooLong));
        assert_eq!(out, b"abc");
    }

    #[test]
    fn damaged_streams_are_errors() {
        // A match before any output.
        assert_eq!(decode(&[0, 0, 0, 0x80, 0x08, 0x00], 10), Err(DecodeError::BadOffset { at: 4 }));
        // A flag word cut short.
        assert_eq!(decode(&[0, 0], 10), Err(DecodeError::Truncated { at: 2 }));
        // A 32-bit length field cut short.
        let s = [0, 0, 0, 0x40, b'a', 0x07, 0x00, 0x0f, 0xff, 0x00, 0x00, 0x01];
        assert!(matches!(decode(&s, 10), Err(DecodeError::Truncated { .. })));
    }
}
