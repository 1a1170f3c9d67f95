//! Tuft's preview renderer: a material's surface maps, strands and cards drawn with wgpu,
//! in a window (through a paint callback) or offscreen.
//!
//! In: a [`Material`] as a game holds it once baked — the maps of one repeat and each
//! strand layer's set with its profile, levels and card settings. Out: frames. The
//! renderer draws what a game would draw (the tile buffers of `tuft-strands`, levels as
//! index ranges, cards with their atlas) and knows nothing of the graph or of egui.
//!
//! Work per frame is split in two: [`Scene::plan`] on the CPU (culling, a level per tile
//! and layer from the projected strand width, draw ranges, planting only the rank
//! prefixes that grew) and [`Renderer::prepare`] / [`Renderer::paint`] on the GPU side.
//!
//! Conventions: metres, y up, angles in turns, colours linear until the sRGB target.
//!
//! Two rules hold the switches between levels. The surface is the truth far away: a
//! strand or card fragment blends, by its distance, toward what the surface shows along
//! its own ray (`ground_behind` in `strands.wgsl`), shaded by the same `shade_surface`
//! and seen through the same canopy (`through_canopy`, `tuft_strands::canopy`);
//! the blend is complete where the last level's fade to the cards begins and starts at
//! half that, so the last level, the cards and the relief meet with one colour. Fragments
//! past a sphere's outline blend toward the strand lit as strands turned every way about
//! the root's normal (`shade_tilted`). And the relief has no silhouette: past the outline
//! the strands and cards stand against the sky over a share of the pixels that no switch
//! distance can hold, so the cards (and the last strand level of a layer without cards)
//! leave by sinking toward their roots over their own fade, thinning the silhouette
//! evenly instead of all at once.
//!
//! A strand level is an index range of a tile's buffer; widening and transitions happen
//! in the vertex stage, so a frame that changes no tile's resident prefix uploads only
//! uniforms.
//!
//! ```no_run
//! use tuft_render::{Material, Offscreen, Scene, SurfaceKind, SurfaceMaps, View};
//! let material = Material {
//!     name: "bare".into(),
//!     repeat_m: 2.0,
//!     maps: SurfaceMaps::flat([90, 120, 60]),
//!     layers: Vec::new(),
//! };
//! let mut scene = Scene::new(material, SurfaceKind::Sphere);
//! let mut offscreen = Offscreen::new()?;
//! let frame = offscreen.render(&mut scene, &View::default())?;
//! println!("{} strands", frame.stats.strands());
//! # Ok::<(), tuft_render::RenderError>(())
//! ```

pub mod baked;
pub mod camera;
pub mod compare;
pub mod light;
pub mod material;
pub mod mesh_file;
pub mod offscreen;
pub mod parity;
pub mod plan;
pub mod renderer;
pub mod scene;
pub mod shaders;
pub mod target;
mod texture;
pub mod tile_buffers;
pub mod turn;

pub use camera::Camera;
pub use light::{Light, SunAngles};
pub use material::{Layer, Material, SurfaceMaps};
pub use offscreen::{Frame, Image, Offscreen, RenderError};
pub use plan::{LevelMode, Rep};
pub use renderer::{GpuScene, Renderer};
pub use scene::{
    FrameBudget, FramePlan, FrameStats, Planted, Planting, Reuse, Scene, SurfaceKind, View, Wind,
    overlay_color,
};
pub use target::Target;
pub use turn::DeviceTurn;
