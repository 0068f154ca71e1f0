//! Implausible durations (`metrics.md` §1): some writers put an unsigned overflow such
//! as 1.8·10¹⁵ ms in a cell. A frame time of 10⁶ ms (about 17 minutes) or more is no
//! frame (the row is skipped); in any other duration column (actions, latency, the
//! display interval) such a cell is missing, and a warning per column says so.

use crate::model::Warning;

/// Durations (ms) of this magnitude or more are no measurement.
pub const IMPLAUSIBLE_MS: f64 = 1e6;

/// Frame times (ms) a real frame can have: 1 ns up to, not including, 10⁶ ms.
pub const PLAUSIBLE_FRAME_TIME_MS: std::ops::Range<f64> = 1e-6..IMPLAUSIBLE_MS;

/// True when a duration cell's value (ms, any sign: some stages are signed) is
/// plausible.
#[inline]
#[must_use]
pub fn plausible_duration(v: f64) -> bool {
    v.abs() < IMPLAUSIBLE_MS
}

/// Counts the implausible cells of one duration column, keeping the first one's line
/// and value.
#[derive(Debug, Clone, Copy, Default)]
pub struct OverflowCells {
    count: u64,
    first_line: u64,
    first_value: f64,
}

impl OverflowCells {
    /// Counts one implausible cell.
    pub fn note(&mut self, line: u64, value: f64) {
        if self.count == 0 {
            self.first_line = line;
            self.first_value = value;
        }
        self.count += 1;
    }

    /// Adds the cells of `later` (rows after these), as if they were noted here.
    pub fn merge(&mut self, later: Self) {
        if self.count == 0 {
            *self = later;
        } else {
            self.count += later.count;
        }
    }

    /// The warning for column `name`, when it had such cells.
    #[must_use]
    pub fn warning(&self, name: &str) -> Option<Warning> {
        let what = match self.count {
            0 => return None,
            1 => "1 value is".to_owned(),
            n => format!("{n} values are"),
        };
        Some(
            Warning::at(
                self.first_line,
                format!(
                    "column {name}: {what} implausible (10⁶ ms or more; first: {}); read as missing",
                    self.first_value
                ),
            )
            .with_kind(crate::model::WarningKind::OverflowCells {
                column: name.to_owned(),
                count: self.count,
            }),
        )
    }
}

/// Per column name, the implausible cells seen (few columns ever have any, so a
/// list searched by name is enough).
#[derive(Debug, Clone, Default)]
pub struct OverflowLog(Vec<(String, OverflowCells)>);

impl OverflowLog {
    /// Counts one implausible cell of column `name`.
    pub fn note(&mut self, name: &str, line: u64, value: f64) {
        if let Some(entry) = self.0.iter_mut().find(|e| e.0 == name) {
            entry.1.note(line, value);
        } else {
            let mut cells = OverflowCells::default();
            cells.note(line, value);
            self.0.push((name.to_owned(), cells));
        }
    }

    /// Adds the cells of `later` (rows after these), as if they were noted here.
    pub fn merge(&mut self, later: Self) {
        for (name, cells) in later.0 {
            if let Some(entry) = self.0.iter_mut().find(|e| e.0 == name) {
                entry.1.merge(cells);
            } else {
                self.0.push((name, cells));
            }
        }
    }

    /// One warning per column that had implausible cells, in the order first seen.
    #[must_use]
    pub fn warnings(&self) -> Vec<Warning> {
        self.0.iter().filter_map(|(name, cells)| cells.warning(name)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_a_million_ms_either_sign() {
        assert!(plausible_duration(999_999.999));
        assert!(plausible_duration(-12.5));
        assert!(!plausible_duration(1e6));
        assert!(!plausible_duration(1_844_674_407_370_950.8));
        assert!(!plausible_duration(-1_844_674_407_370_933.5));
        assert!(!plausible_duration(f64::NAN));
        assert!(PLAUSIBLE_FRAME_TIME_MS.contains(&69_000.0), "F1 24's 69 s pause is a frame");
        assert!(!PLAUSIBLE_FRAME_TIME_MS.contains(&1e6));
    }

    #[test]
    fn one_warning_per_column_naming_the_first_cell() {
        let mut log = OverflowLog::default();
        assert!(log.warnings().is_empty());
        log.note("MsBetweenDisplayChange", 7, 1_844_674_407_370_950.8);
        log.note("MsAnimationError", 9, -2e15);
        log.note("MsBetweenDisplayChange", 12, 3e6);
        let w = log.warnings();
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].line, Some(7));
        assert!(
            w[0].message.starts_with("column MsBetweenDisplayChange: 2 values are implausible"),
            "{}",
            w[0].message
        );
        assert!(w[0].message.contains("1844674407370950.8"), "{}", w[0].message);
        assert!(w[1].message.contains("1 value is implausible"), "{}", w[1].message);
    }
}
