//! Parsing single cells: numbers, missing markers, swap-chain addresses, date-times.

/// What one cell of a numeric column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell {
    /// A finite number.
    Number(f64),
    /// Empty, `NA`, `N/A`: the writer says there is no value.
    Missing,
    /// Text that is not a finite number.
    Invalid,
}

/// Trims ASCII spaces, tabs and quotes' leftovers around a field.
#[must_use]
pub fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// `a == b` for the short fields rows repeat (no call into `memcmp`): up to 32
/// bytes as two or four words that may overlap.
#[inline]
#[must_use]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| {
        let mut x = [0u8; 8];
        x.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(x)
    };
    let half = |s: &[u8], at: usize| {
        let mut x = [0u8; 4];
        x.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(x)
    };
    match n {
        4..8 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        17..=32 => {
            let pair = |at: usize| word(a, at) ^ word(b, at) | word(a, at + 8) ^ word(b, at + 8);
            pair(0) | pair(n - 16) == 0
        }
        _ => a == b,
    }
}

/// Parses a numeric cell. Values may be padded with spaces (`" 52"`).
#[must_use]
pub fn parse_cell(bytes: &[u8]) -> Cell {
    // `m / 10⁴` is `mantissa / POW10[4]` of `parse_plain_decimal`: the same division.
    if let Some(m) = fixed4_scaled(bytes) {
        return Cell::Number(f64::from(m) / POW10[4]);
    }
    // `mantissa as f64 / POW10[0]` of `parse_plain_decimal`: the integer itself.
    if let Some(v) = plain_integer(bytes) {
        return Cell::Number(v as f64);
    }
    // Most cells are plain decimals without padding: no trimming or `NA` checks.
    if let Some(&c) = bytes.first()
        && (c.is_ascii_digit() || c == b'-')
        && let Some(v) = parse_plain_decimal(bytes)
    {
        return Cell::Number(v);
    }
    if is_missing(bytes) {
        return Cell::Missing;
    }
    let b = trim(bytes);
    if let Some(v) = parse_plain_decimal(b) {
        return Cell::Number(v);
    }
    let Ok(text) = std::str::from_utf8(b) else {
        return Cell::Invalid;
    };
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Cell::Number(v),
        _ => Cell::Invalid,
    }
}

/// True when a cell says there is no value (empty, `NA`, `N/A`, any case, padded):
/// what [`parse_cell`] reads as [`Cell::Missing`], without parsing a number.
#[inline]
#[must_use]
pub fn is_missing(bytes: &[u8]) -> bool {
    let b = trim(bytes);
    b.is_empty() || b.eq_ignore_ascii_case(b"NA") || b.eq_ignore_ascii_case(b"N/A")
}

/// Powers of ten an `f64` holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19, 1e20, 1e21, 1e22,
];

/// Parses a plain decimal (`-12.345`, `+7`, `.5`, `3.`) straight from bytes when the
/// result is exact by Clinger's fast path: a mantissa below 2^53 divided by an exact
/// power of ten is one correctly rounded operation, so the value is bit-identical to
/// `str::parse::<f64>`. `None` for anything else (exponents, long mantissas, text),
/// which the caller hands to `str::parse`.
#[inline]
fn parse_plain_decimal(b: &[u8]) -> Option<f64> {
    let (neg, mantissa, decimals) = plain_decimal_parts(b)?;
    let v = mantissa as f64 / POW10[decimals];
    Some(if neg { -v } else { v })
}

/// A plain decimal's sign, digits as one integer, and number of decimals (at most
/// 15 digits, fewer than 23 decimals); `None` for anything else.
#[inline]
fn plain_decimal_parts(b: &[u8]) -> Option<(bool, u64, usize)> {
    let (neg, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    // Whole digits, then (after one dot) the decimals: two tight loops; anything
    // else left over is no plain decimal.
    let mut mantissa: u64 = 0;
    let mut i = 0;
    while let Some(d) = digits.get(i).map(|c| c.wrapping_sub(b'0')).filter(|&d| d < 10) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    let whole = i;
    if digits.get(i) == Some(&b'.') {
        i += 1;
        while let Some(d) = digits.get(i).map(|c| c.wrapping_sub(b'0')).filter(|&d| d < 10) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
    }
    if i != digits.len() {
        return None;
    }
    let decimals = if i > whole { i - whole - 1 } else { 0 };
    let count = whole + decimals;
    // 15 digits keep the mantissa below 10^15 < 2^53 without overflow checks.
    if count == 0 || count > 15 || decimals >= POW10.len() {
        return None;
    }
    Some((neg, mantissa, decimals))
}

/// The scaled integer of an unsigned plain decimal's parts (at most four decimals,
/// within [`MAX_SCALED`]), as [`parse_scaled`] gives it.
#[inline]
#[must_use]
fn scaled_of_parts(mantissa: u64, decimals: usize) -> Option<i32> {
    const UP: [u64; 5] = [10_000, 1_000, 100, 10, 1];
    const MAX: [u64; 5] =
        [MAX_SCALED / 10_000, MAX_SCALED / 1_000, MAX_SCALED / 100, MAX_SCALED / 10, MAX_SCALED];
    let (up, max) = (*UP.get(decimals)?, MAX[decimals]);
    (mantissa <= max).then(|| (mantissa * up) as i32)
}

/// The largest scaled integer [`parse_scaled`] gives (well inside what the compact
/// columns' `i32` store takes).
const MAX_SCALED: u64 = 2_000_000_000;

#[cfg(test)]
/// A cell that [`parse_cell`] reads as a plain decimal with at most four decimals
/// (PresentMon writes `%.4f`), as the integer `v · 10⁴` — exactly the scaled integer
/// a compact column stores for it, without the division and its check: `v` and
/// `m / 10⁴` are both the correctly rounded value of the same fraction. `None` for
/// any other cell (and for `-0`, which a scaled integer cannot tell from `0`).
#[inline]
#[must_use]
pub fn parse_scaled(b: &[u8]) -> Option<i32> {
    parse_scaled_or_cell(b).ok()
}

/// [`parse_scaled`], or else what [`parse_cell`] reads, parsing the digits once.
/// Always inlined into the row loop, which reads every numeric cell through it (a
/// call per cell costs about as much as the parse).
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn parse_scaled_or_cell(b: &[u8]) -> Result<i32, Cell> {
    if let Some(m) = fixed4_scaled(b) {
        return Ok(m);
    }
    match plain_integer(b) {
        // As `scaled_of_parts` with no decimals: within `MAX_SCALED` once scaled.
        Some(v) if v <= MAX_SCALED / 10_000 => Ok((v * 10_000) as i32),
        Some(v) => Err(Cell::Number(v as f64)),
        None => scaled_or_cell_general(b),
    }
}

/// The value of a cell of 1–15 ASCII digits (a QPC timestamp, a counter), as
/// [`plain_decimal_parts`] reads it; the last eight digits are checked and read at
/// once, as the bytes of one `u64`. `None` for any other cell.
#[inline]
fn plain_integer(b: &[u8]) -> Option<u64> {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    let n = b.len();
    if n < 8 {
        return few_digits(b).filter(|_| n > 0);
    }
    if n > 15 {
        return None;
    }
    let mut oct = [0u8; 8];
    oct.copy_from_slice(&b[n - 8..]);
    let x = u64::from_le_bytes(oct);
    if x & HIGH != ZEROS || x.wrapping_add(0x0606_0606_0606_0606) & HIGH != ZEROS {
        return None;
    }
    // Digit pairs, then fours, then the eight (the first byte is the first digit).
    let d = x - ZEROS;
    let d = (d * 10 + (d >> 8)) & 0x00FF_00FF_00FF_00FF;
    let d = (d * 100 + (d >> 16)) & 0x0000_FFFF_0000_FFFF;
    let low = (d * 10_000 + (d >> 32)) & 0xFFFF_FFFF;
    Some(few_digits(&b[..n - 8])? * 100_000_000 + low)
}

/// The value of up to 7 ASCII digits (none: 0); `None` when a byte is no digit. One
/// or two digits (the whole part of frame times and most durations, small counters)
/// are read without a loop.
#[inline]
fn few_digits(b: &[u8]) -> Option<u64> {
    match *b {
        [a] => Some(u64::from(digit(a)?)),
        [a, c] => Some(u64::from(digit(a)?) * 10 + u64::from(digit(c)?)),
        _ => b.iter().try_fold(0u64, |value, &c| Some(value * 10 + u64::from(digit(c)?))),
    }
}

/// The scaled integer of a cell written as PresentMon's `%.4f` of a value below 10⁵
/// (1–5 digits, a dot, 4 digits): the digits as one integer, which is what
/// [`plain_decimal_parts`] and [`scaled_of_parts`] make of it (at most 9 digits, so
/// within [`MAX_SCALED`]). The four decimals are checked and read at once, as the
/// bytes of one `u32`. `None` for any other cell.
#[inline]
fn fixed4_scaled(b: &[u8]) -> Option<i32> {
    const HIGH: u32 = 0xF0F0_F0F0;
    const ZEROS: u32 = 0x3030_3030;
    let n = b.len();
    if !(6..=10).contains(&n) || b[n - 5] != b'.' {
        return None;
    }
    let mut quad = [0u8; 4];
    quad.copy_from_slice(&b[n - 4..]);
    let x = u32::from_le_bytes(quad);
    // Every byte is an ASCII digit: its high nibble is 3, and adding 6 keeps it 3.
    if x & HIGH != ZEROS || x.wrapping_add(0x0606_0606) & HIGH != ZEROS {
        return None;
    }
    // The first byte is the first digit: pairs, then the pair of pairs.
    let d = x - ZEROS;
    let pairs = (d * 10 + (d >> 8)) & 0x00FF_00FF;
    let decimals = (pairs * 100 + (pairs >> 16)) & 0xFFFF;
    Some((few_digits(&b[..n - 5])? * 10_000 + u64::from(decimals)) as i32)
}

/// The value of an ASCII digit.
#[inline]
fn digit(c: u8) -> Option<u8> {
    let d = c.wrapping_sub(b'0');
    (d <= 9).then_some(d)
}

/// [`parse_scaled_or_cell`] of any cell.
#[inline(never)]
fn scaled_or_cell_general(b: &[u8]) -> Result<i32, Cell> {
    if !b.first().is_some_and(|&c| c.is_ascii_digit() || c == b'-') {
        return Err(parse_cell(b));
    }
    let Some((neg, mantissa, decimals)) = plain_decimal_parts(b) else {
        return Err(parse_cell(b));
    };
    if let Some(m) = scaled_of_parts(mantissa, decimals).filter(|_| !(neg && mantissa == 0)) {
        return Ok(if neg { -m } else { m });
    }
    let v = mantissa as f64 / POW10[decimals];
    Err(Cell::Number(if neg { -v } else { v }))
}

/// Parses a numeric cell, giving NaN for anything that is not a finite number.
#[must_use]
pub fn parse_or_nan(bytes: &[u8]) -> f64 {
    match parse_cell(bytes) {
        Cell::Number(v) => v,
        Cell::Missing | Cell::Invalid => f64::NAN,
    }
}

/// Parses an integer id cell (`PCLFrameId`, `AppFrameId`) exactly: ids are `u64` and
/// may exceed 2^53, where an `f64` would round them. A cell that is not a whole number
/// in `0..u64::MAX` (a decimal point with zeros after it is accepted) is
/// [`crate::model::MISSING_ID`].
#[must_use]
pub fn parse_id(bytes: &[u8]) -> u64 {
    let b = trim(bytes);
    let whole = match b.iter().position(|&c| c == b'.') {
        Some(dot) if b[dot + 1..].iter().all(|&c| c == b'0') => &b[..dot],
        Some(_) => return crate::model::MISSING_ID,
        None => b,
    };
    std::str::from_utf8(whole)
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .filter(|&v| v != crate::model::MISSING_ID)
        .unwrap_or(crate::model::MISSING_ID)
}

/// Normalises a swap-chain address to `0x` + upper-case hex without zero padding:
/// PresentMon 1.x/2.0 write `0x%016llX`, 2.1+ write `0x%llX`. Text that is not a hex
/// address is kept as written (trimmed).
#[must_use]
pub fn normalize_swap_chain(text: &str) -> String {
    let t = text.trim();
    let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    match u64::from_str_radix(digits, 16) {
        Ok(v) => format!("0x{v:X}"),
        Err(_) => t.to_owned(),
    }
}

/// Parses PresentMon's `--date_time` format `Y-M-D H:MM:SS.nnnnnnnnn` (month and day
/// not zero-padded) into milliseconds since 1970-01-01 (the zone does not matter:
/// only differences are used).
#[must_use]
pub fn parse_date_time_ms(text: &str) -> Option<f64> {
    let (date, time) = text.trim().split_once([' ', 'T'])?;
    let mut d = date.split('-');
    let year: i64 = d.next()?.parse().ok()?;
    let month: i64 = d.next()?.parse().ok()?;
    let day: i64 = d.next()?.parse().ok()?;
    let mut t = time.split(':');
    let hour: f64 = t.next()?.parse().ok()?;
    let minute: f64 = t.next()?.parse().ok()?;
    let second: f64 = t.next()?.parse().ok()?;
    let plausible =
        (1..=9999).contains(&year) && (0.0..24.0).contains(&hour) && (0.0..60.0).contains(&minute);
    if !plausible || !(1..=12).contains(&month) || !(1..=31).contains(&day) || !(0.0..61.0).contains(&second)
    {
        return None;
    }
    let days = days_from_civil(year, month, day) as f64;
    Some(((days * 24.0 + hour) * 60.0 + minute) * 60_000.0 + second * 1000.0)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests;
