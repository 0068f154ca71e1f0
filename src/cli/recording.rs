//! `framescope record [OPTIONS] -- COMMAND [ARGS…]` (`cli-report.md` § Recording):
//! records captures with the capturing tool (`crate::record`), prints each written
//! capture's path on its own line (with `--json`, `{ files, set, report }`), and exits
//! 0 when every capture recorded frames, 1 when the tool could not start or recorded
//! nothing (with what to do), 2 on bad usage. Progress goes to stderr.

use super::parse::non_negative;
use super::reporting::write_json;
use crate::record::{self, Note, Observer, Plan, StopFlag};
use clap::{Args, ValueEnum};
use framescope_core::analysis::{Settings, Trim};
use framescope_core::ingest::LoadOptions;
use framescope_core::pipeline::{self, Input, Job, TraceSelector};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// The capturing tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum BackendArg {
    /// MangoHud (Linux): launches COMMAND with MangoHud's per-frame log.
    Mangohud,
    /// PresentMon (Windows): captures --process, or COMMAND launched, with PresentMon's
    /// console program.
    Presentmon,
}

/// `framescope record`.
#[derive(Debug, Args)]
pub(super) struct RecordArgs {
    /// Where the captures go (created when missing). Default: Documents/framescope
    /// in the home folder.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Seconds from the launch to the start of each capture (MangoHud: whole seconds,
    /// at least 1).
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = non_negative)]
    delay: f64,
    /// Seconds each capture lasts (MangoHud: whole seconds, rounded up); without it,
    /// until the command exits or Ctrl-C.
    #[arg(long, value_name = "S", value_parser = super::parse::positive)]
    duration: Option<f64>,
    /// How many captures, each of a fresh launch of COMMAND: one set.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Seconds between one capture's end and the next launch.
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = non_negative)]
    pause: f64,
    /// The capturing tool (default: MangoHud on Linux, PresentMon on Windows).
    #[arg(long, value_enum)]
    backend: Option<BackendArg>,
    /// PresentMon's console program (Windows backend).
    #[arg(long, value_name = "PATH")]
    presentmon: Option<PathBuf>,
    /// MangoHud: hook OpenGL through dlsym (`mangohud --dlsym`), for OpenGL games that
    /// load their GL functions themselves (Vulkan games need nothing).
    #[arg(long)]
    dlsym: bool,
    /// A running process to capture, by name or PID (PresentMon).
    #[arg(long, value_name = "NAME|PID")]
    process: Option<String>,
    /// One JSON document on stdout: `files`, `set` and `report` (`report --json` of the
    /// recorded runs).
    #[arg(long)]
    json: bool,
    /// The command to launch and record, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<OsString>,
}

/// The default output folder: `Documents/framescope` in the home folder.
fn default_out_dir() -> PathBuf {
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
    home.map_or_else(
        || PathBuf::from("framescope-recordings"),
        |h| PathBuf::from(h).join("Documents/framescope"),
    )
}

/// Prints the recording's notes on stderr and answers Ctrl-C.
struct Terminal {
    stop: StopFlag,
}

impl Observer for Terminal {
    fn note(&mut self, note: &Note) {
        match note {
            Note::Launched { k, of, pid } => say!("[record {k}/{of}] launched (pid {pid})"),
            Note::Found { k, file } => say!("[record {k}] following {}", file.display()),
            Note::Progress { k, seconds, rows, avg_fps } => {
                let avg = avg_fps.map_or_else(|| "–".to_owned(), |v| format!("{v:.1}"));
                say!("[record {k} · {seconds:.0} s] rows {rows} · avg {avg} FPS");
            }
            Note::Pausing { seconds } => say!("[record] pause {seconds:.1} s"),
        }
    }

    fn stop_requested(&self) -> bool {
        self.stop.is_set()
    }
}

/// What is wrong with the arguments for `backend`, if anything (exit 2).
fn usage_error(args: &RecordArgs, backend: BackendArg) -> Option<&'static str> {
    if backend == BackendArg::Mangohud && (args.process.is_some() || args.presentmon.is_some()) {
        return Some(
            "--process and --presentmon are PresentMon's (--backend presentmon); MangoHud launches COMMAND",
        );
    }
    if backend == BackendArg::Presentmon && args.dlsym {
        return Some(
            "--dlsym is MangoHud's (its OpenGL hook); PresentMon captures every graphics API as it is",
        );
    }
    if backend == BackendArg::Presentmon && args.process.is_some() != args.command.is_empty() {
        return Some(
            "record with PresentMon needs either --process NAME|PID (a running game) or the command to launch \
             after `--`, not both",
        );
    }
    if backend == BackendArg::Mangohud && args.command.is_empty() {
        return Some(
            "record needs the command to launch after `--` (framescope record --duration 60 -- ./game)",
        );
    }
    None
}

/// `framescope record`: exit 0, 1 (nothing recorded, or a capture failed) or 2 (bad
/// arguments).
pub(super) fn record_command(args: &RecordArgs) -> ExitCode {
    let backend =
        args.backend.unwrap_or(if cfg!(windows) { BackendArg::Presentmon } else { BackendArg::Mangohud });
    if let Some(message) = usage_error(args, backend) {
        say!("error: {message}");
        return ExitCode::from(2);
    }
    let plan = Plan {
        command: args.command.clone(),
        out_dir: args.out_dir.clone().unwrap_or_else(default_out_dir),
        delay_s: args.delay,
        duration_s: args.duration,
        repeat: args.repeat,
        pause_s: args.pause,
        opengl_dlsym: args.dlsym,
    };
    let stop = StopFlag::default();
    let flag = stop.clone();
    if let Err(e) = ctrlc::set_handler(move || flag.stop()) {
        say!(
            "warning: Ctrl-C cannot end the recording ({e}); it ends with --duration or when the command exits"
        );
    }
    let mut terminal = Terminal { stop };
    let (recorded, error) = match backend {
        BackendArg::Mangohud => record::mangohud::record(&plan, &mut terminal),
        BackendArg::Presentmon => match record::presentmon::find(args.presentmon.as_deref()) {
            Ok(presentmon) => {
                let target = args.process.as_deref().map(record::presentmon::Target::parse);
                record::presentmon::record(&plan, &presentmon, target.as_ref(), &mut terminal)
            }
            Err(e) => (Vec::new(), Some(e)),
        },
    };
    for r in &recorded {
        if r.ended != record::Ended::Duration {
            say!("note: {} ended early ({}): {} rows kept", r.file.display(), r.ended.as_str(), r.rows);
        }
    }
    if let Some(e) = &error {
        say!("error: {e}");
    }
    let written = if args.json {
        let files: Vec<PathBuf> = recorded.iter().map(|r| r.file.clone()).collect();
        let set = files.first().map(|f| record::set_name(f));
        let inputs: Vec<Input> = files.iter().cloned().map(Input::File).collect();
        let job =
            Job { selector: TraceSelector::Default, opts: LoadOptions::default(), trim: Trim::default() };
        let report = pipeline::report(&inputs, &job, &Settings::default(), pipeline::default_workers());
        let doc = serde_json::json!({ "files": files, "set": set, "report": report });
        write_json(&doc, &mut std::io::stdout().lock())
    } else {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        recorded
            .iter()
            .try_for_each(|r| {
                writeln!(out, "{}", framescope_core::report::text(&r.file.display().to_string()))
            })
            .and_then(|()| out.flush())
    };
    if let Err(e) = written {
        say!("error: writing the output: {e}");
        return ExitCode::from(1);
    }
    if error.is_some() || recorded.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
