//! `--junit FILE`, `--github` and `--markdown FILE`: a verdict (`compare`'s gate,
//! `history check`) as CI systems read it (`cli-report.md`, "History and CI outputs").

use clap::Args;
use framescope_core::output::{Inputs, write_file};
use framescope_core::report::CiReport;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The CI outputs a verdict may be written to.
#[derive(Debug, Args, Default)]
pub(super) struct CiArgs {
    /// Write the verdict as JUnit XML (a testsuite per scene, a testcase per gated
    /// figure, a failure per regression), as Jenkins and GitLab read it.
    #[arg(long, value_name = "FILE")]
    pub(super) junit: Option<PathBuf>,
    /// Print GitHub workflow commands (`::error` per regression, `::warning` per note)
    /// on stdout, and append the Markdown summary to the file $GITHUB_STEP_SUMMARY
    /// names, when it is set.
    #[arg(long)]
    pub(super) github: bool,
    /// Write the verdict as a Markdown summary (for any CI, or a pull-request comment).
    #[arg(long, value_name = "FILE")]
    pub(super) markdown: Option<PathBuf>,
}

impl CiArgs {
    /// Whether any CI output is asked for.
    pub(super) fn any(&self) -> bool {
        self.junit.is_some() || self.github || self.markdown.is_some()
    }

    /// The output files with their flags, for the checks against inputs.
    pub(super) fn outputs(&self) -> Vec<(&'static str, Option<&Path>)> {
        vec![("--junit", self.junit.as_deref()), ("--markdown", self.markdown.as_deref())]
    }

    /// Writes every output asked for; false (with the message on stderr) when one
    /// could not be written.
    pub(super) fn emit(&self, report: &CiReport) -> bool {
        let mut ok = true;
        let mut write = |flag: &str, path: &Path, text: &str| {
            if let Err(e) = write_file(path, |out| out.write_all(text.as_bytes())) {
                say!("error: {flag}: cannot write {}: {e}", path.display());
                ok = false;
            }
        };
        if let Some(path) = &self.junit {
            write("--junit", path, &report.junit());
        }
        if let Some(path) = &self.markdown {
            write("--markdown", path, &report.markdown());
        }
        if self.github {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(report.github().as_bytes()).and_then(|()| stdout.flush());
            if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty()) {
                let appended = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&summary)
                    .and_then(|mut f| f.write_all(report.markdown().as_bytes()));
                if let Err(e) = appended {
                    say!(
                        "error: cannot append to $GITHUB_STEP_SUMMARY ({}): {e}",
                        Path::new(&summary).display()
                    );
                    ok = false;
                }
            }
        }
        ok
    }
}

/// Refuses output files that are inputs (or each other): the message and exit 2.
pub(super) fn check_outputs(inputs: &Inputs, outputs: &[(&str, Option<&Path>)]) -> Result<(), String> {
    let given: Vec<(&str, &Path)> = outputs.iter().filter_map(|(flag, p)| p.map(|p| (*flag, p))).collect();
    inputs.check_all(&given).map_err(|e| e.to_string())
}
