//! A capture's identity (SHA-256 of its bytes) and a run's time (`--time ISO8601`).

use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

/// SHA-256 of a file's bytes, in lowercase hex: the same capture added twice is
/// recognised whatever its name.
pub fn content_hash(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    let mut hex = String::with_capacity(64);
    for b in hasher.finalize() {
        let _ = write!(hex, "{b:02x}");
    }
    Ok(hex)
}

/// A moment given as ISO 8601 (`2026-11-29`, `2026-11-29T06:30:00Z`,
/// `2026-11-29T08:30:00+02:00`, fractions of a second allowed; no offset means UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Time {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub unix: i64,
}

/// A `--time` that is not ISO 8601.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an ISO 8601 time (e.g. 2026-11-29T06:30:00Z): {0:?}")]
pub struct TimeError(pub String);

impl std::str::FromStr for Time {
    type Err = TimeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s.trim()).ok_or_else(|| TimeError(s.to_owned()))
    }
}

impl std::fmt::Display for Time {
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let days = self.unix.div_euclid(86_400);
        let secs = self.unix.rem_euclid(86_400);
        let (y, m, d) = civil(days);
        write!(f, "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs / 60 % 60, secs % 60)
    }
}

fn number(s: &str, digits: usize) -> Option<i64> {
    (s.len() == digits && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

fn parse(s: &str) -> Option<Time> {
    let (date, rest) = match s.find(['T', 't', ' ']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mut parts = date.split('-');
    let (y, m, d) = (number(parts.next()?, 4)?, number(parts.next()?, 2)?, number(parts.next()?, 2)?);
    if parts.next().is_some() || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    let mut unix = days_from_civil(y, m, d) * 86_400;
    if let Some(rest) = rest {
        let (clock, offset) = split_offset(rest)?;
        let clock = clock.split('.').next()?;
        let mut c = clock.split(':');
        let (h, mi) = (number(c.next()?, 2)?, number(c.next()?, 2)?);
        let sec = c.next().map_or(Some(0), |x| number(x, 2))?;
        if c.next().is_some() || h > 23 || mi > 59 || sec > 60 {
            return None;
        }
        unix += h * 3600 + mi * 60 + sec - offset;
    }
    Some(Time { unix })
}

/// The clock part and its offset from UTC in seconds.
fn split_offset(rest: &str) -> Option<(&str, i64)> {
    if let Some(clock) = rest.strip_suffix(['Z', 'z']) {
        return Some((clock, 0));
    }
    match rest.rfind(['+', '-']) {
        Some(i) => {
            let (clock, off) = (&rest[..i], &rest[i + 1..]);
            let sign = if rest.as_bytes()[i] == b'-' { -1 } else { 1 };
            let (h, m) = match off.split_once(':') {
                Some((h, m)) => (number(h, 2)?, number(m, 2)?),
                None if off.len() == 4 => (number(&off[..2], 2)?, number(&off[2..], 2)?),
                None => (number(off, 2)?, 0),
            };
            (h <= 23 && m <= 59).then_some((clock, sign * (h * 3600 + m * 60)))
        }
        None => Some((rest, 0)),
    }
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (`civil_from_days`).
fn civil(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Option<i64> {
        s.parse::<Time>().ok().map(|t| t.unix)
    }

    #[test]
    fn iso_times_worked_by_hand() {
        assert_eq!(t("1970-01-01"), Some(0));
        assert_eq!(t("1970-01-02T00:00:01Z"), Some(86_401));
        // 2000-03-01 is day 11 017 (30 years of 365 days + 7 leap days + Jan–Feb 2000).
        assert_eq!(t("2000-03-01T00:00:00Z"), Some(11_017 * 86_400));
        assert_eq!(t("2026-11-29T08:30:00+02:00"), t("2026-11-29T06:30:00Z"));
        assert_eq!(t("2026-11-29T06:30:00.123-0100"), t("2026-11-29T07:30:00Z"));
        assert_eq!(t("2026-11-29T06:30"), t("2026-11-29T06:30:00Z"));
        for bad in [
            "",
            "2026-13-01",
            "2026-02-30",
            "yesterday",
            "2026-1-1",
            "2026-11-29T25:00Z",
            "2026-11-29T06:30:00+5",
        ] {
            assert_eq!(t(bad), None, "{bad}");
        }
        let time: Time = "2024-02-29T23:59:59+00:00".parse().expect("valid");
        assert_eq!(time.to_string(), "2024-02-29T23:59:59Z");
    }

    #[test]
    fn content_hash_is_sha256() {
        let path = std::env::temp_dir().join(format!("fs-hash-{}", std::process::id()));
        std::fs::write(&path, b"abc").expect("write");
        assert_eq!(
            content_hash(&path).expect("read"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let _ = std::fs::remove_file(&path);
    }
}
