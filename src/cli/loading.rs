//! Reading one file of a command: the capture loaded, its traces picked and trimmed,
//! analysed into runs, and what to say about it on stderr.

use super::TraceSelector;
use super::inputs::Input;
use super::pipeline::{Checks, RowCounts};
use framescope_core::analysis::{Settings, Trim, TrimError};
use framescope_core::ingest::{self, LoadOptions};
use framescope_core::model::{Capture, Trace};
use framescope_core::report::{self, FailedRun, OtherTrace, Run, RunEntry};
use std::io::IsTerminal;

/// How a file's traces were picked and cut.
pub(super) enum Picked {
    /// The whole trace `index`.
    Whole(usize),
    /// A trace, trimmed.
    Trimmed(Box<Trace>),
    /// A trace with nothing left after trimming: the message says so.
    Empty(String),
}

/// A file read, with its picked traces; or the failed run that stands for it.
pub(super) enum Loaded {
    Capture { name: String, capture: Box<Capture>, picked: Vec<Picked>, other_traces: Vec<OtherTrace> },
    Failed(RunEntry, String),
}

/// What every file of a command is read with.
pub(super) struct Job<'a> {
    pub(super) selector: &'a TraceSelector,
    pub(super) opts: LoadOptions,
    pub(super) trim: Trim,
}

impl Job<'_> {
    /// Reads a file and picks (and trims) its traces.
    pub(super) fn load(&self, input: &Input) -> Loaded {
        let name = input.name();
        match input.load(self.opts.clone()) {
            Ok(c) => self.pick(name, c),
            Err(e) => Loaded::Failed(RunEntry::Failed(FailedRun::from_load_error(&name, &e)), e.to_string()),
        }
    }

    /// Picks (and trims) the traces of a capture read as `name`.
    pub(super) fn pick(&self, name: String, capture: Capture) -> Loaded {
        let indices = match self.selector.select(&capture) {
            Ok(i) => i,
            Err(msg) => {
                let msg = format!("{name}: {msg}");
                return Loaded::Failed(RunEntry::Failed(FailedRun::new(&name, msg.clone())), msg);
            }
        };
        let other_traces = if *self.selector == TraceSelector::All {
            Vec::new()
        } else {
            OtherTrace::of(&capture, &indices)
        };
        let picked = indices
            .into_iter()
            .map(|i| {
                if self.trim.is_none() {
                    return Picked::Whole(i);
                }
                let trace = &capture.traces[i];
                match self.trim.cut(trace) {
                    Ok(cut) => Picked::Trimmed(Box::new(cut)),
                    Err(TrimError::NothingLeft { span_s, start_s, end_s }) => Picked::Empty(format!(
                        "{name}: nothing is left after trimming: {} spans {span_s:.3} s, and --trim-start \
                         {start_s} --trim-end {end_s} leave no whole frame",
                        trace.label(),
                    )),
                }
            })
            .collect();
        Loaded::Capture { name, capture: Box::new(capture), picked, other_traces }
    }
}

impl Loaded {
    /// The traces that will be analysed (for one frame-time source over a comparison).
    pub(super) fn traces(&self) -> Vec<&Trace> {
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
    /// and the error messages for stderr.
    pub(super) fn runs(
        &self,
        settings: &Settings,
        markers: Option<&ingest::pcl::MarkerLog>,
    ) -> (Vec<RunEntry>, Vec<String>) {
        match self {
            Self::Failed(entry, msg) => (vec![entry.clone()], vec![msg.clone()]),
            Self::Capture { name, capture, picked, other_traces } => {
                let mut errors = Vec::new();
                let runs = picked
                    .iter()
                    .map(|p| {
                        let trace = match p {
                            Picked::Whole(i) => &capture.traces[*i],
                            Picked::Trimmed(t) => &**t,
                            Picked::Empty(msg) => {
                                errors.push(msg.clone());
                                return RunEntry::Failed(FailedRun::new(name, msg.clone()));
                            }
                        };
                        let mut run = report::run_trace(
                            name,
                            &capture.info,
                            &capture.warnings,
                            trace,
                            settings,
                            markers,
                        );
                        run.other_traces.clone_from(other_traces);
                        RunEntry::Run(Box::new(run))
                    })
                    .collect();
                (runs, errors)
            }
        }
    }

    /// Rows kept and skipped over the whole file.
    pub(super) fn rows(&self) -> RowCounts {
        match self {
            Self::Capture { capture, .. } => RowCounts::of(capture),
            Self::Failed(..) => RowCounts::default(),
        }
    }

    /// The file's name as reported, unless it failed.
    pub(super) fn name(&self) -> Option<&str> {
        match self {
            Self::Capture { name, .. } => Some(name),
            Self::Failed(..) => None,
        }
    }
}

/// What one file gave: its runs, and what to say on stderr.
pub(super) struct FileResult {
    pub(super) entries: Vec<RunEntry>,
    /// Load errors (also in the runs).
    pub(super) errors: Vec<String>,
    /// `--strict` / `--max-skipped` failures.
    pub(super) failures: Vec<String>,
    /// Notes that do not fail.
    pub(super) notes: Vec<String>,
}

impl FileResult {
    /// The result of a file: its runs and errors, with the `--strict` /
    /// `--max-skipped` checks run on them.
    pub(super) fn of(loaded: &Loaded, entries: Vec<RunEntry>, errors: Vec<String>, checks: Checks) -> Self {
        let (failures, notes) = match loaded.name() {
            Some(name) => {
                let runs: Vec<&Run> = entries
                    .iter()
                    .filter_map(|e| match e {
                        RunEntry::Run(r) => Some(&**r),
                        RunEntry::Failed(_) | RunEntry::Etl(_) => None,
                    })
                    .collect();
                checks.check(name, loaded.rows(), &runs)
            }
            None => (Vec::new(), Vec::new()),
        };
        Self { entries, errors, failures, notes }
    }

    /// Prints to stderr: load errors when `echo_errors` (a table on a terminal already
    /// shows them), failures and notes always.
    pub(super) fn print(&self, echo_errors: bool) {
        if echo_errors {
            for e in &self.errors {
                say!("error: {e}");
            }
        }
        for f in &self.failures {
            say!("error: {f}");
        }
        for n in &self.notes {
            say!("warning: {n}");
        }
    }

    /// True when the file failed: a load error or a failed check.
    pub(super) fn failed(&self) -> bool {
        !self.errors.is_empty() || !self.failures.is_empty()
    }
}

/// The entry of an .etl (known by its content): what it holds and its PCL markers'
/// breakdown; `None` for any other input. `--strict` fails it on a warning.
pub(super) fn etl_entry(input: &Input, checks: Checks) -> Option<FileResult> {
    let Input::File(path) = input else { return None };
    if !ingest::etl::is_etl_file(path) {
        return None;
    }
    let name = input.name();
    let (entries, errors) = match ingest::etl::summarize(path) {
        Ok(summary) => {
            (vec![report::etl::EtlRun::entry(&name, summary, ingest::etl::load_marker_log(path))], Vec::new())
        }
        Err(e) => (vec![RunEntry::Failed(FailedRun::from_load_error(&name, &e))], vec![e.to_string()]),
    };
    let warnings = entries.iter().filter_map(|e| match e {
        RunEntry::Etl(run) => Some(run.warnings.iter().filter(|w| !w.informational).count()),
        _ => None,
    });
    let failures = match warnings.sum::<usize>() {
        n if checks.strict && n > 0 => vec![format!("--strict: {name}: {n} warnings")],
        _ => Vec::new(),
    };
    Some(FileResult { entries, errors, failures, notes: Vec::new() })
}

/// Load errors go to stderr, except when the table on a terminal already shows them
/// (both streams end up on one screen: the same error twice).
pub(super) fn echo_errors(table: bool) -> bool {
    !(table && std::io::stdout().is_terminal())
}
