//! What the user chose, kept between runs: analysis settings and recent files, saved
//! as JSON in the user's config folder.
//!
//! Loading never fails: a missing, unreadable or corrupt file gives the defaults, and
//! each field that is missing, of the wrong type or out of range falls back to its own
//! default without discarding the others.

use framescope_core::analysis::{FrameTimeSource, Settings};
use serde::Deserialize as _;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// How many recent files are remembered.
const RECENT_MAX: usize = 10;
/// How many captures' own trims are remembered.
const RUN_TRIMS_MAX: usize = 100;

/// Why the settings cannot be saved when [`Persisted::path`] knows no folder: the
/// variables that would name one on this platform.
const NO_CONFIG_FOLDER: &str = if cfg!(windows) {
    "no config folder is known (the roaming application data folder, APPDATA, is unknown); set FRAMESCOPE_CONFIG_DIR"
} else if cfg!(target_os = "macos") {
    "no config folder is known (HOME is not set); set FRAMESCOPE_CONFIG_DIR"
} else {
    "no config folder is known (neither XDG_CONFIG_HOME nor HOME is set); set FRAMESCOPE_CONFIG_DIR"
};

/// A capture's own trim (`metrics.md` §1), remembered by its absolute path.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunTrim {
    /// The capture.
    pub path: PathBuf,
    /// Seconds left out at the start.
    pub start_s: f64,
    /// Seconds left out at the end.
    pub end_s: f64,
}

/// Settings and recent files, saved as JSON in the user's config folder.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Persisted {
    /// Target rate for colouring and pacing figures, frames per second.
    pub target_fps: f64,
    /// Relative stutter threshold (0.2 = 20 % above the local median).
    pub stutter_threshold: f64,
    /// Absolute stutter floor in ms.
    pub stutter_floor_ms: f64,
    /// The frame-time source: `auto`, `presents` or `display`.
    pub frame_time: FrameTimeSource,
    /// Recently opened captures, most recent first, at most 10, no duplicates.
    pub recent: Vec<PathBuf>,
    /// Comparison: a relative change of at most this (0.01 = ±1 %) is noise, neither
    /// better nor worse.
    pub noise_band: f64,
    /// Where exports go when no file dialog can be shown (empty: beside the capture).
    pub export_dir: PathBuf,
    /// Seconds left out at the start of every run without a trim of its own.
    pub trim_start_s: f64,
    /// Seconds left out at the end of every run without a trim of its own.
    pub trim_end_s: f64,
    /// Captures' own trims, most recent first, at most 100.
    pub run_trims: Vec<RunTrim>,
    /// The watched folder (File › Watch folder…; empty: none).
    pub watch_dir: PathBuf,
    /// Where File › Record… writes captures (empty: Documents/framescope).
    pub record_dir: PathBuf,
    /// The `mangohud` program File › Record… runs (empty: found on PATH).
    pub mangohud_program: PathBuf,
    /// PresentMon's console program File › Record… runs (empty: found on PATH or
    /// next to framescope).
    pub presentmon_program: PathBuf,
    /// Sets of runs: a run whose average FPS is further than this (relative) from its
    /// set's median is an outlier (`metrics.md` §12).
    pub outlier_limit: f64,
    /// The column mappings chosen in the *Map columns* step, per header (most recent
    /// first, at most 50): a CSV with the same header opens with its
    /// mapping.
    pub column_mappings: Vec<RememberedMapping>,
    /// The telemetry rows shown per capture format (View › Rows; most recent first).
    pub row_choices: Vec<super::row_choice::RowChoice>,
    /// How a comparison is shown: timelines, bar chart or overlay.
    pub compare_view: super::compare_view::CompareView,
}

/// How many column mappings are remembered.
pub const MAPPINGS_MAX: usize = 50;

/// A CSV header and the mapping the user chose for it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RememberedMapping {
    /// The header's column names, in order.
    pub header: Vec<String>,
    /// The column, what it holds and its unit.
    pub mapping: framescope_core::ingest::ColumnMapping,
}

impl Default for Persisted {
    fn default() -> Self {
        let s = Settings::default();
        Self {
            target_fps: s.target_fps,
            stutter_threshold: s.stutter_threshold,
            stutter_floor_ms: s.stutter_floor_ms,
            frame_time: s.frame_time,
            recent: Vec::new(),
            noise_band: 0.01,
            export_dir: PathBuf::new(),
            trim_start_s: 0.0,
            trim_end_s: 0.0,
            run_trims: Vec::new(),
            watch_dir: PathBuf::new(),
            record_dir: PathBuf::new(),
            mangohud_program: PathBuf::new(),
            presentmon_program: PathBuf::new(),
            outlier_limit: framescope_core::report::sets::DEFAULT_OUTLIER_LIMIT,
            column_mappings: Vec::new(),
            row_choices: Vec::new(),
            compare_view: super::compare_view::CompareView::default(),
        }
    }
}

impl Persisted {
    /// Remembers where recordings go and the capturing tool's program (MangoHud's when
    /// `mangohud`, else PresentMon's).
    pub fn remember_recording(&mut self, dir: PathBuf, mangohud: bool, program: PathBuf) {
        self.record_dir = dir;
        if mangohud {
            self.mangohud_program = program;
        } else {
            self.presentmon_program = program;
        }
    }

    /// The config file: `$FRAMESCOPE_CONFIG_DIR/settings.json`, else `framescope/settings.json`
    /// in the platform's configuration folder (`dirs::config_dir`): `$XDG_CONFIG_HOME` or
    /// `$HOME/.config` on Linux, the roaming application data folder (`%APPDATA%`) on
    /// Windows, `~/Library/Application Support` on macOS; `None` when none is known.
    #[must_use]
    pub fn path() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("FRAMESCOPE_CONFIG_DIR").filter(|v| !v.is_empty()) {
            return Some(PathBuf::from(dir).join("settings.json"));
        }
        dirs::config_dir().map(|b| b.join("framescope").join("settings.json"))
    }

    /// Loads from [`Persisted::path`]; a missing, unreadable, corrupt or out-of-range
    /// file gives the defaults (field by field). Never panics.
    #[must_use]
    pub fn load() -> Self {
        Self::path().map_or_else(Self::default, |p| Self::load_from(&p))
    }

    /// Loads from an explicit file, with the same fallbacks as [`Persisted::load`].
    #[must_use]
    pub fn load_from(path: &Path) -> Self {
        let Ok(text) = std::fs::read_to_string(path) else { return Self::default() };
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(obj)) => Self::from_object(&obj),
            _ => Self::default(),
        }
    }

    /// Reads every field on its own, so that one bad value only resets itself.
    fn from_object(obj: &Map<String, Value>) -> Self {
        fn field<T: DeserializeOwned>(obj: &Map<String, Value>, key: &str) -> Option<T> {
            obj.get(key).and_then(|v| T::deserialize(v).ok())
        }
        let d = Self::default();
        let in_range = |v: f64, lo: f64, hi: f64| v.is_finite() && (lo..=hi).contains(&v);
        let recent: Vec<PathBuf> = match obj.get("recent") {
            // Only absolute paths: older versions stored relative ones, which open the
            // wrong file (or none) from another folder.
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .collect(),
            _ => Vec::new(),
        };
        let mut p = Self {
            target_fps: field(obj, "target_fps")
                .filter(|&v| in_range(v, 1.0, 1000.0))
                .unwrap_or(d.target_fps),
            stutter_threshold: field(obj, "stutter_threshold")
                .filter(|&v| in_range(v, 0.0, f64::MAX))
                .unwrap_or(d.stutter_threshold),
            stutter_floor_ms: field(obj, "stutter_floor_ms")
                .filter(|&v| in_range(v, 0.0, f64::MAX))
                .unwrap_or(d.stutter_floor_ms),
            frame_time: field(obj, "frame_time").unwrap_or(d.frame_time),
            recent: Vec::new(),
            noise_band: field(obj, "noise_band").filter(|&v| in_range(v, 0.0, 1.0)).unwrap_or(d.noise_band),
            export_dir: field::<PathBuf>(obj, "export_dir").filter(|p| p.is_absolute()).unwrap_or_default(),
            trim_start_s: field(obj, "trim_start_s").filter(|&v| in_range(v, 0.0, 1e9)).unwrap_or(0.0),
            trim_end_s: field(obj, "trim_end_s").filter(|&v| in_range(v, 0.0, 1e9)).unwrap_or(0.0),
            run_trims: match obj.get("run_trims") {
                // One bad entry drops itself only.
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(|v| RunTrim::deserialize(v).ok())
                    .filter(|t| {
                        t.path.is_absolute() && in_range(t.start_s, 0.0, 1e9) && in_range(t.end_s, 0.0, 1e9)
                    })
                    .take(RUN_TRIMS_MAX)
                    .collect(),
                _ => Vec::new(),
            },
            watch_dir: field::<PathBuf>(obj, "watch_dir").filter(|p| p.is_absolute()).unwrap_or_default(),
            record_dir: field::<PathBuf>(obj, "record_dir").filter(|p| p.is_absolute()).unwrap_or_default(),
            mangohud_program: field::<PathBuf>(obj, "mangohud_program")
                .filter(|p| p.is_absolute())
                .unwrap_or_default(),
            presentmon_program: field::<PathBuf>(obj, "presentmon_program")
                .filter(|p| p.is_absolute())
                .unwrap_or_default(),
            outlier_limit: field(obj, "outlier_limit")
                .filter(|&v| in_range(v, 0.0, 1.0))
                .unwrap_or(d.outlier_limit),
            column_mappings: field::<Vec<RememberedMapping>>(obj, "column_mappings")
                .map(|mut v| {
                    v.truncate(MAPPINGS_MAX);
                    v
                })
                .unwrap_or_default(),
            row_choices: field::<Vec<super::row_choice::RowChoice>>(obj, "row_choices")
                .map(|mut v| {
                    v.truncate(super::row_choice::CHOICES_MAX);
                    v
                })
                .unwrap_or_default(),
            compare_view: field(obj, "compare_view").unwrap_or_default(),
        };
        // Oldest first, so that the most recent ends up in front.
        for path in recent.iter().rev() {
            p.remember(path);
        }
        p
    }

    /// Saves to [`Persisted::path`] atomically, creating the folder.
    pub fn save(&self) -> std::io::Result<()> {
        let path = Self::path()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, NO_CONFIG_FOLDER))?;
        self.save_to(&path)
    }

    /// Saves to an explicit file atomically: writes a temporary file in the same
    /// folder, then renames it over `path`, creating the folder first.
    pub fn save_to(&self, path: &Path) -> std::io::Result<()> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let mut json = serde_json::to_string_pretty(self).map_err(std::io::Error::from)?;
        json.push('\n');
        let name = path.file_name().map_or_else(|| "settings.json".into(), |n| n.to_string_lossy());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            std::io::Write::write_all(&mut f, json.as_bytes())?;
            f.sync_all()
        });
        let result = written.and_then(|()| std::fs::rename(&tmp, path));
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    /// The analysis settings these stand for. The refresh rate is not among them: it
    /// belongs to one capture (`OpenRun::refresh_hz`), so `None` here.
    #[must_use]
    pub fn settings(&self) -> Settings {
        Settings {
            target_fps: self.target_fps,
            stutter_threshold: self.stutter_threshold,
            stutter_floor_ms: self.stutter_floor_ms,
            refresh_hz: None,
            frame_time: self.frame_time,
        }
    }

    /// The trim of every run without a trim of its own.
    #[must_use]
    pub fn trim_for_all(&self) -> framescope_core::analysis::Trim {
        framescope_core::analysis::Trim { start_s: self.trim_start_s, end_s: self.trim_end_s }
    }

    /// The trim saved for the capture at `path`, if it has its own.
    #[must_use]
    pub fn run_trim(&self, path: &Path) -> Option<(f64, f64)> {
        self.run_trims.iter().find(|t| t.path == path).map(|t| (t.start_s, t.end_s))
    }

    /// Saves (or, with `None`, forgets) the capture's own trim; true when that changed
    /// anything.
    pub fn set_run_trim(&mut self, path: &Path, trim: Option<(f64, f64)>) -> bool {
        if self.run_trim(path) == trim {
            return false;
        }
        self.run_trims.retain(|t| t.path != path);
        if let Some((start_s, end_s)) = trim {
            self.run_trims.insert(0, RunTrim { path: path.to_path_buf(), start_s, end_s });
            self.run_trims.truncate(RUN_TRIMS_MAX);
        }
        true
    }

    /// Remembers `mapping` for CSVs with this `header` (replacing an older one).
    pub fn remember_mapping(&mut self, header: &[String], mapping: framescope_core::ingest::ColumnMapping) {
        self.column_mappings.retain(|m| m.header != header);
        self.column_mappings.insert(0, RememberedMapping { header: header.to_vec(), mapping });
        self.column_mappings.truncate(MAPPINGS_MAX);
    }

    /// The mapping remembered for `header`, if any.
    #[must_use]
    pub fn mapping_for(&self, header: &[String]) -> Option<&framescope_core::ingest::ColumnMapping> {
        self.column_mappings.iter().find(|m| m.header == header).map(|m| &m.mapping)
    }

    /// Puts `path` first in the recent list (deduplicated, at most 10).
    pub fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_MAX);
    }
}

#[cfg(test)]
mod tests;
