//! Reading one file of a command through the core's pipeline
//! ([`framescope_core::pipeline`]: the capture loaded, its traces picked and trimmed,
//! analysed into runs), and what to say about it on stderr.

use super::inputs::Input;
use super::pipeline::{Checks, RowCounts};
pub(super) use framescope_core::pipeline::{Job, Loaded, Picked};
use framescope_core::report::{Run, RunEntry};
use std::io::IsTerminal;

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
                checks.check(name, loaded.capture().map(RowCounts::of).unwrap_or_default(), &runs)
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

/// The entry of an .etl (known by its content; [`framescope_core::pipeline::etl_entry`]),
/// `None` for any other input. `--strict` fails it on a warning.
pub(super) fn etl_entry(input: &Input, checks: Checks) -> Option<FileResult> {
    let (entries, errors) = framescope_core::pipeline::etl_entry(input)?;
    let warnings = entries.iter().filter_map(|e| match e {
        RunEntry::Etl(run) => Some(run.warnings.iter().filter(|w| !w.informational).count()),
        _ => None,
    });
    let failures = match warnings.sum::<usize>() {
        n if checks.strict && n > 0 => vec![format!("--strict: {}: {n} warnings", input.name())],
        _ => Vec::new(),
    };
    Some(FileResult { entries, errors, failures, notes: Vec::new() })
}

/// Load errors go to stderr, except when the table on a terminal already shows them
/// (both streams end up on one screen: the same error twice).
pub(super) fn echo_errors(table: bool) -> bool {
    !(table && std::io::stdout().is_terminal())
}
