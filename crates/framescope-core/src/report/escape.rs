//! Control characters from a file never reach a terminal raw: a column or application
//! name holding `ESC [2J` would clear the screen, an OSC sequence set the window title,
//! a carriage return or a newline overwrite or fake a line (a gate's verdict). Text for
//! people shows them escaped: C0 controls and DEL as `\x1b`, C1 controls (U+0080 to
//! U+009F) as `\u{9b}`. The JSON keeps every string exactly (serde writes C0 as
//! `\u001b`; [`Terminal`] writes DEL and C1 as `\u007f` / `\u009b` too, which decode to
//! the same string).
//!
//! Each output passes one place: the readable table and compare output go through
//! [`Terminal`] (every control but the table's own line ends and tabs) and write a
//! file's text with [`text`] (line ends too); CSV cells through [`lines`]; the CLI's
//! messages on stderr through [`text`].

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

/// `c` escaped for people to read.
fn push_escaped(out: &mut String, c: char) {
    let code = u32::from(c);
    if code < 0x80 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

fn escape_if(s: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if escaped(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A file's text on one line: every control character escaped but the tab.
#[must_use]
pub fn text(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| c.is_control() && c != '\t')
}

/// Text that may span lines (a CSV cell, a message of several lines): every control
/// character escaped but the newline and the tab.
#[must_use]
pub fn lines(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| c.is_control() && c != '\t' && c != '\n')
}

/// A CSV text cell as a spreadsheet may safely open it (OWASP, "CSV injection"): text
/// starting with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a
/// formula (`=cmd|' /C calc'!A0`), so it gets a leading `'`. Only text cells pass here
/// (names, modes, messages): a number, negative ones included, is written as it is.
#[must_use]
pub fn formula(s: &str) -> Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// A writer for the terminal: in text, every control character but `\n` and `\t` is
/// written escaped; in JSON (`json`), DEL and C1 controls are written as `\u00XX`
/// (serde_json escapes the others itself, and these decode to the same characters).
pub struct Terminal<W: Write> {
    inner: W,
    json: bool,
    /// A 0xC2 byte (the first of a C1 control, or of another character) not yet written.
    lead: bool,
}

impl<W: Write> Terminal<W> {
    /// Wraps `inner`; `json` when the output is JSON.
    pub fn new(inner: W, json: bool) -> Self {
        Self { inner, json, lead: false }
    }

    fn escape(&self, code: u8, out: &mut Vec<u8>) {
        let mut s = String::new();
        if self.json {
            let _ = write!(s, "\\u{code:04x}");
        } else {
            push_escaped(&mut s, char::from(code));
        }
        out.extend_from_slice(s.as_bytes());
    }
}

impl<W: Write> Write for Terminal<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = Vec::with_capacity(buf.len() + 16);
        for &b in buf {
            if std::mem::take(&mut self.lead) {
                if (0x80..0xA0).contains(&b) {
                    self.escape(b, &mut out);
                    continue;
                }
                out.push(0xC2);
            }
            match b {
                0xC2 => self.lead = true,
                b'\n' | b'\t' => out.push(b),
                0..0x20 | 0x7F => self.escape(b, &mut out),
                _ => out.push(b),
            }
        }
        self.inner.write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Terminal<W> {
    fn drop(&mut self) {
        // A lone 0xC2 at the very end: not text, written as it came.
        if self.lead {
            let _ = self.inner.write_all(&[0xC2]);
            let _ = self.inner.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(json: bool, pieces: &[&[u8]]) -> String {
        let mut buf = Vec::new();
        {
            let mut t = Terminal::new(&mut buf, json);
            for p in pieces {
                t.write_all(p).unwrap_or_default();
            }
        }
        String::from_utf8_lossy(&buf).into_owned()
    }

    #[test]
    fn controls_are_escaped_for_people() {
        assert_eq!(text("game\u{1b}[2J\r\nok\t\u{9b}1m\u{7f}"), "game\\x1b[2J\\x0d\\x0aok\t\\u{9b}1m\\x7f");
        assert_eq!(lines("a\nb\u{7}"), "a\nb\\x07");
        assert!(matches!(text("µs ≥ 1"), Cow::Borrowed(_)), "other characters pass");
    }

    /// OWASP's starts: `=`, `+`, `-`, `@`, tab and carriage return get a `'`; others,
    /// and a `'` already there, pass.
    #[test]
    fn formula_cells_get_a_quote() {
        for s in ["=cmd|' /C calc'!A0", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(formula(s), format!("'{s}"), "{s:?}");
        }
        for s in ["game.exe", "", " =1", "'=1", "1-2", "Hardware: Independent Flip"] {
            assert!(matches!(formula(s), Cow::Borrowed(_)), "{s:?}");
        }
    }

    #[test]
    fn the_terminal_writer_escapes_across_writes() {
        // ESC, a C1 CSI split between two writes, and 'é' (0xC3 0xA9) and '' (0xC2 0xA0).
        let pieces: &[&[u8]] = &[b"a\x1b]0;title\x07\n\xC2", b"\x9b2J \xC3\xA9 \xC2\xA0\r\n"];
        assert_eq!(through(false, pieces), "a\\x1b]0;title\\x07\n\\u{9b}2J é \u{a0}\\x0d\n");
        assert_eq!(through(true, pieces), "a\\u001b]0;title\\u0007\n\\u009b2J é \u{a0}\\u000d\n");
        assert_eq!(through(true, &[b"\"x\x7f\"\n"]), "\"x\\u007f\"\n");
    }
}
