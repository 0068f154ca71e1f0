//! `framescope compare` (`cli-report.md`, `metrics.md` §9): a baseline run against
//! another, figure by figure. The regression gate of `--fail-if-worse` lives in
//! [`super::gate`]; its items are re-exported here, so `compare::Gate` and the like
//! keep working.
//!
//! Every compared figure — its JSON section and name, which way it improves, and where
//! its value lives in a [`Run`] — is one line of [`FIGURES`]. The comparison, its JSON,
//! the readable table and the gate all read that table, so the better/worse rule lives
//! in one place.

pub use super::gate::{
    CompareReport, Gate, GateOutcome, GateRule, Limit, NotComparable, Regression, gate_figure_names,
};

use super::Run;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::io::Write;

/// The object of `comparison` a figure belongs to (`comparison.<section>.<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Whole-run counts: frames, dropped frames, duration (an addition to the contract).
    Run,
    /// `metrics.md` §2.
    Summary,
    /// `metrics.md` §3.
    Pacing,
    /// `metrics.md` §4.
    Stutters,
    /// `metrics.md` §5 (an addition to the contract).
    Osc,
    /// `metrics.md` §7.
    Latency,
    /// Application and generated frames apart (`frame_types`; an addition to the
    /// contract): null for captures without generated frames.
    FrameTypes,
    /// CapFrameX's own figures (`metrics.md` §11), `comparison.conventions.capframex`.
    CapFrameX,
    /// FrameView's, `comparison.conventions.frameview`.
    FrameView,
    /// PresentMon app's, `comparison.conventions.presentmon`.
    PresentMon,
    /// MangoHud's, `comparison.conventions.mangohud`.
    MangoHud,
}

impl Section {
    /// Every section, in the order the JSON and the table list them.
    pub const ALL: [Self; 11] = [
        Self::Run,
        Self::Summary,
        Self::Pacing,
        Self::Stutters,
        Self::Osc,
        Self::Latency,
        Self::FrameTypes,
        Self::CapFrameX,
        Self::FrameView,
        Self::PresentMon,
        Self::MangoHud,
    ];

    /// The peer tools' sections (`metrics.md` §11), nested under `conventions`.
    pub const CONVENTIONS: [Self; 4] = [Self::CapFrameX, Self::FrameView, Self::PresentMon, Self::MangoHud];

    /// True for a peer tool's section.
    #[must_use]
    pub fn is_convention(self) -> bool {
        Self::CONVENTIONS.contains(&self)
    }

    /// The peer tool's section called `name` (`capframex`, `frameview`, `presentmon`,
    /// `mangohud`, any case).
    #[must_use]
    pub fn convention(name: &str) -> Option<Self> {
        Self::CONVENTIONS.into_iter().find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether a comparison table lists this section's figures when it shows
    /// `convention`'s figures (`None`: framescope's own): a peer tool's section stands
    /// where framescope's summary would, the other sections stay (`metrics.md` §11).
    #[must_use]
    pub fn listed_with(self, convention: Option<Self>) -> bool {
        match convention {
            Some(tool) => self == tool || !(self.is_convention() || self == Self::Summary),
            None => !self.is_convention(),
        }
    }

    /// The tool's name for people.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Self::CapFrameX => "CapFrameX",
            Self::FrameView => "FrameView",
            Self::PresentMon => "PresentMon",
            Self::MangoHud => "MangoHud",
            other => other.name(),
        }
    }

    /// The section's key in the `comparison` object.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Run => "run",
            Self::Summary => "summary",
            Self::Pacing => "pacing",
            Self::Stutters => "stutters",
            Self::Osc => "osc",
            Self::Latency => "latency",
            Self::FrameTypes => "frame_types",
            Self::CapFrameX => "capframex",
            Self::FrameView => "frameview",
            Self::PresentMon => "presentmon",
            Self::MangoHud => "mangohud",
        }
    }
}

/// Which way a figure improves (`metrics.md` §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Higher is better (FPS figures).
    HigherIsBetter,
    /// Higher is worse (frame times, latencies, stutters, slow/excess time, drops, oscillation).
    LowerIsBetter,
    /// Neither: context for the counts (frames, duration). `better` is always null and
    /// the gate does not accept it.
    Neutral,
}

/// One compared figure: where it is, which way it improves, how to read it from a run.
#[derive(Debug, Clone, Copy)]
pub struct Figure {
    /// Its section of `comparison`.
    pub section: Section,
    /// Its key in the section, as in the run's JSON.
    pub name: &'static str,
    /// Which way it improves.
    pub direction: Direction,
    /// Its value in a run; `None` when the run lacks it.
    pub value: fn(&Run) -> Option<f64>,
}

impl Figure {
    /// `section.name`, the unambiguous name the gate and the table use.
    #[must_use]
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.section.name(), self.name)
    }
}

const fn fig(
    section: Section,
    name: &'static str,
    direction: Direction,
    value: fn(&Run) -> Option<f64>,
) -> Figure {
    Figure { section, name, direction, value }
}

use Direction::{HigherIsBetter as HIGHER, LowerIsBetter as LOWER, Neutral as NEUTRAL};

/// Every compared figure with its direction, in output order: the one place of the
/// `metrics.md` §9 rule. A `static`, so a figure has one address wherever it is
/// found (rows and gate rules are matched with `std::ptr::eq`).
pub static FIGURES: &[Figure] = &[
    fig(Section::Run, "frames", NEUTRAL, |r| Some(r.frames as f64)),
    fig(Section::Run, "duration_ms", NEUTRAL, |r| r.duration_ms),
    fig(Section::Run, "dropped_frames", LOWER, |r| r.dropped_frames.map(|d| d as f64)),
    fig(Section::Summary, "avg_fps", HIGHER, |r| r.summary.map(|s| s.avg_fps)),
    fig(Section::Summary, "min_fps", HIGHER, |r| r.summary.map(|s| s.min_fps)),
    fig(Section::Summary, "max_fps", HIGHER, |r| r.summary.map(|s| s.max_fps)),
    fig(Section::Summary, "p50_ms", LOWER, |r| r.summary.map(|s| s.p50_ms)),
    fig(Section::Summary, "p90_ms", LOWER, |r| r.summary.map(|s| s.p90_ms)),
    fig(Section::Summary, "p95_ms", LOWER, |r| r.summary.map(|s| s.p95_ms)),
    fig(Section::Summary, "p99_ms", LOWER, |r| r.summary.map(|s| s.p99_ms)),
    fig(Section::Summary, "p99_9_ms", LOWER, |r| r.summary.map(|s| s.p99_9_ms)),
    fig(Section::Summary, "low_1pct_fps", HIGHER, |r| r.summary.map(|s| s.low_1pct_fps)),
    fig(Section::Summary, "low_0_1pct_fps", HIGHER, |r| r.summary.map(|s| s.low_0_1pct_fps)),
    fig(Section::Pacing, "steady_fps", HIGHER, |r| r.pacing.map(|p| f64::from(p.steady_fps))),
    fig(Section::Pacing, "mostly_steady_fps", HIGHER, |r| r.pacing.map(|p| f64::from(p.mostly_steady_fps))),
    fig(Section::Pacing, "typical_fps", HIGHER, |r| r.pacing.map(|p| f64::from(p.typical_fps))),
    fig(Section::Pacing, "slow_time_fraction", LOWER, |r| r.pacing.map(|p| p.slow_time_fraction)),
    fig(Section::Pacing, "excess_time_fraction", LOWER, |r| r.pacing.map(|p| p.excess_time_fraction)),
    fig(Section::Stutters, "count", LOWER, |r| r.stutters.as_ref().map(|s| s.count as f64)),
    fig(Section::Stutters, "time_fraction", LOWER, |r| r.stutters.as_ref().map(|s| s.time_fraction)),
    fig(Section::Osc, "oscillating_frames", LOWER, |r| r.osc.as_ref().map(|o| o.oscillating_frames as f64)),
    fig(Section::Osc, "p90_iqr_ms", LOWER, |r| r.osc.as_ref().map(|o| o.p90_iqr_ms)),
    fig(Section::Osc, "p90_iqr_ratio", LOWER, |r| r.osc.as_ref().map(|o| o.p90_iqr_ratio)),
    fig(Section::Latency, "pcl_ms", LOWER, |r| r.latency.and_then(|l| l.pcl_ms)),
    fig(Section::Latency, "i2fs_ms", LOWER, |r| r.latency.and_then(|l| l.i2fs_ms)),
    fig(Section::Latency, "fs2p_ms", LOWER, |r| r.latency.and_then(|l| l.fs2p_ms)),
    fig(Section::Latency, "p2d_ms", LOWER, |r| r.latency.and_then(|l| l.p2d_ms)),
    fig(Section::Latency, "pc_latency_column_mean_ms", LOWER, |r| {
        r.latency.and_then(|l| l.pc_latency_column_mean_ms)
    }),
    fig(Section::Latency, "display_latency_mean_ms", LOWER, |r| {
        r.latency.and_then(|l| l.display_latency_mean_ms)
    }),
    fig(Section::Latency, "click_to_photon_mean_ms", LOWER, |r| {
        r.latency.and_then(|l| l.click_to_photon_mean_ms)
    }),
    fig(Section::Latency, "pc_latency_min_ms", LOWER, |r| r.latency.and_then(|l| l.pc_latency_min_ms)),
    fig(Section::Latency, "pc_latency_max_ms", LOWER, |r| r.latency.and_then(|l| l.pc_latency_max_ms)),
    fig(Section::Latency, "render_present_latency_mean_ms", LOWER, |r| {
        r.latency.and_then(|l| l.render_present_latency_mean_ms)
    }),
    fig(Section::Latency, "all_input_to_photon_mean_ms", LOWER, |r| {
        r.latency.and_then(|l| l.all_input_to_photon_mean_ms)
    }),
    fig(Section::Latency, "animation_error_mean_abs_ms", LOWER, |r| {
        r.latency.and_then(|l| l.animation_error_mean_abs_ms)
    }),
    // Each kind's share of the run's rate (`frame_types.<kind>.fps` in a run).
    fig(Section::FrameTypes, "application_fps", HIGHER, |r| r.frame_types.and_then(|t| t.application.fps)),
    fig(Section::FrameTypes, "generated_fps", HIGHER, |r| r.frame_types.and_then(|t| t.generated.fps)),
    // Each peer tool's own figures (metrics.md §11).
    fig(Section::CapFrameX, "average_fps", HIGHER, |r| cfx(r).map(|c| c.average_fps)),
    fig(Section::CapFrameX, "min_fps", HIGHER, |r| cfx(r).map(|c| c.min_fps)),
    fig(Section::CapFrameX, "max_fps", HIGHER, |r| cfx(r).map(|c| c.max_fps)),
    fig(Section::CapFrameX, "p99_fps", HIGHER, |r| cfx(r).map(|c| c.p99_fps)),
    fig(Section::CapFrameX, "p95_fps", HIGHER, |r| cfx(r).map(|c| c.p95_fps)),
    fig(Section::CapFrameX, "median_fps", HIGHER, |r| cfx(r).map(|c| c.median_fps)),
    fig(Section::CapFrameX, "p5_fps", HIGHER, |r| cfx(r).map(|c| c.p5_fps)),
    fig(Section::CapFrameX, "p1_fps", HIGHER, |r| cfx(r).map(|c| c.p1_fps)),
    fig(Section::CapFrameX, "p0_2_fps", HIGHER, |r| cfx(r).map(|c| c.p0_2_fps)),
    fig(Section::CapFrameX, "p0_1_fps", HIGHER, |r| cfx(r).map(|c| c.p0_1_fps)),
    fig(Section::CapFrameX, "low_1pct_avg_fps", HIGHER, |r| cfx(r).map(|c| c.low_1pct_avg_fps)),
    fig(Section::CapFrameX, "low_0_1pct_avg_fps", HIGHER, |r| cfx(r).map(|c| c.low_0_1pct_avg_fps)),
    fig(Section::CapFrameX, "low_1pct_integral_fps", HIGHER, |r| cfx(r).map(|c| c.low_1pct_integral_fps)),
    fig(Section::CapFrameX, "low_0_1pct_integral_fps", HIGHER, |r| cfx(r).map(|c| c.low_0_1pct_integral_fps)),
    fig(Section::CapFrameX, "stuttering_time_fraction", LOWER, |r| {
        cfx(r).map(|c| c.stuttering_time_fraction)
    }),
    fig(Section::CapFrameX, "low_fps_time_fraction", LOWER, |r| cfx(r).map(|c| c.low_fps_time_fraction)),
    fig(Section::FrameView, "average_fps", HIGHER, |r| fv(r).map(|c| c.average_fps)),
    fig(Section::FrameView, "low_1pct_fps", HIGHER, |r| fv(r).map(|c| c.low_1pct_fps)),
    fig(Section::FrameView, "low_0_1pct_fps", HIGHER, |r| fv(r).map(|c| c.low_0_1pct_fps)),
    fig(Section::FrameView, "fps_10pct", HIGHER, |r| fv(r).map(|c| c.fps_10pct)),
    fig(Section::FrameView, "fps_5pct", HIGHER, |r| fv(r).map(|c| c.fps_5pct)),
    fig(Section::FrameView, "fps_1pct", HIGHER, |r| fv(r).map(|c| c.fps_1pct)),
    fig(Section::FrameView, "fps_0_1pct", HIGHER, |r| fv(r).map(|c| c.fps_0_1pct)),
    fig(Section::PresentMon, "average_fps", HIGHER, |r| pm(r).map(|c| c.average_fps)),
    fig(Section::PresentMon, "p1_fps", HIGHER, |r| pm(r).map(|c| c.p1_fps)),
    fig(Section::PresentMon, "p5_fps", HIGHER, |r| pm(r).map(|c| c.p5_fps)),
    fig(Section::PresentMon, "min_fps", HIGHER, |r| pm(r).map(|c| c.min_fps)),
    fig(Section::PresentMon, "max_fps", HIGHER, |r| pm(r).map(|c| c.max_fps)),
    fig(Section::MangoHud, "average_fps", HIGHER, |r| mh(r).map(|c| c.average_fps)),
    fig(Section::MangoHud, "low_1pct_fps", HIGHER, |r| mh(r).map(|c| c.low_1pct_fps)),
    fig(Section::MangoHud, "low_0_1pct_fps", HIGHER, |r| mh(r).map(|c| c.low_0_1pct_fps)),
    fig(Section::MangoHud, "p97_fps", HIGHER, |r| mh(r).map(|c| c.p97_fps)),
];

fn cfx(r: &Run) -> Option<crate::analysis::conventions::CapFrameX> {
    r.conventions.and_then(|c| c.capframex)
}
fn fv(r: &Run) -> Option<crate::analysis::conventions::FrameView> {
    r.conventions.and_then(|c| c.frameview)
}
fn pm(r: &Run) -> Option<crate::analysis::conventions::PresentMon> {
    r.conventions.and_then(|c| c.presentmon)
}
fn mh(r: &Run) -> Option<crate::analysis::conventions::MangoHud> {
    r.conventions.and_then(|c| c.mangohud)
}

/// One figure compared: `delta = other − baseline`, `relative = delta / baseline`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Entry {
    /// The baseline's value.
    pub baseline: f64,
    /// The other run's value.
    pub other: f64,
    /// `other − baseline`.
    pub delta: f64,
    /// `delta / baseline`; `None` when the baseline is 0.
    pub relative: Option<f64>,
    /// Whether the other run is better (`metrics.md` §9); `None` when delta is 0 or the
    /// figure has no direction.
    pub better: Option<bool>,
}

impl Entry {
    /// Compares two values of a figure that improves in `direction`.
    #[must_use]
    pub fn new(baseline: f64, other: f64, direction: Direction) -> Self {
        let delta = other - baseline;
        let relative = (baseline != 0.0).then(|| delta / baseline);
        let higher = if delta > 0.0 {
            Some(true)
        } else if delta < 0.0 {
            Some(false)
        } else {
            None
        };
        let better = match direction {
            Direction::HigherIsBetter => higher,
            Direction::LowerIsBetter => higher.map(|h| !h),
            Direction::Neutral => None,
        };
        Self { baseline, other, delta, relative, better }
    }

    /// How much worse the other run is in `direction`'s sense (≤ 0 when not worse).
    #[must_use]
    pub fn worse_by(&self, direction: Direction) -> f64 {
        match direction {
            Direction::HigherIsBetter => -self.delta,
            Direction::LowerIsBetter => self.delta,
            Direction::Neutral => 0.0,
        }
    }
}

/// One line of a comparison: the figure, both raw values, and the entry (`None` when
/// either side lacks the figure).
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The figure.
    pub figure: &'static Figure,
    /// The baseline's value, if it has the figure.
    pub baseline: Option<f64>,
    /// The other run's value, if it has the figure.
    pub other: Option<f64>,
    /// The comparison; `None` when either value is missing.
    pub entry: Option<Entry>,
}

impl Row {
    /// Which side lacks the figure: `"baseline"`, `"other"`, `"both"`, or `None`.
    #[must_use]
    pub fn missing(&self) -> Option<&'static str> {
        missing_side(self.baseline.is_some(), self.other.is_some())
    }
}

/// Which side of a comparison lacks a figure, from whether each side has it:
/// `"baseline"`, `"other"`, `"both"`, or `None`.
#[must_use]
pub fn missing_side(baseline: bool, other: bool) -> Option<&'static str> {
    match (baseline, other) {
        (true, true) => None,
        (false, true) => Some("baseline"),
        (true, false) => Some("other"),
        (false, false) => Some("both"),
    }
}

/// A baseline run against another, one [`Row`] per line of [`FIGURES`]. Serializes as
/// the `comparison` object of `cli-report.md`: `{section: {name: Entry | null}}`.
#[derive(Debug, Clone)]
pub struct Comparison {
    rows: Vec<Row>,
    /// The telemetry columns either run has, by name, their means compared (`None`
    /// unless both runs have the column): `comparison.telemetry` in the JSON.
    telemetry: Vec<TelemetryRow>,
}

impl Comparison {
    /// Every row, in [`FIGURES`] order.
    #[must_use]
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The rows a table lists when it shows `convention`'s figures (`None`:
    /// framescope's own; see [`Section::listed_with`]), in [`FIGURES`] order but for
    /// the tool's rows, which stand where framescope's summary would.
    #[must_use]
    pub fn listed(&self, convention: Option<Section>) -> Vec<&Row> {
        let rank = |s: Section| {
            let s = if Some(s) == convention { Section::Summary } else { s };
            Section::ALL.iter().position(|&x| x == s).unwrap_or(Section::ALL.len())
        };
        let mut rows: Vec<&Row> =
            self.rows.iter().filter(|r| r.figure.section.listed_with(convention)).collect();
        rows.sort_by_key(|r| rank(r.figure.section)); // stable: FIGURES order within a section
        rows
    }

    /// The comparison with only the rows [`Comparison::listed`] gives for
    /// `convention`, in its order.
    #[must_use]
    pub fn with_convention(self, convention: Option<Section>) -> Self {
        let rows = self.listed(convention).into_iter().copied().collect();
        Self { rows, telemetry: self.telemetry }
    }

    /// The telemetry columns either run has, their means compared.
    #[must_use]
    pub fn telemetry(&self) -> &[TelemetryRow] {
        &self.telemetry
    }

    /// The row of a figure named `section.name` (or by its bare name when unique).
    #[must_use]
    pub fn row(&self, name: &str) -> Option<&Row> {
        let figure = find_figure(name).ok()?;
        self.rows.iter().find(|r| std::ptr::eq(r.figure, figure))
    }
}

/// Compares `other` against `baseline`, figure by figure (`metrics.md` §9). A value
/// that is missing or not finite on either side gives a null entry.
#[must_use]
pub fn compare(baseline: &Run, other: &Run) -> Comparison {
    let rows = FIGURES
        .iter()
        .map(|figure| {
            let read = |run: &Run| (figure.value)(run).filter(|v| v.is_finite());
            let (b, o) = (read(baseline), read(other));
            let entry = b.zip(o).map(|(b, o)| Entry::new(b, o, figure.direction));
            Row { figure, baseline: b, other: o, entry }
        })
        .collect();
    Comparison { rows, telemetry: compare_telemetry(baseline, other) }
}

/// One telemetry column compared (its run-wide means): neither better nor worse, a
/// higher clock or power is context, not a verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetryRow {
    /// The column, as the capture's header spells it.
    pub column: String,
    /// The baseline's statistics, if it has the column.
    pub baseline: Option<crate::analysis::telemetry::TelemetryStats>,
    /// The other run's, if it has the column.
    pub other: Option<crate::analysis::telemetry::TelemetryStats>,
    /// The means compared ([`Direction::Neutral`]); `None` unless both runs have it.
    pub entry: Option<Entry>,
}

/// Every telemetry column either run has, by name, with the means compared.
#[must_use]
pub fn compare_telemetry(baseline: &Run, other: &Run) -> Vec<TelemetryRow> {
    let mut names: Vec<&String> = baseline.telemetry.keys().chain(other.telemetry.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let (b, o) = (baseline.telemetry.get(name).copied(), other.telemetry.get(name).copied());
            let entry = b.zip(o).map(|(b, o)| Entry::new(b.mean, o.mean, Direction::Neutral));
            TelemetryRow { column: name.clone(), baseline: b, other: o, entry }
        })
        .collect()
}

impl Serialize for Comparison {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Telemetry<'a>(&'a [TelemetryRow]);
        impl Serialize for Telemetry<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for row in self.0 {
                    map.serialize_entry(&row.column, &row.entry)?;
                }
                map.end()
            }
        }
        let cells: Vec<(&'static Figure, Option<Entry>)> =
            self.rows.iter().map(|r| (r.figure, r.entry)).collect();
        let mut map = serializer.serialize_map(None)?;
        BySection(&cells).entries(&mut map)?;
        map.serialize_entry("telemetry", &Telemetry(&self.telemetry))?;
        map.end()
    }
}

/// One value per figure, serialized as `comparison` is: `{section: {name: value}}`, the
/// peer tools' sections nested under `conventions`. Figures absent from the list are
/// left out; the sets report uses it for means and standard deviations too.
pub struct BySection<'a, T>(pub &'a [(&'static Figure, T)]);

impl<T: Serialize> Serialize for BySection<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.entries(&mut map)?;
        map.end()
    }
}

impl<T: Serialize> BySection<'_, T> {
    /// Writes the sections (and `conventions`) into `map`.
    fn entries<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        struct SectionView<'a, T>(&'a [(&'static Figure, T)], Section);
        impl<T: Serialize> Serialize for SectionView<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(None)?;
                for (figure, value) in self.0.iter().filter(|(f, _)| f.section == self.1) {
                    map.serialize_entry(figure.name, value)?;
                }
                map.end()
            }
        }
        struct Conventions<'a, T>(&'a [(&'static Figure, T)]);
        impl<T: Serialize> Serialize for Conventions<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(Section::CONVENTIONS.len()))?;
                for section in Section::CONVENTIONS {
                    map.serialize_entry(section.name(), &SectionView(self.0, section))?;
                }
                map.end()
            }
        }
        for section in Section::ALL.into_iter().filter(|s| !s.is_convention()) {
            map.serialize_entry(section.name(), &SectionView(self.0, section))?;
        }
        map.serialize_entry("conventions", &Conventions(self.0))
    }
}

/// Finds a figure by `section.name`, or by its bare name when only one section has it
/// (ASCII case-insensitive).
pub fn find_figure(name: &str) -> Result<&'static Figure, String> {
    let name = name.trim();
    let name = name.strip_prefix("conventions.").unwrap_or(name);
    let mut matches: Vec<&'static Figure> = match name.split_once('.') {
        Some((section, bare)) => FIGURES
            .iter()
            .filter(|f| f.section.name().eq_ignore_ascii_case(section) && f.name.eq_ignore_ascii_case(bare))
            .collect(),
        None => FIGURES.iter().filter(|f| f.name.eq_ignore_ascii_case(name)).collect(),
    };
    // A bare name framescope and a peer tool share (`low_1pct_fps`) means framescope's.
    if matches.len() > 1 && matches.iter().filter(|f| !f.section.is_convention()).count() == 1 {
        matches.retain(|f| !f.section.is_convention());
    }
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(format!("unknown figure '{name}'")),
        _ => Err(format!("'{name}' is ambiguous; write it as section.name")),
    }
}

/// A figure's value for people: whole numbers without decimals, others rounded by
/// magnitude (2 decimals from 100, 3 from 1, else 4).
#[must_use]
pub fn number(v: f64) -> String {
    let v = v + 0.0; // -0 (an empty sum) prints as 0
    if v.fract().abs() < 1e-12 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.2}")
    } else if v.abs() >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

/// Writes the comparison as aligned text: figure, baseline, other, delta, relative %,
/// better/worse. Figures missing on both sides are left out (and counted). With a peer
/// tool's section (`convention`), that tool's figures stand where framescope's summary
/// would (`metrics.md` §11); otherwise no peer figures are listed.
pub fn write_comparison_table(
    comparison: &Comparison,
    convention: Option<Section>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "comparison: other against baseline")?;
    writeln!(
        out,
        "  {:<40} {:>12} {:>12} {:>12} {:>10}  verdict",
        "figure", "baseline", "other", "delta", "relative"
    )?;
    let mut hidden = 0;
    let listed = comparison.listed(convention);
    if let Some(tool) = convention {
        writeln!(out, "  (figures as {} computes them: {}.*)", tool.title(), tool.name())?;
    }
    for row in listed {
        let side = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), number);
        let name = super::escape::text(&row.figure.qualified_name()).into_owned();
        let (delta, relative, verdict) = match (row.entry, row.missing()) {
            (_, Some("both")) => {
                hidden += 1;
                continue;
            }
            (Some(e), None) => {
                let delta = if e.delta > 0.0 { format!("+{}", number(e.delta)) } else { number(e.delta) };
                let relative = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                let verdict = match (e.better, row.figure.direction) {
                    (Some(true), _) => "better",
                    (Some(false), _) => "worse",
                    (None, Direction::Neutral) => "",
                    (None, _) => "same",
                };
                (delta, relative, verdict)
            }
            _ => ("—".to_owned(), "—".to_owned(), "not comparable"),
        };
        writeln!(
            out,
            "  {name:<40} {:>12} {:>12} {delta:>12} {relative:>10}  {verdict}",
            side(row.baseline),
            side(row.other)
        )?;
    }
    if hidden > 0 {
        writeln!(out, "  ({hidden} figures neither run has are not shown; see --json)")?;
    }
    if !comparison.telemetry.is_empty() {
        writeln!(out, "  telemetry means (context, neither better nor worse):")?;
        for row in &comparison.telemetry {
            let name = format!("telemetry.{}", row.column);
            if let Some(e) = row.entry {
                let delta = if e.delta > 0.0 { format!("+{}", number(e.delta)) } else { number(e.delta) };
                let relative = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                writeln!(
                    out,
                    "  {name:<40} {:>12} {:>12} {delta:>12} {relative:>10}",
                    number(e.baseline),
                    number(e.other)
                )?;
            } else {
                let side = |t: Option<crate::analysis::telemetry::TelemetryStats>| {
                    t.map_or_else(|| "—".to_owned(), |t| number(t.mean))
                };
                writeln!(
                    out,
                    "  {name:<40} {:>12} {:>12} {:>12} {:>10}  one run only",
                    side(row.baseline),
                    side(row.other),
                    "—",
                    "—"
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::analysis::{Latency, Oscillation, Pacing, Stutters, Summary};

    /// A sample run: its duration and summary frame times scale by `scale`, its summary
    /// rates by `1 / scale`. Shared with the gate's tests.
    pub(in crate::report) fn run(scale: f64) -> Run {
        Run {
            file: "a.csv".into(),
            format: "presentmon-1",
            format_version: "1.x".into(),
            application: "game.exe".into(),
            process_id: Some(1),
            swap_chain: None,
            runtime: None,
            present_modes: Vec::new(),
            frame_time: "presents",
            sampled: false,
            conventions: None,
            telemetry: crate::analysis::Telemetry::new(),
            other_traces: Vec::new(),
            samples: None,
            frames: 1000,
            dropped_frames: Some(7),
            duration_ms: Some(10_000.0 * scale),
            warnings: Vec::new(),
            summary: Some(Summary {
                avg_fps: 100.0 / scale,
                min_fps: 50.0 / scale,
                max_fps: 200.0 / scale,
                p50_ms: 10.0 * scale,
                p90_ms: 11.0 * scale,
                p95_ms: 12.0 * scale,
                p99_ms: 13.0 * scale,
                p99_9_ms: 14.0 * scale,
                low_1pct_fps: 70.0 / scale,
                low_0_1pct_fps: 60.0 / scale,
            }),
            pacing: Some(Pacing {
                steady_fps: 41,
                mostly_steady_fps: 98,
                typical_fps: 158,
                slow_time_fraction: 0.0,
                excess_time_fraction: 0.01,
            }),
            stutters: Some(Stutters { count: 3, time_fraction: 0.004, frames: vec![1, 2, 3] }),
            osc: Some(Oscillation {
                flag: false,
                p90_iqr_ms: 1.5,
                p90_iqr_ratio: 1.1,
                oscillating_frames: 0,
                oscillating: Vec::new(),
            }),
            health: None,
            latency: Some(Latency { display_latency_mean_ms: Some(12.0), ..Latency::default() }),
            vsync: None,
            frame_types: None,
        }
    }

    #[test]
    fn compare_every_table_name_is_the_runs_json_name() {
        let r = run(1.0);
        let json = serde_json::to_value(&r).unwrap();
        for f in FIGURES {
            let v = match (f.section, f.name.strip_suffix("_fps")) {
                (Section::Run, _) => &json[f.name],
                (Section::FrameTypes, Some(kind)) => &json["frame_types"][kind]["fps"],
                (s, _) => &json[s.name()][f.name],
            };
            assert_eq!(v.as_f64(), (f.value)(&r), "{}", f.qualified_name());
        }
    }

    #[test]
    fn compare_delta_relative_and_direction() {
        let (a, b) = (run(1.0), run(1.25));
        let c = compare(&a, &b);
        let avg = c.row("avg_fps").unwrap().entry.unwrap();
        assert!((avg.delta - (80.0 - 100.0)).abs() < 1e-12);
        assert!((avg.relative.unwrap() + 0.2).abs() < 1e-12);
        assert_eq!(avg.better, Some(false));
        let p99 = c.row("summary.p99_ms").unwrap().entry.unwrap();
        assert_eq!(p99.better, Some(false));
        // Equal values: delta 0, better null. Baseline 0: relative null.
        let steady = c.row("steady_fps").unwrap().entry.unwrap();
        assert_eq!(steady.better, None);
        let slow = c.row("slow_time_fraction").unwrap().entry.unwrap();
        assert_eq!((slow.relative, slow.better), (None, None));
        // Neutral figures never say better or worse.
        assert_eq!(c.row("duration_ms").unwrap().entry.unwrap().better, None);
        // Missing on both sides: null entry, and in the JSON.
        assert!(c.row("pcl_ms").unwrap().entry.is_none());
        let json = serde_json::to_value(&c).unwrap();
        assert!(json["latency"]["pcl_ms"].is_null());
        assert_eq!(json["summary"]["avg_fps"]["better"], serde_json::Value::Bool(false));
        // Every section, the peer tools' nested under `conventions`, and `telemetry`.
        let core = Section::ALL.len() - Section::CONVENTIONS.len();
        assert_eq!(json.as_object().unwrap().len(), core + 2);
        assert!(json["telemetry"].is_object());
        assert_eq!(json["conventions"].as_object().unwrap().len(), Section::CONVENTIONS.len());
    }

    #[test]
    fn compare_frame_generation_rates() {
        use crate::analysis::framegen::{FrameTypes, KindFigures};
        let with_kinds = |scale: f64| {
            let mut r = run(scale);
            let fps = r.summary.map(|s| s.avg_fps);
            let kind = |frames| KindFigures { count: frames + 1, fps, frames, summary: r.summary };
            r.frame_types = Some(FrameTypes { application: kind(400), generated: kind(600) });
            r
        };
        let (a, b) = (with_kinds(1.0), with_kinds(1.25));
        let c = compare(&a, &b);
        let app = c.row("frame_types.application_fps").unwrap().entry.unwrap();
        assert!((app.baseline - 100.0).abs() < 1e-12 && (app.other - 80.0).abs() < 1e-12);
        assert_eq!(app.better, Some(false));
        assert!(c.row("generated_fps").unwrap().entry.is_some());
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["frame_types"]["generated_fps"]["better"], serde_json::Value::Bool(false));
        // A run without generated frames: nothing to compare, null in the JSON.
        let c = compare(&a, &run(1.0));
        assert_eq!(c.row("application_fps").unwrap().missing(), Some("other"));
        assert!(serde_json::to_value(&c).unwrap()["frame_types"]["application_fps"].is_null());
    }

    /// GPU clock in both runs (1500 → 1800 MHz: delta 300, +20 %, no verdict), GPU
    /// power in the other only; union by name, sorted.
    #[test]
    fn compare_telemetry_means_without_a_verdict() {
        use crate::analysis::telemetry::TelemetryStats;
        let stats = |mean: f64| TelemetryStats { mean, min: mean - 100.0, max: mean + 100.0 };
        let mut a = run(1.0);
        let mut b = run(1.0);
        a.telemetry.insert("GPU0Clk(MHz)".into(), stats(1500.0));
        b.telemetry.insert("GPU0Clk(MHz)".into(), stats(1800.0));
        b.telemetry.insert("CPU Package Power(W)".into(), stats(90.0));
        let rows = compare_telemetry(&a, &b);
        let names: Vec<&str> = rows.iter().map(|r| r.column.as_str()).collect();
        assert_eq!(names, ["CPU Package Power(W)", "GPU0Clk(MHz)"]);
        assert_eq!((rows[0].baseline, rows[0].entry), (None, None));
        let e = rows[1].entry.unwrap();
        assert!((e.delta - 300.0).abs() < 1e-12 && (e.relative.unwrap() - 0.2).abs() < 1e-12);
        assert_eq!(e.better, None);
    }

    /// Framescope's own figures hide the peers'; a tool's figures stand in for the
    /// summary and leave the other tools out.
    #[test]
    fn a_convention_replaces_the_summary() {
        let c = compare(&run(1.0), &run(1.25));
        let sections = |convention| {
            let mut s: Vec<Section> = c.listed(convention).iter().map(|r| r.figure.section).collect();
            s.dedup();
            s
        };
        let own = sections(None);
        assert!(own.contains(&Section::Summary) && !own.iter().any(|s| s.is_convention()));
        let fv = sections(Some(Section::FrameView));
        // FrameView's rows where the summary's were: after the run's counts.
        assert_eq!(fv[..3], [Section::Run, Section::FrameView, Section::Pacing]);
        assert!(!fv.contains(&Section::Summary) && !fv.contains(&Section::CapFrameX));
    }

    #[test]
    fn compare_missing_on_one_side_is_null() {
        let a = run(1.0);
        let mut b = run(1.0);
        b.summary = None;
        b.dropped_frames = None;
        let c = compare(&a, &b);
        assert!(c.row("avg_fps").unwrap().entry.is_none());
        assert_eq!(c.row("dropped_frames").unwrap().missing(), Some("other"));
    }
}
