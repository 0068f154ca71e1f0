//! The running processes, for the Record window's process picker (PresentMon captures a
//! running game by name or PID): Linux from `/proc/PID/comm`, Windows from `tasklist
//! /FO CSV /NH` (Windows' own list, also Wine's). Sorted by name, then PID.

/// A running process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Process {
    /// Its id.
    pub pid: u32,
    /// Its program's name (`game.exe`; on Linux the first 15 bytes of it).
    pub name: String,
}

/// The processes running now, or why they cannot be listed.
pub fn running() -> Result<Vec<Process>, String> {
    let mut list = list()?;
    list.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.pid.cmp(&b.pid)));
    Ok(list)
}

#[cfg(target_os = "linux")]
fn list() -> Result<Vec<Process>, String> {
    let dir = std::fs::read_dir("/proc").map_err(|e| format!("cannot list /proc: {e}"))?;
    Ok(dir
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let name = std::fs::read_to_string(e.path().join("comm")).ok()?;
            Some(Process { pid, name: name.trim_end().to_owned() })
        })
        .collect())
}

#[cfg(windows)]
fn list() -> Result<Vec<Process>, String> {
    let out = std::process::Command::new("tasklist")
        .args(["/FO", "CSV", "/NH"])
        .output()
        .map_err(|e| format!("cannot run tasklist: {e}"))?;
    if !out.status.success() {
        return Err(format!("tasklist failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let list = parse_tasklist(&String::from_utf8_lossy(&out.stdout));
    if list.is_empty() {
        // Wine's tasklist, for one, prints nothing.
        return Err("tasklist listed no process; type the game's name or PID".into());
    }
    Ok(list)
}

#[cfg(not(any(target_os = "linux", windows)))]
fn list() -> Result<Vec<Process>, String> {
    Err("listing processes is done on Linux and Windows; type the name or PID".into())
}

/// `tasklist /FO CSV /NH` rows: `"name","pid","session","#","memory"`.
#[cfg_attr(not(windows), allow(dead_code))]
fn parse_tasklist(text: &str) -> Vec<Process> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    reader
        .records()
        .flatten()
        .filter_map(|r| Some(Process { name: r.get(0)?.to_owned(), pid: r.get(1)?.trim().parse().ok()? }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasklist_rows() {
        let text = "\"System Idle Process\",\"0\",\"Services\",\"0\",\"8 K\"\r\n\
                    \"game.exe\",\"4242\",\"Console\",\"1\",\"1,204,512 K\"\r\nnot a row\r\n";
        assert_eq!(
            parse_tasklist(text),
            vec![
                Process { pid: 0, name: "System Idle Process".into() },
                Process { pid: 4242, name: "game.exe".into() }
            ]
        );
    }

    /// On Linux from `/proc`. (On Windows `tasklist` lists it; under Wine, whose
    /// `tasklist` prints nothing, the list is an error that says what to do instead.)
    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_listed() {
        let list = running().unwrap_or_default();
        assert!(list.iter().any(|p| p.pid == std::process::id()), "{} processes", list.len());
    }

    #[cfg(windows)]
    #[test]
    fn this_process_is_listed_or_the_error_says_what_to_do() {
        match running() {
            Ok(list) => assert!(list.iter().any(|p| p.pid == std::process::id()), "{} processes", list.len()),
            Err(e) => assert!(e.contains("type the game's name or PID"), "{e}"),
        }
    }
}
