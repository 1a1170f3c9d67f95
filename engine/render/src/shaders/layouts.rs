//! The structs the CPU writes for the shaders, held to the shaders' own layout as naga
//! reads the WGSL: the same size, and every field where the shader reads it.

use super::{CanopyUniform, DrawParams, FrameUniform, TileUniform, shader_sources};
use std::mem::{offset_of, size_of};
use tuft_strands::mesh::PackedVertex;

/// The size of WGSL struct `name` and each member's name and offset, as naga lays them
/// out (the strand module holds the common structs and its own).
fn wgsl_struct(name: &str) -> (usize, Vec<(String, usize)>) {
    let module = strand_module();
    let ty = module
        .types
        .iter()
        .map(|(_, ty)| ty)
        .find(|ty| ty.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no struct {name} in the shaders"));
    let naga::TypeInner::Struct { members, span } = &ty.inner else {
        panic!("{name} is not a struct");
    };
    let members = members
        .iter()
        .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
        .collect();
    (*span as usize, members)
}

/// The strand module as naga reads it.
fn strand_module() -> naga::Module {
    let (_, source) = shader_sources()
        .into_iter()
        .find(|(module, _)| *module == "strands")
        .expect("the strand module");
    naga::front::wgsl::parse_str(&source).expect("the strand module parses")
}

/// The value of the shaders' f32 constant `name`.
fn wgsl_f32(name: &str) -> f32 {
    let module = strand_module();
    let (_, constant) = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("{name} in the shaders"));
    let naga::Expression::Literal(naga::Literal::F32(value)) =
        module.global_expressions[constant.init]
    else {
        panic!("{name} is not an f32 literal");
    };
    value
}

#[test]
fn the_shaders_read_the_cover_as_the_strands_crate_writes_it() {
    assert_eq!(wgsl_f32("COVER_MAX"), tuft_strands::cover::MAX_RATIO);
}

#[test]
fn the_shaders_sum_the_patch_field_as_the_strands_crate_does() {
    use tuft_strands::macro_variation::{OCTAVE_SCALE, OCTAVE_SHIFT};
    assert_eq!(wgsl_f32("MACRO_OCTAVE_SCALE"), OCTAVE_SCALE);
    assert_eq!(wgsl_f32("MACRO_OCTAVE_SHIFT"), OCTAVE_SHIFT);
}

/// Holds WGSL struct `name` to a Rust struct of `size` bytes whose fields stand at
/// `offsets`, one for each WGSL member by name.
fn same_layout(name: &str, size: usize, offsets: &[(&str, usize)]) {
    let (wgsl_size, members) = wgsl_struct(name);
    assert_eq!(
        wgsl_size, size,
        "{name}: the shader's size against the CPU's"
    );
    let names: Vec<&str> = members.iter().map(|(n, _)| n.as_str()).collect();
    let listed: Vec<&str> = offsets.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names, listed,
        "{name}: the shader's members against the CPU's"
    );
    for ((member, at), (_, expected)) in members.iter().zip(offsets) {
        assert_eq!(
            at, expected,
            "{name}.{member}: the shader's offset against the CPU's"
        );
    }
}

#[test]
fn the_frame_uniform_is_the_shaders_frame() {
    same_layout(
        "Frame",
        size_of::<FrameUniform>(),
        &[
            ("view_proj", offset_of!(FrameUniform, view_proj)),
            ("eye", offset_of!(FrameUniform, eye)),
            ("sun_dir", offset_of!(FrameUniform, sun_dir)),
            ("sun_color", offset_of!(FrameUniform, sun_color)),
            ("sky_color", offset_of!(FrameUniform, sky_color)),
            ("ground_color", offset_of!(FrameUniform, ground_color)),
            ("wind", offset_of!(FrameUniform, wind)),
            ("options", offset_of!(FrameUniform, options)),
            ("ground_tint", offset_of!(FrameUniform, ground_tint)),
            ("ground_lattice", offset_of!(FrameUniform, ground_lattice)),
            ("canopy", offset_of!(FrameUniform, canopy)),
        ],
    );
    same_layout(
        "Canopy",
        size_of::<CanopyUniform>(),
        &[
            ("area", offset_of!(CanopyUniform, area)),
            ("color", offset_of!(CanopyUniform, color)),
            ("color_along", offset_of!(CanopyUniform, color_along)),
            ("ground", offset_of!(CanopyUniform, ground)),
            ("tilt", offset_of!(CanopyUniform, tilt)),
            ("azimuth", offset_of!(CanopyUniform, azimuth)),
        ],
    );
}

#[test]
fn the_draw_parameters_are_the_shaders_draw() {
    let blend = offset_of!(DrawParams, blend_m);
    same_layout(
        "Draw",
        size_of::<DrawParams>(),
        &[
            ("widen_cur", offset_of!(DrawParams, widen_cur)),
            ("widen_next", offset_of!(DrawParams, widen_next)),
            ("fade", offset_of!(DrawParams, fade)),
            ("keep_cur", offset_of!(DrawParams, keep_cur)),
            ("keep_next", offset_of!(DrawParams, keep_next)),
            ("card_visible", offset_of!(DrawParams, card_visible)),
            ("alpha_cutoff", offset_of!(DrawParams, alpha_cutoff)),
            ("verts_per_strand", offset_of!(DrawParams, verts_per_strand)),
            ("overlay", offset_of!(DrawParams, overlay)),
            ("blend_start", blend),
            ("blend_end", blend + size_of::<f32>()),
            ("along_scale", offset_of!(DrawParams, along_scale)),
            ("paired", offset_of!(DrawParams, paired)),
            ("macro_tint", offset_of!(DrawParams, macro_tint)),
            ("macro_length", offset_of!(DrawParams, macro_length)),
            ("sink", offset_of!(DrawParams, sink)),
            ("pad0", offset_of!(DrawParams, pad)),
            ("pad1", offset_of!(DrawParams, pad) + size_of::<f32>()),
            ("pad2", offset_of!(DrawParams, pad) + 2 * size_of::<f32>()),
        ],
    );
}

#[test]
fn the_tile_uniform_is_the_shaders_tile() {
    same_layout(
        "Tile",
        size_of::<TileUniform>(),
        &[
            ("origin", offset_of!(TileUniform, origin)),
            ("extent", offset_of!(TileUniform, extent)),
        ],
    );
}

#[test]
fn a_packed_vertex_is_the_shaders_packed_words() {
    // The shader reads the vertex as two vec4<u32> in the struct's field order: the
    // sizes agree, and the first word group ends where the normal begins.
    same_layout(
        "Packed",
        size_of::<PackedVertex>(),
        &[
            ("a", offset_of!(PackedVertex, position)),
            ("b", offset_of!(PackedVertex, normal)),
        ],
    );
}

#[test]
fn a_field_out_of_place_is_caught() {
    // The check itself: a Rust layout with one field moved fails it.
    let moved = std::panic::catch_unwind(|| {
        same_layout(
            "Tile",
            size_of::<TileUniform>(),
            &[("origin", 0), ("extent", 8)],
        );
    });
    assert!(moved.is_err());
}
