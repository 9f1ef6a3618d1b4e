//! Compute pipelines: compiling (through the pipeline cache), the program
//! state they emit, and what VK_KHR_pipeline_executable_properties reports.

pub mod binary;
pub mod cache;
pub mod compile;
pub mod compute;
pub mod program;
