//! A frame written as a PNG file: the sky it is composed over, where it may be written,
//! and the writer (encoded whole, then written beside and renamed). `tuft render` and
//! File › Render Image write frames through these alone.

use anyhow::Context as _;
use image::ImageEncoder as _;
use std::path::Path;

/// The background a saved frame is composed over (sRGB): a pale sky.
pub const BACKGROUND: [u8; 3] = [196, 210, 224];

/// Why a frame cannot be written to `out`, told before anything is rendered: frames are
/// PNG, and an existing folder or a folder that does not exist is no file to write.
///
/// # Errors
/// The reason, naming `out`.
pub fn check_png_path(out: &Path) -> Result<(), String> {
    let png = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !png {
        return Err(format!(
            "{}: frames are written as PNG; name a .png file",
            out.display()
        ));
    }
    if out.is_dir() {
        return Err(format!("{} is a folder; name a .png file", out.display()));
    }
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{}: the folder {} does not exist",
            out.display(),
            folder.display()
        ));
    }
    Ok(())
}

/// `image` over the sky, encoded whole and written beside `out` and renamed: a frame
/// that cannot be written (a full disk) leaves the file that was there.
///
/// # Errors
/// The frame cannot be encoded, or the file cannot be written.
pub fn write_png(image: &tuft_render::Image, out: &Path) -> anyhow::Result<()> {
    let pixels = image.over(BACKGROUND);
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(
            &pixels,
            image.width,
            image.height,
            image::ExtendedColorType::Rgba8,
        )
        .context("cannot encode the frame")?;
    tuft_graph::io::write_atomic(out, &png)
        .with_context(|| format!("cannot write {}", out.display()))
}
