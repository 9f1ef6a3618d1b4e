//! The one place that programs Adreno a6xx/a7xx hardware state.
//!
//! Callers describe state with plain types (a graphics pipeline's shaders,
//! vertex input, rasteriser, output merger and attachments) and this crate
//! writes the registers and packets that program it, through the register
//! database, into any [`PacketSink`]: the driver's command stream and its
//! draw-state groups, and the model's and compiler's tests, all program
//! the GPU through the same code.
//!
//! - [`sink`]: where packets go, and a growing buffer of them;
//! - [`graphics`]: a graphics pipeline's state, group by group;
//! - [`dynamic`]: the state a command buffer sets between draws;
//! - [`draw`]: render-mode markers and draw packets;
//! - [`descriptors`]: the bindless bases each bind point reads its
//!   descriptor sets through;
//! - [`occlusion`]: occlusion query sample counts;
//! - [`bin`]: the bin a pass renders (GMEM) or the window of a sysmem
//!   pass; [`blit_event`]: GMEM clears, loads and stores;
//! - [`events`]: CP events and IB calls; [`ccu`]: the CCU between sysmem
//!   and GMEM rendering;
//! - [`lrz`]: the LRZ buffer of a pass, its clear and per-draw control;
//! - [`vsc`]: bins, VSC pipes and visibility streams;
//!   [`binning_pass`]: the binning pass's start and end.

pub mod bin;
pub mod binning_pass;
pub mod blit_event;
pub mod ccu;
pub mod descriptors;
pub mod draw;
pub mod dynamic;
pub mod events;
pub mod graphics;
pub mod lrz;
pub mod occlusion;
pub mod sink;
pub mod vsc;

pub use sink::{PacketSink, StateWriter};

/// `rN.c` as a3xx_regid encodes it (ir3's register ids: (n << 2) | c).
pub const fn regid(n: u32, c: u32) -> u32 {
    n << 2 | c
}

/// r63.x: "no register".
pub const NONE: u32 = regid(63, 0);
