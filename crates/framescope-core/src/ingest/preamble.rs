//! The top of a CSV capture: byte-order mark, `//Key=Value` comment lines (CapFrameX)
//! and the header line. Reads are capped so that a binary or hostile file is refused
//! quickly instead of being buffered whole.

use std::io::BufRead;

/// The longest line accepted before the header (and the header itself).
pub const MAX_PREAMBLE_LINE_BYTES: usize = 256 * 1024;
/// How many lines may stand before the header.
const MAX_PREAMBLE_LINES: u64 = 1000;

/// What stands before the first data row.
#[derive(Debug, Clone, Default)]
pub struct Preamble {
    /// `//` lines before the header, without the slashes.
    pub comments: Vec<String>,
    /// The header names, trimmed, in file order.
    pub header: Vec<String>,
    /// 1-based line number of the header.
    pub header_line: u64,
    /// True when the file started with a UTF-8 byte-order mark.
    pub had_bom: bool,
    /// The writer's version from a line of its own before the header (MangoHud's
    /// `log_versioning` writes `0.8.1`): major, minor, patch.
    pub version: Option<(u32, u32, u32)>,
}

/// Why the preamble could not be read.
#[derive(Debug)]
pub enum PreambleError {
    /// Reading failed.
    Io(std::io::Error),
    /// The content is not CSV text, with the reason and the line.
    NotText(String, u64),
    /// The file ended before any header line.
    Empty,
}

/// Reads lines up to and including the header, leaving `reader` at the first data row.
pub fn read_preamble<R: BufRead>(reader: &mut R) -> Result<Preamble, PreambleError> {
    let mut pre = Preamble::default();
    let mut line_no = 0u64;
    let mut buf = Vec::new();
    let mut mangohud_system: Option<Vec<String>> = None;
    loop {
        buf.clear();
        let n = read_line_capped(reader, &mut buf).map_err(PreambleError::Io)?;
        if n == 0 {
            return Err(PreambleError::Empty);
        }
        line_no += 1;
        if line_no > MAX_PREAMBLE_LINES {
            return Err(PreambleError::NotText(
                format!("no header line within the first {MAX_PREAMBLE_LINES} lines"),
                line_no,
            ));
        }
        if buf.len() > MAX_PREAMBLE_LINE_BYTES {
            return Err(PreambleError::NotText(
                format!("line is longer than {} KiB", MAX_PREAMBLE_LINE_BYTES / 1024),
                line_no,
            ));
        }
        let mut bytes: &[u8] = &buf;
        if line_no == 1
            && let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF")
        {
            pre.had_bom = true;
            bytes = rest;
        }
        if bytes.contains(&0) {
            return Err(PreambleError::NotText("binary data (NUL bytes)".into(), line_no));
        }
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Err(PreambleError::NotText("not UTF-8 text".into(), line_no));
        };
        let text = text.trim_end_matches(['\r', '\n']);
        if text.trim().is_empty() {
            continue;
        }
        if let Some(comment) = text.strip_prefix("//") {
            pre.comments.push(comment.to_owned());
            continue;
        }
        if is_mangohud_decoration(text) {
            if pre.version.is_none() {
                pre.version = version_line(text);
            }
            continue;
        }
        let names = split_header(text);
        if is_mangohud_system_header(&names) {
            // MangoHud: a system-info header and one row of values come before the
            // frame-metrics header; keep them as `name=value` facts.
            mangohud_system = Some(names);
            continue;
        }
        if let Some(keys) = mangohud_system.take() {
            let values = split_header(text);
            pre.comments.extend(keys.iter().zip(values).map(|(k, v)| format!("{k}={v}")));
            continue;
        }
        pre.header = names;
        pre.header_line = line_no;
        return Ok(pre);
    }
}

/// MangoHud's `os,cpu,gpu,ram,kernel,…` system-info header.
fn is_mangohud_system_header(names: &[String]) -> bool {
    names.iter().any(|n| n == "os")
        && names.iter().any(|n| n == "kernel")
        && !names.iter().any(|n| n == "fps")
}

/// Lines MangoHud writes around its sections with `log_versioning`: `v1`, the version
/// (`0.7.2`), and `----SYSTEM INFO----` / `----FRAME METRICS----` dividers.
fn is_mangohud_decoration(text: &str) -> bool {
    let t = text.trim();
    t == "v1"
        || t.starts_with("---")
        || (!t.contains(',')
            && !t.is_empty()
            && t.chars().all(|c| c.is_ascii_digit() || c == '.' || c == '-'))
        || (!t.contains(',') && version_line(t).is_some())
}

/// `0.8.1` (or `0.8.1-rc1`, `v0.6.9`): the first three numbers of a version line.
fn version_line(text: &str) -> Option<(u32, u32, u32)> {
    let t = text.trim();
    let t = t.strip_prefix('v').unwrap_or(t);
    let mut parts = t.splitn(3, '.');
    let (a, b, rest) = (parts.next()?, parts.next()?, parts.next()?);
    let c: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((a.parse().ok()?, b.parse().ok()?, c.parse().ok()?))
}

/// Reads one line (through `\n`) into `buf`, stopping early once the line exceeds
/// the cap. Returns the number of bytes read (0 at end of file).
pub(crate) fn read_line_capped<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(total);
        }
        let (take, end) = match available.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => (i + 1, Some(available[i])),
            None => (available.len(), None),
        };
        buf.extend_from_slice(&available[..take]);
        reader.consume(take);
        total += take;
        if end == Some(b'\r') {
            // `\r\n` is one line end; a lone `\r` (classic Mac) is one too.
            if reader.fill_buf()?.first() == Some(&b'\n') {
                reader.consume(1);
                total += 1;
            }
            return Ok(total);
        }
        if end.is_some() || buf.len() > MAX_PREAMBLE_LINE_BYTES {
            return Ok(total);
        }
    }
}

/// Splits a header line into trimmed names, honouring CSV quotes.
fn split_header(line: &str) -> Vec<String> {
    plain_fields(line, ',').unwrap_or_else(|| split_quoted(line))
}

/// The trimmed fields of `line` split at every `sep`.
pub(crate) fn split_trimmed(line: &str, sep: char) -> Vec<String> {
    line.split(sep).map(|s| s.trim().to_owned()).collect()
}

/// [`split_trimmed`], when csv would split `line` the same way: it has no quote, line
/// break or leading byte-order mark (which csv drops). Building a csv reader costs
/// more than the split, once per file of a batch; `None` when csv must read it.
pub(crate) fn plain_fields(line: &str, sep: char) -> Option<Vec<String>> {
    (!line.contains(['"', '\r', '\n']) && !line.starts_with('\u{feff}')).then(|| split_trimmed(line, sep))
}

/// [`split_header`] through csv.
fn split_quoted(line: &str) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match rdr.read_record(&mut record) {
        Ok(true) => record.iter().map(|s| s.trim().to_owned()).collect(),
        _ => split_trimmed(line, ','),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Preamble, PreambleError> {
        read_preamble(&mut std::io::BufReader::new(bytes))
    }

    /// The split without csv gives what csv gives, for lines it is taken for.
    #[test]
    fn plain_headers_split_as_csv_splits_them() {
        for line in
            ["A, B ,C", "", " ", "a,,b,", "\u{a0}x\u{2003},y\t", "\u{feff}A,B", "A,\u{feff}B", "x;y", "#c=1"]
        {
            assert_eq!(split_header(line), split_quoted(line), "{line:?}");
        }
        assert_eq!(split_header("A,\"B,C\""), ["A", "B,C"]);
    }

    #[test]
    fn bom_comments_and_header() {
        let p = read(b"\xEF\xBB\xBF//Game=x\r\n//Ignore=true\r\nA, B ,\"C,D\"\r\n1,2,3\r\n");
        let p = p.unwrap_or_default();
        assert!(p.had_bom);
        assert_eq!(p.comments, vec!["Game=x", "Ignore=true"]);
        assert_eq!(p.header, vec!["A", "B", "C,D"]);
        assert_eq!(p.header_line, 3);
    }

    #[test]
    fn mangohud_system_info_and_versioning_lines() {
        let text = b"v1\n0.7.2\n---------SYSTEM INFO---------\nos,cpu,kernel\nArch,Ryzen,6.1\n\
                     ---------FRAME METRICS---------\nfps,frametime,elapsed\n60,16.6,1000\n";
        let p = read(text).unwrap_or_default();
        assert_eq!(p.header, vec!["fps", "frametime", "elapsed"]);
        assert_eq!(p.header_line, 7);
        assert_eq!(p.comments, vec!["os=Arch", "cpu=Ryzen", "kernel=6.1"]);
        assert_eq!(p.version, Some((0, 7, 2)));
        assert_eq!(version_line("v0.6.9-rc1"), Some((0, 6, 9)));
        assert_eq!(version_line("1.5"), None);
    }

    #[test]
    fn refuses_binary_and_empty() {
        assert!(matches!(read(b"\x00\x01\x02garbage"), Err(PreambleError::NotText(_, 1))));
        assert!(matches!(read(b""), Err(PreambleError::Empty)));
        assert!(matches!(read(b"\n\n\n"), Err(PreambleError::Empty)));
        let long = vec![b'a'; MAX_PREAMBLE_LINE_BYTES + 10];
        assert!(matches!(read(&long), Err(PreambleError::NotText(_, 1))));
    }
}
