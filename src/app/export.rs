//! Exports: the report of the current run or selection (JSON as `cli-report.md`
//! defines it, or the same figures as CSV), its frames as CSV, and a PNG of the window.
//!
//! Everything here builds strings or writes one file; nothing draws.

use eframe::egui;
use framescope_core::analysis::Settings;
use framescope_core::model::Trace;
use framescope_core::report::compare::{FIGURES, Section};
use framescope_core::report::formula;
use framescope_core::report::{Report, Run, RunEntry, SCHEMA, SettingsJson};
use std::fmt::Write as _;
use std::path::Path;

/// The JSON report document (the `cli-report.md` contract, schema 1) with one run,
/// pretty-printed with a final newline, as `framescope report --json` prints it (the
/// run's trim echoed in `settings`, as `--trim-start`/`--trim-end` are).
#[must_use]
pub fn report_json(run: &Run, settings: &Settings, trim: framescope_core::analysis::Trim) -> String {
    let report = Report {
        schema: SCHEMA,
        settings: SettingsJson::from(settings).with_trim(trim),
        runs: vec![RunEntry::Run(Box::new(run.clone()))],
    };
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_else(|e| {
        serde_json::json!({ "schema": SCHEMA, "error": { "message": e.to_string(), "line": null } })
            .to_string()
    });
    text.push('\n');
    text
}

/// The same figures as CSV: a header `section,figure,value` and one row per figure.
/// Identity rows come first (section `run`: the run's `name` as the window calls it,
/// then file, format, application, …), then `summary`, `pacing`, `stutters`
/// (count and time fraction), `osc`, `latency` and `frame_types` (application and
/// generated FPS). A section that cannot be computed
/// keeps its rows with empty values, so the layout never changes; `null` values are
/// empty cells. A text value a spreadsheet would read as a formula (`=…`, `-…`) gets a
/// leading `'` (`escape::formula`); numbers never do.
#[must_use]
pub fn report_csv(run: &Run, name: &str) -> String {
    let mut out = String::from("section,figure,value\r\n");
    let mut row = |section: &str, figure: &str, value: Option<String>| {
        let value = value.unwrap_or_default();
        let _ = write!(out, "{},{},{}\r\n", quote(section), quote(figure), quote(&value));
    };
    // Text from the capture: one a spreadsheet would read as a formula gets a `'`.
    let text = |s: &str| Some(formula(s).into_owned());
    row("run", "name", text(name));
    row("run", "file", text(&run.file));
    row("run", "format", text(run.format));
    row("run", "application", text(&run.application));
    row("run", "process_id", run.process_id.map(|p| p.to_string()));
    row("run", "swap_chain", run.swap_chain.as_deref().and_then(text));
    // Every figure `framescope compare` knows, in its order: one list for both.
    for section in Section::ALL {
        if section == Section::Osc {
            row("osc", "flag", run.osc.as_ref().map(|o| o.flag.to_string()));
        }
        for f in FIGURES.iter().filter(|f| f.section == section) {
            row(section.name(), f.name, (f.value)(run).and_then(num));
        }
    }
    out
}

/// Writes the per-frame CSV of a trace range (clamped to the trace): `index` (the
/// frame's index in the trace), `start_ms`, `frame_time_ms`, `display_ms`, `dropped`
/// (1 or 0), then every other numeric column of the trace under its own header name.
/// Missing values are empty cells. Rows are streamed one at a time, so a 10M-frame
/// trace never needs the whole text in memory.
///
/// # Errors
/// When `out` fails.
pub fn write_frames_csv(
    trace: &Trace,
    range: std::ops::Range<usize>,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let f = &trace.frames;
    let end = range.end.min(trace.len());
    let range = range.start.min(end)..end;
    let mut line = String::from("index,start_ms,frame_time_ms,display_ms,dropped");
    for c in &f.columns {
        line.push(',');
        line.push_str(&quote(&formula(&c.name)));
    }
    line.push_str("\r\n");
    out.write_all(line.as_bytes())?;
    let cell = |v: Option<&f64>| v.copied().and_then(num).unwrap_or_default();
    for i in range {
        line.clear();
        let dropped = f.dropped.get(i).is_some_and(|&d| d);
        let _ = write!(
            line,
            "{i},{},{},{},{}",
            cell(f.start_ms.get(i)),
            cell(f.frame_time_ms.get(i)),
            cell(f.display_ms.get(i)),
            u8::from(dropped)
        );
        for c in &f.columns {
            line.push(',');
            line.push_str(&cell(c.values.get(i).as_ref()));
        }
        line.push_str("\r\n");
        out.write_all(line.as_bytes())?;
    }
    out.flush()
}

/// Saves an egui screenshot as an 8-bit RGBA PNG file (colours unmultiplied).
pub fn save_png(path: &Path, image: &egui::ColorImage) -> std::io::Result<()> {
    let [width, height] = image.size;
    if width == 0 || height == 0 || width * height != image.pixels.len() {
        let msg = format!("cannot save a {width}×{height} image with {} pixels", image.pixels.len());
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, msg));
    }
    let (Ok(w), Ok(h)) = (u32::try_from(width), u32::try_from(height)) else {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "image too large for PNG"));
    };
    let data: Vec<u8> = image.pixels.iter().flat_map(egui::Color32::to_srgba_unmultiplied).collect();
    framescope_core::output::write_file(path, |file| {
        let mut encoder = png::Encoder::new(file, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&data)?;
        writer.finish()?;
        Ok(())
    })
}

/// A default file name for exports: `<capture stem>-<application>[-selection].<ext>`,
/// with characters unsafe in file names replaced by `_`, spaces by `_` (one `_` for a
/// run of them). A trailing `.exe` is dropped from the application name, and the
/// application is left out when it is empty or the stem already names it (an engine
/// log's trace is named after its file: `unreal-example.json`, not
/// `unreal-example-unreal-example.json`).
#[must_use]
pub fn default_name(capture_path: &Path, application: &str, selection: bool, ext: &str) -> String {
    let stem = capture_path.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
    let stem = sanitise(&stem);
    let mut name = if stem.is_empty() { "capture".to_owned() } else { stem };
    let app = application.trim();
    let app = match app.len().checked_sub(4) {
        Some(cut) if app.is_char_boundary(cut) && app[cut..].eq_ignore_ascii_case(".exe") => &app[..cut],
        _ => app,
    };
    let app = sanitise(app);
    let key = |s: &str| -> String {
        s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
    };
    if !app.is_empty() && !key(&name).contains(&key(&app)) {
        name.push('-');
        name.push_str(&app);
    }
    if selection {
        name.push_str("-selection");
    }
    let ext = sanitise(ext.trim_start_matches('.'));
    if !ext.is_empty() {
        name.push('.');
        name.push_str(&ext);
    }
    name
}

/// Replaces characters that are unsafe in file names on any platform (path separators,
/// `:*?"<>|`, control characters) and spaces with `_`, never two separators in a row
/// (`example_ unreal` → `example_unreal`), and trims `_` and dots at the ends.
fn sanitise(s: &str) -> String {
    let unsafe_char =
        |c: char| c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|');
    let mut out = String::with_capacity(s.len());
    for c in s.trim().chars() {
        let c = if unsafe_char(c) || c.is_whitespace() { '_' } else { c };
        // A space next to a separator, or several in a row, is one separator: no `_ ` or `__`.
        if c == '_' && out.ends_with(['_', '-']) {
            continue;
        }
        if c == '-' && out.ends_with('_') {
            out.pop();
        }
        out.push(c);
    }
    out.trim_matches(|c: char| c == '_' || c == '.').to_owned()
}

/// A CSV field, quoted per RFC 4180 when it holds a comma, quote or line break (or
/// starts or ends with a space).
fn quote(field: &str) -> String {
    let needs = field.contains([',', '"', '\r', '\n']) || field.starts_with(' ') || field.ends_with(' ');
    if needs { format!("\"{}\"", field.replace('"', "\"\"")) } else { field.to_owned() }
}

/// A number as a CSV cell (shortest form that reads back exactly); `None` when not finite.
fn num(v: f64) -> Option<String> {
    v.is_finite().then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use framescope_core::ingest::{LoadOptions, load_bytes};
    use framescope_core::report::{RunSource, run_trace};
    use std::path::PathBuf;

    /// A 40-frame PresentMon 1.x capture with one dropped frame and a few spikes.
    fn trace() -> (framescope_core::model::Capture, Trace) {
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents,\
             MsBetweenDisplayChange,MsUntilDisplayed,msGPUActive,\"Odd, name\"\n",
        );
        let mut t = 0.0;
        for i in 0..40 {
            let ft = if i % 13 == 12 { 40.0 } else { 16.0 + f64::from(i % 3) };
            t += ft / 1000.0;
            let (display, until) =
                if i == 20 { ("0", "NA".to_owned()) } else { ("16.7", format!("{}", 5 + i % 4)) };
            let _ = writeln!(csv, "game.exe,42,0x1A2B,{t:.6},{ft},{display},{until},{},{i}", 4 + i % 5);
        }
        let c = load_bytes(Path::new("cap.csv"), csv.as_bytes(), LoadOptions::default());
        let c = c.unwrap_or_else(|e| panic!("{e}"));
        let t = c.traces[0].clone();
        (c, t)
    }

    fn run(settings: &Settings) -> Run {
        let (c, t) = trace();
        run_trace(&RunSource::of("cap.csv", &c), &t, settings, None)
    }

    #[test]
    fn json_follows_the_contract() {
        let settings = Settings { target_fps: 90.0, ..Settings::default() };
        let run = run(&settings);
        let doc: serde_json::Value =
            serde_json::from_str(&report_json(&run, &settings, framescope_core::analysis::Trim::default()))
                .unwrap();
        assert_eq!(doc["schema"], 1);
        assert_eq!(doc["settings"]["target_fps"], 90.0);
        assert_eq!(doc["settings"]["window_frames"], 19);
        assert_eq!(doc["settings"]["frame_time"], "auto");
        assert_eq!(doc["runs"][0]["frame_time"], "presents");
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r["file"], "cap.csv");
        assert_eq!(r["application"], "game.exe");
        assert_eq!(r["frames"], run.frames);
        let s = run.summary.as_ref().unwrap();
        assert_eq!(r["summary"]["avg_fps"].as_f64(), Some(s.avg_fps));
        assert_eq!(r["summary"]["p99_ms"].as_f64(), Some(s.p99_ms));
        assert_eq!(r["stutters"]["count"], run.stutters.as_ref().unwrap().count);
        assert!(r["latency"]["pcl_ms"].is_null());
    }

    #[test]
    fn csv_report_has_one_row_per_figure() {
        let run = run(&Settings::default());
        let text = report_csv(&run, "DLSS on, run 2");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "section,figure,value");
        assert_eq!(lines[1], "run,name,\"DLSS on, run 2\"");
        let avg = run.summary.as_ref().unwrap().avg_fps;
        assert!(lines.contains(&format!("summary,avg_fps,{avg}").as_str()));
        assert!(lines.contains(&"run,application,game.exe"));
        assert!(lines.contains(&"run,process_id,42"));
        // Whole numbers print as before (no ".0"), whatever list they come from.
        let steady = run.pacing.as_ref().unwrap().steady_fps;
        assert!(lines.contains(&format!("pacing,steady_fps,{steady}").as_str()));
        assert!(lines.contains(&format!("run,frames,{}", run.frames).as_str()));
        assert!(lines.contains(&"latency,pcl_ms,"));
        assert!(lines.iter().any(|l| l.starts_with("stutters,count,")));
        assert!(lines.iter().any(|l| l.starts_with("osc,flag,")));
        // Header, 6 run facts, the oscillation flag, then one row per registry figure.
        assert_eq!(lines.len(), 1 + 6 + 1 + framescope_core::figures::FIGURES.len());
        assert!(lines.len() > 85, "every figure of the registry, {}", lines.len());
        assert!(lines.contains(&"latency,pc_latency_max_ms,"));
        // The same layout when nothing could be computed.
        let empty = Run { summary: None, pacing: None, stutters: None, osc: None, latency: None, ..run };
        let text = report_csv(&empty, "DLSS on, run 2");
        assert_eq!(text.lines().count(), lines.len());
        assert!(text.contains("summary,avg_fps,\r\n"));
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("two\nlines"), "\"two\nlines\"");
        let run = Run { file: "C:\\caps\\a,b.csv".to_owned(), ..run(&Settings::default()) };
        assert!(report_csv(&run, "a").contains("run,file,\"C:\\caps\\a,b.csv\"\r\n"));
    }

    fn frames_csv(t: &Trace, range: std::ops::Range<usize>) -> String {
        let mut out = Vec::new();
        write_frames_csv(t, range, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn frames_csv_has_a_row_per_frame() {
        let (_, t) = trace();
        let text = frames_csv(&t, 0..t.len());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), t.len() + 1);
        assert!(lines[0].starts_with("index,start_ms,frame_time_ms,display_ms,dropped,"));
        for c in &t.frames.columns {
            assert!(lines[0].contains(&quote(&c.name)), "{}", c.name);
        }
        assert!(lines[0].contains("MsUntilDisplayed") && lines[0].contains("\"Odd, name\""));
        let header = lines[0].split(',').count() - 1; // the quoted name holds one comma
        assert!(lines[1..].iter().all(|l| l.split(',').count() == header));
        let dropped: Vec<&str> = lines[1..].iter().filter_map(|l| l.split(',').nth(4)).collect();
        assert_eq!(dropped.iter().filter(|&&d| d == "1").count(), t.dropped_count());
        assert_eq!(lines[21].split(',').take(5).last(), Some(if t.frames.dropped[20] { "1" } else { "0" }));
        assert!(t.frames.dropped[20], "frame 20 has no display data");
        // A range is clamped and keeps the trace's frame indices.
        let part = frames_csv(&t, 38..100);
        assert_eq!(part.lines().count(), 3);
        assert!(part.lines().nth(1).unwrap().starts_with("38,"));
        assert_eq!(frames_csv(&t, 50..60).lines().count(), 1);
    }

    #[test]
    fn png_round_trips() {
        let dir = std::env::temp_dir().join(format!("framescope-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shot.png");
        let pixels = (0..12 * 7).map(|i| egui::Color32::from_rgb(i as u8, 2 * i as u8, 255)).collect();
        let image = egui::ColorImage::new([12, 7], pixels);
        save_png(&path, &image).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]));
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (12, 7));
        assert_eq!(&buf[4..8], &[1, 2, 255, 255]);
        let bad = egui::ColorImage { size: [3, 3], ..egui::ColorImage::default() };
        assert!(save_png(&dir.join("bad.png"), &bad).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn default_names_are_safe() {
        let cap = PathBuf::from("/data/run 1.csv");
        // Issue 20: no spaces, no doubled separators, the application not repeated.
        assert_eq!(default_name(&cap, "a/b:c*?.exe", false, "json"), "run_1-a_b_c.json");
        assert_eq!(default_name(&cap, "Game.EXE", true, "csv"), "run_1-Game-selection.csv");
        assert_eq!(default_name(Path::new("x<y>|z\".csv"), "", false, "png"), "x_y_z.png");
        assert_eq!(default_name(Path::new(""), "g.exe", false, ".png"), "capture-g.png");
        assert_eq!(default_name(&cap, "a\\b\u{7}", false, "csv"), "run_1-a_b.csv");
        let unreal = Path::new("example_ unreal-csvprofile-example.csv");
        assert_eq!(
            default_name(unreal, "example_ unreal-csvprofile-example", false, "json"),
            "example_unreal-csvprofile-example.json"
        );
        let fv = Path::new("FrameView_AlanWake2_run1_Log.csv");
        assert_eq!(default_name(fv, "AlanWake2.exe", false, "png"), "FrameView_AlanWake2_run1_Log.png");
        assert_eq!(
            default_name(fv, "Other.exe", true, "png"),
            "FrameView_AlanWake2_run1_Log-Other-selection.png"
        );
    }
}
