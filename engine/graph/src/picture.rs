//! A decoded picture (an Image node's file): per texel the colour, the grey value of the
//! stored codes and the alpha, sampled bilinearly with wrapping, and checked once for a
//! seam. Reading files and holding pictures is `images`'.

use crate::field::Axis;
use tuft_strands::num::srgb_to_linear;

/// A decoded picture: per texel the colour (sRGB decoded to linear), the grey value of
/// the stored codes (data, not decoded: a painted mask) and the alpha.
#[derive(Debug)]
pub struct Picture {
    width: usize,
    height: usize,
    /// Rows top to bottom: linear r, g, b, grey, alpha.
    texels: Vec<[f32; 5]>,
    /// Why it does not tile, measured once when decoded ([`Picture::seam`]).
    seam: Option<String>,
}

/// Channels of [`Picture::sample`].
pub const LINEAR_RGB: std::ops::Range<usize> = 0..3;
/// The grey value of the stored codes.
pub const GREY: usize = 3;
/// The alpha.
pub const ALPHA: usize = 4;

/// A picture's edges must differ by more than this (in code values over 1) before a
/// seam is reported, however smooth its inside.
const SEAM_FLOOR: f32 = 0.02;
/// ... and by more than this many times the mean step between neighbours inside it.
const SEAM_RATIO: f32 = 3.0;

impl Picture {
    /// How many texels it holds.
    #[must_use]
    pub fn texel_count(&self) -> usize {
        self.width * self.height
    }

    /// A picture from rows of RGBA in `[0, 1]`, sRGB-encoded colour.
    ///
    /// # Panics
    /// If `rgba` does not hold `width × height` texels.
    #[must_use]
    pub fn from_rgba(width: usize, height: usize, rgba: &[[f32; 4]]) -> Self {
        Self::from_texels(width, height, rgba.iter().copied())
    }

    /// As [`Picture::from_rgba`], from the texels one at a time (a decoder's pixels,
    /// without a copy of them all first).
    ///
    /// # Panics
    /// If `rgba` does not yield `width × height` texels.
    #[must_use]
    pub fn from_texels(
        width: usize,
        height: usize,
        rgba: impl ExactSizeIterator<Item = [f32; 4]>,
    ) -> Self {
        assert_eq!(rgba.len(), width * height, "{width} × {height} texels");
        let texels = rgba
            .map(|[r, g, b, a]| {
                let grey = 0.2126 * r + 0.7152 * g + 0.0722 * b;
                [
                    srgb_to_linear(r),
                    srgb_to_linear(g),
                    srgb_to_linear(b),
                    grey.clamp(0.0, 1.0),
                    a.clamp(0.0, 1.0),
                ]
            })
            .collect();
        let mut picture = Self {
            width,
            height,
            texels,
            seam: None,
        };
        picture.seam = picture.measure_seam();
        picture
    }

    /// The five channels at `uv`, bilinear between texel centres, wrapping at the edges
    /// (texel `(x, y)` sits at `((x + ½)/w, (y + ½)/h)`).
    #[must_use]
    pub fn sample(&self, uv: [f32; 2]) -> [f32; 5] {
        let (x, y) = (Axis::at(uv[0], self.width), Axis::at(uv[1], self.height));
        let at = |column: usize, row: usize| self.texels[row * self.width + column];
        let (a, b, c, d) = (
            at(x.before, y.before),
            at(x.after, y.before),
            at(x.before, y.after),
            at(x.after, y.after),
        );
        std::array::from_fn(|k| {
            let top = a[k] + (b[k] - a[k]) * x.toward;
            let bottom = c[k] + (d[k] - c[k]) * x.toward;
            top + (bottom - top) * y.toward
        })
    }

    /// Why the picture does not tile, if it does not: its opposite edges differ by much
    /// more than neighbouring texels inside it do (measured on the grey value, the
    /// linear colour and the alpha, once, when the picture was decoded: validation asks
    /// on every edit).
    #[must_use]
    pub fn seam(&self) -> Option<&str> {
        self.seam.as_deref()
    }

    fn measure_seam(&self) -> Option<String> {
        let (w, h) = (self.width, self.height);
        if w < 2 || h < 2 {
            return None;
        }
        let step = |a: &[f32; 5], b: &[f32; 5]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max)
        };
        let t = |x: usize, y: usize| &self.texels[y * w + x];
        let mut inside = (0.0f64, 0usize);
        for y in 0..h {
            for x in 0..w {
                if x + 1 < w {
                    inside.0 += f64::from(step(t(x, y), t(x + 1, y)));
                    inside.1 += 1;
                }
                if y + 1 < h {
                    inside.0 += f64::from(step(t(x, y), t(x, y + 1)));
                    inside.1 += 1;
                }
            }
        }
        let inside = (inside.0 / inside.1.max(1) as f64) as f32;
        let across = |n: usize, pair: &dyn Fn(usize) -> f32| {
            (0..n).map(|i| f64::from(pair(i))).sum::<f64>() as f32 / n as f32
        };
        let left_right = across(h, &|y| step(t(0, y), t(w - 1, y)));
        let top_bottom = across(w, &|x| step(t(x, 0), t(x, h - 1)));
        let limit = SEAM_FLOOR.max(SEAM_RATIO * inside);
        let worst = [
            ("left and right", left_right),
            ("top and bottom", top_bottom),
        ]
        .into_iter()
        .filter(|(_, d)| *d > limit)
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some(format!(
            "the image's {} edges differ by {:.3} on average, where neighbouring texels \
             inside it differ by {inside:.3}: paint or crop it to tile",
            worst.0, worst.1
        ))
    }
}
