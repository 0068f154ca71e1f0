//! From files to the `framescope report` document: which files ([``inputs`), which
//! traces of each ([`TraceSelector`]), the trim, the analysis of every picked trace
//! into a [`Run`](crate::report::Run), and the documents built from the runs. The command line and the
//! Python package both call this one implementation, so their documents are the same.
//!
//! A [`Job`] says how every file is read; [`Job::load`] reads one and picks (and trims)
//! its traces into a [`Loaded`]; [`Loaded::runs`] analyses them with the settings.
//! [`report()`] does all of it for a list of inputs (files loaded in parallel, runs in
//! argument order); [`mod@compare`] builds the `compare` documents.

pub mod checks;
pub mod compare;
pub(crate) mod frames;
pub(crate) mod inputs;
mod options;
mod selector;

pub use frames::FrameTable;
pub use inputs::{default_workers, for_each_ordered, for_each_ordered_on};

pub use inputs::{CAPTURE_EXTENSIONS, Input, STDIN_NAME, expand};
pub use options::{
    BadOption, OptionError, OptionValues, Options, column_spec, convention, extra_column, fraction,
    frame_time, non_negative, non_negative_value, number, positive, positive_value, threshold, time_unit,
};
pub use selector::{TraceSelector, TraceSelectorError};

use crate::analysis::{FrameTimeSource, Series, Settings, Trim, TrimError};
use crate::ingest::{self, LoadOptions};
use crate::model::markers::MarkerLog;
use crate::model::{Capture, Trace, Warning};
use crate::report::{self, FailedRun, OtherTrace, Report, RunEntry, SettingsJson};

/// How a file's traces were picked and cut.
#[derive(Debug)]
pub enum Picked {
    /// The whole trace `index`.
    Whole(usize),
    /// A trace, trimmed.
    Trimmed(Box<Trace>),
    /// A trace with nothing left after trimming.
    Empty(AnalysisError),
}

/// Why a picked trace cannot be analysed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// `--trim-start` and `--trim-end` leave no whole frame of trace `trace` of file `file`.
    #[error(
        "{file}: nothing is left after trimming: {trace} spans {span_s:.3} s, and --trim-start {start_s} \
         --trim-end {end_s} leave no whole frame"
    )]
    TrimLeavesNothing { file: String, trace: String, span_s: f64, start_s: f64, end_s: f64 },
    /// No trace of the file could be analysed (no trace matched the selector, or none
    /// has a frame under the frame-time source): the message says why.
    #[error("{0}")]
    NoRun(String),
}

/// A file read, with its picked traces; or the failed run that stands for it.
#[derive(Debug)]
pub enum Loaded {
    /// The file was read.
    Capture {
        /// The name of the runs' `file`: the path as given.
        name: String,
        /// The file's traces.
        capture: Box<Capture>,
        /// The traces to report, in file order.
        picked: Vec<Picked>,
        /// The file's traces that are not reported.
        other_traces: Vec<OtherTrace>,
    },
    /// The file could not be read or no trace matched: its failed run and the message.
    Failed(RunEntry, String),
}

/// What every file of a job is read with.
#[derive(Debug, Clone)]
pub struct Job {
    /// Which traces of each file.
    pub selector: TraceSelector,
    /// How files are read (QPC frequency, a generic CSV's column mapping).
    pub opts: LoadOptions,
    /// What is cut off every run.
    pub trim: Trim,
}

impl Job {
    /// Reads a file and picks (and trims) its traces.
    #[must_use]
    pub fn load(&self, input: &Input) -> Loaded {
        let name = input.name();
        match input.load(self.opts.clone()) {
            Ok(c) => self.pick_capture(name, c),
            Err(e) => Loaded::Failed(RunEntry::Failed(FailedRun::from_load_error(&name, &e)), e.to_string()),
        }
    }

    /// Picks (and trims) the traces of a capture already read as `name` (a live
    /// capture's bytes so far, say).
    #[must_use]
    pub fn pick_capture(&self, name: String, capture: Capture) -> Loaded {
        let indices = match self.selector.select(&capture) {
            Ok(i) => i,
            Err(msg) => {
                let msg = format!("{name}: {msg}");
                return Loaded::Failed(RunEntry::Failed(FailedRun::new(&name, msg.clone())), msg);
            }
        };
        let other_traces =
            if self.selector == TraceSelector::All { Vec::new() } else { OtherTrace::of(&capture, &indices) };
        let picked = indices.into_iter().map(|i| self.pick(&name, &capture.traces[i], i)).collect();
        Loaded::Capture { name, capture: Box::new(capture), picked, other_traces }
    }

    /// Trace `index` of a file, trimmed.
    fn pick(&self, name: &str, trace: &Trace, index: usize) -> Picked {
        if self.trim.is_none() {
            return Picked::Whole(index);
        }
        match self.trim.cut(trace) {
            Ok(cut) => Picked::Trimmed(Box::new(cut)),
            Err(TrimError::NothingLeft { span_s, start_s, end_s }) => {
                Picked::Empty(AnalysisError::TrimLeavesNothing {
                    file: name.to_owned(),
                    trace: trace.label(),
                    span_s,
                    start_s,
                    end_s,
                })
            }
        }
    }

    /// A file's runs and the error messages for stderr: an .etl (known by its content)
    /// as its [`etl_entry`], any other file loaded ([`Job::load`]) and analysed
    /// ([`Loaded::runs`]).
    #[must_use]
    pub fn runs(&self, input: &Input, settings: &Settings, markers: Option<&MarkerLog>) -> FileRuns {
        match etl_entry(input) {
            Some(runs) => runs,
            None => self.load(input).runs(settings, markers),
        }
    }

    /// The settings as the document prints them, with this job's trim.
    #[must_use]
    pub fn settings_json(&self, settings: &Settings) -> SettingsJson {
        SettingsJson::from(settings).with_trim(self.trim)
    }
}

impl Loaded {
    /// The traces that will be analysed (for one frame-time source over a comparison).
    #[must_use]
    pub fn traces(&self) -> Vec<&Trace> {
        match self {
            Self::Capture { capture, picked, .. } => picked
                .iter()
                .filter_map(|p| match p {
                    Picked::Whole(i) => Some(&capture.traces[*i]),
                    Picked::Trimmed(t) => Some(&**t),
                    Picked::Empty(_) => None,
                })
                .collect(),
            Self::Failed(..) => Vec::new(),
        }
    }

    /// The file's runs (a failed entry for a failed file or a trace trimmed to nothing),
    /// and the error messages for stderr. When no reported trace has a frame under the
    /// frame-time source (an OCAT capture whose present intervals are all 0, read with
    /// `--frame-time presents`), the file holds no frames: each of its runs is a failed
    /// entry that says which series has them (`metrics.md` §1, `cli-report.md`: exit 1).
    #[must_use]
    pub fn runs(&self, settings: &Settings, markers: Option<&MarkerLog>) -> (Vec<RunEntry>, Vec<String>) {
        match self {
            Self::Failed(entry, msg) => (vec![entry.clone()], vec![msg.clone()]),
            Self::Capture { name, capture, picked, other_traces } => {
                runs_of(name, capture, picked, other_traces, settings, markers)
            }
        }
    }

    /// The capture read, unless the file failed.
    #[must_use]
    pub fn capture(&self) -> Option<&Capture> {
        match self {
            Self::Capture { capture, .. } => Some(capture),
            Self::Failed(..) => None,
        }
    }

    /// The name of the runs' `file`, unless the file failed.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Capture { name, .. } => Some(name),
            Self::Failed(..) => None,
        }
    }
}

/// The runs of `capture` (read as `name`) for the traces `picked`, and the messages for
/// stderr ([`Loaded::runs`], the front door's [`crate::model::Capture::analyze`]).
fn runs_of(
    name: &str,
    capture: &Capture,
    picked: &[Picked],
    other_traces: &[OtherTrace],
    settings: &Settings,
    markers: Option<&MarkerLog>,
) -> (Vec<RunEntry>, Vec<String>) {
    let mut errors = Vec::new();
    let mut empty = Vec::new();
    let mut runs: Vec<RunEntry> = picked
        .iter()
        .map(|p| {
            let trace = match p {
                Picked::Whole(i) => &capture.traces[*i],
                Picked::Trimmed(t) => &**t,
                Picked::Empty(e) => {
                    errors.push(e.to_string());
                    return RunEntry::Failed(FailedRun::new(name, e.to_string()));
                }
            };
            let mut run = report::run_trace(&report::RunSource::of(name, capture), trace, settings, markers);
            run.other_traces = other_traces.to_vec();
            if run.frames == 0 && !run.sampled {
                empty.push(no_frames_under_source(name, trace, run.frame_time));
            } else {
                empty.push(String::new());
            }
            RunEntry::Run(Box::new(run))
        })
        .collect();
    let analysed = runs.iter().filter(|r| matches!(r, RunEntry::Run(_))).count();
    if analysed > 0 && empty.iter().all(|m| !m.is_empty()) {
        let mut messages = empty.into_iter();
        for entry in &mut runs {
            if matches!(entry, RunEntry::Run(_))
                && let Some(msg) = messages.next()
            {
                errors.push(msg.clone());
                *entry = RunEntry::Failed(FailedRun::new(name, msg));
            }
        }
    }
    (runs, errors)
}

/// Why a trace has no frame under `source` (`presents` or `display`), and which other
/// series has them: the message of a file that holds no frames under it.
fn no_frames_under_source(name: &str, trace: &Trace, source: &str) -> String {
    let (what, other) = match source {
        "display" => ("a display interval above 0 (or every frame was dropped)", FrameTimeSource::Presents),
        _ => ("a present interval above 0", FrameTimeSource::Display),
    };
    let others = Series::of(trace, other).len();
    let hint = if others > 0 {
        format!(
            "; its {} series holds {others} frames: --frame-time {} (or auto) reads them",
            other.name(),
            other.name()
        )
    } else {
        String::new()
    };
    format!("{name}: no frames under --frame-time {source}: no frame of {} has {what}{hint}", trace.label())
}

/// The `framescope report` document of `inputs` (as `report --json` prints it): every
/// file loaded and analysed on `workers` threads (an .etl summarised), the runs in
/// argument order. A file that fails gives a failed run; nothing is printed.
#[must_use]
pub fn report(inputs: &[Input], job: &Job, settings: &Settings, workers: usize) -> Report {
    let mut runs = Vec::new();
    inputs::for_each_ordered_on(
        workers,
        inputs,
        |input| job.runs(input, settings, None).0,
        |_, entries, _| runs.extend(entries),
    );
    Report { schema: report::SCHEMA, settings: job.settings_json(settings), runs }
}

/// A file's runs and the error messages for stderr.
pub type FileRuns = (Vec<RunEntry>, Vec<String>);

/// The entry of an .etl (known by its content: what it holds and its PCL markers'
/// breakdown), or its failed run and message; `None` for any other input.
#[must_use]
pub fn etl_entry(input: &Input) -> Option<FileRuns> {
    let Input::File(path) = input else { return None };
    if !ingest::etl::is_etl_file(path) {
        return None;
    }
    let name = input.name();
    Some(match ingest::etl::summarize(path) {
        Ok(summary) => {
            (vec![report::etl::EtlRun::entry(&name, summary, ingest::etl::load_marker_log(path))], Vec::new())
        }
        Err(e) => (vec![RunEntry::Failed(FailedRun::from_load_error(&name, &e))], vec![e.to_string()]),
    })
}

/// Notes an unreadable PCL marker log (`message`) in every run it was meant for.
pub fn warn_marker_error(runs: &mut [RunEntry], message: Option<&str>) {
    if let Some(msg) = message {
        for run in runs {
            if let RunEntry::Run(run) = run {
                run.warnings.push(
                    Warning::file(format!("PCL marker log could not be read: {msg}"))
                        .with_kind(crate::model::WarningKind::MarkerLog),
                );
            }
        }
    }
}

/// The front door's analysis: [`crate::model::Capture::analyze`].
impl Capture {
    /// The `report --json` document of this capture's default trace (the one with the
    /// most frames, `dwm.exe` aside; every logging session of a sampled log is one run)
    /// under `settings`, untrimmed: the figures `framescope report FILE` prints. An
    /// error when no trace could be analysed (none has a frame under the frame-time
    /// source); a run's own problems stay in its `warnings`.
    pub fn analyze(&self, settings: &Settings) -> Result<Report, AnalysisError> {
        let name = self.info.path.display().to_string();
        let indices =
            TraceSelector::Default.select(self).map_err(|m| AnalysisError::NoRun(format!("{name}: {m}")))?;
        let other_traces = OtherTrace::of(self, &indices);
        let picked: Vec<Picked> = indices.into_iter().map(Picked::Whole).collect();
        let (runs, errors) = runs_of(&name, self, &picked, &other_traces, settings, None);
        if !runs.iter().any(|r| matches!(r, RunEntry::Run(_))) {
            return Err(AnalysisError::NoRun(errors.join("; ")));
        }
        Ok(Report { schema: report::SCHEMA, settings: SettingsJson::from(settings), runs })
    }
}
