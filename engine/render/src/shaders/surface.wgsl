// The material's surface: metal-rough shading of the baked maps under a sun and a sky.

@group(2) @binding(0) var base_map: texture_2d<f32>;
@group(2) @binding(1) var normal_map: texture_2d<f32>;
// r: ambient occlusion, g: roughness, b: metallic.
@group(2) @binding(2) var orm_map: texture_2d<f32>;
@group(2) @binding(3) var map_sampler: sampler;

struct SurfaceIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // xyz: unit tangent along +u; w: the handedness of (tangent, bitangent, normal).
    @location(2) tangent: vec4<f32>,
    // In repeats of the material.
    @location(3) uv: vec2<f32>,
};

struct SurfaceOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv: vec2<f32>,
};

@vertex
fn vs_surface(v: SurfaceIn) -> SurfaceOut {
    var out: SurfaceOut;
    out.clip = frame.view_proj * vec4<f32>(v.position, 1.0);
    out.world = v.position;
    out.normal = v.normal;
    out.tangent = v.tangent;
    out.uv = v.uv;
    return out;
}

fn ggx(n_dot_h: f32, roughness: f32) -> f32 {
    let a = roughness * roughness;
    let a2 = a * a;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (3.14159265 * d * d);
}

@fragment
fn fs_surface(in: SurfaceOut) -> @location(0) vec4<f32> {
    let n_geo = normalize(in.normal);
    if frame.options.x > 0.5 {
        let shade = 0.35 + 0.65 * max(dot(n_geo, frame.sun_dir.xyz), 0.0);
        return vec4<f32>(draw.overlay.rgb * shade, 1.0);
    }
    let base = textureSample(base_map, map_sampler, in.uv).rgb;
    let orm = textureSample(orm_map, map_sampler, in.uv).rgb;
    let nt = textureSample(normal_map, map_sampler, in.uv).xyz * 2.0 - 1.0;
    let t = normalize(in.tangent.xyz - n_geo * dot(n_geo, in.tangent.xyz));
    // OpenGL convention: the map's +y is the surface's +v.
    let b = cross(n_geo, t) * in.tangent.w;
    let n = normalize(t * nt.x + b * nt.y + n_geo * nt.z);
    let ao = orm.r;
    let roughness = clamp(orm.g, 0.04, 1.0);
    let metallic = orm.b;
    let l = frame.sun_dir.xyz;
    let v = normalize(frame.eye.xyz - in.world);
    let h = normalize(l + v);
    let n_dot_l = max(dot(n, l), 0.0);
    let n_dot_v = max(dot(n, v), 1e-3);
    let f0 = mix(vec3<f32>(0.04), base, metallic);
    let fresnel = f0 + (1.0 - f0) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    let k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
    let vis = 1.0 / ((n_dot_l * (1.0 - k) + k) * (n_dot_v * (1.0 - k) + k));
    let specular = fresnel * ggx(max(dot(n, h), 0.0), roughness) * vis * 0.25;
    let diffuse = (1.0 - fresnel) * (1.0 - metallic) * base;
    let sun = frame.sun_color.rgb * n_dot_l * (diffuse + specular);
    let sky = ambient(n) * ao * (base * (1.0 - metallic) + f0 * 0.2);
    return vec4<f32>(sun + sky, 1.0);
}
