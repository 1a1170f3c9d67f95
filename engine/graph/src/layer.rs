//! Strand layers: what a material asks to grow on its surface.
//!
//! A layer's ports read ordinary graph fields, once per strand at its root; its settings
//! say how candidates are laid out, clumped, meshed and thinned into levels.

use crate::link::Input;
use crate::value::{PortType, Value};
use serde::{Deserialize, Serialize};

/// A strand-layer port: name, type, default and what it means.
#[derive(Clone, Copy, Debug)]
pub struct StrandPort {
    /// The key in files (`"density"`).
    pub name: &'static str,
    /// Its type.
    pub ty: PortType,
    /// What a new layer holds there.
    pub default: Value,
    /// One line for tooltips.
    pub doc: &'static str,
}

/// Every strand-layer port, in display order.
pub const STRAND_PORTS: [StrandPort; 13] = [
    StrandPort {
        name: "density",
        ty: PortType::Float,
        default: Value::Float(1.0),
        doc: "Threshold in [0,1]: a candidate grows iff its own hash is below this value",
    },
    StrandPort {
        name: "length",
        ty: PortType::Float,
        default: Value::Float(0.06),
        doc: "Strand length in metres",
    },
    StrandPort {
        name: "width",
        ty: PortType::Float,
        default: Value::Float(0.003),
        doc: "Strand width at the root in metres",
    },
    StrandPort {
        name: "lean",
        ty: PortType::Vec2,
        default: Value::Vec2([0.0, 0.0]),
        doc: "Tip displacement along the surface, as a fraction of the length (u, v)",
    },
    StrandPort {
        name: "bend",
        ty: PortType::Float,
        default: Value::Float(0.3),
        doc: "How much the strand curves over its length, 0 straight to 1 strongly bent",
    },
    StrandPort {
        name: "root_color",
        ty: PortType::Color,
        default: Value::Color([0.05, 0.08, 0.02]),
        doc: "Linear RGB at the root",
    },
    StrandPort {
        name: "tip_color",
        ty: PortType::Color,
        default: Value::Color([0.3, 0.4, 0.1]),
        doc: "Linear RGB at the tip",
    },
    StrandPort {
        name: "clump_offset",
        ty: PortType::Vec2,
        default: Value::Vec2([0.0, 0.0]),
        doc: "Moves a root after its clump is chosen, in UV units",
    },
    StrandPort {
        name: "curl",
        ty: PortType::Float,
        default: Value::Float(0.0),
        doc: "Curl radius as a fraction of the length (0 none, up to 0.25): the strand \
              winds round its own axis",
    },
    StrandPort {
        name: "curl_turns",
        ty: PortType::Float,
        default: Value::Float(2.0),
        doc: "How many times a curled strand winds round its axis from root to tip (up to 8)",
    },
    StrandPort {
        name: "frizz",
        ty: PortType::Float,
        default: Value::Float(0.0),
        doc: "A wobble of each strand's own, growing toward the tip to this fraction of \
              the length (up to 0.3)",
    },
    StrandPort {
        name: "tip_width",
        ty: PortType::Float,
        default: Value::Float(0.2),
        doc: "The tip's width as a fraction of the root's: 0 comes to a point, 1 does not \
              taper",
    },
    StrandPort {
        name: "taper",
        ty: PortType::Float,
        default: Value::Float(1.0),
        doc: "The width profile along the length: 1 narrows evenly, above 1 keeps the \
              width and narrows near the tip (a blade), below 1 narrows early (a needle)",
    },
];

/// The documented range of each strand port whose values the scatter holds inside one
/// (per channel); `None` for the ports it takes as they come (density, length, width,
/// clump offset).
#[must_use]
pub fn port_range(port: &str) -> Option<(f32, f32)> {
    use tuft_strands::set::{MAX_COLOR, MAX_LEAN};
    use tuft_strands::shape::{MAX_CURL, MAX_CURL_TURNS, MAX_FRIZZ, TAPER_RANGE};
    Some(match port {
        "bend" | "tip_width" => (0.0, 1.0),
        "lean" => (-MAX_LEAN, MAX_LEAN),
        "root_color" | "tip_color" => (0.0, MAX_COLOR),
        "curl" => (0.0, MAX_CURL),
        "curl_turns" => (0.0, MAX_CURL_TURNS),
        "frizz" => (0.0, MAX_FRIZZ),
        "taper" => TAPER_RANGE,
        _ => return None,
    })
}

pub use tuft_strands::levels::LevelSettings;
pub use tuft_strands::macro_variation::MacroVariation;
pub use tuft_strands::mesh::Profile;

pub use tuft_strands::cards::CardSettings;

fn default_port(name: &str) -> Input {
    let port = STRAND_PORTS
        .iter()
        .find(|p| p.name == name)
        .expect("every strand port has a description");
    Input::Const(port.default)
}

macro_rules! port_default {
    ($($f:ident),*) => {
        $(pub(super) fn $f() -> Input { default_port(stringify!($f)) })*
    };
}

mod port_defaults {
    use super::{Input, default_port};
    port_default!(
        density,
        length,
        width,
        lean,
        bend,
        root_color,
        tip_color,
        clump_offset,
        curl,
        curl_turns,
        frizz,
        tip_width,
        taper
    );
}

/// How much each strand varies around its fields, before `clump_share` decides how much
/// of that variation the clump shares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variation {
    /// Length varies by ± this fraction.
    pub length: f32,
    /// Lean gains a random vector up to this long (a fraction of the length).
    pub lean: f32,
    /// Colours brighten or darken by ± this fraction.
    pub color: f32,
}

impl Default for Variation {
    fn default() -> Self {
        Self {
            length: 0.3,
            lean: 0.15,
            color: 0.15,
        }
    }
}

fn default_lattice() -> u32 {
    256
}
fn default_clump_lattice() -> u32 {
    24
}
fn default_clump_share() -> f32 {
    0.6
}
fn default_tip_pull() -> f32 {
    0.3
}
fn default_profile() -> Profile {
    Profile::Ribbon { segments: 4 }
}

/// One named strand layer of a material.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrandLayer {
    /// Seeds every hash of this layer.
    #[serde(default)]
    pub seed: u64,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::density")]
    pub density: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::length")]
    pub length: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::width")]
    pub width: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::lean")]
    pub lean: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::bend")]
    pub bend: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::root_color")]
    pub root_color: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::tip_color")]
    pub tip_color: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::clump_offset")]
    pub clump_offset: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::curl")]
    pub curl: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::curl_turns")]
    pub curl_turns: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::frizz")]
    pub frizz: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::tip_width")]
    pub tip_width: Input,
    /// See [`STRAND_PORTS`].
    #[serde(default = "port_defaults::taper")]
    pub taper: Input,
    /// Candidates per side of the repeat: the layer has `lattice²` candidates on a
    /// jittered lattice.
    #[serde(default = "default_lattice")]
    pub lattice: u32,
    /// Clump points per side of the repeat.
    #[serde(default = "default_clump_lattice")]
    pub clump_lattice: u32,
    /// Share in `[0, 1]` of each per-strand variation taken from the clump instead.
    #[serde(default = "default_clump_share")]
    pub clump_share: f32,
    /// How far in `[0, 1]` each tip is pulled toward its clump's centre.
    #[serde(default = "default_tip_pull")]
    pub tip_pull: f32,
    /// Per-strand variation around the fields.
    #[serde(default)]
    pub variation: Variation,
    /// How strands are meshed.
    #[serde(default = "default_profile")]
    pub profile: Profile,
    /// Rank-cut levels.
    #[serde(default)]
    pub levels: LevelSettings,
    /// The card level.
    #[serde(default)]
    pub cards: CardSettings,
    /// Variation over the ground at a scale of metres (thinning, length, tint), so a
    /// field of repeats does not show their grid.
    #[serde(default, skip_serializing_if = "MacroVariation::is_off")]
    pub macro_variation: MacroVariation,
}

impl Default for StrandLayer {
    fn default() -> Self {
        Self {
            seed: 0,
            density: port_defaults::density(),
            length: port_defaults::length(),
            width: port_defaults::width(),
            lean: port_defaults::lean(),
            bend: port_defaults::bend(),
            root_color: port_defaults::root_color(),
            tip_color: port_defaults::tip_color(),
            clump_offset: port_defaults::clump_offset(),
            curl: port_defaults::curl(),
            curl_turns: port_defaults::curl_turns(),
            frizz: port_defaults::frizz(),
            tip_width: port_defaults::tip_width(),
            taper: port_defaults::taper(),
            lattice: default_lattice(),
            clump_lattice: default_clump_lattice(),
            clump_share: default_clump_share(),
            tip_pull: default_tip_pull(),
            variation: Variation::default(),
            profile: default_profile(),
            levels: LevelSettings::default(),
            cards: CardSettings::default(),
            macro_variation: MacroVariation::OFF,
        }
    }
}

/// Keeps `keep` of every layer's strands of `strands` on top of each layer's own
/// `layer_keep`: the rank prefix, widened as the levels widen — the same material,
/// thinner and cheaper (a bake's `--keep`, the export dialog's "Keep"). Errs, naming the
/// layer, where `keep` is outside (0, 1] or a layer's levels would widen past their limit.
pub fn thin(
    strands: &mut std::collections::BTreeMap<String, StrandLayer>,
    keep: f32,
) -> Result<(), String> {
    if !(keep > 0.0 && keep <= 1.0) {
        return Err(format!("the share kept is {keep}, outside (0, 1]"));
    }
    for (name, layer) in strands {
        layer.levels.layer_keep *= keep;
        if let Some(problem) = layer.levels.problems().first() {
            return Err(format!(
                "keeping {keep} thins strands.{name} too far: {problem}"
            ));
        }
    }
    Ok(())
}

impl StrandLayer {
    /// The ports with what feeds them, in [`STRAND_PORTS`] order.
    #[must_use]
    pub fn ports(&self) -> [(&'static str, &Input); 13] {
        [
            ("density", &self.density),
            ("length", &self.length),
            ("width", &self.width),
            ("lean", &self.lean),
            ("bend", &self.bend),
            ("root_color", &self.root_color),
            ("tip_color", &self.tip_color),
            ("clump_offset", &self.clump_offset),
            ("curl", &self.curl),
            ("curl_turns", &self.curl_turns),
            ("frizz", &self.frizz),
            ("tip_width", &self.tip_width),
            ("taper", &self.taper),
        ]
    }

    /// The ports, mutably.
    pub fn ports_mut(&mut self) -> [(&'static str, &mut Input); 13] {
        [
            ("density", &mut self.density),
            ("length", &mut self.length),
            ("width", &mut self.width),
            ("lean", &mut self.lean),
            ("bend", &mut self.bend),
            ("root_color", &mut self.root_color),
            ("tip_color", &mut self.tip_color),
            ("clump_offset", &mut self.clump_offset),
            ("curl", &mut self.curl),
            ("curl_turns", &mut self.curl_turns),
            ("frizz", &mut self.frizz),
            ("tip_width", &mut self.tip_width),
            ("taper", &mut self.taper),
        ]
    }

    /// How many candidates the lattice holds.
    #[must_use]
    pub fn n_candidates(&self) -> u64 {
        u64::from(self.lattice) * u64::from(self.lattice)
    }

    /// Problems with the settings (not the ports), in words.
    #[must_use]
    pub fn check_settings(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.lattice == 0 {
            problems.push("lattice must be at least 1".to_owned());
        }
        if self.clump_lattice == 0 || self.clump_lattice > self.lattice.max(1) {
            problems.push(format!(
                "clump_lattice {} must lie in 1..={} (the candidate lattice)",
                self.clump_lattice, self.lattice
            ));
        }
        for (name, x) in [
            ("clump_share", self.clump_share),
            ("tip_pull", self.tip_pull),
        ] {
            if !(0.0..=1.0).contains(&x) {
                problems.push(format!("{name} is {x}, outside [0, 1]"));
            }
        }
        let v = &self.variation;
        for (name, x) in [("length", v.length), ("lean", v.lean), ("color", v.color)] {
            if !(0.0..=1.0).contains(&x) {
                problems.push(format!("variation.{name} is {x}, outside [0, 1]"));
            }
        }
        problems.extend(self.macro_variation.problems());
        problems.extend(self.profile.problems());
        problems.extend(self.levels.problems());
        problems.extend(self.cards.problems());
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_multiplies_every_layers_own_share_and_refuses_what_is_out_of_range() {
        let mut strands = std::collections::BTreeMap::new();
        let mut fur = StrandLayer::default();
        fur.levels.layer_keep = 0.8;
        strands.insert("fur".to_owned(), fur);
        strands.insert("moss".to_owned(), StrandLayer::default());
        let before = strands.clone();
        for keep in [0.0, -1.0, 1.5, f32::NAN] {
            let mut s = before.clone();
            let e = thin(&mut s, keep).expect_err("out of (0, 1]");
            assert!(e.contains("outside (0, 1]"), "{e}");
            assert_eq!(s, before, "nothing changed");
        }
        thin(&mut strands, 0.5).unwrap();
        assert_eq!(strands["fur"].levels.layer_keep, 0.4);
        assert_eq!(
            strands["moss"].levels.layer_keep,
            before["moss"].levels.layer_keep * 0.5
        );
    }
}
