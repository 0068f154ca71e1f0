//! `framescope record` (`cli-report.md` § Recording), Linux backend MangoHud.
//!
//! * With a stand-in `mangohud` wrapper first on `PATH` (a shell script that reads
//!   `MANGOHUD_CONFIG` and streams a MangoHud 0.7-layout log into `output_folder`, as
//!   MangoHud 0.6.9 and later do): a command that exits early, Ctrl-C, a tool that
//!   writes nothing, bad usage.
//! * A real capture: Debian's MangoHud, `vkcube` under Xvfb on lavapipe (skipped with a
//!   message when `mangohud`, `vkcube` or `xvfb-run` is missing; mandatory with
//!   `FRAMESCOPE_REQUIRE_SHARED=1`).
#![cfg(unix)]
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("framescope-record-{}-{k}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The stand-in: after a second (`autostart_log=1`), writes `ROWS` rows (10 ms frames), in bursts of 10 every 0.1 s, then
/// `END`: `exit` (the game quits), `run` (it runs on until ended) or `summary` (the
/// log ends, MangoHud writes its summary, the game runs on). `ROWS=0` writes no log.
const STAND_IN: &str = r#"#!/bin/sh
folder=$(printf '%s' "$MANGOHUD_CONFIG" | tr ',' '\n' | sed -n 's/^output_folder=//p')
sleep 1  # autostart_log=1: MangoHud names its logs by the second
rows=${FAKE_ROWS:-50}
name="$folder/fakegame_$(date +%Y-%m-%d_%H-%M-%S)"
if [ "$rows" -gt 0 ]; then
  printf 'os,cpu,gpu,ram,kernel,driver,cpuscheduler\nLinux,cpu,gpu,1,6.1,,\nfps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,elapsed\n' > "$name.csv"
  i=1
  while [ "$i" -le "$rows" ]; do
    echo "100,10,1,1,1,1,1,1,1,1,1,1,1,$((i * 10000000))" >> "$name.csv"
    if [ $((i % 10)) -eq 0 ]; then sleep 0.1; fi
    i=$((i + 1))
  done
fi
echo "$MANGOHUD_CONFIG" > "$folder/../config-$$"
case "${FAKE_END:-exit}" in
  exit) exit 0 ;;
  summary) printf '0.1%% Min FPS,1%% Min FPS,97%% Percentile FPS,Average FPS,GPU Load,CPU Load\n100.0,100.0,100.0,100.0,1,1\n' > "${name}_summary.csv"; exec sleep 60 ;;
  *) exec sleep 60 ;;
esac
"#;

/// A `PATH` whose first folder holds the stand-in `mangohud`.
fn stand_in_path(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("mangohud");
    std::fs::write(&script, STAND_IN).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

fn record_command(path_env: &str, env: &[(&str, &str)], args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_framescope"));
    c.arg("record").args(args).env("PATH", path_env).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

/// Runs a command, failing the test past `limit` (no hang).
fn output_within(mut c: Command, limit: Duration) -> Output {
    let child = c.spawn().expect("spawn framescope");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(out) = rx.recv_timeout(limit) else {
        let _ = Command::new("kill").args(["-KILL", &id.to_string()]).status();
        panic!("framescope record did not end within {limit:?}");
    };
    out.expect("framescope ran")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn sidecar(csv: &Path) -> Value {
    let stem = csv.file_stem().unwrap().to_string_lossy();
    let path = csv.with_file_name(format!("{stem}.framescope.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("sidecar")).expect("sidecar JSON")
}

/// A game that exits before the duration ends the capture with what was recorded:
/// exit 0, the path on stdout, the sidecar says `command_exited`; it takes about as long
/// as the game ran, not the duration.
#[test]
fn a_command_that_exits_early_keeps_what_was_recorded() {
    let dir = temp_dir("early");
    let path = stand_in_path(&dir);
    let out_dir = dir.join("caps");
    let started = Instant::now();
    let out = output_within(
        record_command(
            &path,
            &[("FAKE_ROWS", "50"), ("FAKE_END", "exit")],
            &["--duration", "30", "-o", out_dir.to_str().unwrap(), "--", "fakegame"],
        ),
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    let stdout = text(&out.stdout);
    let files: Vec<&str> = stdout.lines().collect();
    assert_eq!(files.len(), 1, "{stdout}");
    let csv = PathBuf::from(files[0]);
    assert!(csv.starts_with(std::fs::canonicalize(&out_dir).unwrap()), "{}", csv.display());
    let s = sidecar(&csv);
    assert_eq!(s["ended"], "command_exited", "{s}");
    assert_eq!(s["rows"], 50, "{s}");
    assert_eq!(s["backend"], "mangohud");
    assert_eq!(s["command"], serde_json::json!(["fakegame"]));
    assert_eq!(s["duration_s"], 30.0);
    // MangoHud was asked for one row per frame into the folder, for 30 s after 1 s.
    let config = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("config-"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .expect("the stand-in saw MANGOHUD_CONFIG");
    let folder = std::fs::canonicalize(&out_dir).unwrap();
    let (config, control) = config.trim().split_once(",control=").expect("a control socket is named");
    assert_eq!(
        config,
        format!("log_interval=0,output_folder={},autostart_log=1,log_duration=30", folder.display())
    );
    assert!(control.starts_with("framescope-"), "{control}");
    // Only the tool's CSV and framescope's JSON are in the folder.
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    let ext = |n: &str| Path::new(n).extension().map(|x| x.to_string_lossy().into_owned());
    assert_eq!(
        (ext(&names[0]).as_deref(), ext(&names[1]).as_deref()),
        (Some("csv"), Some("json")),
        "{names:?}"
    );
    assert!(names[1].contains(".framescope."), "{names:?}");
}

/// When the tool finishes its log (its summary appears) the capture ends and the game,
/// still running, is ended with its process group: `--repeat 2` gives two captures,
/// `--json` one document with both files, the set's name and their report.
#[test]
fn repeats_end_the_game_and_make_one_set() {
    let dir = temp_dir("repeat");
    let path = stand_in_path(&dir);
    let out_dir = dir.join("caps");
    let out = output_within(
        record_command(
            &path,
            &[("FAKE_ROWS", "30"), ("FAKE_END", "summary")],
            &[
                "--duration",
                "2",
                "--repeat",
                "2",
                "--pause",
                "1",
                "--json",
                "-o",
                out_dir.to_str().unwrap(),
                "--",
                "g",
            ],
        ),
        Duration::from_secs(40),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2, "{doc}");
    assert_ne!(files[0], files[1]);
    assert!(doc["set"].as_str().unwrap().starts_with("fakegame "), "{doc}");
    let runs = doc["report"]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for r in runs {
        assert_eq!(r["frames"], 30, "{r}");
        assert_eq!(r["sampled"], false);
        assert_eq!(r["tool_summary"]["average_fps"], 100.0, "{r}");
    }
    for f in files {
        assert_eq!(sidecar(Path::new(f.as_str().unwrap()))["ended"], "duration");
    }
    // No stand-in is left running.
    let left = Command::new("pgrep").args(["-f", &dir.join("bin/mangohud").display().to_string()]).output();
    if let Ok(left) = left {
        assert!(text(&left.stdout).trim().is_empty(), "still running: {}", text(&left.stdout));
    }
}

/// Ctrl-C ends the capture of a game that runs on: exit 0, the file is kept with the
/// rows written so far, the sidecar says `stopped`, the game is ended.
#[test]
fn ctrl_c_keeps_the_file() {
    let dir = temp_dir("ctrlc");
    let path = stand_in_path(&dir);
    let out_dir = dir.join("caps");
    let child = record_command(
        &path,
        &[("FAKE_ROWS", "20"), ("FAKE_END", "run")],
        &["-o", out_dir.to_str().unwrap(), "--", "g"],
    )
    .spawn()
    .unwrap();
    // Until the log has its rows.
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until {
        let rows = std::fs::read_dir(&out_dir)
            .ok()
            .and_then(|mut d| {
                d.find_map(|e| e.ok().filter(|e| e.file_name().to_string_lossy().ends_with(".csv")))
            })
            .and_then(|e| std::fs::read_to_string(e.path()).ok())
            .map_or(0, |t| t.lines().count());
        if rows >= 23 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(600));
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx.recv_timeout(Duration::from_secs(15)).expect("record ends after Ctrl-C").unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = PathBuf::from(text(&out.stdout).trim());
    let s = sidecar(&csv);
    assert_eq!((s["ended"].as_str(), s["rows"].as_u64()), (Some("stopped"), Some(20)), "{s}");
    assert_eq!(s["duration_s"], Value::Null);
}

/// A tool that writes nothing: exit 1, the message says nothing was recorded, and the
/// folder holds no run (no sidecar, no empty file).
#[test]
fn nothing_recorded_is_an_error_and_leaves_no_run() {
    let dir = temp_dir("nothing");
    let path = stand_in_path(&dir);
    let out_dir = dir.join("caps");
    let out = output_within(
        record_command(
            &path,
            &[("FAKE_ROWS", "0"), ("FAKE_END", "exit")],
            &["--duration", "5", "-o", out_dir.to_str().unwrap(), "--", "g"],
        ),
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).is_empty());
    let err = text(&out.stderr);
    assert!(err.contains("before MangoHud wrote a log: nothing was recorded"), "{err}");
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0);
}

/// Bad usage: exit 2 — no command, `--repeat 0`, PresentMon's options with MangoHud.
#[test]
fn record_usage_errors() {
    for args in [
        &["--duration", "3"][..],
        &["--repeat", "0", "--", "x"],
        &["--duration", "0", "--", "x"],
        &["--process", "game.exe", "--", "x"],
    ] {
        let out = output_within(
            record_command(&std::env::var("PATH").unwrap(), &[], args),
            Duration::from_secs(10),
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
    }
}

fn found(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// A real capture: `framescope record --duration 3 -o DIR -- vkcube` under Xvfb with
/// lavapipe and Debian's MangoHud writes a per-frame MangoHud CSV of at least 100
/// frames; `report` reads it per frame; the MangoHud convention equals the
/// `_summary.csv` MangoHud wrote; `--repeat 2` writes two captures.
#[test]
fn real_mangohud_records_vkcube() {
    let missing: Vec<&str> = ["mangohud", "vkcube", "xvfb-run"].into_iter().filter(|p| !found(p)).collect();
    if !missing.is_empty() {
        let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "FRAMESCOPE_REQUIRE_SHARED=1 but {missing:?} missing (apt-get install mangohud vulkan-tools mesa-vulkan-drivers xvfb xauth)"
        );
        eprintln!("skipping the real MangoHud capture: {missing:?} not installed");
        return;
    }
    let out_dir = temp_dir("vkcube");
    let record = |repeat: &str| {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", env!("CARGO_BIN_EXE_framescope"), "record", "--duration", "3", "--repeat", repeat])
            .arg("-o")
            .arg(&out_dir)
            .args(["--", "vkcube"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        output_within(c, Duration::from_secs(90))
    };
    let out = record("1");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let files: Vec<PathBuf> = stdout.lines().map(PathBuf::from).collect();
    assert_eq!(files.len(), 1, "{stdout}");
    let report = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--json"])
        .arg(&files[0])
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    let doc: Value = serde_json::from_slice(&report.stdout).unwrap();
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "mangohud");
    assert_eq!(run["sampled"], false, "one row per frame");
    assert!(run["frames"].as_u64().unwrap() >= 100, "{}", run["frames"]);
    assert!(run["pacing"].is_object() && run["stutters"].is_object(), "per-frame figures");
    let (mine, theirs) = (&run["conventions"]["mangohud"], &run["tool_summary"]);
    assert_eq!(theirs["tool"], "MangoHud", "{run}");
    for key in ["low_0_1pct_fps", "low_1pct_fps", "p97_fps", "average_fps"] {
        let (a, b) = (mine[key].as_f64().unwrap(), theirs[key].as_f64().unwrap());
        // MangoHud prints one decimal of sums it adds in float32 (about 0.02 off on a
        // thousand frames): within 0.1.
        assert!((a - b).abs() <= 0.1, "{key}: framescope {a}, MangoHud's summary {b}");
    }
    eprintln!("real capture: {} frames; MangoHud {theirs}; framescope {mine}", run["frames"]);

    let out = record("2");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let two: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(two.len(), 2, "{two:?}");
    let report = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--json"])
        .args(&two)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&report.stdout).unwrap();
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r["frames"].as_u64().unwrap() >= 100 && r["sampled"] == false));
    let set = sidecar(Path::new(two[0]))["set"].clone();
    assert_eq!(sidecar(Path::new(two[1]))["set"], set, "the repeats are one set");
}

/// A real OpenGL capture: `framescope record --dlsym --duration 2 -- glxgears` under
/// Xvfb (Mesa's software GL) with Debian's MangoHud preloading its OpenGL hook through
/// dlsym: a per-frame log whose MangoHud convention equals MangoHud's own summary, and a
/// sidecar that says the hook was dlsym's. `--dlsym` with PresentMon is bad usage.
#[test]
fn real_mangohud_records_an_opengl_game_with_dlsym() {
    let missing: Vec<&str> = ["mangohud", "glxgears", "xvfb-run"].into_iter().filter(|p| !found(p)).collect();
    if !missing.is_empty() {
        let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "FRAMESCOPE_REQUIRE_SHARED=1 but {missing:?} missing (apt-get install mangohud mesa-utils xvfb)"
        );
        eprintln!("skipping the real MangoHud OpenGL capture: {missing:?} not installed");
        return;
    }
    let out_dir = temp_dir("glxgears");
    let mut c = Command::new("xvfb-run");
    c.args(["-a", env!("CARGO_BIN_EXE_framescope"), "record", "--dlsym", "--duration", "2"])
        .arg("-o")
        .arg(&out_dir)
        .args(["--", "glxgears"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = output_within(c, Duration::from_secs(90));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let file = PathBuf::from(stdout.lines().next().expect("a capture's path"));
    assert!(file.file_name().unwrap().to_string_lossy().starts_with("glxgears"), "{}", file.display());
    let s = sidecar(&file);
    assert!(
        s["tool_config"].as_str().is_some_and(|c| c.starts_with("MANGOHUD_DLSYM=1 log_interval=0")),
        "{s}"
    );
    assert_eq!(s["ended"], "duration", "{s}");
    let report = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    let doc: Value = serde_json::from_slice(&report.stdout).unwrap();
    let run = &doc["runs"][0];
    assert_eq!((run["format"].as_str(), run["sampled"].as_bool()), (Some("mangohud"), Some(false)), "{run}");
    assert!(
        run["frames"].as_u64().unwrap() >= 50,
        "{}: {}",
        run["frames"],
        std::fs::read_to_string(&file).unwrap_or_default().lines().take(8).collect::<Vec<_>>().join("\n")
    );
    let (mine, theirs) = (&run["conventions"]["mangohud"], &run["tool_summary"]);
    for key in ["low_0_1pct_fps", "low_1pct_fps", "p97_fps", "average_fps"] {
        let (a, b) = (mine[key].as_f64().unwrap(), theirs[key].as_f64().unwrap());
        assert!((a - b).abs() <= 0.1, "{key}: framescope {a}, MangoHud's summary {b}");
    }
    let bad = output_within(
        record_command(
            &std::env::var("PATH").unwrap_or_default(),
            &[],
            &["--backend", "presentmon", "--dlsym", "--", "game.exe"],
        ),
        Duration::from_secs(20),
    );
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    assert!(text(&bad.stderr).contains("--dlsym is MangoHud's"), "{}", text(&bad.stderr));
}

/// Ctrl-C in the middle of a real 30 s MangoHud 0.6.8 capture of `vkcube`: framescope
/// asks MangoHud through its control socket to end the log (0.6.8 writes its log only
/// then), so the capture is kept whole, with MangoHud's summary, which the MangoHud
/// convention equals: exit 0, `stopped`, well before the 30 s.
#[test]
fn ctrl_c_keeps_a_real_mangohud_capture() {
    let missing: Vec<&str> = ["mangohud", "vkcube", "xvfb-run"].into_iter().filter(|p| !found(p)).collect();
    if !missing.is_empty() {
        let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1");
        assert!(!required, "FRAMESCOPE_REQUIRE_SHARED=1 but {missing:?} missing");
        eprintln!("skipping the real MangoHud Ctrl-C capture: {missing:?} not installed");
        return;
    }
    let out_dir = temp_dir("vkcube-ctrl-c");
    let started = Instant::now();
    let mut c = Command::new("xvfb-run");
    c.args(["-a", env!("CARGO_BIN_EXE_framescope"), "record", "--duration", "30"])
        .arg("-o")
        .arg(&out_dir)
        .args(["--", "vkcube"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = c.spawn().unwrap();
    // Once MangoHud logs (1 s after the launch), Ctrl-C to framescope: this test's (its
    // output folder is in the command line), and the framescope process itself, not
    // xvfb-run or one of its shells (their command lines hold the same words; a signal
    // to one of them ended xvfb-run by the signal once, on a loaded machine).
    let pattern = format!("framescope record --duration 30 -o {}", out_dir.display());
    let framescope = || {
        let out = Command::new("pgrep").args(["-f", &pattern]).output().ok()?;
        String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.trim().parse::<u32>().ok()).find(
            |pid| {
                std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "framescope")
            },
        )
    };
    std::thread::sleep(Duration::from_secs(5));
    // Xvfb may start slowly on a loaded machine: wait for framescope, then give
    // MangoHud its second.
    let mut pid = framescope();
    while pid.is_none() && started.elapsed() < Duration::from_secs(15) {
        std::thread::sleep(Duration::from_millis(250));
        pid = framescope();
    }
    let pid = pid.expect("framescope record runs");
    if started.elapsed() > Duration::from_secs(5) {
        std::thread::sleep(Duration::from_secs(2));
    }
    assert!(Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap().success());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx.recv_timeout(Duration::from_secs(40)).expect("record ends after Ctrl-C").unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(started.elapsed() < Duration::from_secs(25), "ended by Ctrl-C, not the duration");
    let file = PathBuf::from(text(&out.stdout).trim());
    assert_eq!(sidecar(&file)["ended"], "stopped");
    let report = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&report.stdout).unwrap();
    let run = &doc["runs"][0];
    assert!(run["frames"].as_u64().unwrap() >= 100, "{}", run["frames"]);
    let (mine, theirs) = (&run["conventions"]["mangohud"], &run["tool_summary"]);
    assert_eq!(theirs["tool"], "MangoHud", "MangoHud wrote its summary: {run}");
    for key in ["low_0_1pct_fps", "low_1pct_fps", "p97_fps", "average_fps"] {
        let (a, b) = (mine[key].as_f64().unwrap(), theirs[key].as_f64().unwrap());
        assert!((a - b).abs() <= 0.1, "{key}: framescope {a}, MangoHud's summary {b}");
    }
}
