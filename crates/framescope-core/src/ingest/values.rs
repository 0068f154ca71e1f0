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
#[inline]
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
        return (n > 0 && b.iter().all(u8::is_ascii_digit))
            .then(|| b.iter().fold(0, |v, &c| v * 10 + u64::from(c - b'0')));
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
    let mut high: u64 = 0;
    for &c in &b[..n - 8] {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        high = high * 10 + u64::from(digit);
    }
    Some(high * 100_000_000 + low)
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
    let mut whole: u32 = 0;
    for &c in &b[..n - 5] {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        whole = whole * 10 + u32::from(digit);
    }
    Some((whole * 10_000 + decimals) as i32)
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
mod tests {
    use super::*;

    /// The next value of a xorshift64 sequence (deterministic test cells).
    fn next(x: &mut u64) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
    }

    #[test]
    fn ids_are_exact_integers() {
        // 2^53 + 1 is the first integer an f64 cannot hold.
        assert_eq!(parse_id(b"9007199254740993"), 9_007_199_254_740_993);
        assert_eq!(parse_id(b" 42.000 "), 42);
        for bad in [&b"NA"[..], b"", b"4.5", b"-3", b"1e3", b"18446744073709551615", b"x"] {
            assert_eq!(parse_id(bad), crate::model::MISSING_ID, "{bad:?}");
        }
    }

    /// The fast path gives exactly what `str::parse` gives, and leaves the rest to it.
    #[test]
    fn plain_decimals_match_str_parse() {
        let mut x: u64 = 99;
        let mut cases: Vec<String> = [
            "0",
            "-0",
            "+7",
            ".5",
            "3.",
            "-0.0000",
            "123456789012345",
            "1234567890123456",
            "0.1",
            "16.6669",
            "9007199254740993",
            "1e5",
            ".",
            "-",
            "",
            "1.2.3",
            "0x10",
            "1_0",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        for _ in 0..20_000 {
            next(&mut x);
            let decimals = (x % 12) as usize;
            let whole = (x >> 8) % 1_000_000;
            let frac = (x >> 28) % 10u64.pow(decimals as u32);
            let sign = if x.is_multiple_of(5) { "-" } else { "" };
            cases.push(format!("{sign}{whole}.{frac:0decimals$}"));
        }
        for c in &cases {
            let want = c.parse::<f64>().ok();
            match parse_plain_decimal(c.as_bytes()) {
                Some(v) => assert_eq!(Some(v.to_bits()), want.map(f64::to_bits), "{c}"),
                None => assert!(c.len() > 15 || want.is_none() || c.contains('e'), "{c} left to str::parse"),
            }
        }
    }

    /// A scaled cell is the compact columns' integer for the value `str::parse`
    /// gives: `m / 10⁴` bit-identical to it; every `%.4f`-style decimal in range is
    /// scaled, other cells are not.
    #[test]
    fn scaled_cells_are_exact() {
        let mut x: u64 = 5;
        let mut cases: Vec<String> =
            ["0", "-0", "-0.0000", "+7", " 7", "NA", "1e2", "16.6669", "214748.3647", "199999.9999"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect();
        for _ in 0..20_000 {
            next(&mut x);
            let decimals = (x % 7) as usize;
            let whole = (x >> 8) % [10, 1000, 300_000][(x >> 40) as usize % 3];
            let frac = (x >> 28) % 10u64.pow(decimals as u32);
            let sign = if x.is_multiple_of(5) { "-" } else { "" };
            cases.push(format!("{sign}{whole}.{frac:0decimals$}"));
        }
        for c in &cases {
            let want = c.parse::<f64>().ok().filter(|v| v.to_bits() != (-0.0f64).to_bits());
            let in_range = want.is_some_and(|v| v.abs() < 200_000.0)
                && c.len() - c.find('.').unwrap_or(c.len() - 1) <= 5;
            match parse_scaled(c.as_bytes()) {
                Some(m) => assert_eq!((f64::from(m) / 1e4).to_bits(), want.map_or(0, f64::to_bits), "{c}"),
                None => assert!(!in_range || c.starts_with(['+', ' ']) || c.contains('e'), "{c} not scaled"),
            }
        }
        // What is not scaled is the cell `parse_cell` reads, bit for bit.
        let bits = |c: Cell| if let Cell::Number(v) = c { Some(v.to_bits()) } else { None };
        for c in cases.iter().map(String::as_bytes).chain([&b"NA"[..], b"1234567890123", b"-0.0", b"x"]) {
            match parse_scaled_or_cell(c) {
                Ok(m) => assert_eq!(Some(m), parse_scaled(c)),
                Err(cell) => {
                    assert_eq!(parse_scaled(c), None);
                    assert_eq!(
                        (bits(cell), cell == Cell::Missing),
                        (bits(parse_cell(c)), parse_cell(c) == Cell::Missing)
                    );
                }
            }
        }
        assert_eq!(parse_scaled(b"16.6669"), Some(166_669));
        assert_eq!(parse_scaled(b"-2"), Some(-20_000));
        assert_eq!(parse_scaled(b"0.00001"), None);
        assert_eq!(parse_scaled(b"-0.0"), None);
    }

    /// The fixed-width fast paths (`%.4f` decimals, digit strings) read every cell as
    /// the general path does, bit for bit, and leave every other cell to it: cells
    /// of 1–17 digits, with a dot at each place, and with one byte changed.
    #[test]
    fn fast_paths_agree_with_the_general_path() {
        let bits = |c: Cell| match c {
            Cell::Number(v) => Some(v.to_bits()),
            _ => None,
        };
        let mut x: u64 = 11;
        let mut checked = 0;
        for _ in 0..30_000 {
            next(&mut x);
            let digits = 1 + (x % 17) as usize;
            let mut cell: Vec<u8> = (0..digits).map(|k| b'0' + ((x >> (3 * k % 60)) % 10) as u8).collect();
            match (x >> 61) % 4 {
                0 => {}
                1 => cell.insert(digits - digits.min(4), b'.'),
                2 => cell.insert(((x >> 20) as usize) % (digits + 1), b'.'),
                _ => {
                    let at = ((x >> 20) as usize) % digits;
                    cell[at] = [b'/', b':', b'a', b'-', b' ', 0x80, b'.'][((x >> 30) % 7) as usize];
                }
            }
            let want = match c_str(&cell).and_then(|t| t.parse::<f64>().ok()) {
                Some(v) if plain_decimal_parts(&cell).is_some() => Some(v.to_bits()),
                _ => bits(parse_cell_general(&cell)),
            };
            assert_eq!(bits(parse_cell(&cell)), want, "{:?}", String::from_utf8_lossy(&cell));
            assert_eq!(
                parse_scaled_or_cell(&cell).map_err(bits),
                scaled_or_cell_general(&cell).map_err(bits)
            );
            checked += usize::from(fixed4_scaled(&cell).is_some() || plain_integer(&cell).is_some());
        }
        assert!(checked > 5_000, "{checked} cells took a fast path");
        assert_eq!(fixed4_scaled(b"12.3456"), Some(123_456));
        assert_eq!(fixed4_scaled(b"99999.9999"), Some(999_999_999));
        assert_eq!(fixed4_scaled(b"1.2345a"), None);
        assert_eq!(plain_integer(b"123456789012345"), Some(123_456_789_012_345));
        assert_eq!(plain_integer(b"1234567890123456"), None);
        assert_eq!(plain_integer(b"12345678901234:"), None);
    }

    /// `same_bytes` is `==` at every length, whichever byte differs.
    #[test]
    fn same_bytes_is_equality() {
        let a: Vec<u8> = (0..40u8).map(|k| b'a' + k % 26).collect();
        for n in 0..=40 {
            assert!(same_bytes(&a[..n], &a[..n]));
            assert!(!same_bytes(&a[..n], &a[..n.saturating_sub(1)]) || n == 0);
            for at in 0..n {
                let mut b = a[..n].to_vec();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a[..n], &b), "length {n}, byte {at}");
            }
        }
    }

    /// `is_missing` is `parse_cell(..) == Missing`.
    #[test]
    fn missing_cells_are_what_parse_cell_reads_as_missing() {
        for c in ["", " ", "NA", "na", " N/A ", "n/a", "NA ", "NAN", "nan", "N", "0", "-", "1.5", "x", "N/A/"]
        {
            assert_eq!(is_missing(c.as_bytes()), parse_cell(c.as_bytes()) == Cell::Missing, "{c:?}");
        }
        assert!(is_missing(b" na "));
        assert!(!is_missing(b"0.0000"));
    }

    /// The cell as text, when it is UTF-8.
    fn c_str(cell: &[u8]) -> Option<&str> {
        std::str::from_utf8(cell).ok()
    }

    /// `parse_cell` without its fixed-width fast paths.
    fn parse_cell_general(b: &[u8]) -> Cell {
        match scaled_or_cell_general(b) {
            Ok(m) => Cell::Number(f64::from(m) / 1e4),
            Err(cell) => cell,
        }
    }

    #[test]
    fn cells() {
        assert_eq!(parse_cell(b"16.5"), Cell::Number(16.5));
        assert_eq!(parse_cell(b" 52"), Cell::Number(52.0));
        assert_eq!(parse_cell(b"-1.8e15"), Cell::Number(-1.8e15));
        assert_eq!(parse_cell(b"NA"), Cell::Missing);
        assert_eq!(parse_cell(b"N/A"), Cell::Missing);
        assert_eq!(parse_cell(b""), Cell::Missing);
        assert_eq!(parse_cell(b"  "), Cell::Missing);
        assert_eq!(parse_cell(b"45998x.xx"), Cell::Invalid);
        assert_eq!(parse_cell(b"inf"), Cell::Invalid);
        assert_eq!(parse_cell(b"nan"), Cell::Invalid);
        assert_eq!(parse_cell(&[0xff, 0xfe]), Cell::Invalid);
    }

    #[test]
    fn swap_chains_compare_across_versions() {
        assert_eq!(normalize_swap_chain("0x00000259DAE0BCF0"), "0x259DAE0BCF0");
        assert_eq!(normalize_swap_chain("0x259DAE0BCF0"), "0x259DAE0BCF0");
        assert_eq!(normalize_swap_chain("0x0000000000000000"), "0x0");
        assert_eq!(normalize_swap_chain("0x19d7ef5e390"), "0x19D7EF5E390");
        assert_eq!(normalize_swap_chain(" weird "), "weird");
    }

    #[test]
    fn date_times() {
        let a = parse_date_time_ms("2024-4-7 12:03:04.5").unwrap_or(f64::NAN);
        let b = parse_date_time_ms("2024-4-7 12:03:05.25").unwrap_or(f64::NAN);
        assert!((b - a - 750.0).abs() < 1e-6);
        let c = parse_date_time_ms("2024-4-8 0:00:00.0").unwrap_or(f64::NAN);
        let d = parse_date_time_ms("2024-4-7 23:59:59.0").unwrap_or(f64::NAN);
        assert!((c - d - 1000.0).abs() < 1e-6);
        assert_eq!(parse_date_time_ms("1970-1-1 0:00:00"), Some(0.0));
        assert_eq!(parse_date_time_ms("not a date"), None);
        assert_eq!(parse_date_time_ms("2024-13-1 0:00:00"), None);
    }
}
