//! The launched command: started in a process group of its own (so Ctrl-C in the
//! terminal reaches framescope, which then ends the capture, and ending the command
//! ends its children too), and stopped cleanly — asked to end, then made to.

use std::ffi::OsString;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a command asked to end has before it is killed.
const GRACE: Duration = Duration::from_secs(3);

/// A running command.
pub struct Launched {
    child: Child,
    exited: Option<ExitStatus>,
}

impl Launched {
    /// Starts `program args…` with `env` added to the environment, in a process group
    /// of its own; its standard input is closed and its output goes where framescope's
    /// standard error goes (framescope's standard output is for the paths it prints).
    ///
    /// # Errors
    /// The program could not be started (not found, not executable).
    pub fn spawn(program: &OsString, args: &[OsString], env: &[(String, String)]) -> std::io::Result<Self> {
        Self::spawn_with(program, args, env, false)
    }

    /// [`Launched::spawn`] with its standard output and error piped to framescope
    /// (`piped`: read them with [`Launched::take_output`]).
    pub fn spawn_with(
        program: &OsString,
        args: &[OsString],
        env: &[(String, String)],
        piped: bool,
    ) -> std::io::Result<Self> {
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::null());
        if piped {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
        } else {
            command.stdout(std::io::stderr()).stderr(std::io::stderr());
        }
        for (k, v) in env {
            command.env(k, v);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            command.process_group(0);
        }
        Ok(Self { child: command.spawn()?, exited: None })
    }

    /// Its piped standard output and error (once; `None` when not piped).
    pub fn take_output(&mut self) -> (Option<std::process::ChildStdout>, Option<std::process::ChildStderr>) {
        (self.child.stdout.take(), self.child.stderr.take())
    }

    /// The process id.
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The exit status once the command has ended (it is reaped then).
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none() {
            self.exited = self.child.try_wait().ok().flatten();
        }
        self.exited
    }

    /// Ends the command and its children: SIGTERM to its process group, then SIGKILL
    /// after 3 s (elsewhere: kills it). Returns its exit status when known.
    pub fn stop(&mut self) -> Option<ExitStatus> {
        if let Some(status) = self.exited() {
            // Its children may outlive it: end the group as well.
            self.signal_group(false);
            return Some(status);
        }
        self.signal_group(false);
        let asked = Instant::now();
        while asked.elapsed() < GRACE {
            if let Some(status) = self.exited() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.signal_group(true);
        let _ = self.child.kill();
        self.exited = self.child.wait().ok();
        self.exited
    }

    #[cfg(unix)]
    fn signal_group(&self, kill: bool) {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        let Ok(pid) = i32::try_from(self.child.id()) else { return };
        let signal = if kill { Signal::SIGKILL } else { Signal::SIGTERM };
        // The group is the child's own (`process_group(0)` above); it may be gone.
        let _ = killpg(Pid::from_raw(pid), signal);
    }

    #[cfg(not(unix))]
    fn signal_group(&mut self, _kill: bool) {
        let _ = self.child.kill();
    }
}

impl Drop for Launched {
    /// A command framescope launched never outlives the recording.
    fn drop(&mut self) {
        if self.exited().is_none() {
            self.stop();
        }
    }
}
