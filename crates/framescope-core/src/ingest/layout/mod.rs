//! Format detection and column roles for PresentMon-family CSV headers
//! (`formats.md` §1–5). Everything is decided from header names (case-insensitive),
//! never from column positions or the file name.

pub use crate::model::TimeUnit;
use crate::model::{ColumnKind, Format};

/// How a row's present-to-present frame time is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameTimeRule {
    /// One column (`MsBetweenPresents`, `FrameTime`).
    Column(usize),
    /// PresentMon 2.0: `CPUBusy + CPUWait`.
    Sum(usize, usize),
    /// MangoHud 0.5: only a rolling `fps` column; frame time = 1000 / fps.
    FromFps(usize),
}

/// How a row is known to be dropped (never displayed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DroppedRule {
    /// A `Dropped` column: 1 means dropped (other values are warned about).
    Column(usize),
    /// 2.1+: the display column is `NA` (2.1–2.3 `DisplayLatency`, 2.4+
    /// `MsUntilDisplayed`).
    MissingDisplay(usize),
    /// 2.0: `DisplayedTime` is exactly 0.
    ZeroDisplay(usize),
    /// The capture has no display data.
    Unknown,
}

/// What instant of the frame the time column gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeRole {
    /// The Present() call, which ends the present-to-present interval.
    Present,
    /// The start of the frame's CPU work, which starts the interval.
    FrameStart,
}

/// The time column of a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeColumn {
    /// Column index.
    pub index: usize,
    /// Declared unit.
    pub unit: TimeUnit,
    /// Which instant it is.
    pub role: TimeRole,
}

/// A numeric column kept as an optional trace column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumericColumn {
    /// Column index.
    pub index: usize,
    /// Header name as written.
    pub name: String,
    /// Meaning.
    pub kind: ColumnKind,
    /// Kept in the trace; when not (a load for figures only, see
    /// [`crate::ingest::LoadOptions::figures_only`]) its cells are only checked, for
    /// the warnings about them.
    pub stored: bool,
}

/// The roles of a header's columns.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Detected writer.
    pub format: Format,
    /// Finer version label.
    pub format_version: String,
    /// Number of header names (trailing empty names removed).
    pub header_len: usize,
    /// Rows with fewer fields are truncated (OCAT's later rows stop early legitimately).
    pub min_fields: usize,
    /// Key columns.
    pub application: Option<usize>,
    /// Key columns.
    pub process_id: Option<usize>,
    /// Key columns.
    pub swap_chain: Option<usize>,
    /// `Runtime` / `PresentRuntime`.
    pub runtime: Option<usize>,
    /// `PresentMode`.
    pub present_mode: Option<usize>,
    /// `FrameType`.
    pub frame_type: Option<usize>,
    /// The column that joins frames to a PCL marker log: `PCLFrameId`, else
    /// `AppFrameId` (read as exact integers into [`crate::model::Frames::join_id`]).
    pub join_id: Option<usize>,
    /// Frame time.
    pub frame_time: FrameTimeRule,
    /// Display interval (`MsBetweenDisplayChange`, `DisplayedTime`).
    pub display: Option<usize>,
    /// True when the display column is 2.0–2.3 `DisplayedTime`: how long the frame
    /// stayed on screen, which is the display interval of the next displayed frame.
    pub display_shifted: bool,
    /// Dropped rule.
    pub dropped: DroppedRule,
    /// Time column.
    pub time: Option<TimeColumn>,
    /// Text columns describing the system (index, header name), read from the first
    /// data row.
    pub system: Vec<(usize, String)>,
    /// Other numeric columns, in header order.
    pub numeric: Vec<NumericColumn>,
}

/// Case-insensitive lookup of header names.
struct Names<'a> {
    lower: Vec<String>,
    original: &'a [String],
}

impl Names<'_> {
    fn find(&self, name: &str) -> Option<usize> {
        let name = name.to_ascii_lowercase();
        self.lower.iter().position(|n| *n == name)
    }
    fn has(&self, name: &str) -> bool {
        self.find(name).is_some()
    }
    fn first_of(&self, names: &[&str]) -> Option<usize> {
        names.iter().find_map(|n| self.find(n))
    }
}

/// Detects the layout of a PresentMon-family header. `comments` are the `//` lines
/// above it. The error says what the file looks like instead.
pub fn detect(header: &[String], comments: &[String]) -> Result<Layout, DetectError> {
    let mut len = header.len();
    while len > 0 && header[len - 1].is_empty() {
        len -= 1;
    }
    let header = &header[..len];
    let names = Names { lower: header.iter().map(|h| h.to_ascii_lowercase()).collect(), original: header };
    let frame_time = frame_time_rule(&names).ok_or_else(|| not_a_capture(&names))?;
    let (format, format_version) = format_of(&names, comments);
    let display = names.first_of(&["MsBetweenDisplayChange", "DisplayedTime"]);
    let display_shifted = display.is_some() && !names.has("MsBetweenDisplayChange");
    let dropped = dropped_rule(&names, frame_time);
    let time = time_column(&names, format);
    let first_system = if format == Format::Ocat { names.find("Motherboard") } else { None };
    let system = system_columns(&names, format, first_system);
    let mut layout = Layout {
        format,
        format_version,
        header_len: len,
        min_fields: first_system.unwrap_or(len),
        application: names.find("Application"),
        process_id: names.find("ProcessID"),
        swap_chain: names.find("SwapChainAddress"),
        runtime: names.first_of(&["Runtime", "PresentRuntime"]),
        present_mode: names.find("PresentMode"),
        frame_type: names.find("FrameType"),
        join_id: names.first_of(&["PCLFrameId", "AppFrameId"]),
        frame_time,
        display,
        display_shifted,
        dropped,
        time,
        system,
        numeric: Vec::new(),
    };
    layout.numeric = numeric_columns(&names, &layout);
    Ok(layout)
}

fn frame_time_rule(names: &Names) -> Option<FrameTimeRule> {
    if let Some(i) = names.first_of(&["MsBetweenPresents", "FrameTime"]) {
        return Some(FrameTimeRule::Column(i));
    }
    if is_mangohud(names) {
        return names
            .find("frametime")
            .map(FrameTimeRule::Column)
            .or_else(|| names.find("fps").map(FrameTimeRule::FromFps));
    }
    match (names.find("CPUBusy"), names.find("CPUWait")) {
        (Some(b), Some(w)) => Some(FrameTimeRule::Sum(b, w)),
        _ => None,
    }
}

fn dropped_rule(names: &Names, frame_time: FrameTimeRule) -> DroppedRule {
    if let Some(i) = names.find("Dropped") {
        return DroppedRule::Column(i);
    }
    // 2.1–2.3 write `NA` in every display column of a dropped frame, but the last
    // displayed frame's `DisplayedTime` is `NA` too: `DisplayLatency` tells them apart.
    let display =
        names.first_of(&["MsUntilDisplayed", "DisplayLatency", "DisplayedTime", "MsBetweenDisplayChange"]);
    match (frame_time, display) {
        (_, None) | (FrameTimeRule::FromFps(_), _) => DroppedRule::Unknown,
        (FrameTimeRule::Column(_), Some(i)) => DroppedRule::MissingDisplay(i),
        (FrameTimeRule::Sum(..), Some(_)) => names
            .first_of(&["DisplayedTime", "MsUntilDisplayed", "DisplayLatency"])
            .map_or(DroppedRule::Unknown, DroppedRule::ZeroDisplay),
    }
}

const TELEMETRY_MARKERS: [&str; 4] = ["GPUPower", "CPUUtilization", "GPUTemperature", "CPUPower"];

/// MangoHud's frame-metrics header: lower-case `fps` and `elapsed`.
fn is_mangohud(names: &Names) -> bool {
    names.original.iter().any(|n| n == "fps") && names.original.iter().any(|n| n == "elapsed")
}

fn format_of(names: &Names, comments: &[String]) -> (Format, String) {
    let version = |s: &str| s.to_owned();
    if is_mangohud(names) {
        let v = if names.has("cpu_mhz") {
            "0.8.2+"
        } else if names.has("cpu_power") {
            "0.8.0–0.8.1"
        } else if names.has("swap_used") {
            "0.7.x"
        } else if names.has("gpu_power") {
            "0.6.2–0.6.x"
        } else if names.has("frametime") {
            "0.6.0–0.6.1"
        } else {
            "0.5.x"
        };
        return (Format::MangoHud, version(v));
    }
    if !comments.is_empty() {
        let raw = comments.iter().any(|c| c.trim().eq_ignore_ascii_case("Ignore=true"));
        let label = if raw { "raw PresentMon dump" } else { "legacy record" };
        return (Format::CapFrameXCsv, version(label));
    }
    if names.has("Motherboard") && names.has("Processor") {
        let v = if names.has("MsEstimatedDriverLag") { "1.5+" } else { "1.0–1.4" };
        return (Format::Ocat, version(v));
    }
    if names.has("GPU") && names.has("CPU") && names.has("Resolution") {
        let v = if names.has("FlipToken") {
            "1.6"
        } else if names.has("MsPCLatency") {
            "1.4–1.5"
        } else {
            "1.1–1.3"
        };
        return (Format::FrameView, version(v));
    }
    if TELEMETRY_MARKERS.iter().any(|m| names.has(m)) {
        let v = if names.has("FrameTime") { "2.3-era capture" } else { "2.4+ capture" };
        return (Format::PresentMonGui, version(v));
    }
    if names.has("Dropped") {
        let v = if names.has("msFlipDelay") {
            "2.x --v1_metrics"
        } else if names.original.iter().any(|n| n == "msBetweenPresents") {
            "1.7–1.10"
        } else if let (Some(tearing), Some(flags)) = (names.find("AllowsTearing"), names.find("PresentFlags"))
            && tearing < flags
        {
            "1.0–1.1"
        } else {
            "1.2–1.6"
        };
        return (Format::PresentMon1, version(v));
    }
    if names.has("MsBetweenPresents") {
        return (Format::PresentMon24, version("2.4+"));
    }
    if names.has("FrameTime") {
        return (Format::PresentMon21, version("2.1–2.3 / --v2_metrics"));
    }
    (Format::PresentMon20, version("2.0"))
}

fn time_column(names: &Names, format: Format) -> Option<TimeColumn> {
    use TimeRole::{FrameStart, Present};
    use TimeUnit::{DateTime, Millis, Qpc, Seconds};
    let gui = format == Format::PresentMonGui;
    let cpu_start_time_unit = if gui { Seconds } else { Millis };
    if format == Format::MangoHud {
        return names.find("elapsed").map(|index| TimeColumn { index, unit: TimeUnit::Nanos, role: Present });
    }
    let candidates: [(&str, TimeUnit, TimeRole); 13] = [
        ("TimeInSeconds", Seconds, Present),
        ("TimeInMs", Millis, Present),
        ("TimeInQPC", Qpc, Present),
        ("TimeInDateTime", DateTime, Present),
        ("CPUStartTime", cpu_start_time_unit, FrameStart),
        ("CPUStartTimeInMs", Millis, FrameStart),
        ("CPUStartTimeInSeconds", Seconds, FrameStart),
        ("CPUStartQPC", Qpc, FrameStart),
        ("CPUStartQPCTime", Seconds, FrameStart),
        ("CPUStartQPCTimeInMs", Millis, FrameStart),
        ("CPUStartDateTime", DateTime, FrameStart),
        ("QPCTime", Qpc, Present),
        ("DisplayTimeAbs", Millis, Present),
    ];
    candidates
        .iter()
        .find_map(|&(name, unit, role)| names.find(name).map(|index| TimeColumn { index, unit, role }))
}

fn system_columns(names: &Names, format: Format, first_system: Option<usize>) -> Vec<(usize, String)> {
    let indices: Vec<usize> = match (format, first_system) {
        (Format::Ocat, Some(first)) => (first..names.lower.len()).collect(),
        (Format::FrameView, _) => ["GPU", "CPU", "Resolution"].iter().filter_map(|n| names.find(n)).collect(),
        _ => Vec::new(),
    };
    indices.into_iter().map(|i| (i, names.original[i].clone())).collect()
}

fn numeric_columns(names: &Names, layout: &Layout) -> Vec<NumericColumn> {
    let mut used: Vec<usize> = [
        layout.application,
        layout.process_id,
        layout.swap_chain,
        layout.runtime,
        layout.present_mode,
        layout.frame_type,
        layout.display,
        layout.time.map(|t| t.index),
    ]
    .into_iter()
    .flatten()
    .collect();
    if let FrameTimeRule::Column(i) = layout.frame_time {
        used.push(i);
    }
    if let DroppedRule::Column(i) = layout.dropped {
        used.push(i);
    }
    used.extend(layout.system.iter().map(|(i, _)| *i));
    // A repeated name (any case) is one column: the first keeps it, so `health.actions`
    // and `health.spikes` name it once.
    let repeated = |i: usize| names.lower[..i].contains(&names.lower[i]);
    (0..names.original.len())
        .filter(|&i| !used.contains(&i) && !names.original[i].is_empty() && !repeated(i))
        .map(|index| {
            let name = names.original[index].clone();
            NumericColumn { index, kind: ColumnKind::from_header(&name), name, stored: true }
        })
        .collect()
}

/// What a CSV header's distinctive names say it is, before the PresentMon-family
/// layouts are tried (`formats.md` §7, §10, §11). Each engine format has a signature
/// no PresentMon-family header has: a file that could be two formats is read as the
/// one whose signature is complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signature {
    /// Unity: `cpuFrameTime` (recorder) or the `CPU Total Frame Time` counter.
    Unity(super::unity::UnityLayout),
    /// Unreal CSV profiler: `FrameTime` with `EVENTS` first or last, or with its thread
    /// times, and without PresentMon's identity columns.
    Unreal(super::unreal::UnrealLayout),
    /// CapFrameX on Linux: `MsBetweenPresents` with `MsActualPresent`.
    CapFrameXLinux,
    /// pyrofling's latency-measurement layer: `id,stimulus,queuepresent,queuedone,STAGE`.
    Pyrofling,
    /// XRFrameTools' CSV: `Time (µs)`, `Frame Interval (µs)`, `Count`.
    XrFrameTools,
    /// OVR Metrics Tool's CSV: `Time Stamp` first, `average_frame_rate`.
    OvrMetrics,
    /// A generic layout known without a mapping.
    Known(super::generic::KnownLayout),
    /// None of these: the PresentMon-family layouts (or nothing).
    Other,
}

/// The signature of a header (names trimmed; `sep` its separator).
#[must_use]
pub fn signature(header: &[String], sep: u8) -> Signature {
    super::detect::csv_signature(header, sep)
}

/// FRAPS `frametimes.csv`: `Frame, Time (ms)`, or those two first with columns a
/// spreadsheet re-save adds, each at most once (a German one writes
/// `Frame;Time (ms);Time (s);Delta`): seconds, the difference, a frame time or a rate.
pub(super) fn is_fraps(lower: &[String]) -> bool {
    const ADDED: [&str; 7] =
        ["time (s)", "delta", "delta (ms)", "frametime", "frame time", "frame time (ms)", "fps"];
    let [frame, time, added @ ..] = lower else { return false };
    frame == "frame"
        && time == "time (ms)"
        && added.iter().enumerate().all(|(k, n)| ADDED.contains(&n.as_str()) && !added[..k].contains(n))
}

/// Why a header is not a PresentMon-family capture, naming what it looks like when
/// framescope can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetectError {
    /// A summary file (one row per capture), not a per-frame log.
    SummaryFile,
    /// A MangoHud log whose frame-metrics header was not found.
    MangoHudWithoutMetrics,
    /// A JSON file, not a CSV frame log.
    Json,
    /// Nothing framescope knows: `found` is the first few column names.
    NotACapture { found: String },
}

impl DetectError {
    /// True when the error says what the file is (a summary, a MangoHud log, JSON)
    /// rather than only that it is no capture.
    #[must_use]
    pub fn names_the_file(&self) -> bool {
        !matches!(self, Self::NotACapture { .. })
    }
}

impl std::fmt::Display for DetectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SummaryFile => f.write_str(
                "this is a summary file (one row per capture, e.g. FrameView_Summary.csv), not a \
                 per-frame log; open the per-frame log written beside it",
            ),
            Self::MangoHudWithoutMetrics => f.write_str(
                "this looks like a MangoHud log, but its frame-metrics header (fps, frametime, …, elapsed) \
                 was not found",
            ),
            Self::Json => f.write_str(
                "this looks like a JSON file (CapFrameX JSON captures are not read yet); expected a \
                 CSV frame log",
            ),
            Self::NotACapture { found } => write!(
                f,
                "not a frame-timing capture: expected a PresentMon-family CSV header with a frame-time \
                 column (MsBetweenPresents, FrameTime, or CPUBusy and CPUWait); the header starts with: {found}"
            ),
        }
    }
}

impl std::error::Error for DetectError {}

/// The error for a header that is not a PresentMon-family capture.
fn not_a_capture(names: &Names) -> DetectError {
    if names.has("Avg FPS") || names.has("1% Low FPS") {
        return DetectError::SummaryFile;
    }
    if names.has("os") && names.has("kernel") {
        return DetectError::MangoHudWithoutMetrics;
    }
    if names.lower.first().is_some_and(|n| n.starts_with('{')) {
        return DetectError::Json;
    }
    let first: Vec<&str> = names.original.iter().take(6).map(String::as_str).collect();
    DetectError::NotACapture { found: first.join(", ") }
}

#[cfg(test)]
mod tests;
