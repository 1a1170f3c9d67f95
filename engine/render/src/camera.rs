//! The orbit camera: a direction around the surface and a distance from it in metres.

use glam::{Mat4, Vec3};
use serde::{Deserialize, Serialize};

/// An orbit camera looking at the origin. Angles are in turns.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Turn around the vertical axis.
    pub yaw: f32,
    /// Elevation above the horizon, `-0.24..=0.24`.
    pub pitch: f32,
    /// Distance from the surface's nearest point toward the camera, in metres.
    pub distance_m: f32,
    /// Vertical field of view.
    pub fov_y: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            yaw: 0.08,
            pitch: 0.07,
            distance_m: 2.0,
            fov_y: 0.125,
        }
    }
}

impl Camera {
    /// The unit direction from the origin toward the camera.
    #[must_use]
    pub fn direction(&self) -> Vec3 {
        let (yaw, pitch) = (
            self.yaw * std::f32::consts::TAU,
            self.pitch.clamp(-0.24, 0.24) * std::f32::consts::TAU,
        );
        Vec3::new(
            pitch.cos() * yaw.sin(),
            pitch.sin(),
            pitch.cos() * yaw.cos(),
        )
    }

    /// The same camera with its pitch inside what `surface` allows (see
    /// [`crate::SurfaceKind::min_pitch`]).
    #[must_use]
    pub fn kept_above(mut self, surface: crate::SurfaceKind) -> Self {
        self.pitch = self.pitch.clamp(surface.min_pitch(), 0.24);
        self
    }

    /// The eye position for a surface reaching `reach_m` from the origin toward the camera.
    #[must_use]
    pub fn eye(&self, reach_m: f32) -> Vec3 {
        self.direction() * (reach_m + self.distance_m.max(0.01))
    }

    /// The view-projection matrix (wgpu clip space: depth 0..1).
    #[must_use]
    pub fn view_proj(&self, reach_m: f32, aspect: f32) -> Mat4 {
        let eye = self.eye(reach_m);
        let up = if self.direction().y.abs() > 0.999 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, up);
        let d = self.distance_m.max(0.01);
        let near = (0.02 * d).clamp(0.002, 0.5);
        let far = 4.0 * (reach_m + d) + 64.0;
        let proj = glam::camera::rh::proj::directx::perspective(
            self.fov_y.clamp(0.01, 0.45) * std::f32::consts::TAU,
            aspect.max(1e-3),
            near,
            far,
        );
        proj * view
    }

    /// Pixels per metre at `distance_m` from the eye on a viewport `height_px` tall.
    #[must_use]
    pub fn px_per_m(&self, distance_m: f32, height_px: f32) -> f32 {
        let half = 0.5 * self.fov_y.clamp(0.01, 0.45) * std::f32::consts::TAU;
        height_px / (2.0 * distance_m.max(1e-3) * half.tan())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SurfaceKind;

    #[test]
    fn over_the_plane_the_eye_stays_above_the_ground() {
        let under = Camera {
            pitch: -0.2,
            ..Camera::default()
        };
        let kept = under.kept_above(SurfaceKind::Plane);
        assert!(kept.eye(0.0).y > 0.0, "{:?}", kept.eye(0.0));
        assert!(under.eye(0.0).y < 0.0);
        // A sphere is seen from below as well.
        assert_eq!(under.kept_above(SurfaceKind::Sphere).pitch, -0.2);
    }
}
