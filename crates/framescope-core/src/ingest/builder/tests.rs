//! Tests of the trace builder's helpers.

use super::super::records::decimal_step;
use super::*;
use crate::model::Warning;

#[test]
fn decimal_steps() {
    assert!((decimal_step(b"10.01") - 0.01).abs() < 1e-15);
    assert!((decimal_step(b" 0.004492 ") - 1e-6).abs() < 1e-18);
    assert!((decimal_step(b"123") - 1.0).abs() < f64::EPSILON);
    assert!(decimal_step(b"1e-3") == 0.0);
    // An exponent after the dot, two dots (the first counts), a trailing dot.
    assert!(decimal_step(b"1.5E3") == 0.0);
    assert!((decimal_step(b"1.2.345") - 1e-5).abs() < 1e-20);
    assert!((decimal_step(b"7.") - 1.0).abs() < f64::EPSILON);
    // The builder stops asking once a step is 1: no cell gives more.
    for cell in [&b""[..], b"1234567890123", b" 5 ", b"-3", b"x", b"1.", b"..", b"9e9", b".5", b"NA"] {
        assert!(decimal_step(cell) <= 1.0, "{cell:?}");
    }
}

#[test]
fn few_skips_are_listed_one_by_one_many_are_counted() {
    let mut few = SkipLog::default();
    few.add(9, SkipReason::Truncated { fields: 6, header: 21 });
    assert_eq!(
        few.warnings(),
        vec![Warning::skipped(9, "row has 6 fields, header has 21; skipped", 1, vec![9])]
    );
    let mut many = SkipLog::default();
    (10..17).for_each(|l| many.add(l, SkipReason::NonPositiveFrameTime));
    let w = many.warnings();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].line, Some(10));
    assert_eq!(w[0].message, "7 rows have a frame time of 0 or less; skipped (lines 10, 11, 12, 13, 14, …)");
    let first_lines = vec![10, 11, 12, 13, 14];
    assert_eq!(w[0].kind, crate::model::WarningKind::SkippedRows { count: 7, first_lines });
    // A frame read as displayed was kept: no skipped row.
    let mut odd = SkipLog::default();
    odd.add(3, SkipReason::OddDropped);
    assert_eq!(odd.warnings()[0].kind, crate::model::WarningKind::Other);
}

/// Columns that stay constant for runs of rows (read through [`super::repeats`]) hold
/// exactly the values of their cells: a constant broken by another value and taken up
/// again, zeros of a column where 0 means none, a display value on dropped rows (no
/// value), `NA`, and cells that read alike but differ in bytes (`1` and `1.0000`).
#[test]
fn repeated_cells_read_as_their_values() {
    use super::super::records::{Block, BlockItem};
    use super::super::values::{Cell, parse_cell};
    use crate::model::TraceMeta;
    use std::fmt::Write as _;
    let header = "Application,ProcessID,SwapChainAddress,TimeInQPC,MsBetweenPresents,MsBetweenDisplayChange,\
        SyncInterval,MsInPresentAPI,MsUntilDisplayed,MsAllInputToPhotonLatency,MsGPUWait,MsPCLatency";
    let names: Vec<String> = header.split(',').map(str::to_owned).collect();
    let layout = super::super::layout::detect(&names, &[]).unwrap();
    let choices: [&[&str]; 6] = [
        &["0", "0", "0", "1", "1.0000"],
        &["0.8000", "0.8000", "0.8000", "1.2000", "NA"],
        &["9.5000", "9.5000", "9.5000", "3.2500", "NA"],
        &["0.0000", "0.0000", "12.5000", "12.5000"],
        &["1", "1.0000", "01", "NA", "0.1000"],
        // A display value that never changes: none on the dropped rows all the same.
        &["5.0000"],
    ];
    let (mut state, mut picks, mut text) = (7u64, [0usize; 6], String::new());
    for k in 0..3000u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Runs: a column changes its cell on about one row in 40.
        for (c, pick) in picks.iter_mut().enumerate() {
            if (state >> (8 * c)) % 40 == 0 {
                *pick = (state >> (40 + 4 * c)) as usize % choices[c].len();
            }
        }
        let display = if state % 13 == 0 { "NA" } else { "7.2500" };
        let cells: Vec<&str> = picks.iter().enumerate().map(|(c, &p)| choices[c][p]).collect();
        let _ = writeln!(text, "g.exe,1,0x1,{},7.2500,{display},{}", 1000 + k * 72_500, cells.join(","));
    }
    let mut block = Block::default();
    block.fill(text.into_bytes(), 2);
    let meta = TraceMeta {
        application: "g.exe".into(),
        process_id: Some(1),
        swap_chain: Some("0x1".into()),
        runtime: None,
        present_modes: Vec::new(),
    };
    let mut builder = TraceBuilder::new(meta, &layout, true);
    let mut cells: Vec<Vec<Vec<u8>>> = vec![Vec::new(); layout.numeric.len()];
    for k in 0..block.len() {
        let (BlockItem::Fast(row), line) = block.row(k) else { panic!("row {k} is plain") };
        builder.push(&row, &layout, line);
        for (spec, column) in layout.numeric.iter().zip(&mut cells) {
            column.push(row.get(spec.index).unwrap().to_vec());
        }
    }
    let trace = builder.finish(&layout, None, 1.0, 0.0);
    assert_eq!(trace.frames.frame_time_ms.len(), 3000);
    assert!(trace.frames.dropped.iter().any(|&d| d), "some rows are dropped frames");
    let expected: Vec<Vec<u64>> = (layout.numeric.iter().zip(&cells))
        .map(|(spec, column)| {
            let value = |(cell, &dropped): (&Vec<u8>, &bool)| match parse_cell(cell) {
                Cell::Number(v) if v == 0.0 && spec.kind.zero_means_none() => f64::NAN,
                Cell::Number(_) if dropped && spec.kind.is_display_value() => f64::NAN,
                Cell::Number(v) => v,
                Cell::Missing | Cell::Invalid => f64::NAN,
            };
            column.iter().zip(&trace.frames.dropped).map(value).map(f64::to_bits).collect()
        })
        .collect();
    for (column, want) in trace.frames.columns.iter().zip(&expected) {
        let got: Vec<u64> = column.values.iter().map(f64::to_bits).collect();
        let at = got.iter().zip(want).position(|(a, b)| a != b);
        let show = |v: &[u64]| at.map(|i| f64::from_bits(v[i]));
        assert!(got == *want, "{}: at {at:?} got {:?} want {:?}", column.name, show(&got), show(want));
    }
}
