//! The `framescope` executable: the command line ([`framescope::cli`]) runs the
//! commands; the window ([`framescope::app`], feature `gui`) is opened here, so the CLI
//! never imports the UI.
//!
//! On Windows the windowed build is a GUI program (`windows_subsystem = "windows"`), so
//! opening it from Explorer or through a capture shows no console window; started from
//! a terminal, it attaches to that terminal's console ([`console::attach_parent`]), so
//! `framescope report ...` still prints there.

#![cfg_attr(all(windows, feature = "gui"), windows_subsystem = "windows")]

use framescope::cli::{self, Outcome};

fn main() -> std::process::ExitCode {
    #[cfg(all(windows, feature = "gui"))]
    console::attach_parent();
    match cli::run() {
        Outcome::Exit(code) => code,
        Outcome::Window(w) => open_window(&w),
    }
}

#[cfg(feature = "gui")]
fn open_window(w: &framescope::launch::WindowOptions) -> std::process::ExitCode {
    framescope::app::run(w)
}

/// A build without the window (`--no-default-features`): say so, and how to get the
/// figures.
#[cfg(not(feature = "gui"))]
fn open_window(w: &framescope::launch::WindowOptions) -> std::process::ExitCode {
    eprintln!(
        "{}",
        framescope::launch::no_window_message(
            "this framescope was built without the window (feature `gui`)",
            &w.files
        )
    );
    std::process::ExitCode::from(1)
}

/// The Windows console of the terminal that started a GUI-subsystem build.
#[cfg(all(windows, feature = "gui"))]
#[allow(unsafe_code)]
mod console {
    use std::ffi::c_void;

    /// `AttachConsole`'s "the parent process's console".
    const ATTACH_PARENT_PROCESS: u32 = u32::MAX;
    /// `STD_INPUT_HANDLE`, `STD_OUTPUT_HANDLE`, `STD_ERROR_HANDLE` ((DWORD)-10, -11, -12).
    const STANDARD_STREAMS: [u32; 3] = [0xFFFF_FFF6, 0xFFFF_FFF5, 0xFFFF_FFF4];

    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn AttachConsole(process_id: u32) -> i32;
        fn GetStdHandle(std_handle: u32) -> *mut c_void;
        fn SetStdHandle(std_handle: u32, handle: *mut c_void) -> i32;
    }

    /// Attaches to the parent's console when there is one (started from a terminal),
    /// so that output without a redirection goes to it; a stream the parent redirected
    /// (`> out.json`, a pipe) stays where it was sent. Started from Explorer there is no
    /// parent console and nothing changes.
    pub fn attach_parent() {
        // SAFETY: plain Win32 calls with constant arguments: GetStdHandle only reads the
        // process's standard handles, SetStdHandle puts back a handle this process
        // already held, AttachConsole takes a process id and no pointer.
        unsafe {
            let before = STANDARD_STREAMS.map(|s| GetStdHandle(s));
            if AttachConsole(ATTACH_PARENT_PROCESS) == 0 {
                return;
            }
            for (stream, handle) in STANDARD_STREAMS.into_iter().zip(before) {
                // Null or INVALID_HANDLE_VALUE: nothing was inherited, keep the console's.
                if !handle.is_null() && handle as isize != -1 {
                    SetStdHandle(stream, handle);
                }
            }
        }
    }
}
