//! KTX2 textures: RGBA8 images with their whole mip chain, Zstandard-supercompressed, so
//! an engine loads the chain Tuft computed (the card atlas's coverage-preserving mips)
//! instead of regenerating it with a box filter.
//!
//! Layout (KTX 2.0): the 12-byte identifier; the header (`vkFormat`
//! `R8G8B8A8_SRGB` (43) for colour or `R8G8B8A8_UNORM` (37) for data, `typeSize` 1, the
//! mip 0 size, depth, layer and face counts 0, 0, 1, the level count, supercompression
//! 2 = Zstandard); the index (data format descriptor, key/value data, no supercompression
//! global data); the level index (offset, compressed and uncompressed lengths of each
//! mip, mip 0 first); the data format descriptor (one basic block: RGBA, 8 bits a
//! channel, sRGB or linear transfer, alpha straight); one key/value pair
//! (`KTXwriter`); then the mips, smallest first, each compressed alone.

use rayon::prelude::*;

/// `VK_FORMAT_R8G8B8A8_SRGB`.
pub const VK_R8G8B8A8_SRGB: u32 = 43;
/// `VK_FORMAT_R8G8B8A8_UNORM`.
pub const VK_R8G8B8A8_UNORM: u32 = 37;
/// `VK_FORMAT_BC7_SRGB_BLOCK`.
pub const VK_BC7_SRGB: u32 = 146;
/// `VK_FORMAT_BC7_UNORM_BLOCK`.
pub const VK_BC7_UNORM: u32 = 145;

/// The file identifier.
pub const IDENTIFIER: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];

/// How a KTX2 file stores its texels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Codec {
    /// Four bytes a texel, exactly the mips Tuft computed; any engine uploads them.
    #[default]
    Rgba8,
    /// BC7 blocks (16 bytes per 4 × 4 texels, a quarter of RGBA8 before Zstandard),
    /// which desktop GPUs sample as they are; lossy, through Intel's ISPC texture
    /// compressor (`intel_tex_2`). Mips under 4 × 4 fill one block, their texels
    /// repeated.
    Bc7,
}

impl Codec {
    /// Every codec, by the name the command line takes.
    pub const NAMES: [(&str, Self); 2] = [("rgba8", Self::Rgba8), ("bc7", Self::Bc7)];

    /// The codec called `name`, or a message listing the valid names.
    ///
    /// # Errors
    /// An unknown name.
    pub fn from_name(name: &str) -> Result<Self, String> {
        crate::targets::by_name(&Self::NAMES, name, "texture codec")
    }

    /// The codec's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        crate::targets::name_of(&Self::NAMES, self)
    }

    /// The Vulkan format of a file of this codec, sRGB colour or linear data.
    #[must_use]
    pub const fn vk_format(self, srgb: bool) -> u32 {
        match (self, srgb) {
            (Self::Rgba8, true) => VK_R8G8B8A8_SRGB,
            (Self::Rgba8, false) => VK_R8G8B8A8_UNORM,
            (Self::Bc7, true) => VK_BC7_SRGB,
            (Self::Bc7, false) => VK_BC7_UNORM,
        }
    }

    /// One mip's texels (RGBA8, `side` square) as this codec stores them; `cutoff`, the
    /// alpha an engine tests against, if any.
    fn level(self, side: usize, rgba: &[u8], cutoff: Option<u8>) -> Vec<u8> {
        match self {
            Self::Rgba8 => rgba.to_vec(),
            Self::Bc7 => {
                let Some(cut) = cutoff else {
                    return bc7(side, rgba);
                };
                // BC7 moves alpha by a few codes; near the cutoff that moves texels
                // across it, so they are first moved clear of it on their own side.
                let mut clear = rgba.to_vec();
                for p in clear.chunks_exact_mut(4) {
                    p[3] = if p[3] >= cut {
                        p[3].max(cut.saturating_add(ALPHA_CLEARANCE))
                    } else {
                        p[3].min(cut.saturating_sub(ALPHA_CLEARANCE))
                    };
                }
                bc7(side, &clear)
            }
        }
    }
}

/// How far from an alpha-tested texture's cutoff its alpha is moved before BC7, codes.
const ALPHA_CLEARANCE: u8 = 12;

/// A mip as BC7 blocks: sides under 4 fill one block with their texels repeated (as the
/// texture tiles).
fn bc7(side: usize, rgba: &[u8]) -> Vec<u8> {
    let padded = side.next_multiple_of(4);
    let texels: std::borrow::Cow<'_, [u8]> = if padded == side {
        rgba.into()
    } else {
        let mut out = vec![0u8; padded * padded * 4];
        for y in 0..padded {
            for x in 0..padded {
                let from = ((y % side) * side + x % side) * 4;
                out[(y * padded + x) * 4..][..4].copy_from_slice(&rgba[from..from + 4]);
            }
        }
        out.into()
    };
    // Opaque images take the encoder's opaque modes, which spend no bits on alpha.
    let settings = if texels.chunks_exact(4).all(|p| p[3] == 255) {
        intel_tex_2::bc7::opaque_basic_settings()
    } else {
        intel_tex_2::bc7::alpha_basic_settings()
    };
    // Bands of block rows are encoded on the pool's threads: blocks are stored row by
    // row, so the bands' blocks follow one another.
    const BAND_ROWS: usize = 16;
    let row_texels = padded * 4 * 4;
    let row_blocks = padded / 4 * 16;
    let mut blocks = vec![0u8; padded / 4 * row_blocks];
    blocks
        .par_chunks_mut(row_blocks * BAND_ROWS)
        .zip(texels.par_chunks(row_texels * BAND_ROWS))
        .for_each(|(out, band)| {
            let surface = intel_tex_2::RgbaSurface {
                width: padded as u32,
                height: (band.len() / (padded * 4)) as u32,
                stride: padded as u32 * 4,
                data: band,
            };
            intel_tex_2::bc7::compress_blocks_into(&settings, &surface, out);
        });
    blocks
}

/// The Zstandard level every KTX2 level is supercompressed at (the manifest says it).
/// Measured on the lawn's KTX2 files (18.9 MB of levels, `BENCHMARKS.md`): level 1 (what
/// a pure-Rust encoder reaches) 9.2 MB, level 12 7.1 MB in 2 s on one core, level 19 6.6
/// MB in 20 s. Twelve keeps a default bake's time, and most of level 19's gain.
pub const ZSTD_LEVEL: i32 = 12;

/// A KTX2 file of `mips` (mip 0 first, each `side >> k` square, RGBA8) stored as `codec`
/// says, sRGB colour when `srgb`, else linear data. `alpha_cutoff` is the alpha an
/// engine tests the texture against, when it is alpha-tested: a lossy codec keeps every
/// texel on its side of it.
///
/// # Panics
/// When a mip's length is not four bytes a texel of its side (a caller's bug).
#[must_use]
pub fn encode(
    side: u32,
    mips: &[&[u8]],
    srgb: bool,
    codec: Codec,
    alpha_cutoff: Option<f32>,
) -> Vec<u8> {
    let cutoff = alpha_cutoff.map(|c| (c.clamp(0.0, 1.0) * 255.0).ceil() as u8);
    for (k, mip) in mips.iter().enumerate() {
        let s = (side >> k).max(1) as usize;
        assert_eq!(mip.len(), s * s * 4, "mip {k} of a {side} texture");
    }
    let levels = mips.len() as u32;
    let dfd = descriptor(srgb, codec);
    let kvd = key_value("KTXwriter", "Tuft");
    let header_len = 12 + 9 * 4;
    let index_len = 4 * 4 + 2 * 8;
    let level_index_len = 24 * mips.len();
    let dfd_offset = header_len + index_len + level_index_len;
    let kvd_offset = dfd_offset + dfd.len();
    let mut data_offset = kvd_offset + kvd.len();
    data_offset = data_offset.next_multiple_of(8);
    let stored: Vec<Vec<u8>> = mips
        .iter()
        .enumerate()
        .map(|(k, m)| codec.level((side >> k).max(1) as usize, m, cutoff))
        .collect();
    let compressed: Vec<Vec<u8>> = stored
        .iter()
        .map(|m| zstd::bulk::compress(m, ZSTD_LEVEL).expect("compressing into memory cannot fail"))
        .collect();
    // Mips are stored smallest first.
    let mut offsets = vec![0usize; mips.len()];
    let mut at = data_offset;
    for k in (0..mips.len()).rev() {
        offsets[k] = at;
        at += compressed[k].len();
    }
    let mut out = Vec::with_capacity(at);
    out.extend_from_slice(&IDENTIFIER);
    for word in [codec.vk_format(srgb), 1, side, side, 0, 0, 1, levels, 2] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    for word in [
        dfd_offset as u32,
        dfd.len() as u32,
        kvd_offset as u32,
        kvd.len() as u32,
    ] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    for k in 0..mips.len() {
        for word in [offsets[k], compressed[k].len(), stored[k].len()] {
            out.extend_from_slice(&(word as u64).to_le_bytes());
        }
    }
    out.extend_from_slice(&dfd);
    out.extend_from_slice(&kvd);
    out.resize(data_offset, 0);
    for k in (0..mips.len()).rev() {
        out.extend_from_slice(&compressed[k]);
    }
    out
}

/// The data format descriptor: its total size, then one basic block. RGBA8: model
/// RGBSDA, 1 × 1 texels of 4 bytes, four 8-bit samples; BC7: model BC7, 4 × 4 texels of
/// 16 bytes, one 128-bit sample.
fn descriptor(srgb: bool, codec: Codec) -> Vec<u8> {
    let samples: u32 = match codec {
        Codec::Rgba8 => 4,
        Codec::Bc7 => 1,
    };
    let block_len = 24 + 16 * samples;
    let mut d = Vec::new();
    d.extend_from_slice(&(4 + block_len).to_le_bytes());
    // Vendor 0 (Khronos), type 0 (basic), version 2, block size.
    d.extend_from_slice(&0u32.to_le_bytes());
    d.extend_from_slice(&(2u32 | (block_len << 16)).to_le_bytes());
    // Colour model RGBSDA (1) or BC7 (134), primaries BT.709 (1), transfer sRGB (2) or
    // linear (1), flags: alpha straight (0).
    let transfer: u8 = if srgb { 2 } else { 1 };
    let model: u8 = match codec {
        Codec::Rgba8 => 1,
        Codec::Bc7 => 134,
    };
    d.extend_from_slice(&[model, 1, transfer, 0]);
    // Texel block dimensions (stored minus one) and bytes per plane (plane 0 only).
    match codec {
        Codec::Rgba8 => {
            d.extend_from_slice(&[0, 0, 0, 0]);
            d.extend_from_slice(&[4, 0, 0, 0, 0, 0, 0, 0]);
            for (channel, k) in [(0u8, 0u32), (1, 1), (2, 2), (15, 3)] {
                // Bit offset, bit length − 1, channel type: the channel in the low four
                // bits, the qualifiers in the high four (0x80 float, 0x40 signed, 0x20
                // exponent, 0x10 linear). Alpha (15) is linear even in an sRGB texture.
                let mut flags = channel;
                if channel == 15 && srgb {
                    flags |= 0x10; // KHR_DF_SAMPLE_DATATYPE_LINEAR
                }
                d.extend_from_slice(&((k * 8) as u16).to_le_bytes());
                d.push(7);
                d.push(flags);
                d.extend_from_slice(&[0, 0, 0, 0]); // sample position
                d.extend_from_slice(&0u32.to_le_bytes()); // lower
                d.extend_from_slice(&255u32.to_le_bytes()); // upper
            }
        }
        Codec::Bc7 => {
            d.extend_from_slice(&[3, 3, 0, 0]);
            d.extend_from_slice(&[16, 0, 0, 0, 0, 0, 0, 0]);
            // One sample: the whole 128-bit block, channel 0 (BC7's colour).
            d.extend_from_slice(&0u16.to_le_bytes());
            d.push(127);
            d.push(0);
            d.extend_from_slice(&[0, 0, 0, 0]);
            d.extend_from_slice(&0u32.to_le_bytes());
            d.extend_from_slice(&u32::MAX.to_le_bytes());
        }
    }
    d
}

/// One key/value pair, padded to four bytes.
fn key_value(key: &str, value: &str) -> Vec<u8> {
    let mut pair = Vec::new();
    pair.extend_from_slice(key.as_bytes());
    pair.push(0);
    pair.extend_from_slice(value.as_bytes());
    pair.push(0);
    let mut out = (pair.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&pair);
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
    out
}

/// A box-filtered mip chain of a tiling RGBA8 image of side `side` (a power of two),
/// mip 0 first; with `normal`, each averaged texel's RGB is renormalised as a unit
/// vector.
#[must_use]
pub fn box_chain(side: u32, mip0: Vec<u8>, normal: bool) -> Vec<Vec<u8>> {
    let mut chain = vec![mip0];
    let mut s = side as usize;
    while s > 1 {
        let prev = chain.last().expect("mip 0 is there");
        let half = s / 2;
        let mut next = vec![0u8; half * half * 4];
        for y in 0..half {
            for x in 0..half {
                let mut sum = [0u32; 4];
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let i = ((2 * y + dy) * s + 2 * x + dx) * 4;
                    for c in 0..4 {
                        sum[c] += u32::from(prev[i + c]);
                    }
                }
                let mut texel = sum.map(|v| ((v + 2) / 4) as u8);
                if normal {
                    let v: [f32; 3] = std::array::from_fn(|c| sum[c] as f32 / (4.0 * 127.5) - 1.0);
                    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-6);
                    for c in 0..3 {
                        texel[c] = tuft_strands::num::to_unorm8(0.5 + 0.5 * v[c] / len);
                    }
                }
                let o = (y * half + x) * 4;
                next[o..o + 4].copy_from_slice(&texel);
            }
        }
        chain.push(next);
        s = half;
    }
    chain
}

/// The maps engines sample with mips, as KTX2 files by map name: `base_color` (sRGB),
/// `normal` (renormalised down the chain) and `orm` (linear), each with a box-filtered
/// chain (a map that is not a power of two keeps mip 0 alone).
#[must_use]
pub fn map_textures(maps: &crate::PbrMaps, codec: Codec) -> Vec<(&'static str, Vec<u8>)> {
    use tuft_strands::num::to_unorm8;
    let side = maps.resolution as u32;
    let rgba = |texel: &dyn Fn(usize) -> [u8; 3]| -> Vec<u8> {
        (0..maps.resolution * maps.resolution)
            .flat_map(|i| {
                let [r, g, b] = texel(i);
                [r, g, b, 255]
            })
            .collect()
    };
    let srgb8 = tuft_strands::num::linear_to_srgb8;
    let base = rgba(&|i| maps.base_color[i].map(srgb8));
    let normal = rgba(&|i| maps.normal[i].map(|c| to_unorm8(0.5 + 0.5 * c)));
    let orm = rgba(&|i| [maps.occlusion[i], maps.roughness[i], maps.metallic[i]].map(to_unorm8));
    [
        ("base_color", base, true, false),
        ("normal", normal, false, true),
        ("orm", orm, false, false),
    ]
    .into_iter()
    .map(|(name, mip0, is_srgb, is_normal)| {
        let chain = if side.is_power_of_two() {
            box_chain(side, mip0, is_normal)
        } else {
            vec![mip0]
        };
        let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
        (name, encode(side, &refs, is_srgb, codec, None))
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One sample of a basic descriptor block, as the Khronos Data Format Specification
    /// 1.3 lays it out (section 5.18): bit offset, bit length − 1, channel type with its
    /// qualifiers, the four sample positions, lower and upper.
    #[derive(Debug, PartialEq)]
    struct Sample {
        bit_offset: u16,
        bit_length_minus_1: u8,
        channel: u8,
        linear: bool,
        exponent: bool,
        signed: bool,
        float: bool,
        positions: [u8; 4],
        lower: u32,
        upper: u32,
    }

    /// The descriptor's fields, read as the specification defines each (not as the
    /// writer above builds them): total size, then one basic block.
    fn read_descriptor(d: &[u8]) -> (u32, [u8; 4], [u8; 4], [u8; 8], Vec<Sample>) {
        let u32_at = |i: usize| u32::from_le_bytes(d[i..i + 4].try_into().unwrap());
        let total = u32_at(0);
        assert_eq!(
            total as usize,
            d.len(),
            "dfdTotalSize is the whole descriptor"
        );
        let vendor_type = u32_at(4);
        assert_eq!(vendor_type & 0x1ffff, 0, "vendorId 0 (Khronos)");
        assert_eq!(vendor_type >> 17, 0, "descriptorType 0 (basic)");
        let version_size = u32_at(8);
        assert_eq!(version_size & 0xffff, 2, "versionNumber 2 (KDFS 1.3)");
        let block = (version_size >> 16) as usize;
        assert_eq!(4 + block, d.len(), "descriptorBlockSize");
        let model = [d[12], d[13], d[14], d[15]]; // colour model, primaries, transfer, flags
        let dims = [d[16], d[17], d[18], d[19]];
        let planes: [u8; 8] = d[20..28].try_into().unwrap();
        let samples = (block - 24) / 16;
        assert_eq!(24 + 16 * samples, block, "whole samples");
        let samples = (0..samples)
            .map(|k| {
                let s = &d[28 + 16 * k..44 + 16 * k];
                Sample {
                    bit_offset: u16::from_le_bytes([s[0], s[1]]),
                    bit_length_minus_1: s[2],
                    channel: s[3] & 0x0f,
                    linear: s[3] & 0x10 != 0,
                    exponent: s[3] & 0x20 != 0,
                    signed: s[3] & 0x40 != 0,
                    float: s[3] & 0x80 != 0,
                    positions: [s[4], s[5], s[6], s[7]],
                    lower: u32::from_le_bytes(s[8..12].try_into().unwrap()),
                    upper: u32::from_le_bytes(s[12..16].try_into().unwrap()),
                }
            })
            .collect();
        (total, model, dims, planes, samples)
    }

    /// Regression: the sRGB alpha sample was marked signed (0x40) where the
    /// specification's linear bit (0x10) was meant. Every field of every format written,
    /// against the specification's values for that format.
    #[test]
    fn the_data_format_descriptor_is_the_specifications_for_every_format_written() {
        let unsigned = |channel: u8, bit_offset: u16, linear: bool| Sample {
            bit_offset,
            bit_length_minus_1: 7,
            channel,
            linear,
            exponent: false,
            signed: false,
            float: false,
            positions: [0; 4],
            lower: 0,
            upper: 255,
        };
        for srgb in [true, false] {
            // KHR_DF_MODEL_RGBSDA (1), BT.709 primaries (1), sRGB (2) or linear (1)
            // transfer, straight alpha (flags 0); 1 × 1 × 1 × 1 texel blocks, 4 bytes in
            // plane 0; R, G, B, A of 8 bits at offsets 0, 8, 16, 24, alpha linear in an
            // sRGB texture (the transfer function never applies to alpha).
            let (_, model, dims, planes, samples) =
                read_descriptor(&descriptor(srgb, Codec::Rgba8));
            assert_eq!(model, [1, 1, if srgb { 2 } else { 1 }, 0], "srgb {srgb}");
            assert_eq!(dims, [0, 0, 0, 0]);
            assert_eq!(planes, [4, 0, 0, 0, 0, 0, 0, 0]);
            assert_eq!(
                samples,
                [
                    unsigned(0, 0, false),
                    unsigned(1, 8, false),
                    unsigned(2, 16, false),
                    unsigned(15, 24, srgb),
                ],
                "srgb {srgb}"
            );
            // KHR_DF_MODEL_BC7 (134); 4 × 4 texel blocks (stored minus one) of 16 bytes;
            // one sample, the whole 128-bit block, channel 0 (colour), 0 to 2³² − 1.
            let (_, model, dims, planes, samples) = read_descriptor(&descriptor(srgb, Codec::Bc7));
            assert_eq!(model, [134, 1, if srgb { 2 } else { 1 }, 0]);
            assert_eq!(dims, [3, 3, 0, 0]);
            assert_eq!(planes, [16, 0, 0, 0, 0, 0, 0, 0]);
            assert_eq!(
                samples,
                [Sample {
                    bit_offset: 0,
                    bit_length_minus_1: 127,
                    channel: 0,
                    linear: false,
                    exponent: false,
                    signed: false,
                    float: false,
                    positions: [0; 4],
                    lower: 0,
                    upper: u32::MAX,
                }]
            );
        }
    }

    #[test]
    fn a_file_names_its_format_levels_and_every_mip() {
        let side = 8;
        let chain = box_chain(
            side,
            (0..8 * 8 * 4).map(|i| (i % 251) as u8).collect(),
            false,
        );
        assert_eq!(chain.len(), 4);
        let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
        let file = encode(side, &refs, true, Codec::Rgba8, None);
        assert_eq!(file[..12], IDENTIFIER);
        let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
        assert_eq!(word(12), VK_R8G8B8A8_SRGB);
        assert_eq!((word(20), word(24), word(40)), (8, 8, 4));
        assert_eq!(word(44), 2, "Zstandard");
        // Each level decodes to its mip.
        for (k, mip) in chain.iter().enumerate() {
            let at = 80 + 24 * k;
            let long = |a: usize| u64::from_le_bytes(file[a..a + 8].try_into().unwrap()) as usize;
            let (offset, len, raw) = (long(at), long(at + 8), long(at + 16));
            assert_eq!(raw, mip.len());
            let mut d =
                ruzstd::decoding::StreamingDecoder::new(&file[offset..offset + len]).unwrap();
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut d, &mut out).unwrap();
            assert_eq!(&out, mip, "mip {k}");
        }
    }

    #[test]
    fn bc7_stores_a_block_per_four_by_four_texels_down_to_one_texel() {
        let side = 8;
        let chain = box_chain(
            side,
            (0..8 * 8 * 4).map(|i| (i % 7 * 30) as u8).collect(),
            false,
        );
        let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
        let file = encode(side, &refs, false, Codec::Bc7, Some(0.5));
        let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
        assert_eq!(word(12), VK_BC7_UNORM);
        let long = |a: usize| u64::from_le_bytes(file[a..a + 8].try_into().unwrap()) as usize;
        // 8 × 8 is four blocks; 4 × 4, 2 × 2 and 1 × 1 one each.
        let raw: Vec<usize> = (0..4).map(|k| long(80 + 24 * k + 16)).collect();
        assert_eq!(raw, [64, 16, 16, 16]);
        assert_eq!(Codec::from_name("bc7"), Ok(Codec::Bc7));
        assert!(Codec::from_name("astc").unwrap_err().contains("rgba8, bc7"));
    }

    #[test]
    fn bc7_in_bands_is_the_whole_image_encoded_at_once() {
        let side = 160; // 40 block rows: three bands
        let texels: Vec<u8> = (0..side * side * 4).map(|i| (i * 37 % 251) as u8).collect();
        let whole = intel_tex_2::bc7::compress_blocks(
            &intel_tex_2::bc7::alpha_basic_settings(),
            &intel_tex_2::RgbaSurface {
                width: side as u32,
                height: side as u32,
                stride: side as u32 * 4,
                data: &texels,
            },
        );
        assert!(bc7(side, &texels) == whole);
    }

    #[test]
    fn normals_stay_unit_down_the_chain() {
        // Two opposite tilts average to straight up, not to a short vector.
        let mut mip0 = Vec::new();
        for k in 0..4 {
            let x = if k % 2 == 0 { 0.6f32 } else { -0.6 };
            let n = [x, 0.0, 0.8].map(|c| tuft_strands::num::to_unorm8(0.5 + 0.5 * c));
            mip0.extend([n[0], n[1], n[2], 255]);
        }
        let chain = box_chain(2, mip0, true);
        let t = &chain[1];
        let v: Vec<f32> = t[..3].iter().map(|&c| f32::from(c) / 127.5 - 1.0).collect();
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        assert!((len - 1.0).abs() < 0.02, "{v:?}");
    }
}
