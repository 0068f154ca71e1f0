//! Issue 21 end to end: the limiter and animation error in `report` (JSON, table, batch
//! CSV), latency and limiter rows in `compare` for two runs and for sets (Welch's interval
//! worked by hand), the latency gate failing with exit 3, and the Cyberpunk DLAA vs
//! DLSS-FG comparison showing FPS up and latency up together.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{close, framescope, real_traces, temp_file};
use serde_json::Value;
use std::fmt::Write as _;

/// A PresentMon 2.4 capture of `n` frames of 10 ms, each with CPU busy `cpu`, CPU wait
/// `10 − cpu`, GPU busy `gpu` and PC latency `pcl`.
fn capture(name: &str, n: usize, cpu: f64, gpu: f64, pcl: f64) -> std::path::PathBuf {
    let mut text = String::from(
        "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsBetweenDisplayChange,MsUntilDisplayed,\
         MsCPUBusy,MsCPUWait,MsGPUBusy,MsPCLatency,MsAnimationError\n",
    );
    for i in 0..n {
        let e = if i % 2 == 0 { 0.5 } else { -1.5 };
        let _ = writeln!(text, "g.exe,1,0x1,10,10,2,{cpu},{},{gpu},{pcl},{e}", 10.0 - cpu);
    }
    temp_file(name, &text)
}

fn json(args: &[&std::ffi::OsStr]) -> (i32, Value) {
    let run = framescope(args);
    let doc = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stderr));
    (run.code, doc)
}

#[test]
fn report_has_limiter_json_table_and_csv() {
    // 100 frames, fc 10, CPU 9.5 ≥ 9, GPU 6 < 9 → CPU-limited throughout: CPU 100 %,
    // GPU busy share 600/1000 = 60 %, CapFrameX deviation round(40) = 40. Animation error
    // alternates 0.5 / −1.5: |e| p99 = 1.5, over 1 ms 50 %.
    let f = capture("limiter-cpu.csv", 100, 9.5, 6.0, 30.0);
    let (code, doc) = json(&["report".as_ref(), "--json".as_ref(), f.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["limiter"]["main"], "cpu");
    assert_eq!(run["limiter"]["classified_frames"], 100);
    assert!(close(run["limiter"]["cpu_time_fraction"].as_f64().unwrap(), 1.0));
    assert!(close(run["limiter"]["gpu_busy_share"].as_f64().unwrap(), 0.6));
    assert_eq!(run["conventions"]["capframex"]["gpu_active_deviation_pct"], 40.0);
    assert!(close(run["latency"]["animation_error_p99_abs_ms"].as_f64().unwrap(), 1.5));
    assert!(close(run["latency"]["animation_error_over_1ms_fraction"].as_f64().unwrap(), 0.5));
    let table = framescope(["report".as_ref(), f.as_os_str()]).stdout;
    assert!(
        table.contains("  limiter  GPU 0 % · CPU 100 % · neither 0 %  (GPU busy 60 % of frame time)"),
        "{table}"
    );
    let csv = framescope(["report".as_ref(), "--format".as_ref(), "csv".as_ref(), f.as_os_str()]).stdout;
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |key: &str| row[header.iter().position(|h| *h == key).unwrap_or_else(|| panic!("{key}"))];
    assert_eq!(at("limiter.main"), "cpu");
    assert_eq!(at("limiter.cpu_time_fraction"), "1.0");
    assert_eq!(at("latency.animation_error_over_1ms_fraction"), "0.5");
}

#[test]
fn compare_rows_and_the_latency_gate() {
    // Baseline GPU-limited (GPU 9.5), PC latency 40; other CPU-limited, PC latency 44
    // (+10 %). Limiter rows have no verdict; latency lower is better.
    let a = capture("limiter-a.csv", 50, 5.0, 9.5, 40.0);
    let b = capture("limiter-b.csv", 50, 9.5, 5.0, 44.0);
    let args = |gate: &'static str| {
        vec!["compare".into(), "--json".into(), a.clone(), b.clone(), "--fail-if-worse".into(), gate.into()]
    };
    let args_of =
        |v: Vec<std::path::PathBuf>| v.into_iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
    let run = framescope(args_of(args("latency.pc_latency_column_mean_ms=5%")));
    assert_eq!(run.code, 3, "PC latency +10 % against a 5 % limit fails the gate: {}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let c = &doc["comparison"];
    assert_eq!(c["latency"]["pc_latency_column_mean_ms"]["better"], false);
    assert!(close(c["latency"]["pc_latency_column_mean_ms"]["relative"].as_f64().unwrap(), 0.1));
    assert_eq!(c["limiter"]["gpu_time_fraction"]["delta"], -1.0);
    assert_eq!(c["limiter"]["gpu_time_fraction"]["better"], Value::Null);
    assert_eq!(c["limiter"]["cpu_time_fraction"]["other"], 1.0);
    assert_eq!(doc["regressions"][0]["figure"], "latency.pc_latency_column_mean_ms");
    let run = framescope(args_of(args("latency.pc_latency_column_mean_ms=15%")));
    assert_eq!(run.code, 0, "+10 % is inside a 15 % limit");
    // The limiter has no direction, so the gate refuses it (exit 2, bad arguments).
    let run = framescope(args_of(args("limiter.gpu_time_fraction=1%")));
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn sets_give_latency_and_limiter_intervals() {
    // PC latency: set A 10, 12; set B 20, 22 (every run 100 FPS, no outlier). delta 10,
    // s_A = s_B = √2, se = √(2/2 + 2/2) = √2, ν = se⁴ / (1²/1 + 1²/1) = 2,
    // t(0.975, 2) = 4.302653: ci95 = 10 ± 4.302653 · 1.414214 = [3.9151, 16.0849], significant, worse.
    let runs = [(10.0, 9.5), (12.0, 9.0), (20.0, 6.0), (22.0, 5.0)];
    let files: Vec<_> = runs
        .iter()
        .enumerate()
        .map(|(i, &(pcl, gpu))| capture(&format!("limiter-set-{i}.csv"), 40, 5.0, gpu, pcl))
        .collect();
    let args: Vec<&std::ffi::OsStr> = vec![
        "compare".as_ref(),
        "--json".as_ref(),
        files[0].as_os_str(),
        files[1].as_os_str(),
        "--vs".as_ref(),
        files[2].as_os_str(),
        files[3].as_os_str(),
    ];
    let (code, doc) = json(&args);
    assert_eq!(code, 0);
    let e = &doc["comparison"]["latency"]["pc_latency_column_mean_ms"];
    assert!(close(e["delta"].as_f64().unwrap(), 10.0), "{e}");
    let (lo, hi) = (e["ci95"][0].as_f64().unwrap(), e["ci95"][1].as_f64().unwrap());
    assert!((lo - 3.9151).abs() < 1e-3 && (hi - 16.0849).abs() < 1e-3, "{e}");
    assert_eq!(e["significant"], true);
    assert_eq!(e["better"], false);
    // GPU-limited share: A 1, 1 (GPU 9.5 and 9 ≥ 9); B 0, 0: delta −1, se 0 → [−1, −1],
    // significant, but the limiter has no better direction.
    let g = &doc["comparison"]["limiter"]["gpu_time_fraction"];
    assert_eq!(g["ci95"], serde_json::json!([-1.0, -1.0]), "{g}");
    assert_eq!(g["better"], Value::Null);
    // The readable table opens with the set means at a glance: 100 FPS on both sides,
    // PC latency 11 → 21 ms (+90.9 %).
    let table = framescope(args[..1].iter().chain(&args[2..]).collect::<Vec<_>>()).stdout;
    assert!(
        table.contains(
            "at a glance (set means): FPS 100.00 → 100.00 (+0.0 %)   PC latency 11.00 → 21.00 ms (+90.9 %)"
        ),
        "{table}"
    );
}

#[test]
fn frame_generation_fps_up_latency_up_at_a_glance() {
    let Some(t) = real_traces() else { return };
    let a = t.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLAA_2024_04_17T050843_Log.csv");
    let b = t.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLSSFG_2024_04_17T051708_Log.csv");
    let out = framescope(["compare".as_ref(), a.as_os_str(), b.as_os_str()]).stdout;
    assert!(
        out.contains(
            "at a glance: FPS 30.96 → 45.60 (+47.3 %)   PC latency 68.29 → 95.22 ms (+39.4 %)   ⚠ FPS up, latency up"
        ),
        "{out}"
    );
}
