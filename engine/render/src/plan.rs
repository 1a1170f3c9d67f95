//! Level choice: which representation a tile of a layer is drawn with at a distance, and
//! how far the transition to the next one has gone.
//!
//! A strand of width `w` metres at `d` metres is `w · px_per_m(d)` pixels wide. Level `k`
//! draws its survivors `widen_k` times wider; it is used while they are at least
//! [`SWITCH_PX`] wide (the finest level that qualifies wins), then the next cut, then
//! cards while a card is at least [`CARD_SWITCH_PX`] tall, then the relief alone. Over the
//! last [`FADE_BAND`] of each range the tile crossfades to the next representation: the
//! strands that leave drop out through a dither on their own rank, the survivors widen
//! toward the next level's width, the cards come in through their own hash and leave
//! for the relief by sinking into the ground; a layer without cards keeps its last
//! level's strands whole and sinks them too (the continuous last band; what
//! [`strand_drawn`] answers is for the levels that drop). At the switch itself the fade is
//! complete, so the next representation starts exactly where the transition ended:
//! nothing pops.

pub use tuft_strands::switches::{CARD_SWITCH_PX, FADE_BAND, SWITCH_PX};

/// How a tile of one layer is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rep {
    /// Strand level `k` (a rank cut).
    Strands(usize),
    /// The card level.
    Cards,
    /// Nothing but the surface (its relief maps).
    Relief,
}

impl std::fmt::Display for Rep {
    /// `level 0`, `cards`, `relief`: as the command line and the editor print it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Strands(k) => write!(f, "level {k}"),
            Self::Cards => f.write_str("cards"),
            Self::Relief => f.write_str("relief"),
        }
    }
}

/// A representation and how far the transition to the next one has gone (`0..=1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// What is drawn.
    pub rep: Rep,
    /// 0: the representation alone; 1: fully the next one.
    pub fade: f32,
}

/// Which levels the preview draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LevelMode {
    /// By projected width, with dithered transitions.
    #[default]
    Auto,
    /// Always this representation, no transitions.
    Forced(Rep),
}

fn fade_of(size: f32) -> f32 {
    ((1.0 + FADE_BAND - size) / FADE_BAND).clamp(0.0, 1.0)
}

/// Chooses a representation for strands `strand_px` pixels wide at level 0, whose levels
/// widen by `widen` (one factor per level, level 0 first), and cards `card_px` tall.
#[must_use]
pub fn choose(strand_px: f32, widen: &[f32], card_px: f32) -> Choice {
    for (k, w) in widen.iter().enumerate() {
        let size = strand_px * w / SWITCH_PX;
        if size >= 1.0 {
            return Choice {
                rep: Rep::Strands(k),
                fade: fade_of(size),
            };
        }
    }
    let size = card_px / CARD_SWITCH_PX;
    if size >= 1.0 {
        return Choice {
            rep: Rep::Cards,
            fade: fade_of(size),
        };
    }
    Choice {
        rep: Rep::Relief,
        fade: 0.0,
    }
}

/// Whether a strand of rank `rank` is drawn under `choice`, with the layer's `keep`
/// fractions: what the strand vertex stage computes, for tests and figures.
#[must_use]
pub fn strand_drawn(choice: Choice, keep: &[f32], rank: f32) -> bool {
    let Rep::Strands(k) = choice.rep else {
        return false;
    };
    let keep_cur = keep.get(k).copied().unwrap_or(0.0);
    let keep_next = keep.get(k + 1).copied().unwrap_or(0.0);
    if rank >= keep_cur {
        return false;
    }
    if rank < keep_next {
        return true;
    }
    let band = (keep_cur - keep_next).max(1e-6);
    (rank - keep_next) / band < 1.0 - choice.fade
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEEP: [f32; 3] = [1.0, 0.25, 0.0625];
    const WIDEN: [f32; 3] = [1.0, 4.0, 16.0];

    #[test]
    fn the_finest_level_whose_strands_are_a_pixel_wide_is_used() {
        assert_eq!(choose(2.0, &WIDEN, 100.0).rep, Rep::Strands(0));
        assert_eq!(choose(0.5, &WIDEN, 100.0).rep, Rep::Strands(1));
        assert_eq!(choose(0.1, &WIDEN, 100.0).rep, Rep::Strands(2));
        assert_eq!(choose(0.01, &WIDEN, 100.0).rep, Rep::Cards);
        assert_eq!(choose(0.01, &WIDEN, 0.5).rep, Rep::Relief);
    }

    #[test]
    fn a_transition_is_complete_at_its_switch() {
        // Just above the switch the fade is (almost) done; just below, the next level
        // starts with no fade at all.
        let above = choose(1.0001, &WIDEN, 100.0);
        let below = choose(0.9999, &WIDEN, 100.0);
        assert_eq!(above.rep, Rep::Strands(0));
        assert!(above.fade > 0.999);
        assert_eq!(
            below,
            Choice {
                rep: Rep::Strands(1),
                fade: 0.0
            }
        );
        assert_eq!(choose(2.0, &WIDEN, 100.0).fade, 0.0);
    }

    /// Survivors never reshuffle: walking away, a strand once gone never comes back, at
    /// every distance, through every transition.
    #[test]
    fn walking_away_only_ever_drops_strands() {
        let ranks: Vec<f32> = (0..4000).map(|i| (i as f32 + 0.5) / 4000.0).collect();
        let mut drawn: Vec<bool> = vec![true; ranks.len()];
        let mut strand_px = 4.0f32;
        while strand_px > 1e-3 {
            let choice = choose(strand_px, &WIDEN, 50.0);
            for (r, was) in ranks.iter().zip(drawn.iter_mut()) {
                let now = strand_drawn(choice, &KEEP, *r);
                assert!(!now || *was, "rank {r} came back at {strand_px} px");
                *was = now;
            }
            strand_px *= 0.97;
        }
        assert!(
            drawn.iter().all(|d| !d),
            "past the last level no strand is drawn"
        );
    }

    #[test]
    fn a_fade_drops_the_leaving_strands_in_proportion() {
        let choice = Choice {
            rep: Rep::Strands(0),
            fade: 0.5,
        };
        let n = 100_000;
        let kept = (0..n)
            .filter(|i| strand_drawn(choice, &KEEP, (*i as f32 + 0.5) / n as f32))
            .count() as f32
            / n as f32;
        // A quarter survives, and half of the three quarters leaving.
        assert!((kept - (0.25 + 0.75 * 0.5)).abs() < 1e-3, "{kept}");
    }
}
