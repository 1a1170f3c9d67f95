//! Where a view is drawn: a multisampled colour buffer resolved into a single-sampled
//! texture, and a depth buffer. The offscreen renderer reads the resolved texture back;
//! the editor's preview samples it into egui's pass.

use crate::renderer::{DEPTH_FORMAT, GpuScene, Renderer};
use crate::scene::FramePlan;

/// A view's colour, resolve and depth buffers.
#[derive(Debug)]
pub struct Target {
    /// Size in pixels.
    pub size: [u32; 2],
    msaa: Option<wgpu::TextureView>,
    /// The resolved colour (usable as `extra_usage` allowed).
    pub resolved: wgpu::Texture,
    /// A view of `resolved`.
    pub resolved_view: wgpu::TextureView,
    depth: wgpu::TextureView,
}

impl Target {
    /// Buffers of `size` pixels in `format` with `samples` samples; the resolved colour
    /// also gets `extra_usage` (`COPY_SRC` to read it back, `TEXTURE_BINDING` to sample
    /// it).
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        size: [u32; 2],
        format: wgpu::TextureFormat,
        samples: u32,
        extra_usage: wgpu::TextureUsages,
    ) -> Self {
        let extent = wgpu::Extent3d {
            width: size[0].max(1),
            height: size[1].max(1),
            depth_or_array_layers: 1,
        };
        let texture = |label, format, samples, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
        let resolved = texture(
            "tuft view",
            format,
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT | extra_usage,
        );
        let msaa = (samples > 1).then(|| {
            view(&texture(
                "tuft view msaa",
                format,
                samples,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            ))
        });
        let depth = view(&texture(
            "tuft view depth",
            DEPTH_FORMAT,
            samples,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        ));
        Self {
            size,
            msaa,
            resolved_view: view(&resolved),
            resolved,
            depth,
        }
    }

    /// Records view `slot` of `plan` (prepared with [`Renderer::prepare_view`]) into this
    /// target, cleared to `clear` first; with `timestamps`, the pass writes its start and
    /// end into queries 0 and 1.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        renderer: &Renderer,
        encoder: &mut wgpu::CommandEncoder,
        gpu: &GpuScene,
        plan: &FramePlan,
        slot: usize,
        clear: wgpu::Color,
        timestamps: Option<&wgpu::QuerySet>,
    ) {
        let (view, resolve_target) = match &self.msaa {
            Some(m) => (m, Some(&self.resolved_view)),
            None => (&self.resolved_view, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("tuft view"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(clear),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: timestamps.map(|query_set| wgpu::RenderPassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            }),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        renderer.paint_view(&mut pass, gpu, plan, slot);
    }
}
