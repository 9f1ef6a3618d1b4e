//! Compute pipelines: compiling (through the pipeline cache), the program
//! state they emit, and what VK_KHR_pipeline_executable_properties reports;
//! graphics pipelines ([`graphics`]), from the fixed-function state in the
//! hardware's terms ([`fixed_function`]) and their shaders
//! ([`shader_stages`]).

pub mod binary;
pub mod cache;
pub mod compile;
pub mod compute;
pub mod dynamic_state;
pub mod fixed_function;
pub mod graphics;
pub mod multisample;
pub mod program;
pub mod shader_stages;

use std::sync::Arc;

/// A `VkPipeline`, of either bind point.
pub enum AnyPipeline {
    Compute(Arc<compute::ComputePipeline>),
    Graphics(Arc<graphics::GraphicsPipeline>),
}
