//! `--html OUT.html`: the same document `report` / `compare` print, also written as one
//! self-contained page (`framescope_core::html`). Each run's timeline and charts are
//! reduced while its capture is loaded ([`pages`]), so `report` still holds at most one
//! capture per thread; the page is written once every run is in, whatever the gate
//! says (its exit status is unchanged).

use super::loading::{Loaded, Picked};
use framescope_core::analysis::Settings;
use framescope_core::html;
pub(super) use framescope_core::html::PageRun;
use framescope_core::report::{CompareReport, Report, RunEntry, sets::SetsReport};
use std::path::Path;

/// The page's view of one file's runs (`entries`, as [`Loaded::runs`] gave them): a
/// reduced [`PageRun`] per reported run, `None` per failed one. Empty without `--html`.
pub(super) fn pages(
    wanted: bool,
    loaded: &Loaded,
    entries: &[RunEntry],
    settings: &Settings,
) -> Vec<Option<PageRun>> {
    if !wanted {
        return Vec::new();
    }
    let Loaded::Capture { capture, picked, .. } = loaded else {
        return entries.iter().map(|_| None).collect();
    };
    picked
        .iter()
        .zip(entries)
        .map(|(p, e)| {
            let trace = match p {
                Picked::Whole(i) => &capture.traces[*i],
                Picked::Trimmed(t) => &**t,
                Picked::Empty(_) => return None,
            };
            match e {
                RunEntry::Run(run) => Some(PageRun::new(run, &capture.info.system, trace, settings)),
                RunEntry::Failed(_) | RunEntry::Etl(_) => None,
            }
        })
        .collect()
}

/// The page of a `report` document.
pub(super) fn write_report(path: &Path, report: &Report, pages: Vec<Option<PageRun>>) -> bool {
    write(path, |out| html::write_report_page(report, pages, out))
}

/// The page of a two-run comparison.
pub(super) fn write_compare(path: &Path, doc: &CompareReport, pages: Vec<Option<PageRun>>) -> bool {
    write(path, |out| html::write_compare_page(doc, pages, out))
}

/// The page of a sets comparison.
pub(super) fn write_sets(path: &Path, doc: &SetsReport, pages: Vec<Option<PageRun>>) -> bool {
    write(path, |out| html::write_sets_page(doc, pages, out))
}

/// Writes the page to `path`; false (with the error on stderr) when it cannot.
fn write(
    path: &Path,
    page: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> bool {
    match framescope_core::output::write_file(path, page) {
        Ok(()) => true,
        Err(e) => {
            say!("error: cannot write the HTML page {}: {e}", path.display());
            false
        }
    }
}
