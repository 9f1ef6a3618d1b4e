//! A functional model of an Adreno a6xx/a7xx GPU.
//!
//! The model is hardware: it sees buffer objects in a GPU virtual address
//! space and the command streams handed to submit, nothing else (see
//! ARCHITECTURE.md). It runs streams Parsnip wrote and streams other drivers
//! wrote (Turnip's traces, real-hardware captures) alike.
//!
//! - [`Gpu`]: a GPU of the catalogue with its [`memory::AddressSpace`];
//!   [`Gpu::submit`] runs command streams on a [`Context`].
//! - [`cp`]: the command processor (PM4 packets, IB levels, draw state,
//!   CP_LOAD_STATE6, dispatches, waits, events, predication).
//! - [`register_file`]: registers per chip, and strict mode.
//! - [`report`]: faults, hangs and bad streams, reported like the kernel.
//! - [`compute_dispatch`]: what the command processor hands the shader
//!   processor for one dispatch, through [`shader_core::ShaderCore`].
//! - [`sp`]: the shader processor, which runs a dispatch's ir3 program.
//! - [`blit`]: the 2D engine (CP_BLIT).
//! - [`gmem`]: the on-chip tile memory, the bin, and the resolve engine
//!   of blit events (GMEM clears, loads and stores).
//! - `vsc`: the binning pass's visibility streams, which the CP reads to
//!   skip the draws a bin does not see (`cp::binning`).
//! - [`surface`]: image memory as the hardware lays it out (texel formats,
//!   tile modes, UBWC), shared by every unit that reads or writes images.

pub mod always_on_counter;
pub mod blit;
mod cache_lines;
pub mod capture;
pub mod ccu;
pub mod compute_dispatch;
mod counters;
pub mod cp;
mod draw_context;
pub mod gmem;
pub mod gpu;
mod gras;
mod hlsq;
mod lrz;
pub mod memory;
pub mod options;
mod pc;
mod rb;
pub mod register_file;
pub mod report;
pub mod shader_core;
pub mod shader_state;
pub mod sp;
pub mod surface;
mod thread_cpu_time;
mod tp;
mod uche;
mod vfd;
mod vpc;
mod vsc;

pub use gpu::{Context, Gpu, IbRange, SubmitStats};
pub use options::SimOptions;
pub use report::GpuError;
