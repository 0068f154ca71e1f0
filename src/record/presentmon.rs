//! The Windows backend: Intel's PresentMon console program (`cli-report.md` §
//! Recording). framescope does not ship it; it is found at `--presentmon PATH`, else
//! through `FRAMESCOPE_PRESENTMON`, on `PATH` or next to framescope. It runs with the
//! process to capture (`--process_name NAME` / `--process_id PID`, handed over as given;
//! with a COMMAND, the PID framescope launched), `--output_stdout` (the rows stream into
//! the live reader and are written to the run's file when the capture ends),
//! `--no_console_stats`, `--delay`, `--timed` and `--terminate_after_timed`, in a trace
//! session of its own (`--session_name framescope --stop_existing_session`).
//!
//! PresentMon needs administrator rights or the "Performance Log Users" group; its
//! "access denied" error is recognised and answered with what to do.

use super::{Ended, Launched, Note, Observer, POLL, Plan, RecordError, Recorded, Sidecar};
use framescope_core::ingest::LoadOptions;
use framescope_core::ingest::live::{self, Event, Flow, StreamSource};
use framescope_core::output::write_bytes;
use std::ffi::OsString;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Where to get PresentMon, for messages.
pub const WHERE: &str = "framescope does not ship PresentMon: download the console program \
(PresentMon-2.x.x-x64.exe) from https://github.com/GameTechDev/PresentMon/releases, then pass it with \
--presentmon PATH, set FRAMESCOPE_PRESENTMON to it, or put it on PATH or next to framescope.";

/// What to do when PresentMon may not start its trace session.
pub const ACCESS_DENIED: &str = "PresentMon could not start its trace session: access denied. PresentMon \
needs administrator rights or membership in the \"Performance Log Users\" group. Either run framescope \
from a terminal opened with \"Run as administrator\", or add your account to the group once — in an \
administrator terminal: net localgroup \"Performance Log Users\" %USERNAME% /add — then sign out and in \
again, and record again.";

/// Time past the end of the duration for PresentMon to end by itself.
const END_GRACE: Duration = Duration::from_secs(10);
/// At most this much of PresentMon's standard error is kept for messages.
const MAX_STDERR: u64 = 64 * 1024;

/// What to capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `--process_name NAME`.
    Name(String),
    /// `--process_id PID`.
    Pid(u32),
}

impl Target {
    /// `--process` as given: all digits is a PID, anything else a name.
    #[must_use]
    pub fn parse(s: &str) -> Self {
        match s.parse::<u32>() {
            Ok(pid) if s.bytes().all(|b| b.is_ascii_digit()) => Self::Pid(pid),
            _ => Self::Name(s.to_owned()),
        }
    }

    /// Its part of a file name.
    fn label(&self) -> String {
        match self {
            Self::Name(n) => {
                n.chars().map(|c| if c.is_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect()
            }
            Self::Pid(p) => format!("pid{p}"),
        }
    }
}

/// PresentMon's arguments for one capture: whole seconds (PresentMon reads integers),
/// the delay rounded, the duration rounded up.
#[must_use]
pub fn arguments(target: &Target, delay_s: f64, duration_s: Option<f64>) -> Vec<OsString> {
    let mut a: Vec<String> = match target {
        Target::Name(n) => vec!["--process_name".into(), n.clone()],
        Target::Pid(p) => vec!["--process_id".into(), p.to_string()],
    };
    a.extend(["--output_stdout".into(), "--no_console_stats".into()]);
    // A session of framescope's own name, so one left behind by a PresentMon that was
    // ended (Ctrl-C on Windows) is stopped by the next capture, and another tool's
    // PresentMon session (named "PresentMon") is left alone.
    a.extend(["--session_name".into(), "framescope".into(), "--stop_existing_session".into()]);
    let delay = delay_s.round() as u64;
    if delay > 0 {
        a.extend(["--delay".into(), delay.to_string()]);
    }
    if let Some(d) = duration_s {
        a.extend([
            "--timed".into(),
            ((d.ceil() as u64).max(1)).to_string(),
            "--terminate_after_timed".into(),
        ]);
    }
    a.into_iter().map(OsString::from).collect()
}

/// Finds PresentMon: `given`, else `FRAMESCOPE_PRESENTMON`, else a `PresentMon*.exe`
/// (or `PresentMon`) on `PATH`, else one next to framescope.
pub fn find(given: Option<&Path>) -> Result<PathBuf, RecordError> {
    if let Some(p) = given {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(RecordError(format!("--presentmon {}: no such file. {WHERE}", p.display())))
        };
    }
    if let Some(p) = std::env::var_os("FRAMESCOPE_PRESENTMON").map(PathBuf::from).filter(|p| p.is_file()) {
        return Ok(p);
    }
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    if let Some(dir) = std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf)) {
        dirs.push(dir);
    }
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut found: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.is_file() && is_presentmon_name(p)).collect();
        found.sort();
        if let Some(p) = found.pop() {
            return Ok(p);
        }
    }
    Err(RecordError(format!("PresentMon was not found. {WHERE}")))
}

/// `PresentMon.exe`, `PresentMon-2.3.0-x64.exe`, `presentmon` (any case).
fn is_presentmon_name(p: &Path) -> bool {
    let lower = |s: Option<&std::ffi::OsStr>| s.map(|s| s.to_string_lossy().to_ascii_lowercase());
    let (stem, ext) = (lower(p.file_stem()), lower(p.extension()));
    match (stem.as_deref(), ext.as_deref()) {
        (Some("presentmon"), None | Some("exe")) => true,
        (Some(pm_name), Some("exe")) => pm_name.starts_with("presentmon-"),
        _ => false,
    }
}

/// Records `plan.repeat` captures of `target` (or, when `target` is `None`, of the
/// command `plan.command`, launched for each) with PresentMon at `presentmon`.
pub fn record(
    plan: &Plan,
    presentmon: &Path,
    target: Option<&Target>,
    observer: &mut dyn Observer,
) -> (Vec<Recorded>, Option<RecordError>) {
    if let Err(e) = std::fs::create_dir_all(&plan.out_dir) {
        return (Vec::new(), Some(RecordError(format!("cannot create {}: {e}", plan.out_dir.display()))));
    }
    let mut recorded = Vec::new();
    let mut set: Option<String> = None;
    for k in 1..=plan.repeat {
        if k > 1 && !super::pause(plan, observer) {
            break;
        }
        match one(plan, k, presentmon, target, set.as_deref(), observer) {
            Ok(r) => {
                set.get_or_insert_with(|| super::set_name(&r.file));
                recorded.push(r);
            }
            Err(e) => return (recorded, Some(e)),
        }
        if observer.stop_requested() {
            break;
        }
    }
    (recorded, None)
}

/// One capture: PresentMon's rows written to the run's file, and its sidecar.
fn one(
    plan: &Plan,
    k: u32,
    presentmon: &Path,
    target: Option<&Target>,
    set: Option<&str>,
    observer: &mut dyn Observer,
) -> Result<Recorded, RecordError> {
    // The command to capture, when framescope launches it.
    let mut game = None;
    if target.is_none() {
        let g = Launched::spawn(&plan.command[0], &plan.command[1..], &[]).map_err(|e| {
            RecordError(format!("cannot start {}: {e}", Path::new(&plan.command[0]).display()))
        })?;
        observer.note(&Note::Launched { k, of: plan.repeat, pid: g.id() });
        game = Some(g);
    }
    let target = target.cloned().unwrap_or_else(|| Target::Pid(game.as_ref().map_or(0, Launched::id)));
    let args = arguments(&target, plan.delay_s, plan.duration_s);
    let file =
        free_name(&plan.out_dir, &format!("PresentMon-{}-{}", target.label(), utc_stamp(SystemTime::now())));
    let started = Instant::now();
    let streamed = stream(plan, k, presentmon, &args, &file, game.as_mut(), observer);
    if let Some(g) = game.as_mut() {
        g.stop();
    }
    let (bytes, ended, status, console) = streamed?;
    let opts = LoadOptions::default();
    let capture = framescope_core::ingest::load_bytes(&file, &bytes, opts).ok();
    let frames: usize =
        capture.as_ref().map_or(0, |c| c.traces.iter().map(framescope_core::model::Trace::len).sum());
    if frames == 0 {
        return Err(nothing_recorded(&console, status, &target));
    }
    write_bytes(&file, &bytes).map_err(|e| RecordError(format!("cannot write {}: {e}", file.display())))?;
    let sidecar = Sidecar {
        plan,
        backend: "presentmon",
        tool_version: capture.map(|c| c.info.format_version).filter(|v| !v.is_empty()),
        tool_config: args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" "),
        k,
        set: set.map_or_else(|| super::set_name(&file), str::to_owned),
        file: &file,
        summary: None,
        rows: frames,
        ended,
        recorded_s: started.elapsed().as_secs_f64(),
    }
    .write()?;
    Ok(Recorded { file, summary: None, sidecar, rows: frames, ended })
}

/// What one PresentMon run gave: the bytes of its CSV, why it ended, its exit status
/// and what it said on its standard error.
type Streamed = (Vec<u8>, Ended, Option<std::process::ExitStatus>, String);

/// Runs PresentMon with `args` and follows its standard output live until it ends
/// (after `--timed`), the launched `game` exits, Ctrl-C, or the deadline.
fn stream(
    plan: &Plan,
    k: u32,
    presentmon: &Path,
    args: &[OsString],
    file: &Path,
    mut game: Option<&mut Launched>,
    observer: &mut dyn Observer,
) -> Result<Streamed, RecordError> {
    let mut pm = Launched::spawn_with(&presentmon.as_os_str().to_owned(), args, &[], true).map_err(|e| {
        RecordError(format!("cannot start PresentMon ({}): {e}. {WHERE}", presentmon.display()))
    })?;
    let started = Instant::now();
    let (stdout, console) = pm.take_output();
    let console = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(e) = console {
            let _ = e.take(MAX_STDERR).read_to_string(&mut text);
        }
        text
    });
    let stdout = stdout.ok_or_else(|| RecordError("PresentMon's output could not be read".into()))?;
    let mut source = StreamSource::new(stdout, POLL)
        .map_err(|e| RecordError(format!("PresentMon's output could not be read: {e}")))?;
    let deadline = plan
        .duration_s
        .map(|d| started + Duration::from_secs_f64(plan.delay_s.round() + d.ceil()) + END_GRACE);
    let (mut bytes, mut ended) = (Vec::new(), Ended::Duration);
    let mut next_note = Instant::now() + Duration::from_secs(1);
    let followed = live::follow(&mut source, file, &LoadOptions::default(), &mut |event| {
        let Event::Update(live) = event else { return Flow::Continue };
        let now = Instant::now();
        if now >= next_note {
            let times = live.frame_times_where(&|_| true);
            let total: f64 = times.iter().sum();
            let avg_fps = (total > 0.0).then(|| 1000.0 * times.len() as f64 / total);
            let seconds = started.elapsed().as_secs_f64();
            observer.note(&Note::Progress { k, seconds, rows: times.len(), avg_fps });
            next_note = now + Duration::from_secs(1);
        }
        let why = if live.ended {
            // PresentMon ended: after --timed, or the game (or PresentMon) went first.
            let early = plan.duration_s.is_none_or(|d| started.elapsed().as_secs_f64() < plan.delay_s + d);
            Some(if early { Ended::CommandExited } else { Ended::Duration })
        } else if observer.stop_requested() {
            Some(Ended::Stopped)
        } else if game.as_mut().is_some_and(|g| g.exited().is_some()) && !live.read {
            Some(Ended::CommandExited)
        } else if deadline.is_some_and(|d| now >= d) {
            Some(Ended::TimedOut)
        } else {
            None
        };
        match why {
            Some(why) => {
                ended = why;
                bytes = live.bytes().to_vec();
                Flow::Stop
            }
            None => Flow::Continue,
        }
    });
    let status = pm.stop();
    let console = console.join().unwrap_or_default();
    followed.map_err(|e| RecordError(format!("reading PresentMon's output: {e}")))?;
    Ok((bytes, ended, status, console))
}

/// `DIR/STEM.csv`, or `STEM-2.csv`, `STEM-3.csv`… when taken (a capture is never
/// written over another file).
fn free_name(dir: &Path, stem: &str) -> PathBuf {
    let mut path = dir.join(format!("{stem}.csv"));
    let mut n = 2;
    while path.exists() || super::sidecar_path(&path).exists() {
        path = dir.join(format!("{stem}-{n}.csv"));
        n += 1;
    }
    path
}

/// Why PresentMon recorded nothing, with what to do.
fn nothing_recorded(console: &str, status: Option<std::process::ExitStatus>, target: &Target) -> RecordError {
    let said = console.trim();
    let pm_output = said.to_ascii_lowercase();
    if pm_output.contains("access denied") {
        return RecordError(format!("{ACCESS_DENIED}\nPresentMon said: {said}"));
    }
    let status = status.map_or_else(|| "it was ended".to_owned(), |s| s.to_string());
    let who = match target {
        Target::Name(n) => format!("a process named {n}"),
        Target::Pid(p) => format!("process {p}"),
    };
    let said = if said.is_empty() { String::new() } else { format!(" PresentMon said: {said}") };
    RecordError(format!(
        "PresentMon recorded no frame ({status}): nothing was recorded. Is {who} running and presenting \
         frames (DirectX, Vulkan or OpenGL)?{said}"
    ))
}

/// `2026-11-29T063939Z`: a file-name time in UTC.
fn utc_stamp(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}{:02}{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presentmon_arguments() {
        let a = arguments(&Target::parse("game.exe"), 5.0, Some(60.0));
        let want = "--process_name game.exe --output_stdout --no_console_stats --session_name framescope --stop_existing_session --delay 5 --timed 60 --terminate_after_timed";
        assert_eq!(a.join(OsString::from(" ").as_os_str()), OsString::from(want));
        let a = arguments(&Target::parse("1234"), 0.0, None);
        assert_eq!(
            a.join(OsString::from(" ").as_os_str()),
            OsString::from(
                "--process_id 1234 --output_stdout --no_console_stats --session_name framescope --stop_existing_session"
            )
        );
        assert_eq!(Target::parse("+12"), Target::Name("+12".into()));
        assert_eq!(
            arguments(&Target::Pid(1), 0.4, Some(2.1))[7..],
            ["--timed", "3", "--terminate_after_timed"].map(OsString::from)
        );
    }

    #[test]
    fn utc_file_stamps() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "1970-01-01T000000Z");
        // 2026-11-29 06:39:39 UTC = 1_795_934_379 s.
        assert_eq!(utc_stamp(UNIX_EPOCH + Duration::from_secs(1_795_934_379)), "2026-11-29T063939Z");
        assert_eq!(utc_stamp(UNIX_EPOCH + Duration::from_hours(264_384)), "2000-02-29T000000Z");
    }

    #[test]
    fn presentmon_names() {
        for (n, yes) in [
            ("PresentMon.exe", true),
            ("PresentMon-2.3.0-x64.exe", true),
            ("presentmon", true),
            ("PresentMonService.exe", false),
            ("PresentMon-2.3.0-x64.pdb", false),
        ] {
            assert_eq!(is_presentmon_name(Path::new(n)), yes, "{n}");
        }
    }
}
