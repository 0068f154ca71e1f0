//! The figure registry: every figure framescope reports, defined once — its JSON
//! section and key, its name for people, its unit and decimals, which way it improves,
//! its definition, and where its value lives in a [`Run`] ([`FIGURES`]). The readable
//! table, the JSON comparison, the HTML page, the window's panels and comparison
//! tables, the gate and the Python package all read it.
//!
//! Adding a figure: compute it in `analysis` and put it in the run's JSON
//! (`report::Run`), add one [`Figure`] to its section's file (`own.rs`, `latency.rs` or
//! `peers.rs`; `registry.rs` joins them), and test its value. Every
//! front end then names, writes, compares and gates it.

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
    /// `metrics.md` §13: what limits the frame rate (no direction is better).
    Limiter,
    /// Application and generated frames apart (`frame_types`; an addition to the
    /// contract): null for captures without generated frames.
    FrameTypes,
    /// `metrics.md` §15: frames per joule (an addition to the contract's comparison).
    Efficiency,
    /// `metrics.md` §10: a sampled log's own per-frame figures as its tool wrote them
    /// (RTSS, NVIDIA App); `tool_figures` in a run's JSON.
    ToolFigures,
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
    pub const ALL: [Self; 14] = [
        Self::Run,
        Self::Summary,
        Self::Pacing,
        Self::Stutters,
        Self::Osc,
        Self::Latency,
        Self::Limiter,
        Self::FrameTypes,
        Self::Efficiency,
        Self::ToolFigures,
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

    /// True for figures another tool computed or defines (the peer tools' sections and
    /// a sampled log's own `tool_figures`): a bare name they share with framescope's
    /// own figures means framescope's.
    #[must_use]
    pub fn is_another_tools(self) -> bool {
        self.is_convention() || self == Self::ToolFigures
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

    /// Its heading over its figures in a page's or window's table.
    #[must_use]
    pub const fn heading(self) -> &'static str {
        match self {
            Self::Run => "Run",
            Self::Summary => "Frame rate and frame time",
            Self::Pacing => "Pacing (at the target for slow and excess time)",
            Self::Stutters => "Stutters",
            Self::Osc => "Oscillation",
            Self::Latency => "Latency",
            Self::Limiter => "What limits the frame rate (CPU · GPU)",
            Self::FrameTypes => "Frame generation",
            Self::Efficiency => "Efficiency (frames per joule)",
            Self::ToolFigures => "The logging tool's own figures (per frame)",
            other => other.title(),
        }
    }

    /// The section of `metrics.md` that defines its figures.
    #[must_use]
    pub const fn spec(self) -> &'static str {
        match self {
            Self::Run | Self::Summary => "metrics.md §2",
            Self::Pacing => "metrics.md §3",
            Self::Stutters => "metrics.md §4",
            Self::Osc => "metrics.md §5",
            Self::Latency => "metrics.md §7",
            Self::Limiter => "metrics.md §13",
            Self::FrameTypes => "metrics.md §1",
            Self::Efficiency => "metrics.md §15",
            Self::ToolFigures => "metrics.md §10",
            Self::CapFrameX | Self::FrameView | Self::PresentMon | Self::MangoHud => "metrics.md §11",
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
            Self::Limiter => "limiter",
            Self::FrameTypes => "frame_types",
            Self::Efficiency => "efficiency",
            Self::ToolFigures => "tool_figures",
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
    /// Higher is better for the gate, but the comparison never calls it better or worse
    /// (`better` null): `max_fps`, which a single fastest frame decides (`metrics.md` §9).
    Unjudged,
}

mod latency;
mod own;
mod peers;
mod registry;
mod unit;

pub use registry::FIGURES;
pub use unit::{Unit, fixed};

/// One figure: where it is in a run's JSON, what people call it, how its value is
/// written, which way it improves, what it means, how to read it from a run.
#[derive(Debug, Clone, Copy)]
pub struct Figure {
    /// Its section of a run's JSON and of `comparison`.
    pub section: Section,
    /// Its key in the section, as in the run's JSON.
    pub name: &'static str,
    /// Its name for people ("1% low FPS"); a peer tool's figure by the tool's own name
    /// ("1% Low FPS"), which [`Figure::display_name`] prefixes with the tool.
    pub title: &'static str,
    /// Its label in the readable table's line for its section ("1% low"); empty when
    /// the table does not list it.
    pub label: &'static str,
    /// Its unit.
    pub unit: Unit,
    /// The decimals its value is written with (in its unit: a fraction's in %).
    pub decimals: usize,
    /// Which way it improves.
    pub direction: Direction,
    /// What it means, in a sentence (`metrics.md`, [`Section::spec`]).
    pub help: &'static str,
    /// Its value in a run; `None` when the run lacks it.
    pub value: fn(&Run) -> Option<f64>,
}

impl Figure {
    /// `section.name`, the unambiguous name the gate and the table use.
    #[must_use]
    pub fn qualified_name(&self) -> String {
        format!("{}.{}", self.section.name(), self.name)
    }

    /// The name people read: the title, a peer tool's as "FrameView: 1% Low FPS".
    #[must_use]
    pub fn display_name(&self) -> String {
        if self.section.is_convention() {
            format!("{}: {}", self.section.title(), self.title)
        } else {
            self.title.to_owned()
        }
    }

    /// Whether a comparison calls one run better or worse in it (`metrics.md` §9).
    #[must_use]
    pub fn judged(&self) -> bool {
        matches!(self.direction, Direction::HigherIsBetter | Direction::LowerIsBetter)
    }

    /// Whether `--fail-if-worse` accepts it.
    #[must_use]
    pub fn gated(&self) -> bool {
        self.direction != Direction::Neutral
    }

    /// `v` with the figure's decimals and unit: "144.23", "6.933 ms", "12.346 s",
    /// "1.23 %" (never "-0").
    #[must_use]
    pub fn format(&self, v: f64) -> String {
        self.unit.format(v, self.decimals)
    }

    /// `v`'s number alone, with the figure's decimals, in its unit's scale (a fraction
    /// in %, a duration in s): what the readable table pads into its columns.
    #[must_use]
    pub fn number(&self, v: f64) -> String {
        self.unit.number(v, self.decimals)
    }

    /// A difference of two values: signed when not zero; a fraction's in percentage
    /// points.
    #[must_use]
    pub fn format_delta(&self, v: f64) -> String {
        self.unit.delta(v, self.decimals)
    }
}

/// The figure with `section.name` exactly (as [`Figure::qualified_name`] writes it).
#[must_use]
pub fn figure(qualified: &str) -> Option<&'static Figure> {
    let (section, name) = qualified.split_once('.')?;
    FIGURES.iter().find(|f| f.section.name() == section && f.name == name)
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
    if matches.len() > 1 && matches.iter().filter(|f| !f.section.is_another_tools()).count() == 1 {
        matches.retain(|f| !f.section.is_another_tools());
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
