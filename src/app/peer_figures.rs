//! Where each peer tool's figures come from (`metrics.md` §11), for the tool's heading
//! in the "As other tools report it" panel; the figures themselves (the tool's own
//! names, units, definitions) are the registry's (`framescope_core::figures`).

use framescope_core::report::compare::Section;

/// Where each tool's figures come from, for the tool's heading.
pub fn tool_help(tool: Section) -> &'static str {
    match tool {
        Section::CapFrameX => {
            "CapFrameX's statistics (FrametimeStatisticProvider.cs), computed on the same frames"
        }
        Section::FrameView => {
            "NVIDIA FrameView's summary file (FrameView_Summary.csv), computed on the same frames; FrameView works on \
             present intervals"
        }
        Section::PresentMon => "Intel PresentMon's capture app, its statistics (StatisticsTracker.cpp)",
        Section::MangoHud => "MangoHud's summary file (src/logging.cpp, version 0.8)",
        _ => "",
    }
}
