//! Rank-cut levels of detail.
//!
//! Level `k` keeps the strands with `rank < keep[k]` and widens them by
//! `keep[k]^(−widen_p)`. Survivors of a farther level are a subset of a nearer one's, so
//! nothing reshuffles at a switch, and because sets and tiles are rank-sorted a level is
//! a prefix: an index range over one buffer.
//!
//! Seen from far away, thin strands cover area in proportion to count × width × length;
//! keeping `k` and widening by `k^(−p)` scales it by `k^(1−p)`. Whether coverage really
//! holds is measured ([`reports`]): each level is splatted from above and its mean
//! coverage compared with level 0's.
//!
//! The default is `p = 1`. With `p = ½` the shipped presets' levels kept 0.45–0.60 of
//! level 0's coverage at a quarter and 0.19–0.32 at a sixteenth (`BENCHMARKS.md`):
//! their canopies are not saturated enough for overlap to hide the loss, and a lawn
//! visibly thins and darkens at every switch. With `p = 1` they keep 0.82–0.90 at a
//! quarter and 0.70–0.86 at a sixteenth; the remaining loss is overlap, since fewer,
//! wider strands pile more of their area onto the same spots. `widen_p` stays a layer
//! setting for materials whose canopy says otherwise.

use crate::mesh::Profile;
use crate::relief::splat_prefix;
use crate::set::StrandSet;
use serde::{Deserialize, Serialize};

/// The most any level may widen its strands: `(layer_keep × keep)^(−widen_p)` for its
/// last level. A level that keeps a 256th of the strands at `widen_p` 1, or a 16th at 2,
/// draws a lawn's 3.5 mm blades 0.9 m wide, past where cards stand for them; beyond it the
/// widths (and each level's splat from above) grow without bound, to infinity for a keep
/// near zero.
pub const MAX_WIDEN: f32 = 256.0;

/// A layer's levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSettings {
    /// Fraction of strands each level keeps, starting with 1 and decreasing.
    pub keep: Vec<f32>,
    /// Survivors of a level keeping `k` are widened by `k^(−widen_p)`.
    pub widen_p: f32,
    /// The share of the scattered strands the layer keeps at all, in `(0, 1]`: the
    /// prefix `rank < layer_keep`, widened by `layer_keep^(−widen_p)` with the ranks
    /// stretched back over `[0, 1)` ([`StrandSet::thinned`]), so the levels cut the
    /// thinner layer as they cut the full one. The same lawn, cheaper on every count.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub layer_keep: f32,
}

fn one() -> f32 {
    1.0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_one(x: &f32) -> bool {
    *x == 1.0
}

impl Default for LevelSettings {
    fn default() -> Self {
        Self {
            keep: vec![1.0, 0.25, 0.0625],
            widen_p: 1.0,
            layer_keep: 1.0,
        }
    }
}

impl LevelSettings {
    /// What is out of range in the levels: each a sentence naming the
    /// setting and its range; empty when every one is in range.
    #[must_use]
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let keep = &self.keep;
        if keep.is_empty() || keep[0] != 1.0 {
            problems.push("levels.keep must start with 1".to_owned());
        }
        if keep
            .windows(2)
            .any(|w| w[1].partial_cmp(&w[0]) != Some(std::cmp::Ordering::Less))
            || keep
                .iter()
                .any(|k| k.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
        {
            problems.push(format!(
                "levels.keep {keep:?} must decrease strictly and stay above 0"
            ));
        }
        let layer_keep = self.layer_keep;
        if !(layer_keep > 0.0 && layer_keep <= 1.0) {
            problems.push(format!("levels.layer_keep is {layer_keep}, outside (0, 1]"));
        }
        if !(0.0..=2.0).contains(&self.widen_p) {
            problems.push(format!(
                "levels.widen_p is {}, outside [0, 2]",
                self.widen_p
            ));
        }
        if problems.is_empty() {
            // Keeps decrease and `widen_p` is not negative: the last level widens most.
            let last = keep[keep.len() - 1];
            let widest = self.widest();
            if widest > f64::from(MAX_WIDEN) {
                // A share far below a thousandth reads as powers of ten.
                let share = |x: f32| {
                    if x < 1e-3 {
                        format!("{x:e}")
                    } else {
                        format!("{x}")
                    }
                };
                let kept = if layer_keep < 1.0 {
                    format!(
                        " ({} with layer_keep {})",
                        share(last * layer_keep),
                        share(layer_keep)
                    )
                } else {
                    String::new()
                };
                let times = if widest < 1e6 {
                    format!("{widest:.0}")
                } else {
                    format!("{widest:.1e}")
                };
                problems.push(format!(
                    "levels.keep's last level keeps {} of the strands{kept}, which widens them \
                     {times} times at widen_p {}; the most is {MAX_WIDEN}: keep more, or lower \
                     widen_p",
                    share(last),
                    self.widen_p
                ));
            }
        }
        problems
    }

    /// How many times the last level widens its strands, layer keep included (in `f64`,
    /// where a keep near zero stays finite); 1 without levels.
    #[must_use]
    pub fn widest(&self) -> f64 {
        let last = self.keep.last().copied().unwrap_or(1.0);
        (f64::from(self.layer_keep) * f64::from(last)).powf(-f64::from(self.widen_p))
    }

    /// The smallest share of the scattered strands (a level's keep times the layer
    /// keep) any level may keep at this `widen_p` without widening past [`MAX_WIDEN`];
    /// 0 when `widen_p` is 0.
    #[must_use]
    pub fn least_share(&self) -> f64 {
        if self.widen_p > 0.0 {
            f64::from(MAX_WIDEN).powf(-1.0 / f64::from(self.widen_p))
        } else {
            0.0
        }
    }
    /// The width factor of level `level_idx`.
    #[must_use]
    pub fn widen(&self, level_idx: usize) -> f32 {
        self.keep
            .get(level_idx)
            .map_or(1.0, |k| k.powf(-self.widen_p))
    }
}

/// What one level draws, and how much it covers relative to level 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelReport {
    /// The fraction kept.
    pub keep: f32,
    /// The width factor.
    pub widen: f32,
    /// Strands drawn per repeat.
    pub strands: usize,
    /// Triangles drawn per repeat.
    pub triangles: usize,
    /// Mean coverage from above relative to level 0 (1 = holds).
    pub coverage: f32,
}

/// Resolution of the coverage splat: fine enough to resolve a blade at a 2 m repeat.
pub const COVERAGE_RESOLUTION: usize = 512;

/// Each level's strand count and coverage relative to level 0.
#[must_use]
pub fn reports(
    set: &StrandSet,
    levels: &LevelSettings,
    profile: Profile,
    repeat_m: f32,
) -> Vec<LevelReport> {
    reports_with(set, levels, profile, repeat_m, None)
}

/// As [`reports`], given the whole set's relief where the caller has it already
/// (`relief::splat(set, repeat_m, COVERAGE_RESOLUTION)`, as an evaluator keeps it for
/// the maps): one splat of the whole set fewer. A relief at another resolution is
/// splatted again.
#[must_use]
pub fn reports_with(
    set: &StrandSet,
    levels: &LevelSettings,
    profile: Profile,
    repeat_m: f32,
    whole: Option<&crate::relief::Relief>,
) -> Vec<LevelReport> {
    let mean_of = |r: &crate::relief::Relief| {
        r.coverage.iter().map(|&c| f64::from(c)).sum::<f64>() / r.coverage.len() as f64
    };
    let mean =
        |n: usize, widen: f32| mean_of(&splat_prefix(set, n, widen, repeat_m, COVERAGE_RESOLUTION));
    let full = match whole {
        Some(r) if r.resolution == COVERAGE_RESOLUTION => mean_of(r),
        _ => mean(set.len(), 1.0),
    };
    let base = full.max(1e-12);
    levels
        .keep
        .iter()
        .enumerate()
        .map(|(k, &keep)| {
            let widen = levels.widen(k);
            let strands = set.level_len(keep);
            // Level 0 is usually the whole set unwidened: splatted once already.
            let covered = if strands == set.len() && widen == 1.0 {
                full
            } else {
                mean(strands, widen)
            };
            LevelReport {
                keep,
                widen,
                strands,
                triangles: strands * profile.indices_per_strand() / 3,
                coverage: (covered / base) as f32,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_may_not_widen_its_strands_past_the_limit() {
        let levels = |keep: Vec<f32>, widen_p: f32, layer_keep: f32| LevelSettings {
            keep,
            widen_p,
            layer_keep,
        };
        // The limit itself is allowed; the presets' levels are far inside it.
        assert!(
            levels(vec![1.0, 1.0 / 256.0], 1.0, 1.0)
                .problems()
                .is_empty()
        );
        assert!(
            levels(vec![1.0, 0.25, 0.0625], 2.0, 1.0)
                .problems()
                .is_empty()
        );
        assert!(LevelSettings::default().problems().is_empty());
        // Past it: by the keep, by the layer keep with it, by a keep near zero (whose
        // widening overflows a float), each named with its figures.
        let past = levels(vec![1.0, 0.001], 1.0, 1.0).problems();
        assert_eq!(past.len(), 1, "{past:?}");
        assert!(
            past[0].contains("keeps 0.001 ") && past[0].contains("widens them 1000 times"),
            "{past:?}"
        );
        let with_layer = levels(vec![1.0, 0.25, 0.0625], 1.0, 0.01).problems();
        assert_eq!(with_layer.len(), 1, "{with_layer:?}");
        assert!(
            with_layer[0].contains("layer_keep 0.01") && with_layer[0].contains("1600 times"),
            "{with_layer:?}"
        );
        let near_zero = levels(vec![1.0, 1e-39], 2.0, 1.0).problems();
        assert!(
            near_zero[0].contains("keeps 1e-39 ") && near_zero[0].contains("1.0e78 times"),
            "{near_zero:?}"
        );
        // Without widening, any keep is allowed.
        assert!(levels(vec![1.0, 1e-30], 0.0, 1e-6).problems().is_empty());
        // The least share is the keep that widens exactly to the limit.
        let p2 = levels(vec![1.0], 2.0, 1.0);
        assert!((p2.least_share() - 1.0 / 16.0).abs() < 1e-12);
        assert_eq!(levels(vec![1.0], 0.0, 1.0).least_share(), 0.0);
    }

    #[test]
    fn the_whole_sets_relief_given_reports_what_splatting_it_reports() {
        let set = crate::testing::random_set(3000, 8, 12);
        let levels = LevelSettings::default();
        let profile = Profile::Ribbon { segments: 4 };
        let whole = crate::relief::splat(&set, 2.0, COVERAGE_RESOLUTION);
        let want = reports(&set, &levels, profile, 2.0);
        assert_eq!(
            reports_with(&set, &levels, profile, 2.0, Some(&whole)),
            want
        );
        // A relief at another resolution is not taken for the whole set's.
        let coarse = crate::relief::splat(&set, 2.0, 64);
        assert_eq!(
            reports_with(&set, &levels, profile, 2.0, Some(&coarse)),
            want
        );
    }

    #[test]
    fn widening_is_keep_to_the_minus_p() {
        let levels = LevelSettings {
            keep: vec![1.0, 0.25, 0.0625],
            widen_p: 0.75,
            layer_keep: 1.0,
        };
        for (k, keep) in levels.keep.iter().enumerate() {
            assert!((levels.widen(k) - keep.powf(-0.75)).abs() < 1e-6);
        }
        assert_eq!(LevelSettings::default().widen(2), 16.0);
    }

    #[test]
    fn levels_nest_and_report_their_counts() {
        let mut set = StrandSet::with_capacity(1000);
        for i in 0..1000u32 {
            let h = |c| crate::hash::unit_f32(crate::hash::hash(2, u64::from(i), c));
            set.root_uv.push([h(0), h(1)]);
            set.rank.push(i as f32 / 1000.0);
            set.clump.push(0);
            set.length.push(0.05);
            set.width.push(0.003);
            set.lean.push([0.3, 0.0]);
            set.bend.push(0.2);
            set.root_color.push([0.1; 3]);
            set.tip_color.push([0.2; 3]);
            set.tip_pull.push([0.0; 2]);
            set.id.push(i);
        }
        set.fill_neutral_groom();
        let profile = Profile::Ribbon { segments: 3 };
        let r = reports(&set, &LevelSettings::default(), profile, 1.0);
        assert_eq!(r[0].strands, 1000);
        assert_eq!(r[1].strands, 250);
        assert_eq!(r[2].strands, 63);
        assert_eq!(r[1].triangles, 250 * 6);
        // Every strand of a farther level is in the nearer one: the prefixes nest.
        assert!(r.windows(2).all(|w| w[1].strands <= w[0].strands));
        assert_eq!(r[0].coverage, 1.0);
        assert!(r.iter().all(|l| l.coverage > 0.0));
    }
}
