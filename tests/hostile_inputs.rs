//! Hostile input found by mutation fuzzing (issue 18): captures whose every frame time
//! is 0, control characters in a file's text, named pipes, UTF-16 and gzip captures,
//! JSON after much whitespace, unreadable folders, CapFrameX arrays of different
//! lengths, and the note beside a short capture's lows. Each test here failed on the
//! binary before the fix.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::{PM1_HEADER, TempDir, framescope};

/// PresentMon 1.x, 2.4 and OCAT captures whose frame times and display intervals are
/// all 0 hold no frame of either series: not a run (`metrics.md` §1), so exit 1 with a
/// message naming the file, as MangoHud, FRAPS and CapFrameX files in that state do.
/// (Before: "frames 0 … no figures" and exit 0.)
#[test]
fn captures_whose_frame_times_are_all_zero_fail() {
    let dir = TempDir::new("all_zero");
    let pm1_row = "game.exe,1,0x1,DXGI,0,0,0,Hardware: Legacy Flip,0,0.5,0.000,0.000,0.1,0.1,0.1";
    let pm24_header = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,\
MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed";
    let pm24_row =
        "game.exe,1,0x1,DXGI,1,0,0,Hardware: Legacy Flip,Application,2076674276,NA,0.0000,0.0000,0.1,0.1,1.0";
    let ocat_header = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,\
MsUntilRenderComplete,MsUntilDisplayed,Motherboard,OS,Processor";
    let ocat_row = "game.exe,1,0x1,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.012,0,0,0.192,1.0,1.0,mb,os,cpu";
    for (name, header, row) in [
        ("pm1.csv", PM1_HEADER, pm1_row),
        ("pm24.csv", pm24_header, pm24_row),
        ("ocat.csv", ocat_header, ocat_row),
    ] {
        let path = dir.file(name, format!("{header}\n{row}\n{row}\n{row}\n").as_bytes());
        for format in ["table", "json"] {
            let run = framescope(["report".as_ref(), "--format".as_ref(), format.as_ref(), path.as_os_str()]);
            assert_eq!(run.code, 1, "{name} ({format}): {}{}", run.stdout, run.stderr);
            assert!(
                run.stderr
                    .contains(&format!("{name}:2: no frames: none of its 3 rows has a usable frame time")),
                "{name}: {}",
                run.stderr
            );
        }
    }
}
