//! `framescope record --backend presentmon` with a stand-in PresentMon (a shell script
//! that checks the arguments it was given and streams PresentMon 2.x rows to standard
//! output, or answers as PresentMon does when its trace session is refused).
#![cfg(unix)]
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The stand-in: refuses unknown arguments and a capture without `--output_stdout`,
/// saves its arguments, then streams 10 rows (10 ms frames, PresentMon 2.4's default
/// columns) every 0.1 s for `--timed` seconds (without it, until ended). `FAKE_PM=denied`
/// answers as PresentMon does without the rights to trace.
const STAND_IN: &str = r#"#!/bin/sh
echo "$@" > "$FAKE_PM_ARGS"
if [ "$FAKE_PM" = denied ]; then
  printf 'error: failed to start trace session: access denied.\n       PresentMon requires either administrative privileges or to be run by a user in the\n       "Performance Log Users" user group.  View the readme for more details.\n' >&2
  exit 6
fi
timed=0; stdout=no; proc=
while [ $# -gt 0 ]; do
  case "$1" in
    --process_name|--process_id) proc="$2"; shift 2 ;;
    --timed) timed="$2"; shift 2 ;;
    --delay) shift 2 ;;
    --session_name) [ "$2" = framescope ] || exit 2; shift 2 ;;
    --stop_existing_session) shift ;;
    --output_stdout) stdout=yes; shift ;;
    --no_console_stats|--terminate_after_timed) shift ;;
    *) echo "error: unrecognized argument: $1" >&2; exit 2 ;;
  esac
done
[ "$stdout" = yes ] && [ -n "$proc" ] || { echo "error: no --output_stdout or no process" >&2; exit 2; }
echo 'Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed'
i=0
limit=$((timed * 100))
while [ "$timed" -eq 0 ] || [ "$i" -lt "$limit" ]; do
  i=$((i + 1))
  echo "game.exe,4242,0x1A2B,DXGI,1,0,0,Hardware: Independent Flip,Application,$((i / 100)).$((i % 100 / 10))$((i % 10))00,NA,10.0000,10.0000,0.1000,1.0000,12.0000"
  if [ $((i % 10)) -eq 0 ]; then sleep 0.1; fi
done
exit 0
"#;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("framescope-recpm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn stand_in(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("PresentMon-2.4.0-x64.exe");
    std::fs::write(&script, STAND_IN).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
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
    let child = c.spawn().unwrap();
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(out) = rx.recv_timeout(limit) else {
        let _ = Command::new("kill").args(["-KILL", &id.to_string()]).status();
        panic!("framescope record did not end within {limit:?}");
    };
    out.unwrap()
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
    let out =
        run(&dir, &[], &["--delay", "0.6", "--duration", "1", "--", "sleep", "30"], Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    let pid: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(pid[0], "--process_id", "{args}");
    assert!(pid[1].parse::<u32>().is_ok(), "{args}");
    assert_eq!(
        pid[2..].join(" "),
        "--output_stdout --no_console_stats --session_name framescope --stop_existing_session --delay 1 --timed 1 --terminate_after_timed"
    );
    // The launched `sleep 30` is gone.
    let alive = Command::new("kill").args(["-0", pid[1]]).stderr(Stdio::null()).status().unwrap();
    assert!(!alive.success(), "the launched command still runs");
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
