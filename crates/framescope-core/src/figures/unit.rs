//! A figure's unit and how a value in it is written, for every front end.

/// What a figure's value measures, which says how it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Frames per second, written bare ("144.23"; the name says FPS).
    Fps,
    /// Milliseconds, "6.933 ms".
    Ms,
    /// A duration held in ms and written in seconds, "12.346 s".
    Seconds,
    /// A 0..1 share, written in % ("1.23 %"); its differences in percentage points.
    Fraction,
    /// A count, written bare.
    Count,
    /// A plain ratio, written bare.
    Ratio,
    /// Watts, "149.29 W".
    Watts,
    /// Frames per second per watt (frames per joule), "0.305 FPS/W".
    FpsPerWatt,
}

impl Unit {
    /// `v` in the unit's scale with `decimals`, without the unit: a fraction in %, a
    /// duration in s.
    #[must_use]
    pub fn number(self, v: f64, decimals: usize) -> String {
        fixed(self.scaled(v), decimals)
    }

    /// `v` with `decimals` and the unit's suffix.
    #[must_use]
    pub fn format(self, v: f64, decimals: usize) -> String {
        let number = self.number(v, decimals);
        match self.suffix() {
            "" => number,
            suffix => format!("{number} {suffix}"),
        }
    }

    /// A difference `v` of two values: signed when it does not round to zero, a
    /// fraction's in percentage points ("+1.20 pp").
    #[must_use]
    pub fn delta(self, v: f64, decimals: usize) -> String {
        let number = self.number(v, decimals);
        let zero = number.parse::<f64>().is_ok_and(|n| n == 0.0);
        let signed = if v > 0.0 && !zero { format!("+{number}") } else { number };
        match self {
            Self::Fraction => format!("{signed} pp"),
            _ => match self.suffix() {
                "" => signed,
                suffix => format!("{signed} {suffix}"),
            },
        }
    }

    /// What is written after the number ("ms", "s", "%"); empty for bare numbers.
    #[must_use]
    pub const fn suffix(self) -> &'static str {
        match self {
            Self::Ms => "ms",
            Self::Seconds => "s",
            Self::Fraction => "%",
            Self::Watts => "W",
            Self::FpsPerWatt => "FPS/W",
            Self::Fps | Self::Count | Self::Ratio => "",
        }
    }

    fn scaled(self, v: f64) -> f64 {
        match self {
            Self::Seconds => v / 1000.0,
            Self::Fraction => v * 100.0,
            _ => v,
        }
    }
}

/// `v` with `decimals` decimals, never "-0.00".
#[must_use]
pub fn fixed(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.parse::<f64>().is_ok_and(|x| x == 0.0) => rest.to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unit_writes_its_scale_and_suffix() {
        assert_eq!(Unit::Fps.format(144.234_9, 2), "144.23");
        assert_eq!(Unit::Ms.format(6.933_33, 3), "6.933 ms");
        assert_eq!(Unit::Seconds.format(12_345.6, 3), "12.346 s");
        assert_eq!(Unit::Fraction.format(0.012_34, 2), "1.23 %");
        assert_eq!(Unit::Count.format(-0.0, 0), "0");
        assert_eq!(Unit::Fps.number(-0.001, 2), "0.00");
    }

    #[test]
    fn deltas_are_signed_and_shares_move_in_points() {
        assert_eq!(Unit::Fps.delta(1.5, 2), "+1.50");
        assert_eq!(Unit::Fps.delta(-1.5, 2), "-1.50");
        assert_eq!(Unit::Fps.delta(0.001, 2), "0.00");
        assert_eq!(Unit::Fraction.delta(0.012, 2), "+1.20 pp");
        assert_eq!(Unit::Ms.delta(-0.5, 3), "-0.500 ms");
    }
}
