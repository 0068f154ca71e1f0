//! What makes a front end safe in a pipeline: `--strict` (any warning or skipped row
//! fails) and `--max-skipped R` (too large a share of skipped rows fails), for the
//! command line and the Python package's `strict=` and `max_skipped=` alike.

use crate::model::{Capture, Warning};
use crate::report::Run;

/// Rows of one file: kept as frames (samples) and skipped with a warning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RowCounts {
    /// Rows kept, over every trace of the file.
    pub kept: u64,
    /// Rows skipped (malformed, no usable frame time, …).
    pub skipped: u64,
}

impl RowCounts {
    /// The rows of a capture: kept entries of every trace, and the rows its warnings
    /// say were skipped.
    #[must_use]
    pub fn of(capture: &Capture) -> Self {
        let kept = capture.traces.iter().map(|t| t.len() as u64).sum();
        let warnings = capture.warnings.iter().chain(capture.traces.iter().flat_map(|t| &t.warnings));
        Self { kept, skipped: warnings.map(skipped_rows).sum() }
    }

    /// Skipped rows as a fraction of the rows read (0 for an empty file).
    #[must_use]
    pub fn skipped_fraction(&self) -> f64 {
        let total = self.kept + self.skipped;
        if total == 0 { 0.0 } else { self.skipped as f64 / total as f64 }
    }
}

/// How many capture rows a warning says were skipped: the count of a
/// [`WarningKind::SkippedRows`](crate::model::WarningKind::SkippedRows); other
/// warnings (and a PCL marker log's, which are not capture rows) count 0.
#[must_use]
pub fn skipped_rows(w: &Warning) -> u64 {
    w.kind.skipped_rows()
}

/// The checks `--strict` and `--max-skipped` ask for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Checks {
    /// `--strict`: any warning or skipped row fails.
    pub strict: bool,
    /// `--max-skipped R`: a file with more than this fraction of its rows skipped fails.
    pub max_skipped: Option<f64>,
}

/// A file's share of skipped rows from which a note is printed even without
/// `--strict` or `--max-skipped`.
const NOTE_SKIPPED: f64 = 0.1;

impl Checks {
    /// The failures of one file (messages for stderr; empty when it passes), and notes
    /// that do not fail. `runs` are the file's reported runs.
    #[must_use]
    pub fn check(&self, file: &str, rows: RowCounts, runs: &[&Run]) -> (Vec<String>, Vec<String>) {
        let (mut failures, mut notes) = (Vec::new(), Vec::new());
        let total = rows.kept + rows.skipped;
        let share = rows.skipped_fraction();
        let skipped = format!("{} of {total} rows skipped ({:.1} %)", rows.skipped, share * 100.0);
        if self.strict {
            // A note on what the file is (a sampled log's rows are samples) is no problem.
            let warnings: Vec<&Warning> =
                runs.iter().flat_map(|r| &r.warnings).filter(|w| !w.informational).collect();
            if let Some(first) = warnings.first() {
                let at = first.line.map_or_else(String::new, |l| format!("line {l}: "));
                failures.push(format!(
                    "--strict: {file}: {} warning{} (first: {at}{}){}",
                    warnings.len(),
                    if warnings.len() == 1 { "" } else { "s" },
                    first.message,
                    if rows.skipped > 0 { format!("; {skipped}") } else { String::new() }
                ));
            } else if rows.skipped > 0 {
                failures.push(format!("--strict: {file}: {skipped}"));
            }
        }
        if let Some(max) = self.max_skipped
            && share > max
        {
            failures.push(format!(
                "--max-skipped {}: {file}: {skipped}, more than {:.1} %",
                crate::report::compare::number(max),
                max * 100.0
            ));
        }
        if failures.is_empty() && share >= NOTE_SKIPPED && self.max_skipped.is_none() {
            notes.push(format!(
                "{file}: {skipped}; the figures use the rest (--max-skipped R or --strict make this fail)"
            ));
        }
        (failures, notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_rows_are_read_from_the_warnings_kinds() {
        use crate::model::WarningKind;
        assert_eq!(
            skipped_rows(&Warning::skipped(3, "row has 6 fields, header has 21; skipped", 1, vec![3])),
            1
        );
        let many =
            Warning::skipped(10, "7 rows have a frame time of 0 or less; skipped (lines 10, …)", 7, vec![10]);
        assert_eq!(skipped_rows(&many), 7);
        // The words do not count: only the kind does.
        assert_eq!(skipped_rows(&Warning::at(3, "12 rows skipped")), 0);
        let marker =
            Warning::at(3, "PCL marker log: not a marker line; skipped").with_kind(WarningKind::MarkerLog);
        assert_eq!(skipped_rows(&marker), 0);
    }

    #[test]
    fn checks_fail_on_warnings_and_skipped_shares() {
        let rows = RowCounts { kept: 10, skipped: 90 };
        let strict = Checks { strict: true, max_skipped: None };
        let (fail, _) = strict.check("a.csv", rows, &[]);
        assert_eq!(fail.len(), 1);
        assert!(fail[0].contains("90 of 100 rows skipped (90.0 %)"), "{}", fail[0]);
        let max = Checks { strict: false, max_skipped: Some(0.5) };
        assert_eq!(max.check("a.csv", rows, &[]).0.len(), 1);
        assert!(max.check("a.csv", RowCounts { kept: 60, skipped: 40 }, &[]).0.is_empty());
        // Without options: no failure, a note from 10 % on.
        let (fail, notes) = Checks::default().check("a.csv", rows, &[]);
        assert!(fail.is_empty() && notes.len() == 1);
        assert!(Checks::default().check("a.csv", RowCounts { kept: 95, skipped: 5 }, &[]).1.is_empty());
    }
}
