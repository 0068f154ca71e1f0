//! Tests of the parent module.

use super::*;

fn rows(bytes: &[u8]) -> Vec<(u64, Vec<String>)> {
    rows_from(std::io::BufReader::with_capacity(3, bytes), 2)
}

#[test]
fn line_numbers_with_every_line_end() {
    let expect =
        vec![(2, vec!["a".to_owned(), "b".to_owned()]), (3, vec!["c".to_owned()]), (5, vec!["d".to_owned()])];
    assert_eq!(rows(b"a,b\nc\n\nd"), expect);
    assert_eq!(rows(b"a,b\r\nc\r\n\r\nd\r\n"), expect);
    assert_eq!(rows(b"a,b\rc\r\rd\r"), expect);
}

#[test]
fn quoted_fields_spanning_lines() {
    let r = rows(b"\"x\ny\",1\r\nz,2\n");
    assert_eq!(r[0], (2, vec!["x\ny".to_owned(), "1".to_owned()]));
    assert_eq!(r[1].0, 4);
    let long = rows(&[b'q'; 5000]);
    assert_eq!(long[0].1[0].len(), 5000);
}

/// The block splitter finds the same rows, fields and line numbers as csv_core on
/// quote-free input: blank lines, `\r\n`, a last line without a break, empty
/// fields, separators on every side of the 8-byte words it reads, and a row wider
/// than the fast path (handed on as a slow row).
#[test]
fn block_splits_like_records() {
    let mut x: u64 = 7;
    let mut next = move |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    for case in 0..300 {
        let mut bytes = Vec::new();
        for _ in 0..next(40) {
            match next(10) {
                0 => bytes.push(b'\n'),
                1 => bytes.extend_from_slice(b"\r\n"),
                2 => bytes.push(b','),
                _ => bytes.extend((0..next(12)).map(|k| b'a' + (k % 26) as u8)),
            }
        }
        if case == 0 {
            bytes.extend(std::iter::repeat_n(b',', super::block::FAST_ROW_FIELDS + 3));
            bytes.extend_from_slice(b"\nlast,1");
        }
        let mut block = Block::default();
        let after = block.fill(bytes.clone(), 2);
        let mut got = Vec::new();
        for k in 0..block.len() {
            match block.row(k) {
                (BlockItem::Fast(r), line) => got.push((
                    line,
                    (0..r.len())
                        .map(|i| String::from_utf8_lossy(r.get(i).unwrap_or(b"")).into_owned())
                        .collect::<Vec<_>>(),
                )),
                (BlockItem::Slow(b), line) => got.extend(rows_from(b, line)),
            }
        }
        assert_eq!(got, rows(&bytes), "case {case}: {:?}", String::from_utf8_lossy(&bytes));
        let breaks = memchr::memchr_iter(b'\n', &bytes).count() as u64;
        let open_end = u64::from(bytes.last().is_some_and(|&b| b != b'\n'));
        assert_eq!(after, 2 + breaks + open_end, "case {case}");
    }
}

fn rows_from(input: impl BufRead, first_line: u64) -> Vec<(u64, Vec<String>)> {
    let mut r = Records::new(input, first_line);
    let mut row = Row::default();
    let mut out = Vec::new();
    while let Ok(Some(line)) = r.next_row(&mut row) {
        let fields = (0..row.len()).map(|i| String::from_utf8_lossy(row.get(i).unwrap_or(b"")).into_owned());
        out.push((line, fields.collect()));
    }
    out
}

/// A row over the byte or field cap is read through, reported as oversized with
/// no fields, and the next row is read normally.
#[test]
fn oversized_rows_are_dropped_in_bounded_memory() {
    let mut bytes = vec![b'x'; MAX_ROW_BYTES * 3];
    bytes.extend_from_slice(b"\nnext,1\n");
    let mut commas = vec![b','; MAX_ROW_FIELDS * 3];
    commas.extend_from_slice(b"\nafter\n");
    for input in [bytes, commas] {
        let mut r = Records::new(std::io::BufReader::new(input.as_slice()), 2);
        let mut row = Row::default();
        assert_eq!(r.next_row(&mut row).ok().flatten(), Some(2));
        assert!(row.is_oversized() && row.len() == 0);
        assert!(row.data.len() <= 2 * MAX_ROW_BYTES && row.ends.len() <= 2 * MAX_ROW_FIELDS);
        assert_eq!(r.next_row(&mut row).ok().flatten(), Some(3));
        assert!(!row.is_oversized() && row.len() >= 1);
    }
}
