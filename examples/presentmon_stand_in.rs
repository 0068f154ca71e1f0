//! A stand-in for PresentMon's console program, for the tests of `framescope record
//! --backend presentmon` (`tests/headless/record_presentmon.rs`), on Linux and as a
//! Windows program under Wine. Not an example to learn from: a real PresentMon cannot
//! be made to refuse its session or stream on demand, and does not run under Wine.
//!
//! It saves its arguments to `$FAKE_PM_ARGS`, refuses unknown arguments and a capture
//! without `--output_stdout` or a process (exit 2), then streams PresentMon 2.4's default
//! columns to standard output: 10 rows of 10 ms frames every 0.1 s, for `--timed`
//! seconds (without it, until it is ended). `FAKE_PM=denied` answers as PresentMon does
//! without the rights to trace (exit 6). `presentmon_stand_in --sleep S` only waits S
//! seconds (a game to launch).

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

const HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,FrameType,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,\
MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed";

const DENIED: &str = "error: failed to start trace session: access denied.\n       PresentMon requires \
either administrative privileges or to be run by a user in the\n       \"Performance Log Users\" user group.  \
View the readme for more details.\n";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, seconds] = &args[..]
        && flag == "--sleep"
    {
        std::thread::sleep(Duration::from_secs_f64(seconds.parse().unwrap_or(0.0)));
        return ExitCode::SUCCESS;
    }
    if let Some(path) = std::env::var_os("FAKE_PM_ARGS") {
        let _ = std::fs::write(path, args.join(" ") + "\n");
    }
    if std::env::var("FAKE_PM").is_ok_and(|v| v == "denied") {
        eprint!("{DENIED}");
        return ExitCode::from(6);
    }
    let Some(timed) = parse(&args) else { return ExitCode::from(2) };
    stream(timed)
}

/// The `--timed` seconds (0: until ended), or `None` after saying what is wrong.
fn parse(args: &[String]) -> Option<u64> {
    let (mut timed, mut stdout, mut process) = (0, false, false);
    let mut k = 0;
    while k < args.len() {
        let value = args.get(k + 1).map(String::as_str);
        match args[k].as_str() {
            "--process_name" | "--process_id" => process = value.is_some(),
            "--timed" => timed = value.and_then(|v| v.parse().ok()).unwrap_or(0),
            "--delay" => {}
            "--session_name" if value == Some("framescope") => {}
            "--stop_existing_session"
            | "--output_stdout"
            | "--no_console_stats"
            | "--terminate_after_timed" => {
                stdout |= args[k] == "--output_stdout";
                k += 1;
                continue;
            }
            other => {
                eprintln!("error: unrecognized argument: {other}");
                return None;
            }
        }
        k += 2;
    }
    if stdout && process {
        Some(timed)
    } else {
        eprintln!("error: no --output_stdout or no process");
        None
    }
}

/// The rows, 10 every 0.1 s, for `timed` seconds (0: until ended or stdout closes).
fn stream(timed: u64) -> ExitCode {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{HEADER}").is_err() {
        return ExitCode::FAILURE;
    }
    let mut i: u64 = 0;
    while timed == 0 || i < timed * 100 {
        i += 1;
        let row = format!(
            "game.exe,4242,0x1A2B,DXGI,1,0,0,Hardware: Independent Flip,Application,{}.{:02}00,NA,10.0000,\
             10.0000,0.1000,1.0000,12.0000",
            i / 100,
            i % 100
        );
        if writeln!(out, "{row}").is_err() {
            return ExitCode::SUCCESS;
        }
        if i.is_multiple_of(10) {
            let _ = out.flush();
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}
