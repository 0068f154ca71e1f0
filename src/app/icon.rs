//! The window's icon: `assets/icon/framescope.png` (drawn by `make_icon.py` there, which
//! also writes the `.ico` that `build.rs` puts in the Windows executable).

use eframe::egui::IconData;

/// The icon's PNG bytes, built into the binary.
const PNG: &[u8] = include_bytes!("../../assets/icon/framescope.png");

/// The icon as RGBA pixels; `None` (the platform's default icon) if it cannot be
/// decoded, which only a broken build could cause.
#[must_use]
pub fn icon() -> Option<IconData> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(PNG)).read_info().ok()?;
    let mut rgba = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut rgba).ok()?;
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return None;
    }
    rgba.truncate(info.buffer_size());
    Some(IconData { rgba, width: info.width, height: info.height })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_icon_decodes_to_256_square_rgba_pixels() {
        let icon = super::icon().expect("the built-in icon decodes");
        assert_eq!((icon.width, icon.height), (256, 256));
        assert_eq!(icon.rgba.len(), 256 * 256 * 4);
        // The corner is transparent (rounded square); the centre is opaque.
        assert_eq!(icon.rgba[3], 0);
        let centre = (128 * 256 + 128) * 4;
        assert_eq!(icon.rgba[centre + 3], 255);
    }
}
