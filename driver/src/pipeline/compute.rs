//! `VkPipeline` for compute: the compiled shader (from the pipeline cache
//! when it has it), and one BO holding the code and the program state that
//! command buffers point their compute program draw-state group at.

use std::sync::Arc;

use ash::vk;

use super::binary::ShaderBinary;
use super::cache::{CacheKey, KeyHasher, PipelineCache};
use super::compile::{compile, CompileRequest, SpecConstant};
use super::program::{self, PrivateMemory};
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
    /// VkPipelineShaderStageRequiredSubgroupSizeCreateInfo's size: the wave
    /// size the compiler must use (VK_EXT_subgroup_size_control). Without
    /// it the compiler's choice is what the spec allows with or without
    /// ALLOW_VARYING_SUBGROUP_SIZE and REQUIRE_FULL_SUBGROUPS: a shader using
    /// subgroups runs in waves of the reported subgroupSize, and waves are
    /// filled from the linear local index, so each is full when the work
    /// group's x size is a multiple of the wave size, as the application
    /// guarantees for REQUIRE_FULL_SUBGROUPS.
    pub required_subgroup_size: Option<u32>,
}

/// A pipeline holds no reference to its device: the device keeps its
/// internal pipelines, and a reference back would keep both alive forever.
pub struct ComputePipeline {
    pub layout: Arc<PipelineLayout>,
    pub binary: Arc<ShaderBinary>,
    pub bo: Arc<DeviceBo>,
    /// The program state IB: address and length.
    pub program_iova: u64,
    pub program_dwords: u32,
    /// The shader's private memory, if it has any.
    pub private_bo: Option<Arc<DeviceBo>>,
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
    h.u32s(&[desc.required_subgroup_size.unwrap_or(0)]);
    h.finish()
}

/// What creation does when the pipeline cache does not hold the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnCacheMiss {
    Compile,
    /// VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT: fail with
    /// VK_PIPELINE_COMPILE_REQUIRED instead of compiling.
    Refuse,
}

impl ComputePipeline {
    pub fn new(
        device: &Arc<Device>,
        desc: &ComputePipelineDesc<'_>,
        cache: Option<&PipelineCache>,
    ) -> VkResult<Arc<ComputePipeline>> {
        Self::create(device, desc, cache, OnCacheMiss::Compile)
    }

    /// [`ComputePipeline::new`], compiling on a cache miss only if `miss`
    /// allows (a pipeline without a cache always misses).
    pub fn create(
        device: &Arc<Device>,
        desc: &ComputePipelineDesc<'_>,
        cache: Option<&PipelineCache>,
        miss: OnCacheMiss,
    ) -> VkResult<Arc<ComputePipeline>> {
        let key = cache_key(device, desc);
        let cached = cache
            .filter(|_| !device.debug.nocache)
            .and_then(|c| c.get(&key));
        let cache_hit = cached.is_some();
        let binary = match cached {
            Some(b) => b,
            None if miss == OnCacheMiss::Refuse => {
                return Err(vk::Result::PIPELINE_COMPILE_REQUIRED);
            }
            None => {
                let compiler_layout = desc.layout.compiler_layout();
                let request = CompileRequest {
                    spirv: &desc.module.words,
                    entry_point: desc.entry_point,
                    specialization: &desc.specialization,
                    layout: &compiler_layout,
                    gpu: &device.gpu,
                    required_subgroup_size: desc.required_subgroup_size,
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
        let mut private = PrivateMemory::layout(&device.gpu, binary.private_bytes)?;
        let private_bo = match &mut private {
            Some(p) => {
                let bo = device.allocate_bo(p.total(&device.gpu), BoKind::DriverData)?;
                p.iova = bo.iova();
                Some(bo)
            }
            None => None,
        };
        let private = private.unwrap_or_default();
        let code_bytes = (binary.code.len() as u64 * 4).next_multiple_of(CODE_ALIGN);
        // The program state depends on where the code is: build it once for
        // size, then for real.
        let sizing = program::packets(&device.gpu, &binary, 0, private)?;
        let total = code_bytes + sizing.len() as u64 * 4;
        let bo = device.allocate_bo(total, BoKind::Pipeline)?;
        bo.write_dwords(0, &binary.code)?;
        let code_iova = bo.iova();
        let state = program::packets(&device.gpu, &binary, code_iova, private)?;
        bo.write_dwords(code_bytes, &state.dwords)?;
        Ok(Arc::new(ComputePipeline {
            layout,
            program_iova: code_iova + code_bytes,
            program_dwords: state.len() as u32,
            binary,
            bo,
            private_bo,
            cache_hit,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::set_layout::{BindingDesc, DescriptorSetLayout};
    use crate::pipeline_layout::PushConstantRange;

    /// A module and layout the compiler takes: the driver's own fill
    /// shader, whose buffer is in set 4.
    fn fill_shader() -> (Arc<ShaderModule>, Arc<PipelineLayout>) {
        let words = crate::internal_shaders::spirv::FILL_BUFFER;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let set = DescriptorSetLayout::new(&[BindingDesc {
            binding: 0,
            ty: vk::DescriptorType::STORAGE_BUFFER,
            count: 1,
            stages: vk::ShaderStageFlags::COMPUTE,
        }])
        .unwrap();
        let layout = Arc::new(PipelineLayout {
            sets: vec![None, None, None, None, Some(set)],
            push_constants: vec![PushConstantRange {
                stages: vk::ShaderStageFlags::COMPUTE,
                offset: 0,
                size: 12,
            }],
        });
        (ShaderModule::new(&bytes).unwrap(), layout)
    }

    #[test]
    fn a_cache_hit_skips_the_compiler_and_survives_serialisation() {
        let device = crate::device::tests::null_device("a660");
        let header = device.physical.pipeline_cache_header();
        let cache = PipelineCache::new(header, &[]);
        let (module, layout) = fill_shader();
        let desc = ComputePipelineDesc {
            module: &module,
            entry_point: "main",
            specialization: Vec::new(),
            layout,
            required_subgroup_size: None,
        };
        let first = ComputePipeline::new(&device, &desc, Some(&cache)).unwrap();
        assert!(!first.cache_hit);
        assert_eq!(cache.len(), 1);
        let second = ComputePipeline::new(&device, &desc, Some(&cache)).unwrap();
        assert!(second.cache_hit);
        assert_eq!(first.binary, second.binary);

        // What vkGetPipelineCacheData gives back fills a new cache.
        let reloaded = PipelineCache::new(header, &cache.data());
        assert!(
            ComputePipeline::new(&device, &desc, Some(&reloaded))
                .unwrap()
                .cache_hit
        );

        // A changed byte in the entry's machine code: the entry is
        // ignored and the shader compiled again, to the same code.
        let mut damaged = cache.data();
        let middle = damaged.len() - 40;
        damaged[middle] ^= 0x04;
        let from_damaged = PipelineCache::new(header, &damaged);
        assert!(from_damaged.is_empty());
        let recompiled = ComputePipeline::new(&device, &desc, Some(&from_damaged)).unwrap();
        assert!(!recompiled.cache_hit);
        assert_eq!(recompiled.binary, first.binary);

        // Another GPU's data is not used.
        let a740 = crate::device::tests::null_device("a740");
        let foreign = PipelineCache::new(a740.physical.pipeline_cache_header(), &cache.data());
        assert!(foreign.is_empty());

        // Anything that changes the code changes the key.
        let specialised = ComputePipelineDesc {
            specialization: vec![SpecConstant {
                id: 0,
                bytes: vec![1, 0, 0, 0],
            }],
            ..desc
        };
        assert!(
            !ComputePipeline::new(&device, &specialised, Some(&cache))
                .unwrap()
                .cache_hit
        );
    }

    #[test]
    fn refusing_to_compile_fails_on_a_miss_only() {
        let device = crate::device::tests::null_device("a740");
        let cache = PipelineCache::new(device.physical.pipeline_cache_header(), &[]);
        let (module, layout) = fill_shader();
        let desc = ComputePipelineDesc {
            module: &module,
            entry_point: "main",
            specialization: Vec::new(),
            layout,
            required_subgroup_size: None,
        };
        let refuse = |cache| ComputePipeline::create(&device, &desc, cache, OnCacheMiss::Refuse);
        assert_eq!(
            refuse(Some(&cache)).err(),
            Some(vk::Result::PIPELINE_COMPILE_REQUIRED)
        );
        assert_eq!(
            refuse(None).err(),
            Some(vk::Result::PIPELINE_COMPILE_REQUIRED)
        );
        assert!(cache.is_empty(), "nothing was compiled into the cache");
        ComputePipeline::new(&device, &desc, Some(&cache)).unwrap();
        assert!(refuse(Some(&cache)).unwrap().cache_hit);
    }

    #[test]
    fn the_program_state_points_at_the_code_in_the_pipeline_bo() {
        let device = crate::device::tests::null_device("a740");
        let (module, layout) = fill_shader();
        let desc = ComputePipelineDesc {
            module: &module,
            entry_point: "main",
            specialization: Vec::new(),
            layout,
            required_subgroup_size: None,
        };
        let p = ComputePipeline::new(&device, &desc, None).unwrap();
        let mut code = vec![0u8; p.binary.code.len() * 4];
        p.bo.read(0, &mut code).unwrap();
        let words: Vec<u32> = code
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, p.binary.code);
        assert_eq!(p.program_iova % CODE_ALIGN, 0);
        assert!(p.program_iova >= p.bo.iova() + code.len() as u64);
        // SP_CS_OBJ_START in the state IB is the BO's start.
        let mut ib = vec![0u8; p.program_dwords as usize * 4];
        p.bo.read(p.program_iova - p.bo.iova(), &mut ib).unwrap();
        let ib: Vec<u32> = ib
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let header = parsnip_registers::pm4::pkt4(0xa9b4, 2);
        let at = ib
            .iter()
            .position(|&w| w == header)
            .expect("SP_CS_OBJ_START write");
        assert_eq!(
            u64::from(ib[at + 1]) | u64::from(ib[at + 2]) << 32,
            p.bo.iova()
        );
    }
}
