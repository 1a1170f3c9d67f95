//! The preview's light: a sun and a sky, read from `assets/light.ron`.

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// A sun and a hemisphere of sky and ground light. Colours are linear RGB.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Light {
    /// Direction toward the sun (normalised when used).
    pub sun_dir: [f32; 3],
    /// Irradiance on a surface facing the sun.
    pub sun_color: [f32; 3],
    /// Ambient light from straight above.
    pub sky_color: [f32; 3],
    /// Ambient light from straight below.
    pub ground_color: [f32; 3],
}

/// The light shipped in `assets/light.ron`.
pub const LIGHT_RON: &str = include_str!("../../../assets/light.ron");

impl Light {
    /// Parses a light from RON.
    ///
    /// # Errors
    /// Malformed RON, or a field missing or unknown.
    pub fn from_ron(text: &str) -> Result<Self, ron::error::SpannedError> {
        ron::from_str(text)
    }

    /// The unit direction toward the sun (straight up if the stored one is zero).
    #[must_use]
    pub fn sun(&self) -> Vec3 {
        Vec3::from(self.sun_dir).normalize_or(Vec3::Y)
    }
}

impl Default for Light {
    /// The shipped light (`assets/light.ron`).
    fn default() -> Self {
        Self::from_ron(LIGHT_RON).unwrap_or(Self {
            sun_dir: [0.45, 0.78, 0.43],
            sun_color: [2.7, 2.55, 2.3],
            sky_color: [0.42, 0.52, 0.68],
            ground_color: [0.16, 0.14, 0.11],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_light_parses() {
        let light = Light::from_ron(LIGHT_RON).expect("assets/light.ron parses");
        assert!(light.sun().y > 0.0, "the sun is above the horizon");
    }
}
