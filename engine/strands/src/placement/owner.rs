//! Which triangle owns a root that falls on the UV footprints of several: the rules in
//! [`super`]'s module notes, decided from the edge's endpoints and the opposite corner
//! alone, so re-welding or re-ordering a mesh changes nothing.

use super::bins::Binned;
use glam::DVec2;

/// Orientation of `c` relative to the directed line `a → b`: positive on the left.
#[inline]
pub(super) fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// Lexicographic order on points.
#[inline]
pub(super) fn lex_less(a: DVec2, b: DVec2) -> bool {
    a.x < b.x || (a.x == b.x && a.y < b.y)
}

/// The fixed direction that decides which triangle owns a root on a vertex: +u, turned
/// slightly so no axis-aligned edge is parallel to it.
const VERTEX_PROBE: DVec2 = DVec2::new(1.0, 0.001_234_567);

/// Whether the counter-clockwise triangle `t` (in UV) contains `p` under the ownership
/// rules. Each edge's side test is computed with the edge oriented canonically (smaller
/// endpoint first), so both triangles sharing an edge see the very same number.
pub(super) fn owns(t: [DVec2; 3], p: DVec2) -> bool {
    let mut on_edge = [false; 3];
    for k in 0..3 {
        let (u, v) = (t[k], t[(k + 1) % 3]);
        let forward = lex_less(u, v);
        let (s, e) = if forward { (u, v) } else { (v, u) };
        let side = orient(s, e, p);
        let inside = if forward { side } else { -side };
        if inside < 0.0 {
            return false;
        }
        on_edge[k] = side == 0.0;
    }
    match on_edge.iter().filter(|&&z| z).count() {
        0 => true,
        1 => {
            // The triangle on the left of the canonical direction owns the edge: this one
            // exactly when it walks the edge from the smaller endpoint to the larger.
            let k = on_edge.iter().position(|&z| z).expect("one edge");
            lex_less(t[k], t[(k + 1) % 3])
        }
        _ => {
            // On a vertex: the triangle the probe direction points into owns it.
            let k = (0..3)
                .find(|&k| on_edge[k] && on_edge[(k + 2) % 3])
                .expect("two edges meet at a vertex");
            let (vtx, next, prev) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            let d = VERTEX_PROBE;
            (next - vtx).perp_dot(d) > 0.0 && d.perp_dot(prev - vtx) > 0.0
        }
    }
}

/// A triangle's ownership test with its edges put in canonical order once: a root
/// strictly inside all three edges is owned at once, and only a root on an edge or a
/// vertex goes through [`owns`]' rules. The side numbers are the very ones `owns`
/// computes, so the answer is the same.
pub(super) struct Owner {
    pub(super) tri: [DVec2; 3],
    /// Each edge from its smaller endpoint, and whether the triangle walks it that way.
    pub(super) edges: [(DVec2, DVec2, bool); 3],
}

impl Owner {
    pub(super) fn new(tri: [DVec2; 3]) -> Self {
        let edges = [0, 1, 2].map(|k| {
            let (u, v) = (tri[k], tri[(k + 1) % 3]);
            let forward = lex_less(u, v);
            if forward { (u, v, true) } else { (v, u, false) }
        });
        Self { tri, edges }
    }

    #[inline]
    pub(super) fn owns(&self, p: DVec2) -> bool {
        let mut on_edge = false;
        for &(s, e, forward) in &self.edges {
            let side = orient(s, e, p);
            let inside = if forward { side } else { -side };
            if inside < 0.0 {
                return false;
            }
            on_edge |= side == 0.0;
        }
        !on_edge || owns(self.tri, p)
    }
}

/// A binned root in the repeat whose corner is `cell`, in `f64`.
#[inline]
pub(super) fn root_in(item: &Binned, cell: [i32; 2]) -> DVec2 {
    DVec2::new(
        f64::from(item.root[0]) + f64::from(cell[0]),
        f64::from(item.root[1]) + f64::from(cell[1]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canonical_edges_own_what_the_rules_own() {
        // Triangles with vertices on a coarse grid, so points on their edges and
        // vertices are exact; points on a finer grid land inside, outside, on edges and
        // on vertices.
        let q = |i: i32| f64::from(i) * 0.25;
        let mut checked = [0usize; 2];
        for (a, b, c) in [
            ((0, 0), (4, 0), (0, 4)),
            ((4, 0), (0, 4), (4, 4)),
            ((1, 3), (3, 1), (2, 5)),
        ] {
            for tri in [[a, b, c], [b, c, a], [c, b, a]] {
                let t = tri.map(|(x, y)| DVec2::new(q(x), q(y)));
                let owner = Owner::new(t);
                for y in -2..=22 {
                    for x in -2..=22 {
                        let p = DVec2::new(f64::from(x) * 0.0625, f64::from(y) * 0.0625);
                        let want = owns(t, p);
                        assert_eq!(owner.owns(p), want, "{t:?} {p:?}");
                        checked[usize::from(want)] += 1;
                    }
                }
            }
        }
        assert!(checked.iter().all(|&n| n > 100), "{checked:?}");
    }
}
