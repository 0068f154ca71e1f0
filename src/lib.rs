//! framescope, the application: the command line ([`cli`]) and, with the default `gui`
//! feature, the window ([`app`]). Everything they show comes from the core crate,
//! [`framescope_core`] (formats, the trace model, every figure, the report), which has no
//! GUI dependency; see `ARCHITECTURE.md`.
//!
//! * [`cli`] — the command line (`report`, `compare`), no window;
//! * [`launch`] — what the command line hands to the window, and what to say when no
//!   window can open;
//! * [`record`] — recording captures with the capturing tool (MangoHud), GUI-free;
//! * [`app`] — the window (feature `gui`).

#[cfg(feature = "gui")]
pub mod app;
pub mod cli;
pub mod launch;
pub mod record;

pub use framescope_core as core;
