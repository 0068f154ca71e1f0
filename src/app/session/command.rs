//! What the window's panels, menus, timeline and background jobs ask for: one
//! [`AppCommand`] per change, applied in one place. Runs are named by their
//! [`RunId`], never by their place in the list (which changes when a run closes).

use super::{RunId, TimelineCommand};
use crate::app::work::{LoadId, LoadSource};
use framescope_core::analysis::{FrameTimeSource, Trim};
use framescope_core::ingest::ColumnMapping;
use framescope_core::ingest::MarkerLog;
use framescope_core::model::Capture;
use framescope_core::report::compare::Section;
use std::path::PathBuf;

/// A capture that finished loading, about to become a run.
pub struct Loaded {
    /// The load that read it (`None`: a live capture's first rows, or a capture given
    /// already loaded): names its run before it opened.
    pub load: Option<LoadId>,
    /// The path as given, or the built-in capture's name.
    pub name: String,
    /// The file, when it came from disk (remembered among the recent files, its own
    /// trim restored).
    pub path: Option<PathBuf>,
    /// The capture.
    pub capture: Capture,
    /// It arrived in the watched folder: compare it against the pinned set.
    pub from_watch: bool,
}

/// One change of the session or of the user's settings, as the window's parts ask for
/// it. [`crate::app::session::Session::apply`] applies every variant but
/// [`AppCommand::Shell`], which is the window shell's.
pub enum AppCommand {
    /// A capture finished loading: it opens as a run (with the trim saved for its
    /// file), shown, with the time selection and the selected frame cleared.
    Opened(Box<Loaded>),
    /// A live capture grew (or started over): the newest run named `name` takes the
    /// capture so far, the same run (its id, label, trace, trim and comparison kept).
    Grew {
        /// The run's name (its path, or `<stdin>`).
        name: String,
        /// The capture so far.
        capture: Box<Capture>,
    },
    /// Keep the newest frames of a growing run in view (the timeline's *Follow live*).
    FollowLive(bool),
    /// Close a run; the runs after it keep their ids. A closed run that was shown or
    /// the baseline hands that role to the run now at its place (or the last).
    Close(RunId),
    /// What the window calls a run (legends, headings, export names).
    Rename(RunId, String),
    /// Show another trace of a run's capture (and that run).
    ShowTrace {
        /// The run.
        run: RunId,
        /// The trace's index in the capture.
        trace: usize,
    },
    /// Show a run's figures (clears the time selection and the selected frame).
    SelectRun(RunId),
    /// A PCL marker log was read for a run: attach it.
    MarkersLoaded {
        /// The run.
        run: RunId,
        /// The log's file name.
        name: String,
        /// The log.
        log: Box<MarkerLog>,
    },
    /// A run's display refresh rate as the user sets it (`None`: detected).
    RefreshRate(RunId, Option<f64>),
    /// Where a run starts on the compared runs' shared axis (ms).
    Offset(RunId, f64),
    /// A timeline command from run `run`'s timeline, in that run's own time.
    Timeline {
        /// The run whose timeline gave it.
        run: RunId,
        /// What it asks.
        command: TimelineCommand,
    },
    /// The pointer is over no timeline: no linked cursor.
    CursorLeft,
    /// Compare the runs marked compared side by side, or stop.
    Compare {
        /// On or off.
        on: bool,
        /// The baseline; `None`: the current one.
        baseline: Option<RunId>,
    },
    /// Once every load has finished, compare, with the run load `baseline` opens as
    /// the baseline; with `only_new`, the runs open now leave the comparison (the sample
    /// pair opened beside other captures is compared alone).
    ///
    /// The baseline is named by its load, not by a [`RunId`]: it is usually still
    /// loading when this is asked (a run gets its id when it opens), and a place in the
    /// list would be a guess (a load before it may fail, a live run may open between).
    CompareWhenLoaded {
        /// The load whose run is the baseline; `None`, or a load that failed: the first
        /// open run.
        baseline: Option<LoadId>,
        /// Leave the runs open now out of the comparison.
        only_new: bool,
    },
    /// The set each of these loads' runs goes in once it opens (the two builds picked in
    /// a history, each a set).
    SetsOfLoads(Vec<(LoadId, String)>),
    /// Every load asked for has finished (starts a comparison asked for by
    /// [`AppCommand::CompareWhenLoaded`]).
    LoadsFinished,
    /// The run every other run is compared against.
    Baseline(RunId),
    /// Include a run in the comparison, or leave it out.
    Compared(RunId, bool),
    /// Compared runs share the frame rows' vertical scales.
    SharedScale(bool),
    /// The peer tool whose figures the comparison shows (`None`: framescope's own).
    Convention(Option<Section>),
    /// The set captures arriving in the watched folder are compared against.
    PinSet(Option<String>),
    /// Put a run in the set of this name.
    MoveToSet(RunId, String),
    /// Group every run by its file name's prefix.
    GroupByFileName,
    /// Every run in a set of its own.
    OneSetPerRun,
    /// Keep an outlier in its set's figures, or leave it out again.
    ToggleOutlier(RunId),
    /// The trim of every run without its own (seconds at the start and end; saved).
    TrimAll {
        /// Seconds left out at the start.
        start_s: f64,
        /// Seconds left out at the end.
        end_s: f64,
    },
    /// A run's own trim (`None`: the trim for all runs again), saved by its path.
    RunTrim(RunId, Option<Trim>),
    /// The target frame rate (saved).
    TargetFps(f64),
    /// The relative stutter threshold (saved).
    StutterThreshold(f64),
    /// The stutter floor, ms (saved).
    StutterFloor(f64),
    /// The frame-time source (saved).
    FrameTime(FrameTimeSource),
    /// The comparison's noise band, a fraction (saved).
    NoiseBand(f64),
    /// The sets' outlier limit, a fraction (saved).
    OutlierLimit(f64),
    /// Where exports go without a file dialog (saved; empty: beside the capture).
    ExportDir(PathBuf),
    /// File › Record…'s folder and the capturing tool's program (saved; `mangohud`:
    /// the program is MangoHud's, else PresentMon's; empty: found).
    RecordSettings {
        /// The folder.
        dir: PathBuf,
        /// Which tool the program is.
        mangohud: bool,
        /// The program.
        program: PathBuf,
    },
    /// The telemetry rows a capture format shows, top to bottom (saved).
    Rows {
        /// The format's name.
        format: String,
        /// The columns shown.
        shown: Vec<String>,
    },
    /// How a comparison is shown (saved).
    CompareView(crate::app::compare_view::CompareView),
    /// Work for the window shell: loading, watching, exporting, what is shown.
    Shell(ShellCommand),
}

/// What the window shell does (not session state): start loads and jobs, show or
/// hide parts of the window, report.
pub enum ShellCommand {
    /// Load a capture.
    Open(LoadSource),
    /// Open the synthetic A/B pair and compare the two of them once loaded.
    OpenSamplePair,
    /// Read a history (File › Open history…) and show its scenes and builds.
    OpenHistory(PathBuf),
    /// Open these captures, each in the set named with it, and compare them once loaded,
    /// the first as baseline (two builds picked in a history).
    OpenCompared(Vec<(PathBuf, String)>),
    /// Load a CSV of no known format with the column mapping the user chose (and
    /// remember the mapping for its header).
    OpenMapped {
        /// The file.
        path: PathBuf,
        /// Its header.
        header: Vec<String>,
        /// The mapping chosen.
        mapping: ColumnMapping,
    },
    /// Read a PCL marker log and attach it to a run.
    AttachMarkers(RunId, PathBuf),
    /// Stop this load, if it is still in flight.
    CancelLoad(LoadId),
    /// Watch a folder for new captures.
    WatchFolder(PathBuf),
    /// Stop watching.
    StopWatching,
    /// Follow a capture that is being written (a live run).
    Follow(PathBuf),
    /// Record captures with the capturing tool (File › Record…).
    StartRecording(Box<RecordRequest>),
    /// End the recording under way (the current capture keeps what it recorded).
    StopRecording,
    /// Holds the Record window's global hotkey (`true`) or lets it go.
    RecordHotkey(bool),
    /// Lists the running processes for the Record window's picker.
    ListProcesses,
    /// Save the bytes read so far of the live run named `name` as a capture at `path`.
    SaveLive {
        /// The live run's name.
        name: String,
        /// Where.
        path: PathBuf,
    },
    /// Write the frames of a run (a range of its shown trace) as CSV, in the background.
    ExportFrames {
        /// The run.
        run: RunId,
        /// The frames.
        range: std::ops::Range<usize>,
        /// The file.
        path: PathBuf,
        /// Said before the path in the status line.
        note: &'static str,
    },
    /// Write the shared HTML page of runs (the shown run, or every compared run) as
    /// the window analysed them, in the background.
    ExportHtml {
        /// The runs, in the window's order (baseline first).
        runs: Vec<RunId>,
        /// The file (checked not to be an open capture).
        path: PathBuf,
        /// Said before the path in the status line.
        note: &'static str,
    },
    /// Save a PNG of the timeline.
    TimelinePng(PathBuf),
    /// Show or hide the keyboard and mouse help.
    ShowHelp(bool),
    /// Show or hide the runs and figures panel.
    ShowRunsPanel(bool),
    /// Show or hide the charts panel.
    ShowChartsPanel(bool),
    /// Show or hide the "As other tools report it" panel.
    ShowPeersPanel(bool),
    /// Dismiss the error at this place in the list.
    DismissError(usize),
    /// Say this in the status line.
    Status(String),
    /// Add this to the error list.
    Error(String),
    /// The Map columns step was cancelled: its file's error goes to the list.
    CancelMapping,
}

/// What File › Record… asks for.
#[derive(Debug, Clone)]
pub struct RecordRequest {
    /// What to record: the command, folder, delay, duration, repeats, pause.
    pub plan: crate::record::Plan,
    /// The capturing tool: MangoHud (true) or PresentMon.
    pub mangohud: bool,
    /// The tool's program (the `mangohud` wrapper, PresentMon's console program);
    /// `None`: found as the command line finds it.
    pub tool: Option<PathBuf>,
    /// PresentMon: a running process (name or PID) rather than the command.
    pub process: Option<String>,
}

impl From<ShellCommand> for AppCommand {
    fn from(c: ShellCommand) -> Self {
        Self::Shell(c)
    }
}

/// What the shell must do after a command: save the settings.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Effects {
    /// The persisted settings changed: save them once no drag is in progress.
    pub settings_changed: bool,
    /// Save them now (a file joined the recent ones).
    pub save_now: bool,
}
