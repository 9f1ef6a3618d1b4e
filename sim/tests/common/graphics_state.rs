//! The graphics state the draw tests program, through the shared state
//! emission (`parsnip-hw-state`): its description types, and plain
//! defaults and shaders for the tests to change.

use parsnip_hw_state::draw::{IndexBuffer, Primitive};
use parsnip_hw_state::graphics;
// Each test uses some of these.
#[allow(unused_imports)]
pub use parsnip_hw_state::graphics::{
    Attribute, ColorBuffer, Depth, DepthBuffer, Framebuffer, Output, Pipeline, PrefetchCmd,
    StencilFace, Target, Textures, VertexBuffer, Viewport,
};
pub use parsnip_hw_state::{regid, NONE};
use parsnip_registers::enums::{A4xxIndexSize, A6xxFormat, A6xxMarker, PcDiPrimtype};

use super::Stream;

/// An RGBA8 target written whole from the output at `output`.
pub fn rgba8_target(output: u32) -> Target {
    Target::new(A6xxFormat::FMT6_8_8_8_8_UNORM, output)
}

/// A linear RGBA8 colour buffer at `base`, `pitch` bytes a row.
pub fn rgba8_buffer(base: u64, pitch: u32) -> ColorBuffer {
    // Array layers are not drawn to: no array pitch needed.
    ColorBuffer::linear(base, pitch, 0, A6xxFormat::FMT6_8_8_8_8_UNORM)
}

/// One draw's state from its three sources: the pipeline, the render
/// pass's framebuffer, and the command buffer's viewport and vertex
/// buffers (the viewport covers the framebuffer).
#[derive(Clone, Debug)]
pub struct Setup {
    pub pipeline: Pipeline,
    pub framebuffer: Framebuffer,
    pub vertex_buffers: Vec<VertexBuffer>,
}

/// The vertex shader of [`xy_pipeline`]: position (x, y) from r0.xy, out
/// as (x, y, 0, 1) from r2.
pub const XY_VS: &str = "
    mov.f32f32 r2.x, r0.x
    mov.f32f32 r2.y, r0.y
    mov.u32u32 r2.z, 0
    mov.u32u32 r2.w, 0x3f800000
    end
";

/// A fragment shader of one colour, (1, 0.5, 0.25, 1): RGBA8 (255, 128,
/// 64, 255).
pub const FLAT_FS: &str = "
    mov.u32u32 r0.x, 0x3f800000
    mov.u32u32 r0.y, 0x3f000000
    mov.u32u32 r0.z, 0x3e800000
    mov.u32u32 r0.w, 0x3f800000
    end
";

/// A pipeline drawing into an RGBA8 `target` (`width` x `height`, linear)
/// the 2D float positions of the `bytes` at `vb`: attribute 0 into r0.xy,
/// the position out of r2 at location 0, and nothing else.
pub fn xy_pipeline(
    vs: u64,
    fs: u64,
    vb: u64,
    bytes: u32,
    target: u64,
    width: u32,
    height: u32,
) -> Setup {
    let mut p = Pipeline::new(vs, Some(fs), Some(rgba8_target(regid(0, 0))));
    p.attributes.push(Attribute {
        binding: 0,
        offset: 0,
        format: A6xxFormat::FMT6_32_32_FLOAT,
        float: true,
        instanced: false,
        step_rate: 1,
        regid: regid(0, 0),
        mask: 0x3,
    });
    p.outputs.push(Output {
        regid: regid(2, 0),
        mask: 0xf,
        location: 0,
    });
    p.stride = 4;
    p.position = 0;
    Setup {
        pipeline: p,
        framebuffer: Framebuffer::color(width, height, rgba8_buffer(target, width * 4)),
        vertex_buffers: vec![VertexBuffer {
            base: vb,
            size: bytes,
            stride: 8,
        }],
    }
}

/// CP_SET_MARKER to render mode `mode`.
pub fn set_marker(s: &mut Stream, mode: A6xxMarker) {
    parsnip_hw_state::draw::set_marker(s, mode).expect("the marker encodes");
}

/// Writes every register the draws consume.
pub fn program(s: &mut Stream, setup: &Setup) {
    let fb = &setup.framebuffer;
    let viewport = Viewport::full(fb.width, fb.height);
    graphics::program(s, &setup.pipeline, fb, &viewport, &setup.vertex_buffers)
        .expect("the draw's registers encode");
}

/// CP_DRAW_INDX_OFFSET of `count` auto-generated indices.
pub fn draw_auto(s: &mut Stream, primitive: PcDiPrimtype, count: u32, instances: u32) {
    parsnip_hw_state::draw::draw_auto(s, Primitive::always(primitive), count, instances)
        .expect("the draw encodes");
}

/// CP_DRAW_INDX_OFFSET of `count` indices from the buffer at `base`.
#[allow(clippy::too_many_arguments)]
pub fn draw_indexed(
    s: &mut Stream,
    primitive: PcDiPrimtype,
    size: A4xxIndexSize,
    base: u64,
    max: u32,
    first: u32,
    count: u32,
    instances: u32,
) {
    let indices = IndexBuffer { size, base, max };
    parsnip_hw_state::draw::draw_indexed(
        s,
        Primitive::always(primitive),
        indices,
        first,
        count,
        instances,
    )
    .expect("the draw encodes");
}
