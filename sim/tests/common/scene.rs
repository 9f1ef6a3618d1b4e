//! A small drawing scene for the graphics units' tests: vertices given as
//! a clip-space position and up to two vec4 varyings, a vertex shader that
//! passes them through (the VFD writes r0, r1 and r2, which are the
//! outputs: position from r0 to VPC locations 0..3, the varyings from r1
//! and r2 to locations 4..7 and 8..11), a fragment shader given as
//! assembly with the perspective ij pair in r0.xy, and one colour target
//! of `pitch(width)` bytes a row.

use parsnip_registers::enums::{A4xxIndexSize, A6xxFormat, PcDiPrimtype};

use super::draw_rig::DrawRig;
use super::graphics_state::{
    draw_auto, draw_indexed, program, regid, rgba8_buffer, rgba8_target, Attribute, ColorBuffer,
    Framebuffer, Output, Pipeline, Setup, Target, VertexBuffer,
};
use super::textured_quad::pitch;
use super::Stream;

/// A vertex: clip-space position, then two varyings.
pub type Vertex = [[f32; 4]; 3];

/// The clip-space position of window pixel position (x, y) at depth z,
/// multiplied through by w, on a `size` viewport.
pub fn clip(size: (u32, u32), x: f32, y: f32, z: f32, w: f32) -> [f32; 4] {
    let ndc = |p: f32, n: u32| p / (n as f32 / 2.0) - 1.0;
    [ndc(x, size.0) * w, ndc(y, size.1) * w, z * w, w]
}

/// A vertex at pixel position (x, y) with depth z, w = 1, and the
/// varyings `a` and `b`.
pub fn vertex(size: (u32, u32), x: f32, y: f32, z: f32, a: [f32; 4], b: [f32; 4]) -> Vertex {
    [clip(size, x, y, z, 1.0), a, b]
}

pub struct Scene {
    pub rig: DrawRig,
    pub pipeline: Pipeline,
    pub framebuffer: Framebuffer,
    pub target: u64,
    pub size: (u32, u32),
    vertex_buffer: (u64, u32),
}

/// Copies the first varying to the colour output: ij in r0.xy, the colour
/// to r1.
pub const COLOUR_FS: &str = "
    (rpt3)bary.f r1.x, (r)4, r0.x
    end
";

impl Scene {
    /// A scene over a `size` RGBA8 target cleared to zero, drawing
    /// `vertices` with the fragment shader `fs` (its colour in r1).
    pub fn new(gpu: &str, size: (u32, u32), vertices: &[Vertex], fs: &str) -> Scene {
        let mut rig = DrawRig::new(gpu);
        let target = rig.buffer(&vec![0u8; (pitch(size.0) * size.1) as usize]);
        Scene::with_target(
            rig,
            size,
            vertices,
            fs,
            rgba8_target(regid(1, 0)),
            rgba8_buffer(target, pitch(size.0)),
        )
    }

    /// The same with the colour target `t` (its output register chosen
    /// by the caller) in `buffer`.
    pub fn with_target(
        mut rig: DrawRig,
        size: (u32, u32),
        vertices: &[Vertex],
        fs: &str,
        t: Target,
        buffer: ColorBuffer,
    ) -> Scene {
        let floats: Vec<f32> = vertices.iter().flatten().flatten().copied().collect();
        let vb = rig.floats(&floats);
        let vs = rig.program("end\n");
        let fs = rig.program(fs);
        let target = buffer.base;
        let mut p = Pipeline::new(vs, Some(fs), Some(t));
        let bytes = floats.len() as u32 * 4;
        // Each attribute from a fetch slot of its own, all of the one
        // buffer.
        for k in 0..3u32 {
            p.attributes.push(Attribute {
                binding: k,
                offset: 16 * k,
                format: A6xxFormat::FMT6_32_32_32_32_FLOAT,
                float: true,
                instanced: false,
                step_rate: 1,
                regid: regid(k, 0),
                mask: 0xf,
            });
        }
        for k in 0..3u32 {
            p.outputs.push(Output {
                regid: regid(k, 0),
                mask: 0xf,
                location: 4 * k,
            });
        }
        p.stride = 12;
        p.position = 0;
        // Locations 4..11: the two varyings.
        p.enabled[0] = 0xff0;
        p.vs_full_regs = 3;
        p.fs_full_regs = 4;
        p.ij_persp_pixel = regid(0, 0);
        Scene {
            rig,
            pipeline: p,
            framebuffer: Framebuffer::color(size.0, size.1, buffer),
            target,
            size,
            vertex_buffer: (vb, bytes),
        }
    }

    /// The vertex buffer's address and size.
    pub fn vertex_buffer(&self) -> (u64, u32) {
        self.vertex_buffer
    }

    /// Points the attributes at a new buffer holding `vertices`, for the
    /// next stream.
    pub fn set_vertices(&mut self, vertices: &[Vertex]) {
        let floats: Vec<f32> = vertices.iter().flatten().flatten().copied().collect();
        let vb = self.rig.floats(&floats);
        let bytes = floats.len() as u32 * 4;
        self.vertex_buffer = (vb, bytes);
    }

    /// The pipeline, framebuffer and vertex buffers the scene draws with.
    pub fn setup(&self) -> Setup {
        let (base, size) = self.vertex_buffer;
        let vb = VertexBuffer {
            base,
            size,
            stride: 48,
        };
        Setup {
            pipeline: self.pipeline.clone(),
            framebuffer: self.framebuffer.clone(),
            vertex_buffers: vec![vb; 3],
        }
    }

    /// The stream drawing `count` vertices of `primitive` once.
    pub fn stream(&self, primitive: PcDiPrimtype, count: u32) -> Stream {
        let mut s = self.rig.stream();
        program(&mut s, &self.setup());
        draw_auto(&mut s, primitive, count, 1);
        s
    }

    /// Draws `count` vertices of `primitive`; returns the target's bytes.
    pub fn draw(&mut self, primitive: PcDiPrimtype, count: u32) -> Vec<u8> {
        let s = self.stream(primitive, count);
        self.run(&s)
    }

    /// Draws `count` indices of `size` from the buffer at `indices`.
    pub fn draw_indexed(
        &mut self,
        primitive: PcDiPrimtype,
        size: A4xxIndexSize,
        indices: u64,
        max: u32,
        count: u32,
    ) -> Vec<u8> {
        let mut s = self.rig.stream();
        program(&mut s, &self.setup());
        draw_indexed(&mut s, primitive, size, indices, max, 0, count, 1);
        self.run(&s)
    }

    /// Runs `s`; returns the target's bytes.
    pub fn run(&mut self, s: &Stream) -> Vec<u8> {
        self.rig.run(s).unwrap_or_else(|e| panic!("{e}"));
        self.pixels()
    }

    /// The target's bytes.
    pub fn pixels(&self) -> Vec<u8> {
        self.rig
            .read(self.target, (pitch(self.size.0) * self.size.1) as usize)
    }
}

/// Pixel (x, y) of an RGBA8 target `w` pixels wide.
pub fn rgba(img: &[u8], w: u32, x: u32, y: u32) -> [u8; 4] {
    let i = (y * pitch(w) + x * 4) as usize;
    img[i..i + 4].try_into().unwrap()
}

/// A float in [0, 1] as UNORM8 stores it (round to nearest).
pub fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}
