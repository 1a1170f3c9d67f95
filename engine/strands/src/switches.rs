//! Where a layer switches representation with distance, as figures a game can use: the
//! strand width and card height the switches are measured on, each level's widening, the
//! pixel thresholds and the fade band. The preview's level choice reads the thresholds
//! here, and a baked set's manifest carries the figures, so a game draws the set with
//! the preview's switches.
//!
//! A strand `w` metres wide at `d` metres is `w · p / d` pixels wide, where `p` is the
//! pixels a metre covers at one metre (`h / (2 tan(fov_y / 2))` on a frame `h` pixels
//! tall). Level `k` draws its survivors `widen_k` times wider and is used while they are
//! at least [`SWITCH_PX`] wide; then cards while a card is at least [`CARD_SWITCH_PX`]
//! tall; then the surface alone. Each change fades over the last [`FADE_BAND`] of its
//! range (from `1 + FADE_BAND` times the switch size down to it).

use crate::StrandSet;
use crate::cards::Card;
use crate::levels::LevelSettings;
use serde::{Deserialize, Serialize};

/// A strand level is used while its widened strands are at least this many pixels wide.
pub const SWITCH_PX: f32 = 1.0;

/// Cards are used while a card is at least this many pixels tall: they carry the
/// silhouette a bare surface would lose, for as long as there is one to carry.
pub const CARD_SWITCH_PX: f32 = 1.0;

/// The transition to the next representation takes the last half of each range: from
/// `1.5 ×` the switch size down to the switch.
pub const FADE_BAND: f32 = 0.5;

/// The view the manifest's example distances are worked out for: a 1080-pixel frame
/// with a vertical field of view of 45°.
pub const REFERENCE_HEIGHT_PX: f32 = 1080.0;
/// The reference view's vertical field of view, in turns (45°).
pub const REFERENCE_FOV_TURNS: f32 = 0.125;

/// One layer's switch figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switches {
    /// The strand width the switches are measured on: the layer's median width, metres.
    pub width_m: f32,
    /// Each level's widening (level 0 first).
    pub widen: Vec<f32>,
    /// The card height the card switch is measured on: the cards' median height, metres.
    pub card_height_m: f32,
    /// How far a card's picture reaches along its strands, as a multiple of the card's
    /// height: the depth its shading reads (at least 1).
    pub card_along_scale: f32,
    /// [`SWITCH_PX`].
    pub switch_px: f32,
    /// [`CARD_SWITCH_PX`].
    pub card_switch_px: f32,
    /// [`FADE_BAND`].
    pub fade_band: f32,
    /// Where each switch falls on the reference view ([`REFERENCE_HEIGHT_PX`],
    /// [`REFERENCE_FOV_TURNS`]), metres from the eye: level 0 → 1, …, the last level →
    /// cards, cards → surface. Other views scale them by their pixels a metre at one
    /// metre ([`px_per_m_at_1m`]).
    pub reference_distances_m: Vec<f32>,
}

/// Pixels a metre covers at one metre from the eye, on a frame `height_px` tall with a
/// vertical field of view of `fov_turns`.
#[must_use]
pub fn px_per_m_at_1m(height_px: f32, fov_turns: f32) -> f32 {
    let half = 0.5 * fov_turns.clamp(0.01, 0.45) * std::f32::consts::TAU;
    height_px / (2.0 * half.tan())
}

impl Switches {
    /// The figures of a layer whose strands are `set`, levelled by `levels`, carded as
    /// `cards`.
    #[must_use]
    pub fn of(set: &StrandSet, levels: &LevelSettings, cards: &[Card]) -> Self {
        let n = levels.keep.len().max(1);
        let mut out = Self {
            width_m: crate::num::median(set.width.iter().copied()).unwrap_or(0.0),
            widen: (0..n).map(|k| levels.widen(k)).collect(),
            card_height_m: crate::num::median(cards.iter().map(|c| c.height)).unwrap_or(0.0),
            card_along_scale: along_scale(set),
            switch_px: SWITCH_PX,
            card_switch_px: CARD_SWITCH_PX,
            fade_band: FADE_BAND,
            reference_distances_m: Vec::new(),
        };
        let p = px_per_m_at_1m(REFERENCE_HEIGHT_PX, REFERENCE_FOV_TURNS);
        out.reference_distances_m = out.distances(p).into_iter().map(|(_, d)| d).collect();
        out
    }

    /// Where each switch falls for a view covering `px_per_m_at_1m` pixels a metre at one
    /// metre: `(what is left, metres)`, nearest first. What is left is the level index,
    /// or `None` for the cards (the last entry is always the change to the surface; a
    /// layer whose cards are under a pixel where its last level leaves goes straight to
    /// it).
    #[must_use]
    pub fn distances(&self, px_per_m_at_1m: f32) -> Vec<(Option<usize>, f32)> {
        let at = |m: f32, px: f32| m * px_per_m_at_1m / px;
        let last = self.widen.len().saturating_sub(1);
        let mut out: Vec<(Option<usize>, f32)> = (0..last)
            .map(|k| (Some(k), at(self.width_m * self.widen[k], self.switch_px)))
            .collect();
        let widest = self.widen.get(last).copied().unwrap_or(1.0);
        out.push((Some(last), at(self.width_m * widest, self.switch_px)));
        if self.ends_in_cards() {
            out.push((None, at(self.card_height_m, self.card_switch_px)));
        }
        out
    }

    /// Whether the last strand level leaves for the cards (else for the surface alone):
    /// whether a card is still at least [`Self::card_switch_px`] tall where the last
    /// level's strands fall under [`Self::switch_px`], from any distance.
    #[must_use]
    pub fn ends_in_cards(&self) -> bool {
        let widest = self.widen.last().copied().unwrap_or(1.0);
        self.card_height_m / self.card_switch_px > self.width_m * widest / self.switch_px
    }
}

/// How far a card's picture reaches along its strands, as a multiple of the card's
/// height. A card's picture spans the tallest strand; a point at height `h` of it shows strands
/// `h / length` of the way to their tips, on average over the strands (weighted by their
/// area `width · length`) `h · tallest · E[1 / length]` = `h · tallest · Σ width /
/// Σ width · length` in units of the picture. The card's shading reads "along" for the
/// canopy's depth as its height times this (never below 1; the shader stops it at the
/// tip), so the crown of a short strand is lit as a crown, as the strand itself is.
#[must_use]
pub fn along_scale(set: &StrandSet) -> f32 {
    let tallest = set.length.iter().copied().fold(0.0f32, f32::max);
    let (width, area) = set
        .length
        .iter()
        .zip(&set.width)
        .filter(|(l, _)| **l > 0.0)
        .fold((0.0f64, 0.0f64), |(w, a), (&l, &wi)| {
            (w + f64::from(wi), a + f64::from(wi * l))
        });
    if area > 0.0 {
        (f64::from(tallest) * width / area).max(1.0) as f32
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_fall_nearest_first_and_scale_with_the_view() {
        let s = Switches {
            width_m: 0.002,
            widen: vec![1.0, 2.0, 4.0],
            card_height_m: 0.1,
            card_along_scale: 1.0,
            switch_px: SWITCH_PX,
            card_switch_px: CARD_SWITCH_PX,
            fade_band: FADE_BAND,
            reference_distances_m: Vec::new(),
        };
        let near = s.distances(1000.0);
        assert_eq!(
            near,
            vec![
                (Some(0), 2.0),
                (Some(1), 4.0),
                (Some(2), 8.0),
                (None, 100.0)
            ]
        );
        // Twice the pixels a metre: every switch twice as far.
        let far = s.distances(2000.0);
        for (a, b) in near.iter().zip(&far) {
            assert!((b.1 - 2.0 * a.1).abs() < 1e-4);
        }
        assert!(s.ends_in_cards());
        // Cards too small to outlast the last level: straight to the surface.
        let tiny = Switches {
            card_height_m: 0.001,
            ..s
        };
        assert_eq!(tiny.distances(1000.0).last(), Some(&(Some(2), 8.0)));
        assert!(!tiny.ends_in_cards());
    }
}
