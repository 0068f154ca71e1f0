//! The Linux backend: MangoHud (`formats.md` §5). The command is launched through the
//! `mangohud` wrapper (Vulkan and OpenGL) or, without it, with `MANGOHUD=1` (its Vulkan
//! layer), configured through `MANGOHUD_CONFIG`: one row per frame (`log_interval=0`),
//! the output folder, `autostart_log` for the delay and `log_duration` for the
//! duration. MangoHud names the log `<program>_YYYY-MM-DD_HH-MM-SS.csv` and writes
//! `…_summary.csv` beside it when logging ends; framescope finds the new log in the
//! folder and follows it as it grows (MangoHud 0.6.9 and later write rows as they go;
//! 0.6.8 and older write the whole log when logging ends).

use super::{Ended, Launched, Note, Observer, POLL, Plan, RecordError, Recorded, Sidecar, set_name};
use framescope_core::ingest::LoadOptions;
use framescope_core::ingest::live::{self, Event, FileSource, Flow};
use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time past the end of the duration for MangoHud to write its files.
const WRITE_GRACE: Duration = Duration::from_secs(15);
/// A log that has not grown for this long, once MangoHud's summary is there or the
/// command has exited, is complete.
const SETTLED: Duration = Duration::from_secs(1);

/// What to say when MangoHud is not installed.
pub const INSTALL: &str = "MangoHud is not installed (framescope records on Linux with MangoHud, which \
writes the per-frame log). Install it with your distribution's package manager — Debian/Ubuntu: `sudo apt \
install mangohud`; Fedora: `sudo dnf install mangohud`; Arch: `sudo pacman -S mangohud`; openSUSE: `sudo \
zypper install mangohud`; Steam/Flatpak games: `flatpak install org.freedesktop.Platform.VulkanLayer.MangoHud` \
— or from https://github.com/flightlessmango/MangoHud#installation; then run framescope record again.";

/// What to say when `--dlsym` is asked for and only the Vulkan layer is installed.
const NO_DLSYM: &str = "--dlsym (OpenGL) needs MangoHud's `mangohud` program, which preloads its OpenGL \
hook; only its Vulkan layer is installed here. Install the full mangohud package, or leave out --dlsym to \
record a Vulkan game";

/// How MangoHud is brought into the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launcher {
    /// The `mangohud` wrapper (sets up the Vulkan layer and the OpenGL preload).
    Wrapper(PathBuf),
    /// Only the Vulkan layer is installed: `MANGOHUD=1`.
    Layer(PathBuf),
}

/// Finds MangoHud: the `mangohud` wrapper on `PATH`, else its Vulkan layer's manifest
/// in the loader's folders; the install instructions when neither is there.
pub fn find() -> Result<Launcher, RecordError> {
    let mut dirs: Vec<PathBuf> = ["/usr/share", "/usr/local/share", "/etc"]
        .iter()
        .map(|d| Path::new(d).join("vulkan/implicit_layer.d"))
        .collect();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".local/share/vulkan/implicit_layer.d"));
    }
    find_in(std::env::var_os("PATH").as_deref(), &dirs)
}

/// [`find`] in the folders of `path` (a `PATH` value) and the layer folders `layers`.
fn find_in(path: Option<&OsStr>, layers: &[PathBuf]) -> Result<Launcher, RecordError> {
    if let Some(wrapper) =
        path.and_then(|p| std::env::split_paths(p).map(|d| d.join("mangohud")).find(|p| p.is_file()))
    {
        return Ok(Launcher::Wrapper(wrapper));
    }
    for dir in layers {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_ascii_lowercase();
            if name.starts_with("mangohud") && Path::new(&name).extension().is_some_and(|x| x == "json") {
                return Ok(Launcher::Layer(e.path()));
            }
        }
    }
    Err(RecordError(INSTALL.to_owned()))
}

/// `MANGOHUD_CONFIG` for one capture: per frame, into `dir`, starting `delay_s` after
/// the launch (MangoHud counts whole seconds and 0 turns the autostart off: at least
/// 1 s), for `duration_s` (whole seconds, rounded up; none: until the command ends).
pub fn config(dir: &Path, delay_s: f64, duration_s: Option<f64>) -> Result<String, RecordError> {
    let folder = dir.to_string_lossy();
    if folder.contains([',', '=']) {
        return Err(RecordError(format!(
            "MangoHud cannot write into {folder}: its settings (MANGOHUD_CONFIG) are split at ',' and '='; \
             choose an output folder (-o) without them"
        )));
    }
    let delay = (delay_s.round() as u64).max(1);
    let duration = duration_s.map_or(0, |d| (d.ceil() as u64).max(1));
    Ok(format!("log_interval=0,output_folder={folder},autostart_log={delay},log_duration={duration}"))
}

/// How long a stop waits for MangoHud to write the log it was asked to end.
const END_GRACE: Duration = Duration::from_secs(5);

/// The name of the control socket MangoHud opens for framescope (its `control`
/// setting: an abstract Unix socket, one capture at a time).
fn control_name() -> String {
    format!("framescope-{}", std::process::id())
}

/// Tells MangoHud through its control socket to end its log (`:logging=0;`, what
/// `mangohudctl` sends): MangoHud then writes the log and its summary as at the end of
/// `log_duration`. Nothing happens when no MangoHud listens (the game has not drawn a
/// frame yet, or it is gone): the stop then ends the game as before.
#[cfg(target_os = "linux")]
fn ask_to_end_logging() {
    use std::io::Write as _;
    use std::os::linux::net::SocketAddrExt as _;
    let Ok(addr) = std::os::unix::net::SocketAddr::from_abstract_name(control_name()) else { return };
    if let Ok(mut socket) = std::os::unix::net::UnixStream::connect_addr(&addr) {
        let _ = socket.write_all(b":logging=0;");
        // MangoHud reads it on its next frame; a moment before the socket closes.
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[cfg(not(target_os = "linux"))]
fn ask_to_end_logging() {}

/// The capture files (`*.csv`, not a `_summary.csv`) in `dir`.
fn logs_in(dir: &Path) -> HashSet<OsString> {
    std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name()).filter(|n| is_log_name(n)).collect())
        .unwrap_or_default()
}

/// `NAME.csv` → `NAME_summary.csv`.
fn summary_of(log: &Path) -> PathBuf {
    let stem = log.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    log.with_file_name(format!("{stem}_summary.csv"))
}

/// Records `plan.repeat` captures, one launch each, into `plan.out_dir`: the captures
/// that recorded frames, and the error of the first that did not (the recording stops
/// there).
pub fn record(plan: &Plan, observer: &mut dyn Observer) -> (Vec<Recorded>, Option<RecordError>) {
    record_with(plan, None, observer)
}

/// [`record`] with the `mangohud` wrapper at `wrapper` (the window's setting) rather
/// than found ([`find`]).
pub fn record_with(
    plan: &Plan,
    wrapper: Option<PathBuf>,
    observer: &mut dyn Observer,
) -> (Vec<Recorded>, Option<RecordError>) {
    let launcher = match wrapper {
        Some(w) if w.is_file() => Ok(Launcher::Wrapper(w)),
        Some(w) => Err(RecordError(format!("no mangohud program at {}. {INSTALL}", w.display()))),
        None => find(),
    };
    let launcher = match launcher {
        Ok(Launcher::Layer(_)) if plan.opengl_dlsym => {
            return (Vec::new(), Some(RecordError(NO_DLSYM.into())));
        }
        Ok(l) => l,
        Err(e) => return (Vec::new(), Some(e)),
    };
    if let Err(e) = std::fs::create_dir_all(&plan.out_dir) {
        return (Vec::new(), Some(RecordError(format!("cannot create {}: {e}", plan.out_dir.display()))));
    }
    let dir = std::fs::canonicalize(&plan.out_dir).unwrap_or_else(|_| plan.out_dir.clone());
    let config = match config(&dir, plan.delay_s, plan.duration_s) {
        Ok(c) => format!("{c},control={}", control_name()),
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut recorded: Vec<Recorded> = Vec::new();
    let mut set: Option<String> = None;
    for k in 1..=plan.repeat {
        if k > 1 && !super::pause(plan, observer) {
            break;
        }
        match one(plan, k, &launcher, &dir, &config, observer) {
            Ok((file, ended, seconds)) => {
                let set = set.get_or_insert_with(|| set_name(&file)).clone();
                match finish(plan, k, &file, ended, seconds, &config, set) {
                    Ok(r) => recorded.push(r),
                    Err(e) => return (recorded, Some(e)),
                }
            }
            Err(e) => return (recorded, Some(e)),
        }
        if observer.stop_requested() {
            break;
        }
    }
    (recorded, None)
}

/// One launch and capture: the log MangoHud wrote, why it ended and the seconds it
/// took.
fn one(
    plan: &Plan,
    k: u32,
    launcher: &Launcher,
    dir: &Path,
    config: &str,
    observer: &mut dyn Observer,
) -> Result<(PathBuf, Ended, f64), RecordError> {
    let before = logs_in(dir);
    let mut env =
        vec![("MANGOHUD".to_owned(), "1".to_owned()), ("MANGOHUD_CONFIG".to_owned(), config.to_owned())];
    if plan.opengl_dlsym {
        env.push(("MANGOHUD_DLSYM".to_owned(), "1".to_owned()));
    }
    let (program, args): (OsString, Vec<OsString>) = match launcher {
        Launcher::Wrapper(w) => (w.clone().into_os_string(), plan.command.clone()),
        Launcher::Layer(_) => (plan.command[0].clone(), plan.command[1..].to_vec()),
    };
    let child = Launched::spawn(&program, &args, &env)
        .map_err(|e| RecordError(format!("cannot start {}: {e}", Path::new(&plan.command[0]).display())))?;
    observer.note(&Note::Launched { k, of: plan.repeat, pid: child.id() });
    // MangoHud starts logging after whole seconds, at least one (`config`).
    let delay = plan.delay_s.round().max(1.0);
    let started = Instant::now();
    let mut capture = Capture {
        child,
        started,
        deadline: plan.duration_s.map(|d| started + Duration::from_secs_f64(delay + d.ceil()) + WRITE_GRACE),
        what: Path::new(&plan.command[0]).display().to_string(),
        delay,
        asked_to_end: None,
    };
    let log = capture.wait_for_log(dir, &before, observer)?;
    observer.note(&Note::Found { k, file: log.clone() });
    let ended = capture.follow(&log, k, observer);
    capture.child.stop();
    let ended = ended.map_err(|e| RecordError(format!("cannot read {}: {e}", log.display())))?;
    Ok((log, ended, started.elapsed().as_secs_f64()))
}

/// A capture under way: the launched command and its clock.
struct Capture {
    child: Launched,
    started: Instant,
    /// When MangoHud should have finished its files (none: no duration).
    deadline: Option<Instant>,
    /// The command, for messages.
    what: String,
    /// The seconds MangoHud waits before logging.
    delay: f64,
    /// When MangoHud was asked to end its log (a stop), if it was.
    asked_to_end: Option<Instant>,
}

impl Capture {
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// On a stop: asks MangoHud, once, to end its log now (so that it writes the log
    /// and its summary, which 0.6.8 and older write only then); true while MangoHud is
    /// given time to do so ([`END_GRACE`]).
    fn ending(&mut self) -> bool {
        let asked = *self.asked_to_end.get_or_insert_with(|| {
            ask_to_end_logging();
            Instant::now()
        });
        asked.elapsed() < END_GRACE
    }

    /// Waits until a new log appears in `dir` (not among `before`); the error says
    /// why none did (the command exited, Ctrl-C, the tool wrote nothing in time).
    fn wait_for_log(
        &mut self,
        dir: &Path,
        before: &HashSet<OsString>,
        observer: &dyn Observer,
    ) -> Result<PathBuf, RecordError> {
        let new_log = || logs_in(dir).difference(before).min().cloned().map(|n| dir.join(n));
        loop {
            if let Some(log) = new_log() {
                return Ok(log);
            }
            let exited = self.child.exited();
            let stopped = observer.stop_requested();
            if stopped && exited.is_none() && self.ending() {
                std::thread::sleep(POLL);
                continue;
            }
            if exited.is_some() || stopped || self.past_deadline() {
                self.child.stop();
                // A log may still land (MangoHud writes it as logging ends).
                std::thread::sleep(Duration::from_secs(1));
                if let Some(log) = new_log() {
                    return Ok(log);
                }
                let (what, delay) = (&self.what, self.delay);
                let secs = self.started.elapsed().as_secs_f64();
                return Err(RecordError(match (exited, stopped) {
                    (Some(status), _) => format!(
                        "{what} exited ({status}) after {secs:.1} s before MangoHud wrote a log: nothing was \
                         recorded. Does it run with MangoHud (a Vulkan or OpenGL program; `mangohud {what}` \
                         shows the overlay)? Is the delay ({delay:.0} s) shorter than it runs?"
                    ),
                    (None, true) => "stopped before MangoHud wrote a log: nothing was recorded (MangoHud \
                                     0.6.8 and older write the log only when logging ends, at the end of \
                                     --duration)"
                        .to_owned(),
                    (None, false) => format!(
                        "MangoHud wrote no log into {} within {secs:.0} s: nothing was recorded. Does {what} \
                         render with Vulkan or OpenGL, and does MangoHud's overlay show in it?",
                        dir.display()
                    ),
                }));
            }
            std::thread::sleep(POLL);
        }
    }

    /// Follows the log as it grows until MangoHud has finished it (its summary is
    /// there and the log has settled), the command exits, Ctrl-C, or the deadline.
    fn follow(&mut self, log: &Path, k: u32, observer: &mut dyn Observer) -> std::io::Result<Ended> {
        let summary = summary_of(log);
        let mut source = FileSource::new(log, POLL);
        let opts = LoadOptions::default();
        let mut ended = Ended::Duration;
        let mut last_growth = Instant::now();
        let mut next_note = Instant::now();
        live::follow(&mut source, log, &opts, &mut |event| {
            let Event::Update(live) = event else {
                last_growth = Instant::now();
                return Flow::Continue;
            };
            let now = Instant::now();
            if live.grew || live.read {
                last_growth = now;
            }
            if now >= next_note && live.grew {
                let (rows, avg_fps) = so_far(live);
                let seconds = self.started.elapsed().as_secs_f64();
                observer.note(&Note::Progress { k, seconds, rows, avg_fps });
                next_note = now + Duration::from_secs(1);
            }
            let settled = now.duration_since(last_growth) >= SETTLED;
            let stopped = observer.stop_requested();
            // A stop asks MangoHud to end the log, and waits for it a little.
            let why = if stopped && !(settled && summary.is_file()) && self.ending() {
                None
            } else if stopped {
                Some(Ended::Stopped)
            } else if settled && summary.is_file() {
                Some(Ended::Duration)
            } else if settled && self.child.exited().is_some() {
                Some(Ended::CommandExited)
            } else if self.past_deadline() {
                Some(Ended::TimedOut)
            } else {
                None
            };
            match why {
                Some(why) => {
                    ended = why;
                    Flow::Stop
                }
                None => Flow::Continue,
            }
        })?;
        Ok(ended)
    }
}

/// The rows of a growing log so far and their average FPS (per-frame logs), as a load
/// reads them (MangoHud's units decided): taken once a second, a MangoHud log grows by
/// a few hundred rows a second.
fn so_far(live: &live::Live<'_>) -> (usize, Option<f64>) {
    live.capture().ok().map_or((0, None), |c| {
        let t = c.traces.iter().max_by_key(|t| t.len());
        let times = t.map_or(&[][..], |t| t.frames.frame_time_ms.as_slice());
        let total: f64 = times.iter().sum();
        let per_frame = !t.is_some_and(framescope_core::model::Trace::is_sampled);
        (times.len(), (total > 0.0 && per_frame).then(|| 1000.0 * times.len() as f64 / total))
    })
}

/// Checks that a capture holds frames and writes its sidecar.
fn finish(
    plan: &Plan,
    k: u32,
    file: &Path,
    ended: Ended,
    seconds: f64,
    config: &str,
    set: String,
) -> Result<Recorded, RecordError> {
    let capture = framescope_core::open(file, &LoadOptions::default()).map_err(|e| {
        RecordError(format!("MangoHud's log {} holds no frame: {e} (nothing was recorded)", file.display()))
    })?;
    let rows: usize = capture.traces.iter().map(framescope_core::model::Trace::len).sum();
    let summary = summary_of(file);
    let summary = summary.is_file().then_some(summary);
    let sidecar = Sidecar {
        plan,
        backend: "mangohud",
        tool_version: Some(capture.info.format_version.clone()).filter(|v| !v.is_empty()),
        tool_config: if plan.opengl_dlsym { format!("MANGOHUD_DLSYM=1 {config}") } else { config.to_owned() },
        k,
        set,
        file,
        summary: summary.as_deref(),
        rows,
        ended,
        recorded_s: seconds,
    }
    .write()?;
    Ok(Recorded { file: file.to_path_buf(), summary, sidecar, rows, ended })
}

/// True when `name` is MangoHud's log name for a capture (not its summary).
#[must_use]
pub fn is_log_name(name: &OsStr) -> bool {
    let n = name.to_string_lossy();
    n.ends_with(".csv") && !n.ends_with("_summary.csv")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangohud_config_for_a_capture() {
        let c = config(Path::new("/tmp/caps"), 0.0, Some(3.0));
        assert_eq!(c, Ok("log_interval=0,output_folder=/tmp/caps,autostart_log=1,log_duration=3".to_owned()));
        let c = config(Path::new("/tmp/caps"), 5.4, Some(2.5));
        assert_eq!(c, Ok("log_interval=0,output_folder=/tmp/caps,autostart_log=5,log_duration=3".to_owned()));
        assert_eq!(
            config(Path::new("/tmp/caps"), 2.0, None).map(|c| c.ends_with("log_duration=0")),
            Ok(true)
        );
        assert!(config(Path::new("/tmp/a,b"), 0.0, None).is_err());
        assert_eq!(summary_of(Path::new("/d/x_1.csv")), PathBuf::from("/d/x_1_summary.csv"));
        assert!(is_log_name(OsStr::new("a.csv")) && !is_log_name(OsStr::new("a_summary.csv")));
    }

    /// Without the wrapper on PATH and without a layer manifest: how to install it.
    /// A manifest alone is the Vulkan layer (`MANGOHUD=1`).
    #[test]
    fn missing_mangohud_says_how_to_install_it() {
        let dir = std::env::temp_dir().join(format!("framescope-find-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("bin")).unwrap_or_default();
        let path = dir.join("bin").into_os_string();
        let Err(e) = find_in(Some(&path), &[dir.join("layers")]) else {
            panic!("found MangoHud in an empty folder")
        };
        assert!(
            e.0.contains("sudo apt install mangohud") && e.0.contains("MangoHud is not installed"),
            "{e}"
        );
        std::fs::create_dir_all(dir.join("layers")).unwrap_or_default();
        std::fs::write(dir.join("layers/MangoHud.x86_64.json"), "{}").unwrap_or_default();
        assert_eq!(
            find_in(Some(&path), &[dir.join("layers")]),
            Ok(Launcher::Layer(dir.join("layers/MangoHud.x86_64.json")))
        );
        std::fs::write(dir.join("bin/mangohud"), "").unwrap_or_default();
        assert_eq!(find_in(Some(&path), &[]), Ok(Launcher::Wrapper(dir.join("bin/mangohud"))));
    }
}
