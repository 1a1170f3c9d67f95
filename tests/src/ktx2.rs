//! A reader of the KTX2 files a bake writes: the header's format, size and level count,
//! and each level decompressed (Zstandard).

/// A KTX2 file read back.
#[derive(Debug)]
pub struct Ktx2 {
    /// The Vulkan format number.
    pub vk_format: u32,
    /// Mip 0's side.
    pub side: u32,
    /// Every mip, mip 0 first, decompressed (as stored: RGBA8 texels or BC7 blocks).
    pub mips: Vec<Vec<u8>>,
    /// The data format descriptor, as stored.
    pub dfd: Vec<u8>,
}

impl Ktx2 {
    /// Whether the texels are BC7 blocks.
    #[must_use]
    pub fn is_bc7(&self) -> bool {
        [tuft_bake::ktx2::VK_BC7_SRGB, tuft_bake::ktx2::VK_BC7_UNORM].contains(&self.vk_format)
    }

    /// Mip `k` as RGBA8 texels, BC7 blocks decoded (by `texture2ddecoder`, not the
    /// encoder's own code).
    ///
    /// # Panics
    /// When the blocks do not decode.
    #[must_use]
    pub fn rgba(&self, k: usize) -> Vec<u8> {
        if !self.is_bc7() {
            return self.mips[k].clone();
        }
        let side = (self.side >> k).max(1) as usize;
        let padded = side.next_multiple_of(4);
        let mut texels = vec![0u32; padded * padded];
        texture2ddecoder::decode_bc7(&self.mips[k], padded, padded, &mut texels)
            .unwrap_or_else(|e| panic!("mip {k}: {e}"));
        let mut out = Vec::with_capacity(side * side * 4);
        for y in 0..side {
            for x in 0..side {
                // BGRA in a little-endian word.
                let [b, g, r, a] = texels[y * padded + x].to_le_bytes();
                out.extend([r, g, b, a]);
            }
        }
        out
    }
}

impl Ktx2 {
    /// Reads `path`.
    ///
    /// # Panics
    /// When the file is not a KTX2 file of the kind a bake writes.
    #[must_use]
    pub fn read(path: &std::path::Path) -> Self {
        let file = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            file[..12],
            tuft_bake::ktx2::IDENTIFIER,
            "{}",
            path.display()
        );
        let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
        let long = |at: usize| u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
        assert_eq!(word(44), 2, "Zstandard supercompression");
        let levels = word(40) as usize;
        let mips = (0..levels)
            .map(|k| {
                let at = 80 + 24 * k;
                let (offset, len, raw) = (long(at), long(at + 8), long(at + 16));
                let mut d =
                    ruzstd::decoding::StreamingDecoder::new(&file[offset..offset + len]).unwrap();
                let mut out = Vec::new();
                std::io::Read::read_to_end(&mut d, &mut out).unwrap();
                assert_eq!(out.len(), raw, "level {k}");
                out
            })
            .collect();
        let (dfd_at, dfd_len) = (word(48) as usize, word(52) as usize);
        Self {
            vk_format: word(12),
            side: word(20),
            mips,
            dfd: file[dfd_at..dfd_at + dfd_len].to_vec(),
        }
    }
}
