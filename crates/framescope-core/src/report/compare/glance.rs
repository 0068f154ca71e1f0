//! The comparison at a glance: the average frame rate and the run's main latency figure
//! side by side (`metrics.md` §13: latency is compared like FPS), so that frame
//! generation raising FPS while raising latency shows in one line.

use super::Comparison;
use std::fmt::Write as _;

/// The latency figures a glance may show, in order of preference, with their names for
/// people: what the input-to-photon time is best known as in the capture.
pub const LATENCY_PREFERENCE: [(&str, &str); 5] = [
    ("latency.pcl_ms", "PC latency"),
    ("latency.pc_latency_column_mean_ms", "PC latency"),
    ("latency.click_to_photon_mean_ms", "click to photon"),
    ("latency.all_input_to_photon_mean_ms", "input to photon"),
    ("latency.display_latency_mean_ms", "present to display"),
];

/// Average FPS and one latency figure of both sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glance {
    /// Average FPS: baseline, other.
    pub fps: (f64, f64),
    /// The latency figure's name for people and its values (ms): baseline, other.
    pub latency: Option<(&'static str, f64, f64)>,
}

impl Glance {
    /// The glance from a lookup of a figure's two values by `section.name` (two runs or
    /// two set means); `None` without the average FPS on both sides.
    #[must_use]
    pub fn from_lookup(values: impl Fn(&str) -> Option<(f64, f64)>) -> Option<Self> {
        let fps = values("summary.avg_fps")?;
        let latency =
            LATENCY_PREFERENCE.iter().find_map(|&(name, label)| values(name).map(|(b, o)| (label, b, o)));
        Some(Self { fps, latency })
    }

    /// The glance of a two-run comparison.
    #[must_use]
    pub fn of(comparison: &Comparison) -> Option<Self> {
        Self::from_lookup(|name| comparison.row(name).and_then(|r| r.baseline.zip(r.other)))
    }

    /// True when the frame rate rose and the latency rose too (by more than 1 % each):
    /// more frames, but each input reaches the screen later.
    #[must_use]
    pub fn fps_and_latency_up(&self) -> bool {
        let up = |(b, o): (f64, f64)| b > 0.0 && (o - b) / b > 0.01;
        up(self.fps) && self.latency.is_some_and(|(_, b, o)| up((b, o)))
    }

    /// One line: `FPS 30.96 → 45.60 (+47.3 %)   PC latency 68.29 → 95.22 ms (+39.4 %)`,
    /// with a note when both rose.
    #[must_use]
    pub fn text(&self) -> String {
        let rel = |b: f64, o: f64| {
            if b == 0.0 { "—".to_owned() } else { format!("{:+.1} %", (o - b) / b * 100.0) }
        };
        let (fb, fo) = self.fps;
        let mut s = format!("FPS {fb:.2} → {fo:.2} ({})", rel(fb, fo));
        if let Some((label, b, o)) = self.latency {
            let _ = write!(s, "   {label} {b:.2} → {o:.2} ms ({})", rel(b, o));
        }
        if self.fps_and_latency_up() {
            s.push_str("   ⚠ FPS up, latency up: the extra frames do not respond sooner (frame generation?)");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_generation_shows_fps_and_latency_up_together() {
        // Cyberpunk DLAA → DLSS-FG: 30.96 → 45.60 FPS (+47.3 %), PC latency 68.29 → 95.22 ms.
        let g = Glance::from_lookup(|name| match name {
            "summary.avg_fps" => Some((30.96, 45.60)),
            "latency.pc_latency_column_mean_ms" => Some((68.29, 95.22)),
            "latency.display_latency_mean_ms" => Some((20.0, 4.0)),
            _ => None,
        })
        .expect("a glance");
        assert_eq!(g.latency, Some(("PC latency", 68.29, 95.22)), "PC latency is preferred");
        assert!(g.fps_and_latency_up());
        let text = g.text();
        assert!(
            text.starts_with("FPS 30.96 → 45.60 (+47.3 %)   PC latency 68.29 → 95.22 ms (+39.4 %)"),
            "{text}"
        );
        assert!(text.contains("FPS up, latency up"), "{text}");
        // Latency down with FPS up: no warning.
        let g = Glance { fps: (30.0, 45.0), latency: Some(("PC latency", 68.0, 50.0)) };
        assert!(!g.fps_and_latency_up());
        assert!(!g.text().contains('⚠'));
        assert_eq!(Glance::from_lookup(|_| None), None);
    }
}
