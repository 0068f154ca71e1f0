//! `framescope report --format parquet` and `framescope frames` (issue 23): the runs
//! table as Parquet (a row per run, failed files too), the per-frame table as CSV or
//! Parquet whose flags count what the report counts, and the exit statuses. (That
//! polars, pandas and DuckDB read the files with the JSON's values is checked by the
//! Python tests, `crates/framescope-py/tests`.)
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{framescope, repo_file, temp_file};
use parquet::file::reader::{FileReader, SerializedFileReader};
use serde_json::Value;

fn parquet_rows(path: &std::path::Path) -> (i64, Vec<String>) {
    let reader =
        SerializedFileReader::new(std::fs::File::open(path).expect("parquet file")).expect("parquet");
    let meta = reader.metadata().file_metadata();
    let names = meta.schema_descr().columns().iter().map(|c| c.name().to_owned()).collect();
    (meta.num_rows(), names)
}

#[test]
fn report_parquet_has_a_row_per_run_and_the_csv_columns() {
    let good = repo_file("sample-traces/synthetic-run-a.csv");
    let bad = temp_file("bad.csv", "speed,colour\n1,red\n");
    let out = temp_file("runs.parquet", "");
    let run = framescope([
        "report".as_ref(),
        "--format".as_ref(),
        "parquet".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
        good.as_os_str(),
        bad.as_os_str(),
    ]);
    // Exit 1: a file failed, and its row is in the table all the same.
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("bad.csv:1:"), "{}", run.stderr);
    let (rows, names) = parquet_rows(&out);
    assert_eq!(rows, 2);
    assert_eq!(names, framescope_core::report::BATCH_COLUMNS);
}

#[test]
fn parquet_needs_an_output_file_and_an_output_file_needs_parquet() {
    let good = repo_file("sample-traces/synthetic-run-a.csv");
    let run = framescope(["report".as_ref(), "--format".as_ref(), "parquet".as_ref(), good.as_os_str()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = framescope([
        "report".as_ref(),
        "--json".as_ref(),
        "-o".as_ref(),
        "x.parquet".as_ref(),
        good.as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = framescope(["frames".as_ref(), "--format".as_ref(), "parquet".as_ref(), good.as_os_str()]);
    assert_eq!(run.code, 2, "Parquet is never written to standard output: {}", run.stderr);
    let run = framescope(["frames".as_ref(), repo_file("sample-traces").as_os_str()]);
    assert_eq!(run.code, 2, "frames reads one file, not a folder: {}", run.stderr);
}

/// The CSV's rows are the trace's frames; its `stutter` and `spike.<action>` cells count
/// the report's stutters and spikes; the Parquet file has as many rows.
#[test]
fn frames_table_counts_what_the_report_counts() {
    let file = repo_file("sample-traces/synthetic-run-a.csv");
    let report = framescope(["report".as_ref(), "--json".as_ref(), file.as_os_str()]);
    let doc: Value = serde_json::from_str(&report.stdout).expect("report JSON");
    let run = &doc["runs"][0];
    let csv = framescope(["frames".as_ref(), file.as_os_str()]);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let mut reader = csv::Reader::from_reader(csv.stdout.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let count = |name: &str| {
        let k = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
        rows.iter().filter(|r| &r[k] == "true").count()
    };
    assert_eq!(count("analysed") as u64, run["frames"].as_u64().unwrap());
    assert_eq!(count("stutter") as u64, run["stutters"]["count"].as_u64().unwrap());
    for (action, frames) in run["health"]["spikes"].as_object().unwrap() {
        assert_eq!(count(&format!("spike.{action}")), frames.as_array().unwrap().len(), "{action}");
    }
    let out = temp_file("frames.parquet", "");
    let run = framescope(["frames".as_ref(), file.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (n, names) = parquet_rows(&out);
    assert_eq!((n as usize, names), (rows.len(), header));
    let bad = temp_file("bad.csv", "speed,colour\n1,red\n");
    let run = framescope(["frames".as_ref(), bad.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("bad.csv:1:"), "the error names the file and line: {}", run.stderr);
}

/// A capture of `app` whose present mode and one column name would be spreadsheet
/// formulas, and whose telemetry column holds negative numbers.
fn formula_capture(name: &str, app: &str) -> std::path::PathBuf {
    let mut csv = String::from("Application,ProcessID,PresentMode,MsBetweenPresents,-2+3\n");
    for i in 0..40 {
        let _ = std::fmt::Write::write_fmt(
            &mut csv,
            format_args!(
                "\"{}\",7,\"=HYPERLINK(\"\"x\"\")\",{},-1.5\n",
                app.replace('"', "\"\""),
                10 + i % 3
            ),
        );
    }
    temp_file(name, &csv)
}

/// Issue 34: text cells a spreadsheet would read as formulas (`=`, `+`, `-`, `@`, tab,
/// carriage return first) get a leading `'` in every CSV the command line writes
/// (`report --format csv`, `frames`); numbers, negative ones too, stay numbers.
#[test]
fn csv_text_cells_never_start_a_formula() {
    let calc = formula_capture("calc.csv", "=cmd|' /C calc'!A0");
    let sum = formula_capture("sum.csv", "-2+3");
    let run = framescope([
        "report".as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
        calc.as_os_str(),
        sum.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut reader = csv::Reader::from_reader(run.stdout.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(&rows[0][at("application")], "'=cmd|' /C calc'!A0");
    assert_eq!(&rows[1][at("application")], "'-2+3");
    assert_eq!(&rows[0][at("present_modes")], "'=HYPERLINK(\"x\")");
    assert_eq!(&rows[0][at("frames")], "40", "numbers are written as numbers");
    assert!(!run.stdout.contains(",'1") && !run.stdout.contains(",'-1"), "no number is prefixed");

    let run = framescope(["frames".as_ref(), calc.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut reader = csv::Reader::from_reader(run.stdout.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    assert!(header.contains(&"'-2+3".to_owned()), "a column named like a formula: {header:?}");
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 40);
    assert_eq!(&rows[0][at("present_mode")], "'=HYPERLINK(\"x\")");
    assert_eq!(&rows[0][at("'-2+3")], "-1.5", "a negative number stays a number");
    assert_eq!(&rows[0][at("frame_time_ms")], "10");
}
