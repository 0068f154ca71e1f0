//! The summary file MangoHud writes beside each log, `NAME_summary.csv`: its own
//! figures (`0.1% Min FPS`, `1% Min FPS`, `97% Percentile FPS`, `Average FPS`, then
//! loads and, from 0.7, averages and peaks of the other columns), shown as the tool's
//! figures and never mixed with framescope's (`metrics.md` §11).
//!
//! MangoHud opens the summary file to append, so a log of several logging sessions
//! has one header and one row per session: the k-th row is the k-th session's.

use crate::model::{ToolSummary, Warning};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A summary file is a few hundred bytes; more than this is not one.
const MAX_BYTES: u64 = 64 * 1024;

/// `glxgears_2021-06-03_21-32-02.csv` → `glxgears_2021-06-03_21-32-02_summary.csv`
/// (`None` for a path that does not end in `.csv`, e.g. a gzip or stdin).
#[must_use]
pub(crate) fn summary_path(log: &Path) -> Option<PathBuf> {
    let name = log.file_name()?.to_str()?;
    let stem = name.strip_suffix(".csv").or_else(|| name.strip_suffix(".CSV"))?;
    if stem.ends_with("_summary") {
        return None;
    }
    Some(log.with_file_name(format!("{stem}_summary.csv")))
}

/// The summary beside `log` for each of its `traces` traces (sessions, in order):
/// `None` each when there is no readable summary file, or when its rows do not match
/// the sessions one for one (then a warning says so).
pub(crate) fn read_beside(log: &Path, traces: usize) -> (Vec<Option<ToolSummary>>, Option<Warning>) {
    let none = vec![None; traces];
    let Some(path) = summary_path(log) else { return (none, None) };
    let Ok(file) = std::fs::File::open(&path) else { return (none, None) };
    let mut text = String::new();
    if file.take(MAX_BYTES).read_to_string(&mut text).is_err() {
        return (none, None);
    }
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let rows = parse(&text, &name);
    if rows.is_empty() {
        return (none, None);
    }
    if rows.len() != traces {
        let warning = Warning::file(format!(
            "{name} has {} summary rows for {traces} logging sessions: MangoHud's own figures are not shown",
            rows.len()
        ));
        return (none, Some(warning));
    }
    (rows.into_iter().map(Some).collect(), None)
}

/// Every data row of a summary file, each read by the header line above it.
fn parse(text: &str, file: &str) -> Vec<ToolSummary> {
    let mut out = Vec::new();
    let mut header: Option<Vec<String>> = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let cells: Vec<String> = line.split(',').map(|c| c.trim().to_owned()).collect();
        if cells.iter().any(|c| c.eq_ignore_ascii_case("Average FPS")) {
            header = Some(cells);
            continue;
        }
        let Some(h) = &header else { continue };
        let value = |name: &str| {
            let i = h.iter().position(|c| c.eq_ignore_ascii_case(name))?;
            cells.get(i)?.parse::<f64>().ok().filter(|v| v.is_finite())
        };
        let summary = ToolSummary {
            tool: "MangoHud",
            file: file.to_owned(),
            low_0_1pct_fps: value("0.1% Min FPS"),
            low_1pct_fps: value("1% Min FPS"),
            p97_fps: value("97% Percentile FPS"),
            average_fps: value("Average FPS"),
        };
        if summary.average_fps.is_some() || summary.low_1pct_fps.is_some() {
            out.push(summary);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_beside_a_log() {
        let p = summary_path(Path::new("/d/vkcube_2026-11-29_06-00-00.csv"));
        assert_eq!(p, Some(PathBuf::from("/d/vkcube_2026-11-29_06-00-00_summary.csv")));
        assert_eq!(summary_path(Path::new("/d/x.csv.gz")), None);
        assert_eq!(summary_path(Path::new("/d/x_summary.csv")), None);
    }

    /// 0.6.8 writes six columns, 0.8 nineteen; two sessions append two header + row pairs.
    #[test]
    fn rows_by_their_header() {
        let text = "0.1% Min FPS,1% Min FPS,97% Percentile FPS,Average FPS,GPU Load,CPU Load\n\
                    79.7,189.8,848.2,562.1,0,12.5\n\
                    0.1% Min FPS,1% Min FPS,97% Percentile FPS,Average FPS,GPU Load,CPU Load,Average Frame Time\n\
                    1.0,2.0,x,4.0,0,0,1\n";
        let rows = parse(text, "a_summary.csv");
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].low_0_1pct_fps, rows[0].low_1pct_fps, rows[0].p97_fps, rows[0].average_fps),
            (Some(79.7), Some(189.8), Some(848.2), Some(562.1))
        );
        assert_eq!((rows[1].p97_fps, rows[1].average_fps), (None, Some(4.0)));
        assert!(parse("not,a,summary\n1,2,3\n", "x").is_empty());
    }
}
