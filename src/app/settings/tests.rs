use super::*;

/// A fresh folder under the system temp dir, removed by the caller.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("framescope-settings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// An absolute path on this platform: `/PATH`, or `C:/PATH` on Windows.
fn abs(path: &str) -> PathBuf {
    PathBuf::from(format!("{}{path}", root()))
}

/// The root of [`abs`]'s paths, which the JSON texts below write as `ROOT/`.
fn root() -> &'static str {
    if cfg!(windows) { "C:/" } else { "/" }
}

#[test]
fn round_trip_in_a_new_folder() {
    let dir = temp_dir("round-trip");
    let path = dir.join("nested").join("settings.json");
    let mut p = Persisted {
        target_fps: 144.0,
        stutter_threshold: 0.35,
        stutter_floor_ms: 2.5,
        frame_time: FrameTimeSource::Display,
        recent: Vec::new(),
        noise_band: 0.025,
        export_dir: abs("exports"),
        trim_start_s: 3.0,
        trim_end_s: 0.5,
        run_trims: Vec::new(),
        watch_dir: abs("captures/incoming"),
        record_dir: abs("captures/recorded"),
        mangohud_program: abs("usr/bin/mangohud"),
        presentmon_program: abs("tools/PresentMon-2.3.0-x64.exe"),
        outlier_limit: 0.1,
        column_mappings: Vec::new(),
        row_choices: vec![crate::app::row_choice::RowChoice {
            format: "frameview".into(),
            shown: vec!["CPUUtil(%)".into(), "GPU0Clk(MHz)".into()],
            heights: Vec::new(),
        }],
        compare_view: crate::app::compare_view::CompareView::Bars,
    };
    assert!(p.set_run_trim(&abs("captures/a.csv"), Some((2.0, 1.0))));
    assert!(!p.set_run_trim(&abs("captures/a.csv"), Some((2.0, 1.0))));
    let header = vec!["tick".to_owned(), "dt (µs)".to_owned()];
    let mapping = framescope_core::ingest::ColumnMapping {
        role: framescope_core::ingest::MappedRole::FrameTime,
        column: "dt (µs)".into(),
        unit: framescope_core::ingest::TimeUnit::Micros,
        extra: Vec::new(),
    };
    p.remember_mapping(&header, mapping.clone());
    p.remember(&abs("captures/b.csv"));
    p.remember(&abs("captures/a.csv"));
    p.save_to(&path).unwrap();
    assert_eq!(Persisted::load_from(&path), p);
    assert_eq!(Persisted::load_from(&path).mapping_for(&header), Some(&mapping), "remembered per header");
    // Saving again replaces the file and leaves no temporary file behind.
    p.target_fps = 90.0;
    p.save_to(&path).unwrap();
    assert_eq!(Persisted::load_from(&path), p);
    assert_eq!(std::fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_or_corrupt_files_give_defaults() {
    let dir = temp_dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(Persisted::load_from(&dir.join("absent.json")), Persisted::default());
    for text in ["{ not json", "", "[1, 2]", "null", r#"{"target_fps": 1e999}"#, "\u{0}\u{1}"] {
        let path = dir.join("settings.json");
        std::fs::write(&path, text).unwrap();
        assert_eq!(Persisted::load_from(&path), Persisted::default(), "{text:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_fields_fall_back_one_by_one() {
    let dir = temp_dir("fields");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    let text = r#"{"target_fps": -5, "stutter_threshold": "NaN", "stutter_floor_ms": 2.5,
                   "frame_time": "display", "refresh_hz": 5000,
                   "recent": ["ROOT/c/x.csv", 3, "", "ROOT/c/x.csv", "ROOT/c/y.csv", "relative.csv"],
                   "noise_band": 7, "unknown": 1}"#;
    let text = text.replace("ROOT/", root());
    std::fs::write(&path, text).unwrap();
    let p = Persisted::load_from(&path);
    let d = Persisted::default();
    assert!((p.target_fps - d.target_fps).abs() < f64::EPSILON);
    assert!((p.stutter_threshold - d.stutter_threshold).abs() < f64::EPSILON);
    assert!((p.stutter_floor_ms - 2.5).abs() < f64::EPSILON);
    assert_eq!(p.frame_time, FrameTimeSource::Display);
    // Relative paths (older versions wrote them) are dropped.
    assert_eq!(p.recent, [abs("c/x.csv"), abs("c/y.csv")]);
    assert!((p.noise_band - d.noise_band).abs() < f64::EPSILON);
    std::fs::write(
        &path,
        r#"{"target_fps": 0.5, "stutter_floor_ms": -1, "refresh_hz": null, "frame_time": "sideways"}"#,
    )
    .unwrap();
    assert_eq!(Persisted::load_from(&path), d);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trims_and_the_watched_folder_fall_back_one_by_one() {
    let dir = temp_dir("trims");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    let text = r#"{"trim_start_s": 3, "trim_end_s": -1, "watch_dir": "relative", "outlier_limit": 2,
                   "run_trims": [{"path": "ROOT/c/a.csv", "start_s": 2, "end_s": 0.5},
                                 {"path": "ROOT/c/b.csv", "start_s": "x", "end_s": 0},
                                 {"path": "rel.csv", "start_s": 1, "end_s": 1}, 7]}"#;
    let text = text.replace("ROOT/", root());
    std::fs::write(&path, text).unwrap();
    let p = Persisted::load_from(&path);
    assert!((p.trim_start_s - 3.0).abs() < f64::EPSILON);
    assert!(p.trim_end_s.abs() < f64::EPSILON);
    assert_eq!(p.watch_dir, PathBuf::new());
    assert!((p.outlier_limit - 0.05).abs() < f64::EPSILON);
    assert_eq!(p.run_trim(&abs("c/a.csv")), Some((2.0, 0.5)));
    assert_eq!(p.run_trims.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn remember_dedupes_and_caps() {
    let mut p = Persisted::default();
    for i in 0..15 {
        p.remember(Path::new(&format!("/c/{i}.csv")));
    }
    p.remember(Path::new("/c/12.csv"));
    assert_eq!(p.recent.len(), 10);
    assert_eq!(p.recent[0], Path::new("/c/12.csv"));
    assert_eq!(p.recent[1], Path::new("/c/14.csv"));
    assert_eq!(p.recent.iter().filter(|r| r.ends_with("12.csv")).count(), 1);
    assert_eq!(p.recent[9], Path::new("/c/5.csv"));
}

#[test]
fn settings_map_the_frame_time_source() {
    let mut p = Persisted::default();
    assert_eq!(p.settings(), Settings::default());
    assert_eq!(p.settings().frame_time, FrameTimeSource::Auto);
    p.frame_time = FrameTimeSource::Display;
    let s = p.settings();
    assert_eq!(s.frame_time, FrameTimeSource::Display);
    assert_eq!(s.refresh_hz, None);
}

#[test]
fn a_refresh_rate_saved_by_an_older_version_is_not_applied() {
    // It was once saved globally and applied to every later capture as if detected;
    // it is a per-capture choice now, and an old file's value is ignored.
    let dir = temp_dir("old-refresh");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    std::fs::write(&path, r#"{"target_fps": 90, "refresh_hz": 144}"#).unwrap();
    let p = Persisted::load_from(&path);
    assert!((p.target_fps - 90.0).abs() < f64::EPSILON);
    assert_eq!(p.settings().refresh_hz, None);
    p.save_to(&path).unwrap();
    assert!(!std::fs::read_to_string(&path).unwrap().contains("refresh_hz"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_config_path_is_in_the_platform_s_config_folder() {
    // The environment is the test runner's: checked against the variable that names
    // the folder on this platform, when the runner sets it.
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if var("FRAMESCOPE_CONFIG_DIR").is_some() {
        return;
    }
    let expected = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "linux") {
        var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()).or_else(|| var("HOME").map(|h| h.join(".config")))
    } else {
        Persisted::path().and_then(|p| p.parent()?.parent().map(Path::to_path_buf))
    };
    if let Some(base) = expected {
        assert_eq!(Persisted::path(), Some(base.join("framescope").join("settings.json")));
    }
}
