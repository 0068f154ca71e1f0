//! The verdict on a compared figure (`metrics.md` §9, §12): better, worse, noise,
//! the same, or neutral — one type for the window's comparison of two runs, the
//! window's comparison of sets and the command line's sets table, so that every front
//! end judges a change by the same rule and writes it with the same word.

use super::compare::{Direction, Entry};
use super::sets::SetEntry;

/// What a compared figure's change amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Better than the baseline (beyond the noise band, or significant for sets).
    Better,
    /// Worse than the baseline (beyond the noise band, or significant for sets).
    Worse,
    /// A change within the runs' noise: inside the noise band (two runs), or with a
    /// 95 % interval that includes 0 (two sets).
    Noise,
    /// Exactly the same value.
    Same,
    /// A figure with no better or worse (frames, duration): context.
    Neutral,
}

impl Verdict {
    /// The verdict on one figure of two runs, with a relative change of at most `band`
    /// (a fraction of the baseline: 0.01 = ±1 %) counting as noise; with a baseline of
    /// 0 (no relative change) any change counts.
    #[must_use]
    pub fn of_runs(entry: &Entry, direction: Direction, band: f64) -> Self {
        if direction == Direction::Neutral {
            return Self::Neutral;
        }
        match (entry.better, entry.relative) {
            (None, _) => Self::Same,
            (Some(_), Some(r)) if r.abs() <= band => Self::Noise,
            (Some(true), _) => Self::Better,
            (Some(false), _) => Self::Worse,
        }
    }

    /// The verdict on one figure of two sets (`metrics.md` §12): better or worse only
    /// for a significant change (the 95 % interval excludes 0), the same when every
    /// run of both sets has the same value, noise otherwise; neutral for a count.
    #[must_use]
    pub fn of_sets(entry: &SetEntry, direction: Direction) -> Self {
        match (entry.better, direction, entry.significant) {
            (Some(true), ..) => Self::Better,
            (Some(false), ..) => Self::Worse,
            (None, Direction::Neutral, _) => Self::Neutral,
            (None, _, false) if entry.delta == 0.0 && entry.df.is_none() => Self::Same,
            (None, ..) => Self::Noise,
        }
    }

    /// The word the tables write: `better`, `worse`, `noise`, `same`, and "" for a
    /// neutral figure.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Better => "better",
            Self::Worse => "worse",
            Self::Noise => "noise",
            Self::Same => "same",
            Self::Neutral => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_entry(delta: f64, better: Option<bool>, significant: bool, df: Option<f64>) -> SetEntry {
        SetEntry {
            baseline: 100.0,
            other: 100.0 + delta,
            delta,
            relative: Some(delta / 100.0),
            better,
            ci95: [delta - 1.0, delta + 1.0],
            significant,
            df,
        }
    }

    /// 100 → 100.5 FPS is +0.5 %: noise within ±1 %, better with a band of ±0.1 %;
    /// 100 → 98 FPS is −2 %: worse with either band.
    #[test]
    fn two_runs_judged_against_the_noise_band() {
        let up = Entry::new(100.0, 100.5, Direction::HigherIsBetter);
        assert_eq!(Verdict::of_runs(&up, Direction::HigherIsBetter, 0.01), Verdict::Noise);
        assert_eq!(Verdict::of_runs(&up, Direction::HigherIsBetter, 0.001), Verdict::Better);
        let down = Entry::new(100.0, 98.0, Direction::HigherIsBetter);
        assert_eq!(Verdict::of_runs(&down, Direction::HigherIsBetter, 0.01), Verdict::Worse);
        let same = Entry::new(100.0, 100.0, Direction::HigherIsBetter);
        assert_eq!(Verdict::of_runs(&same, Direction::HigherIsBetter, 0.01), Verdict::Same);
        let count = Entry::new(100.0, 200.0, Direction::Neutral);
        assert_eq!(Verdict::of_runs(&count, Direction::Neutral, 0.01), Verdict::Neutral);
        // A baseline of 0 has no relative change: any change counts.
        let from_zero = Entry::new(0.0, 0.001, Direction::LowerIsBetter);
        assert_eq!(Verdict::of_runs(&from_zero, Direction::LowerIsBetter, 0.5), Verdict::Worse);
    }

    #[test]
    fn two_sets_judged_by_significance() {
        let d = Direction::HigherIsBetter;
        assert_eq!(Verdict::of_sets(&set_entry(3.0, Some(true), true, Some(4.0)), d), Verdict::Better);
        assert_eq!(Verdict::of_sets(&set_entry(-3.0, Some(false), true, Some(4.0)), d), Verdict::Worse);
        assert_eq!(Verdict::of_sets(&set_entry(0.5, None, false, Some(4.0)), d), Verdict::Noise);
        assert_eq!(Verdict::of_sets(&set_entry(0.0, None, false, None), d), Verdict::Same);
        assert_eq!(
            Verdict::of_sets(&set_entry(9.0, None, false, None), Direction::Neutral),
            Verdict::Neutral
        );
        let words: Vec<&str> =
            [Verdict::Better, Verdict::Worse, Verdict::Noise, Verdict::Same, Verdict::Neutral]
                .map(Verdict::as_str)
                .to_vec();
        assert_eq!(words, ["better", "worse", "noise", "same", ""]);
    }
}
