//! Offscreen frames: a device of its own on whatever adapter wgpu finds (a software one
//! on a machine without a GPU), a frame drawn into a texture and read back.

use crate::renderer::{DEPTH_FORMAT, GpuScene, Renderer};
use crate::scene::{FrameStats, Scene, View};
use crate::target::Target;
use crate::turn::DeviceTurn;
use tuft_strands::num::srgb8_to_linear;

/// Why a frame could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No adapter at all.
    #[error("no graphics adapter found (wgpu tried {backends}): {source}")]
    NoAdapter {
        /// The backends tried.
        backends: String,
        /// wgpu's reason.
        source: wgpu::RequestAdapterError,
    },
    /// The adapter refused a device.
    #[error("the graphics adapter refused a device: {0}")]
    NoDevice(#[from] wgpu::RequestDeviceError),
    /// A size of zero or past the adapter's limit.
    #[error("frame size {width}×{height} is outside 1..={max} per side")]
    Size {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// The adapter's largest texture side.
        max: u32,
    },
    /// Reading the frame back failed.
    #[error("reading the frame back failed: {0}")]
    Readback(String),
    /// The adapter lacks something the renderer needs ([`crate::renderer::missing_capability`]).
    #[error("{0}")]
    Unsupported(String),
}

/// A frame read back: RGBA8, sRGB colour over a transparent background, alpha the
/// material's coverage of each pixel (so colour is premultiplied by coverage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Rows top to bottom, 4 bytes a pixel.
    pub rgba: Vec<u8>,
}

impl Image {
    /// The mean colour of the material's pixels, linear RGB, each pixel weighted by its
    /// coverage; `None` when nothing was drawn.
    #[must_use]
    pub fn mean_color(&self) -> Option<[f64; 3]> {
        let mut sum = [0.0f64; 3];
        let mut cover = 0.0f64;
        for p in self.rgba.chunks_exact(4) {
            let a = f64::from(p[3]) / 255.0;
            if a == 0.0 {
                continue;
            }
            for c in 0..3 {
                // Stored colour is the linear colour × coverage, encoded as sRGB.
                sum[c] += f64::from(srgb8_to_linear(p[c]));
            }
            cover += a;
        }
        (cover > 0.0).then(|| sum.map(|s| s / cover))
    }

    /// The mean colours of `self` and `other` (same size) inside the outline of
    /// `outline` (a frame of the bare surface, say): over the pixels all three cover
    /// whole, linear RGB. What changed where both frames show the material, leaving out
    /// the silhouette (strands or cards past the surface's outline, which one frame may
    /// have and the other not) and the pixels covered in part; `None` when there is no
    /// such pixel or the sizes differ.
    #[must_use]
    pub fn mean_colors_inside(&self, other: &Self, outline: &Self) -> Option<([f64; 3], [f64; 3])> {
        let size = (self.width, self.height);
        if size != (other.width, other.height) || size != (outline.width, outline.height) {
            return None;
        }
        let mut sums = [[0.0f64; 3]; 2];
        let mut n = 0u64;
        let pixels = self.rgba.chunks_exact(4).zip(other.rgba.chunks_exact(4));
        for ((p, q), o) in pixels.zip(outline.rgba.chunks_exact(4)) {
            if p[3] != 255 || q[3] != 255 || o[3] != 255 {
                continue;
            }
            for c in 0..3 {
                sums[0][c] += f64::from(srgb8_to_linear(p[c]));
                sums[1][c] += f64::from(srgb8_to_linear(q[c]));
            }
            n += 1;
        }
        let n = n as f64;
        (n > 0.0).then(|| (sums[0].map(|s| s / n), sums[1].map(|s| s / n)))
    }

    /// How much the frame's luminance repeats itself `lag_px` pixels away, across and
    /// down: the normalised autocorrelation (1 for a pattern that repeats exactly, 0
    /// for none) of the mean luminance over `block` × `block` pixel blocks (1: the
    /// pixels themselves), at the whole blocks either side of the lag, the larger. What
    /// a repeat seen from above shows at its period: per pixel it counts the blades'
    /// own detail, which a sub-pixel shift between repeats already decorrelates; over
    /// blocks, the patches an eye sees as a grid. `None` for a frame no bigger than the
    /// lag, or a flat one.
    #[must_use]
    pub fn autocorrelation(&self, lag_px: f32, block: u32) -> Option<f64> {
        let b = block.max(1) as usize;
        let (w, h) = (self.width as usize / b, self.height as usize / b);
        let mut luma = vec![0.0f64; w * h];
        for (y, row) in self.rgba.chunks_exact(self.width as usize * 4).enumerate() {
            if y / b >= h {
                break;
            }
            for (x, p) in row.chunks_exact(4).enumerate().take(w * b) {
                luma[(y / b) * w + x / b] +=
                    0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
            }
        }
        let mean = luma.iter().sum::<f64>() / luma.len().max(1) as f64;
        let centred: Vec<f64> = luma.iter().map(|l| l - mean).collect();
        let at = |x: usize, y: usize| centred[y * w + x];
        let at_lag = |d: usize| -> Option<f64> {
            if d == 0 || d >= w || d >= h {
                return None;
            }
            let (mut sum, mut var, mut n) = (0.0, 0.0, 0usize);
            for y in 0..h - d {
                for x in 0..w - d {
                    let c = at(x, y);
                    sum += c * at(x + d, y) + c * at(x, y + d);
                    var += 2.0 * c * c;
                    n += 2;
                }
            }
            (var > 0.0 && n > 0).then(|| sum / var)
        };
        let lag = lag_px.max(0.0) / b as f32;
        match (at_lag(lag.floor() as usize), at_lag(lag.ceil() as usize)) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// The fraction of the frame the material covers.
    #[must_use]
    pub fn coverage(&self) -> f64 {
        let n = (self.rgba.len() / 4).max(1) as f64;
        self.rgba
            .chunks_exact(4)
            .map(|p| f64::from(p[3]) / 255.0)
            .sum::<f64>()
            / n
    }

    /// The frame over a background colour (sRGB), opaque.
    #[must_use]
    pub fn over(&self, background: [u8; 3]) -> Vec<u8> {
        let mut out = self.rgba.clone();
        for p in out.chunks_exact_mut(4) {
            let a = u32::from(p[3]);
            for c in 0..3 {
                p[c] =
                    (u32::from(p[c]) + (255 - a) * u32::from(background[c]) / 255).min(255) as u8;
            }
            p[3] = 255;
        }
        out
    }
}

/// The linear colour `mean_color` reports, as 8-bit sRGB code values (fractional).
#[must_use]
pub fn srgb_codes(linear: [f64; 3]) -> [f64; 3] {
    linear.map(|c| f64::from(tuft_strands::num::linear_to_srgb(c as f32)) * 255.0)
}

/// A frame drawn offscreen and what it drew.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The pixels.
    pub image: Image,
    /// Counts and levels.
    pub stats: FrameStats,
    /// The render pass's GPU time in milliseconds, where the adapter has timestamp
    /// queries (information only: a software adapter's figure says little about a GPU).
    pub gpu_ms: Option<f64>,
}

/// A headless device and the renderer on it.
pub struct Offscreen {
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: Renderer,
    sample_count: u32,
    gpu: Option<GpuScene>,
    adapter: wgpu::AdapterInfo,
    /// Start and end of the frame's pass, where the adapter has timestamp queries.
    timestamps: Option<wgpu::QuerySet>,
    /// Last, so the device above is gone before the next one may open (`None` on a
    /// device someone else opened: [`Offscreen::on_device`]).
    _turn: Option<DeviceTurn>,
}

/// The colour format frames are drawn in.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

impl Offscreen {
    /// Opens a device on the adapter wgpu finds (honouring `WGPU_BACKEND` and
    /// `WGPU_ADAPTER_NAME`), with 4× multisampling where the adapter has it.
    ///
    /// Waits while another `Offscreen` (or any [`DeviceTurn`]) is alive in the process:
    /// software GL cannot run two at once ([`crate::turn`]).
    ///
    /// # Errors
    /// No adapter, or no device.
    pub fn new() -> Result<Self, RenderError> {
        Self::with_limits(|own| own)
    }

    /// As [`Offscreen::new`], asking for the limits `limits` makes of the adapter's own
    /// (tests lower them to see buffers split).
    ///
    /// # Errors
    /// No adapter, one without what the renderer needs, or no device with those limits.
    pub fn with_limits(
        limits: impl FnOnce(wgpu::Limits) -> wgpu::Limits,
    ) -> Result<Self, RenderError> {
        let turn = DeviceTurn::take();
        let descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        let backends = format!("{:?}", descriptor.backends);
        let instance = wgpu::Instance::new(descriptor);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..wgpu::RequestAdapterOptions::default()
        }))
        .map_err(|source| RenderError::NoAdapter { backends, source })?;
        if let Some(why) = crate::renderer::missing_capability(&adapter, None) {
            return Err(RenderError::Unsupported(why));
        }
        let timed = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let (device, queue) =
            pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("tuft offscreen"),
                required_features: if timed {
                    wgpu::Features::TIMESTAMP_QUERY
                } else {
                    wgpu::Features::empty()
                },
                // The adapter's own limits, not a lowest common denominator: buffers
                // are split to whatever they are (`tile_buffers`).
                required_limits: limits(adapter.limits()),
                ..wgpu::DeviceDescriptor::default()
            }))?;
        Ok(Self::assemble(device, queue, &adapter, Some(turn)))
    }

    /// Draws on a device already open (the editor's window's): no second device is
    /// opened, so no [`DeviceTurn`] is taken, and wgpu orders this thread's work on the
    /// device with the window's. Checks the adapter has what the renderer needs.
    ///
    /// # Errors
    /// The adapter lacks what the renderer needs.
    pub fn on_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter: &wgpu::Adapter,
    ) -> Result<Self, RenderError> {
        if let Some(why) = crate::renderer::missing_capability(adapter, None) {
            return Err(RenderError::Unsupported(why));
        }
        Ok(Self::assemble(device, queue, adapter, None))
    }

    fn assemble(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter: &wgpu::Adapter,
        turn: Option<DeviceTurn>,
    ) -> Self {
        let flags = |f| adapter.get_texture_format_features(f).flags;
        let sample_count = if flags(COLOR_FORMAT).sample_count_supported(4)
            && flags(DEPTH_FORMAT).sample_count_supported(4)
        {
            4
        } else {
            1
        };
        let renderer = Renderer::new(&device, COLOR_FORMAT, sample_count);
        let timed = device.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let timestamps = timed.then(|| {
            device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("tuft frame time"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            })
        });
        Self {
            device,
            queue,
            renderer,
            sample_count,
            gpu: None,
            adapter: adapter.get_info(),
            timestamps,
            _turn: turn,
        }
    }

    /// The adapter in use, in words (name and backend).
    #[must_use]
    pub fn adapter(&self) -> String {
        format!("{} ({:?})", self.adapter.name, self.adapter.backend)
    }

    /// The most chunks any tile of the last frame's scene was split into.
    #[must_use]
    pub fn max_tile_chunks(&self) -> usize {
        self.gpu.as_ref().map_or(0, GpuScene::max_chunks)
    }

    /// The device's limits.
    #[must_use]
    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }

    /// The renderer (to set the light).
    pub fn renderer_mut(&mut self) -> &mut Renderer {
        &mut self.renderer
    }

    /// Draws one frame of `scene` seen as `view` and reads it back.
    ///
    /// # Errors
    /// A size of zero or beyond the adapter, or a failed readback.
    pub fn render(&mut self, scene: &mut Scene, view: &View) -> Result<Frame, RenderError> {
        let (width, height) = (view.width, view.height);
        let max = self.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(RenderError::Size { width, height, max });
        }
        let plan = scene.plan(view);
        if !self.gpu.as_ref().is_some_and(|g| g.holds(scene)) {
            self.gpu = Some(self.renderer.upload_scene(&self.device, &self.queue, scene));
        }
        let gpu = self
            .gpu
            .as_mut()
            .ok_or_else(|| RenderError::Readback("no scene".into()))?;
        self.renderer
            .prepare(&self.device, &self.queue, gpu, scene, &plan, view);
        let extent = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let target = Target::new(
            &self.device,
            [width, height],
            COLOR_FORMAT,
            self.sample_count,
            wgpu::TextureUsages::COPY_SRC,
        );
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("tuft offscreen"),
            });
        target.draw(
            &self.renderer,
            &mut encoder,
            gpu,
            &plan,
            0,
            wgpu::Color::TRANSPARENT,
            self.timestamps.as_ref(),
        );
        let times = self.timestamps.as_ref().map(|query_set| {
            let resolve = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("tuft frame time resolve"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let read = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("tuft frame time read"),
                size: 16,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            });
            encoder.resolve_query_set(query_set, 0..2, &resolve, 0);
            encoder.copy_buffer_to_buffer(&resolve, 0, &read, 0, 16);
            read
        });
        let row = (4 * width).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tuft readback"),
            size: u64::from(row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &target.resolved,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(height),
                },
            },
            extent,
        );
        self.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.wait()
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        rx.recv()
            .map_err(|e| RenderError::Readback(e.to_string()))?
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        let mut rgba = Vec::with_capacity((4 * width * height) as usize);
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| RenderError::Readback(e.to_string()))?;
            for y in 0..height as usize {
                let at = y * row as usize;
                rgba.extend_from_slice(&data[at..at + 4 * width as usize]);
            }
        }
        readback.unmap();
        let gpu_ms = times.and_then(|read| self.read_time(&read));
        Ok(Frame {
            image: Image {
                width,
                height,
                rgba,
            },
            stats: plan.stats,
            gpu_ms,
        })
    }

    /// Waits until the device has done everything submitted. GL caps one wait at about
    /// two seconds however long it is asked to wait (`glClientWaitSync` takes its
    /// nanoseconds as an `i32`), and a software rasteriser sharing its cores can take
    /// longer over a big frame: a timed-out wait is waited again, up to ten minutes.
    fn wait(&self) -> Result<(), wgpu::PollError> {
        let mut waits = 0;
        loop {
            match self.device.poll(wgpu::PollType::wait_indefinitely()) {
                Err(wgpu::PollError::Timeout) if waits < 300 => waits += 1,
                done => return done.map(|_| ()),
            }
        }
    }

    /// The milliseconds between the two timestamps in `read` (already submitted).
    fn read_time(&self, read: &wgpu::Buffer) -> Option<f64> {
        let slice = read.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.wait().ok()?;
        rx.recv().ok()?.ok()?;
        let ticks: [u64; 2] = {
            let data = slice.get_mapped_range().ok()?;
            bytemuck::pod_read_unaligned(&data[..16])
        };
        read.unmap();
        let period_ns = f64::from(self.queue.get_timestamp_period());
        Some(ticks[1].saturating_sub(ticks[0]) as f64 * period_ns / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grey frame: a pattern of `period` pixels (squares, light and dark) plus
    /// per-pixel noise of `noise` codes that does not repeat.
    fn patterned(size: u32, period: u32, noise: f32) -> Image {
        let mut rgba = Vec::new();
        let mut state = 0x2545_f491_u32;
        for y in 0..size {
            for x in 0..size {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let jitter = (state as f32 / u32::MAX as f32 - 0.5) * 2.0 * noise;
                let light = (x % period < period / 2) ^ (y % period < period / 2);
                let v = (if light { 160.0 } else { 96.0 } + jitter).clamp(0.0, 255.0) as u8;
                rgba.extend([v, v, v, 255]);
            }
        }
        Image {
            width: size,
            height: size,
            rgba,
        }
    }

    #[test]
    fn the_autocorrelation_finds_a_repeat_and_blocks_look_past_pixel_noise() {
        let clean = patterned(128, 32, 0.0);
        let at_period = clean.autocorrelation(32.0, 1).unwrap();
        assert!(at_period > 0.99, "{at_period}");
        // Half a period away the squares are inverted.
        let half = clean.autocorrelation(16.0, 1).unwrap();
        assert!(half < -0.9, "{half}");
        // Noise that does not repeat takes the per-pixel figure down; averaged over
        // 8-pixel blocks it is mostly gone, so the blocks see the repeat again.
        let noisy = patterned(128, 32, 90.0);
        let (pixels, blocks) = (
            noisy.autocorrelation(32.0, 1).unwrap(),
            noisy.autocorrelation(32.0, 8).unwrap(),
        );
        assert!(pixels < 0.6, "{pixels}");
        assert!(blocks > 0.9, "{blocks}");
        // A flat frame, or a lag no smaller than the frame, has no figure.
        assert_eq!(patterned(64, 2, 0.0).autocorrelation(70.0, 1), None);
        let flat = Image {
            width: 16,
            height: 16,
            rgba: vec![128; 16 * 16 * 4],
        };
        assert_eq!(flat.autocorrelation(4.0, 1), None);
    }
}
