//! The unit a capture writes a time in: the one [`TimeUnit`] of the PresentMon-family
//! time columns (`formats.md` §1–5) and of a generic CSV's mapped column (`--unit`,
//! `formats.md` §11).

use serde::{Deserialize, Serialize};

/// The unit of a time column: declared by a known header (seconds, QPC ticks,
/// date-time text, MangoHud's nanoseconds), or given by the user for a mapped column
/// (`--unit s|ms|us|ns`; [`TimeUnit::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum TimeUnit {
    /// Seconds.
    Seconds,
    /// Milliseconds (the default of a mapped column).
    #[default]
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds (MangoHud `elapsed`, the Vulkan frame-time layer).
    Nanos,
    /// Ticks of the QPC clock (`TimeInQPC`, `CPUStartQPC`): how long a tick is depends
    /// on the clock's frequency (see [`TimeUnit::to_ms`]).
    Qpc,
    /// `Y-M-D H:MM:SS.n` text (`TimeInDateTime`), read as milliseconds.
    DateTime,
}

impl TimeUnit {
    /// Every unit a user can give a mapped column in (`--unit`, the window's picker):
    /// the plain units, not [`TimeUnit::Qpc`] or [`TimeUnit::DateTime`].
    pub const ALL: [Self; 4] = [Self::Seconds, Self::Millis, Self::Micros, Self::Nanos];

    /// Milliseconds per unit. A date-time text is read in milliseconds (1); a QPC tick
    /// is taken at 10 MHz, the frequency of almost every Windows 10+ machine — a reader
    /// that knows the clock's frequency divides 1000 by it instead.
    #[must_use]
    pub fn to_ms(self) -> f64 {
        match self {
            Self::Seconds => 1000.0,
            Self::Millis | Self::DateTime => 1.0,
            Self::Micros => 1e-3,
            Self::Nanos => 1e-6,
            Self::Qpc => 1e-4,
        }
    }

    /// The CLI's spelling (`s`, `ms`, `us`, `ns`; `qpc` and `datetime` for the
    /// declared-only units).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Seconds => "s",
            Self::Millis => "ms",
            Self::Micros => "us",
            Self::Nanos => "ns",
            Self::Qpc => "qpc",
            Self::DateTime => "datetime",
        }
    }

    /// Parses the CLI's spelling of a unit of [`TimeUnit::ALL`] (`µs` too).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "seconds" => Some(Self::Seconds),
            "ms" => Some(Self::Millis),
            "us" | "µs" | "μs" => Some(Self::Micros),
            "ns" => Some(Self::Nanos),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pickable unit reads back from its own name; the declared-only ones are
    /// not pickable. The scale factors: 1 s = 1000 ms, 1 µs = 0.001 ms, 1 ns = 10⁻⁶ ms.
    #[test]
    fn units_parse_their_names_and_scale_to_ms() {
        for unit in TimeUnit::ALL {
            assert_eq!(TimeUnit::parse(unit.name()), Some(unit));
        }
        assert_eq!(TimeUnit::parse(" µs "), Some(TimeUnit::Micros));
        assert_eq!(TimeUnit::parse("qpc"), None);
        assert_eq!(TimeUnit::parse("datetime"), None);
        let ms: Vec<f64> = TimeUnit::ALL.iter().map(|u| u.to_ms()).collect();
        assert_eq!(ms, [1000.0, 1.0, 1e-3, 1e-6]);
        assert_eq!(TimeUnit::default(), TimeUnit::Millis);
    }
}
