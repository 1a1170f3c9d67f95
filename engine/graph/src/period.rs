//! Seam reckoning: how often a field repeats over one tile of the material.
//!
//! A period is carried as "tiles `k` times per repeat". Combining fields that tile `a` and
//! `b` times gives a field that tiles `gcd(a, b)` times (their periods meet at the least
//! common multiple), and any field that tiles a whole number of times meets itself at the
//! repeat's edges. Raw UV is special: it jumps by a whole number at the edges, so a
//! function that is itself periodic over one unit (sine and cosine in turns) turns it
//! back into a tiling field; anything else that lets it through breaks the seam.

use crate::link::NodeId;
use serde::Serialize;

/// How a field repeats over the tile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Period {
    /// The same value everywhere: tiles at any period.
    Uniform,
    /// Repeats `k` times per tile (k ≥ 1), so it meets itself at the edges.
    Tiles(u32),
    /// Raw UV from the given node: continuous modulo 1, jumping by a whole number at the
    /// edges. Tiles only after a function of period 1 (sine, cosine in turns).
    Ramp(NodeId),
    /// Does not meet itself at the edges, because of `node`.
    Broken {
        /// The node that breaks the seam.
        node: NodeId,
        /// Why, in words (`"scale 2.5 is not an integer"`).
        reason: String,
    },
}

impl Period {
    /// Two fields combined point by point.
    #[must_use]
    pub fn combine(self, other: Self) -> Self {
        match (self, other) {
            (b @ Self::Broken { .. }, _) | (_, b @ Self::Broken { .. }) => b,
            (r @ Self::Ramp(_), _) | (_, r @ Self::Ramp(_)) => r,
            (Self::Uniform, p) | (p, Self::Uniform) => p,
            (Self::Tiles(a), Self::Tiles(b)) => Self::Tiles(gcd(a, b)),
        }
    }

    /// All inputs of a node combined.
    #[must_use]
    pub fn combine_all(inputs: &[Self]) -> Self {
        inputs.iter().cloned().fold(Self::Uniform, Self::combine)
    }

    /// Raw UV reaching a place where it cannot be forgiven becomes a broken seam, blamed on
    /// the UV node.
    #[must_use]
    pub fn settle(self) -> Self {
        match self {
            Self::Ramp(node) => Self::Broken {
                node,
                reason: "raw UV does not repeat: it jumps from 1 back to 0 at the edges".to_owned(),
            },
            p => p,
        }
    }

    /// A generator that repeats `scale` times per tile: whole numbers tile, others do not.
    #[must_use]
    pub fn from_scale(node: NodeId, what: &str, scale: f32) -> Self {
        let reason = if !scale.is_finite() {
            format!("{what} {scale} is not a number")
        } else if scale.fract() != 0.0 {
            format!("{what} {scale} is not an integer")
        } else if scale < 1.0 {
            format!("{what} {scale} is below 1")
        } else if f64::from(scale) > crate::limits::MAX_LATTICE as f64 {
            // Beyond the limit the node is refused and reads zero everywhere (reported
            // as a limit, not as a seam).
            return Self::Uniform;
        } else {
            return Self::Tiles(scale as u32);
        };
        Self::Broken { node, reason }
    }

    /// Whether a field with this period meets itself at the tile's edges.
    #[must_use]
    pub fn tiles(&self) -> bool {
        matches!(self, Self::Uniform | Self::Tiles(_))
    }

    /// The node blamed for a broken seam or carrying raw UV.
    #[must_use]
    pub fn culprit(&self) -> Option<NodeId> {
        match self {
            Self::Broken { node, .. } | Self::Ramp(node) => Some(*node),
            _ => None,
        }
    }

    /// A short description for badges and tooltips.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Uniform => "uniform".to_owned(),
            Self::Tiles(1) => "tiles once per repeat".to_owned(),
            Self::Tiles(k) => format!("tiles {k}× per repeat"),
            Self::Ramp(_) => "raw UV (does not tile)".to_owned(),
            Self::Broken { reason, .. } => format!("does not tile: {reason}"),
        }
    }
}

/// Greatest common divisor.
#[must_use]
pub const fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_meet_at_the_least_common_multiple() {
        // Tiling 2× and 3× per repeat: the combination repeats once.
        assert_eq!(Period::Tiles(2).combine(Period::Tiles(3)), Period::Tiles(1));
        assert_eq!(Period::Tiles(4).combine(Period::Tiles(6)), Period::Tiles(2));
        assert_eq!(Period::Uniform.combine(Period::Tiles(5)), Period::Tiles(5));
        assert_eq!(Period::Uniform.combine(Period::Uniform), Period::Uniform);
    }

    #[test]
    fn a_broken_input_breaks_the_result() {
        let broken = Period::from_scale(NodeId(2), "scale", 2.5);
        assert!(!broken.tiles());
        let mixed = Period::Tiles(4).combine(broken.clone());
        assert_eq!(mixed, broken);
        assert_eq!(mixed.culprit(), Some(NodeId(2)));
    }

    #[test]
    fn raw_uv_breaks_only_when_settled() {
        let ramp = Period::Ramp(NodeId(1)).combine(Period::Tiles(3));
        assert_eq!(ramp, Period::Ramp(NodeId(1)));
        let settled = ramp.settle();
        assert!(!settled.tiles());
        assert_eq!(settled.culprit(), Some(NodeId(1)));
    }

    #[test]
    fn scale_must_be_a_whole_number() {
        assert_eq!(
            Period::from_scale(NodeId(0), "scale", 4.0),
            Period::Tiles(4)
        );
        for bad in [0.0, 0.5, 2.5, -3.0, f32::NAN, f32::INFINITY] {
            assert!(
                !Period::from_scale(NodeId(0), "scale", bad).tiles(),
                "{bad}"
            );
        }
    }
}
