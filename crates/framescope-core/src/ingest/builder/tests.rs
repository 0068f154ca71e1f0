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
}

#[test]
fn few_skips_are_listed_one_by_one_many_are_counted() {
    let mut few = SkipLog::default();
    few.add(9, SkipReason::Truncated { fields: 6, header: 21 });
    assert_eq!(few.warnings(), vec![Warning::at(9, "row has 6 fields, header has 21; skipped")]);
    let mut many = SkipLog::default();
    (10..17).for_each(|l| many.add(l, SkipReason::NonPositiveFrameTime));
    let w = many.warnings();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].line, Some(10));
    assert_eq!(w[0].message, "7 rows have a frame time of 0 or less; skipped (lines 10, 11, 12, 13, 14, …)");
}
