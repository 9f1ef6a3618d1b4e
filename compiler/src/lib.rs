//! Parsnip's shader compiler: SPIR-V compute, vertex and fragment shaders to ir3.
//!
//! The pipeline (ARCHITECTURE.md): [`spirv`] turns a SPIR-V module into the SSA [`ir`],
//! [`passes`] lower and optimise it; [`target`] says what differs between GPU generations.
//!
//! ```no_run
//! use parsnip_compiler::{compile_to_ir, CompileOptions};
//! use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
//! # let words: Vec<u32> = Vec::new();
//! let options = CompileOptions {
//!     gpu: "a660".into(),
//!     layout: DescriptorLayout::packed(&[(0, 0, DescriptorKind::StorageBuffer, 1)]),
//!     ..CompileOptions::default()
//! };
//! let shader = compile_to_ir(&words, &options).unwrap();
//! println!("{shader}");
//! ```

pub mod backend;
pub mod cli;
pub mod descriptor_layout;
pub mod error;
pub mod ir;
pub mod passes;
pub mod spirv;
pub mod stage_info;
pub mod target;
pub mod varying_linkage;

pub use error::CompileError;

use descriptor_layout::DescriptorLayout;
use std::collections::HashMap;

/// What the driver tells the compiler besides the SPIR-V.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The GPU, by name ("a660", "a740", ...).
    pub gpu: String,
    /// The entry point.
    pub entry: String,
    /// Specialisation constants by SpecId (bit patterns; booleans 0 or 1).
    pub spec_constants: HashMap<u32, u64>,
    /// Where each descriptor lives.
    pub layout: DescriptorLayout,
    /// The subgroup (wave) size the application requires
    /// (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo), or `None` for the
    /// compiler's choice: the base wave size for shaders using subgroups.
    pub required_subgroup_size: Option<u32>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            gpu: "a660".into(),
            entry: "main".into(),
            spec_constants: HashMap::new(),
            layout: DescriptorLayout::default(),
            required_subgroup_size: None,
        }
    }
}

/// Runs the front end and every IR pass: the shader as instruction selection will see it.
pub fn compile_to_ir(spirv: &[u32], options: &CompileOptions) -> error::Result<ir::Shader> {
    let model = target::model(&options.gpu)?;
    let fe = spirv::FrontEndOptions {
        entry: options.entry.clone(),
        spec_constants: options.spec_constants.clone(),
    };
    let mut shader = spirv::translate(spirv, &fe)?;
    // Shaders run in waves of the GPU's base size when they use subgroups (the back end
    // keeps them there), the subgroupSize the driver reports, unless the application
    // required a size the GPU has.
    shader.subgroup_size = match options.required_subgroup_size {
        None => model.wave_size(false),
        Some(size) => {
            let sizes = target::subgroup_sizes(model.as_ref());
            if !sizes.contains(&size) {
                return Err(CompileError::new(format!(
                    "a required subgroup size of {size}; {} runs waves of {sizes:?}",
                    model.gpu().name
                )));
            }
            shader.wave_size_required = true;
            size
        }
    };
    check_limits(&shader, model.as_ref())?;
    passes::run_all(&mut shader, &options.layout, &mut |_, _| {})?;
    Ok(shader)
}

/// Compiles a SPIR-V compute shader to ir3 for the driver.
pub fn compile(spirv: &[u32], options: &CompileOptions) -> error::Result<backend::CompiledShader> {
    let shader = compile_to_ir(spirv, options)?;
    let model = target::model(&options.gpu)?;
    backend::compile(&shader, model.as_ref())
}

/// Refuses shaders the GPU cannot run whatever the code: too much shared memory, or a
/// workgroup larger than the hardware dispatches.
fn check_limits(shader: &ir::Shader, model: &dyn target::ShaderModel) -> error::Result<()> {
    let g = model.gpu();
    if shader.shared_bytes > g.cs_shared_mem_bytes {
        return Err(CompileError::new(format!(
            "the shader uses {} bytes of shared memory; {} has {}",
            shader.shared_bytes, g.name, g.cs_shared_mem_bytes
        )));
    }
    let [x, y, z] = shader.local_size;
    let invocations = x as u64 * y as u64 * z as u64;
    // Waves of a workgroup must all be resident at once (Mesa's ir3 refuses otherwise):
    // max_waves waves of the largest wave size.
    let limit = g.max_waves as u64 * model.wave_size(true) as u64;
    if invocations > limit {
        return Err(CompileError::new(format!(
            "a workgroup of {x}x{y}x{z} invocations is larger than the {limit} {} can run",
            g.name
        )));
    }
    Ok(())
}
