//! Trimming (`metrics.md` §1, issue 13) through the real binary: `--trim-start` and
//! `--trim-end` give exactly the figures of the same capture cut by hand at those
//! times, are echoed in `settings`, and every comparison and gate uses the trimmed
//! runs. On the two Alan Wake 2 runs, 3 s of loading screen left out bring Steady FPS
//! from 23 and 56 to 65 and 64.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::temp_file as temp;

use common::{framescope, real_traces, report_json};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;

use common::PM1_HEADER as HEADER;

/// One frame: its present time and frame time in whole microseconds (so the hand cut
/// below is exact integer arithmetic), and its row.
struct Frame {
    present_us: i64,
    ft_us: i64,
    row: String,
}

/// About 12 s of a benchmark: 1.5 s of loading-screen hitches (40–190 ms frames), then
/// gameplay at 10–11 ms with a 32 ms spike every 97 frames and every 53rd frame
/// dropped, then 0.6 s of a 5 ms menu. The clock starts at 1234.5 s, as FrameView's and
/// PresentMon's do (seconds since the tool started).
fn frames() -> Vec<Frame> {
    let mut out = Vec::new();
    let mut t: i64 = 1_234_500_000;
    let mut push = |i: usize, ft_us: i64| {
        t += ft_us;
        let dropped = i % 53 == 52;
        let ft = ft_us as f64 / 1000.0;
        let (d, shown, until) = if dropped { (1, 0.0, 0.0) } else { (0, ft, 4.0 + (i % 7) as f64 * 0.25) };
        let row = format!(
            "game.exe,42,0x1,DXGI,0,0,0,Hardware: Independent Flip,{d},{:.6},{ft:.3},{shown:.3},0.4,1.5,{until:.3}",
            t as f64 / 1e6
        );
        out.push(Frame { present_us: t, ft_us, row });
    };
    let mut i = 0;
    let mut loading = 0;
    while loading < 1_500_000 {
        let ft = 40_000 + (i as i64 * 37_000) % 150_000;
        push(i, ft);
        loading += ft;
        i += 1;
    }
    for k in 0..950_i64 {
        let ft = if k % 97 == 50 { 32_000 } else { 10_000 + (k * 7919) % 1_000 };
        push(i, ft);
        i += 1;
    }
    for _ in 0..120 {
        push(i, 5_000);
        i += 1;
    }
    out
}

fn text(frames: &[&Frame]) -> String {
    let mut s = format!("{HEADER}\n");
    for f in frames {
        writeln!(s, "{}", f.row).unwrap();
    }
    s
}

/// The frames `metrics.md` §1 keeps with a trim of `a` µs at the start and `b` µs at
/// the end: interval `[present − ft, present]` starting at or after `t₀ + a` and ending
/// at or before `t₁ − b`.
fn cut_by_hand(frames: &[Frame], a: i64, b: i64) -> Vec<&Frame> {
    let t0 = frames[0].present_us - frames[0].ft_us;
    let t1 = frames[frames.len() - 1].present_us;
    frames.iter().filter(|f| f.present_us - f.ft_us >= t0 + a && f.present_us <= t1 - b).collect()
}

/// A run's JSON without what names the file or depends on where the time axis starts.
fn figures(run: &Value) -> Value {
    let mut run = run.clone();
    let o = run.as_object_mut().unwrap();
    o.remove("file");
    o.remove("warnings");
    if let Some(v) = o.get_mut("vsync").and_then(Value::as_object_mut) {
        v.remove("anchor_ms");
    }
    run
}

#[test]
fn trimmed_figures_equal_the_capture_cut_by_hand() {
    let all = frames();
    let whole = temp("whole.csv", &text(&all.iter().collect::<Vec<_>>()));
    // Trims that fall inside frames (not on a boundary), at the start, the end and both.
    for (a_s, b_s) in [(1.6005, 0.0), (0.0, 0.7003), (1.6005, 0.7003), (2.25, 3.1)] {
        let (a, b) = ((a_s * 1e6_f64).round() as i64, (b_s * 1e6_f64).round() as i64);
        let kept = cut_by_hand(&all, a, b);
        assert!(kept.len() > 100 && kept.len() < all.len(), "{a_s} {b_s}: {}", kept.len());
        let by_hand = temp("cut.csv", &text(&kept));
        let (code, trimmed) = report_json([
            "--trim-start".as_ref(),
            a_s.to_string().as_ref(),
            "--trim-end".as_ref(),
            b_s.to_string().as_ref(),
            whole.as_os_str(),
        ]);
        assert_eq!(code, 0, "{trimmed}");
        assert_eq!(trimmed["settings"]["trim_start_s"], a_s);
        assert_eq!(trimmed["settings"]["trim_end_s"], b_s);
        let (code, cut) = report_json([&by_hand]);
        assert_eq!(code, 0);
        let (t, c) = (&trimmed["runs"][0], &cut["runs"][0]);
        assert_eq!(t["frames"].as_u64(), Some(kept.len() as u64));
        assert_eq!(figures(t), figures(c), "trim {a_s} s / {b_s} s");
    }
    // The untrimmed report echoes zeros and has every frame.
    let (_, doc) = report_json([&whole]);
    assert_eq!(doc["settings"]["trim_start_s"], 0.0);
    assert_eq!(doc["settings"]["trim_end_s"], 0.0);
    assert_eq!(doc["runs"][0]["frames"].as_u64(), Some(all.len() as u64));
}

#[test]
fn a_trim_longer_than_the_run_fails_naming_it() {
    let all = frames();
    let whole = temp("short.csv", &text(&all.iter().collect::<Vec<_>>()));
    let run = framescope(["report".as_ref(), "--trim-start".as_ref(), "60".as_ref(), whole.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stderr.contains("nothing is left after trimming"), "{}", run.stderr);
    let bad = framescope(["report".as_ref(), "--trim-end".as_ref(), "-1".as_ref(), whole.as_os_str()]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}

fn alan_wake() -> Option<(PathBuf, PathBuf)> {
    let dir = real_traces()?.join("frameview");
    let pick = |run: &str| {
        std::fs::read_dir(&dir)
            .expect("frameview folder")
            .flatten()
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().contains(&format!("AlanWake2_DLSSQuality_{run}")))
            .expect("Alan Wake 2 run")
    };
    Some((pick("run1"), pick("run2")))
}

fn steady(doc: &Value, i: usize) -> u64 {
    doc["runs"][i]["pacing"]["steady_fps"].as_u64().expect("steady_fps")
}

/// Both runs open with about 3 s of loading stutter: Steady FPS 23 and 56 become 65 and
/// 64 once those seconds are left out (issue 13).
#[test]
fn alan_wake_runs_trimmed_by_3_s_agree() {
    let Some((a, b)) = alan_wake() else { return };
    let (code, whole) = report_json([&a, &b]);
    assert_eq!(code, 0);
    assert_eq!((steady(&whole, 0), steady(&whole, 1)), (23, 56));
    let (code, trimmed) = report_json(["--trim-start".as_ref(), "3".as_ref(), a.as_os_str(), b.as_os_str()]);
    assert_eq!(code, 0);
    assert_eq!((steady(&trimmed, 0), steady(&trimmed, 1)), (65, 64));
    assert_eq!(trimmed["settings"]["trim_start_s"], 3.0);

    // The comparison and the gate use the trimmed runs: run 1 against run 2 loses 59 %
    // of its Steady FPS untrimmed (56 → 23), 1.5 % trimmed (64 → 65 is a gain the other
    // way round).
    let gate = |trim: &str| {
        let run = framescope([
            "compare".as_ref(),
            "--json".as_ref(),
            "--trim-start".as_ref(),
            trim.as_ref(),
            "--fail-if-worse".as_ref(),
            "steady_fps=10%".as_ref(),
            b.as_os_str(),
            a.as_os_str(),
        ]);
        let doc: Value = serde_json::from_str(&run.stdout).expect("JSON");
        (run.code, doc)
    };
    let (code, doc) = gate("0");
    assert_eq!(code, 3);
    assert_eq!(doc["comparison"]["pacing"]["steady_fps"]["other"], 23.0);
    let (code, doc) = gate("3");
    assert_eq!(code, 0, "{}", doc["comparison"]["pacing"]["steady_fps"]);
    assert_eq!(doc["comparison"]["pacing"]["steady_fps"]["baseline"], 64.0);
    assert_eq!(doc["comparison"]["pacing"]["steady_fps"]["other"], 65.0);
    assert_eq!(doc["settings"]["trim_start_s"], 3.0);
}
