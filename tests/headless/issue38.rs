//! Issue 38: efficiency (`metrics.md` §15) against FrameView's own summary files, and a
//! sampled log's own tool figures (§10) against what RTSS and the NVIDIA App wrote in
//! the logs — both read here independently of framescope's readers.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{real_traces, repo_file, report_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `v` written with as many decimals as `printed` has ("149" → 0, "43.721" → 3).
fn as_printed(v: f64, printed: &str) -> String {
    let decimals = printed.split_once('.').map_or(0, |(_, d)| d.len());
    format!("{v:.decimals$}")
}

/// True for a `.csv` file name.
fn is_csv(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"))
}

/// The files of `dir` whose names pass `keep`, sorted.
fn files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    out.sort();
    out
}

/// Every `FrameView_Summary*.csv` in the real traces, against the log it summarises
/// (matched by the `_YYYY_MM_DDTHHMMSS_Log.csv` end of its `Log Name`): FrameView's
/// "GPU NV Power (Watts) (API)", "CPU Package Power(Watts)" and "Perf/Watt (F/J)
/// (PCAT)" are `conventions.frameview`'s, to the decimals FrameView printed; framescope's
/// own efficiency divides the average FPS by its time-weighted powers.
#[test]
fn frameview_power_equals_frameviews_own_summaries() {
    let Some(traces) = real_traces() else { return };
    let dir = traces.join("frameview");
    let mut checked = 0;
    for summary in files(&dir, |n| n.starts_with("FrameView_Summary") && is_csv(n)) {
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_path(&summary).expect("summary");
        let header: Vec<String> = reader.headers().expect("header").iter().map(str::to_owned).collect();
        for row in reader.records() {
            let row = row.expect("row");
            let field =
                |name: &str| row.get(header.iter().position(|h| h == name).expect(name)).unwrap().trim();
            let log_name = field("Log Name");
            let stamp = &log_name[log_name.len() - "2024_04_17T051708_Log.csv".len()..];
            let logs = files(&dir, |n| n.ends_with(stamp) && !n.starts_with("FrameView_Summary"));
            let [log] = logs.as_slice() else { panic!("{log_name}: logs {logs:?}") };
            let (code, doc) = report_json([log.as_os_str()]);
            assert_eq!(code, 0);
            let run = &doc["runs"][0];
            let fv = &run["conventions"]["frameview"];
            for (key, column) in [
                ("average_fps", "Avg FPS"),
                ("gpu_nv_power_w", "GPU NV Power (Watts) (API)"),
                ("cpu_package_power_w", "CPU Package Power(Watts)"),
            ] {
                let printed = field(column);
                let ours = fv[key].as_f64().unwrap_or(f64::NAN);
                assert_eq!(as_printed(ours, printed), printed, "{}: {key} {ours}", log.display());
            }
            let pcat = field("Perf/Watt (F/J) (PCAT)");
            match pcat {
                "NA" => assert!(fv["perf_per_watt_pcat"].is_null()),
                p => assert_eq!(as_printed(fv["perf_per_watt_pcat"].as_f64().unwrap(), p), p),
            }
            let e = &run["efficiency"];
            let avg = run["summary"]["avg_fps"].as_f64().unwrap();
            let p = e["power_mean_w"].as_f64().unwrap();
            assert!(common::close(e["fps_per_watt"].as_f64().unwrap(), avg / p));
            // Time-weighted, not FrameView's row mean, but the same power within 0.5 %.
            assert!((p / fv["gpu_nv_power_w"].as_f64().unwrap() - 1.0).abs() < 0.005, "{p}");
            assert_eq!(e["power_source"], "NV Pwr(W) (API)");
            checked += 1;
        }
    }
    assert!(checked >= 1, "no FrameView summary in {}", dir.display());
}

/// An Afterburner log read here: per logging session (a step longer than 5 × the
/// median positive step starts one, `metrics.md` §10), the rows after its first with a
/// `Framerate` above 0 (its samples), each as its cells by column name.
fn afterburner_sessions(path: &Path) -> Vec<Vec<Vec<(String, String)>>> {
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let fields = |line: &str| line.split(',').map(|f| f.trim().to_owned()).collect::<Vec<_>>();
    let mut names: Vec<String> = Vec::new();
    let mut rows: Vec<(i64, Vec<(String, String)>)> = Vec::new();
    for line in text.lines() {
        let f = fields(line);
        match f[0].trim_start_matches('0') {
            "2" => names = f[2..].to_vec(),
            "80" => {
                let (date, time) = f[1].split_once(' ').unwrap();
                let hms: Vec<i64> = time.split(':').map(|x| x.parse().unwrap()).collect();
                let day: i64 = date[..2].parse().unwrap();
                let t = ((day * 24 + hms[0]) * 60 + hms[1]) * 60 + hms[2];
                let mut seen = std::collections::HashSet::new();
                let cells = names
                    .iter()
                    .zip(&f[2..])
                    .filter(|(n, _)| !n.is_empty() && seen.insert(n.to_ascii_lowercase()))
                    .map(|(n, v)| (n.clone(), v.clone()))
                    .collect();
                rows.push((t, cells));
            }
            _ => {}
        }
    }
    let mut steps: Vec<i64> = rows.windows(2).map(|w| w[1].0 - w[0].0).filter(|s| *s > 0).collect();
    steps.sort_unstable();
    let median = steps[steps.len() / 2];
    let mut sessions: Vec<Vec<Vec<(String, String)>>> = Vec::new();
    let mut last_t = i64::MIN;
    for (t, cells) in rows {
        if last_t == i64::MIN || t - last_t > 5 * median {
            sessions.push(Vec::new()); // the first row opens the session
        } else {
            let rate = cells.iter().find(|(n, _)| n == "Framerate").and_then(|(_, v)| v.parse::<f64>().ok());
            if rate.is_some_and(|r| r > 0.0) {
                sessions.last_mut().unwrap().push(cells);
            }
        }
        last_t = t;
    }
    sessions
}

/// RTSS's figures of a session as it wrote them: the last number > 0 of each column,
/// null when the column never changes during the session (the previous benchmark's).
fn rtss_values(session: &[Vec<(String, String)>], column: &str) -> Option<f64> {
    let cell = |row: &Vec<(String, String)>| {
        row.iter().find(|(n, _)| n == column).and_then(|(_, v)| v.parse::<f64>().ok()).filter(|v| *v > 0.0)
    };
    let first = session.first().map(cell)?;
    if session.iter().all(|r| cell(r) == first) {
        return None;
    }
    session.iter().rev().find_map(cell)
}

/// The RTSS lows framescope reports for each session of an Afterburner log equal the
/// values RTSS wrote at the end of that session: on the bundled made-up log (session
/// 1 a benchmark ending at 58.0 / 39.1 / 27.7, session 2 still showing those, so null)
/// and on every real Afterburner log (whose RTSS columns, where present, are all N/A).
#[test]
fn rtss_figures_are_what_rtss_wrote_at_the_end_of_each_session() {
    let mut logs = vec![repo_file("sample-traces/afterburner-rtss-benchmark-sessions.hml")];
    if let Some(traces) = real_traces() {
        logs.extend(files(&traces.join("msi-afterburner"), |_| true));
    }
    let mut values = 0;
    for log in &logs {
        let sessions = afterburner_sessions(log);
        let (code, doc) = report_json([log.as_os_str(), "--trace".as_ref(), "all".as_ref()]);
        assert_eq!(code, 0);
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), sessions.len(), "{}", log.display());
        for (run, session) in runs.iter().zip(&sessions) {
            let t = &run["tool_figures"];
            for (key, column) in [
                ("avg_fps", "Framerate Avg"),
                ("low_1pct_fps", "Framerate 1% Low"),
                ("low_0_1pct_fps", "Framerate 0.1% Low"),
                ("min_fps", "Framerate Min"),
                ("max_fps", "Framerate Max"),
            ] {
                let want = rtss_values(session, column);
                assert_eq!(t[key].as_f64(), want, "{} {}: {key}", log.display(), run["application"]);
                values += usize::from(want.is_some());
            }
        }
    }
    assert_eq!(values, 5, "the bundled log's first session has all five");
    let (_, doc) = report_json([logs[0].as_os_str()]);
    assert_eq!(doc["runs"][0]["tool_figures"]["tool"], "rtss");
    assert_eq!(doc["runs"][0]["tool_figures"]["low_1pct_fps"], 39.1);
}

/// The NVIDIA App's `FPS 1(%) Low` in its real logs: the value of the last row of the
/// game (PID not 0, FPS above 0) with a number above 0 — the last session's.
#[test]
fn nvidia_app_low_is_its_last_value() {
    let Some(traces) = real_traces() else { return };
    for log in files(&traces.join("nvidia-app"), is_csv) {
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_path(&log).unwrap();
        let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        let (pid, fps, low) = (at("PID"), at("FPS"), at("FPS 1(%) Low"));
        let number = |r: &csv::StringRecord, i: usize| r.get(i).and_then(|v| v.trim().parse::<f64>().ok());
        let last = reader
            .records()
            .flatten()
            .filter(|r| r.len() == header.len() - 1 || r.len() == header.len())
            .filter(|r| number(r, pid).is_some_and(|p| p != 0.0) && number(r, fps).is_some_and(|f| f > 0.0))
            .filter_map(|r| number(&r, low).filter(|v| *v > 0.0))
            .last();
        let (code, doc) = report_json([log.as_os_str(), "--trace".as_ref(), "all".as_ref()]);
        assert_eq!(code, 0);
        let runs = doc["runs"].as_array().unwrap();
        let got = runs.last().map_or(Value::Null, |r| r["tool_figures"]["low_1pct_fps"].clone());
        assert_eq!(got.as_f64(), last, "{}", log.display());
        assert!(
            runs.iter().all(|r| r["tool_figures"].is_null() || r["tool_figures"]["tool"] == "nvidia-app")
        );
    }
}

/// The table says what a sampled log's lows are, and names the tool's own figures.
#[test]
fn the_table_says_sampled_lows_are_lows_of_averages() {
    let log = repo_file("sample-traces/afterburner-rtss-benchmark-sessions.hml");
    let table = common::framescope(["report".as_ref(), log.as_os_str()]).stdout;
    assert!(table.contains("lows of 1.00-second averages"), "{table}");
    assert!(
        table.contains("RTSS's benchmark, per frame (its own figures): avg 58.00   1% low 39.10"),
        "{table}"
    );
    // 5 samples of 60, 58, 62, 55, 65 FPS over 1 s each at 150, 160, 155, 150, 145 W:
    // 60 FPS ÷ 152 W = 0.395 frames per joule.
    assert!(table.contains("efficiency  GPU 0.395 FPS/W   GPU power 152.00 W"), "{table}");
}

/// A game benchmark's `frame, fps, time` export (`sample-traces/
/// generic-game-benchmark-frame-fps-time.csv`) is read without `--column`: the running
/// clock `time` (s) at 0, 0.020, 0.036, 0.061, 0.081, 0.097 gives frame times 20, 16,
/// 25, 20, 16 ms — 5 frames in 97 ms: 5000 / 97 = 51.546 FPS; sorted 16, 16, 20, 20, 25:
/// p50 20, p90 20 + 0.6 × 5 = 23 ms; min 1000 / 25 = 40, max 1000 / 16 = 62.5; the 1 %
/// low one frame (k = 1): 40. `fps` is telemetry over the 5 frames: 265 / 5 = 53. A
/// typed warning says the time column was guessed, and which.
#[test]
fn a_game_benchmark_export_is_read_without_column_names() {
    let file = repo_file("sample-traces/generic-game-benchmark-frame-fps-time.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "generic");
    assert_eq!(run["format_version"], "game benchmark (frame, fps, time)");
    assert_eq!(run["frames"], 5);
    let s = &run["summary"];
    let near = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    assert!(near(&run["duration_ms"], 97.0));
    assert!(near(&s["avg_fps"], 5000.0 / 97.0));
    assert!(near(&s["p50_ms"], 20.0) && near(&s["p90_ms"], 23.0));
    assert!(near(&s["min_fps"], 40.0) && near(&s["max_fps"], 62.5) && near(&s["low_1pct_fps"], 40.0));
    assert!(near(&run["telemetry"]["fps"]["mean"], 53.0));
    let w = &run["warnings"][0];
    assert_eq!(
        (&w["kind"], &w["column"], &w["unit"]),
        (&Value::from("guessed_time_column"), &Value::from("time"), &Value::from("s"))
    );
    // The table says so, naming the column; an explicit mapping needs no guess.
    let table = common::framescope(["report".as_ref(), file.as_os_str()]).stdout;
    assert!(
        table.contains("the time column was guessed") && table.contains("running clock 'time' (--unit s)"),
        "{table}"
    );
    let (_, mapped) = report_json([
        file.as_os_str(),
        "--column".as_ref(),
        "timestamp=time".as_ref(),
        "--unit".as_ref(),
        "s".as_ref(),
    ]);
    assert_eq!(mapped["runs"][0]["summary"], doc["runs"][0]["summary"]);
    assert!(
        mapped["runs"][0]["warnings"].as_array().unwrap().iter().all(|w| w["kind"] != "guessed_time_column")
    );
}
