//! A full-screen quad whose fragment shader samples a linear RGBA8 texture
//! with the coordinates (0, 0) at the target's top-left corner to (1, 1)
//! at its bottom-right: the texturing tests' and the draw benchmark's
//! scene.

use parsnip_registers::descriptors::{a6xx, a7xx, SamplerDescriptor};
use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xxFormat, A6xxTexClamp, A6xxTexFilter, A6xxTexSwiz,
    A6xxTexType, A6xxTileMode, PcDiPrimtype,
};
use parsnip_registers::Chip;

use super::draw_rig::DrawRig;
use super::graphics_state::{
    draw_auto, program, regid, rgba8_buffer, rgba8_target, Attribute, Framebuffer, Output,
    Pipeline, PrefetchCmd, Setup, Textures, VertexBuffer, NONE,
};
use super::Stream;

/// The vertex shader: position (x, y) in r0.xy out at location 0 as
/// (x, y, 0, 1), the coordinates in r1.xy out at locations 4 and 5.
pub const VS: &str = "
    mov.f32f32 r2.x, r0.x
    mov.f32f32 r2.y, r0.y
    mov.u32u32 r2.z, 0
    mov.u32u32 r2.w, 0x3f800000
    end
";

/// A fragment shader interpolating the coordinates (ij in r0.xy) into
/// r1.xy and looking up with `lookup`, its result in r2.
pub fn fs(lookup: &str) -> String {
    format!(
        "
    (rpt1)bary.f r1.x, (r)4, r0.x
    {lookup}
    end
"
    )
}

/// A 2D RGBA8 texture, linear, `pitch` bytes a row, `levels` levels.
pub fn texture(chip: Chip, base: u64, size: (u32, u32), pitch: u32, levels: u32) -> [u32; 16] {
    macro_rules! descriptor {
        ($t:ty) => {
            <$t>::default()
                .with(|d| {
                    d.tile_mode = A6xxTileMode::TILE6_LINEAR;
                    d.swiz_x = A6xxTexSwiz::A6XX_TEX_X;
                    d.swiz_y = A6xxTexSwiz::A6XX_TEX_Y;
                    d.swiz_z = A6xxTexSwiz::A6XX_TEX_Z;
                    d.swiz_w = A6xxTexSwiz::A6XX_TEX_W;
                    d.miplvls = levels - 1;
                    d.samples = A3xxMsaaSamples::MSAA_ONE;
                    d.fmt = A6xxFormat::FMT6_8_8_8_8_UNORM;
                    d.swap = A3xxColorSwap::WZYX;
                    d.width = size.0;
                    d.height = size.1;
                    d.pitch = pitch;
                    d.r#type = A6xxTexType::A6XX_TEX_2D;
                    d.array_pitch = 0x1000;
                    d.base_lo = base as u32;
                    d.base_hi = (base >> 32) as u32;
                    d.depth = 1;
                })
                .to_raw()
        };
    }
    match chip {
        Chip::A6xx => descriptor!(a6xx::TextureDescriptor),
        Chip::A7xx => descriptor!(a7xx::TextureDescriptor),
    }
}

/// Lets a descriptor literal be built field by field.
trait With: Sized {
    fn with(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}
impl With for a6xx::TextureDescriptor {}
impl With for a7xx::TextureDescriptor {}

pub fn sampler(filter: A6xxTexFilter, mip_linear: bool, max_lod: f32) -> [u32; 4] {
    SamplerDescriptor {
        mipfilter_linear_near: mip_linear,
        xy_mag: filter,
        xy_min: filter,
        wrap_s: A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
        wrap_t: A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
        wrap_r: A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
        max_lod,
        ..Default::default()
    }
    .to_raw()
}

/// The scene, programmed and ready to draw.
pub struct TexturedQuad {
    pub rig: DrawRig,
    pub stream: Stream,
    /// The texture's texels.
    pub image: u64,
    pub target: u64,
    pub size: (u32, u32),
}

/// What the quad samples and how.
pub struct Sampling<'a> {
    pub texels: &'a [u8],
    pub descriptor: &'a dyn Fn(Chip, u64) -> [u32; 16],
    pub sampler: [u32; 4],
    pub shader: &'a str,
    pub prefetch: Option<PrefetchCmd>,
}

/// Bytes a row of a `w`-pixel RGBA8 target: RB_MRT[].PITCH counts 64
/// bytes.
pub fn pitch(w: u32) -> u32 {
    (w * 4).div_ceil(64) * 64
}

impl TexturedQuad {
    /// The quad over a `w` x `h` target on `rig`.
    pub fn new(mut rig: DrawRig, (w, h): (u32, u32), how: &Sampling) -> TexturedQuad {
        let image = rig.buffer(how.texels);
        let descriptors = rig.words(&(how.descriptor)(rig.chip(), image));
        let samplers = rig.words(&how.sampler);
        // Two triangles over the viewport: (x, y) in NDC, then (u, v).
        let quad: [[f32; 4]; 6] = [
            [-1.0, -1.0, 0.0, 0.0],
            [1.0, -1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0, 1.0],
            [-1.0, -1.0, 0.0, 0.0],
            [1.0, 1.0, 1.0, 1.0],
            [-1.0, 1.0, 0.0, 1.0],
        ];
        let verts: Vec<f32> = quad.iter().flatten().copied().collect();
        let vb = rig.floats(&verts);
        let vs = rig.program(VS);
        let fs = rig.program(how.shader);
        let target = rig.buffer(&vec![0u8; (pitch(w) * h) as usize]);
        let mut p = Pipeline::new(vs, Some(fs), Some(rgba8_target(regid(2, 0))));
        for (offset, reg) in [(0, regid(0, 0)), (8, regid(1, 0))] {
            p.attributes.push(Attribute {
                binding: 0,
                offset,
                format: A6xxFormat::FMT6_32_32_FLOAT,
                float: true,
                instanced: false,
                step_rate: 1,
                regid: reg,
                mask: 0x3,
            });
        }
        p.outputs.push(Output {
            regid: regid(2, 0),
            mask: 0xf,
            location: 0,
        });
        p.outputs.push(Output {
            regid: regid(1, 0),
            mask: 0x3,
            location: 4,
        });
        p.stride = 8;
        p.position = 0;
        p.enabled[0] = 0x30;
        p.fs_full_regs = 3;
        p.ij_persp_pixel = if how.prefetch.is_some() {
            NONE
        } else {
            regid(0, 0)
        };
        p.textures = Some(Textures {
            descriptors,
            count: 1,
            samplers,
            sampler_count: 1,
        });
        p.prefetch = how.prefetch.into_iter().collect();
        let setup = Setup {
            pipeline: p,
            framebuffer: Framebuffer::color(w, h, rgba8_buffer(target, pitch(w))),
            vertex_buffers: vec![VertexBuffer {
                base: vb,
                size: verts.len() as u32 * 4,
                stride: 16,
            }],
        };
        let mut stream = rig.stream();
        program(&mut stream, &setup);
        draw_auto(&mut stream, PcDiPrimtype::DI_PT_TRILIST, 6, 1);
        TexturedQuad {
            rig,
            stream,
            image,
            target,
            size: (w, h),
        }
    }

    /// Draws the quad; returns the target's bytes.
    pub fn draw(&mut self) -> Vec<u8> {
        let s = self.stream.clone();
        self.rig.run(&s).unwrap_or_else(|e| panic!("{e}"));
        self.rig
            .read(self.target, (pitch(self.size.0) * self.size.1) as usize)
    }
}

/// Draws the textured quad into a `w` x `h` target on `gpu` and returns
/// its bytes.
pub fn draw(gpu: &str, size: (u32, u32), how: &Sampling) -> Vec<u8> {
    TexturedQuad::new(DrawRig::new(gpu), size, how).draw()
}

/// Pixel (x, y) of a `w`-pixel-wide target's bytes.
pub fn pixel(img: &[u8], w: u32, x: u32, y: u32) -> [u8; 4] {
    let i = (y * pitch(w) + x * 4) as usize;
    img[i..i + 4].try_into().unwrap()
}
