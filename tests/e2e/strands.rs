//! Strand sets through the whole pipeline: the lawn's strand file is deterministic, an
//! independent reader written from the format description accepts it in both schemes,
//! meshes from the quantised file stay within its bounds, and the relief the PBR half
//! reads tiles.

use tuft_bake as bake;
use tuft_graph::Evaluator;
use tuft_tests::root;

fn lawn() -> tuft_graph::MaterialGraph {
    tuft_graph::io::load(&root().join("presets/lawn.ron"))
        .unwrap()
        .graph
}

/// The lawn's strand file, and its first layer's cards and finest level mesh, made
/// with `threads` threads in every pool the bake uses: rayon's (the graph's fields)
/// and `tuft_strands::par`'s (the scatter's buckets, the cards, the meshes), whose
/// splits are cut by their thread count.
fn made_with(graph: &tuft_graph::MaterialGraph, threads: usize) -> (Vec<u8>, [u32; 3]) {
    tuft_strands::par::set_threads(Some(threads));
    let made = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| {
            let file = bake::strand_file(&Evaluator::new(graph)).unwrap();
            let (name, set) = &file.layers[0];
            let layer = &graph.strands[name];
            let group = tuft_strands::cards::group(
                set,
                layer.clump_lattice,
                graph.repeat_m,
                layer.cards.atlas_cells,
            );
            let tiles = tuft_strands::mesh::repeat_tiles(set, graph.repeat_m, layer.profile);
            let mesh = tuft_strands::mesh::level_mesh(&tiles, layer.profile, 1.0, 1.0, &[]);
            let crc = tuft_strands::crc::crc32;
            let made = [
                crc(format!("{group:?}").as_bytes()),
                crc(bytemuck::cast_slice(&mesh.vertices)),
                crc(bytemuck::cast_slice(&mesh.indices)),
            ];
            (tuft_strands::file::encode(&file), made)
        });
    tuft_strands::par::set_threads(None);
    made
}

#[test]
fn the_lawn_strand_file_cards_and_meshes_are_identical_on_any_number_of_threads() {
    let g = lawn();
    let one = made_with(&g, 1);
    for threads in [2, 3, 7] {
        let other = made_with(&g, threads);
        assert!(
            one.0 == other.0,
            "the strand files of 1 and {threads} threads differ"
        );
        assert!(
            one.1 == other.1,
            "the cards or meshes of 1 and {threads} threads differ"
        );
    }
    assert!(one == made_with(&g, 1), "two runs differ");
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

/// A field as the independent reader finds it: name, components, kind (0 f32, 1 u32),
/// encoding code, and the values decoded (as f64).
type ReadField = (String, u8, u8, u8, Vec<f64>);

/// A reader written from the format description alone (`engine/strands/src/file/mod.rs`
/// and its `encoding` table), versions 1 and 2, every encoding. Returns, per layer, its
/// name, strand count and fields.
fn independent_read(bytes: &[u8]) -> Vec<(String, usize, Vec<ReadField>)> {
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    assert_eq!(&bytes[0..8], b"TUFTSTRD");
    let version = u16_at(8);
    assert!(version == 1 || version == 2, "version {version}");
    let scheme = u16_at(10);
    assert!(
        scheme == 0 || (version == 2 && scheme == 1),
        "scheme {scheme}"
    );
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
        // (name, components, kind, encoding, parameters as u32 words)
        let mut fields = Vec::new();
        for _ in 0..n_fields {
            let len = u16_at(at) as usize;
            let fname = String::from_utf8(bytes[at + 2..at + 2 + len].to_vec()).unwrap();
            at += 2 + len;
            let (components, kind) = (bytes[at], bytes[at + 1]);
            at += 2;
            assert!((1..=4).contains(&components) && kind <= 1);
            let (encoding, words) = if version == 1 {
                (0, 0)
            } else {
                at += 1;
                match bytes[at - 1] {
                    1 => (1, usize::from(components)),
                    2 => (2, 2 * usize::from(components)),
                    e => (e, 0),
                }
            };
            let params: Vec<u32> = (0..words).map(|w| u32_at(at + 4 * w)).collect();
            at += 4 * words;
            if scheme == 0 {
                assert_eq!(encoding, 0, "a stored file's fields are raw");
            }
            fields.push((fname, components, kind, encoding, params));
        }
        let offset = u64_at(at) as usize;
        let length = u64_at(at + 8) as usize;
        let crc = u32_at(at + 16);
        at += 20;
        if version == 2 {
            assert_eq!(offset % 16, 0, "payload of {name} is aligned");
        }
        let payload = &bytes[offset..offset + length];
        assert_eq!(crc32_bitwise(payload), crc, "payload CRC of {name}");
        let mut p = 0;
        let fields = fields
            .into_iter()
            .map(|(fname, c, k, e, params)| {
                let count = n * usize::from(c);
                let f = |w: u32| f64::from(f32::from_bits(w));
                let at16 =
                    |i: usize| u16::from_le_bytes([payload[p + 2 * i], payload[p + 2 * i + 1]]);
                let (values, size): (Vec<f64>, usize) = match e {
                    0 => (
                        (0..count)
                            .map(|i| {
                                let w = u32::from_le_bytes(
                                    payload[p + 4 * i..p + 4 * i + 4].try_into().unwrap(),
                                );
                                if k == 0 { f(w) } else { f64::from(w) }
                            })
                            .collect(),
                        4,
                    ),
                    1 => (
                        (0..count)
                            .map(|i| {
                                let w = params[i % usize::from(c)];
                                if k == 0 { f(w) } else { f64::from(w) }
                            })
                            .collect(),
                        0,
                    ),
                    2 => (
                        (0..count)
                            .map(|i| {
                                let j = i % usize::from(c);
                                let (lo, hi) = (f(params[2 * j]), f(params[2 * j + 1]));
                                lo + (hi - lo) * f64::from(at16(i)) / 65535.0
                            })
                            .collect(),
                        2,
                    ),
                    3 => (
                        (0..count).map(|i| f64::from(at16(i)) / 65536.0).collect(),
                        2,
                    ),
                    4 => (
                        (0..count)
                            .map(|i| {
                                let s = f64::from(payload[p + i]) / 255.0;
                                if s <= 0.04045 {
                                    s / 12.92
                                } else {
                                    ((s + 0.055) / 1.055).powf(2.4)
                                }
                            })
                            .collect(),
                        1,
                    ),
                    5 => ((0..count).map(|i| f64::from(at16(i))).collect(), 2),
                    e => panic!("{name}.{fname}: unknown encoding {e}"),
                };
                let stored = count * size;
                let padded = if version == 2 {
                    stored.div_ceil(16) * 16
                } else {
                    stored
                };
                assert!(payload[p + stored..p + padded].iter().all(|&b| b == 0));
                p += padded;
                (fname, c, k, e, values)
            })
            .collect();
        assert_eq!(p, length, "payload of {name} holds exactly its fields");
        layers.push((name, n, fields));
    }
    layers
}

#[test]
fn an_independent_reader_accepts_the_baked_lawn_in_both_schemes() {
    let file = bake::strand_file(&Evaluator::new(&lawn())).unwrap();
    let stored = independent_read(&tuft_strands::file::encode(&file));
    let quantised_bytes =
        tuft_strands::file::encode_with(&file, tuft_strands::file::Scheme::Quantised);
    let quantised = independent_read(&quantised_bytes);
    assert_eq!(stored.len(), 3);
    let mut total = 0;
    for ((name, n, fields), (_, nq, qfields)) in stored.iter().zip(&quantised) {
        assert_eq!(n, nq);
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
            let (_, fc, fk, _, _) = field(f);
            assert_eq!((*fc, *fk), (c, k), "{name}.{f}");
        }
        let ranks = &field("rank").4;
        assert!(ranks.iter().all(|r| (0.0..1.0).contains(r)), "{name}");
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "{name} ranks ascend"
        );
        assert!(field("root_uv").4.iter().all(|x| (0.0..1.0).contains(x)));
        assert!(field("length").4.iter().all(|&x| x > 0.0));
        // The quantised file, read independently, holds the same strands within the
        // bounds the format states.
        for (a, b) in fields.iter().zip(qfields) {
            assert_eq!((&a.0, a.1, a.2), (&b.0, b.1, b.2));
            let bound = match b.3 {
                0 | 1 | 5 => 0.0,
                2 => {
                    let (lo, hi) =
                        b.4.iter()
                            .fold((f64::MAX, f64::MIN), |r, &x| (r.0.min(x), r.1.max(x)));
                    (hi - lo) / 131_070.0 + 1e-6
                }
                3 => 1.0 / 65536.0,
                4 => 0.5 / 255.0 * 2.5, // half a code, through sRGB's steepest slope
                e => panic!("encoding {e}"),
            };
            for (x, y) in a.4.iter().zip(&b.4) {
                assert!(
                    (x - y).abs() <= bound,
                    "{name}.{}: {x} → {y} (bound {bound})",
                    a.0
                );
            }
        }
        // And the library's reader agrees with it.
        let lib = tuft_strands::file::decode(&quantised_bytes).unwrap();
        let set = &lib.layers.iter().find(|(l, _)| l == name).unwrap().1;
        let q = |f: &str| &qfields.iter().find(|x| x.0 == f).unwrap().4;
        for (x, y) in q("length").iter().zip(&set.length) {
            assert!((x - f64::from(*y)).abs() <= 1e-6, "length {x} against {y}");
        }
        for (x, y) in q("tip_color").iter().zip(set.tip_color.iter().flatten()) {
            assert!(
                (x - f64::from(*y)).abs() <= 1e-6,
                "tip colour {x} against {y}"
            );
        }
    }
    assert!((200_000..300_000).contains(&total), "{total} strands");
    let per_strand = quantised_bytes.len() as f64 / total as f64;
    assert!(
        per_strand <= 32.0,
        "{per_strand:.1} bytes a strand quantised"
    );
}

#[test]
fn meshes_from_the_quantised_lawn_differ_within_the_bounds_and_cut_the_same_strands() {
    let graph = lawn();
    let file = bake::strand_file(&Evaluator::new(&graph)).unwrap();
    let quantised = tuft_strands::file::decode(&tuft_strands::file::encode_with(
        &file,
        tuft_strands::file::Scheme::Quantised,
    ))
    .unwrap();
    for ((name, a), (_, b)) in file.layers.iter().zip(&quantised.layers) {
        let layer = &graph.strands[name];
        let (ta, tb) = (
            tuft_strands::mesh::repeat_tiles(a, graph.repeat_m, layer.profile),
            tuft_strands::mesh::repeat_tiles(b, graph.repeat_m, layer.profile),
        );
        for (k, &keep) in layer.levels.keep.iter().enumerate() {
            assert_eq!(a.level_len(keep), b.level_len(keep), "{name} level {k}");
            let widen = layer.levels.widen(k);
            let (ma, mb) = (
                tuft_strands::mesh::level_mesh(&ta, layer.profile, keep, widen, &[]),
                tuft_strands::mesh::level_mesh(&tb, layer.profile, keep, widen, &[]),
            );
            assert_eq!(ma.vertices.len(), mb.vertices.len(), "{name} level {k}");
            assert_eq!(ma.indices.len(), mb.indices.len(), "{name} level {k}");
        }
        // On one tile (so no root a few µm from a tile's edge changes tiles) the strands
        // come in the same order, and every vertex is within the bounds: roots 2 m /
        // 131070 = 15 µm, lengths, lean and pulls under 1 µm each, colours half an sRGB
        // code.
        let one_tile = |set| {
            let plane = tuft_strands::surface::Surface::plane(graph.repeat_m, 1, 1.0);
            let placed = tuft_strands::placement::place(set, &plane, graph.repeat_m);
            tuft_strands::mesh::build_tiles(set, &placed, layer.profile).remove(0)
        };
        let (x, y) = (one_tile(a), one_tile(b));
        assert_eq!(x.vertices.len(), y.vertices.len(), "{name}");
        assert_eq!(x.indices(), y.indices(), "{name}");
        let (mut worst_mm, mut worst_colour) = (0.0f32, 0.0f32);
        for (u, v) in (0..x.drawn_vertices()).map(|i| (x.vertex(i), y.vertex(i))) {
            let d = (0..3)
                .map(|c| (u.position[c] - v.position[c]).powi(2))
                .sum::<f32>()
                .sqrt();
            worst_mm = worst_mm.max(d * 1000.0);
            for c in 0..3 {
                let codes = (tuft_strands::num::linear_to_srgb(u.color[c])
                    - tuft_strands::num::linear_to_srgb(v.color[c]))
                .abs()
                    * 255.0;
                worst_colour = worst_colour.max(codes);
            }
        }
        println!("{name}: worst vertex {worst_mm:.4} mm, worst colour {worst_colour:.2} codes");
        // The sum of the field bounds is under 0.02 mm; a ribbon's facing turns with its
        // lean, so a near-upright blade's edge can move more (0.040 mm measured), and
        // each mesh packs its positions within half a step of its tile's frame (0.012 mm
        // on this tile; 0.051 mm measured in all).
        assert!(worst_mm <= 0.1, "{name}: a vertex moved {worst_mm} mm");
        assert!(
            worst_colour <= 1.0,
            "{name}: a colour moved {worst_colour} codes"
        );
        assert!(
            worst_mm > 0.0,
            "{name}: quantised meshes are not bit-identical"
        );
    }
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
