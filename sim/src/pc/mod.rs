//! The primitive controller: the front end of every draw. It takes the
//! draw the command processor decoded ([`DrawCall`]), fetches its indices,
//! cuts them into primitives, and runs each instance through the units
//! behind it: vertex fetch (VFD) and the vertex shader, the varyings
//! (VPC), rasterization (GRAS) with the fragment shader, and the render
//! backend (RB).
//!
//! - [`index`]: the index stream (auto-generated or fetched, 8/16/32-bit)
//!   and primitive restart;
//! - [`topology`]: primitive assembly for every primitive type;
//! - [`draw`]: one draw through the pipeline.
//!
//! The model runs a draw in API order: every vertex of an instance is
//! shaded before its primitives are rasterized, and fragments reach the RB
//! in primitive order, which is the order the hardware's RB commits them
//! in. The vertex shader runs once per distinct index of an instance (a
//! perfect post-transform cache), which Vulkan allows.

mod draw;
mod index;
mod topology;

pub(crate) use draw::{run_binning_draw, run_draw, DrawStats};
pub(crate) use index::{IndexSize, IndexSource};
pub(crate) use topology::Shape;

use parsnip_registers::enums::PcDiPrimtype;

/// A draw as the command processor decoded it from CP_DRAW_INDX_OFFSET,
/// CP_DRAW_INDIRECT and their kin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DrawCall {
    pub primitive: PcDiPrimtype,
    pub source: IndexSource,
    /// Indices (or vertices, for auto-generated indices) per instance.
    pub count: u32,
    pub instances: u32,
    /// The draw initiator's GS_ENABLE and TESS_ENABLE.
    pub geometry: bool,
    pub tessellation: bool,
    /// VIS_CULL = USE_VISIBILITY: the binning pass bins the draw and bin
    /// rendering skips it where the visibility stream says so.
    pub uses_visibility: bool,
}
