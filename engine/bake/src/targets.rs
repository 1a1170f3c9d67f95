//! Engine targets: what a baked set adds for the engine it is going to. Every set holds
//! the glTF maps (OpenGL normals, occlusion-roughness-metallic packed as glTF packs it),
//! which the `.glb` files wear; a target adds the maps its engine wants in its own
//! conventions, so they import with no manual step.
//!
//! | Target | Adds | Why |
//! | --- | --- | --- |
//! | `gltf` | nothing | glTF's own conventions |
//! | `godot` | nothing | Godot reads glTF's normals (+Y) and ORM packing |
//! | `unity` | `unity_mask`: R metallic, G occlusion, B detail mask (1), A smoothness | the mask map of Unity's HDRP and URP Lit |
//! | `unreal` | `normal_directx`: the normal map with green flipped (−Y) | Unreal's normal maps are DirectX-style; its ORM packing is glTF's |

use crate::PbrMaps;

/// The value called `name` in `names`, or a message naming `what` and listing the valid
/// names (the command line's choices).
///
/// # Errors
/// An unknown name.
pub(crate) fn by_name<T: Copy>(names: &[(&str, T)], name: &str, what: &str) -> Result<T, String> {
    names
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let valid: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!("no {what} {name:?}: use one of {}", valid.join(", "))
        })
}

/// The name `names` gives `value` (the first entry's where it names none).
pub(crate) fn name_of<T: Copy + PartialEq>(names: &[(&'static str, T)], value: T) -> &'static str {
    names
        .iter()
        .find(|(_, v)| *v == value)
        .or(names.first())
        .map_or("", |(n, _)| n)
}

/// The engine a set is baked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// Any glTF reader.
    #[default]
    Gltf,
    /// Godot.
    Godot,
    /// Unity (HDRP or URP).
    Unity,
    /// Unreal Engine.
    Unreal,
}

impl Target {
    /// Every target, by the name the command line takes.
    pub const NAMES: [(&str, Self); 4] = [
        ("gltf", Self::Gltf),
        ("godot", Self::Godot),
        ("unity", Self::Unity),
        ("unreal", Self::Unreal),
    ];

    /// The target's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        name_of(&Self::NAMES, self)
    }

    /// How the target's meshes are stored unless the author says otherwise. Godot:
    /// 32-bit floats, since Godot 3 ignores KHR_mesh_quantization's normalised
    /// integers (checked in 3.2.3: positions read as 0 to 65535, a 131 km box, and every
    /// colour white); the others quantised.
    #[must_use]
    pub fn default_encoding(self) -> crate::gltf::Encoding {
        match self {
            Self::Godot => crate::gltf::Encoding::Float,
            _ => crate::gltf::Encoding::Quantized,
        }
    }

    /// The largest texture side this target takes. glTF, for any reader: 8192, what
    /// WebGPU (and so wgpu, and a browser's viewer) guarantees every adapter; Godot and
    /// Unity import up to 16384; Unreal 8192, its limit for textures that are not
    /// virtual.
    #[must_use]
    pub const fn max_texture(self) -> usize {
        match self {
            Self::Gltf | Self::Unreal => 8192,
            Self::Godot | Self::Unity => 16384,
        }
    }

    /// The target called `name`, or a message listing the valid names.
    ///
    /// # Errors
    /// An unknown name.
    pub fn from_name(name: &str) -> Result<Self, String> {
        by_name(&Self::NAMES, name, "target")
    }

    /// The maps this target adds to the glTF ones, by name, encoded as PNG.
    ///
    /// # Errors
    /// When a map cannot be encoded.
    pub fn extra_maps(
        self,
        maps: &PbrMaps,
    ) -> Result<Vec<(&'static str, Vec<u8>)>, image::ImageError> {
        let size = maps.resolution as u32;
        match self {
            Self::Gltf | Self::Godot => Ok(Vec::new()),
            Self::Unity => {
                let data: Vec<u8> = (0..maps.roughness.len())
                    .flat_map(|i| {
                        [
                            maps.metallic[i],
                            maps.occlusion[i],
                            1.0,
                            1.0 - maps.roughness[i],
                        ]
                        .map(tuft_strands::num::to_unorm8)
                    })
                    .collect();
                let img = image::RgbaImage::from_raw(size, size, data).expect("four per texel");
                Ok(vec![("unity_mask", crate::maps::png(&img.into())?)])
            }
            Self::Unreal => {
                let data: Vec<u8> = maps
                    .normal
                    .iter()
                    .flat_map(|n| {
                        [n[0], -n[1], n[2]].map(|c| tuft_strands::num::to_unorm8(0.5 + 0.5 * c))
                    })
                    .collect();
                let img = image::RgbImage::from_raw(size, size, data).expect("three per texel");
                Ok(vec![("normal_directx", crate::maps::png(&img.into())?)])
            }
        }
    }
}
