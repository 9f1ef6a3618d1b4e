//! Compute pipelines: compiling (through the pipeline cache), the program
//! state they emit, and what VK_KHR_pipeline_executable_properties reports;
//! and the fixed-function state of graphics pipelines in the hardware's
//! terms ([`fixed_function`]) and of their shaders ([`shader_stages`]), which
//! graphics pipeline creation will use.

pub mod binary;
pub mod cache;
pub mod compile;
pub mod compute;
pub mod fixed_function;
pub mod program;
pub mod shader_stages;
