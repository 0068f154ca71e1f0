# Sourced by .ci/windows.sh and scripts/dist.sh: installs what the Windows cross build
# needs and sets `cargo_win`, the cargo command line that builds for $target.
# Toolchain: `rustup target add` where rustup can fetch the target's standard library;
# else Debian's packaged Rust (rustc-web, cargo-web, rust-web-src), which builds the
# standard library from source (-Zbuild-std under RUSTC_BOOTSTRAP=1). MinGW-w64 links.

target=x86_64-pc-windows-gnu
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc

as_root=()
# install PACKAGE...: apt-get install those not installed yet (as root or via sudo).
install() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            as_root=(sudo -n)
        else
            echo "error: ${missing[*]} missing and cannot be installed (not root, no sudo)" >&2
            exit 1
        fi
    fi
    echo "installing ${missing[*]}"
    ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null >/dev/null
    ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >/dev/null
}

# binutils-mingw-w64 brings windres (build.rs embeds the icon with it) and strip.
install gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 python3
cargo_win=(cargo)
if command -v rustup >/dev/null 2>&1 && rustup target add "$target" >/dev/null 2>&1; then
    echo "rustup: $(rustc --version), target $target"
else
    echo "rustup cannot add $target here: Debian's packaged Rust, standard library from source"
    install rustc-web cargo-web rust-web-src
    export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    cargo_win=(/usr/bin/cargo -Zbuild-std=std,panic_abort)
    "$RUSTC" --version
fi
