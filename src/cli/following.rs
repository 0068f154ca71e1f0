//! `framescope report --follow FILE` (or `-`, standard input): a capture that is still
//! being written, followed as it grows (`ingest::live`). A line of running figures goes
//! to stderr every second (stdout keeps the final document, so `--json` stays one
//! JSON document); the follow ends on Ctrl-C (SIGINT), at the end of standard input,
//! or once the file has not grown for `--stop-after-idle` seconds (a truncated or
//! replaced file restarts that clock); then the final report (table or JSON) is
//! printed, as `report` prints it for the bytes read.

use super::args::{FormatArg, ReportArgs};
use super::inputs::STDIN_NAME;
use super::loading::{FileResult, Job, Loaded, echo_errors};
use super::reporting::{finish, output_format, write_json};
use framescope_core::analysis::{Running, Throttle};
use framescope_core::ingest::live::{self, Event, FileSource, Flow, Live, Source, StreamSource};
use framescope_core::ingest::{LoadError, LoadOptions};
use framescope_core::model::Capture;
use framescope_core::report::{self, FailedRun, Report, Run, RunEntry, SettingsJson};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the source is polled.
const POLL: Duration = Duration::from_millis(100);
/// How often a running line is printed.
const LINE: Duration = Duration::from_secs(1);

/// Who wrote a trace: application, process id, swap chain.
type Writer = (String, Option<u32>, Option<String>);

/// The running lines' state.
struct Lines<'a> {
    job: &'a Job,
    settings: &'a framescope_core::analysis::Settings,
    name: String,
    start: Instant,
    next_line: Instant,
    last_growth: Instant,
    running: Running,
    /// The writer (application, process, swap chain) of the trace the running sums
    /// follow: the exact run's, so both count the same frames.
    followed: Option<Writer>,
    throttle: Throttle,
    /// The last exact figures and the frames they were computed at.
    exact: Option<Run>,
}

impl<'a> Lines<'a> {
    /// The running lines of a follow that starts `now` (the first line a second later).
    fn new(
        job: &'a Job,
        settings: &'a framescope_core::analysis::Settings,
        name: String,
        now: Instant,
    ) -> Self {
        Self {
            job,
            settings,
            name,
            start: now,
            next_line: now + LINE,
            last_growth: now,
            running: Running::default(),
            followed: None,
            throttle: Throttle::new(LINE, 0.25),
            exact: None,
        }
    }

    /// The exact figures of the capture so far (the first picked trace), if any.
    fn exact_run(&self, capture: Result<Capture, LoadError>) -> Option<Run> {
        let loaded = self.job.pick_capture(self.name.clone(), capture.ok()?);
        let (entries, _) = loaded.runs(self.settings, None);
        entries.into_iter().find_map(|e| match e {
            RunEntry::Run(r) => Some(*r),
            _ => None,
        })
    }

    /// Extends the running sums with the followed trace's new frames. The followed
    /// trace is the exact run's (as the selector picks it, e.g. not `dwm.exe`); when
    /// that changes (or before the first exact figures) the sums start over.
    fn extend_running(&mut self, live: &Live<'_>) {
        let writer = self.exact.as_ref().map(|r| (r.application.clone(), r.process_id, r.swap_chain.clone()));
        if writer != self.followed {
            self.running = Running::default();
            self.followed = writer;
        }
        let Some((app, pid, chain)) = &self.followed else { return };
        let times = live
            .frame_times_where(&|m| m.application == *app && m.process_id == *pid && m.swap_chain == *chain);
        self.running.extend(times);
    }

    /// One running line on stderr: frames and average from the running sums, 1 % low
    /// and stutters from the exact figures (recomputed at a throttled rate: at most a
    /// quarter of the time, at most once a second).
    fn line(&mut self, live: &Live<'_>, now: Instant, last: bool) {
        if last || self.throttle.due(now) {
            let t = Instant::now();
            self.exact = self.exact_run(live.capture());
            self.throttle.done(t, t.elapsed());
            self.extend_running(live);
        }
        let elapsed = now.duration_since(self.start).as_secs_f64();
        let exact = self.exact.as_ref();
        let fresh = last || exact.is_some_and(|r| r.frames == self.running.frames) || !live.incremental();
        let (frames, avg) = match exact {
            Some(r) if fresh => (r.frames, r.summary.as_ref().map(|s| s.avg_fps)),
            _ => (self.running.frames, self.running.average_fps()),
        };
        let fps = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.1}"));
        let low = exact.and_then(|r| r.summary.as_ref()).map(|s| s.low_1pct_fps);
        let stutters =
            exact.and_then(|r| r.stutters.as_ref()).map_or_else(|| "–".to_owned(), |s| s.count.to_string());
        let at = exact.map_or(0, |r| r.frames);
        let tag = if last { "end".to_owned() } else { format!("{elapsed:.0} s") };
        // The low's label is the registry's, as the readable table writes it.
        let low_label = framescope_core::figures::figure("summary.low_1pct_fps").map_or("", |f| f.label);
        let of = if fresh { String::new() } else { format!(" ({low_label} and stutters at {at} frames)") };
        say!(
            "[follow {tag}] frames {frames} · avg {} FPS · {low_label} {} FPS · stutters {stutters}{of}",
            fps(avg),
            fps(low)
        );
    }
}

/// `report --follow`: exit 0, 1 (the input failed or held no frames) or 2 (bad
/// arguments).
pub(super) fn follow_command(args: &ReportArgs) -> ExitCode {
    let a = &args.analysis;
    let format = match output_format(args) {
        Ok(f) => f,
        Err(code) => return code,
    };
    if args.files.len() != 1 || a.html.is_some() || a.pcl.is_some() || format == FormatArg::Csv {
        say!("error: --follow takes exactly one FILE (or -), without --html, --pcl or --format csv");
        return ExitCode::from(2);
    }
    let file = &args.files[0];
    let stdin = file == Path::new("-");
    let stop = ctrl_c_flag();
    let Some(mut source) = open_source(file, stdin) else { return ExitCode::from(1) };
    let path = if stdin { Path::new(STDIN_NAME) } else { file.as_path() };
    let settings = a.settings();
    let job = Job { selector: a.trace.clone(), opts: a.load_options(), trim: a.trim() };
    let idle_limit = args.stop_after_idle.map(Duration::from_secs_f64);
    let name = if stdin { "-".to_owned() } else { file.display().to_string() };
    let mut lines = Lines::new(&job, &settings, name, Instant::now());
    let mut last: Option<Result<Capture, LoadError>> = None;
    let opts: LoadOptions = job.opts.clone();
    let followed = live::follow(&mut *source, path, &opts, &mut |event| match event {
        Event::Restarted(note) => {
            say!("note: {note}");
            lines.running = Running::default();
            lines.exact = None;
            // A truncated or replaced file is a new capture starting: the idle clock
            // starts over, so one written a moment later is read (issue 34).
            lines.last_growth = Instant::now();
            Flow::Continue
        }
        Event::Update(live) => {
            let now = Instant::now();
            if live.grew || live.read {
                lines.last_growth = now;
            }
            lines.extend_running(live);
            let idle = idle_limit.is_some_and(|limit| now.duration_since(lines.last_growth) >= limit);
            if live.ended || idle || stop.load(Ordering::SeqCst) {
                lines.line(live, now, true);
                last = Some(live.capture());
                return Flow::Stop;
            }
            if now >= lines.next_line {
                lines.line(live, now, false);
                lines.next_line = now + LINE;
            }
            Flow::Continue
        }
    });
    let name = lines.name.clone();
    if let Err(e) = followed {
        say!("error: {}: {e}", path.display());
        return ExitCode::from(1);
    }
    let capture = last.unwrap_or_else(|| {
        Err(LoadError::new(
            path,
            None,
            framescope_core::ingest::LoadErrorKind::NoFrames("nothing was read".into()),
        ))
    });
    print_final(args, format, &job, name, capture)
}

/// A flag that Ctrl-C (SIGINT) sets, to end the follow; when the handler cannot be set,
/// a warning says how else the follow ends.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
        say!(
            "warning: Ctrl-C cannot end the follow ({e}); it ends at the input's end or with --stop-after-idle"
        );
    }
    stop
}

/// The file (or standard input) to follow; `None` (said on stderr) when standard
/// input cannot be read.
fn open_source(file: &Path, stdin: bool) -> Option<Box<dyn Source>> {
    if !stdin {
        return Some(Box::new(FileSource::new(file, POLL)));
    }
    match StreamSource::new(std::io::stdin(), POLL) {
        Ok(s) => Some(Box::new(s)),
        Err(e) => {
            say!("error: standard input: {e}");
            None
        }
    }
}

/// The final report of the capture as read, as `report` prints it.
fn print_final(
    args: &ReportArgs,
    format: FormatArg,
    job: &Job,
    name: String,
    capture: Result<Capture, LoadError>,
) -> ExitCode {
    let settings = args.analysis.settings();
    let loaded = match capture {
        Ok(c) => job.pick_capture(name, c),
        Err(e) => Loaded::Failed(RunEntry::Failed(FailedRun::from_load_error(&name, &e)), e.to_string()),
    };
    let (entries, errors) = loaded.runs(&settings, None);
    let result = FileResult::of(&loaded, entries, errors, args.checks.checks());
    result.print(echo_errors(format == FormatArg::Table));
    let settings_json = SettingsJson::from(&settings).with_trim(job.trim);
    let mut out = report::Terminal::new(std::io::stdout().lock(), format == FormatArg::Json);
    let written = if format == FormatArg::Json {
        let report = Report { schema: report::SCHEMA, settings: settings_json, runs: result.entries.clone() };
        write_json(&report, &mut out)
    } else {
        report::write_settings(&settings_json, &mut out)
            .and_then(|()| {
                result.entries.iter().try_for_each(|e| report::write_entry(e, args.conventions, &mut out))
            })
            .and_then(|()| out.flush())
    };
    finish(written, result.failed(), false)
}
