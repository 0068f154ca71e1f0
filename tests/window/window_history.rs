//! File › Open history… (issue 37): the history window lists a history's scenes and
//! builds; "Compare the two builds" opens the runs of the two builds picked (by
//! default the newest two), each build a set, compared with the older as baseline. A file that is not a
//! history is an error in the window.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{app, run_id, settle, window_of};
use common::{TempDir, framescope, repo_file};
use eframe::egui;
use eframe::egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use framescope::app::Persisted;

#[test]
fn two_builds_of_a_history_open_compared() {
    let dir = TempDir::new("window-history");
    let db = dir.0.join("perf.db");
    // Two runs per build (a line end more makes another capture of the same frames).
    let bytes = |name: &str, more: &[u8]| {
        let mut b = std::fs::read(repo_file(&format!("sample-traces/{name}"))).unwrap();
        b.extend_from_slice(more);
        b
    };
    let a = dir.file("build1-a.csv", &bytes("synthetic-run-a.csv", b""));
    let a2 = dir.file("build1-b.csv", &bytes("synthetic-run-a.csv", b"\n"));
    let b = dir.file("build2-a.csv", &bytes("synthetic-run-b.csv", b""));
    let b2 = dir.file("build2-b.csv", &bytes("synthetic-run-b.csv", b"\n"));
    for (build, files) in [("1", [&a, &a2]), ("2", [&b, &b2])] {
        let mut args: Vec<&std::ffi::OsStr> = vec!["history".as_ref(), "add".as_ref(), db.as_os_str()];
        args.extend(["--build".as_ref(), build.as_ref(), files[0].as_os_str(), files[1].as_os_str()]);
        let out = framescope(args);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let mut h = window_of(egui::vec2(1400.0, 900.0), Persisted::default(), std::slice::from_ref(&a), |app| {
        app.open_history(&db);
    });
    // The window opened with a capture; closed, the comparison holds the builds' runs only.
    let first = run_id(&h, 0);
    h.state_mut().as_mut().unwrap().close_run(first);
    settle(&mut h);
    assert!(h.query_by_label("Compare the two builds").is_some(), "the history window is shown");
    h.get_by_role_and_label(Role::Button, "Compare the two builds").click();
    settle(&mut h);
    assert!(app(&h).comparing(), "the two builds' runs are compared");
    let names = app(&h).run_names();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names[0].ends_with("build1-a.csv") && names[3].ends_with("build2-b.csv"), "{names:?}");
    // Each build's runs are a set.
    assert_eq!(app(&h).run_sets(), ["build 1", "build 1", "build 2", "build 2"]);
    assert!(h.query_by_label("Compare the two builds").is_none(), "the history window closed");

    let not_history = dir.file("notes.db", b"not a database");
    h.state_mut().as_mut().unwrap().open_history(&not_history);
    settle(&mut h);
    assert!(
        app(&h).errors().iter().any(|e| e.contains("not a framescope history")),
        "{:?}",
        app(&h).errors()
    );
}
