//! The `framescope` executable: see [`framescope::cli`].

fn main() -> std::process::ExitCode {
    framescope::cli::main()
}
