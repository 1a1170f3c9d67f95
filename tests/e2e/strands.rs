//! Strand sets through the whole pipeline: the lawn's strand file is deterministic, an
//! independent reader written from the format description accepts it, and the relief
//! the PBR half reads tiles.

use tuft_graph::{Evaluator, bake};
use tuft_tests::root;

fn lawn() -> tuft_graph::MaterialGraph {
    tuft_graph::io::load(&root().join("presets/lawn.ron"))
        .unwrap()
        .graph
}

fn strand_bytes(graph: &tuft_graph::MaterialGraph, threads: usize) -> Vec<u8> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| {
            let file = bake::strand_file(&Evaluator::new(graph)).unwrap();
            tuft_strands::file::encode(&file)
        })
}

#[test]
fn the_lawn_strand_file_is_byte_identical_on_one_or_two_threads_and_twice() {
    let g = lawn();
    let one = strand_bytes(&g, 1);
    let two = strand_bytes(&g, 2);
    assert!(one == two, "1 and 2 threads differ");
    assert!(two == strand_bytes(&g, 2), "two runs differ");
}

/// CRC-32 (IEEE), bit by bit, written from its definition rather than shared with the
/// codec under test.
fn crc32_bitwise(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xedb8_8320 & mask);
        }
    }
    !crc
}

/// A reader written from DESIGN.md's "Strand file, version 1" section alone. Returns,
/// per layer, its name, strand count and fields (name → (components, kind, values as
/// raw u32 words)).
#[allow(clippy::type_complexity)]
fn independent_read(bytes: &[u8]) -> Vec<(String, usize, Vec<(String, u8, u8, Vec<u32>)>)> {
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    assert_eq!(&bytes[0..8], b"TUFTSTRD");
    assert_eq!(u16_at(8), 1, "version");
    assert_eq!(u16_at(10), 0, "scheme");
    let n_layers = u32_at(12) as usize;
    let repeat = f32::from_bits(u32_at(16));
    assert!(repeat > 0.0);
    assert_eq!(u32_at(20), 0, "reserved");
    assert_eq!(u64_at(24), bytes.len() as u64, "total length");
    let body = bytes.len() - 4;
    assert_eq!(u32_at(body), crc32_bitwise(&bytes[..body]), "trailer CRC");
    let mut at = 32;
    let mut layers = Vec::new();
    for _ in 0..n_layers {
        let name_len = u16_at(at) as usize;
        let name = String::from_utf8(bytes[at + 2..at + 2 + name_len].to_vec()).unwrap();
        at += 2 + name_len;
        let n = u32_at(at) as usize;
        let n_fields = u16_at(at + 4) as usize;
        at += 6;
        let mut fields = Vec::new();
        for _ in 0..n_fields {
            let len = u16_at(at) as usize;
            let fname = String::from_utf8(bytes[at + 2..at + 2 + len].to_vec()).unwrap();
            at += 2 + len;
            let (components, kind) = (bytes[at], bytes[at + 1]);
            at += 2;
            assert!((1..=4).contains(&components) && kind <= 1);
            fields.push((fname, components, kind));
        }
        let offset = u64_at(at) as usize;
        let length = u64_at(at + 8) as usize;
        let crc = u32_at(at + 16);
        at += 20;
        let payload = &bytes[offset..offset + length];
        assert_eq!(crc32_bitwise(payload), crc, "payload CRC of {name}");
        let mut p = 0;
        let fields = fields
            .into_iter()
            .map(|(fname, c, k)| {
                let words: Vec<u32> = (0..n * usize::from(c))
                    .map(|i| {
                        u32::from_le_bytes(payload[p + 4 * i..p + 4 * i + 4].try_into().unwrap())
                    })
                    .collect();
                p += words.len() * 4;
                (fname, c, k, words)
            })
            .collect();
        assert_eq!(p, length, "payload of {name} holds exactly its fields");
        layers.push((name, n, fields));
    }
    layers
}

#[test]
fn an_independent_reader_accepts_the_baked_lawn() {
    let bytes = strand_bytes(&lawn(), 2);
    let layers = independent_read(&bytes);
    assert_eq!(layers.len(), 3);
    let mut total = 0;
    for (name, n, fields) in &layers {
        total += n;
        let field = |f: &str| {
            fields
                .iter()
                .find(|x| x.0 == f)
                .unwrap_or_else(|| panic!("{name} lacks {f}"))
        };
        for (f, c, k) in [
            ("root_uv", 2, 0),
            ("rank", 1, 0),
            ("clump", 1, 1),
            ("length", 1, 0),
            ("width", 1, 0),
        ] {
            let (_, fc, fk, _) = field(f);
            assert_eq!((*fc, *fk), (c, k), "{name}.{f}");
        }
        let ranks: Vec<f32> = field("rank").3.iter().map(|&w| f32::from_bits(w)).collect();
        assert!(ranks.iter().all(|r| (0.0..1.0).contains(r)), "{name}");
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "{name} ranks ascend"
        );
        assert!(
            field("root_uv")
                .3
                .iter()
                .all(|&w| (0.0..1.0).contains(&f32::from_bits(w)))
        );
        assert!(field("length").3.iter().all(|&w| f32::from_bits(w) > 0.0));
    }
    assert!((200_000..300_000).contains(&total), "{total} strands");
}

#[test]
fn the_relief_the_lawn_reads_tiles_seamlessly() {
    let g = lawn();
    let relief = g
        .nodes
        .iter()
        .find(|n| n.kind == "StrandRelief")
        .unwrap()
        .id;
    let ev = Evaluator::new(&g);
    let grid = tuft_graph::Domain::grid(256, 256);
    for port in ["coverage", "mass", "occlusion", "height", "color"] {
        let f = ev
            .eval_output(&tuft_graph::OutRef::new(relief, port), &grid)
            .unwrap();
        let c = f.ty.channels();
        let (mut wrap, mut interior) = (0.0f32, 0.0f32);
        for y in 0..256 {
            for x in 0..256 {
                for k in 0..c {
                    let here = f.at(k, y * 256 + x);
                    let right = f.at(k, y * 256 + (x + 1) % 256);
                    let down = f.at(k, ((y + 1) % 256) * 256 + x);
                    let (h, v) = ((here - right).abs(), (here - down).abs());
                    if x == 255 {
                        wrap = wrap.max(h);
                    } else {
                        interior = interior.max(h);
                    }
                    if y == 255 {
                        wrap = wrap.max(v);
                    } else {
                        interior = interior.max(v);
                    }
                }
            }
        }
        assert!(interior > 0.0, "{port} is flat");
        assert!(
            wrap <= interior,
            "{port}: {wrap} across the edge, {interior} inside"
        );
    }
    assert!(ev.diagnostics().is_empty(), "{:?}", ev.diagnostics());
}
