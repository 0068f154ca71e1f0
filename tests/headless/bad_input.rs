//! Bad rows (bad input is normal input): malformed rows (wrong field count, unusable
//! frame time) become warnings with their 1-based line number while the other rows
//! load; timestamps that go back and text in a numeric column are warned at their line.
//!
//! Bad input is normal input: a truncated, malformed, huge or hostile file must give a
//! clear message that names the file and the line, never a panic or a hang, and input
//! files are never written to. Helpers: `common::bad`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::TempDir;
#[allow(clippy::wildcard_imports)]
use common::bad::*;
use framescope_core::model::{Capture, Warning};

// ---------------------------------------------------------------------------------
// 1. Malformed rows become warnings with their line; the load goes on.
// ---------------------------------------------------------------------------------

#[test]
fn rows_with_a_wrong_field_count_are_warned_by_line_and_the_rest_load() {
    let good = |i| row(i, "16.0");
    let too_long = format!("{},1,2,3", good(3));
    let cut_mid_number = {
        let r = row(7, "16.5");
        r[..r.find(",16.5").unwrap() + 4].to_owned() // ends in ",16."
    };
    let lines = [
        HEADER.to_owned(),                                            // 1
        good(0),                                                      // 2
        "game.exe,100,0x00000000000000AA,DXGI,0,0,0,Hard".to_owned(), // 3: cut in the middle
        good(2),                                                      // 4
        too_long,                                                     // 5: 18 fields
        good(4),                                                      // 6
        good(5),                                                      // 7
        cut_mid_number,                                               // 8: 11 fields
        good(8),                                                      // 9
        "game.exe,1".to_owned(),                                      // 10: too short to name its swap chain
        good(10),                                                     // 11
        good(11),                                                     // 12: cut at the end of the file, below
    ];
    let mut text = lines.join("\n");
    // The file itself ends in the middle of the last row, without a newline.
    text.truncate(text.len() - 20);
    let c = load("fields.csv", text.as_bytes()).expect("the good rows load");
    assert_eq!(c.traces.len(), 1, "one trace: {:?}", c.traces.len());
    let t = &c.traces[0];
    assert_eq!(t.len(), 6, "frames kept");
    assert_eq!(t.frames.line, vec![2, 4, 6, 7, 9, 11]);
    assert_eq!(warning_lines(&c), vec![3, 5, 8, 10, 12]);
    for (line, fields) in [(3, 8), (5, 18), (8, 11), (12, 11)] {
        let w = warning_at(&c, line);
        assert!(
            w.message.contains(&format!("{fields} fields")) && w.message.contains("15"),
            "line {line}: {}",
            w.message
        );
    }

    // The same through the CLI: the run lists the warnings with their lines.
    let dir = TempDir::new("fields");
    let path = dir.file("fields.csv", text.as_bytes());
    let (run, doc) = report(&[path.as_os_str()]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let r = &doc["runs"][0];
    assert_eq!(r["frames"], 6);
    let mut lines: Vec<u64> =
        r["warnings"].as_array().expect("warnings").iter().filter_map(|w| w["line"].as_u64()).collect();
    lines.sort_unstable();
    assert_eq!(lines, vec![3, 5, 8, 10, 12], "{}", r["warnings"]);
}

#[test]
fn rows_with_an_unusable_frame_time_are_warned_by_line_and_skipped() {
    // (cell, what the warning must say)
    let bad = [
        ("NA", "missing"),
        ("", "missing"),
        ("abc", "not a number"),
        ("0", "0 or negative"),
        ("-3", "0 or negative"),
        ("inf", "not a number"),
        ("NaN", "not a number"),
    ];
    let mut text = format!("{HEADER}\n");
    let mut want_lines = Vec::new();
    let mut good_lines = Vec::new();
    let mut line = 1;
    for (i, (cell, _)) in bad.iter().enumerate() {
        line += 1;
        text.push_str(&row(2 * i, "16.7"));
        text.push('\n');
        good_lines.push(line);
        line += 1;
        text.push_str(&dropped_row(2 * i + 1, cell));
        text.push('\n');
        want_lines.push(line);
    }
    let c = load("frametime.csv", text.as_bytes()).expect("the good rows load");
    assert_eq!(c.traces.len(), 1);
    let t = &c.traces[0];
    assert_eq!(t.len(), bad.len());
    assert_eq!(t.frames.line, good_lines);
    assert!(t.frames.frame_time_ms.iter().all(|&v| (v - 16.7).abs() < 1e-9));
    assert_eq!(warning_lines(&c), want_lines);
    for ((_, says), line) in bad.iter().zip(&want_lines) {
        let w = warning_at(&c, *line);
        assert!(w.message.contains("frame time") && w.message.contains(says), "line {line}: {}", w.message);
    }
}

/// A capture with 100 rows, every other one without a frame time.
fn every_other_row_without_frame_time() -> Capture {
    let mut text = format!("{HEADER}\n");
    for i in 0..100 {
        text.push_str(&if i % 2 == 0 { row(i, "16.0") } else { dropped_row(i, "NA") });
        text.push('\n');
    }
    load("many.csv", text.as_bytes()).expect("load")
}

#[test]
fn many_bad_rows_are_counted_in_one_warning_that_names_the_first_lines() {
    let c = every_other_row_without_frame_time();
    assert_eq!(total_frames(&c), 50);
    let ws: Vec<&Warning> = all_warnings(&c).into_iter().filter(|w| w.line.is_some()).collect();
    assert_eq!(ws.len(), 1, "{ws:?}");
    assert_eq!(ws[0].line, Some(3));
    assert!(ws[0].message.contains("50") && ws[0].message.contains("3, 5, 7"), "{}", ws[0].message);
}

#[test]
fn skipped_rows_do_not_make_a_false_time_column_warning() {
    // TimeInSeconds advances 16 ms per row and every row says 16 ms; half the rows
    // are skipped (NA), which leaves 32 ms time gaps between kept frames. The time
    // column is right, so no file warning about it is due.
    let c = every_other_row_without_frame_time();
    let file_level: Vec<&Warning> = all_warnings(&c).into_iter().filter(|w| w.line.is_none()).collect();
    assert!(file_level.is_empty(), "{file_level:?}");
}

#[test]
fn timestamps_that_go_back_are_laid_out_frame_after_frame() {
    // Two captures joined: the second starts the clock again at line 4.
    let text =
        format!("{HEADER}\n{}\n{}\n{}\n{}\n", row(0, "16.0"), row(1, "16.0"), row(0, "16.0"), row(1, "16.0"));
    let c = load("joined.csv", text.as_bytes()).expect("load");
    let t = &c.traces[0];
    assert_eq!(t.len(), 4);
    assert!(t.frames.start_ms.windows(2).all(|w| w[1] > w[0]), "{:?}", t.frames.start_ms);
    assert!((t.frames.start_ms[3] - t.frames.start_ms[0] - 48.0).abs() < 1e-9, "{:?}", t.frames.start_ms);
    assert_eq!(warning_lines(&c), vec![4]);
}

#[test]
fn text_in_a_numeric_column_is_one_warning_at_its_first_line_and_reads_as_missing() {
    // Rows 2 and 4 of the data (file lines 3 and 5) hold text where MsInPresentAPI
    // (0.5 elsewhere) should be: one warning at line 3 naming the column and the count.
    let mut text = format!("{HEADER}\n");
    for i in 0..5 {
        let r = row(i, "16.0");
        text.push_str(&if i == 1 || i == 3 { r.replacen(",0.5,", ",oops,", 1) } else { r });
        text.push('\n');
    }
    let c = load("text_cells.csv", text.as_bytes()).expect("loads");
    assert_eq!(total_frames(&c), 5, "the rows are kept");
    let w = warning_at(&c, 3);
    assert!(
        w.message.contains("MsInPresentAPI")
            && w.message.contains("2 values")
            && w.message.contains("'oops'"),
        "{}",
        w.message
    );
    let col = c.traces[0].frames.columns.iter().find(|c| c.name == "MsInPresentAPI").expect("column kept");
    let shown: Vec<String> = col.values.iter().map(|v| format!("{v}")).collect();
    assert_eq!(shown, ["0.5", "NaN", "0.5", "NaN", "0.5"]);

    // The same in a sampled log (NVIDIA App): text in a telemetry column.
    let log = "Timestamp (Elapsed time in seconds),PID,FPS,CPU Utilization(%)\n\
               0.000,1,60.0,15.0\n1.000,1,60.0,n/a?\n2.000,1,60.0,17.0\n";
    let c = load("nvidia.csv", log.as_bytes()).expect("loads");
    let w = warning_at(&c, 3);
    assert!(
        w.message.contains("CPU Utilization(%)") && w.message.contains("1 value is not a number"),
        "{}",
        w.message
    );
}
