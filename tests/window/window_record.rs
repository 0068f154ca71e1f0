//! File › Record… in the window (issue 36), driven as a user drives it, with a stand-in
//! `mangohud` program (a shell script that streams a MangoHud log into the folder it is
//! given, then exits, as a game that quits would): a 2-run recording is started from
//! the Record window; each capture opens live as it records, the two land in one set
//! named after the application and the time, and the set is compared.
#![cfg(unix)]
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, settle, type_text, window};
use eframe::egui::accesskit::Role;
use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// After a second (MangoHud's `autostart_log=1`), 40 rows of 10 ms in bursts of 10
/// every 0.1 s into `output_folder`, then exit.
const STAND_IN: &str = r#"#!/bin/sh
folder=$(printf '%s' "$MANGOHUD_CONFIG" | tr ',' '\n' | sed -n 's/^output_folder=//p')
sleep 1.1  # autostart_log=1: MangoHud names its logs by the second
name="$folder/fakegame_$(date +%Y-%m-%d_%H-%M-%S)"
printf 'os,cpu,gpu,ram,kernel,driver,cpuscheduler\nLinux,cpu,gpu,1,6.1,,\nfps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,elapsed\n' > "$name.csv"
i=1
while [ "$i" -le 40 ]; do
  echo "100,10,1,1,1,1,1,1,1,1,1,1,1,$((i * 10000000))" >> "$name.csv"
  if [ $((i % 10)) -eq 0 ]; then sleep 0.1; fi
  i=$((i + 1))
done
exit 0
"#;

fn stand_in(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("mangohud");
    std::fs::write(&script, STAND_IN).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Types `value` into the spin button labelled `label`.
fn type_number(h: &mut Window, label: &str, value: &str) {
    h.get_by_role_and_label(Role::SpinButton, label).click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(value);
    h.run_steps(1);
    h.key_press(Key::Enter);
    settle(h);
}

/// The open runs recorded by the stand-in.
fn recorded_runs(h: &Window) -> usize {
    app(h).run_names().iter().filter(|n| n.contains("fakegame_")).count()
}

#[test]
fn a_two_run_recording_opens_live_as_one_set_and_compares() {
    let dir = std::env::temp_dir().join(format!("framescope-window-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tool = stand_in(&dir);
    let caps = dir.join("caps");
    let mut h = window(&[]);
    h.get_all_by_label("Record…").next().expect("the toolbar's Record… button").click();
    h.run_steps(3);
    type_text(&mut h, "Command", "fakegame");
    type_text(&mut h, "Folder", &caps.to_string_lossy());
    type_text(&mut h, "Tool program", &tool.to_string_lossy());
    type_number(&mut h, "Repeat", "2");
    type_number(&mut h, "Duration (s)", "20");
    // An OpenGL game: MangoHud's hook through dlsym.
    h.get_by_role_and_label(Role::CheckBox, "OpenGL").click();
    h.run_steps(2);
    h.get_by_label("Start recording").click();
    h.run_steps(2);
    assert!(app(&h).recording(), "the recording started: {:?}", app(&h).errors());
    // The folder and the tool's program are remembered for the next time.
    assert_eq!(app(&h).persisted().record_dir, caps);
    assert_eq!(app(&h).persisted().mangohud_program, tool);
    // The window keeps drawing while it records (never blocked), and the first capture
    // opens live before the recording ends.
    let until = Instant::now() + Duration::from_secs(40);
    let mut opened_while_recording = false;
    while Instant::now() < until && (app(&h).recording() || recorded_runs(&h) < 2) {
        h.run_steps(1);
        opened_while_recording |= app(&h).recording() && recorded_runs(&h) > 0;
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!app(&h).recording(), "the recording ended: {:?}", app(&h).errors());
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    assert!(opened_while_recording, "a capture opens live while it records");
    settle(&mut h);
    for _ in 0..20 {
        h.run_steps(2);
    }
    // (An empty window opens a bundled sample; the recorded runs come after it.)
    let names = app(&h).run_names();
    let sets: Vec<String> = (app(&h).run_sets().into_iter().zip(&names))
        .filter(|(_, n)| n.contains("fakegame_"))
        .map(|(s, _)| s)
        .collect();
    assert_eq!(sets.len(), 2, "{names:?}");
    assert_eq!(sets[0], sets[1], "one set: {sets:?}");
    assert!(sets[0].starts_with("fakegame "), "named after the application and the time: {sets:?}");
    // Each run is a file MangoHud wrote in the folder, with framescope's sidecar.
    let csvs = std::fs::read_dir(&caps)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "csv"))
        .count();
    assert_eq!(csvs, 2);
    // The sidecars say MangoHud was asked for its dlsym hook (`MANGOHUD_DLSYM=1`).
    let dlsym = std::fs::read_dir(&caps)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".framescope.json"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .filter(|text| text.contains("\"tool_config\": \"MANGOHUD_DLSYM=1 log_interval=0"))
        .count();
    assert_eq!(dlsym, 2, "both sidecars record the dlsym hook");
    // Compare the set's runs.
    // Opened again later, the two captures are one set again (their sidecars say so),
    // though their file names differ in the seconds.
    let mut files: Vec<PathBuf> = std::fs::read_dir(&caps)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    let mut again = window(&files);
    for _ in 0..10 {
        again.run_steps(2);
    }
    assert_eq!(app(&again).run_sets(), [sets[0].clone(), sets[0].clone()]);
    // Close the Record window (it stays open while recording), then compare.
    h.get_by_label("Close window").click();
    h.run_steps(2);
    common::ui::tick_compare(&mut h);
}

/// With PresentMon, the running processes are listed (off the UI thread) and picking
/// one fills the Process field: a `sleep` started here is in the list by name and PID.
#[test]
fn a_running_process_is_picked_from_the_list() {
    let mut child = std::process::Command::new("sleep").arg("31").spawn().unwrap();
    let mut h = window(&[]);
    h.get_all_by_label("Record…").next().expect("the toolbar's Record… button").click();
    h.run_steps(3);
    h.get_by_label("PresentMon").click();
    h.run_steps(2);
    type_text(&mut h, "Process", "slee");
    h.get_by_role_and_label(Role::Button, "Running processes").click();
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until && h.query_by_role_and_label(Role::ComboBox, "Running processes").is_none() {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(50));
    }
    h.get_by_role_and_label(Role::ComboBox, "Running processes").click();
    h.run_steps(2);
    let entry = format!("sleep (PID {})", child.id());
    h.get_by_label(&entry).click();
    h.run_steps(2);
    let process = h.get_by_role_and_label(Role::TextInput, "Process").accesskit_node().value();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(process.as_deref(), Some("sleep"), "the picked process fills the field");
}
