//! Between the command line and the window: what the command line asks the window to
//! do ([`WindowOptions`]) and what to say when no window can open. Neither side imports
//! the other: the CLI builds without the window (`--no-default-features`), and the
//! window never calls into the CLI.

use std::path::PathBuf;

/// Why no window opens in a build without the `gui` feature.
pub const HEADLESS: &str = "this framescope was built without the window (cargo feature `gui`)";

/// The window's arguments, as the command line read them (one struct for the CLI and
/// the window).
#[derive(Debug, Clone, Default)]
pub struct WindowOptions {
    /// Captures to open.
    pub files: Vec<PathBuf>,
    /// `--screenshot PNG`.
    pub screenshot: Option<PathBuf>,
    /// `--pcl MARKERS`.
    pub markers: Option<PathBuf>,
    /// `--compare`.
    pub compare: bool,
    /// `--convention TOOL`: a peer tool's figures in the window.
    pub convention: Option<framescope_core::report::compare::Section>,
    /// `--trim-start` / `--trim-end` for every run (seconds).
    pub trim: Option<(f64, f64)>,
    /// `--follow FILE`: captures still being written, followed as they grow.
    pub follow: Vec<PathBuf>,
    /// `--watch DIR`: a folder whose new captures open (and are followed).
    pub watch: Option<PathBuf>,
}

/// Why no window can open, when that is known before trying: on Linux and the BSDs,
/// no display server is named in the environment.
#[must_use]
pub fn no_display() -> Option<String> {
    if !cfg!(all(unix, not(target_os = "macos"), not(target_os = "ios"), not(target_os = "android"))) {
        return None;
    }
    let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
    (!set("DISPLAY") && !set("WAYLAND_DISPLAY") && !set("WAYLAND_SOCKET"))
        .then(|| "no display is available (neither DISPLAY nor WAYLAND_DISPLAY is set)".to_owned())
}

/// What to print when the window cannot open: the reason without the windowing
/// library's source locations, and the command that gives the figures without a window.
#[must_use]
pub fn no_window_message(reason: &str, files: &[PathBuf]) -> String {
    let reason = strip_source_locations(reason);
    let files = if files.is_empty() {
        "FILE...".to_owned()
    } else {
        files.iter().map(|f| shell_word(&f.display().to_string())).collect::<Vec<_>>().join(" ")
    };
    format!(
        "error: no window can open: {reason}\n\
         For the figures without a window, run:  framescope report {files}\n\
         (framescope report --help lists the options; --json and --format csv suit scripts)"
    )
}

/// Removes ` at /path/file.rs:123:` locations that windowing errors carry.
fn strip_source_locations(message: &str) -> String {
    let mut out = message.to_owned();
    while let Some(at) = out.find(" at ") {
        let rest = &out[at + 4..];
        let Some(rs) = rest.find(".rs:") else { break };
        let digits = rest[rs + 4..].chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || rest[..rs].contains(' ') {
            break;
        }
        let mut end = at + 4 + rs + 4 + digits;
        let colon = out[end..].starts_with(':');
        if colon {
            end += 1;
        }
        out.replace_range(at..end, if colon { ":" } else { "" });
    }
    out.trim().to_owned()
}

/// A file name as a shell word (quoted when it holds spaces or quotes).
fn shell_word(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:\\+=,@".contains(c)) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_errors_lose_their_source_locations() {
        let winit = "winit EventLoopError: os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
                     winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET \
                     nor DISPLAY is set.";
        let msg = no_window_message(winit, &[PathBuf::from("my run.csv")]);
        assert!(!msg.contains(".rs:") && !msg.contains("/root"), "{msg}");
        assert!(msg.contains("neither WAYLAND_DISPLAY"), "{msg}");
        assert!(msg.contains("framescope report 'my run.csv'"), "{msg}");
    }
}
