//! Choosing timeline rows through the window (egui_kittest, the real [`App`]): a
//! capture with six telemetry columns shows its first four; View › Rows shows a fifth;
//! a right-click on a row moves it up or hides it; the choice is saved for the
//! capture's format; the capture's PC latency column is a "PC latency" row.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, default_trace, window};
use eframe::egui::{Pos2, accesskit::Role};
use egui_kittest::kittest::Queryable as _;
use std::fmt::Write as _;
use std::path::PathBuf;

const TELEMETRY: [&str; 6] =
    ["GPUPower", "GPUFrequency", "GPUTemperature", "GPUUtilization", "CPUUtilization", "FanSpeed"];

/// 200 frames of a PresentMon 2.4 GUI capture with a PC latency column and six varying
/// telemetry columns.
fn capture() -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents,MsPCLatency",
    );
    for name in TELEMETRY {
        let _ = write!(csv, ",{name}");
    }
    csv.push('\n');
    let mut t = 0.0;
    for i in 0..200 {
        let ft = 10.0 + f64::from(i % 5);
        let _ = write!(
            csv,
            "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft},{}",
            30 + i % 7
        );
        for k in 0..6 {
            let _ = write!(csv, ",{}", 50 + (i + k * 3) % 11);
        }
        csv.push('\n');
        t += ft / 1000.0;
    }
    let path = std::env::temp_dir().join(format!("framescope-rows-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// The rows' titles top to bottom among `names`, as a user finds them: hovering down
/// the timeline's label column.
fn rows_shown(h: &mut Window, names: &[&str]) -> Vec<String> {
    let rect = h.get_by_label("Timeline").rect();
    let mut out: Vec<String> = Vec::new();
    let mut y = 24.0;
    while y < rect.height() {
        h.hover_at(Pos2::new(rect.left() + 20.0, rect.top() + y));
        h.run_steps(3);
        let labels: Vec<String> = h.query_all_by_role(Role::Label).filter_map(|n| n.value()).collect();
        for l in labels {
            // A row's hover starts with its title: the name and its unit.
            if let Some(n) = names.iter().find(|n| l.starts_with(&format!("{n} (")))
                && out.last().is_none_or(|last| last != n)
            {
                out.push((*n).to_owned());
            }
        }
        y += 10.0;
    }
    h.hover_at(Pos2::new(1.0, 1.0));
    h.run_steps(2);
    out
}

/// The y of row `name` on the window.
fn row_y(h: &mut Window, name: &str) -> f32 {
    let rect = h.get_by_label("Timeline").rect();
    let mut y = 24.0;
    while y < rect.height() {
        h.hover_at(Pos2::new(rect.left() + 20.0, rect.top() + y));
        h.run_steps(3);
        if h.query_all_by_role(Role::Label)
            .filter_map(|n| n.value())
            .any(|l| l.starts_with(&format!("{name} (")))
        {
            return rect.top() + y;
        }
        y += 10.0;
    }
    panic!("no row {name}");
}

/// A right-click on row `name`'s label, then a click on `item` in its menu.
fn row_menu(h: &mut Window, name: &str, item: &str) {
    let y = row_y(h, name);
    let left = h.get_by_label("Timeline").rect().left();
    let at = Pos2::new(left + 20.0, y);
    h.hover_at(at);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(eframe::egui::Event::PointerButton {
            pos: at,
            button: eframe::egui::PointerButton::Secondary,
            pressed,
            modifiers: eframe::egui::Modifiers::NONE,
        });
    }
    h.run_steps(3);
    h.get_by_label(item).click();
    h.run_steps(3);
}

fn choice(h: &Window) -> Option<(String, Vec<String>)> {
    app(h).persisted().row_choices.first().map(|c| (c.format.clone(), c.shown.clone()))
}

#[test]
fn rows_are_picked_moved_and_hidden_and_remembered_per_format() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    let format = {
        let bytes = std::fs::read(&path).unwrap();
        let c = framescope_core::ingest::load_bytes(
            &path,
            &bytes,
            framescope_core::ingest::LoadOptions::default(),
        )
        .unwrap();
        c.info.format.name().to_owned()
    };
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    assert!(trace.column_named("FanSpeed").is_some());
    let mut names: Vec<&str> = TELEMETRY.to_vec();
    names.push("PC latency");

    // Without a choice: the PC latency row, then the first four telemetry columns.
    let first = rows_shown(&mut h, &names);
    assert_eq!(first, ["PC latency", "GPUPower", "GPUFrequency", "GPUTemperature", "GPUUtilization"]);
    assert_eq!(choice(&h), None);

    // View › Rows lists every column; ticking FanSpeed adds it at the bottom.
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Rows").hover();
    h.run_steps(3);
    h.get_by_label("FanSpeed (RPM)").click();
    h.run_steps(3);
    let expected = ["GPUPower", "GPUFrequency", "GPUTemperature", "GPUUtilization", "FanSpeed"];
    assert_eq!(choice(&h), Some((format.clone(), expected.map(str::to_owned).to_vec())));
    h.key_press(eframe::egui::Key::Escape);
    h.run_steps(3);

    // A right-click on GPUTemperature: move it up; on GPUPower: hide it.
    row_menu(&mut h, "GPUTemperature", "Move up");
    row_menu(&mut h, "GPUPower", "Hide this row");
    let expected = ["GPUTemperature", "GPUFrequency", "GPUUtilization", "FanSpeed"];
    assert_eq!(choice(&h), Some((format, expected.map(str::to_owned).to_vec())));
    let rows = rows_shown(&mut h, &names);
    assert_eq!(rows, ["PC latency", "GPUTemperature", "GPUFrequency", "GPUUtilization", "FanSpeed"]);
}
