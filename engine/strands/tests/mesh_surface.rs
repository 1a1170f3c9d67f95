//! Strands on a mesh of the author's: the density holds where the UVs stretch, and a
//! root on a UV seam is planted once.

use glam::Vec3;
use tuft_strands::StrandSet;
use tuft_strands::hash::{hash, unit_f32};
use tuft_strands::placement::place;
use tuft_strands::surface::{MeshData, MeshError, Surface};

/// `n` strands over one repeat, roots hashed, ranks ascending; `extra` roots appended
/// where a test wants them exactly.
fn set(n: usize, extra: &[[f32; 2]]) -> StrandSet {
    let mut s = StrandSet::with_capacity(n + extra.len());
    let total = n + extra.len();
    for i in 0..total {
        let h = |c| unit_f32(hash(11, i as u64, c));
        s.root_uv.push(
            extra
                .get(i.wrapping_sub(n))
                .copied()
                .unwrap_or([h(1), h(2)]),
        );
        s.rank.push(i as f32 / total as f32);
        s.clump.push(0);
        s.length.push(0.05);
        s.width.push(0.002);
        s.lean.push([0.0; 2]);
        s.bend.push(0.0);
        s.root_color.push([0.2; 3]);
        s.tip_color.push([0.3; 3]);
        s.tip_pull.push([0.0; 2]);
        s.id.push(i as u32);
    }
    s.fill_neutral_groom();
    s
}

/// A 2 m square in x–z, `cells²` quads, its u stretched: u = (x/2)^1.6, v = z/2.
fn stretched_square(cells: u32) -> MeshData {
    let mut m = MeshData::default();
    for j in 0..=cells {
        for i in 0..=cells {
            let (fx, fz) = (i as f32 / cells as f32, j as f32 / cells as f32);
            m.positions.push([2.0 * fx, 0.0, 2.0 * fz]);
            m.uvs.push([fx.powf(1.6), fz]);
        }
    }
    let row = cells + 1;
    for j in 0..cells {
        for i in 0..cells {
            let a = j * row + i;
            m.triangles.push([a, a + row, a + 1]);
            m.triangles.push([a + 1, a + row, a + row + 1]);
        }
    }
    m
}

#[test]
fn the_density_holds_in_every_region_where_the_uvs_stretch() {
    let mesh = stretched_square(32);
    let repeat_m = 0.25;
    // Enough repeats per UV unit that no triangle spreads one repeat over more than its
    // own area (placement thins the rest down to the authored density).
    let worst = mesh
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| Vec3::from(mesh.positions[i as usize]));
            let world = 0.5 * (b - a).cross(c - a).length();
            let [a, b, c] = t.map(|i| glam::Vec2::from(mesh.uvs[i as usize]));
            world / (0.5 * (b - a).perp_dot(c - a).abs())
        })
        .fold(0.0f32, f32::max);
    let scale = worst.sqrt() / repeat_m * 1.01;
    let surface = Surface::from_mesh(&mesh, scale).unwrap();
    assert!(
        surface.normals.iter().all(|n| (n.y - 1.0).abs() < 1e-5),
        "computed normals face up"
    );
    let n = 1000;
    let tiles = place(&set(n, &[]), &surface, repeat_m);
    let authored = n as f32 / (repeat_m * repeat_m);
    // Sixteen regions of equal area, 0.5 m square.
    let mut counts = [0u32; 16];
    for p in tiles.iter().flat_map(|t| &t.strands) {
        let (i, j) = ((p.position.x / 0.5) as usize, (p.position.z / 0.5) as usize);
        counts[j.min(3) * 4 + i.min(3)] += 1;
    }
    for (k, &c) in counts.iter().enumerate() {
        let density = c as f32 / 0.25;
        let off = density / authored - 1.0;
        assert!(
            off.abs() <= 0.10,
            "region {k}: {density:.0} per m² against {authored:.0}"
        );
    }
    // The UVs do stretch: the first column's triangles hold far more UV per metre.
    assert!(worst > 4.0 * mesh_mean_ratio(&mesh), "{worst}");
}

fn mesh_mean_ratio(mesh: &MeshData) -> f32 {
    let m = mesh.metres_per_uv();
    m * m
}

/// A cylinder of radius ½ m and height 1 m around y, `segments` around, its u wrapping
/// once around with the seam's vertices split (u = 0 on one side, 1 on the other).
fn cylinder(segments: u32) -> MeshData {
    let mut m = MeshData::default();
    for j in 0..=4u32 {
        for k in 0..=segments {
            let u = k as f32 / segments as f32;
            let phi = u * std::f32::consts::TAU;
            m.positions
                .push([0.5 * phi.cos(), j as f32 / 4.0, -0.5 * phi.sin()]);
            m.uvs.push([u, j as f32 / 4.0]);
        }
    }
    let row = segments + 1;
    for j in 0..4 {
        for k in 0..segments {
            let a = j * row + k;
            m.triangles.push([a, a + 1, a + row]);
            m.triangles.push([a + 1, a + row + 1, a + row]);
        }
    }
    m
}

#[test]
fn a_root_on_a_uv_seam_is_planted_once() {
    let mesh = cylinder(24);
    let surface = Surface::from_mesh(&mesh, 2.0).unwrap();
    // Roots exactly on the seam (u = 0 of a repeat), on the rows' edges and on a vertex.
    let on_seam = [[0.0, 0.3], [0.0, 0.5], [0.0, 0.0], [0.5, 0.5]];
    let tiles = place(&set(200, &on_seam), &surface, 1.0);
    let planted: Vec<_> = tiles.iter().flat_map(|t| &t.strands).collect();
    for (a, p) in planted.iter().enumerate() {
        for q in &planted[a + 1..] {
            assert!(
                p.strand != q.strand || p.position.distance(q.position) > 1e-4,
                "strand {} planted twice at {:?}",
                p.strand,
                p.position
            );
        }
    }
    for k in 200..204u32 {
        assert!(
            planted.iter().any(|p| p.strand == k),
            "seam strand {k} is planted"
        );
    }
}

#[test]
fn a_mesh_without_uvs_or_with_bad_numbers_is_refused_by_name() {
    let mut m = stretched_square(2);
    m.uvs.clear();
    assert_eq!(Surface::from_mesh(&m, 1.0).unwrap_err(), MeshError::NoUvs);
    let mut m = stretched_square(2);
    m.uvs.iter_mut().for_each(|uv| *uv = [0.3, 0.3]);
    assert_eq!(
        Surface::from_mesh(&m, 1.0).unwrap_err(),
        MeshError::UvsInOnePoint
    );
    let mut m = stretched_square(2);
    m.positions[3][1] = f32::NAN;
    assert_eq!(
        Surface::from_mesh(&m, 1.0).unwrap_err(),
        MeshError::NotFinite {
            what: "position",
            index: 3
        }
    );
    let mut m = stretched_square(2);
    m.triangles[1][2] = 99;
    assert!(matches!(
        Surface::from_mesh(&m, 1.0),
        Err(MeshError::Malformed(_))
    ));
    assert_eq!(
        Surface::from_mesh(&stretched_square(2), f32::NAN)
            .unwrap_err()
            .to_string(),
        "the UV scale NaN is not a positive number of repeats per UV unit"
    );
    assert_eq!(
        Surface::from_mesh(&MeshData::default(), 1.0).unwrap_err(),
        MeshError::Empty
    );
    // Finite numbers whose areas are not: refused by name before a scale is measured
    // from them (the measure read 0 or infinite, and the message blamed a UV scale the
    // author never gave).
    let mut m = stretched_square(2);
    (m.uvs[4], m.uvs[5]) = ([1e30, 0.0], [0.0, 1e30]);
    assert_eq!(
        m.check().unwrap_err(),
        MeshError::TooFar {
            what: "UV",
            triangle: 3
        }
    );
    let mut m = stretched_square(2);
    (m.positions[4], m.positions[5]) = ([1e30, 0.0, 0.0], [0.0, 0.0, 1e30]);
    assert_eq!(
        Surface::from_mesh(&m, 1.0).unwrap_err().to_string(),
        "triangle 1's positions lie too far apart to measure its area"
    );
    let mut m = stretched_square(2);
    m.positions.iter_mut().for_each(|p| *p = [1.0, 2.0, 3.0]);
    assert_eq!(m.check().unwrap_err(), MeshError::NoArea);
    // Degenerate and sliver triangles stay, and plant nothing where they have no area.
    let mut m = stretched_square(2);
    m.triangles.push([0, 0, 1]);
    m.triangles.push([0, 1, 2]); // collinear: a sliver with no area
    let surface = Surface::from_mesh(&m, 4.0).unwrap();
    let tiles = place(&set(300, &[]), &surface, 0.5);
    assert!(
        tiles
            .iter()
            .flat_map(|t| &t.strands)
            .all(|p| p.triangle < 8)
    );
}

#[test]
fn mirrored_uvs_and_a_non_manifold_edge_plant_as_their_area_says() {
    // The square with its u mirrored (clockwise UVs) plants as many strands as the
    // square itself: placement orients each triangle's UVs before its edge tests.
    let plain = stretched_square(8);
    let mut mirrored = plain.clone();
    mirrored.uvs.iter_mut().for_each(|uv| uv[0] = 1.0 - uv[0]);
    let count = |m: &MeshData| {
        let surface = Surface::from_mesh(m, 6.0).unwrap();
        place(&set(400, &[]), &surface, 0.5)
            .iter()
            .map(|t| t.strands.len())
            .sum::<usize>()
    };
    let (a, b) = (count(&plain), count(&mirrored));
    assert!(a > 1000);
    assert!(
        (a as f64 / b as f64 - 1.0).abs() < 0.03,
        "{a} against {b} mirrored"
    );
    // A fin standing on one of the square's edges (three triangles share that edge): the
    // fin plants on its own area, beside what the square plants.
    let mut finned = plain.clone();
    let n = finned.positions.len() as u32;
    let (p, q) = (finned.positions[0], finned.positions[1]);
    finned.positions.push([p[0], 0.25, p[2]]);
    finned.positions.push([q[0], 0.25, q[2]]);
    finned.uvs.push([0.0, 0.9]);
    finned.uvs.push([0.1, 0.9]);
    finned.triangles.push([0, 1, n]);
    finned.triangles.push([1, n + 1, n]);
    let c = count(&finned);
    assert!(c > a, "{c} with the fin, {a} without");
}
