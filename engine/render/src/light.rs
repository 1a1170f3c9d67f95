//! The preview's light: a sun and a sky, read from `assets/light.ron`.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::f32::consts::TAU;

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

/// Where the sun stands, in turns: its azimuth about the vertical (0 toward +z, a quarter
/// turn toward +x) and its elevation over the horizon (0.25 overhead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SunAngles {
    /// Turns about the vertical, from +z toward +x.
    pub azimuth: f32,
    /// Turns over the horizon, -0.25 to 0.25.
    pub elevation: f32,
}

impl SunAngles {
    /// The unit direction toward the sun (straight up where an angle is not finite).
    #[must_use]
    pub fn direction(self) -> Vec3 {
        if !(self.azimuth.is_finite() && self.elevation.is_finite()) {
            return Vec3::Y;
        }
        let (az, el) = (self.azimuth * TAU, self.elevation.clamp(-0.25, 0.25) * TAU);
        Vec3::new(el.cos() * az.sin(), el.sin(), el.cos() * az.cos())
    }

    /// Where the shipped light (`assets/light.ron`) puts the sun, read once.
    #[must_use]
    pub fn shipped() -> Self {
        static SHIPPED: std::sync::OnceLock<SunAngles> = std::sync::OnceLock::new();
        *SHIPPED.get_or_init(|| Self::of(Light::default().sun()))
    }

    /// The angles of direction `toward` (azimuth in [0, 1)).
    #[must_use]
    pub fn of(toward: Vec3) -> Self {
        let d = toward.normalize_or(Vec3::Y);
        Self {
            azimuth: (d.x.atan2(d.z) / TAU).rem_euclid(1.0),
            elevation: d.y.clamp(-1.0, 1.0).asin() / TAU,
        }
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
    fn sun_angles_and_directions_turn_into_each_other() {
        let shipped = Light::default().sun();
        let angles = SunAngles::of(shipped);
        assert_eq!(SunAngles::shipped(), angles);
        assert!((angles.direction() - shipped).length() < 1e-5, "{angles:?}");
        assert!(
            angles.elevation > 0.1 && angles.elevation < 0.2,
            "{angles:?}"
        );
        let cases = [
            (0.0, 0.0, Vec3::Z),
            (0.25, 0.0, Vec3::X),
            (0.5, 0.0, -Vec3::Z),
        ];
        for (azimuth, elevation, want) in cases {
            let d = SunAngles { azimuth, elevation }.direction();
            assert!((d - want).length() < 1e-5, "{azimuth} {elevation}: {d}");
        }
        let overhead = SunAngles {
            azimuth: 0.3,
            elevation: 0.25,
        }
        .direction();
        assert!((overhead - Vec3::Y).length() < 1e-5, "{overhead}");
        for azimuth in [0.0, 0.1, 0.6, 0.95] {
            let a = SunAngles {
                azimuth,
                elevation: 0.05,
            };
            let back = SunAngles::of(a.direction());
            assert!(
                (back.azimuth - azimuth).abs() < 1e-5 && (back.elevation - 0.05).abs() < 1e-5,
                "{back:?}"
            );
        }
        let bad = SunAngles {
            azimuth: f32::NAN,
            elevation: 0.1,
        };
        assert_eq!(bad.direction(), Vec3::Y);
    }

    #[test]
    fn the_shipped_light_parses() {
        let light = Light::from_ron(LIGHT_RON).expect("assets/light.ron parses");
        assert!(light.sun().y > 0.0, "the sun is above the horizon");
    }
}
