//! The bridge to the compiler: what a pipeline asks it to compile, and its
//! answer turned into the driver's [`ShaderBinary`].

use parsnip_compiler::descriptor_layout::DescriptorLayout;

use super::binary::ShaderBinary;
use crate::gpu_info::GpuInfo;

/// A specialisation constant's id and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    pub id: u32,
    pub bytes: Vec<u8>,
}

/// Everything that decides the machine code of a compute shader.
pub struct CompileRequest<'a> {
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
    pub specialization: &'a [SpecConstant],
    pub layout: &'a DescriptorLayout,
    pub push_constant_bytes: u32,
    pub gpu: &'a GpuInfo,
}

/// Compiles, or says why not (naming the SPIR-V instruction where the
/// compiler does).
pub fn compile(request: &CompileRequest<'_>) -> Result<ShaderBinary, String> {
    let _ = request;
    Err("the compiler's ir3 back end is not available in this build".into())
}
