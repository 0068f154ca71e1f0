//! Unit tests of [`Session::apply`], without a window: small hand-built captures (a
//! PresentMon-style CSV read by `ingest::load_bytes`), the background work done at once
//! on the test's thread ([`Spawner::inline`]), so every result is there after one
//! [`Session::sync_work`].

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::app::work::{AnalysisError, LoadId, Spawner};
use framescope_core::ingest::{LoadOptions, load_bytes};
use framescope_core::model::Capture;
use std::fmt::Write as _;
use std::path::Path;

/// A capture of one process whose frames take `frame_ms` each.
fn capture(frame_ms: &[f64]) -> Capture {
    let mut text = String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
    for v in frame_ms {
        writeln!(text, "game.exe,1,0x1,{v}").unwrap();
    }
    load_bytes(Path::new("t.csv"), text.as_bytes(), LoadOptions::default()).unwrap()
}

/// A capture of two processes: `game.exe` (6 frames of 10 ms) and `other.exe` (3
/// frames of 20 ms), interleaved.
fn two_traces() -> Capture {
    let mut text = String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
    for k in 0..6 {
        text.push_str("game.exe,1,0x1,10\n");
        if k % 2 == 0 {
            text.push_str("other.exe,2,0x2,20\n");
        }
    }
    load_bytes(Path::new("two.csv"), text.as_bytes(), LoadOptions::default()).unwrap()
}

fn session() -> (Session, Persisted) {
    (Session::new(Spawner::inline()), Persisted::default())
}

/// Opens a run named `name` (from the file `path`, when given) of frames of 10 ms.
fn open(s: &mut Session, p: &mut Persisted, name: &str, path: Option<&str>) -> RunId {
    let loaded = Loaded {
        load: None,
        name: name.to_owned(),
        path: path.map(std::path::PathBuf::from),
        capture: capture(&[10.0; 100]),
        from_watch: false,
    };
    s.apply(AppCommand::Opened(Box::new(loaded)), p);
    s.runs().last().unwrap().id
}

/// Opens a run as load `load` read it (a load the window's jobs started).
fn open_load(s: &mut Session, p: &mut Persisted, name: &str, load: LoadId) -> RunId {
    let loaded = Loaded {
        load: Some(load),
        name: name.to_owned(),
        path: None,
        capture: capture(&[10.0; 100]),
        from_watch: false,
    };
    s.apply(AppCommand::Opened(Box::new(loaded)), p);
    s.runs().last().unwrap().id
}

fn ids(s: &Session) -> Vec<u64> {
    s.runs().iter().map(|r| r.id.0).collect()
}

#[test]
fn runs_get_ids_that_are_never_reused() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    let b = open(&mut s, &mut p, "b.csv", None);
    let c = open(&mut s, &mut p, "c.csv", None);
    assert_eq!(ids(&s), [0, 1, 2]);
    // The newest run is shown.
    assert_eq!(s.selected_run().map(|r| r.id), Some(c));
    s.apply(AppCommand::Close(b), &mut p);
    assert_eq!(ids(&s), [0, 2]);
    assert_eq!(s.runs()[1].id, c);
    assert_eq!(s.run(a).map(|r| r.label.as_str()), Some("a.csv"));
    // A new run never takes the closed run's id.
    let d = open(&mut s, &mut p, "d.csv", None);
    assert_eq!(d, RunId(3));
    // Closing a run that is not open changes nothing.
    s.apply(AppCommand::Close(b), &mut p);
    assert_eq!(ids(&s), [0, 2, 3]);
}

#[test]
fn closing_the_shown_run_shows_its_successor_and_drops_its_frame() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    let b = open(&mut s, &mut p, "b.csv", None);
    let c = open(&mut s, &mut p, "c.csv", None);
    s.apply(AppCommand::SelectRun(b), &mut p);
    s.apply(AppCommand::Timeline { run: b, command: TimelineCommand::SelectFrame(Some(7)) }, &mut p);
    assert_eq!(s.selected_frame(), Some((b, 7)));
    s.apply(AppCommand::Close(b), &mut p);
    // c is now at b's place, and shown; b's frame is gone.
    assert_eq!(s.selected_run().map(|r| r.id), Some(c));
    assert_eq!(s.selected_frame(), None);
    // A frame of another run stays selected when a run before it closes.
    s.apply(AppCommand::Timeline { run: c, command: TimelineCommand::SelectFrame(Some(3)) }, &mut p);
    s.apply(AppCommand::Close(a), &mut p);
    assert_eq!(s.selected_frame(), Some((c, 3)));
    // Closing the last run leaves nothing shown.
    s.apply(AppCommand::Close(c), &mut p);
    assert!(s.runs().is_empty() && s.shown().is_empty() && s.selected_run().is_none());
    assert_eq!((s.selected(), s.baseline()), (None, None));
}

#[test]
fn closing_runs_while_comparing_keeps_the_baseline() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    let b = open(&mut s, &mut p, "b.csv", None);
    let c = open(&mut s, &mut p, "c.csv", None);
    s.apply(AppCommand::Compare { on: true, baseline: Some(c) }, &mut p);
    assert!(s.comparing());
    assert_eq!(s.shown(), [c, a, b], "baseline first");
    s.apply(AppCommand::Close(a), &mut p);
    assert_eq!(s.baseline(), Some(c));
    assert_eq!(s.shown(), [c, b]);
    // The baseline closed: the run now at its place (here the last) takes over; with
    // one run left nothing is compared.
    s.apply(AppCommand::Close(c), &mut p);
    assert_eq!(s.baseline(), Some(b));
    assert!(!s.comparing());
    assert_eq!(s.shown(), [b]);
}

#[test]
fn compare_on_and_off_and_the_compared_runs() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    let b = open(&mut s, &mut p, "b.csv", None);
    let c = open(&mut s, &mut p, "c.csv", None);
    s.apply(AppCommand::Compare { on: true, baseline: None }, &mut p);
    assert_eq!(s.shown(), [a, b, c], "the first run is the baseline until one is chosen");
    s.apply(AppCommand::Compared(b, false), &mut p);
    assert_eq!(s.shown(), [a, c]);
    s.apply(AppCommand::Baseline(c), &mut p);
    assert_eq!(s.shown(), [c, a]);
    // Leaving only the baseline compared stops the comparison; ticking Compare again
    // compares them all.
    s.apply(AppCommand::Compared(a, false), &mut p);
    assert!(!s.comparing());
    s.apply(AppCommand::Compare { on: true, baseline: None }, &mut p);
    assert_eq!(s.shown(), [c, a, b]);
    s.apply(AppCommand::Compare { on: false, baseline: None }, &mut p);
    assert!(!s.comparing());
    assert_eq!(s.shown(), [c], "the selected run: the newest opened");
    assert_eq!(s.selected(), Some(c));
}

#[test]
fn compare_when_loaded_waits_for_every_load_and_leaves_older_runs_out() {
    let (mut s, mut p) = session();
    open(&mut s, &mut p, "open before.csv", None);
    // The sample pair beside an open capture, its first load the baseline: the pair's
    // runs open in either order, a live run between them.
    s.apply(AppCommand::CompareWhenLoaded { baseline: Some(LoadId(7)), only_new: true }, &mut p);
    let b = open_load(&mut s, &mut p, "pair b.csv", LoadId(8));
    let live = open(&mut s, &mut p, "live.csv", None);
    s.apply(AppCommand::Compared(live, false), &mut p);
    let a = open_load(&mut s, &mut p, "pair a.csv", LoadId(7));
    assert!(!s.comparing(), "not before every load finished");
    s.apply(AppCommand::LoadsFinished, &mut p);
    assert!(s.comparing());
    assert_eq!(s.baseline(), Some(a));
    assert_eq!(s.shown(), [a, b], "the capture open before stays out");
    // Asked once: later loads finishing change nothing.
    s.apply(AppCommand::Compare { on: false, baseline: None }, &mut p);
    s.apply(AppCommand::LoadsFinished, &mut p);
    assert!(!s.comparing());
}

/// `--compare`: no load named, the first run is the baseline; a named load that
/// failed (its run never opened) leaves the first run the baseline too.
#[test]
fn compare_when_loaded_without_its_baseline_load_takes_the_first_run() {
    let (mut s, mut p) = session();
    s.apply(AppCommand::CompareWhenLoaded { baseline: None, only_new: false }, &mut p);
    let a = open_load(&mut s, &mut p, "a.csv", LoadId(0));
    let b = open_load(&mut s, &mut p, "b.csv", LoadId(1));
    s.apply(AppCommand::LoadsFinished, &mut p);
    assert_eq!((s.baseline(), s.shown()), (Some(a), vec![a, b]));
    s.apply(AppCommand::Compare { on: false, baseline: None }, &mut p);
    s.apply(AppCommand::CompareWhenLoaded { baseline: Some(LoadId(5)), only_new: false }, &mut p);
    let c = open_load(&mut s, &mut p, "c.csv", LoadId(6));
    s.apply(AppCommand::LoadsFinished, &mut p);
    assert_eq!((s.baseline(), s.shown()), (Some(a), vec![a, b, c]));
}

/// No run open: nothing is selected, shown or the baseline. Ids name runs whatever
/// their place: after an earlier run closes, every later run moves up a place, and
/// its id still names it (its settings, trim, selection, frame and rows follow it).
#[test]
fn ids_stay_with_their_runs_when_places_shift() {
    let (mut s, mut p) = session();
    assert_eq!((s.selected(), s.baseline()), (None, None));
    assert!(s.shown().is_empty() && s.selected_run().is_none() && s.selected_frame().is_none());
    let a = open(&mut s, &mut p, "a.csv", None);
    let b = open(&mut s, &mut p, "b.csv", None);
    let c = open(&mut s, &mut p, "c.csv", None);
    s.sync_work(&p);
    let own = Trim { start_s: 0.1, end_s: 0.2 };
    s.apply(AppCommand::RunTrim(c, Some(own)), &mut p);
    s.apply(AppCommand::Offset(c, 50.0), &mut p);
    s.apply(AppCommand::Timeline { run: c, command: TimelineCommand::SelectFrame(Some(4)) }, &mut p);
    s.apply(AppCommand::Timeline { run: c, command: TimelineCommand::Select(Some((100.0, 200.0))) }, &mut p);
    let (shift, selection) = (s.shift(c), s.selection_of(c));
    assert_eq!(s.selected(), Some(c));
    s.apply(AppCommand::Close(a), &mut p);
    // c moved from place 2 to place 1; its id still names it.
    assert_eq!(s.runs()[1].id, c);
    assert_eq!(s.run(c).map(|r| r.label.as_str()), Some("c.csv"));
    assert_eq!(s.selected(), Some(c));
    assert_eq!(s.selected_frame(), Some((c, 4)));
    assert_eq!(s.run_trim(c, &p), own);
    assert_eq!(s.run_trim(b, &p), Trim::default());
    assert_eq!((s.shift(c), s.selection_of(c)), (shift, selection));
    assert_eq!(s.shown(), [c]);
    s.sync_work(&p);
    assert!(s.is_idle(&p));
    // A command naming the closed run changes nothing; one naming c still reaches it.
    s.apply(AppCommand::Rename(a, "gone".into()), &mut p);
    s.apply(AppCommand::Rename(c, "renamed".into()), &mut p);
    assert_eq!(s.runs().iter().map(|r| r.label.as_str()).collect::<Vec<_>>(), ["b.csv", "renamed"]);
    assert_eq!(s.telemetry_rows(a, &p), Vec::<usize>::new());
}

/// Frames of 10 ms: average FPS 1000 / 10 = 100; at a 60 FPS target none is slow.
/// The figures arrive with the first `sync_work` (the work runs inline) and are
/// computed again, with a new generation, when the target changes.
#[test]
fn figures_follow_the_settings() {
    let (mut s, mut p) = session();
    open(&mut s, &mut p, "a.csv", None);
    assert!(!s.is_idle(&p), "nothing computed yet");
    assert!(s.sync_work(&p).is_empty());
    let run = &s.runs()[0];
    let a = run.analyzed().expect("figures");
    assert!((a.run.summary.unwrap().avg_fps - 100.0).abs() < 1e-9);
    assert!(run.tracks().is_some() && s.is_idle(&p));
    let generation = run.generation();
    let effects = s.apply(AppCommand::TargetFps(144.0), &mut p);
    assert!(effects.settings_changed && (p.target_fps - 144.0).abs() < 1e-12);
    assert!(!s.is_idle(&p), "figures of the old target");
    s.sync_work(&p);
    assert!(s.is_idle(&p));
    assert!(s.runs()[0].generation() > generation);
    assert!((s.runs()[0].analyzed().unwrap().settings.target_fps - 144.0).abs() < 1e-12);
    // The same target again is no change to save.
    assert!(!s.apply(AppCommand::TargetFps(144.0), &mut p).settings_changed);
}

#[test]
fn trims_for_all_runs_and_a_run_s_own() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "/captures/a.csv", Some("/captures/a.csv"));
    let b = open(&mut s, &mut p, "b.csv", None);
    // `/captures/a.csv` is absolute on Unix; on Windows it is made so on its drive.
    let saved = std::path::absolute("/captures/a.csv").unwrap();
    assert_eq!(p.recent, std::slice::from_ref(&saved));
    let effects = s.apply(AppCommand::TrimAll { start_s: 0.2, end_s: -1.0 }, &mut p);
    assert!(effects.settings_changed);
    assert_eq!(s.run_trim(b, &p), Trim { start_s: 0.2, end_s: 0.0 }, "negative seconds are 0");
    let own = Trim { start_s: 0.1, end_s: 0.3 };
    s.apply(AppCommand::RunTrim(a, Some(own)), &mut p);
    assert_eq!(s.run_trim(a, &p), own);
    assert_eq!(p.run_trim(&saved), Some((0.1, 0.3)), "saved by its path");
    // Opened again, the capture gets its own trim back.
    let again = open(&mut s, &mut p, "/captures/a.csv", Some("/captures/a.csv"));
    assert_eq!(s.run(again).and_then(|r| r.trim), Some(own));
    s.apply(AppCommand::RunTrim(a, None), &mut p);
    assert_eq!(s.run_trim(a, &p), Trim { start_s: 0.2, end_s: 0.0 });
    assert_eq!(p.run_trim(&saved), None);
}

/// 100 frames of 10 ms start at 0, 10, …, 990 ms (the run spans 1 s). Dragging the start
/// edge to 250.4 ms trims 0.25 s (whole ms) off the trim for all runs; once the run has a
/// trim of its own, a drag moves that one.
#[test]
fn a_dragged_trim_edge_moves_the_run_s_trim_or_the_one_for_all() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    let first = s.runs()[0].shown_trace().frames.start_ms[0];
    let drag =
        |start, at_ms| AppCommand::Timeline { run: a, command: TimelineCommand::Trim { start, at_ms } };
    assert!(s.apply(drag(true, first + 250.4), &mut p).settings_changed);
    assert!((p.trim_start_s - 0.25).abs() < 1e-12);
    s.apply(AppCommand::RunTrim(a, Some(Trim { start_s: 0.0, end_s: 0.0 })), &mut p);
    s.apply(drag(false, first + 900.0), &mut p);
    let own = s.runs()[0].trim.unwrap();
    assert!((own.end_s - 0.1).abs() < 1e-9, "{own:?}");
    assert!((p.trim_start_s - 0.25).abs() < 1e-12 && p.trim_end_s.abs() < 1e-12, "the trim for all stays");
}

/// A trim that leaves nothing: an error in words, no figures, and the session does not
/// wait for them.
#[test]
fn a_trim_that_leaves_nothing_is_an_error_not_a_wait() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    s.apply(AppCommand::TrimAll { start_s: 5.0, end_s: 0.0 }, &mut p);
    let errors = s.sync_work(&p);
    assert_eq!(errors.len(), 1);
    assert!(
        matches!(errors[0], Failure::Analysis { error: AnalysisError::TrimLeavesNothing(_), .. }),
        "{errors:?}"
    );
    let (settings, trim) = (s.run_settings(a, &p), s.run_trim(a, &p));
    assert!(s.runs()[0].failed(&settings, trim));
    assert!(s.is_idle(&p));
    // Not tried again every frame.
    assert!(s.sync_work(&p).is_empty());
}

#[test]
fn selections_frames_and_views_are_per_run_time() {
    let (mut s, mut p) = session();
    let a = open(&mut s, &mut p, "a.csv", None);
    let b = open(&mut s, &mut p, "b.csv", None);
    s.apply(AppCommand::Offset(b, 100.0), &mut p);
    s.apply(AppCommand::Compare { on: true, baseline: Some(a) }, &mut p);
    let timeline = |run, command| AppCommand::Timeline { run, command };
    // b starts 100 ms later on the shared axis: 300–500 ms of b's own time is 400–600
    // ms of a's.
    s.apply(timeline(b, TimelineCommand::Select(Some((300.0, 500.0)))), &mut p);
    let (sa, sb) = (s.selection_of(a).unwrap(), s.selection_of(b).unwrap());
    assert!((sb.0 - 300.0).abs() < 1e-9 && (sb.1 - 500.0).abs() < 1e-9, "{sb:?}");
    assert!((sa.0 - 400.0).abs() < 1e-9 && (sa.1 - 600.0).abs() < 1e-9, "{sa:?}");
    // Zoom to it: 200 ms and 1 % on each side, 298–502 ms on b's own axis.
    s.apply(timeline(a, TimelineCommand::ZoomToSelection), &mut p);
    let v = s.view_of(b);
    assert!((v.start_ms - 298.0).abs() < 1e-9 && (v.span_ms - 204.0).abs() < 1e-9, "{v:?}");
    // A drag released where it started selects nothing.
    s.apply(timeline(a, TimelineCommand::Select(Some((42.0, 42.0)))), &mut p);
    assert!(!s.has_selection());
    s.apply(timeline(b, TimelineCommand::SelectFrame(Some(5))), &mut p);
    assert_eq!(s.selected_frame(), Some((b, 5)));
    s.apply(timeline(a, TimelineCommand::Cursor(250.0)), &mut p);
    assert!((s.cursor_of(a).unwrap() - 250.0).abs() < 1e-9);
    s.apply(AppCommand::CursorLeft, &mut p);
    assert_eq!(s.cursor_of(a), None);
    // Show the whole trace again: a from its first frame to b's end, 1100 ms and 1 %
    // on each side.
    s.apply(timeline(a, TimelineCommand::ResetView), &mut p);
    assert!((s.view_of(a).span_ms - 1122.0).abs() < 1e-9, "{:?}", s.view_of(a));
}

#[test]
fn showing_another_trace_clears_the_selection_and_frame() {
    let (mut s, mut p) = session();
    let loaded =
        Loaded { load: None, name: "two.csv".into(), path: None, capture: two_traces(), from_watch: false };
    s.apply(AppCommand::Opened(Box::new(loaded)), &mut p);
    let run = s.runs()[0].id;
    let first = s.runs()[0].trace();
    let other = 1 - first;
    let before = s.runs()[0].shown_trace().meta.application.clone();
    s.apply(AppCommand::Timeline { run, command: TimelineCommand::Select(Some((0.0, 30.0))) }, &mut p);
    s.apply(AppCommand::Timeline { run, command: TimelineCommand::SelectFrame(Some(2)) }, &mut p);
    let generation = s.runs()[0].generation();
    s.apply(AppCommand::ShowTrace { run, trace: other }, &mut p);
    let r = &s.runs()[0];
    assert_eq!(r.trace(), other);
    assert!(r.generation() > generation, "what is drawn changed");
    assert!(!s.has_selection() && s.selected_frame().is_none());
    let shown = r.shown_trace();
    assert_ne!(shown.meta.application, before);
    assert_eq!(shown.len(), if shown.meta.application == "other.exe" { 3 } else { 6 });
    s.apply(AppCommand::ShowTrace { run, trace: 9 }, &mut p);
    assert_eq!(s.runs()[0].trace(), other, "no such trace: nothing changes");
}

/// Runs a_run1, a_run2, b_run1, b_run2 open in sets a and b (their file names'
/// prefix): compared, they are compared as sets; one set per run compares them one by
/// one; a run moved to set b leaves a with one run.
#[test]
fn sets_by_file_name_and_moved_runs() {
    let (mut s, mut p) = session();
    let names = ["a_run1.csv", "a_run2.csv", "b_run1.csv", "b_run2.csv"];
    let ids: Vec<RunId> = names.iter().map(|n| open(&mut s, &mut p, n, None)).collect();
    assert_eq!(s.runs().iter().map(|r| r.set.as_str()).collect::<Vec<_>>(), ["a", "a", "b", "b"]);
    s.apply(AppCommand::Compare { on: true, baseline: None }, &mut p);
    assert!(s.sets_mode());
    assert_eq!(s.colour_index(3, ids[3]), 1, "a run of the second set takes its set's colour");
    assert_eq!(
        s.compared_groups(),
        [("a".to_owned(), ids[..2].to_vec()), ("b".to_owned(), ids[2..].to_vec())]
    );
    s.apply(AppCommand::OneSetPerRun, &mut p);
    assert!(!s.sets_mode());
    s.apply(AppCommand::GroupByFileName, &mut p);
    s.apply(AppCommand::MoveToSet(ids[1], " b ".into()), &mut p);
    assert_eq!(s.runs()[1].set, "b");
    assert!(!s.sets_mode(), "the baseline's set has one run");
    s.apply(AppCommand::PinSet(Some("b".into())), &mut p);
    assert_eq!(s.pinned_set(), Some("b"));
    // Every figure in: the sets' comparison is cached once.
    s.apply(AppCommand::MoveToSet(ids[1], "a".into()), &mut p);
    s.sync_work(&p);
    assert!(s.sets_cache().and_then(|c| c.comparison(1)).is_some());
}

/// With set a pinned, a capture arriving in the watched folder is compared against it:
/// set a and the new run's set are compared, the runs of other sets leave the
/// comparison; without a pin the new run is compared with the run before it (issue 40).
#[test]
fn a_capture_from_the_watched_folder_is_compared_with_the_pinned_set() {
    let (mut s, mut p) = session();
    let ids: Vec<RunId> =
        ["a_run1.csv", "a_run2.csv", "c_run1.csv"].iter().map(|n| open(&mut s, &mut p, n, None)).collect();
    let arrive = |s: &mut Session, p: &mut Persisted, name: &str| {
        let loaded = Loaded {
            load: None,
            name: name.into(),
            path: None,
            capture: capture(&[12.0; 50]),
            from_watch: true,
        };
        s.apply(AppCommand::Opened(Box::new(loaded)), p);
        s.runs().last().unwrap().id
    };
    let b1 = arrive(&mut s, &mut p, "b_run1.csv");
    assert!(s.comparing(), "nothing pinned: against the capture before it");
    assert_eq!(s.shown(), [ids[2], b1]);
    s.apply(AppCommand::PinSet(Some("a".into())), &mut p);
    let b2 = arrive(&mut s, &mut p, "b_run2.csv");
    assert!(s.comparing());
    assert_eq!(s.shown(), [ids[0], ids[1], b1, b2], "set a (the baseline's) and set b; c left out");
}

/// Issue 40: with no pinned set, each capture arriving in the watched folder is
/// compared with the one before it (the earlier as baseline, the older ones left out),
/// and a note says so once.
#[test]
fn a_watched_capture_is_compared_with_the_one_before_it_without_a_pinned_set() {
    let (mut s, mut p) = session();
    let watched = |s: &mut Session, p: &mut Persisted, name: &str| {
        let loaded = Loaded {
            load: None,
            name: name.into(),
            path: None,
            capture: capture(&[10.0; 100]),
            from_watch: true,
        };
        s.apply(AppCommand::Opened(Box::new(loaded)), p);
        s.runs().last().unwrap().id
    };
    let a = watched(&mut s, &mut p, "/w/a.csv");
    assert!(!s.comparing(), "one capture: nothing to compare");
    assert_eq!(s.take_note(), None);
    let b = watched(&mut s, &mut p, "/w/b.csv");
    assert!(s.comparing());
    assert_eq!((s.baseline(), s.shown()), (Some(a), vec![a, b]));
    let note = s.take_note().unwrap();
    assert!(note.starts_with("b.csv is compared with the capture before it, a.csv"), "{note}");
    assert_eq!(s.take_note(), None, "said once");
    let c = watched(&mut s, &mut p, "/w/c.csv");
    assert_eq!((s.baseline(), s.shown()), (Some(b), vec![b, c]));
}
