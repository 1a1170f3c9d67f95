//! A reader of the KTX2 files a bake writes: the header's format, size and level count,
//! and each level decompressed (Zstandard).

/// A KTX2 file read back.
#[derive(Debug)]
pub struct Ktx2 {
    /// The Vulkan format number.
    pub vk_format: u32,
    /// Mip 0's side.
    pub side: u32,
    /// Every mip, mip 0 first, decompressed.
    pub mips: Vec<Vec<u8>>,
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
            tuft_graph::ktx2::IDENTIFIER,
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
        Self {
            vk_format: word(12),
            side: word(20),
            mips,
        }
    }
}
