//! The shape of one strand: its centreline and its width along it, in the strand's local
//! frame (x along the surface's u, y along v, z along the normal; metres).
//!
//! The relief splat, the meshes and the cards all read strands through these functions,
//! so a strand seen from above, drawn as a ribbon or drawn on a card is the same strand.

use crate::hash::{channel, hash, unit_f32};
use glam::{Vec2, Vec3};
use std::f32::consts::TAU;

/// The largest horizontal reach of a tip, as a fraction of the strand's length: a strand
/// never lies completely flat.
pub const MAX_REACH: f32 = 0.95;

/// The width at the tip as a fraction of the width at the root, unless groomed.
pub const TIP_WIDTH: f32 = 0.2;

/// The largest curl radius, as a fraction of the length.
pub const MAX_CURL: f32 = 0.25;
/// The most curl turns along a strand.
pub const MAX_CURL_TURNS: f32 = 8.0;
/// The largest frizz at the tip, as a fraction of the length.
pub const MAX_FRIZZ: f32 = 0.3;
/// The taper exponent's range: below 1 a strand narrows early, above 1 it keeps its
/// width and narrows near the tip.
pub const TAPER_RANGE: (f32, f32) = (0.2, 5.0);

/// How one strand is groomed, as the strand file stores it (dimensionless: fractions of
/// its length and width, so a strand's groom scales with it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Groom {
    /// Curl: the helix's radius as a fraction of the length, and its turns along the
    /// length.
    pub curl: [f32; 2],
    /// Frizz: a wobble of the strand's own, growing toward the tip to this fraction of
    /// the length.
    pub frizz: f32,
    /// Width profile: the tip's width as a fraction of the root's, and the exponent of
    /// the taper (1 linear).
    pub taper: [f32; 2],
}

impl Groom {
    /// No curl, no frizz, a linear taper to [`TIP_WIDTH`]: a strand as an ungroomed
    /// file describes it.
    pub const NEUTRAL: Self = Self {
        curl: [0.0, 0.0],
        frizz: 0.0,
        taper: [TIP_WIDTH, 1.0],
    };

    /// The groom held inside its ranges (a NaN reads as neutral).
    #[must_use]
    pub fn clamped(self) -> Self {
        let within = |x: f32, lo: f32, hi: f32, neutral: f32| {
            if x.is_nan() { neutral } else { x.clamp(lo, hi) }
        };
        Self {
            curl: [
                within(self.curl[0], 0.0, MAX_CURL, 0.0),
                within(self.curl[1], 0.0, MAX_CURL_TURNS, 0.0),
            ],
            frizz: within(self.frizz, 0.0, MAX_FRIZZ, 0.0),
            taper: [
                within(self.taper[0], 0.0, 1.0, TIP_WIDTH),
                within(self.taper[1], TAPER_RANGE.0, TAPER_RANGE.1, 1.0),
            ],
        }
    }

    /// Whether the groom, held inside its ranges ([`Groom::clamped`]), leaves a strand's
    /// centreline the plain bent curve: no curl (radius or turns zero) and no frizz.
    #[must_use]
    pub fn is_plain(&self) -> bool {
        let g = self.clamped();
        g.curl[0] * g.curl[1] == 0.0 && g.frizz == 0.0
    }

    /// The width at parameter `t` of a strand `width` wide at the root:
    /// `width · (1 − (1 − tip) · t^exponent)`.
    #[inline]
    #[must_use]
    pub fn width_at(&self, width: f32, t: f32) -> f32 {
        let t = t.clamp(0.0, 1.0);
        let [tip, exponent] = self.taper;
        let along = if exponent == 1.0 { t } else { t.powf(exponent) };
        width * (1.0 - (1.0 - tip) * along)
    }
}

impl Default for Groom {
    fn default() -> Self {
        Self::NEUTRAL
    }
}

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
    twist: Option<Twist>,
}

/// Curl and frizz worked out for one strand: offsets across its main axis.
#[derive(Clone, Copy, Debug)]
struct Twist {
    /// Two directions across the root-to-tip axis.
    across: [Vec3; 2],
    /// Curl radius in metres, turns, and the strand's own starting angle (turns).
    curl: [f32; 3],
    /// Where the helix starts across the axis (at the starting angle), so the curl is
    /// measured from the root.
    start: Vec3,
    /// Frizz amplitude in metres, and two wobbles' frequencies and phases (turns).
    frizz: [f32; 5],
}

/// The share of the length over which curl grows from nothing: the root stays planted.
const CURL_RAMP: f32 = 0.2;

impl Curve {
    /// The centreline of a strand of `length` reaching `reach` with `bend`.
    #[must_use]
    pub fn new(length: f32, reach: Vec2, bend: f32) -> Self {
        Self {
            reach,
            height: (length * length - reach.length_squared()).max(0.0).sqrt(),
            bend: bend.clamp(0.0, 1.0),
            twist: None,
        }
    }

    /// The centreline of strand `id` groomed by `groom`: the bent strand of
    /// [`Curve::new`], wound round its root-to-tip axis by the curl (a helix whose
    /// radius grows from zero over the first fifth) and wobbled by the frizz (two waves
    /// of the strand's own frequencies and phases, growing as `t²` toward the tip).
    #[must_use]
    pub fn groomed(length: f32, reach: Vec2, bend: f32, groom: &Groom, id: u32) -> Self {
        let mut curve = Self::new(length, reach, bend);
        if groom.is_plain() {
            return curve;
        }
        let g = groom.clamped();
        let axis = curve.at(1.0).normalize_or(Vec3::Z);
        let e1 = axis.any_orthonormal_vector();
        let e2 = axis.cross(e1);
        let h = |c: u32| unit_f32(hash(0, u64::from(id), c));
        let phase = h(channel::CURL);
        curve.twist = Some(Twist {
            across: [e1, e2],
            curl: [g.curl[0] * length, g.curl[1], phase],
            start: (TAU * phase).cos() * e1 + (TAU * phase).sin() * e2,
            frizz: [
                g.frizz * length,
                1.5 + 1.5 * h(channel::FRIZZ),
                h(channel::FRIZZ + 1),
                3.5 + 2.5 * h(channel::FRIZZ + 2),
                h(channel::FRIZZ + 3),
            ],
        });
        curve
    }

    /// The point at parameter `t` (see [`centreline`] and [`Curve::groomed`]).
    #[inline]
    #[must_use]
    pub fn at(&self, t: f32) -> Vec3 {
        let b = self.bend;
        let s = 1.0 - t;
        let horizontal = self.reach * (t * (1.0 - b + b * t));
        let vertical = self.height * (1.0 - s * (1.0 - b + b * s));
        let p = Vec3::new(horizontal.x, horizontal.y, vertical);
        match &self.twist {
            None => p,
            Some(tw) => {
                let [e1, e2] = tw.across;
                let [radius, turns, phase] = tw.curl;
                let ramp = (t / CURL_RAMP).min(1.0);
                let r = radius * ramp * ramp * (3.0 - 2.0 * ramp);
                let angle = TAU * (turns * t + phase);
                // The helix is centred on the axis' side, so it starts at the root.
                let curl = angle.cos() * e1 + angle.sin() * e2 - tw.start;
                let [amp, f1, p1, f2, p2] = tw.frizz;
                let a = amp * t * t;
                let wobble = (TAU * (f1 * t + p1)).sin() * e1 * 0.6
                    + (TAU * (f2 * t + p2)).sin() * e2 * 0.6
                    + (TAU * (f2 * t + p1)).cos() * e1 * 0.4;
                p + curl * r + wobble * a
            }
        }
    }
}

/// The horizontal direction a strand's width spans (unit, in the root's tangent frame):
/// across its reach, or for an upright strand a direction of its own from `id`.
#[must_use]
pub fn facing(reach: Vec2, id: u32) -> Vec2 {
    if reach.length_squared() > 1e-12 {
        reach.perp().normalize()
    } else {
        let a = TAU * unit_f32(hash(0, u64::from(id), channel::FACING));
        Vec2::new(a.cos(), a.sin())
    }
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
    fn an_ungroomed_curve_is_the_plain_one_and_the_neutral_width_tapers_linearly() {
        let r = reach(0.1, [0.3, 0.1], [0.0, 0.0]);
        let plain = Curve::new(0.1, r, 0.4);
        let groomed = Curve::groomed(0.1, r, 0.4, &Groom::NEUTRAL, 17);
        for k in 0..=8 {
            let t = k as f32 / 8.0;
            assert_eq!(plain.at(t), groomed.at(t));
            let w = Groom::NEUTRAL.width_at(0.01, t);
            assert!((w - 0.01 * (1.0 - (1.0 - TIP_WIDTH) * t)).abs() < 1e-9);
        }
    }

    #[test]
    fn curl_winds_round_the_axis_from_a_planted_root() {
        let length = 0.1;
        let r = reach(length, [0.0, 0.0], [0.0, 0.0]);
        let groom = Groom {
            curl: [0.2, 2.5],
            ..Groom::NEUTRAL
        };
        let c = Curve::groomed(length, r, 0.0, &groom, 5);
        assert_eq!(c.at(0.0), Vec3::ZERO, "the root stays where it grew");
        // Past the ramp (the last 0.8 of the length: two whole turns) the strand keeps
        // to a circle of the radius round a displaced axis: its distance from that
        // axis' centre stays 0.2 × length.
        let pts: Vec<Vec3> = (40..200).map(|k| c.at(k as f32 / 200.0)).collect();
        let centre = pts.iter().fold(Vec2::ZERO, |a, p| a + Vec2::new(p.x, p.y)) / pts.len() as f32;
        for p in &pts {
            let d = (Vec2::new(p.x, p.y) - centre).length();
            assert!((d - 0.02).abs() < 2e-3, "{d}");
        }
        // 2.5 turns over the length: 2.5 × (1 − 0.2) past the ramp.
        let mut turned = 0.0;
        for w in pts.windows(2) {
            let (a, b) = (
                Vec2::new(w[0].x, w[0].y) - centre,
                Vec2::new(w[1].x, w[1].y) - centre,
            );
            turned += a.angle_to(b);
        }
        let span = 159.0 / 200.0; // the samples' extent along the length
        assert!(
            (turned.abs() / TAU - 2.5 * span).abs() < 1e-3,
            "{}",
            turned / TAU
        );
    }

    #[test]
    fn frizz_grows_toward_the_tip_and_is_each_strand_s_own() {
        let length = 0.1;
        let r = reach(length, [0.0, 0.0], [0.0, 0.0]);
        let plain = Curve::new(length, r, 0.0);
        let groom = Groom {
            frizz: 0.2,
            ..Groom::NEUTRAL
        };
        let off = |id: u32, t: f32| {
            (Curve::groomed(length, r, 0.0, &groom, id).at(t) - plain.at(t)).length()
        };
        assert_eq!(off(1, 0.0), 0.0);
        let near_root: f32 = (1..=10).map(|k| off(1, k as f32 / 40.0)).sum();
        let near_tip: f32 = (30..=40).map(|k| off(1, k as f32 / 40.0)).sum();
        assert!(near_tip > 10.0 * near_root, "{near_root} {near_tip}");
        assert!(off(1, 1.0) <= 0.2 * length + 1e-6);
        assert_ne!(off(1, 0.7), off(2, 0.7), "strands frizz differently");
    }

    #[test]
    fn the_width_profile_follows_tip_width_and_exponent() {
        let blade = Groom {
            taper: [0.0, 3.0],
            ..Groom::NEUTRAL
        };
        let needle = Groom {
            taper: [0.0, 0.4],
            ..Groom::NEUTRAL
        };
        assert_eq!(blade.width_at(1.0, 0.0), 1.0);
        assert_eq!(blade.width_at(1.0, 1.0), 0.0);
        // A blade keeps its width longer than a needle.
        assert!(blade.width_at(1.0, 0.5) > 0.8 && needle.width_at(1.0, 0.5) < 0.3);
        let none = Groom {
            taper: [1.0, 1.0],
            ..Groom::NEUTRAL
        };
        assert_eq!(none.width_at(0.3, 0.77), 0.3);
        // Out-of-range and NaN grooms are held in range.
        let wild = Groom {
            curl: [f32::NAN, 99.0],
            frizz: -1.0,
            taper: [7.0, 0.0],
        }
        .clamped();
        assert_eq!(wild.curl, [0.0, MAX_CURL_TURNS]);
        assert_eq!(wild.frizz, 0.0);
        assert_eq!(wild.taper, [1.0, TAPER_RANGE.0]);
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
