//! Optional per-frame columns and what they mean.

/// What an optional column measures. Known PresentMon-family columns get their own
/// kind (whatever their spelling in a given version); everything else is
/// [`ColumnKind::Telemetry`] (sampled sensors) or [`ColumnKind::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnKind {
    /// CPU time from frame start to the Present() call (`MsCPUBusy`, `CPUBusy`).
    CpuBusy,
    /// CPU time blocked before the next frame (`MsCPUWait`, `CPUWait`).
    CpuWait,
    /// Frame CPU start to GPU start (`MsGPULatency`, `GPULatency`).
    GpuLatency,
    /// GPU busy time on any engine (`MsGPUBusy`, `GPUBusy`).
    GpuBusy,
    /// Idle gaps inside the frame's GPU work (`MsGPUWait`, `GPUWait`).
    GpuWait,
    /// First to last GPU work of the frame (`MsGPUTime`, `GPUTime`).
    GpuTime,
    /// Video engine busy time (`MsVideoBusy`, `VideoBusy`).
    VideoBusy,
    /// GPU busy time, PresentMon 1.x (`msGPUActive`).
    GpuActive,
    /// Video engine busy time, PresentMon 1.x (`msGPUVideoActive`).
    GpuVideoActive,
    /// Time spent inside Present() (`MsInPresentAPI`).
    InPresentApi,
    /// Present() to GPU completion (`MsRenderPresentLatency`).
    RenderPresentLatency,
    /// Present() to GPU completion, PresentMon 1.x (`MsUntilRenderComplete`).
    UntilRenderComplete,
    /// Present() to first GPU work, PresentMon 1.x (`msUntilRenderStart`); can be negative.
    UntilRenderStart,
    /// Present() to scan-out (`MsUntilDisplayed`); missing when dropped.
    UntilDisplayed,
    /// CPU start to scan-out (`DisplayLatency`, 2.0–2.3); missing when dropped.
    DisplayLatency,
    /// Simulation vs display pacing error (`MsAnimationError`, `AnimationError`).
    AnimationError,
    /// Simulation time used for the frame (`AnimationTime`), ms since start.
    AnimationTime,
    /// Delay applied to the flip (`MsFlipDelay`).
    FlipDelay,
    /// Click to photon (`MsClickToPhotonLatency`, `ClickToPhotonLatency`).
    ClickToPhoton,
    /// Any keyboard/mouse input to photon (`MsAllInputToPhotonLatency`).
    AllInputToPhoton,
    /// Instrumented frame start to display (`MsInstrumentedLatency`).
    InstrumentedLatency,
    /// NVIDIA PC Latency computed by the capture tool (`MsPCLatency`).
    PcLatency,
    /// Present() back to the earliest input used, PresentMon 1.x (`msSinceInput`).
    SinceInput,
    /// Between consecutive simulation starts (`MsBetweenSimulationStart`).
    BetweenSimulationStart,
    /// Between consecutive frame CPU starts (`MsBetweenAppStart`).
    BetweenAppStart,
    /// Frames queued in the driver (FrameView `Render Queue Depth`).
    RenderQueueDepth,
    /// OCAT's estimated driver lag (`MsEstimatedDriverLag`).
    EstimatedDriverLag,
    /// The app's PCL Stats FrameID (`PCLFrameId`).
    PclFrameId,
    /// The app's own frame id (`AppFrameId`).
    AppFrameId,
    /// PresentMon's frame or present id (`FrameId`, `PresentId`).
    FrameId,
    /// A game engine's per-frame CPU thread time (Unity `cpuMainThreadFrameTime`,
    /// Unreal `GameThreadTime`, …): a frame-health action, ms.
    EngineThread,
    /// A game engine's per-frame GPU time (Unity `gpuFrameTime`, Unreal `GPUTime`): a
    /// frame-health action, ms; 0 from Unity is stored as missing.
    EngineGpu,
    /// A latency stage an engine's timestamps give (Unity: main thread, render submit,
    /// GPU; `formats.md` §7), ms.
    LatencyStage,
    /// A latency-measurement log's (pyrofling) synthetic input to `vkQueuePresentKHR`.
    InputToPresent,
    /// A latency-measurement log's `vkQueuePresentKHR` to the GPU going idle.
    PresentToGpuIdle,
    /// A latency-measurement log's GPU idle to the present completing (flipped or
    /// dequeued, `VK_EXT_present_timing`).
    GpuIdleToDisplay,
    /// A latency-measurement log's synthetic input to the present completing: the
    /// three stages above together.
    InputToDisplay,
    /// A frame's own duration on a mobile pipeline (Android gfxinfo: `IntendedVsync` →
    /// `FrameCompleted`; SurfaceFlinger: frame ready → actual present), ms: a latency row.
    FrameDuration,
    /// A frame-health mark the capture itself sets (Android: a janky frame, a jank
    /// type): the frame's duration in ms where marked, missing elsewhere; every marked
    /// frame is a spike of its action (`metrics.md` §16).
    FrameMark,
    /// A sampled sensor: power, temperature, clock, load, memory.
    Telemetry,
    /// Any other numeric column (flags, sync interval, raw timestamps, ...).
    Other,
}

impl ColumnKind {
    /// The kind of a column, from its header name (case-insensitive).
    #[must_use]
    pub fn from_header(name: &str) -> Self {
        let lower = name.trim().to_ascii_lowercase();
        let bare = lower.strip_prefix("ms").unwrap_or(&lower);
        match bare {
            "cpubusy" => Self::CpuBusy,
            "cpuwait" => Self::CpuWait,
            "gpulatency" => Self::GpuLatency,
            "gpubusy" => Self::GpuBusy,
            "gpuwait" => Self::GpuWait,
            "gputime" => Self::GpuTime,
            "videobusy" => Self::VideoBusy,
            "gpuactive" => Self::GpuActive,
            "gpuvideoactive" => Self::GpuVideoActive,
            "inpresentapi" => Self::InPresentApi,
            "renderpresentlatency" => Self::RenderPresentLatency,
            "untilrendercomplete" => Self::UntilRenderComplete,
            "untilrenderstart" => Self::UntilRenderStart,
            "untildisplayed" => Self::UntilDisplayed,
            "displaylatency" => Self::DisplayLatency,
            "animationerror" => Self::AnimationError,
            "animationtime" => Self::AnimationTime,
            "flipdelay" => Self::FlipDelay,
            "clicktophotonlatency" => Self::ClickToPhoton,
            "allinputtophotonlatency" => Self::AllInputToPhoton,
            "instrumentedlatency" => Self::InstrumentedLatency,
            "pclatency" => Self::PcLatency,
            "sinceinput" => Self::SinceInput,
            "betweensimulationstart" => Self::BetweenSimulationStart,
            "betweenappstart" => Self::BetweenAppStart,
            "render queue depth" => Self::RenderQueueDepth,
            "estimateddriverlag" => Self::EstimatedDriverLag,
            "pclframeid" => Self::PclFrameId,
            "appframeid" => Self::AppFrameId,
            "frameid" | "presentid" => Self::FrameId,
            _ if is_telemetry_name(&lower) => Self::Telemetry,
            _ => Self::Other,
        }
    }

    /// True for columns measured from the frame's display: a dropped frame has no
    /// value there, whatever the file wrote (1.x and FrameView write 0).
    #[must_use]
    pub fn is_display_value(self) -> bool {
        matches!(
            self,
            Self::UntilDisplayed
                | Self::DisplayLatency
                | Self::ClickToPhoton
                | Self::AllInputToPhoton
                | Self::InstrumentedLatency
                | Self::PcLatency
        )
    }

    /// True for input-latency columns where the writer puts 0 for "no input on this
    /// frame" (PresentMon 1.x `msSinceInput`, 2.0 `ClickToPhotonLatency`): a 0 there is
    /// a missing value, never a latency.
    #[must_use]
    pub fn zero_means_none(self) -> bool {
        matches!(self, Self::ClickToPhoton | Self::AllInputToPhoton | Self::SinceInput)
    }

    /// True for columns whose values are durations in milliseconds.
    #[must_use]
    pub fn is_duration_ms(self) -> bool {
        !matches!(
            self,
            Self::AnimationTime
                | Self::RenderQueueDepth
                | Self::PclFrameId
                | Self::AppFrameId
                | Self::FrameId
                | Self::Telemetry
                | Self::Other
        )
    }
}

fn is_telemetry_name(lower: &str) -> bool {
    const WORDS: [&str; 16] = [
        "power",
        "pwr",
        "temp",
        "clk",
        "clock",
        "frequency",
        "util",
        "voltage",
        "fan",
        "memory",
        "bandwidth",
        "battery",
        "perf/w",
        "limited",
        "(w)",
        "(mhz)",
    ];
    WORDS.iter().any(|w| lower.contains(w))
}

/// Numeric columns that describe the present or the capture, not the system: never
/// telemetry, whatever their name (lower case).
const PRESENT_COLUMNS: [&str; 33] = [
    // time columns other than the one the layout reads the time axis from
    "timeinseconds",
    "timeinms",
    "timeinqpc",
    "timeindatetime",
    "qpctime",
    "cpustarttime",
    "cpustartqpc",
    "cpustartqpctime",
    "cpustartdatetime",
    "cpustarttimeinms",
    "cpustartqpctimeinms",
    "cpustarttimeinseconds",
    "syncinterval",
    "presentflags",
    "allowstearing",
    "hybridpresent",
    "vidpnsourceid",
    "layerindex",
    "wasbatched",
    "dwmnotified",
    "fliptoken",
    "etwbufferfillpct",
    "etwbuffersinuse",
    "etwtotalbuffers",
    "etweventslost",
    "etwbufferslost",
    "overflowedpresents",
    "msdisplaytime",
    "width",
    "height",
    "gpu #",
    "processid",
    "dropped",
];

/// One optional numeric column of a trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The header name as the file writes it (trimmed).
    pub name: String,
    /// What it measures.
    pub kind: ColumnKind,
    /// One value per kept frame; NaN where the file had no number. Stored compactly
    /// ([`Values`](super::Values)): read with `at` / `iter`; `&values[..]` materialises a slice.
    pub values: super::Values,
}

impl Column {
    /// True when `name` is a column PresentMon-family writers use for a present's flags,
    /// ids and times (not telemetry).
    #[must_use]
    pub fn is_present_column(name: &str) -> bool {
        PRESENT_COLUMNS.contains(&name.trim().to_ascii_lowercase().as_str())
    }

    /// True when some figure (`metrics.md`, the report's JSON) reads a column of `kind`
    /// named `name`. The others (the time between app or simulation starts, GPU time,
    /// video engine time, flip delay, queue depth, driver lag, the
    /// PresentMon 1.x render-start and since-input times, instrumented latency, frame
    /// ids, and the flags and times that describe a present) are for the window's
    /// tracks and the frames table: a load for figures only may leave them out
    /// ([`crate::ingest::LoadOptions::figures_only`]). The test
    /// `real_traces::figures_only_loads_report_the_same` holds this list to the figures.
    #[must_use]
    pub fn read_by_figures(kind: ColumnKind, name: &str) -> bool {
        use ColumnKind as K;
        match kind {
            K::BetweenAppStart
            | K::BetweenSimulationStart
            | K::GpuTime
            | K::VideoBusy
            | K::GpuVideoActive
            | K::FlipDelay
            | K::RenderQueueDepth
            | K::EstimatedDriverLag
            | K::UntilRenderStart
            | K::SinceInput
            | K::InstrumentedLatency
            | K::PclFrameId
            | K::AppFrameId
            | K::FrameId => false,
            // Telemetry is reported; the flags and times of a present are not.
            K::Other => !Self::is_present_column(name),
            _ => true,
        }
    }

    /// True for a telemetry column (`cli-report.md` `telemetry`): a sampled sensor, or
    /// any numeric column framescope has no frame role for (e.g. `PsoCompileCount`,
    /// MangoHud's `cpu_load`), but not the flags and ids that describe a present.
    #[must_use]
    pub fn is_telemetry(&self) -> bool {
        match self.kind {
            ColumnKind::Telemetry => true,
            ColumnKind::Other => !PRESENT_COLUMNS.contains(&self.name.trim().to_ascii_lowercase().as_str()),
            _ => false,
        }
    }
}

/// Whether a frame was rendered by the application or generated by frame generation
/// (PresentMon `FrameType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FrameType {
    /// Rendered by the application.
    Application,
    /// Generated by Intel XeSS frame generation.
    IntelXessFg,
    /// Generated by AMD Fluid Motion Frames.
    AmdAfmf,
    /// Any other text (`Unknown`, `NotSet`, `Repeated`, a generator PresentMon does
    /// not name): not the application's frame, so generated (`metrics.md` §1).
    Unknown,
    /// An empty or `NA` cell: nothing is known about the frame.
    #[default]
    NotSet,
}

impl FrameType {
    /// Parses PresentMon's `FrameType` text.
    #[must_use]
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        let is = |name: &str| text.eq_ignore_ascii_case(name);
        if text.is_empty() || is("NA") || is("N/A") {
            Self::NotSet
        } else if is("Application") {
            Self::Application
        } else if is("Intel XeSS-FG") || is("Intel_XeSS-FG") || is("Intel XeSS FG") {
            Self::IntelXessFg
        } else if is("AMD AFMF") || is("AMD_AFMF") {
            Self::AmdAfmf
        } else {
            Self::Unknown
        }
    }

    /// True for frames made by frame generation rather than the application: any
    /// stated type other than `Application`.
    #[must_use]
    pub fn is_generated(self) -> bool {
        matches!(self, Self::IntelXessFg | Self::AmdAfmf | Self::Unknown)
    }

    /// The name PresentMon writes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Application => "Application",
            Self::IntelXessFg => "Intel XeSS-FG",
            Self::AmdAfmf => "AMD AFMF",
            Self::Unknown => "Unknown",
            Self::NotSet => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_match_every_spelling() {
        assert_eq!(ColumnKind::from_header("MsCPUBusy"), ColumnKind::CpuBusy);
        assert_eq!(ColumnKind::from_header("CPUBusy"), ColumnKind::CpuBusy);
        assert_eq!(ColumnKind::from_header("msInPresentAPI"), ColumnKind::InPresentApi);
        assert_eq!(ColumnKind::from_header("msGPUActive"), ColumnKind::GpuActive);
        assert_eq!(ColumnKind::from_header("Render Queue Depth"), ColumnKind::RenderQueueDepth);
        assert_eq!(ColumnKind::from_header("GPU0Clk(MHz)"), ColumnKind::Telemetry);
        assert_eq!(ColumnKind::from_header("CPUCoreUtil%[ 3]"), ColumnKind::Telemetry);
        assert_eq!(ColumnKind::from_header("SyncInterval"), ColumnKind::Other);
        assert_eq!(ColumnKind::from_header("PCLFrameId"), ColumnKind::PclFrameId);
    }

    #[test]
    fn frame_types() {
        assert!(FrameType::parse("Intel XeSS-FG").is_generated());
        assert!(FrameType::parse("AMD_AFMF").is_generated());
        assert!(!FrameType::parse("Application").is_generated());
        assert_eq!(FrameType::parse("garbage"), FrameType::Unknown);
        assert!(FrameType::parse("NotSet").is_generated());
        assert!(!FrameType::parse(" NA ").is_generated());
        assert!(!FrameType::parse("").is_generated());
        assert_eq!(FrameType::parse("application"), FrameType::Application);
    }
}
