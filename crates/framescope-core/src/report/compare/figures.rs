//! The compared figures: every figure's section, name, direction and value in a
//! [`Run`], as one table ([`FIGURES`]), and finding a figure by name.

use crate::report::Run;

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

/// Finds a figure by `section.name`, or by its bare name when only one section has it
/// (ASCII case-insensitive).
pub fn find_figure(name: &str) -> Result<&'static Figure, FigureError> {
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
        [] => Err(FigureError::Unknown(name.to_owned())),
        _ => Err(FigureError::Ambiguous(name.to_owned())),
    }
}

/// A figure name that names no figure, or more than one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FigureError {
    /// No figure has this name.
    #[error("unknown figure '{0}'")]
    Unknown(String),
    /// A bare name that more than one peer tool's section has.
    #[error("'{0}' is ambiguous; write it as section.name")]
    Ambiguous(String),
}
