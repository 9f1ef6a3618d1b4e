//! Parsnip's shader compiler: SPIR-V compute shaders to ir3.
//!
//! The pipeline (see ARCHITECTURE.md): [`spirv`] turns a SPIR-V module into the SSA [`ir`],
//! [`passes`] lower and optimise it.

pub mod descriptor_layout;
pub mod error;
pub mod ir;
pub mod passes;
pub mod spirv;

pub use error::CompileError;
