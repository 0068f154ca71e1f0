//! `framescope record --backend presentmon` with a stand-in PresentMon
//! (`examples/presentmon_stand_in.rs`, which `cargo test` builds: it checks the
//! arguments it was given and streams PresentMon 2.x rows to standard output, or answers
//! as PresentMon does when its trace session is refused). On Linux and, as Windows
//! programs, under Wine (`.ci/windows.sh`); Ctrl-C is tested on Linux.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use serde_json::Value;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("framescope-recpm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The stand-in, built beside this test (`target/…/examples`), copied into `dir` under
/// PresentMon's name.
fn stand_in(dir: &Path) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let built = exe
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("examples")
        .join(format!("presentmon_stand_in{}", std::env::consts::EXE_SUFFIX));
    assert!(
        built.is_file(),
        "{} is missing: `cargo test` builds it (or `cargo build --example presentmon_stand_in`)",
        built.display()
    );
    let named = dir.join("PresentMon-2.4.0-x64.exe");
    std::fs::copy(&built, &named).unwrap();
    named
}

/// The child's output, failing the test past `limit` (no hang), on every platform.
fn output_within(mut child: Child, limit: Duration) -> Output {
    let read = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = read(child.stdout.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>));
    let err = read(child.stderr.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>));
    let end = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("framescope record did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output { status, stdout: out.join().unwrap(), stderr: err.join().unwrap() }
}

fn run(dir: &Path, env: &[(&str, &str)], args: &[&str], limit: Duration) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_framescope"));
    c.args(["record", "--backend", "presentmon", "--presentmon"])
        .arg(stand_in(dir))
        .arg("-o")
        .arg(dir.join("caps"))
        .args(args)
        .env("FAKE_PM_ARGS", dir.join("args"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    output_within(c.spawn().unwrap(), limit)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `--process game.exe --duration 2`: PresentMon gets exactly its arguments; the run
/// grows live (progress lines with rows before the end), ends after the duration (200
/// rows of 10 ms), is written as PresentMon's CSV into DIR with its sidecar, and
/// `report` reads it.
#[test]
fn presentmon_stand_in_records_a_process() {
    let dir = temp_dir("process");
    let started = Instant::now();
    let out =
        run(&dir, &[], &["--process", "game.exe", "--duration", "2", "--json"], Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(started.elapsed() < Duration::from_secs(15));
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    assert_eq!(
        args.trim(),
        "--process_name game.exe --output_stdout --no_console_stats --session_name framescope --stop_existing_session --timed 2 --terminate_after_timed"
    );
    let err = text(&out.stderr);
    let growing: Vec<u64> =
        err.lines().filter_map(|l| l.split("rows ").nth(1)?.split(' ').next()?.parse().ok()).collect();
    assert!(growing.iter().any(|&r| r > 0 && r < 200), "the run grows live: {err}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let file = PathBuf::from(doc["files"][0].as_str().unwrap());
    assert!(
        file.file_name().unwrap().to_string_lossy().starts_with("PresentMon-game.exe-"),
        "{}",
        file.display()
    );
    assert!(doc["set"].as_str().unwrap().starts_with("game.exe "), "{doc}");
    let run = &doc["report"]["runs"][0];
    assert_eq!(run["application"], "game.exe");
    assert_eq!(run["frames"], 200, "{run}");
    assert!((run["summary"]["avg_fps"].as_f64().unwrap() - 100.0).abs() < 1e-6);
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let sidecar: Value = serde_json::from_str(
        &std::fs::read_to_string(file.with_file_name(format!("{stem}.framescope.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(sidecar["backend"], "presentmon");
    assert_eq!(sidecar["ended"], "duration", "{sidecar}");
    assert_eq!(sidecar["rows"], 200);
}

/// With a COMMAND, PresentMon captures the process framescope launched (by its PID);
/// a delay is handed over in whole seconds; the command is ended with the capture.
#[test]
fn presentmon_stand_in_captures_the_launched_command() {
    let dir = temp_dir("command");
    // The game: the stand-in itself, told only to wait.
    let game = stand_in(&dir).with_file_name(format!("game{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(stand_in(&dir), &game).unwrap();
    let game = game.to_string_lossy().into_owned();
    let out = run(
        &dir,
        &[],
        &["--delay", "0.6", "--duration", "1", "--", &game, "--sleep", "30"],
        Duration::from_secs(30),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    let pid: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(pid[0], "--process_id", "{args}");
    assert!(pid[1].parse::<u32>().is_ok(), "{args}");
    assert_eq!(
        pid[2..].join(" "),
        "--output_stdout --no_console_stats --session_name framescope --stop_existing_session --delay 1 --timed 1 --terminate_after_timed"
    );
    // The launched game is gone (Linux: `kill -0`; Wine has no such check).
    #[cfg(unix)]
    {
        let alive = Command::new("kill").args(["-0", pid[1]]).stderr(Stdio::null()).status().unwrap();
        assert!(!alive.success(), "the launched command still runs");
    }
}

/// PresentMon without the rights to trace: exit 1, the message says what to do
/// (administrator, or the Performance Log Users group) and quotes PresentMon; no run.
#[test]
fn presentmon_access_denied_says_what_to_do() {
    let dir = temp_dir("denied");
    let out = run(
        &dir,
        &[("FAKE_PM", "denied")],
        &["--process", "game.exe", "--duration", "2"],
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("Run as administrator") && err.contains("net localgroup \"Performance Log Users\""),
        "{err}"
    );
    assert!(err.contains("PresentMon said: error: failed to start trace session: access denied."), "{err}");
    assert!(text(&out.stdout).is_empty());
    assert_eq!(std::fs::read_dir(dir.join("caps")).unwrap().count(), 0);
}

/// Without PresentMon: exit 1 and where to get it; bad usage: exit 2.
#[test]
fn presentmon_missing_and_usage() {
    let dir = temp_dir("missing");
    let out = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["record", "--backend", "presentmon", "--presentmon"])
        .arg(dir.join("nope.exe"))
        .args(["--process", "game.exe"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("github.com/GameTechDev/PresentMon/releases"),
        "{}",
        text(&out.stderr)
    );
    for args in [
        &["record", "--backend", "presentmon"][..],
        &["record", "--backend", "presentmon", "--process", "a", "--", "b"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_framescope")).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// Ctrl-C ends a PresentMon capture that has no duration: exit 0, the rows streamed so
/// far are written, the sidecar says `stopped`, PresentMon is ended.
#[cfg(unix)]
#[test]
fn presentmon_ctrl_c_keeps_the_rows() {
    let dir = temp_dir("ctrlc");
    let mut c = Command::new(env!("CARGO_BIN_EXE_framescope"));
    c.args(["record", "--backend", "presentmon", "--presentmon"])
        .arg(stand_in(&dir))
        .arg("-o")
        .arg(dir.join("caps"))
        .args(["--process", "game.exe"])
        .env("FAKE_PM_ARGS", dir.join("args"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = c.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx.recv_timeout(Duration::from_secs(15)).expect("record ends after Ctrl-C").unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let file = PathBuf::from(text(&out.stdout).trim());
    let rows = std::fs::read_to_string(&file).unwrap().lines().count() - 1;
    assert!(rows >= 50, "{rows} rows kept");
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let sidecar: Value = serde_json::from_str(
        &std::fs::read_to_string(file.with_file_name(format!("{stem}.framescope.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(sidecar["ended"], "stopped", "{sidecar}");
    assert_eq!(sidecar["rows"].as_u64(), Some(rows as u64));
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    assert!(!args.contains("--timed"), "no duration: {args}");
}
