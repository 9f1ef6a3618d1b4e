//! `VkPipeline` for compute: the compiled shader (from the pipeline cache
//! when it has it), and one BO holding the code and the program state that
//! command buffers call as an IB2.

use std::sync::Arc;

use ash::vk;

use super::binary::ShaderBinary;
use super::cache::{CacheKey, KeyHasher, PipelineCache};
use super::compile::{compile, CompileRequest, SpecConstant};
use super::program;
use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;
use crate::pipeline_layout::PipelineLayout;
use crate::shader_module::ShaderModule;

/// The code's alignment in the pipeline BO: SP_CS_OBJ_START's, and the
/// instruction cache line Turnip pads shaders to.
const CODE_ALIGN: u64 = 128;

pub struct ComputePipelineDesc<'a> {
    pub module: &'a ShaderModule,
    pub entry_point: &'a str,
    pub specialization: Vec<SpecConstant>,
    pub layout: Arc<PipelineLayout>,
}

pub struct ComputePipeline {
    pub device: Arc<Device>,
    pub layout: Arc<PipelineLayout>,
    pub binary: Arc<ShaderBinary>,
    pub bo: Arc<DeviceBo>,
    /// The program state IB: address and length.
    pub program_iova: u64,
    pub program_dwords: u32,
    /// Whether the shader came from the cache.
    pub cache_hit: bool,
}

fn cache_key(device: &Device, desc: &ComputePipelineDesc<'_>) -> CacheKey {
    let mut h = KeyHasher::default();
    h.bytes(&device.physical.pipeline_cache_uuid())
        .u32s(&desc.module.words)
        .bytes(desc.entry_point.as_bytes());
    for s in &desc.specialization {
        h.u32s(&[s.id]).bytes(&s.bytes);
    }
    for b in desc.layout.compiler_layout().bindings {
        h.u32s(&[b.set, b.binding, b.kind as u32, b.first_descriptor, b.count]);
    }
    h.u32s(&[desc.layout.push_constant_size()]);
    h.finish()
}

impl ComputePipeline {
    pub fn new(
        device: &Arc<Device>,
        desc: &ComputePipelineDesc<'_>,
        cache: Option<&PipelineCache>,
    ) -> VkResult<Arc<ComputePipeline>> {
        let key = cache_key(device, desc);
        let cached = cache
            .filter(|_| !device.debug.nocache)
            .and_then(|c| c.get(&key));
        let cache_hit = cached.is_some();
        let binary = match cached {
            Some(b) => b,
            None => {
                let compiler_layout = desc.layout.compiler_layout();
                let request = CompileRequest {
                    spirv: &desc.module.words,
                    entry_point: desc.entry_point,
                    specialization: &desc.specialization,
                    layout: &compiler_layout,
                    push_constant_bytes: desc.layout.push_constant_size(),
                    gpu: &device.gpu,
                };
                let binary = compile(&request).map_err(|why| {
                    eprintln!(
                        "parsnip: compute pipeline: cannot compile `{}`: {why}",
                        desc.entry_point
                    );
                    vk::Result::ERROR_UNKNOWN
                })?;
                let binary = Arc::new(binary);
                if let Some(c) = cache {
                    c.insert(key, binary.clone());
                }
                binary
            }
        };
        if device.debug.shaders {
            eprintln!(
                "parsnip: compute shader `{}` ({}):\n{}",
                desc.entry_point,
                if cache_hit {
                    "from the cache"
                } else {
                    "compiled"
                },
                binary.disassembly
            );
        }
        ComputePipeline::from_binary(device, desc.layout.clone(), binary, cache_hit)
    }

    /// A pipeline running `binary` (also how internal shaders are made).
    pub fn from_binary(
        device: &Arc<Device>,
        layout: Arc<PipelineLayout>,
        binary: Arc<ShaderBinary>,
        cache_hit: bool,
    ) -> VkResult<Arc<ComputePipeline>> {
        if binary.private_bytes > 0 {
            eprintln!(
                "parsnip: compute pipeline: the shader needs {} bytes of private memory per \
                 thread, which the driver does not allocate yet",
                binary.private_bytes
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let code_bytes = (binary.code.len() as u64 * 4).next_multiple_of(CODE_ALIGN);
        // The program state depends on where the code is: build it once for
        // size, then for real.
        let sizing = program::packets(&device.gpu, &binary, 0, 0)?;
        let total = code_bytes + sizing.len() as u64 * 4;
        let bo = device.allocate_bo(total, BoKind::Pipeline)?;
        bo.write_dwords(0, &binary.code)?;
        let code_iova = bo.iova();
        let state = program::packets(&device.gpu, &binary, code_iova, 0)?;
        bo.write_dwords(code_bytes, &state.dwords)?;
        Ok(Arc::new(ComputePipeline {
            device: device.clone(),
            layout,
            program_iova: code_iova + code_bytes,
            program_dwords: state.len() as u32,
            binary,
            bo,
            cache_hit,
        }))
    }
}
