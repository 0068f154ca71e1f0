//! Odd but valid CSV (quotes, CRLF, CR, BOM, trailing commas, blank lines) loads with
//! the right line numbers. Several tests began as reports of library bugs (CRLF line
//! numbers, CR-only files, absurd dates and timestamps, many present modes); they now
//! guard the fixes.
//!
//! Bad input is normal input: a truncated, malformed, huge or hostile file must give a
//! clear message that names the file and the line, never a panic or a hang, and input
//! files are never written to. Helpers: `common::bad`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::bad::*;

/// Three rows with frame times 16, 17 and 18 ms, as lines without terminators.
fn three_rows() -> Vec<String> {
    vec![row(0, "16.0"), row(1, "17.0"), row(2, "18.0")]
}

/// What differs from the expected three frames (16, 17, 18 ms of `game.exe`, no
/// warning, and the given frame lines when `lines` is set).
fn three_frames_problems(name: &str, bytes: &[u8], lines: Option<&[u64]>) -> Vec<String> {
    let c = match load(name, bytes) {
        Ok(c) => c,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let mut out = Vec::new();
    let apps: Vec<&str> = c.traces.iter().map(|t| t.meta.application.as_str()).collect();
    if apps != ["game.exe"] {
        out.push(format!("{name}: traces {apps:?}"));
        return out;
    }
    let t = &c.traces[0];
    if t.frames.frame_time_ms != [16.0, 17.0, 18.0] {
        out.push(format!("{name}: frame times {:?}", t.frames.frame_time_ms));
    }
    if t.meta.present_modes != ["Hardware: Independent Flip"] {
        out.push(format!("{name}: present modes {:?}", t.meta.present_modes));
    }
    if !all_warnings(&c).is_empty() {
        out.push(format!("{name}: warnings {:?}", all_warnings(&c)));
    }
    if let Some(lines) = lines
        && t.frames.line != lines
    {
        out.push(format!("{name}: frame lines {:?}, expected {lines:?}", t.frames.line));
    }
    out
}

/// (file name, content, expected frame lines when they are checked)
type ValidCase = (&'static str, Vec<u8>, Option<Vec<u64>>);

#[test]
fn weird_but_valid_csv_loads() {
    let rows = three_rows();
    let join = |sep: &str, end: &str| format!("{HEADER}{sep}{}{end}", rows.join(sep));
    let with_commas =
        format!("{HEADER},\n{}\n", rows.iter().map(|r| format!("{r},")).collect::<Vec<_>>().join("\n"));
    let blank_lines = format!("\n{HEADER}\n\n{}\n\n{}\n{}\n\n", rows[0], rows[1], rows[2]);
    // Frame lines are only checked where they are right today; CRLF and blank lines
    // have their own (ignored, bug) test below.
    let cases: Vec<ValidCase> = vec![
        ("bom_lf.csv", [&b"\xEF\xBB\xBF"[..], join("\n", "\n").as_bytes()].concat(), Some(vec![2, 3, 4])),
        ("lf.csv", join("\n", "\n").into(), Some(vec![2, 3, 4])),
        ("crlf.csv", join("\r\n", "\r\n").into(), None),
        ("no_final_newline.csv", join("\n", "").into(), Some(vec![2, 3, 4])),
        ("crlf_no_final_newline.csv", join("\r\n", "").into(), None),
        ("bom.csv", [&b"\xEF\xBB\xBF"[..], join("\r\n", "\r\n").as_bytes()].concat(), None),
        ("trailing_commas.csv", with_commas.into(), Some(vec![2, 3, 4])),
        ("blank_lines.csv", blank_lines.into(), None),
        (
            "quoted_everything.csv",
            format!(
                "{}\n{}\n",
                HEADER.split(',').map(|h| format!("\"{h}\"")).collect::<Vec<_>>().join(","),
                rows.iter()
                    .map(|r| r.split(',').map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(","))
                    .collect::<Vec<_>>()
                    .join("\n")
            )
            .into(),
            Some(vec![2, 3, 4]),
        ),
        (
            "spaces.csv",
            format!(
                "{}\n{}\n",
                HEADER.replace(',', " , "),
                rows.iter().map(|r| r.replace(',', ", ")).collect::<Vec<_>>().join("\n")
            )
            .into(),
            Some(vec![2, 3, 4]),
        ),
    ];
    let problems: Vec<String> = cases
        .iter()
        .flat_map(|(name, bytes, lines)| three_frames_problems(name, bytes, lines.as_deref()))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn quoted_text_with_commas_quotes_and_newlines_keeps_rows_and_line_numbers() {
    // Line 2-3: one row whose Application holds a comma, quotes and a newline.
    // Line 4: a row whose Runtime holds CRLF. Line 6: bad frame time.
    let text = format!(
        "{HEADER}\n\
         \"my, \"\"quoted\"\"\ngame.exe\",100,0xAA,DXGI,0,0,0,\"Composed: Flip\",0,0.1,16.0,16.0,0.5,2.0,5.0\n\
         game.exe,100,0xAA,\"D3D\r\n9\",0,0,0,Hardware: Independent Flip,0,0.048,17.0,16.0,0.5,2.0,5.0\n\
         {}\n\
         {}\n\
         {}\n",
        row(3, "18.0"),
        row(4, "oops"),
        row(5, "19.0"),
    );
    let c = load("quoted.csv", text.as_bytes()).expect("load");
    let apps: Vec<&str> = c.traces.iter().map(|t| t.meta.application.as_str()).collect();
    assert_eq!(apps, vec!["my, \"quoted\"\ngame.exe", "game.exe"]);
    assert_eq!(c.traces[0].frames.line, vec![2]);
    assert_eq!(c.traces[0].meta.present_modes, vec!["Composed: Flip"]);
    let t = &c.traces[1];
    assert_eq!(t.meta.runtime.as_deref(), Some("D3D\r\n9"));
    assert_eq!(t.frames.frame_time_ms, vec![17.0, 18.0, 19.0]);
    assert_eq!(t.frames.line, vec![4, 6, 8]);
    assert_eq!(warning_lines(&c), vec![7]);
}

#[test]
fn line_numbers_are_right_with_crlf_and_blank_lines() {
    let rows = [row(0, "16.0"), row(1, "17.0"), dropped_row(2, "NA"), row(3, "18.0")];
    // Lines: 1 header, 2..=5 rows; line 4 has no frame time.
    let crlf = format!("{HEADER}\r\n{}\r\n", rows.join("\r\n"));
    // Lines: 1 header, 2 blank, 3 row, 4 blank, 5 row, 6 row (NA), 7 blank, 8 row.
    let blank = format!("{HEADER}\n\n{}\n\n{}\n{}\n\n{}\n", rows[0], rows[1], rows[2], rows[3]);
    let mut problems = Vec::new();
    for (name, text, frames, warning) in
        [("crlf.csv", crlf, vec![2, 3, 5], 4), ("blank_lines.csv", blank, vec![3, 5, 8], 6)]
    {
        let c = load(name, text.as_bytes()).expect(name);
        let lines = &c.traces[0].frames.line;
        if *lines != frames {
            problems.push(format!("{name}: frame lines {lines:?}, expected {frames:?}"));
        }
        let got = warning_lines(&c);
        if got != [warning] {
            problems.push(format!("{name}: warning lines {got:?}, expected [{warning}]"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn cr_only_line_ends_load() {
    let rows = three_rows();
    let text = format!("{HEADER}\r{}\r", rows.join("\r"));
    let mut problems = three_frames_problems("cr_only.csv", text.as_bytes(), Some(&[2, 3, 4]));
    let text = format!("\u{feff}{HEADER}\r{}", rows.join("\r"));
    problems.extend(three_frames_problems("cr_only_bom.csv", text.as_bytes(), Some(&[2, 3, 4])));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_absurd_date_time_does_not_panic() {
    let text = "Application,ProcessID,SwapChainAddress,TimeInDateTime,MsBetweenPresents\n\
                g.exe,1,0x1,2024-4-7 12:03:04.500,16.0\n\
                g.exe,1,0x1,9223372036854775807-3-1 0:00:00,16.0\n\
                g.exe,1,0x1,2024-4-7 12:03:04.532,16.0\n";
    let result = std::panic::catch_unwind(|| load("datetime.csv", text.as_bytes()));
    let c = result.expect("loading must not panic").expect("the three rows have good frame times");
    assert_eq!(total_frames(&c), 3);
    assert!(c.traces[0].frames.start_ms.iter().all(|s| s.is_finite()), "{:?}", c.traces[0].frames.start_ms);
}

#[test]
fn an_absurd_time_stamp_gives_finite_start_times() {
    for absurd in ["1e308", "-1e308"] {
        let bad = row(1, "16.0").replace(",0.032,", &format!(",{absurd},"));
        let text = format!("{HEADER}\n{}\n{bad}\n{}\n", row(0, "16.0"), row(2, "16.0"));
        let c = load("absurd_time.csv", text.as_bytes()).expect("load");
        assert_eq!(total_frames(&c), 3, "{absurd}");
        let starts = &c.traces[0].frames.start_ms;
        assert!(starts.iter().all(|s| s.is_finite()), "{absurd}: {starts:?}");
    }
}

#[test]
fn many_present_modes_are_not_mixed_up() {
    let mut text = format!("{HEADER}\n");
    for i in 0..300 {
        let r = row(i, "16.0").replace("Hardware: Independent Flip", &format!("mode{i}"));
        text.push_str(&r);
        text.push('\n');
    }
    let c = load("modes.csv", text.as_bytes()).expect("load");
    let t = &c.traces[0];
    assert_eq!(t.len(), 300);
    // 300 modes fit the per-frame index (u16): every frame keeps its own, in order of
    // first appearance, and nothing needs a warning.
    assert_eq!(t.meta.present_modes.len(), 300);
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let wrong: Vec<usize> = (0..t.len())
        .filter(|&i| t.meta.present_modes[usize::from(t.frames.present_mode[i])] != format!("mode{i}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} frames carry another frame's present mode (first: frame {:?})",
        wrong.len(),
        wrong.first()
    );
}
