//! Tests of the parent module.

use super::*;

#[test]
fn decimal_commas_only_in_semicolon_files() {
    assert_eq!(number(b"15,625", true), Cell::Number(15.625));
    assert_eq!(number(b" -0,5 ", true), Cell::Number(-0.5));
    assert_eq!(number(b"1,234,5", true), Cell::Invalid);
    assert_eq!(number(b"15,625", false), Cell::Invalid);
    assert_eq!(number(b"16.5", true), Cell::Number(16.5));
    assert_eq!(number(b"", true), Cell::Missing);
}

/// Rows keep their lines across blank lines, trim cells, split on the head's
/// separator; a row of 100 001 fields comes back empty and oversized.
#[test]
fn rows_split_trim_and_read_through_oversized_rows() {
    let head = Head { header: vec!["a".into(), "b".into()], header_line: 3, sep: b';', ..Head::default() };
    let mut text = " 1 ; 2,5 \n\n".to_owned();
    text.push_str(&";".repeat(100_000));
    text.push_str("\n3;4\n");
    let mut rows = Rows::new(Path::new("t.csv"), text.as_bytes(), &head);
    let mut rec = csv::ByteRecord::new();
    let mut seen = Vec::new();
    while let Ok(Some(line)) = rows.next(&mut rec) {
        seen.push((line, rec.iter().map(String::from_utf8_lossy).collect::<Vec<_>>().join("|")));
        assert_eq!(rows.oversized().is_some(), line == 6, "line {line}");
    }
    assert_eq!(seen, [(4, "1|2,5".to_owned()), (6, String::new()), (7, "3|4".to_owned())]);
}

#[test]
fn the_head_skips_hash_lines_and_finds_the_separator() {
    let text = "\u{feff}# framescope-unity 1,a=b\n\nx;y (ms);z\n1;2,5;3\n";
    let mut r = std::io::BufReader::new(text.as_bytes());
    let (raw, head) = peek_head(&mut r).unwrap_or_default();
    let head = head.unwrap_or_default();
    assert_eq!(head.meta_lines, ["framescope-unity 1,a=b"]);
    assert_eq!(head.header, ["x", "y (ms)", "z"]);
    assert_eq!(head.header_line, 3);
    assert_eq!(head.sep, b';');
    assert_eq!(raw.len(), text.find("1;").unwrap_or(0));
    let mut r = std::io::BufReader::new("//Key=V\nApplication\n".as_bytes());
    assert!(peek_head(&mut r).is_ok_and(|(_, h)| h.is_none()), "CapFrameX comments go elsewhere");
}

/// The split without csv gives what csv gives, for lines it is taken for.
#[test]
fn plain_lines_split_as_csv_splits_them() {
    for sep in [b',', b';', b'\t'] {
        for line in
            ["A; B ,C\tD", "", " ", "a,,b;", "\u{a0}x\u{2003},y\t", "\u{feff}A,B", "A,\u{feff}B", "#c=1"]
        {
            assert_eq!(split_line(line, sep), split_quoted(line, sep), "{line:?} {sep}");
        }
    }
    assert_eq!(split_line("A;\"B;C\"", b';'), ["A", "B;C"]);
}
