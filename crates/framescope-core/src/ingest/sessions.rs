//! Logging sessions of a sampled log (`metrics.md` §10): loggers append one session
//! after another to the same file with no marker (MSI Afterburner does; one log can
//! hold several games). A step between consecutive timed rows longer than
//! [`GAP_FACTOR`] × the log's median positive step starts a new session; each session
//! is a trace of its own, named `session N` with its start, and a gap's time belongs
//! to no sample (the row after a gap opens its session, as the first row opens a log).

use crate::model::{Trace, Warning, WarningKind};

/// A step longer than this many median steps starts a session.
pub const GAP_FACTOR: f64 = 5.0;

/// How a log tells time, for naming its sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionClock {
    /// Wall-clock times in ms since 1970 (Afterburner's `dd-mm-yyyy HH:MM:SS`): a
    /// session is named by its first row's time of day, `session 2 (12:41:07)`.
    WallClock,
    /// Elapsed times (NVIDIA App seconds, MangoHud ns): a session is named by its start
    /// after the log's first row, `session 2 (at 312.5 s)`.
    Elapsed,
}

/// Where the sessions of a log start: indices into `times`, the times (ms) of its timed
/// rows in file order. Always starts with 0 when there is a row; one entry means one
/// session. Steps that are not positive (repeated or backward times) never start one.
#[must_use]
pub fn starts(times: &[f64]) -> Vec<usize> {
    if times.is_empty() {
        return Vec::new();
    }
    let mut steps: Vec<f64> =
        times.windows(2).map(|w| w[1] - w[0]).filter(|s| *s > 0.0 && s.is_finite()).collect();
    steps.sort_unstable_by(f64::total_cmp);
    let median = crate::model::percentile(&steps, 0.5);
    let mut out = vec![0];
    if median.is_finite() {
        out.extend((1..times.len()).filter(|&i| times[i] - times[i - 1] > GAP_FACTOR * median));
    }
    out
}

/// One session: its timed rows (indices into the log's timed rows) and samples.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// Its timed rows; the first opens it and is no sample.
    pub rows: std::ops::Range<usize>,
    /// Its samples (indices into the log's samples).
    pub samples: std::ops::Range<usize>,
}

/// The sessions of a log whose samples were made from the timed rows `ordinal` (the
/// place of each sample's row among the timed rows, ascending): the sample a gap's row
/// would have made (the gap's time) belongs to no session.
#[must_use]
pub fn sessions(starts: &[usize], timed_rows: usize, ordinal: &[u64]) -> Vec<Session> {
    let sample_at = |row: usize| ordinal.partition_point(|&o| o < row as u64);
    (0..starts.len())
        .map(|k| {
            let first = starts[k];
            let end = starts.get(k + 1).copied().unwrap_or(timed_rows);
            Session { rows: first..end, samples: sample_at(first + 1)..sample_at(end) }
        })
        .collect()
}

/// A session's name: `session N (12:41:07)` or `session N (at 312.5 s)`; `start_ms`
/// is its first row's time, `origin_ms` the log's first row's.
#[must_use]
pub fn name(n: usize, start_ms: f64, origin_ms: f64, clock: SessionClock) -> String {
    match clock {
        SessionClock::WallClock => {
            let s = (start_ms / 1000.0).floor() as i64;
            let day = s.rem_euclid(86_400);
            format!("session {n} ({:02}:{:02}:{:02})", day / 3600, day / 60 % 60, day % 60)
        }
        SessionClock::Elapsed => format!("session {n} (at {:.1} s)", (start_ms - origin_ms) / 1000.0),
    }
}

/// Splits the trace of a whole log into one trace per session with samples, named
/// `names[k]`; each trace keeps the warnings of lines inside its rows (`first_lines[k]`
/// is the file line of session k's first row), and the warnings without a line. A
/// session without samples is no trace: the note says so.
#[must_use]
pub fn split(
    whole: &Trace,
    sessions: &[Session],
    names: &[String],
    first_lines: &[u64],
) -> (Vec<Trace>, Vec<Warning>) {
    let mut traces = Vec::new();
    let mut notes = Vec::new();
    for (k, s) in sessions.iter().enumerate() {
        if s.samples.is_empty() {
            notes.push(
                Warning::note(format!("{} has no usable sample; it is no run", names[k]))
                    .with_kind(WarningKind::EmptySession),
            );
            continue;
        }
        let mut t = whole.slice(s.samples.clone());
        t.meta.application.clone_from(&names[k]);
        let (from, to) = (first_lines[k], first_lines.get(k + 1).copied().unwrap_or(u64::MAX));
        t.warnings = whole
            .warnings
            .iter()
            .filter(|w| w.line.is_none_or(|l| (from..to).contains(&l) || (k == 0 && l < from)))
            .cloned()
            .collect();
        traces.push(t);
    }
    (traces, notes)
}

/// The file-level note of a log with several sessions: how many, the gaps between
/// them (`times` the timed rows' times), and the rule.
#[must_use]
pub fn note(starts: &[usize], times: &[f64], names: &[String]) -> Warning {
    let gaps: Vec<String> = starts[1..].iter().map(|&i| duration_text(times[i] - times[i - 1])).collect();
    Warning::note(format!(
        "the log holds {} logging sessions (a step between rows of more than {GAP_FACTOR} times the median \
         step starts one; gaps of {}): each is a run of its own, and a gap's time belongs to no sample: {}",
        starts.len(),
        gaps.join(", "),
        names.join(", ")
    ))
    .with_kind(WarningKind::LoggingSessions { count: starts.len() })
}

/// `4 min 12 s`, `38.5 s`.
fn duration_text(ms: f64) -> String {
    let s = ms / 1000.0;
    if s >= 60.0 {
        let whole = s.round() as i64;
        format!("{} min {} s", whole / 60, whole % 60)
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows every second, then a 4-minute gap, then every second again: the median
    /// positive step is 1 s, so the 240 s step (> 5 s) starts session 2 at row 4.
    #[test]
    fn a_long_step_starts_a_session() {
        let times = [0.0, 1000.0, 2000.0, 3000.0, 243_000.0, 244_000.0, 245_000.0];
        assert_eq!(starts(&times), [0, 4]);
        // Whole-second clocks at 0.3 s polling: rows 0, 0, 0, 1, 1, 1, 2, … s (steps 0
        // or 1 s, median positive step 1 s); then steps of 5 s (no gap) and 6 s (a gap).
        let mut polled: Vec<f64> = (0..30).map(|i| f64::from(i / 3) * 1000.0).collect();
        polled.extend([14_000.0, 14_000.0, 20_000.0, 20_000.0]);
        assert_eq!(starts(&polled), [0, 32]);
        assert_eq!(starts(&[5.0, 5.0]), [0], "no positive step: one session");
        assert!(starts(&[]).is_empty());
        // A step back is no gap.
        assert_eq!(starts(&[0.0, 1000.0, 2000.0, -9e9, -9e9 + 1000.0]), [0]);
    }

    /// Samples at rows 1, 2, 3 (session 1: rows 0..4) and 4, 5, 6 (session 2 opens at
    /// row 4): the sample made at row 4 would span the gap and is in no session.
    #[test]
    fn the_row_after_a_gap_opens_its_session() {
        let s = sessions(&[0, 4], 7, &[1, 2, 3, 4, 5, 6]);
        assert_eq!(s[0], Session { rows: 0..4, samples: 0..3 });
        assert_eq!(s[1], Session { rows: 4..7, samples: 4..6 });
        // Row 4 made no sample (its rate was missing): nothing to leave out.
        let s = sessions(&[0, 4], 7, &[1, 2, 3, 5, 6]);
        assert_eq!(s[1].samples, 3..5);
        assert_eq!(sessions(&[0], 3, &[1, 2]), [Session { rows: 0..3, samples: 0..2 }]);
    }

    #[test]
    fn names_by_clock_or_elapsed_time() {
        // 24-10-2025 12:41:07 is 1 761 309 667 s after 1970-01-01 00:00:00.
        assert_eq!(name(2, 1_761_309_667_000.0, 0.0, SessionClock::WallClock), "session 2 (12:41:07)");
        assert_eq!(name(3, 315_500.0, 3_000.0, SessionClock::Elapsed), "session 3 (at 312.5 s)");
        assert_eq!(duration_text(252_000.0), "4 min 12 s");
        assert_eq!(duration_text(38_460.0), "38.5 s");
    }
}
