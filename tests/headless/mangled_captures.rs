//! Hundreds of mangled copies of real captures load without a panic and keep the
//! model's invariants (`Capture::validate`), in the library and through the binary.
//!
//! Bad input is normal input: a truncated, malformed, huge or hostile file must give a
//! clear message that names the file and the line, never a panic or a hang, and input
//! files are never written to. Helpers: `common::bad`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::bad::*;
use common::mangle::{XorShift, mangle};
use common::{TempDir, read_real_trace, real_traces};
use framescope_core::model::{Capture, Format};
use std::path::Path;
use std::time::Instant;

// ---------------------------------------------------------------------------------
// 4. Mangled real captures: no panic, invariants hold.
// ---------------------------------------------------------------------------------

/// The model's invariants on a loaded capture ([`Capture::validate`]), and what only the
/// input can tell: no warning and no frame names a line past the input's last; returns
/// what is broken.
fn broken_invariants(c: &Capture, input: &[u8]) -> Vec<String> {
    // Lines end at `\n`, `\r\n` or a lone `\r` (a flipped byte can leave one behind).
    let lone_cr = input.windows(2).filter(|w| w[0] == b'\r' && w[1] != b'\n').count()
        + usize::from(input.last() == Some(&b'\r'));
    let max_line = (input.split(|&b| b == b'\n').count() + lone_cr) as u64;
    let mut out: Vec<String> = c.validate().err().map(|e| e.to_string()).into_iter().collect();
    for w in all_warnings(c) {
        if w.line.is_some_and(|l| l > max_line + 1) {
            out.push(format!("warning line {:?} outside 1..={}: {}", w.line, max_line + 1, w.message));
        }
    }
    // A frame's `line` is its file line in text captures, and its 1-based place in the
    // run's arrays in CapFrameX JSON.
    if c.info.format != Format::CapFrameXJson {
        for (ti, t) in c.traces.iter().enumerate() {
            if let Some(l) = t.frames.line.iter().find(|&l| l > max_line) {
                out.push(format!("trace {ti}: frame line {l} past the input's last line {max_line}"));
            }
        }
    }
    out
}

#[test]
fn mangled_real_captures_never_panic_and_keep_invariants() {
    const PER_FILE: u64 = 80;
    let Some(dir) = real_traces() else { return };
    // (file, bytes kept from its start: big files are cut at a line end to save time)
    let files = [
        ("presentmon-1x/pm-1.x_FarCryNewDawn.csv", usize::MAX),
        ("presentmon-1x/pm-v1.6.0_gold_test_case_0_multiproc.csv", usize::MAX),
        ("presentmon-2x/pm-v2.4plus_gold_test_case_5_default_pcl.csv", usize::MAX),
        ("presentmon-2x/pm-v2.0.0_gold_test_case_0_qpc.csv", usize::MAX),
        ("presentmon-2x/pm-v2.3.0_gold_test_case_5_frametype.csv", usize::MAX),
        ("ocat/OCAT-MetroExodus.exe-2019-02-20T101522.csv", usize::MAX),
        ("frameview/FrameView-1.6-format_Police2_windowed_dropped.csv", 120_000),
        ("capframex/capframex-legacy-csv_ResidentEvil2_with_header.csv", 120_000),
        ("mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run1.csv", usize::MAX),
        ("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv", usize::MAX),
        ("msi-afterburner/RE3_Windows_afterburner.csv", usize::MAX),
        // Whole (a cut JSON document is only an error); 80 parses of 1.4 MB.
        ("capframex/CapFrameX-Judgment.exe-2022-12-14T163430.json", usize::MAX),
    ];
    let keep = TempDir::new("mangled");
    let mut failures = Vec::new();
    let mut tried = 0;
    let mut loaded = 0;
    let started = Instant::now();
    for (fi, (rel, cap)) in files.iter().enumerate() {
        let Some(mut original) = read_real_trace(&dir, rel) else { continue };
        if original.len() > *cap {
            let end = original[..*cap].iter().rposition(|&b| b == b'\n').map_or(*cap, |i| i + 1);
            original.truncate(end);
        }
        let name = Path::new(rel).file_name().unwrap().to_string_lossy().into_owned();
        for seed in 0..PER_FILE {
            let mut rng = XorShift::new(seed * 7919 + fi as u64 + 1);
            let (bytes, what) = mangle(&original, &mut rng);
            tried += 1;
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| load(&name, &bytes)));
            let problems = match &result {
                Err(_) => vec!["panicked".to_owned()],
                Ok(Ok(c)) => {
                    loaded += 1;
                    broken_invariants(c, &bytes)
                }
                Ok(Err(e)) => {
                    let text = e.to_string();
                    if text.starts_with(&name) {
                        vec![]
                    } else {
                        vec![format!("error does not name the file: {text}")]
                    }
                }
            };
            if !problems.is_empty() {
                let saved = keep.file(&format!("{name}.seed{seed}"), &bytes);
                failures.push(format!(
                    "{rel} seed {seed} ({what}): {} [input kept at {} until the test ends]",
                    problems.join("; "),
                    saved.display()
                ));
            }
        }
    }
    eprintln!("{tried} mangled captures, {loaded} loaded, in {:?}", started.elapsed());
    assert!(tried > 0, "no real capture was found to mangle");
    assert!(loaded > 0, "no mangled capture loaded at all");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mangled_real_captures_through_the_binary_exit_0_or_1_with_json() {
    let Some(dir) = real_traces() else { return };
    let Some(original) = read_real_trace(&dir, "presentmon-1x/pm-1.x_csgo_d3d9_dropped.csv") else { return };
    let tmp = TempDir::new("mangled_cli");
    for seed in 0..12 {
        let mut rng = XorShift::new(seed + 1000);
        let (bytes, what) = mangle(&original, &mut rng);
        let path = tmp.file(&format!("m{seed}.csv"), &bytes);
        for source in ["presents", "display"] {
            let (run, doc) = report(&[
                "--trace".as_ref(),
                "all".as_ref(),
                "--frame-time".as_ref(),
                source.as_ref(),
                path.as_os_str(),
            ]);
            no_panic_text(&run);
            assert!(
                matches!(run.code, 0 | 1),
                "seed {seed} ({what}), {source}: exit {}: {}",
                run.code,
                run.stderr
            );
            assert!(doc["runs"].as_array().is_some_and(|r| !r.is_empty()), "{doc}");
        }
    }
}

#[test]
fn tiny_and_extreme_captures_through_the_binary_do_not_panic() {
    let tmp = TempDir::new("tiny");
    let dropped = |i: usize, ft: &str| {
        row(i, ft).replace("Flip,0,", "Flip,1,").replace(",16.0,0.5,2.0,5.0", ",0,0.5,2.0,0")
    };
    let cases = [
        ("one_frame.csv", format!("{HEADER}\n{}\n", row(0, "16.0"))),
        ("all_dropped.csv", format!("{HEADER}\n{}\n{}\n", dropped(0, "16.0"), dropped(1, "16.0"))),
        (
            "extreme.csv",
            format!(
                "{HEADER}\n{}\n{}\n{}\n{}\n",
                row(0, "1e-300"),
                row(1, "1e300"),
                row(2, "1.7976931348623157e308"),
                row(3, "16.0")
            ),
        ),
    ];
    for (name, text) in cases {
        let path = tmp.file(name, text.as_bytes());
        for source in ["presents", "display"] {
            let (run, doc) = report(&["--frame-time".as_ref(), source.as_ref(), path.as_os_str()]);
            no_panic_text(&run);
            if (name, source) == ("all_dropped.csv", "display") {
                // No displayed frame: no frame under the display source, so the file
                // holds none (`cli-report.md`: exit 1, issue 34).
                assert_eq!(run.code, 1, "{name} {source}: {}", run.stderr);
                let msg = doc["runs"][0]["error"]["message"].as_str().unwrap_or_default();
                assert!(msg.contains("no frames under --frame-time display"), "{doc}");
                continue;
            }
            assert_eq!(run.code, 0, "{name} {source}: {}", run.stderr);
            assert!(doc["runs"][0]["error"].is_null(), "{name} {source}: {doc}");
        }
    }
    // Frame times below 1 ns or above 11 days are no real frames: skipped and
    // counted, so no sum overflows and no figure turns infinite.
    let extreme = tmp.0.join("extreme.csv");
    let (_, doc) = report(&[extreme.as_os_str()]);
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 1, "{run}");
    let w = run["warnings"].to_string();
    assert!(w.contains("frame time is implausible") && w.matches("\"line\"").count() == 3, "{w}");
    assert!(run["summary"]["avg_fps"].as_f64().is_some_and(|v| (v - 62.5).abs() < 1e-9), "{run}");
}
