//! The Record window's global hotkey: F11 (as CapFrameX's capture key) starts a
//! recording with the Record window's settings and stops the one under way, while the
//! game has the focus. It is held only while the Record window asks for it (its
//! "Global hotkey" box) or a recording runs, so F11 is the other programs' the rest of
//! the time.
//!
//! Through the `global-hotkey` crate: an X11 key grab on Linux (its own connection to
//! `$DISPLAY`), `RegisterHotKey` on Windows, Carbon on macOS. A Wayland session offers
//! no global grab: there the key reaches framescope only while an X11 (XWayland)
//! window has the focus, and without `$DISPLAY` the hotkey is unavailable — the
//! window says so and Start/Stop remain.

use eframe::egui;
use global_hotkey::hotkey::{Code, HotKey};
use global_hotkey::{GlobalHotKeyEvent, GlobalHotKeyManager, HotKeyState};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The key, as the window names it.
pub const KEY_NAME: &str = "F11";

/// Whether the hotkey is held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HotkeyState {
    /// Not asked for.
    Off,
    /// Held: a press reaches framescope whichever program has the focus.
    On,
    /// Asked for and refused (no X server, another program holds the key): why.
    Unavailable(String),
}

/// The global hotkey (see the module's documentation).
pub struct RecordHotkey {
    manager: Option<GlobalHotKeyManager>,
    key: HotKey,
    state: HotkeyState,
    /// Presses not yet taken ([`RecordHotkey::take_presses`]).
    presses: Arc<AtomicUsize>,
}

impl Default for RecordHotkey {
    fn default() -> Self {
        Self {
            manager: None,
            key: HotKey::new(None, Code::F11),
            state: HotkeyState::Off,
            presses: Arc::new(AtomicUsize::new(0)),
        }
    }
}

impl RecordHotkey {
    /// Whether it is held, off or refused.
    #[must_use]
    pub fn state(&self) -> &HotkeyState {
        &self.state
    }

    /// Holds the key (`on`) or lets it go; a press wakes the window (`ctx`).
    pub fn set(&mut self, on: bool, ctx: &egui::Context) {
        match (on, &self.state) {
            (true, HotkeyState::Off) => self.state = self.hold(ctx),
            (false, HotkeyState::On) => {
                if let Some(m) = &self.manager {
                    let _ = m.unregister(self.key);
                }
                self.state = HotkeyState::Off;
            }
            (false, HotkeyState::Unavailable(_)) => self.state = HotkeyState::Off,
            _ => {}
        }
    }

    fn hold(&mut self, ctx: &egui::Context) -> HotkeyState {
        if self.manager.is_none() {
            if let Some(why) = no_x_server() {
                return HotkeyState::Unavailable(unavailable(&why));
            }
            match GlobalHotKeyManager::new() {
                Ok(m) => self.manager = Some(m),
                Err(e) => return HotkeyState::Unavailable(unavailable(&e.to_string())),
            }
            let (presses, ctx, id) = (Arc::clone(&self.presses), ctx.clone(), self.key.id());
            GlobalHotKeyEvent::set_event_handler(Some(move |e: GlobalHotKeyEvent| {
                if e.id == id && e.state == HotKeyState::Pressed {
                    presses.fetch_add(1, Ordering::SeqCst);
                    ctx.request_repaint();
                }
            }));
        }
        match self.manager.as_ref().map(|m| m.register(self.key)) {
            Some(Ok(())) => HotkeyState::On,
            Some(Err(e)) => HotkeyState::Unavailable(format!("{KEY_NAME} cannot be held: {e}")),
            None => HotkeyState::Unavailable(unavailable("no hotkey manager")),
        }
    }

    /// The presses since the last call.
    pub fn take_presses(&self) -> usize {
        self.presses.swap(0, Ordering::SeqCst)
    }

    /// A press as the key makes it (the window's tests, where no X server is).
    pub fn press(&self) {
        self.presses.fetch_add(1, Ordering::SeqCst);
    }
}

/// Why the X server the hotkey's grab needs cannot be reached, if it cannot (Linux:
/// `global-hotkey` connects on a thread of its own and says nothing when that fails).
#[cfg(target_os = "linux")]
fn no_x_server() -> Option<String> {
    match x11rb::connect(None) {
        Ok(_) => None,
        Err(e) => Some(format!("no X server: {e}")),
    }
}

/// Elsewhere the platform's own call reports a refusal.
#[cfg(not(target_os = "linux"))]
fn no_x_server() -> Option<String> {
    None
}

/// Why there is no global hotkey, with what remains.
fn unavailable(why: &str) -> String {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some() && std::env::var_os("DISPLAY").is_none();
    if wayland {
        format!(
            "no global hotkey on Wayland without XWayland ({why}); use Start and Stop, or run framescope \
             with DISPLAY set (XWayland: the key then works while an X11 window has the focus)"
        )
    } else {
        format!("no global hotkey here ({why}); use Start and Stop")
    }
}
