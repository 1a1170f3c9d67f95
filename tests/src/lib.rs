//! Helpers shared by the end-to-end tests.

pub mod fuzz;
pub mod glb;
pub mod ktx2;

use std::path::{Path, PathBuf};

/// The workspace root.
#[must_use]
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_owned()
}

/// A fixture under `tests/data`.
#[must_use]
pub fn data(name: &str) -> PathBuf {
    root().join("tests/data").join(name)
}

/// Every shipped preset.
#[must_use]
pub fn presets() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(root().join("presets"))
        .expect("presets/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    all.sort();
    all
}

/// The largest difference between opposite edges of an image (last column against the
/// first, last row against the first) and the largest difference between neighbouring
/// texels inside it, over every channel.
#[must_use]
pub fn wrap_and_interior_steps(img: &image::DynamicImage) -> (u32, u32) {
    let img = img.to_rgba16();
    let (w, h) = img.dimensions();
    let diff = |a: &image::Rgba<u16>, b: &image::Rgba<u16>| {
        a.0.iter()
            .zip(b.0.iter())
            .map(|(x, y)| u32::from(x.abs_diff(*y)))
            .max()
            .unwrap_or(0)
    };
    let mut wrap = 0;
    let mut interior = 0;
    for y in 0..h {
        for x in 0..w {
            let p = img.get_pixel(x, y);
            let right = img.get_pixel((x + 1) % w, y);
            let down = img.get_pixel(x, (y + 1) % h);
            let (dr, dd) = (diff(p, right), diff(p, down));
            if x + 1 == w {
                wrap = wrap.max(dr);
            } else {
                interior = interior.max(dr);
            }
            if y + 1 == h {
                wrap = wrap.max(dd);
            } else {
                interior = interior.max(dd);
            }
        }
    }
    (wrap, interior)
}
