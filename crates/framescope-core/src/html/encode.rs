//! Compact encodings for the page's embedded data: unsigned LEB128 varints (zigzag for
//! signed values) and base64. The page's script decodes them (`common.js`). Text is
//! escaped by [`super::markup`].

/// Appends `v` as an unsigned LEB128 varint (7 bits a byte, low bits first).
pub fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a signed value as a zigzag varint (0, −1, 1, −2, … → 0, 1, 2, 3, …).
pub fn push_signed(out: &mut Vec<u8>, v: i64) {
    push_varint(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// Milliseconds as whole microseconds plus one, for a varint: 0 stands for "no value"
/// (NaN, or not above 0); a positive time below 1 µs is 1 µs.
#[must_use]
pub fn micros_or_none(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 { (ms * 1000.0).round().max(1.0) as u64 + 1 } else { 0 }
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with `=` padding (what the browser's `atob` reads).
#[must_use]
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(BASE64[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_by_hand() {
        let mut out = Vec::new();
        // 300 = 0b1_0010_1100: low seven bits 0x2c with the continuation bit, then 0x02.
        push_varint(&mut out, 300);
        push_varint(&mut out, 0);
        push_varint(&mut out, 127);
        assert_eq!(out, [0xac, 0x02, 0x00, 0x7f]);
        out.clear();
        // zigzag: -1 → 1, 1 → 2, -2 → 3.
        for v in [-1, 1, -2] {
            push_signed(&mut out, v);
        }
        assert_eq!(out, [1, 2, 3]);
        assert_eq!(micros_or_none(16.6667), 16_668);
        assert_eq!(micros_or_none(f64::NAN), 0);
        assert_eq!(micros_or_none(0.0001), 2);
    }

    #[test]
    fn base64_of_the_rfc_4648_examples() {
        for (text, want) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(text.as_bytes()), want);
        }
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }
}
