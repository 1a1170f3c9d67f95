//! Textures the renderer uploads: square RGBA8 images with their mip chains.

/// A box-filtered mip chain of a square RGBA8 image (sRGB colour is filtered as stored;
/// the maps are smooth enough that it does not show).
pub(crate) fn mips(texels: &[[u8; 4]], size: u32) -> Vec<Vec<u8>> {
    let mut out = vec![bytemuck::cast_slice::<[u8; 4], u8>(texels).to_vec()];
    let mut side = size as usize;
    while side > 1 {
        let half = side / 2;
        let prev = out.last().map_or(&[][..], Vec::as_slice);
        let mut next = vec![0u8; half * half * 4];
        for y in 0..half {
            for x in 0..half {
                for c in 0..4 {
                    let at = |xx: usize, yy: usize| u32::from(prev[(yy * side + xx) * 4 + c]);
                    let sum = at(2 * x, 2 * y)
                        + at(2 * x + 1, 2 * y)
                        + at(2 * x, 2 * y + 1)
                        + at(2 * x + 1, 2 * y + 1);
                    next[(y * half + x) * 4 + c] = ((sum + 2) / 4) as u8;
                }
            }
        }
        out.push(next);
        side = half;
    }
    out
}

/// A 2D RGBA8 texture holding `levels` (mip 0 first), sRGB or linear.
pub(crate) fn texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    size: u32,
    levels: &[Vec<u8>],
    srgb: bool,
) -> wgpu::Texture {
    let format = if srgb {
        wgpu::TextureFormat::Rgba8UnormSrgb
    } else {
        wgpu::TextureFormat::Rgba8Unorm
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
        mip_level_count: levels.len().max(1) as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    write_levels(queue, &texture, size, levels);
    texture
}

/// Writes `levels` (mip 0 first) into a square RGBA8 texture of side `size`.
pub(crate) fn write_levels(
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    size: u32,
    levels: &[Vec<u8>],
) {
    for (level, data) in levels.iter().enumerate() {
        let side = (size >> level).max(1);
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * side),
                rows_per_image: Some(side),
            },
            wgpu::Extent3d {
                width: side,
                height: side,
                depth_or_array_layers: 1,
            },
        );
    }
}

/// An RGBA32F texture of `width` × `height` holding `texels` row by row, one level,
/// read unfiltered with `textureLoad` (a tile's roots, the ground's lattice).
pub(crate) fn float_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    width: u32,
    height: u32,
    texels: &[[f32; 4]],
) -> wgpu::Texture {
    let size = wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    queue.write_texture(
        texture.as_image_copy(),
        bytemuck::cast_slice(texels),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(16 * width),
            rows_per_image: Some(height),
        },
        size,
    );
    texture
}
