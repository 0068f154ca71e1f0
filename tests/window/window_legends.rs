//! Legend entries keep their swatch with their text (egui_kittest, the real [`App`]):
//! each entry of the timeline's legend strip is one widget holding both, so the strip
//! wraps between entries only — never between a swatch and its label — at any width.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{settle, window};
use eframe::egui::{self, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};

const ENTRIES: [&str; 6] =
    ["within target (±0.5 %)", "over target", "over 2× target", "target", "dropped", "oscillating"];

#[test]
fn each_legend_entry_holds_its_swatch_and_its_label_on_one_line() {
    let mut h = window(&[]);
    let font = egui::TextStyle::Small.resolve(&h.ctx.global_style());
    for width in [1280.0, 1100.0, 1400.0] {
        h.set_size(egui::vec2(width, 800.0));
        settle(&mut h);
        for text in ENTRIES {
            let node = h
                .query_all_by_role(Role::Label)
                .find(|n| n.accesskit_node().label().or_else(|| n.value()).as_deref() == Some(text))
                .unwrap_or_else(|| panic!("no legend entry {text}"));
            let rect = node.rect();
            let galley =
                h.ctx.debug_painter().layout_no_wrap(text.to_owned(), font.clone(), egui::Color32::WHITE);
            // The swatch (12 points and a gap) sits left of the text, in the same widget,
            // and the entry is one line.
            assert!(
                rect.width() >= galley.size().x + 12.0,
                "{text} at {width}: {rect:?} holds only its text ({})",
                galley.size().x
            );
            assert!(rect.height() < galley.size().y * 1.5 + 1.0, "{text} at {width} wraps: {rect:?}");
        }
    }
}
