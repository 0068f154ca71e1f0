//! Cell parsing against `str::parse` and the general path, bit for bit.

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
        let in_range =
            want.is_some_and(|v| v.abs() < 200_000.0) && c.len() - c.find('.').unwrap_or(c.len() - 1) <= 5;
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
        assert_eq!(parse_scaled_or_cell(&cell).map_err(bits), scaled_or_cell_general(&cell).map_err(bits));
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
    for c in ["", " ", "NA", "na", " N/A ", "n/a", "NA ", "NAN", "nan", "N", "0", "-", "1.5", "x", "N/A/"] {
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
