//! The files a command reads, as the core's pipeline expands and loads them
//! ([`framescope_core::pipeline::inputs`]), and the progress line shown while they load.

pub use framescope_core::pipeline::{CAPTURE_EXTENSIONS, Input, STDIN_NAME, expand, for_each_ordered};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

/// When to show a progress line on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressArg {
    /// When stderr is a terminal and more than one file is read.
    Auto,
    /// Always (one line per finished file when stderr is not a terminal).
    Always,
    /// Never.
    Never,
}

/// A progress line on stderr: rewritten in place on a terminal, one line per file
/// otherwise.
pub struct ProgressLine {
    total: usize,
    shown: bool,
    terminal: bool,
}

impl ProgressLine {
    /// A progress line for `total` files, shown as `arg` says.
    #[must_use]
    pub fn new(arg: ProgressArg, total: usize) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let shown = match arg {
            ProgressArg::Auto => terminal && total > 1,
            ProgressArg::Always => true,
            ProgressArg::Never => false,
        };
        Self { total, shown, terminal }
    }

    /// Shows that `finished` files are done, `failed` of them failed.
    pub fn update(&self, finished: usize, failed: usize) {
        if !self.shown {
            return;
        }
        let failed = if failed > 0 { format!(", {failed} failed") } else { String::new() };
        if self.terminal {
            eprint!("\r\x1b[2Kframescope: {finished} of {} files{failed}", self.total);
        } else {
            eprintln!("framescope: {finished} of {} files{failed}", self.total);
        }
    }

    /// Clears the line on a terminal, so a message printed next starts on a clean line
    /// (the next [`ProgressLine::update`] draws it again).
    pub fn clear(&self) {
        if self.shown && self.terminal {
            eprint!("\r\x1b[2K");
        }
    }

    /// Clears the line (on a terminal) once everything is done.
    pub fn finish(&self) {
        self.clear();
    }
}

/// Refuses, with exit 2 and the message on stderr, any output (`(option, path)`) that
/// is one of the inputs — a capture given or found in a folder given, or a marker log
/// (`logs`) — or that another output names too; checked before anything is read or
/// opened for writing.
pub fn check_outputs(
    inputs: &[Input],
    logs: &[Option<&Path>],
    outputs: &[(&str, Option<&Path>)],
) -> Result<(), ExitCode> {
    let files = inputs.iter().filter_map(|i| match i {
        Input::File(p) => Some(p.clone()),
        Input::Stdin | Input::EmptyFolder(_) | Input::UnreadableFolder(..) => None,
    });
    let guard =
        framescope_core::output::Inputs::new(files.chain(logs.iter().flatten().map(|p| p.to_path_buf())));
    let given: Vec<(&str, &Path)> = outputs.iter().filter_map(|(flag, p)| p.map(|p| (*flag, p))).collect();
    guard.check_all(&given).map_err(|e| {
        say!("error: {e}");
        ExitCode::from(2)
    })
}
