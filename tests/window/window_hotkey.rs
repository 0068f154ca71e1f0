//! The Record window's global hotkey (issue 36): F11 starts a recording with the
//! window's settings and stops it, whichever program has the focus.
//!
//! Under an X server (`$DISPLAY`, with `xdotool`) the key is pressed for real through
//! the server, and the grab must hold; `.ci/run` runs this file once more under
//! `xvfb-run` with `FRAMESCOPE_REQUIRE_X11=1`, which makes the real key mandatory.
//! Without a server the window must say that there is no global hotkey, and a press
//! is made as the key's handler makes it.
#![cfg(unix)]
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, type_text, window};
use egui_kittest::kittest::Queryable as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// After a second, 20 rows of 10 ms, then the game runs on until it is ended.
const STAND_IN: &str = r#"#!/bin/sh
folder=$(printf '%s' "$MANGOHUD_CONFIG" | tr ',' '\n' | sed -n 's/^output_folder=//p')
sleep 1.1
name="$folder/hotkeygame_$(date +%Y-%m-%d_%H-%M-%S)"
printf 'os,cpu,gpu,ram,kernel,driver,cpuscheduler\nLinux,cpu,gpu,1,6.1,,\nfps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,elapsed\n' > "$name.csv"
i=1
while [ "$i" -le 20 ]; do
  echo "100,10,1,1,1,1,1,1,1,1,1,1,1,$((i * 10000000))" >> "$name.csv"
  i=$((i + 1))
done
exec sleep 60
"#;

fn stand_in(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("mangohud");
    std::fs::write(&script, STAND_IN).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// Steps the window until `done` or `limit`.
fn until(h: &mut Window, limit: Duration, done: impl Fn(&Window) -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        h.run_steps(1);
        if done(h) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn f11_starts_and_stops_a_recording() {
    let x11 = std::env::var_os("DISPLAY").is_some() && on_path("xdotool");
    let required = std::env::var("FRAMESCOPE_REQUIRE_X11").is_ok_and(|v| v == "1");
    assert!(x11 || !required, "FRAMESCOPE_REQUIRE_X11=1 but no $DISPLAY or no xdotool");
    let dir = std::env::temp_dir().join(format!("framescope-window-hotkey-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tool = stand_in(&dir);
    let caps = dir.join("caps");
    let mut h = window(&[]);
    assert_eq!(app(&h).record_hotkey(), "off", "not held before the Record window opens");
    h.get_all_by_label("Record…").next().expect("the toolbar's Record… button").click();
    h.run_steps(3);
    type_text(&mut h, "Command", "hotkeygame");
    type_text(&mut h, "Folder", &caps.to_string_lossy());
    type_text(&mut h, "Tool program", &tool.to_string_lossy());
    assert!(until(&mut h, Duration::from_secs(5), |h| app(h).record_hotkey() != "off"));
    let state = app(&h).record_hotkey();
    let press = |h: &Window| {
        if x11 {
            let ok = std::process::Command::new("xdotool")
                .args(["key", "F11"])
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "xdotool key F11");
        } else {
            app(h).press_record_hotkey();
        }
    };
    if x11 {
        assert_eq!(state, "on", "F11 is held under an X server");
    } else {
        assert!(state.starts_with("unavailable: ") && state.contains("use Start and Stop"), "{state}");
        eprintln!("no X server: the global hotkey is pressed as its handler presses it ({state})");
    }
    press(&h);
    assert!(
        until(&mut h, Duration::from_secs(10), |h| app(h).recording()),
        "F11 started a recording: {:?}",
        app(&h).errors()
    );
    // Let the capture record a little, then F11 again ends it, keeping what it has.
    assert!(until(&mut h, Duration::from_secs(20), |h| app(h)
        .run_names()
        .iter()
        .any(|n| n.contains("hotkeygame_"))));
    press(&h);
    assert!(until(&mut h, Duration::from_secs(20), |h| !app(h).recording()), "F11 stopped the recording");
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    let sidecars: Vec<String> = std::fs::read_dir(&caps)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".framescope.json"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(sidecars.len(), 1, "one capture");
    assert!(sidecars[0].contains("\"ended\": \"stopped\""), "{}", sidecars[0]);
    // With the window closed and nothing recording, F11 is let go.
    h.get_by_label("Close window").click();
    assert!(until(&mut h, Duration::from_secs(5), |h| app(h).record_hotkey() == "off"), "F11 let go");
}
