//! Format quirks of the CSV text itself, one small hand-built capture (or a few) per
//! quirk: BOM, CRLF, a missing final newline, NA and empty cells, garbage in other
//! columns, unusable frame times.
//!
//! Every capture below is an inline byte string whose header is copied from a real file
//! in `shared/real-traces/`; every expected figure is derived by hand from
//! `shared/spec/metrics.md` §1–2 and `shared/spec/formats.md` §1–5, with the arithmetic in
//! a comment beside the assertion. Frame times are chosen so that the sums stay simple.
//! Helpers and shared fixtures: `common::quirks`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::quirks::*;
use framescope_core::analysis::{FrameTimeSource, Series};
use framescope_core::ingest::LoadOptions;
use framescope_core::model::{Column, ColumnKind, Trace};

// ---------------------------------------------------------------------------------
// 1. BOM, CRLF, missing final newline
// ---------------------------------------------------------------------------------

/// Four frames of 10, 20, 30, 40 ms presented at 1.010, 1.030, 1.060, 1.100 s.
const PM1_PLAIN: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.010000,10.000,16.000,0.500,4.000,14.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.030000,20.000,17.000,0.500,4.000,15.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.060000,30.000,33.000,0.500,4.000,16.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Copy with GPU GDI,0,1.100000,40.000,34.000,0.500,4.000,17.000
";

#[test]
fn plain_1x_file_gives_the_hand_derived_frames_and_summary() {
    let c = load("pm1.csv", PM1_PLAIN.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-1");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.application, "FarCryNewDawn.exe");
    assert_eq!(t.meta.process_id, Some(9208));
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x259DAE0BCF0"));
    assert_eq!(t.meta.runtime.as_deref(), Some("DXGI"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = present − ft: 1010−10 = 1000, 1030−20 = 1010, 1060−30 = 1030, 1100−40 = 1060;
    // shifted so the earliest (1000) is 0 → 0, 10, 30, 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_all_close(&t.frames.display_ms, &[16.0, 17.0, 33.0, 34.0], "display");
    // Data rows are file lines 2..=5.
    assert_eq!(t.frames.line, vec![2, 3, 4, 5]);
    assert_eq!(t.dropped_count(), 0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn bom_crlf_and_missing_final_newline_read_like_the_plain_file() {
    let plain = load("plain.csv", PM1_PLAIN.as_bytes());
    let crlf = PM1_PLAIN.replace('\n', "\r\n");
    let variants: Vec<(&str, Vec<u8>)> = vec![
        ("bom", [b"\xEF\xBB\xBF".as_slice(), PM1_PLAIN.as_bytes()].concat()),
        ("crlf", crlf.clone().into_bytes()),
        ("no final newline", PM1_PLAIN.trim_end().as_bytes().to_vec()),
        ("bom + crlf + no final newline", [b"\xEF\xBB\xBF".as_slice(), crlf.trim_end().as_bytes()].concat()),
    ];
    let p = single(&plain);
    for (what, bytes) in variants {
        let c = load("variant.csv", &bytes);
        assert!(all_warnings(&c).is_empty(), "{what}: {:?}", all_warnings(&c));
        assert_eq!(c.info.format.name(), "presentmon-1", "{what}");
        let t = single(&c);
        // The BOM must not stick to the first header name ("\u{feff}Application").
        assert_eq!(t.meta.application, "FarCryNewDawn.exe", "{what}");
        assert_eq!(t.meta.process_id, Some(9208), "{what}");
        assert_all_close(&t.frames.frame_time_ms, &p.frames.frame_time_ms, what);
        assert_all_close(&t.frames.start_ms, &p.frames.start_ms, what);
        // CRLF: the last column must not keep a '\r' and become unreadable.
        assert_all_close(
            &t.column(ColumnKind::UntilDisplayed).expect("MsUntilDisplayed").values,
            &[14.0, 15.0, 16.0, 17.0],
            what,
        );
        assert_eq!(t.frames.line.len(), 4, "{what}");
        assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    }
}

#[test]
fn bom_and_no_final_newline_keep_file_line_numbers() {
    // The BOM sits on line 1 (the header); data rows stay lines 2..=5.
    let bom = [b"\xEF\xBB\xBF".as_slice(), PM1_PLAIN.as_bytes()].concat();
    assert_eq!(single(&load("bom.csv", &bom)).frames.line, vec![2, 3, 4, 5]);
    let no_nl = load("no_nl.csv", PM1_PLAIN.trim_end().as_bytes());
    assert_eq!(single(&no_nl).frames.line, vec![2, 3, 4, 5]);
}

#[test]
fn crlf_keeps_file_line_numbers_for_frames_and_warnings() {
    let crlf = PM1_PLAIN.replace('\n', "\r\n");
    // Data rows are file lines 2, 3, 4, 5, exactly as in the LF file.
    assert_eq!(single(&load("crlf.csv", crlf.as_bytes())).frames.line, vec![2, 3, 4, 5]);
    // Frame time 0 on file line 4 (the third data row): the warning must name line 4.
    let bad = crlf.replacen("1.060000,30.000", "1.060000,0.000", 1);
    let c = load("crlf_bad.csv", bad.as_bytes());
    let lines: Vec<u64> = all_warnings(&c).iter().filter_map(|w| w.0).collect();
    assert_eq!(lines, vec![4], "{:?}", all_warnings(&c));
}

// ---------------------------------------------------------------------------------
// 2. NA, N/A, empty cells, padded values
// ---------------------------------------------------------------------------------

#[test]
fn na_and_empty_cells_are_missing_and_padded_values_parse() {
    // Row 2: padded frame time " 20.000 ", display "N/A", MsInPresentAPI empty.
    // Row 3: display "NA", MsUntilRenderComplete "  3.5". Row 4: display empty.
    let text = format!(
        "{PM1_HEADER}
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0,1.010000,10.000,16.000,0.500,4.000,14.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0,1.030000, 20.000 ,N/A,,4.000,15.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0,1.060000,30.000,NA,0.500,  3.5,16.000
FarCryNewDawn.exe,9208,0x00000259DAE0BCF0,DXGI,0,0,0,Composed: Flip,0, 1.100000,40.000,,0.500,4.000, 17.000
"
    );
    let c = load("na.csv", text.as_bytes());
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Same present times as the plain file → 0, 10, 30, 60 (row 4's " 1.100000" padded).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // N/A, NA, empty display → missing (NaN), never 0.
    assert_all_close(&t.frames.display_ms, &[16.0, f64::NAN, f64::NAN, f64::NAN], "display");
    assert_all_close(
        &t.column(ColumnKind::InPresentApi).expect("in present").values,
        &[0.5, f64::NAN, 0.5, 0.5],
        "MsInPresentAPI",
    );
    assert_all_close(
        &t.column(ColumnKind::UntilRenderComplete).expect("render complete").values,
        &[4.0, 4.0, 3.5, 4.0],
        "MsUntilRenderComplete",
    );
    assert_all_close(
        &t.column(ColumnKind::UntilDisplayed).expect("until displayed").values,
        &[14.0, 15.0, 16.0, 17.0],
        "MsUntilDisplayed",
    );
    // A missing display value is not a drop (Dropped = 0 on every row).
    assert_eq!(t.dropped_count(), 0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Display series: only row 1 has a positive display interval → [16].
    assert_eq!(Series::of(t, FrameTimeSource::Display).frame_time_ms, vec![16.0]);
}

// ---------------------------------------------------------------------------------
// 9. Garbage values in other columns
// ---------------------------------------------------------------------------------

/// `framescope report` loads for figures only: `MsGPUTime`, which no figure reads, is
/// left out of the trace (as are the other columns no figure reads), yet its cells are
/// checked as in a full load — a text cell (line 3) and an implausible value (line 4)
/// give the same warnings — and every column kept holds the same values.
#[test]
fn figures_only_load_leaves_unread_columns_out_and_warns_the_same() {
    let mut text = format!("{}\n", pm24_header("TimeInMs", "CPUStartTimeInMs"));
    let times = [("1010.0000", "1000.0000", "10.0000"), ("1030.0000", "1010.0000", "20.0000")];
    let more = [("1060.0000", "1030.0000", "30.0000"), ("1100.0000", "1060.0000", "40.0000")];
    for (k, (time, cpu, ft)) in times.into_iter().chain(more).enumerate() {
        let gpu_time = ["4.0000", "abc", "1800000000000000.0000", "4.0000"][k];
        let row = pm24_row(time, cpu, ft, "12.0000", "20.0000", "0.2500");
        text.push_str(&row.replace("0.8529,4.0000,", &format!("0.8529,{gpu_time},")));
    }
    let full = load("gputime.csv", text.as_bytes());
    let opts = LoadOptions { figures_only: true, ..LoadOptions::default() };
    let figures = load_with("gputime.csv", text.as_bytes(), opts);
    let warnings = all_warnings(&full);
    assert_eq!(all_warnings(&figures), warnings);
    let at = |line: u64, start: &str| warnings.iter().any(|(l, m)| *l == Some(line) && m.starts_with(start));
    assert!(at(3, "column MsGPUTime") && at(4, "column MsGPUTime: 1 value is implausible"), "{warnings:?}");
    let (t, f) = (single(&full), single(&figures));
    assert!(t.column(ColumnKind::GpuTime).is_some() && f.column(ColumnKind::GpuTime).is_none());
    // Left out: the columns no figure reads, and only those: of the 23 numeric ones, the
    // three present flags, MsBetweenSimulationStart, CPUStartTimeInMs, MsBetweenAppStart,
    // MsGPUTime, MsVideoBusy, MsFlipDelay and MsInstrumentedLatency (AnimationTime is
    // read by the animation error over all displayed frames, issue 38).
    let names = |t: &Trace| t.frames.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    let read = t.frames.columns.iter().filter(|c| Column::read_by_figures(c.kind, &c.name));
    assert_eq!(names(f), read.map(|c| c.name.clone()).collect::<Vec<_>>(), "full load: {:?}", names(t));
    assert_eq!((t.frames.columns.len(), f.frames.columns.len()), (23, 13), "{:?}", names(t));
    for c in &f.frames.columns {
        let bits = |v: &framescope_core::model::Values| v.iter().map(f64::to_bits).collect::<Vec<_>>();
        assert_eq!(bits(&c.values), bits(&t.column_named(&c.name).expect("kept").values), "{}", c.name);
    }
}

/// A −1.8·10¹⁵ `MsAnimationError` (an unsigned underflow) is implausible (`metrics.md`
/// §1, issue 18: 10⁶ ms or more in a duration column): the cell is missing, with a
/// warning on its line (4); no row is skipped and the frame-time figures stay.
#[test]
fn garbage_animation_error_is_missing_and_frame_time_figures_are_unchanged() {
    let mut text = format!("\u{feff}{}\n", pm24_header("TimeInMs", "CPUStartTimeInMs"));
    text.push_str(&pm24_row("1010.0000", "1000.0000", "10.0000", "12.0000", "20.0000", "NA"));
    text.push_str(&pm24_row("1030.0000", "1010.0000", "20.0000", "12.0000", "20.0000", "0.2500"));
    text.push_str(&pm24_row(
        "1060.0000",
        "1030.0000",
        "30.0000",
        "12.0000",
        "20.0000",
        "-1800000000000000.0000",
    ));
    text.push_str(&pm24_row("1100.0000", "1060.0000", "40.0000", "12.0000", "20.0000", "-0.5000"));
    let c = load("garbage.csv", text.as_bytes());
    let t = single(&c);
    assert_eq!(t.len(), 4);
    let warnings = all_warnings(&c);
    let on_lines: Vec<_> = warnings.iter().filter(|(line, _)| line.is_some()).collect();
    assert_eq!(on_lines.len(), 1, "no row may be skipped: {warnings:?}");
    assert_eq!(on_lines[0].0, Some(4));
    assert!(on_lines[0].1.starts_with("column MsAnimationError: 1 value is implausible"), "{warnings:?}");
    let anim = t.column(ColumnKind::AnimationError).expect("MsAnimationError");
    assert_eq!(anim.name, "MsAnimationError");
    assert_all_close(&anim.values, &[f64::NAN, 0.25, f64::NAN, -0.5], "MsAnimationError");
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

// ---------------------------------------------------------------------------------
// 10. Unusable frame times: row skipped, warning names its line
// ---------------------------------------------------------------------------------

/// 1.x file: kept rows (lines 2, 4, 7, 9) are the 10/20/30/40 ms frames presented at
/// 1010, 1030, 1060, 1100 ms; lines 3, 5, 6, 8, 10 have frame time 0, −5, NA, empty, inf
/// and were never displayed (`Dropped` 1), so they are frames of neither series. (A
/// displayed frame without a present interval is kept for the display series: see
/// `displayed_time_is_the_next_frames_display_interval`.)
fn bad_frame_time_file() -> String {
    let r = |t: &str, ft: &str| pm1_row("Game.exe", 42, "0x0000000000001000", t, ft);
    let bad = |t: &str, ft: &str| r(t, ft).replacen("Legacy Flip,0,", "Legacy Flip,1,", 1);
    [
        format!("{PM1_HEADER}\n"),
        r("1.010", "10.000"),   // line 2
        bad("1.015", "0.000"),  // line 3: 0
        r("1.030", "20.000"),   // line 4
        bad("1.035", "-5.000"), // line 5: negative
        bad("1.040", "NA"),     // line 6: missing
        r("1.060", "30.000"),   // line 7
        bad("1.070", ""),       // line 8: empty
        r("1.100", "40.000"),   // line 9
        bad("1.105", "inf"),    // line 10: not finite
    ]
    .concat()
}

#[test]
fn rows_with_zero_negative_missing_or_infinite_frame_time_are_skipped_by_line() {
    let c = load("bad_ft.csv", bad_frame_time_file().as_bytes());
    let t = single(&c);
    // Only kept rows are frames: n = 4, lines 2, 4, 7, 9.
    assert_eq!(t.len(), 4);
    assert_eq!(t.frames.line, vec![2, 4, 7, 9]);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Kept presents − ft: 1000, 1010, 1030, 1060 → 0, 10, 30, 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // T = 10+20+30+40 = 100 = duration; the summary is the plain 10..40 one.
    assert_close(Series::of(t, FrameTimeSource::Presents).total_ms(), 100.0, "T");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Every skipped line is named by a warning (its line, or in its text when grouped).
    let warnings = all_warnings(&c);
    for bad in [3_u64, 5, 6, 8, 10] {
        assert!(
            warnings.iter().any(|(line, msg)| *line == Some(bad) || msg.contains(&bad.to_string())),
            "line {bad} not named in {warnings:?}"
        );
    }
    // No warning names a kept line.
    for (line, msg) in &warnings {
        if let Some(l) = line {
            assert!(![2, 4, 7, 9].contains(l), "kept line warned: {l} {msg}");
        }
    }
}
