//! The scatter's promises: determinism, threshold density, rank order, clumps.

use tuft_graph::{Evaluator, Input, MaterialGraph, StrandLayer, Value, scatter_layer};
use tuft_strands::StrandSet;

fn layer_graph(layer: StrandLayer) -> MaterialGraph {
    let mut g = MaterialGraph::new("scatter");
    g.strands.insert("grass".into(), layer);
    g
}

fn scatter(g: &MaterialGraph) -> StrandSet {
    scatter_layer(&Evaluator::new(g), "grass").unwrap()
}

fn with_density(d: f32) -> StrandLayer {
    StrandLayer {
        lattice: 120,
        clump_lattice: 12,
        density: Input::Const(Value::Float(d)),
        ..Default::default()
    }
}

/// A layer whose density is a noise field, so thresholds vary over the repeat.
fn noisy_graph(scale: f32) -> MaterialGraph {
    let mut g = layer_graph(with_density(1.0));
    let noise = g.add_node("Noise").unwrap();
    let remap = g.add_node("Math").unwrap();
    let m = g.node_mut(remap).unwrap();
    m.params
        .insert("op".into(), tuft_graph::ParamValue::Choice("mul".into()));
    m.inputs
        .insert("b".into(), Input::Const(Value::Float(scale)));
    g.connect(
        tuft_graph::OutRef::new(noise, "out"),
        &tuft_graph::InRef::Node {
            node: remap,
            port: "a".into(),
        },
    )
    .unwrap();
    g.strands.get_mut("grass").unwrap().density =
        Input::Link(tuft_graph::OutRef::new(remap, "out"));
    g
}

#[test]
fn the_set_is_identical_whatever_the_thread_count() {
    let g = noisy_graph(1.0);
    // Every pool the scatter uses: rayon's (the fields) and tuft_strands::par's (the
    // buckets, cut by their thread count).
    let run = |threads| {
        tuft_strands::par::set_threads(Some(threads));
        let set = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| scatter(&g));
        tuft_strands::par::set_threads(None);
        set
    };
    let one = run(1);
    assert!(one.len() > 1000);
    for threads in [2, 3, 7] {
        assert_eq!(one, run(threads), "1 and {threads} threads");
    }
    assert_eq!(one, run(1));
}

#[test]
fn a_strand_present_at_one_density_is_present_at_every_higher_one() {
    let mut previous: Option<Vec<u32>> = None;
    for d in [0.1, 0.3, 0.5, 0.8, 1.0] {
        let set = scatter(&layer_graph(with_density(d)));
        let mut ids = set.id.clone();
        ids.sort_unstable();
        if let Some(prev) = &previous {
            assert!(
                prev.iter().all(|id| ids.binary_search(id).is_ok()),
                "a strand vanished when the density rose to {d}"
            );
        }
        previous = Some(ids);
    }
}

#[test]
fn the_surviving_count_matches_the_density() {
    let candidates = 120.0 * 120.0;
    for d in [0.05f64, 0.25, 0.5, 0.9] {
        let n = scatter(&layer_graph(with_density(d as f32))).len() as f64;
        let expected = d * candidates;
        // Four standard deviations of a binomial count.
        let sigma = (candidates * d * (1.0 - d)).sqrt();
        assert!(
            (n - expected).abs() < 4.0 * sigma,
            "density {d}: {n} strands, expected {expected} ± {sigma}"
        );
    }
    assert_eq!(scatter(&layer_graph(with_density(0.0))).len(), 0);
    assert_eq!(scatter(&layer_graph(with_density(1.0))).len(), 120 * 120);
}

#[test]
fn ranks_ascend_levels_are_prefixes_and_density_edits_do_not_reorder() {
    let full = scatter(&noisy_graph(1.0));
    assert!(full.is_sorted());
    assert!(full.rank.iter().all(|r| (0.0..1.0).contains(r)));
    let quarter = full.level_len(0.25);
    assert!(full.rank[..quarter].iter().all(|&r| r < 0.25));
    assert!(full.rank[quarter..].iter().all(|&r| r >= 0.25));
    // A thinner density keeps a subset, in the same relative order.
    let thin = scatter(&noisy_graph(0.6));
    assert!(thin.len() < full.len());
    let position: std::collections::HashMap<u32, usize> =
        full.id.iter().enumerate().map(|(k, &id)| (id, k)).collect();
    let in_full: Vec<usize> = thin.id.iter().map(|id| position[id]).collect();
    assert!(
        in_full.windows(2).all(|w| w[0] < w[1]),
        "survivors were reordered"
    );
}

#[test]
fn with_full_clump_share_a_clump_shares_its_length() {
    let mut layer = with_density(1.0);
    layer.clump_share = 1.0;
    let set = scatter(&layer_graph(layer));
    let mut by_clump: std::collections::HashMap<u32, f32> = std::collections::HashMap::new();
    let mut clumps_seen = 0;
    for (c, l) in set.clump.iter().zip(&set.length) {
        match by_clump.get(c) {
            Some(first) => assert_eq!(first, l, "clump {c}"),
            None => {
                by_clump.insert(*c, *l);
                clumps_seen += 1;
            }
        }
    }
    assert!(clumps_seen > 100);
    // And the lengths differ between clumps.
    let distinct: std::collections::HashSet<u32> = by_clump.values().map(|l| l.to_bits()).collect();
    assert!(distinct.len() > clumps_seen / 2);
}

#[test]
fn with_no_clump_share_clump_membership_does_not_change_lengths() {
    let lengths = |clump_lattice| {
        let mut layer = with_density(1.0);
        layer.clump_share = 0.0;
        layer.clump_lattice = clump_lattice;
        let set = scatter(&layer_graph(layer));
        let mut pairs: Vec<(u32, f32, u32)> = set
            .id
            .iter()
            .zip(&set.length)
            .zip(&set.clump)
            .map(|((&i, &l), &c)| (i, l, c))
            .collect();
        pairs.sort_unstable_by_key(|p| p.0);
        pairs
    };
    let (a, b) = (lengths(12), lengths(5));
    assert_eq!(a.len(), b.len());
    assert!(
        a.iter().zip(&b).any(|(x, y)| x.2 != y.2),
        "membership should differ"
    );
    assert!(a.iter().zip(&b).all(|(x, y)| x.1 == y.1));
}

#[test]
fn tips_are_pulled_toward_their_clump() {
    let mut layer = with_density(1.0);
    layer.tip_pull = 0.0;
    let loose = scatter(&layer_graph(layer.clone()));
    assert!(loose.tip_pull.iter().all(|p| *p == [0.0, 0.0]));
    layer.tip_pull = 0.5;
    let pulled = scatter(&layer_graph(layer));
    let moved = pulled
        .tip_pull
        .iter()
        .filter(|p| p[0] != 0.0 || p[1] != 0.0)
        .count();
    assert!(moved > pulled.len() * 9 / 10);
    // A pull never exceeds half the distance to the centre of the nearest clump, which
    // is at most a clump cell's diagonal away.
    let cell_m = 2.0 / 12.0;
    assert!(
        pulled
            .tip_pull
            .iter()
            .all(|p| (p[0] * p[0] + p[1] * p[1]).sqrt() <= 0.5 * cell_m * 1.5)
    );
}

#[test]
fn bad_layers_are_errors_not_panics() {
    let g = layer_graph(StrandLayer {
        lattice: 0,
        ..Default::default()
    });
    assert!(scatter_layer(&Evaluator::new(&g), "grass").is_err());
    assert!(scatter_layer(&Evaluator::new(&g), "nope").is_err());
    let huge = layer_graph(StrandLayer {
        lattice: 7072,
        clump_lattice: 64,
        ..Default::default()
    });
    let err = scatter_layer(&Evaluator::new(&huge), "grass").unwrap_err();
    assert!(err.to_string().contains("7072"), "{err}");
}

#[test]
fn a_painted_mask_read_by_an_image_node_places_the_strands() {
    // A painted density mask: a white disc on black, tiling (it stays clear of the
    // edges). Strands stand inside the disc and nowhere else.
    let dir = tempfile::tempdir().unwrap();
    let side = 64u32;
    image::GrayImage::from_fn(side, side, |x, y| {
        let (dx, dy) = (x as f32 + 0.5 - 32.0, y as f32 + 0.5 - 32.0);
        image::Luma([if dx.hypot(dy) < 20.0 { 255 } else { 0 }])
    })
    .save(dir.path().join("painted.png"))
    .unwrap();
    let mut g = layer_graph(with_density(1.0));
    g.folder = tuft_graph::io::Folder::at(dir.path());
    let img = g.add_node("Image").unwrap();
    g.node_mut(img).unwrap().params.insert(
        "file".into(),
        tuft_graph::ParamValue::Text("painted.png".into()),
    );
    g.strands.get_mut("grass").unwrap().density =
        Input::Link(tuft_graph::OutRef::new(img, "value"));
    let report = tuft_graph::validate(&g);
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let set = scatter(&g);
    assert!(set.len() > 1000, "{} strands", set.len());
    let inside = |uv: [f32; 2]| (uv[0] - 0.5).hypot(uv[1] - 0.5) < 20.0 / 64.0;
    let stray = set.root_uv.iter().filter(|&&uv| !inside(uv)).count();
    // Bilinear filtering softens the disc's rim by one texel; nothing stands beyond it.
    let far = set
        .root_uv
        .iter()
        .filter(|&&uv| (uv[0] - 0.5).hypot(uv[1] - 0.5) > 21.5 / 64.0)
        .count();
    assert_eq!(far, 0, "{stray} strays, {far} beyond the rim");
    // The disc is π·(20/64)² ≈ 31% of the repeat; the count follows it.
    let full = scatter(&layer_graph(with_density(1.0))).len() as f32;
    let share = set.len() as f32 / full;
    assert!((share - 0.307).abs() < 0.03, "{share}");
}

#[test]
fn the_groom_ports_reach_the_set_and_everything_drawn_from_it() {
    use tuft_strands::shape::{Groom, MAX_CURL};
    let plain_layer = StrandLayer {
        lattice: 64,
        clump_lattice: 8,
        length: Input::Const(Value::Float(0.08)),
        width: Input::Const(Value::Float(0.004)),
        ..Default::default()
    };
    let groomed_layer = StrandLayer {
        curl: Input::Const(Value::Float(0.15)),
        curl_turns: Input::Const(Value::Float(3.0)),
        frizz: Input::Const(Value::Float(0.1)),
        tip_width: Input::Const(Value::Float(0.0)),
        taper: Input::Const(Value::Float(2.0)),
        ..plain_layer.clone()
    };
    let plain = scatter(&layer_graph(plain_layer));
    let groomed = scatter(&layer_graph(groomed_layer.clone()));
    assert_eq!(plain.root_uv, groomed.root_uv, "grooming moves no root");
    // The defaults: no curl radius (its turns then do nothing), no frizz, the taper of
    // an ungroomed strand.
    assert!((0..plain.len()).all(|i| {
        let g = plain.groom(i);
        g.curl[0] == 0.0 && g.frizz == 0.0 && g.taper == Groom::NEUTRAL.taper
    }));
    let want = Groom {
        curl: [0.15, 3.0],
        frizz: 0.1,
        taper: [0.0, 2.0],
    };
    assert!((0..groomed.len()).all(|i| groomed.groom(i) == want));

    // The meshes, the relief and the card atlas all draw the groomed strands.
    let profile = tuft_graph::Profile::Ribbon { segments: 12 };
    let mesh = |s: &StrandSet| tuft_strands::mesh::repeat_tiles(s, 2.0, profile);
    let (a, b) = (mesh(&plain), mesh(&groomed));
    let moved = a
        .iter()
        .zip(&b)
        .flat_map(|(x, y)| (0..x.drawn_vertices()).map(|i| (x.vertex(i), y.vertex(i))))
        .filter(|(x, y)| x.position != y.position)
        .count();
    let total: usize = a.iter().map(|m| m.drawn_vertices()).sum();
    assert!(moved > total / 2, "{moved} of {total} vertices moved");
    // Tip width 0: the last two vertices of every ribbon meet.
    let v: Vec<_> = (0..b[0].drawn_vertices()).map(|i| b[0].vertex(i)).collect();
    let per = profile.vertices_per_strand();
    for strand in v.chunks_exact(per).take(50) {
        let (l, r) = (strand[per - 2].position, strand[per - 1].position);
        let gap = glam::Vec3::from(l).distance(glam::Vec3::from(r));
        assert!(gap < 1e-6, "{gap}");
    }
    let relief = |s: &StrandSet| tuft_strands::relief::splat(s, 2.0, 64);
    assert_ne!(relief(&plain).coverage, relief(&groomed).coverage);
    let atlas = |s: &StrandSet| {
        let settings = tuft_graph::layer::CardSettings::default();
        let cards = tuft_strands::cards::group(s, 8, 2.0, settings.atlas_cells);
        tuft_strands::cards::atlas(s, &cards, 2.0, &settings).color[0].clone()
    };
    assert_ne!(atlas(&plain), atlas(&groomed));

    // Ports beyond their ranges are held inside them.
    let wild = StrandLayer {
        curl: Input::Const(Value::Float(9.0)),
        frizz: Input::Const(Value::Float(f32::NAN)),
        ..groomed_layer
    };
    let set = scatter(&layer_graph(wild));
    assert!((0..set.len()).all(|i| set.curl[i][0] == MAX_CURL && set.frizz[i] == 0.0));
}

#[test]
fn a_layer_keep_scatters_the_same_layer_thinner() {
    let full = scatter(&layer_graph(with_density(0.8)));
    let mut layer = with_density(0.8);
    layer.levels.layer_keep = 0.5;
    let half = scatter(&layer_graph(layer.clone()));
    // The prefix rank < ½: the same strands, in the same order, widened by ½^(−p).
    let n = full.level_len(0.5);
    assert_eq!(half.len(), n);
    assert_eq!(half.id, full.id[..n]);
    assert_eq!(half.root_uv, full.root_uv[..n]);
    assert_eq!(half.length, full.length[..n]);
    let widen = 0.5f32.powf(-layer.levels.widen_p);
    for (w, w0) in half.width.iter().zip(&full.width) {
        assert!(
            (w - w0 * widen).abs() <= 1e-6 * w,
            "{w} against {w0}·{widen}"
        );
    }
    // Its ranks span [0, 1) again, and its levels cut the strands the full layer's
    // levels keeping half as much cut.
    assert!(half.is_sorted() && half.rank.iter().all(|r| (0.0..1.0).contains(r)));
    for keep in [1.0, 0.25, 0.0625] {
        assert_eq!(
            half.level_len(keep),
            full.level_len(keep * 0.5),
            "keep {keep}"
        );
    }
    // Outside (0, 1] it is a settings error, named.
    for bad in [0.0, -0.5, 1.5, f32::NAN] {
        layer.levels.layer_keep = bad;
        let err = scatter_layer(&Evaluator::new(&layer_graph(layer.clone())), "grass")
            .unwrap_err()
            .to_string();
        assert!(err.contains("layer_keep"), "{bad}: {err}");
    }
}
