//! Control characters from a file never reach a terminal raw: a column or application
//! name holding `ESC [2J` would clear the screen, an OSC sequence set the window title,
//! a carriage return or a newline overwrite or fake a line (a gate's verdict). Text for
//! people shows them escaped: C0 controls and DEL as `\x1b`, C1 controls (U+0080 to
//! U+009F) as `\u{9b}`. The JSON keeps every string exactly (serde writes C0 as
//! `\u001b`; [`Terminal`] writes DEL and C1 as `\u007f` / `\u009b` too, which decode to
//! the same string).
//!
//! Characters that change how text around them reads without showing themselves are
//! escaped the same way ([`invisible`]): the bidirectional controls (U+202E turns
//! `gpj.exe` into what reads as `exe.jpg`), zero-width characters and the line and
//! paragraph separators.
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

/// True for a character that is not drawn but changes the text around it: bidi
/// embeddings, overrides, isolates and marks (U+061C, U+200E–U+200F, U+202A–U+202E,
/// U+2066–U+2069), zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E)
/// and the line and paragraph separators (U+2028, U+2029).
#[must_use]
pub fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// A file's text on one line: every control character escaped but the tab, and every
/// [``invisible` one.
#[must_use]
pub fn text(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| (c.is_control() && c != '\t') || invisible(c))
}

/// Text that may span lines (a CSV cell, a message of several lines): every control
/// character escaped but the newline and the tab, and every [``invisible` one.
#[must_use]
pub fn lines(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| (c.is_control() && c != '\t' && c != '\n') || invisible(c))
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

/// A writer for the terminal: in text, every control character but `\n` and `\t`, and
/// every [``invisible` one, is written escaped; in JSON (`json`), DEL, C1 controls and
/// the invisible characters are written as `\uXXXX` (serde_json escapes the other
/// controls itself, and these decode to the same characters). A character split between
/// two writes is judged whole; bytes that are not UTF-8 pass as they came.
pub struct Terminal<W: Write> {
    inner: W,
    json: bool,
    /// The first bytes of a character whose last ones have not come yet.
    pending: Vec<u8>,
}

impl<W: Write> Terminal<W> {
    /// Wraps `inner`; `json` when the output is JSON.
    pub fn new(inner: W, json: bool) -> Self {
        Self { inner, json, pending: Vec::new() }
    }

    /// Appends the text `valid`, escaping what must be.
    fn push_text(&self, valid: &str, out: &mut Vec<u8>) {
        for c in valid.chars() {
            let escaped = match c {
                '\n' | '\t' => false,
                c => c.is_control() || invisible(c),
            };
            if !escaped {
                let mut utf8 = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                continue;
            }
            let mut s = String::new();
            if self.json {
                let _ = write!(s, "\\u{:04x}", u32::from(c));
            } else {
                push_escaped(&mut s, c);
            }
            out.extend_from_slice(s.as_bytes());
        }
    }
}

impl<W: Write> Write for Terminal<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        let mut out = Vec::with_capacity(bytes.len() + 16);
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    self.push_text(valid, &mut out);
                    rest = &[];
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    self.push_text(std::str::from_utf8(valid).unwrap_or_default(), &mut out);
                    if let Some(n) = e.error_len() {
                        // Not UTF-8: passed as it came.
                        out.extend_from_slice(&after[..n]);
                        rest = &after[n..];
                    } else {
                        // A character cut at the end: kept for the next write.
                        self.pending = after.to_vec();
                        rest = &[];
                    }
                }
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
        // A cut character at the very end: not text, written as it came.
        if !self.pending.is_empty() {
            let _ = self.inner.write_all(&self.pending);
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
        // Bidi controls, zero-width characters and separators are shown, not obeyed.
        assert_eq!(
            text("game\u{202e}gpj.exe\u{200b}\u{2066}x\u{2069}\u{feff}\u{2028}"),
            "game\\u{202e}gpj.exe\\u{200b}\\u{2066}x\\u{2069}\\u{feff}\\u{2028}"
        );
        assert_eq!(lines("a\u{200f}\nb"), "a\\u{200f}\nb");
        assert!(matches!(text("Ünïcödé 日本 עברית"), Cow::Borrowed(_)), "right-to-left letters pass");
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
        // U+202E (E2 80 AE) split over three writes; a byte that is not UTF-8 passes.
        let pieces: &[&[u8]] = &[b"a\xE2", b"\x80", b"\xAEb \xFF \xE2\x80\x8B\n"];
        let raw = |json: bool| {
            let mut buf = Vec::new();
            let mut t = Terminal::new(&mut buf, json);
            for p in pieces {
                t.write_all(p).unwrap_or_default();
            }
            drop(t);
            buf
        };
        assert_eq!(raw(false), b"a\\u{202e}b \xFF \\u{200b}\n");
        assert_eq!(raw(true), b"a\\u202eb \xFF \\u200b\n");
    }
}
