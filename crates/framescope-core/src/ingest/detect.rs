//! Format detection as tables: each format is one entry, tried in order, the first
//! whose sniff says yes reads the file. [`TEXT_FORMATS`] looks at a file's first bytes
//! (`load_text`); [`CSV_SIGNATURES`] at a CSV header's names ([`layout::signature`]),
//! before the PresentMon family; [`other_csv`] decides a CSV that neither table claims.
//!
//! How to add a format: (1) its reader, `ingest/NAME.rs` (a `sniff` and a `load`);
//! (2) one line in [`TEXT_FORMATS`] (by first bytes) or [`CSV_SIGNATURES`] (by header
//! names; a new [`Signature`] family also gets its arm in `load_csv`), placed where its
//! precedence is; (3) its tests (`tests/headless/format_quirks.rs` style, bad input).
//! The order of the entries is the precedence: keep it when adding one.

use super::decode::{self, Text};
use super::generic::{ColumnMapping, KnownLayout};
use super::layout::{self, DetectError, Layout, Signature};
use super::unity::UnityLayout;
use super::unreal::UnrealLayout;
use super::{
    LoadError, LoadErrorKind, LoadOptions, Progress, afterburner, android, capframex_json, etl, nvidia_app,
    perfetto,
};
use crate::model::{Capture, ColumnKind, Format};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// A file's first buffer of text, as the detectors see it.
pub(super) struct FirstBytes<'a> {
    /// The bytes as read.
    pub raw: &'a [u8],
    /// The bytes after a UTF-8 byte-order mark, if one starts them.
    pub text: &'a [u8],
}

/// What a text format's reader is given.
pub(super) struct Input<'a> {
    pub path: &'a Path,
    pub reader: Text<'a>,
    pub opts: LoadOptions,
    pub progress: &'a Progress,
    /// Told when the text is JSON (a gzip input's budget charges it more).
    pub charge: &'a decode::Charge,
}

/// A format known by its first bytes.
pub(super) struct TextFormat {
    /// What the entry detects: for readers of the table and its tests.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests only"))]
    pub name: &'static str,
    /// True when the file is this format.
    pub sniff: fn(&FirstBytes<'_>) -> bool,
    /// The reader does not see a byte-order mark that starts the text.
    pub skips_bom: bool,
    pub read: fn(Input<'_>) -> Result<Capture, LoadError>,
}

/// The formats known by their first bytes, in the order they are tried; the last one,
/// a CSV, takes anything.
pub(super) const TEXT_FORMATS: &[TextFormat] = &[
    TextFormat {
        name: "ETW trace",
        sniff: |h| etl::looks_like_etl(h.raw),
        skips_bom: false,
        read: refuse_etl,
    },
    TextFormat {
        name: "Perfetto trace",
        sniff: |h| perfetto::looks_like_perfetto(h.raw),
        skips_bom: false,
        read: |i| perfetto::load(i.path, i.reader, i.progress),
    },
    // A JSON document (CapFrameX) starts with `{`, after an optional BOM and spaces.
    TextFormat {
        name: "CapFrameX JSON",
        sniff: |h| h.text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'),
        skips_bom: true,
        read: |i| {
            i.charge.json();
            capframex_json::load(i.path, i.reader)
        },
    },
    TextFormat {
        name: "white space, then JSON or a CSV",
        sniff: |h| !h.text.is_empty() && h.text.iter().all(u8::is_ascii_whitespace),
        skips_bom: true,
        read: after_white_space,
    },
    TextFormat {
        name: "NVIDIA App",
        sniff: |h| nvidia_app::sniff(h.text),
        skips_bom: true,
        read: |i| nvidia_app::load(i.path, i.reader, i.progress),
    },
    TextFormat {
        name: "MSI Afterburner",
        sniff: |h| afterburner::sniff(h.text),
        skips_bom: true,
        read: |i| afterburner::load(i.path, i.reader, i.progress),
    },
    TextFormat {
        name: "Android SurfaceFlinger --latency",
        sniff: |h| android::is_surfaceflinger(h.text),
        skips_bom: true,
        read: |i| android::load_surfaceflinger(i.path, i.reader, i.progress),
    },
    TextFormat {
        name: "Android gfxinfo framestats",
        sniff: |h| android::is_gfxinfo(h.text),
        skips_bom: true,
        read: |i| android::load_gfxinfo(i.path, i.reader, i.progress),
    },
    TextFormat {
        name: "CSV",
        sniff: |_| true,
        skips_bom: false,
        read: |i| super::load_csv(i.path, i.reader, i.opts, i.progress),
    },
];

/// The entry of [`TEXT_FORMATS`] that reads a file starting with `raw`.
pub(super) fn text_format(raw: &[u8]) -> &'static TextFormat {
    let text = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
    let first = FirstBytes { raw, text };
    let csv = &TEXT_FORMATS[TEXT_FORMATS.len() - 1];
    TEXT_FORMATS.iter().find(|f| (f.sniff)(&first)).unwrap_or(csv)
}

/// An ETW trace is no frame capture: the error says what framescope reads of one.
#[expect(clippy::needless_pass_by_value, reason = "every reader of the table takes its input")]
fn refuse_etl(i: Input<'_>) -> Result<Capture, LoadError> {
    let msg = "an ETW trace (.etl), not a frame capture: framescope reads its PCL Stats markers \
               (`--pcl FILE.etl`, File › Attach PCL log…); `framescope report FILE.etl` says what it holds"
        .to_owned();
    Err(LoadError::new(i.path, None, LoadErrorKind::Unsupported(msg)))
}

/// Nothing but white space in the first buffer: looks past it for a JSON `{`, else
/// reads a CSV.
fn after_white_space(mut i: Input<'_>) -> Result<Capture, LoadError> {
    let io_err = |e| LoadError::new(i.path, None, LoadErrorKind::Io(e));
    let lines = skip_white_space(&mut i.reader).map_err(io_err)?;
    if i.reader.fill_buf().map_err(io_err)?.first() == Some(&b'{') {
        i.charge.json();
        return capframex_json::load(i.path, i.reader);
    }
    // Not JSON: the CSV readers see the blank lines again, so lines keep their numbers.
    let replayed: Text<'_> = Box::new(BufReader::new(std::io::repeat(b'\n').take(lines).chain(i.reader)));
    super::load_csv(i.path, replayed, i.opts, i.progress)
}

/// Reads past leading white space; returns the line ends it held.
fn skip_white_space(reader: &mut impl BufRead) -> std::io::Result<u64> {
    let mut lines = 0u64;
    loop {
        let buf = reader.fill_buf()?;
        let n = buf.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(buf.len());
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        let done = n < buf.len() || buf.is_empty();
        reader.consume(n);
        if done {
            return Ok(lines);
        }
    }
}

/// A CSV header as the signature detectors see it: names trimmed, trailing empty
/// names removed.
pub(super) struct Header<'a> {
    /// The names.
    pub names: &'a [String],
    /// The names in lower case.
    pub lower: Vec<String>,
    pub sep: u8,
    /// PresentMon's identity columns (`Application`, `ProcessID`): every
    /// PresentMon-family writer has them, so no engine signature matches with them.
    pub presentmon: bool,
}

impl<'a> Header<'a> {
    fn new(header: &'a [String], sep: u8) -> Self {
        let len = header.iter().rposition(|h| !h.is_empty()).map_or(0, |k| k + 1);
        let names = &header[..len];
        let lower: Vec<String> = names.iter().map(|h| h.to_ascii_lowercase()).collect();
        let mut header = Header { names, lower, sep, presentmon: false };
        header.presentmon = header.has("Application") && header.has("ProcessID");
        header
    }

    /// True when a name is `name` (any case).
    fn has(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        self.lower.contains(&name)
    }

    /// Unreal's `FrameTime` without PresentMon's identity columns.
    fn unreal(&self) -> bool {
        self.has("FrameTime") && !self.presentmon
    }
}

/// A CSV layout known by its header's distinctive names.
pub(super) struct CsvSignature {
    pub is: Signature,
    /// True when the header has the signature.
    pub sniff: fn(&Header<'_>) -> bool,
}

/// The CSV signatures, in the order they are tried (`formats.md` §7, §10, §11).
pub(super) const CSV_SIGNATURES: &[CsvSignature] = &[
    CsvSignature {
        is: Signature::Unity(UnityLayout::Recorder),
        sniff: |h| h.has(super::unity::FRAME_TIME) && !h.presentmon,
    },
    CsvSignature { is: Signature::Unity(UnityLayout::Counters), sniff: unity_counters },
    CsvSignature {
        is: Signature::Unreal(UnrealLayout::Modern),
        sniff: |h| h.unreal() && h.lower.first().is_some_and(|n| n == "events"),
    },
    CsvSignature {
        is: Signature::Unreal(UnrealLayout::Old),
        sniff: |h| {
            h.unreal()
                && (h.lower.last().is_some_and(|n| n == "events")
                    || ["GameThreadTime", "RenderThreadTime", "RHIThreadTime"].iter().any(|n| h.has(n)))
        },
    },
    CsvSignature { is: Signature::Pyrofling, sniff: |h| super::pyrofling::sniff(&h.lower) },
    CsvSignature { is: Signature::XrFrameTools, sniff: |h| super::xrframetools::sniff(&h.lower) },
    CsvSignature { is: Signature::OvrMetrics, sniff: |h| super::ovr_metrics::sniff(&h.lower) },
    CsvSignature {
        is: Signature::CapFrameXLinux,
        sniff: |h| super::capframex_linux::sniff(&h.lower, h.presentmon),
    },
    CsvSignature { is: Signature::Known(KnownLayout::Fraps), sniff: |h| layout::is_fraps(&h.lower) },
    // A game's benchmark export: `frame, fps, time`, the time a running clock in seconds.
    CsvSignature {
        is: Signature::Known(KnownLayout::GameBenchmark),
        sniff: |h| !h.presentmon && h.lower.starts_with(&["frame".into(), "fps".into(), "time".into()]),
    },
    CsvSignature {
        is: Signature::Known(KnownLayout::ProfileAnalyzer),
        sniff: |h| h.has("Frame Time (ms)") && h.has("Time from first frame (ms)"),
    },
    CsvSignature {
        is: Signature::Known(KnownLayout::VulkanLayer),
        sniff: |h| h.has("Frame Time (ns)") && h.has("Benchmark State"),
    },
];

/// Unity's Profiler-counter CSV: the `CPU Total Frame Time` counter.
fn unity_counters(h: &Header<'_>) -> bool {
    let head = super::table::Head { header: h.names.to_vec(), sep: h.sep, ..Default::default() };
    !h.presentmon && super::unity::counter_index(&head, super::unity::COUNTER_FRAME_TIME).is_some()
}

/// The signature of a header (names trimmed; `sep` its separator): the first entry of
/// [`CSV_SIGNATURES`] that matches, else [`Signature::Other`].
pub(super) fn csv_signature(header: &[String], sep: u8) -> Signature {
    let header = Header::new(header, sep);
    CSV_SIGNATURES.iter().find(|s| (s.sniff)(&header)).map_or(Signature::Other, |s| s.is)
}

/// How a CSV of [`Signature::Other`] is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum OtherCsv<'m> {
    /// By the PresentMon-family reader (MangoHud included). `lacks_identity`: the
    /// header has no `Application` and `ProcessID` (a warning says so, unless the file
    /// turns out to be a MangoHud log).
    PresentMonFamily { lacks_identity: bool },
    /// With the user's column mapping.
    Mapped(&'m ColumnMapping),
    /// Not at all: a CSV of no known format (the error lists its columns).
    Unknown,
}

/// The PresentMon-family layout of a header, if it fits one: `Err(None)` when the
/// separator is not a comma (no PresentMon-family writer uses another).
pub(super) fn presentmon_fit(head: &super::table::Head) -> Result<Layout, Option<DetectError>> {
    if head.sep == b',' { layout::detect(&head.header, &[]).map_err(Some) } else { Err(None) }
}

/// Decides how a CSV that no signature claims is read, from its header, how it fits
/// the PresentMon family ([`presentmon_fit`]) and the column mapping the user gave.
pub(super) fn other_csv<'m>(
    header: &[String],
    presentmon: &Result<Layout, Option<DetectError>>,
    mapping: Option<&'m ColumnMapping>,
) -> OtherCsv<'m> {
    let mapped = mapping.is_some();
    let names: Vec<String> = header.iter().map(|h| h.to_ascii_lowercase()).collect();
    let first = names.first().map_or("", String::as_str);
    // MangoHud's preamble (a system-info header, `v1`, its version, dividers) and the
    // files whose header says what they are (a summary, JSON) keep the PresentMon-family
    // reader and its messages.
    let mangohud = (names.iter().any(|n| n == "os") && names.iter().any(|n| n == "kernel"))
        || (names.iter().filter(|n| !n.is_empty()).count() == 1
            && (first == "v1"
                || first.starts_with("--")
                || first.chars().all(|c| c.is_ascii_digit() || c == '.')));
    let told = matches!(presentmon, Err(Some(e)) if e.names_the_file());
    let complete = names.iter().any(|n| n == "application") && names.iter().any(|n| n == "processid");
    // A header without PresentMon's identity columns that has a column no
    // PresentMon-family writer uses (`frame,frametime,gpu_us`) is another tool's log
    // that merely has a frame-time name in it: a CSV of no known format. A mapping the
    // user gave overrides such an incomplete fit too.
    let fits = presentmon.as_ref().is_ok_and(|l| {
        let foreign = l.format != Format::MangoHud
            && l.numeric.iter().any(|c| {
                matches!(c.kind, ColumnKind::Other | ColumnKind::Telemetry)
                    && !crate::model::Column::is_present_column(&c.name)
            });
        complete || (!foreign && (!mapped || mangohud))
    });
    if fits || mangohud || told {
        OtherCsv::PresentMonFamily { lacks_identity: !complete }
    } else {
        mapping.map_or(OtherCsv::Unknown, OtherCsv::Mapped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decision for a hand-built header, with or without a mapping.
    fn decide(header: &str, mapped: bool) -> OtherCsv<'static> {
        let header: Vec<String> = header.split(',').map(|h| h.trim().to_owned()).collect();
        let head = super::super::table::Head { header: header.clone(), sep: b',', ..Default::default() };
        other_csv(&header, &presentmon_fit(&head), mapped.then_some(mapping()))
    }

    fn mapping() -> &'static ColumnMapping {
        static MAPPING: std::sync::OnceLock<ColumnMapping> = std::sync::OnceLock::new();
        MAPPING.get_or_init(|| {
            ColumnMapping::new(
                super::super::MappedRole::FrameTime,
                "frametime",
                super::super::TimeUnit::Millis,
            )
        })
    }

    const PRESENTMON: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
                              Dropped,TimeInSeconds,MsBetweenPresents";

    #[test]
    fn a_presentmon_header_is_read_as_presentmon_even_with_a_mapping() {
        let pm = OtherCsv::PresentMonFamily { lacks_identity: false };
        assert_eq!(decide(PRESENTMON, false), pm);
        assert_eq!(decide(PRESENTMON, true), pm);
    }

    #[test]
    fn a_frame_time_column_without_identity_is_presentmon_unless_mapped() {
        let header = "TimeInSeconds,MsBetweenPresents";
        assert_eq!(decide(header, false), OtherCsv::PresentMonFamily { lacks_identity: true });
        assert_eq!(decide(header, true), OtherCsv::Mapped(mapping()));
    }

    #[test]
    fn another_tools_log_with_a_frame_time_name_is_unknown_or_mapped() {
        let header = "frame,frametime,gpu_us";
        assert_eq!(decide(header, false), OtherCsv::Unknown);
        assert_eq!(decide(header, true), OtherCsv::Mapped(mapping()));
    }

    #[test]
    fn mangohud_preambles_and_files_that_say_what_they_are_keep_the_presentmon_reader() {
        let pm = OtherCsv::PresentMonFamily { lacks_identity: true };
        for header in ["os,cpu,gpu,ram,kernel,driver", "v1", "0.8.1", "--------"] {
            assert_eq!(decide(header, false), pm, "{header}");
            assert_eq!(decide(header, true), pm, "{header}");
        }
        // A summary file: the PresentMon reader's error names it.
        assert!(
            matches!(presentmon_fit_of("Application,Average FPS,1% Low FPS"), Err(Some(e)) if e.names_the_file())
        );
    }

    fn presentmon_fit_of(header: &str) -> Result<Layout, Option<DetectError>> {
        let header: Vec<String> = header.split(',').map(str::to_owned).collect();
        presentmon_fit(&super::super::table::Head { header, sep: b',', ..Default::default() })
    }

    #[test]
    fn a_csv_of_no_known_format_is_unknown_or_mapped() {
        assert_eq!(decide("a,b,c", false), OtherCsv::Unknown);
        assert_eq!(decide("a,b,c", true), OtherCsv::Mapped(mapping()));
        let semicolons = super::super::table::Head {
            header: vec!["MsBetweenPresents".into(), "x".into()],
            sep: b';',
            ..Default::default()
        };
        let fit = presentmon_fit(&semicolons);
        assert!(matches!(fit, Err(None)));
        assert_eq!(other_csv(&semicolons.header, &fit, None), OtherCsv::Unknown);
    }

    #[test]
    fn the_text_table_keeps_its_precedence() {
        let name = |bytes: &[u8]| text_format(bytes).name;
        assert_eq!(name(b"\xEF\xBB\xBF  {\"Info\":{}}"), "CapFrameX JSON");
        assert_eq!(name(b"\xEF\xBB\xBF\n\n"), "white space, then JSON or a CSV");
        assert_eq!(name(b"Timestamp (elapsed s),FPS\n"), "NVIDIA App");
        assert_eq!(name(b"00, 01-01-2024, Hardware monitoring log v1.6\n"), "MSI Afterburner");
        assert_eq!(name(b"\xEF\xBB\xBFApplication,ProcessID\n"), "CSV");
        assert_eq!(name(b"16666666\n0\t0\t0\n"), "Android SurfaceFlinger --latency");
        assert_eq!(name(&[0x0A, 0x02, 0x50, 0x01]), "Perfetto trace");
        assert_eq!(name(b"\nApplication,ProcessID\n"), "CSV");
        assert_eq!(name(b"Applications Graphics Acceleration Info:\n"), "Android gfxinfo framestats");
        assert_eq!(name(b""), "CSV");
        assert_eq!(TEXT_FORMATS.last().map(|f| f.name), Some("CSV"));
    }

    #[test]
    fn the_csv_table_keeps_its_precedence() {
        let sig = |h: &str| {
            let names: Vec<String> = h.split(',').map(str::to_owned).collect();
            csv_signature(&names, b',')
        };
        assert_eq!(sig("cpuFrameTime,FrameTime,EVENTS"), Signature::Unity(UnityLayout::Recorder));
        assert_eq!(sig("EVENTS,FrameTime,GameThreadTime"), Signature::Unreal(UnrealLayout::Modern));
        assert_eq!(sig("FrameTime,GameThreadTime,EVENTS"), Signature::Unreal(UnrealLayout::Old));
        assert_eq!(sig("Application,ProcessID,FrameTime,EVENTS"), Signature::Other);
        assert_eq!(sig("Frame,Time (ms),,"), Signature::Known(KnownLayout::Fraps));
        let linux = "MsBetweenPresents,MsUntilRenderComplete,MsUntilDisplayed,MsActualPresent";
        assert_eq!(sig(linux), Signature::CapFrameXLinux);
        assert_eq!(sig("id,stimulus,queuepresent,queuedone,Dequeued"), Signature::Pyrofling);
        let xr = "Time (µs),Time (UTC),Time (Local),Display XrTime,Frame Interval (µs),FPS,Count";
        assert_eq!(sig(xr), Signature::XrFrameTools);
        assert_eq!(sig("Time Stamp,available_memory_MB,average_frame_rate"), Signature::OvrMetrics);
        assert_eq!(sig(&format!("Application,ProcessID,{linux}")), Signature::Other);
        // A game benchmark's export, any case, extra columns after the three; not with
        // PresentMon's identity columns, nor FRAPS' `Time (ms)`.
        let bench = Signature::Known(KnownLayout::GameBenchmark);
        assert_eq!(sig("frame,fps,time"), bench);
        assert_eq!(sig("Frame,FPS,Time,GPU temp"), bench);
        assert_eq!(sig("Application,ProcessID,frame,fps,time"), Signature::Other);
        assert_eq!(sig("frame,time,fps"), Signature::Other);
    }
}
