//! The camera: an orbit (a direction around the surface and a distance from it in
//! metres), or a walker's eye at a point, looking along its yaw and pitch.

use glam::{Mat4, Vec3};
use serde::{Deserialize, Serialize};

/// The side of the field surface, metres (128 repeats of a 2 m lawn): the far plane of a
/// walker's view reaches past it.
pub const FIELD_M: f32 = 256.0;

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
    /// A walker's eye, in metres: when set the camera stands there and looks the way an
    /// orbit camera at the same `yaw` and `pitch` would look back at the origin (so a
    /// positive pitch looks down), and `distance_m` is not used.
    #[serde(default)]
    pub walk_eye: Option<[f32; 3]>,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            yaw: 0.08,
            pitch: 0.07,
            distance_m: 2.0,
            fov_y: 0.125,
            walk_eye: None,
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

    /// The same camera with its pitch at or above `min_pitch` (what a surface allows:
    /// [`crate::SurfaceKind::min_pitch`]); a walker may look down as far as up.
    #[must_use]
    pub fn kept_above(mut self, min_pitch: f32) -> Self {
        let lowest = if self.walk_eye.is_some() {
            -0.24
        } else {
            min_pitch
        };
        self.pitch = self.pitch.clamp(lowest, 0.24);
        self
    }

    /// The eye position for a surface reaching `reach_m` from the origin toward the camera
    /// (or the walker's eye).
    #[must_use]
    pub fn eye(&self, reach_m: f32) -> Vec3 {
        match self.walk_eye {
            Some(e) => Vec3::from(e),
            None => self.direction() * (reach_m + self.distance_m.max(0.01)),
        }
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
        let (view, near, far) = if self.walk_eye.is_some() {
            // The walker looks away from the direction an orbit would look back along.
            let ahead = eye - self.direction();
            let near = (0.02 * eye.y.abs()).clamp(0.005, 0.1);
            let view = glam::camera::rh::view::look_at_mat4(eye, ahead, up);
            (view, near, (2.0 * reach_m + 64.0).max(1.5 * FIELD_M))
        } else {
            let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, up);
            let d = self.distance_m.max(0.01);
            (
                view,
                (0.02 * d).clamp(0.002, 0.5),
                4.0 * (reach_m + d) + 64.0,
            )
        };
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
        let kept = under.kept_above(SurfaceKind::Plane.min_pitch());
        assert!(kept.eye(0.0).y > 0.0, "{:?}", kept.eye(0.0));
        assert!(under.eye(0.0).y < 0.0);
        // A sphere is seen from below as well.
        assert_eq!(
            under.kept_above(SurfaceKind::Sphere.min_pitch()).pitch,
            -0.2
        );
    }

    #[test]
    fn a_walker_stands_at_the_eye_and_looks_ahead_to_the_horizon() {
        let walker = Camera {
            walk_eye: Some([3.0, 1.6, -2.0]),
            yaw: 0.1,
            pitch: 0.02,
            ..Camera::default()
        };
        assert_eq!(walker.eye(5.0), Vec3::new(3.0, 1.6, -2.0));
        let m = walker.view_proj(0.0, 16.0 / 9.0);
        // A point 10 m ahead lands in the middle of the frame, in front of the eye.
        let ahead = walker.eye(0.0) - walker.direction() * 10.0;
        let clip = m * ahead.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        assert!(
            ndc.x.abs() < 1e-4 && ndc.y.abs() < 1e-4 && (0.0..1.0).contains(&ndc.z),
            "{ndc}"
        );
        // The far edge of the field, 250 m off, is still inside the depth range.
        let far = walker.eye(0.0) - walker.direction() * 250.0;
        let clip = m * far.extend(1.0);
        assert!((0.0..1.0).contains(&(clip.z / clip.w)), "{clip}");
        // A walker may look up: the ground's lowest orbit pitch does not apply.
        let up = Camera {
            pitch: -0.1,
            ..walker
        }
        .kept_above(SurfaceKind::Field.min_pitch());
        assert_eq!(up.pitch, -0.1);
    }
}
