//! Tests of the strand meshes: counts, shapes, levels, packing and the instruction sets.

use super::*;
use crate::placement::place;
use crate::surface::Surface;

/// Random strands, all 5 cm long and 4 mm wide (the length test measures them).
fn set(n: usize) -> StrandSet {
    let mut s = crate::testing::random_set(n, 9, 1);
    s.length.fill(0.05);
    s.width.fill(0.004);
    s
}

#[test]
fn every_instruction_set_meshes_the_same_bytes() {
    let mut s = crate::testing::random_set(2000, 9, 1);
    // Curl and frizz on a few strands in every 29, so the groomed centreline is in the
    // loop and runs of plain ribbons mesh on lanes where the CPU has them; among the
    // plain ones, upright strands (a facing of their own), strands of no length, a
    // taper with a power and a taper that ends in a point.
    for k in 0..s.len() {
        match k % 29 {
            0..=3 => {
                s.curl[k] = [0.3, 2.0];
                s.frizz[k] = 0.2;
            }
            5 | 17 => {
                s.lean[k] = [0.0, 0.0];
                s.tip_pull[k] = [0.0, 0.0];
            }
            9 => s.length[k] = 0.0,
            11 => s.taper[k] = [0.2, 2.5],
            13 => s.taper[k] = [0.0, 1.0],
            23 => s.bend[k] = 1.0,
            _ => {}
        }
    }
    let tiles = place(&s, &Surface::sphere(1.0, 16, 8, 1.0, 1.0), 1.0);
    let reach = reach_bound(&s);
    for profile in [
        Profile::Ribbon { segments: 4 },
        Profile::Tube {
            sides: 3,
            segments: 3,
        },
    ] {
        for tile in &tiles {
            let mut meshes: [TileMesh; 2] = Default::default();
            for m in &mut meshes {
                m.frame = tile_frame(tile, reach);
            }
            let shape = |i| Shape::of(&s, i);
            // The baseline body with the ribbon as a call, and whatever this CPU
            // dispatches to (the AVX2 and F16C body where it has them).
            build_with_on::<false, _>(shape, |_| {}, &tile.strands, profile, &mut meshes[0]);
            build_with(shape, |_| {}, &tile.strands, profile, &mut meshes[1]);
            assert_eq!(meshes[0], meshes[1]);
        }
    }
}

#[test]
fn the_float_vertex_is_sixty_four_bytes() {
    assert_eq!(size_of::<StrandVertex>(), 64);
}

#[test]
fn a_profile_out_of_range_meshes_as_its_clamped_one() {
    let s = set(50);
    let tiles = place(&s, &Surface::plane(1.0, 1, 1.0), 1.0);
    for (wild, tame) in [
        (
            Profile::Ribbon { segments: 0 },
            Profile::Ribbon { segments: 1 },
        ),
        (
            Profile::Ribbon { segments: 99 },
            Profile::Ribbon { segments: 16 },
        ),
        (
            Profile::Tube {
                sides: 1,
                segments: 40,
            },
            Profile::Tube {
                sides: 3,
                segments: 16,
            },
        ),
    ] {
        assert_eq!(wild.clamped(), tame);
        assert_eq!(wild.indices_per_strand(), tame.indices_per_strand());
        assert_eq!(
            build_tile(&s, &tiles[0], wild),
            build_tile(&s, &tiles[0], tame)
        );
    }
}

#[test]
fn a_tile_meshed_in_slices_is_the_tile_meshed_at_once_and_truncates_to_its_prefix() {
    let s = set(400);
    let tiles = place(&s, &Surface::plane(1.0, 1, 1.0), 1.0);
    let strands = &tiles[0].strands;
    for profile in [
        Profile::Ribbon { segments: 3 },
        Profile::Tube {
            sides: 4,
            segments: 2,
        },
    ] {
        let whole = build_tile(&s, &tiles[0], profile);
        let mut sliced = TileMesh::default();
        for range in [0..1, 1..150, 150..150, 150..strands.len()] {
            let mut part = TileMesh::in_frame(whole.frame);
            append_strands(&s, &strands[range], profile, &mut part);
            sliced.append(&part);
        }
        assert_eq!(sliced, whole);
        let mut prefix = TileMesh::in_frame(whole.frame);
        append_strands(&s, &strands[..120], profile, &mut prefix);
        sliced.truncate(120, profile);
        assert_eq!(sliced, prefix);
    }
}

#[test]
fn ribbons_and_tubes_have_the_counts_their_profile_says() {
    let s = set(500);
    let tiles = place(&s, &Surface::plane(1.0, 2, 1.0), 1.0);
    for profile in [
        Profile::Ribbon { segments: 4 },
        Profile::Tube {
            sides: 3,
            segments: 5,
        },
    ] {
        for tile in &tiles {
            let m = build_tile(&s, tile, profile);
            let n = tile.strands.len();
            assert_eq!(m.vertices.len(), n * profile.stored_per_strand());
            assert_eq!(m.drawn_vertices(), n * profile.vertices_per_strand());
            let indices = m.indices();
            assert_eq!(indices.len(), n * profile.indices_per_strand());
            assert_eq!(m.index_count(), indices.len());
            assert_eq!(m.level_indices(1.0, profile), indices.len());
            // Each strand's triangles join its own vertices alone.
            let per = profile.vertices_per_strand();
            for (s, strand) in indices
                .chunks_exact(profile.indices_per_strand())
                .enumerate()
            {
                assert!(
                    strand.iter().all(|&i| (i as usize) / per == s),
                    "strand {s}"
                );
            }
        }
    }
}

#[test]
fn a_ribbon_stores_a_vertex_a_point_and_draws_its_two_sides() {
    let s = set(200);
    let tiles = place(&s, &Surface::plane(1.0, 2, 1.0), 1.0);
    let tile = tiles.iter().find(|t| !t.strands.is_empty()).unwrap();
    let profile = Profile::Ribbon { segments: 4 };
    let m = build_tile(&s, tile, profile);
    assert!(m.paired);
    assert_eq!(m.drawn_per_strand(), 2 * m.vertices_per_strand());
    let tol = m.frame.tolerance().length();
    for (k, stored) in m.vertices.iter().enumerate() {
        let centre = stored.unpack(&m.frame);
        let (left, right) = (m.vertex(2 * k), m.vertex(2 * k + 1));
        // Each side is the centreline point moved by its own offset, which is the
        // other's reversed; they share the rest.
        for (v, sign, around) in [(left, -1.0, 0.0), (right, 1.0, 1.0)] {
            let across = Vec3::from(centre.across) * sign;
            assert_eq!(Vec3::from(v.across), across);
            assert_eq!(Vec3::from(v.position), Vec3::from(centre.position) + across);
            assert_eq!(v.uv, [centre.uv[0], around]);
            assert_eq!(
                (v.normal, v.color, v.wind, v.rank),
                (centre.normal, centre.color, centre.wind, centre.rank)
            );
        }
        // The ribbon is as wide as the strand: the sides 2 × across apart.
        let gap = Vec3::from(right.position).distance(Vec3::from(left.position));
        assert!((gap - 2.0 * Vec3::from(centre.across).length()).abs() < tol);
    }
    // A tube stores every vertex it draws.
    let tube = build_tile(
        &s,
        tile,
        Profile::Tube {
            sides: 3,
            segments: 2,
        },
    );
    assert!(!tube.paired);
    assert_eq!(tube.drawn_vertices(), tube.vertices.len());
    assert_eq!(tube.vertex(4), tube.vertices[4].unpack(&tube.frame));
}

#[test]
fn a_strand_has_its_length_and_width() {
    let s = set(1);
    let tiles = place(&s, &Surface::plane(1.0, 1, 1.0), 1.0);
    let tile = tiles.iter().find(|t| !t.strands.is_empty()).unwrap();
    let m = build_tile(&s, tile, Profile::Ribbon { segments: 8 });
    let mid = |k: usize| {
        let (a, b) = (
            Vec3::from(m.vertex(2 * k).position),
            Vec3::from(m.vertex(2 * k + 1).position),
        );
        ((a + b) * 0.5, (a - b).length())
    };
    // Two packed positions, each within half a step of its own.
    let tol = 2.0 * m.frame.tolerance().length();
    let length: f32 = (0..8).map(|k| (mid(k + 1).0 - mid(k).0).length()).sum();
    assert!((length - 0.05).abs() < 0.003, "{length}");
    assert!((mid(0).1 - 0.004).abs() < tol, "{} {tol}", mid(0).1);
    assert!((mid(8).1 - 0.004 * crate::shape::TIP_WIDTH).abs() < tol);
    // Roots stand on the surface; tips above it.
    assert!(mid(0).0.y.abs() < tol && mid(8).0.y > 0.01);
}

#[test]
fn a_level_mesh_widens_survivors_and_keeps_the_prefix() {
    let s = set(3000);
    let profile = Profile::Ribbon { segments: 2 };
    let tiles = repeat_tiles(&s, 1.0, profile);
    let cuts = [1.0, 0.25, 0.0625];
    let full = level_mesh(&tiles, profile, 1.0, 1.0, &cuts);
    let quarter = level_mesh(&tiles, profile, 0.25, 2.0, &cuts);
    let strands = |m: &LevelMesh| m.vertices.len() / profile.vertices_per_strand();
    assert_eq!(
        strands(&full),
        3000,
        "one repeat on one repeat's plane: every strand once"
    );
    assert_eq!(strands(&quarter), s.level_len(0.25));
    // The tiles' kept strands, those below the cut at 1/16 first, tile by tile in rank
    // order, then the rest, each vertex unpacked and widened, each strand's own
    // triangles (the tile's pattern) moved past the strands before it.
    let mut order: Vec<(usize, usize)> = Vec::new();
    for below in [true, false] {
        for (t, tile) in tiles.iter().enumerate() {
            let n = tile.ranks.partition_point(|&r| r < 0.25);
            order.extend(
                (0..n)
                    .filter(|&s| (tile.ranks[s] < 0.0625) == below)
                    .map(|s| (t, s)),
            );
        }
    }
    let per = profile.vertices_per_strand();
    let mut want = LevelMesh::default();
    for &(t, s) in &order {
        let tile = &tiles[t];
        let base = want.vertices.len() as u32;
        for i in s * per..(s + 1) * per {
            let mut v = tile.vertex(i);
            for k in 0..3 {
                v.position[k] += v.across[k];
                v.across[k] *= 2.0;
            }
            want.vertices.push(v);
        }
        want.indices.extend(tile.pattern.iter().map(|&k| base + k));
    }
    assert!(tiles.len() > 1 && want.vertices.len() > tiles.len());
    assert_eq!(quarter, want);
    // The coarser level is the finer one's first strands: the same indices, and every
    // vertex alike but for its widening.
    assert_eq!(quarter.indices[..], full.indices[..quarter.indices.len()]);
    for (q, f) in quarter.vertices.iter().zip(&full.vertices) {
        assert_eq!(
            (q.normal, q.uv, q.color, q.wind, q.rank),
            (f.normal, f.uv, f.color, f.wind, f.rank)
        );
    }
    assert!(quarter.is_prefix_of(&full) && full.is_prefix_of(&full));
    assert!(!full.is_prefix_of(&quarter));
    // Laid out tile by tile (no cuts), the coarser level is not the finer one's start.
    assert!(!level_mesh(&tiles, profile, 0.25, 2.0, &[]).is_prefix_of(&full));
    // A widened vertex sits twice as far from its centreline.
    let v = quarter.vertices[0];
    let a = Vec3::from(v.across).length();
    let root_width = s.width[0] * 2.0;
    // Half floats: 11 significant bits.
    assert!((2.0 * a - root_width).abs() < root_width / 2048.0, "{a}");
}

#[test]
fn the_most_groomed_strands_stay_inside_their_tiles_frame() {
    use crate::shape::{MAX_CURL, MAX_CURL_TURNS, MAX_FRIZZ};
    let mut s = crate::testing::random_set(2000, 5, 4);
    s.length.fill(0.3);
    s.width.fill(0.02);
    for i in 0..s.len() {
        s.lean[i] = [0.9, -0.4];
        s.curl[i] = [MAX_CURL, MAX_CURL_TURNS * (i % 7) as f32 / 6.0];
        s.frizz[i] = MAX_FRIZZ * (i % 3) as f32 / 2.0;
        s.taper[i] = [1.0, 1.0];
    }
    let tiles = place(&s, &Surface::plane(1.0, 2, 1.0), 1.0);
    for profile in [
        Profile::Ribbon { segments: 16 },
        Profile::Tube {
            sides: 8,
            segments: 16,
        },
    ] {
        for tile in &tiles {
            let m = build_tile(&s, tile, profile);
            // A clamped vertex would sit on the box's faces (0 or 65535).
            let inside = |v: &PackedVertex| v.position[..3].iter().all(|&q| q > 0 && q < 65_535);
            assert!(m.vertices.iter().all(inside), "{profile:?}");
        }
    }
}

#[test]
fn levels_are_prefixes_of_one_buffer() {
    let s = set(2000);
    let tiles = place(&s, &Surface::plane(1.0, 1, 1.0), 1.0);
    let profile = Profile::Ribbon { segments: 3 };
    let m = build_tile(&s, &tiles[0], profile);
    let quarter = m.level_indices(0.25, profile) / profile.indices_per_strand();
    assert!(m.ranks[..quarter].iter().all(|&r| r < 0.25));
    assert!(m.ranks[quarter..].iter().all(|&r| r >= 0.25));
    assert!(m.ranks.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn the_reach_bound_is_the_largest_of_each_column() {
    // Columns of every length round the eight running maxima, the largest anywhere in
    // them, with NaN and negative values (which count as zero).
    for n in [0, 1, 7, 8, 9, 100, 1001] {
        let mut s = crate::testing::random_set(n, 4, 3);
        for k in 0..n {
            match k % 13 {
                3 => s.length[k] = f32::NAN,
                5 => s.width[k] = -1.0,
                7 => s.curl[k] = [0.01 * (k % 11) as f32, 2.0],
                11 => s.frizz[k] = 0.003 * (k % 17) as f32,
                _ => {}
            }
        }
        if n > 0 {
            s.length[n - 1] = 0.5;
        }
        let most = |column: &mut dyn Iterator<Item = f32>| {
            column.fold(0.0f32, |m, x| if x > m { x } else { m })
        };
        let length = most(&mut s.length.iter().copied());
        let width = most(&mut s.width.iter().copied());
        let curl = most(&mut s.curl.iter().map(|c| c[0])).min(crate::shape::MAX_CURL);
        let frizz = most(&mut s.frizz.iter().copied()).min(crate::shape::MAX_FRIZZ);
        let want = length * (1.0 + 2.0 * curl + 1.6 * frizz) + 0.5 * width;
        assert_eq!(reach_bound(&s).to_bits(), want.to_bits(), "{n} strands");
    }
}

#[test]
fn the_reach_found_a_run_at_a_time_is_the_reach_of_the_whole_set() {
    let mut s = crate::testing::random_set(5000, 3, 40);
    // Negative and NaN values count as zero; the largest values sit in different runs.
    s.length[17] = f32::NAN;
    s.width[4001] = -1.0;
    s.length[2999] = 0.4;
    s.width[12] = 0.02;
    s.curl[4500] = [0.3, 1.0];
    s.frizz[1] = 0.2;
    let whole = reach_bound(&s);
    for run in [1, 7, 64, 1000, 5000] {
        let merged = (0..s.len())
            .step_by(run)
            .map(|first| Largest::of(&s, first..(first + run).min(s.len())))
            .fold(Largest::default(), Largest::and);
        assert_eq!(merged.reach().to_bits(), whole.to_bits(), "runs of {run}");
    }
    assert!(whole >= 0.4, "{whole}");
}
