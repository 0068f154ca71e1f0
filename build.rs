//! Build script: for a Windows target, puts the icon (`assets/icon/framescope.ico`) and
//! the version information (Explorer's "Details" tab) into `framescope.exe` as a
//! resource compiled by MinGW's `windres`. Other targets need nothing from it.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=assets/icon/framescope.ico");
    println!("cargo:rerun-if-env-changed=WINDRES");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "windows" {
        return;
    }
    if var("CARGO_CFG_TARGET_ENV") != "gnu" {
        // MSVC builds would use rc.exe; only the MinGW target is built and shipped.
        println!("cargo:warning=the icon is only embedded for the windows-gnu target");
        return;
    }
    let windres = std::env::var("WINDRES")
        .unwrap_or_else(|_| format!("{}-w64-mingw32-windres", var("CARGO_CFG_TARGET_ARCH")));
    let out = PathBuf::from(var("OUT_DIR"));
    let icon = PathBuf::from(var("CARGO_MANIFEST_DIR")).join("assets/icon/framescope.ico");
    let rc = out.join("framescope.rc");
    let obj = out.join("framescope-resources.o");
    if let Err(e) = std::fs::write(&rc, resource_script(&icon.to_string_lossy().replace('\\', "/"))) {
        panic!("cannot write {}: {e}", rc.display());
    }
    let status = Command::new(&windres).args(["-O", "coff", "-i"]).arg(&rc).arg("-o").arg(&obj).status();
    match status {
        Ok(s) if s.success() => println!("cargo:rustc-link-arg-bins={}", obj.display()),
        Ok(s) => panic!("{windres} failed ({s}) on {}", rc.display()),
        Err(e) => panic!("cannot run {windres} (install MinGW's binutils, or set WINDRES): {e}"),
    }
}

/// The resource script: the icon and a VERSIONINFO block from the package's version.
fn resource_script(icon: &str) -> String {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let mut parts: Vec<u16> = version.split(['.', '-', '+']).filter_map(|p| p.parse().ok()).take(3).collect();
    parts.resize(4, 0);
    let numeric = parts.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
    format!(
        r#"1 ICON "{icon}"
1 VERSIONINFO
FILEVERSION {numeric}
PRODUCTVERSION {numeric}
FILEOS 0x40004
FILETYPE 0x1
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904B0"
    BEGIN
      VALUE "CompanyName", "framescope"
      VALUE "FileDescription", "framescope: frame-timing capture analyzer"
      VALUE "FileVersion", "{version}"
      VALUE "InternalName", "framescope"
      VALUE "OriginalFilename", "framescope.exe"
      VALUE "ProductName", "framescope"
      VALUE "ProductVersion", "{version}"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
"#
    )
}
