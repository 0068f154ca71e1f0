//! The writers and layouts framescope recognises.

use serde::Serialize;

/// A capture's writer and layout, named as the JSON report names it
/// (`cli-report.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Format {
    /// PresentMon 1.x and 2.x `--v1_metrics`.
    #[serde(rename = "presentmon-1")]
    PresentMon1,
    /// PresentMon 2.0 (CPUBusy/CPUWait, no FrameTime column).
    #[serde(rename = "presentmon-2.0")]
    PresentMon20,
    /// PresentMon 2.1–2.3 and `--v2_metrics`.
    #[serde(rename = "presentmon-2.1")]
    PresentMon21,
    /// PresentMon 2.4+ default layout.
    #[serde(rename = "presentmon-2.4")]
    PresentMon24,
    /// Intel PresentMon GUI capture (`pmcap-*.csv`).
    #[serde(rename = "presentmon-gui")]
    PresentMonGui,
    /// NVIDIA FrameView per-frame log.
    #[serde(rename = "frameview")]
    FrameView,
    /// AMD OCAT frame log.
    #[serde(rename = "ocat")]
    Ocat,
    /// CapFrameX CSV (`//` header lines).
    #[serde(rename = "capframex-csv")]
    CapFrameXCsv,
    /// CapFrameX capture JSON.
    #[serde(rename = "capframex-json")]
    CapFrameXJson,
    /// CapFrameX on Linux: its Vulkan layer's session CSV.
    #[serde(rename = "capframex-linux")]
    CapFrameXLinux,
    /// pyrofling's latency-measurement layer CSV (Linux, Vulkan): one row per measured
    /// synthetic input, read as a sampled log with latency stages.
    #[serde(rename = "pyrofling")]
    Pyrofling,
    /// XRFrameTools' CSV (OpenXR on Windows): frames, or frames aggregated per row.
    #[serde(rename = "xrframetools")]
    XrFrameTools,
    /// Meta's OVR Metrics Tool CSV (Quest): one row a second, sampled.
    #[serde(rename = "ovr-metrics")]
    OvrMetrics,
    /// Android `dumpsys SurfaceFlinger --latency LAYER` text (`metrics.md` §16).
    #[serde(rename = "android-surfaceflinger")]
    AndroidSurfaceFlinger,
    /// Android `dumpsys gfxinfo PACKAGE framestats` text (`metrics.md` §16).
    #[serde(rename = "android-gfxinfo")]
    AndroidGfxinfo,
    /// A Perfetto trace's Android FrameTimeline (`metrics.md` §16): one trace per layer.
    #[serde(rename = "perfetto")]
    Perfetto,
    /// MangoHud CSV log.
    #[serde(rename = "mangohud")]
    MangoHud,
    /// NVIDIA App performance log (sampled, one row per ~0.5 s).
    #[serde(rename = "nvidia-app")]
    NvidiaApp,
    /// MSI Afterburner hardware-monitoring log (sampled, one line per polling period).
    #[serde(rename = "afterburner")]
    Afterburner,
    /// Unity FrameTimingManager: framescope's recorder CSV or a Profiler-counter export
    /// (`formats.md` §7).
    #[serde(rename = "unity")]
    Unity,
    /// Unreal Engine CSV profiler, 4.17–4.19 or 4.2x–5.x layout (`formats.md` §10).
    #[serde(rename = "unreal-csv")]
    UnrealCsv,
    /// Any other per-frame CSV: a known generic layout (FRAPS, Unity Profile Analyzer,
    /// Vulkan frame-time layer) or a column the user named (`formats.md` §11).
    #[serde(rename = "generic")]
    Generic,
}

impl Format {
    /// The name used in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::PresentMon1 => "presentmon-1",
            Self::PresentMon20 => "presentmon-2.0",
            Self::PresentMon21 => "presentmon-2.1",
            Self::PresentMon24 => "presentmon-2.4",
            Self::PresentMonGui => "presentmon-gui",
            Self::FrameView => "frameview",
            Self::Ocat => "ocat",
            Self::CapFrameXCsv => "capframex-csv",
            Self::MangoHud => "mangohud",
            Self::CapFrameXJson => "capframex-json",
            Self::CapFrameXLinux => "capframex-linux",
            Self::Pyrofling => "pyrofling",
            Self::XrFrameTools => "xrframetools",
            Self::OvrMetrics => "ovr-metrics",
            Self::Perfetto => "perfetto",
            Self::AndroidSurfaceFlinger => "android-surfaceflinger",
            Self::AndroidGfxinfo => "android-gfxinfo",
            Self::NvidiaApp => "nvidia-app",
            Self::Afterburner => "afterburner",
            Self::Unity => "unity",
            Self::UnrealCsv => "unreal-csv",
            Self::Generic => "generic",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
