//! The core's `pipeline` (what the Python package and batch call) gives the command
//! line's `report --json` document on the inputs issue 18 taught the CLI: an .etl
//! (summarised, not a failed capture), a folder holding a `.csv.gz` capture and a
//! folder that cannot be read. Before the CLI and the core shared one pipeline, the
//! core failed the .etl ("not a capture") and walked past the `.gz` file.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::etl_writer::{self, Event, Kind, Session};
use common::{TempDir, report_json};
use framescope_core::analysis::{Settings, Trim};
use framescope_core::ingest::LoadOptions;
use framescope_core::pipeline::{self, Input, Job, TraceSelector};
use framescope_core::report::RunEntry;
use std::io::Write as _;
use std::path::PathBuf;

/// The command line's defaults: the default trace, no trim, 60 fps, 20 % / 4 ms.
fn job() -> Job {
    Job { selector: TraceSelector::Default, opts: LoadOptions::default(), trim: Trim::default() }
}

/// The core's document of `args` (expanded as the command line expands them), as JSON
/// text read back the way the command line's output is (serde_json's number parsing
/// can be a last digit off, the same way on both sides).
fn core_json(args: &[PathBuf]) -> serde_json::Value {
    let inputs = pipeline::expand(args).expect("expand");
    let doc = pipeline::report(&inputs, &job(), &Settings::default(), 2);
    serde_json::from_str(&serde_json::to_string(&doc).expect("json")).expect("json")
}

#[test]
fn an_etl_is_summarised_as_on_the_command_line() {
    let dir = TempDir::new("core_pipeline_etl");
    // Two PCL markers of frame 7 (simulation start, present start) 3 ms apart on a
    // 10 MHz clock, and one input.
    let events = [(0_u64, None), (10_000, Some((0, 7))), (40_000, Some((4, 7)))].map(|(ticks, m)| Event {
        ticks: 1_000_000 + ticks,
        cpu: 0,
        pid: 10,
        kind: m.map_or(Kind::Input, |(marker, frame)| Kind::Marker { marker, frame }),
    });
    let etl = dir.file("session.etl", &etl_writer::write(&Session::default(), &events));
    let inputs = pipeline::expand(std::slice::from_ref(&etl)).expect("expand");
    let doc = pipeline::report(&inputs, &job(), &Settings::default(), 1);
    let [RunEntry::Etl(run)] = doc.runs.as_slice() else { panic!("not one .etl entry: {:?}", doc.runs) };
    let run = serde_json::to_value(run).expect("json");
    assert_eq!(run["format"], "etl");
    assert_eq!(run["etl"]["pcl"]["markers"], 2, "{run}");
    assert_eq!(run["etl"]["pcl"]["inputs"], 1, "{run}");
    let (code, cli) = report_json([etl.as_os_str()]);
    assert_eq!(code, 0, "{cli}");
    assert_eq!(core_json(&[etl]), cli);
}

#[test]
fn a_gzip_capture_in_a_folder_is_read_as_on_the_command_line() {
    let dir = TempDir::new("core_pipeline_gz");
    let sample = common::repo_file("sample-traces/synthetic-run-a.csv");
    let text = std::fs::read(&sample).expect("sample");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).expect("compress");
    dir.file("run.csv.gz", &gz.finish().expect("compress"));
    let folder = dir.file("notes.md", b"not a capture").parent().expect("folder").to_path_buf();
    let doc = core_json(std::slice::from_ref(&folder));
    let runs = doc["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "{doc}");
    assert!(runs[0]["file"].as_str().expect("file").ends_with("run.csv.gz"));
    assert!(runs[0].get("error").is_none(), "{doc}");
    let plain = core_json(&[sample]);
    assert_eq!(runs[0]["summary"], plain["runs"][0]["summary"]);
    let (code, cli) = report_json([folder.as_os_str()]);
    assert_eq!(code, 0, "{cli}");
    assert_eq!(doc, cli);
}

/// A folder the walk could not read (an `UnreadableFolder` input, as
/// `pipeline::inputs`' unit test makes it) is a failed run in the core's document too.
#[test]
fn an_input_that_cannot_be_read_is_a_failed_run_not_a_missing_one() {
    let inputs = [Input::UnreadableFolder("runs/locked".into(), "cannot read this folder".into())];
    let doc = pipeline::report(&inputs, &job(), &Settings::default(), 1);
    let [RunEntry::Failed(failed)] = doc.runs.as_slice() else { panic!("{:?}", doc.runs) };
    let failed = serde_json::to_value(failed).expect("json");
    assert_eq!(failed["file"], "runs/locked");
    assert_eq!(failed["error"]["message"], "runs/locked: cannot read this folder", "{failed}");
}

/// The front door (`framescope_core::open`, `Capture::analyze`) gives the document
/// `framescope report --json FILE` prints, byte for byte, on every bundled sample
/// capture; a file the command line fails is an error here too, and so is one without
/// frames.
#[test]
fn the_front_door_gives_the_command_lines_report() {
    let dir = common::repo_file("sample-traces");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csv" && e != "hml") {
            continue;
        }
        let run = common::framescope(["report".as_ref(), "--json".as_ref(), path.as_os_str()]);
        let opened = framescope_core::open(&path, &LoadOptions::default());
        if run.code != 0 {
            // A file the command line fails (a CSV whose columns must be named) fails here too.
            assert!(opened.is_err(), "{}", path.display());
            continue;
        }
        let report = opened.unwrap().analyze(&Settings::default()).unwrap();
        let mut doc = serde_json::to_string_pretty(&report).unwrap();
        doc.push('\n');
        assert_eq!(doc, run.stdout, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} samples");
    let empty = TempDir::new("front-door-empty");
    let file = empty.file("zero.csv", format!("{}\n", common::PM1_HEADER).as_bytes());
    let err = framescope_core::open(&file, &LoadOptions::default()).map(|c| c.analyze(&Settings::default()));
    assert!(matches!(err, Err(_) | Ok(Err(_))), "a capture without frames is no report");
}
