//! `--trace SELECTOR`: which trace(s) of a file to report.

use crate::ingest::values::normalize_swap_chain;
use crate::model::Capture;

/// A parsed `--trace` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceSelector {
    /// The file's default trace (`metrics.md` §1).
    Default,
    /// Every trace, in file order.
    All,
    /// A process; with several swap chains, the one with most frames.
    Pid(u32),
    /// An executable name, case-insensitive, with or without `.exe` (`firefox` matches
    /// `firefox.exe`); with several traces, the one with most frames.
    App(String),
    /// One process and swap chain.
    PidSwapChain(u32, String),
}

/// Why a `--trace` value is no selector.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceSelectorError {
    /// An empty (or blank) value.
    #[error("empty trace selector")]
    Empty,
    /// `PID:` with no swap chain after the colon.
    #[error("'{selector}': swap chain missing after ':'")]
    NoSwapChain {
        /// The value given (trimmed).
        selector: String,
    },
}

impl std::str::FromStr for TraceSelector {
    type Err = TraceSelectorError;

    fn from_str(s: &str) -> Result<Self, TraceSelectorError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(TraceSelectorError::Empty);
        }
        if s.eq_ignore_ascii_case("default") {
            return Ok(Self::Default);
        }
        if s.eq_ignore_ascii_case("all") {
            return Ok(Self::All);
        }
        if let Ok(pid) = s.parse::<u32>() {
            return Ok(Self::Pid(pid));
        }
        if let Some((pid, sc)) = s.split_once(':')
            && let Ok(pid) = pid.parse::<u32>()
        {
            if sc.is_empty() {
                return Err(TraceSelectorError::NoSwapChain { selector: s.to_owned() });
            }
            return Ok(Self::PidSwapChain(pid, normalize_swap_chain(sc)));
        }
        Ok(Self::App(s.to_owned()))
    }
}

impl TraceSelector {
    /// The indices of the traces this selector picks in a capture, or a message that
    /// lists what the capture has.
    pub fn select(&self, capture: &Capture) -> Result<Vec<usize>, String> {
        let traces = &capture.traces;
        let most_frames = |matches: &dyn Fn(usize) -> bool| {
            (0..traces.len()).filter(|&i| matches(i)).fold(None, |best: Option<usize>, i| match best {
                Some(b) if traces[b].len() >= traces[i].len() => Some(b),
                _ => Some(i),
            })
        };
        let found = match self {
            Self::Default => capture.default_trace(),
            Self::All => return Ok((0..traces.len()).collect()),
            Self::Pid(pid) => most_frames(&|i| traces[i].meta.process_id == Some(*pid)),
            Self::App(app) => most_frames(&|i| app_matches(&traces[i].meta.application, app)),
            Self::PidSwapChain(pid, sc) => most_frames(&|i| {
                traces[i].meta.process_id == Some(*pid) && traces[i].meta.swap_chain.as_deref() == Some(sc)
            }),
        };
        found.map(|i| vec![i]).ok_or_else(|| {
            let list: Vec<String> =
                traces.iter().map(|t| format!("{} ({} frames)", t.label(), t.len())).collect();
            let asked = match self {
                Self::Pid(pid) => format!("process id {pid}"),
                Self::App(app) => format!("application '{app}'"),
                Self::PidSwapChain(pid, sc) => format!("process id {pid} with swap chain {sc}"),
                Self::Default | Self::All => "the selector".to_owned(),
            };
            format!("no trace matches --trace {asked}; the file has: {}", list.join("; "))
        })
    }
}

/// True when `given` names `application`: equal in any case, or equal once a trailing
/// `.exe` is taken off either; a sampled log's session `session 2 (12:41:07)` is also
/// named by `session 2`.
fn app_matches(application: &str, given: &str) -> bool {
    if application.starts_with("session ")
        && application.split_once(" (").is_some_and(|(head, _)| head.eq_ignore_ascii_case(given.trim()))
    {
        return true;
    }
    let bare = |s: &str| {
        let s = s.trim();
        let n = s.len();
        if n > 4 && s.is_char_boundary(n - 4) && s[n - 4..].eq_ignore_ascii_case(".exe") {
            s[..n - 4].to_owned()
        } else {
            s.to_owned()
        }
    };
    application.eq_ignore_ascii_case(given) || bare(application).eq_ignore_ascii_case(&bare(given))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        let p = |s: &str| s.parse::<TraceSelector>();
        assert_eq!(p("default"), Ok(TraceSelector::Default));
        assert_eq!(p("ALL"), Ok(TraceSelector::All));
        assert_eq!(p("1234"), Ok(TraceSelector::Pid(1234)));
        assert_eq!(p("game.exe"), Ok(TraceSelector::App("game.exe".into())));
        assert_eq!(p("12:0x000001F741139B80"), Ok(TraceSelector::PidSwapChain(12, "0x1F741139B80".into())));
        assert_eq!(p(" 12: "), Err(TraceSelectorError::NoSwapChain { selector: "12:".into() }));
        assert_eq!(p("12:").map_err(|e| e.to_string()), Err("'12:': swap chain missing after ':'".into()));
        assert!(app_matches("firefox.exe", "firefox") && app_matches("Firefox.EXE", "FIREFOX.exe"));
        assert!(app_matches("game", "game.exe") && !app_matches("firefox.exe", "fire"));
        assert!(
            app_matches("session 2 (12:41:07)", "Session 2")
                && app_matches("session 2 (12:41:07)", "session 2 (12:41:07)")
        );
        assert!(!app_matches("session 12 (12:41:07)", "session 1") && !app_matches("game (x)", "game"));
        assert_eq!(p(" "), Err(TraceSelectorError::Empty));
        assert_eq!(p("").map_err(|e| e.to_string()), Err("empty trace selector".into()));
    }
}
