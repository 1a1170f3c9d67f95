// The material's surface: metal-rough shading of the baked maps under a sun and a sky.

@group(2) @binding(0) var base_map: texture_2d<f32>;
@group(2) @binding(1) var normal_map: texture_2d<f32>;
// r: ambient occlusion, g: roughness, b: metallic.
@group(2) @binding(2) var orm_map: texture_2d<f32>;
@group(2) @binding(3) var map_sampler: sampler;
// Where the canopy stands thick and thin over the repeat (tuft_strands::cover), its
// share of the mean over COVER_MAX.
@group(2) @binding(4) var cover_map: texture_2d<f32>;
// The first layer's tint over flat ground (`ground_tint`; one white texel elsewhere).
@group(2) @binding(5) var tint_map: texture_2d<f32>;

struct SurfaceIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // xyz: unit tangent along +u; w: the handedness of (tangent, bitangent, normal).
    @location(2) tangent: vec4<f32>,
    // In repeats of the material.
    @location(3) uv: vec2<f32>,
    // The macro patch value of the first layer.
    @location(4) macro_patch: f32,
};

struct SurfaceOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv: vec2<f32>,
    @location(4) macro_patch: f32,
};

@vertex
fn vs_surface(v: SurfaceIn) -> SurfaceOut {
    var out: SurfaceOut;
    out.clip = frame.view_proj * vec4<f32>(v.position, 1.0);
    out.world = v.position;
    out.normal = v.normal;
    out.tangent = v.tangent;
    out.uv = v.uv;
    out.macro_patch = v.macro_patch;
    return out;
}

// The mean of the surface's normal curvature along the pixel's two screen directions:
// how far the normal `n` turns per metre moved across the surface at `world`.
fn curvature_here(world: vec3<f32>, n: vec3<f32>) -> f32 {
    let dx = dpdx(world);
    let dy = dpdy(world);
    let kx = dot(dpdx(n), dx) / max(dot(dx, dx), 1e-12);
    let ky = dot(dpdy(n), dy) / max(dot(dy, dy), 1e-12);
    return 0.5 * (kx + ky);
}

@fragment
fn fs_surface(in: SurfaceOut) -> @location(0) vec4<f32> {
    let n_geo = normalize(in.normal);
    if frame.options.x > 0.5 {
        let shade = 0.35 + 0.65 * max(dot(n_geo, frame.sun_dir.xyz), 0.0);
        return vec4<f32>(draw.overlay.rgb * shade, 1.0);
    }
    var tint = macro_tint(in.macro_patch);
    if frame.options.w > 0.0 {
        tint = ground_tint(tint_map, in.world);
    }
    let texel = textureSample(base_map, map_sampler, in.uv).rgb;
    let base = texel * tint;
    let orm = textureSample(orm_map, map_sampler, in.uv).rgb;
    let nt = textureSample(normal_map, map_sampler, in.uv).xyz;
    let t = normalize(in.tangent.xyz - n_geo * dot(n_geo, in.tangent.xyz));
    // OpenGL convention: the map's +y is the surface's +v.
    let b = cross(n_geo, t) * in.tangent.w;
    let shaded = shade_surface(base, orm, nt, t, b, n_geo, in.world);
    // The surface's mean curvature, from how its normal turns across the pixel (1 /
    // radius on a sphere; 0 on flat ground): the canopy fans out over convex ground.
    // Taken before any branch, where derivatives are defined.
    let curvature = curvature_here(in.world, n_geo);
    let duv_dx = dpdx(in.uv);
    let duv_dy = dpdy(in.uv);
    let uv_per_m = length(duv_dx) / max(length(dpdx(in.world)), 1e-9);
    // Near, the strands are drawn and what shows between them is the maps; as they
    // blend toward the far look, so does the ground between them.
    let w = blend_weight(in.world);
    if w <= 0.0 {
        return vec4<f32>(display(shaded), 1.0);
    }
    let v = normalize(frame.eye.xyz - in.world);
    let cover = cover_at(cover_map, map_sampler, in.uv, duv_dx, duv_dy, uv_per_m, v, n_geo);
    let far = through_canopy(shaded, texel, v, t, b, n_geo, tint, curvature, cover);
    return vec4<f32>(display(mix(shaded, far, w)), 1.0);
}
