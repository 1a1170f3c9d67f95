//! Two frames of one view compared as an eye sees them: the material's mean colour band by
//! band down the frame, and the pattern as the luminance of 8 × 8 blocks. What the golden
//! frames are judged by, and what the walker's view at two level-of-detail biases is
//! measured with (`tuft bench --eye-height`).

use crate::offscreen::{Image, srgb_codes};

/// The luminance of each `n × n` block, sRGB codes, over the frame composed on black;
/// and whether the material covers the block whole.
fn blocks(image: &Image, n: u32) -> Vec<(f64, bool)> {
    let n = n.max(1);
    let (bw, bh) = (image.width / n, image.height / n);
    let mut out = vec![([0.0f64; 3], true); (bw * bh) as usize];
    for y in 0..bh * n {
        for x in 0..bw * n {
            let p = &image.rgba[((y * image.width + x) * 4) as usize..][..4];
            let b = &mut out[((y / n) * bw + x / n) as usize];
            for (sum, &c) in b.0.iter_mut().zip(p) {
                *sum += f64::from(c);
            }
            b.1 &= p[3] == 255;
        }
    }
    let area = f64::from(n * n);
    out.into_iter()
        .map(|(c, whole)| {
            (
                (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / area,
                whole,
            )
        })
        .collect()
}

/// The luminance of each 8 × 8 block, codes, the frame composed on black: its pattern.
#[must_use]
pub fn block_luminance(image: &Image) -> Vec<f64> {
    blocks(image, 8).into_iter().map(|(l, _)| l).collect()
}

/// The luminance of the 8 × 8 blocks the material covers whole in both frames, codes:
/// the pattern inside the material, without its outline against the background.
#[must_use]
pub fn covered_block_luminance(a: &Image, b: &Image) -> (Vec<f64>, Vec<f64>) {
    blocks(a, 8)
        .into_iter()
        .zip(blocks(b, 8))
        .filter(|(x, y)| x.1 && y.1)
        .map(|(x, y)| (x.0, y.0))
        .unzip()
}

/// The largest change of one channel between two colours.
#[must_use]
pub fn largest_change([a, b]: [[f64; 3]; 2]) -> f64 {
    (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f64::max)
}

/// Pearson correlation of two series (1 for two flat series alike, 0 for one flat).
#[must_use]
pub fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().max(1) as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        ab += (x - ma) * (y - mb);
        aa += (x - ma) * (x - ma);
        bb += (y - mb) * (y - mb);
    }
    if aa == 0.0 || bb == 0.0 {
        return if aa == bb { 1.0 } else { 0.0 };
    }
    ab / (aa * bb).sqrt()
}

/// How two frames of one view agree over the material: the largest move of a band's
/// mean colour and the pattern's correlation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    /// The largest channel change of the material's mean colour over any band of
    /// `rows` rows that the material covers at least half of in both frames, codes.
    pub worst_band: f64,
    /// Correlation of the 8 × 8 block luminance where the material covers both frames
    /// whole.
    pub pattern: f64,
}

/// `a` against `b` (the same size), in bands of `rows` rows.
#[must_use]
pub fn agreement(a: &Image, b: &Image, rows: u32) -> Agreement {
    let rows = rows.max(1);
    let mut worst_band = 0.0f64;
    for top in (0..a.height.min(b.height)).step_by(rows as usize) {
        let (x, y) = (a.rows(top, rows), b.rows(top, rows));
        if x.coverage() < 0.5 || y.coverage() < 0.5 {
            continue;
        }
        if let (Some(p), Some(q)) = (x.mean_color(), y.mean_color()) {
            worst_band = worst_band.max(largest_change([srgb_codes(p), srgb_codes(q)]));
        }
    }
    let (x, y) = covered_block_luminance(a, b);
    Agreement {
        worst_band,
        pattern: correlation(&x, &y),
    }
}

impl Image {
    /// Rows `top..top + n` of the frame (fewer at the bottom).
    #[must_use]
    pub fn rows(&self, top: u32, n: u32) -> Self {
        self.crop(0, top, self.width, n)
    }

    /// The `w` × `h` rectangle whose top left is `(x, y)`, cut to the frame.
    #[must_use]
    pub fn crop(&self, x: u32, y: u32, w: u32, h: u32) -> Self {
        let (x, y) = (x.min(self.width), y.min(self.height));
        let (right, bottom) = (
            x.saturating_add(w).min(self.width),
            y.saturating_add(h).min(self.height),
        );
        let stride = self.width as usize * 4;
        let rgba = (y..bottom)
            .flat_map(|row| {
                let start = row as usize * stride;
                &self.rgba[start + x as usize * 4..start + right as usize * 4]
            })
            .copied()
            .collect();
        Self {
            width: right - x,
            height: bottom - y,
            rgba,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(width: u32, height: u32, rgba: [u8; 4]) -> Image {
        Image {
            width,
            height,
            rgba: rgba.repeat((width * height) as usize),
        }
    }

    #[test]
    fn a_band_that_moved_is_found_and_a_pattern_is_its_own() {
        let a = flat(16, 40, [100, 120, 60, 255]);
        let mut b = a.clone();
        // Rows 20..40 five codes greener.
        for p in b.rgba[16 * 20 * 4..].chunks_exact_mut(4) {
            p[1] += 5;
        }
        let seen = agreement(&a, &b, 20);
        assert!((seen.worst_band - 5.0).abs() < 0.05, "{seen:?}");
        // A pattern correlates with itself and not with its negative.
        let ramp: Vec<f64> = (0..10).map(f64::from).collect();
        let down: Vec<f64> = ramp.iter().map(|x| -x).collect();
        assert!((correlation(&ramp, &ramp) - 1.0).abs() < 1e-12);
        assert!((correlation(&ramp, &down) + 1.0).abs() < 1e-12);
        // Sky (no material) is no band at all.
        let sky = flat(16, 40, [200, 210, 230, 0]);
        assert_eq!(agreement(&sky, &b, 20).worst_band, 0.0);
    }

    #[test]
    fn a_crop_holds_the_pixels_of_its_rectangle_and_stops_at_the_edges() {
        let image = Image {
            width: 4,
            height: 3,
            rgba: (0..12u8).flat_map(|i| [i, 0, 0, 255]).collect(),
        };
        let red = |i: &Image| -> Vec<u8> { i.rgba.chunks_exact(4).map(|p| p[0]).collect() };
        let middle = image.crop(1, 1, 2, 2);
        assert_eq!((middle.width, middle.height), (2, 2));
        assert_eq!(red(&middle), [5, 6, 9, 10]);
        let past = image.crop(3, 2, 10, 10);
        assert_eq!((past.width, past.height, red(&past)), (1, 1, vec![11]));
        assert_eq!(image.crop(9, 9, 1, 1).rgba.len(), 0);
        assert_eq!(red(&image.rows(1, 1)), [4, 5, 6, 7]);
    }
}
