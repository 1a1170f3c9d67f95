//! The shape of one strand: its centreline and its width along it, in the strand's local
//! frame (x along the surface's u, y along v, z along the normal; metres).
//!
//! The relief splat, the meshes and the cards all read strands through these functions,
//! so a strand seen from above, drawn as a ribbon or drawn on a card is the same strand.

use glam::{Vec2, Vec3};

/// The largest horizontal reach of a tip, as a fraction of the strand's length: a strand
/// never lies completely flat.
pub const MAX_REACH: f32 = 0.95;

/// The width at the tip as a fraction of the width at the root.
pub const TIP_WIDTH: f32 = 0.2;

/// Where the tip ends up, horizontally, relative to the root: the lean (a fraction of the
/// length) plus the pull toward the clump, limited to [`MAX_REACH`] of the length.
#[must_use]
pub fn reach(length: f32, lean: [f32; 2], tip_pull: [f32; 2]) -> Vec2 {
    let o = Vec2::from(lean) * length + Vec2::from(tip_pull);
    let max = MAX_REACH * length;
    if o.length() > max {
        o.normalize_or_zero() * max
    } else {
        o
    }
}

/// The point at parameter `t` in `[0, 1]` along a strand's centreline.
///
/// The tip sits at `reach` horizontally and at `√(L² − |reach|²)` vertically. `bend`
/// makes the strand rise first and curve over later: the horizontal progress is
/// `t·(1 − b + b·t)` and the vertical `1 − (1−t)·(1 − b + b·(1−t))`, blends between a
/// straight line (b = 0) and a parabola (b = 1) that cost no `powf` per point.
#[must_use]
pub fn centreline(length: f32, reach: Vec2, bend: f32, t: f32) -> Vec3 {
    Curve::new(length, reach, bend).at(t)
}

/// A strand's centreline with its per-strand constants worked out once, for loops that
/// evaluate many points of one strand.
#[derive(Clone, Copy, Debug)]
pub struct Curve {
    reach: Vec2,
    height: f32,
    bend: f32,
}

impl Curve {
    /// The centreline of a strand of `length` reaching `reach` with `bend`.
    #[must_use]
    pub fn new(length: f32, reach: Vec2, bend: f32) -> Self {
        Self {
            reach,
            height: (length * length - reach.length_squared()).max(0.0).sqrt(),
            bend: bend.clamp(0.0, 1.0),
        }
    }

    /// The point at parameter `t` (see [`centreline`]).
    #[inline]
    #[must_use]
    pub fn at(&self, t: f32) -> Vec3 {
        let b = self.bend;
        let s = 1.0 - t;
        let horizontal = self.reach * (t * (1.0 - b + b * t));
        let vertical = self.height * (1.0 - s * (1.0 - b + b * s));
        Vec3::new(horizontal.x, horizontal.y, vertical)
    }
}

/// The horizontal direction a strand's width spans (unit, in the root's tangent frame):
/// across its reach, or for an upright strand a direction of its own from `id`.
#[must_use]
pub fn facing(reach: Vec2, id: u32) -> Vec2 {
    if reach.length_squared() > 1e-12 {
        reach.perp().normalize()
    } else {
        let a = std::f32::consts::TAU
            * crate::hash::unit_f32(crate::hash::hash(
                0,
                u64::from(id),
                crate::hash::channel::FACING,
            ));
        Vec2::new(a.cos(), a.sin())
    }
}

/// The width at parameter `t`, tapering linearly from `width` to `TIP_WIDTH × width`.
#[must_use]
pub fn width_at(width: f32, t: f32) -> f32 {
    width * (1.0 - (1.0 - TIP_WIDTH) * t.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_strand_has_its_length() {
        let r = reach(0.1, [0.3, 0.4], [0.0, 0.0]);
        let tip = centreline(0.1, r, 0.0, 1.0);
        assert!((tip.length() - 0.1).abs() < 1e-6);
        assert!((Vec2::new(tip.x, tip.y) - Vec2::new(0.03, 0.04)).length() < 1e-6);
        assert_eq!(centreline(0.1, r, 0.7, 0.0), Vec3::ZERO);
    }

    #[test]
    fn reach_never_lays_a_strand_flat() {
        let r = reach(0.1, [5.0, 0.0], [0.0, 0.0]);
        assert!((r.length() - MAX_REACH * 0.1).abs() < 1e-6);
        assert!(centreline(0.1, r, 0.5, 1.0).z > 0.0);
    }

    #[test]
    fn bend_keeps_the_ends_and_curves_the_middle() {
        let r = reach(0.1, [0.5, 0.0], [0.0, 0.0]);
        let straight = centreline(0.1, r, 0.0, 0.5);
        let bent = centreline(0.1, r, 1.0, 0.5);
        assert!(bent.z > straight.z && bent.x < straight.x);
        assert_eq!(centreline(0.1, r, 1.0, 1.0), centreline(0.1, r, 0.0, 1.0));
    }
}
