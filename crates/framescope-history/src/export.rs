//! A history as a table: one row per stored run (`history export`, Python's
//! `framescope.history`).

use crate::{StoredRun, Time};
use framescope_core::figures::FIGURES;
use framescope_core::report::{Cells, Table};

/// One row per run: where it is in the history (build, scene, commit, branch, time,
/// time added), its capture (file, content hash, application, format, frames), then
/// every registry figure by `section.name` (null where the run lacks it).
#[must_use]
pub fn table(runs: &[StoredRun]) -> Table {
    let text = |f: &dyn Fn(&StoredRun) -> Option<String>| Cells::Text(runs.iter().map(f).collect());
    let mut t = Table::default();
    t.push("build", text(&|r| Some(r.run.place.build.clone())));
    t.push("scene", text(&|r| Some(r.run.place.scene.clone())));
    t.push("commit", text(&|r| r.run.place.commit.clone()));
    t.push("branch", text(&|r| r.run.place.branch.clone()));
    t.push("time", text(&|r| r.run.place.time.map(|t| t.to_string())));
    t.push("added", text(&|r| Some(Time { unix: r.added_unix }.to_string())));
    t.push("file", text(&|r| Some(r.run.file.clone())));
    t.push("content_hash", text(&|r| Some(r.run.content_hash.clone())));
    t.push("application", text(&|r| Some(r.run.application.clone())));
    t.push("format", text(&|r| Some(r.run.format.clone())));
    t.push("frames", Cells::Int(runs.iter().map(|r| i64::try_from(r.run.frames).ok()).collect()));
    for f in FIGURES {
        let name = f.qualified_name();
        let values = runs.iter().map(|r| r.run.figures.get(&name).copied().unwrap_or(f64::NAN));
        t.push(&name, Cells::Float(values.collect()));
    }
    t
}
