//! Pipeline layout, shader module, pipeline cache, compute pipeline and
//! VK_KHR_pipeline_executable_properties entry points.

use std::ffi::c_void;
use std::time::Instant;

use ash::vk;
use parsnip_driver::pipeline::cache::PipelineCache;
use parsnip_driver::pipeline::compile::SpecConstant;
use parsnip_driver::pipeline::compute::{ComputePipeline, ComputePipelineDesc, OnCacheMiss};
use parsnip_driver::pipeline::AnyPipeline;
use parsnip_driver::pipeline_layout::{PipelineLayout, PushConstantRange};
use parsnip_driver::shader_module::ShaderModule;

use crate::ffi;
use crate::guard;
use crate::handles;
use crate::pipeline_creation::{self, Feedback, Made};

pub unsafe extern "system" fn vkCreatePipelineLayout(
    _device: vk::Device,
    p_info: *const vk::PipelineLayoutCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_layout: *mut vk::PipelineLayout,
) -> vk::Result {
    guard::success(
        "vkCreatePipelineLayout",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: pSetLayouts holds setLayoutCount handles.
            let sets = unsafe { ffi::slice(info.p_set_layouts, info.set_layout_count) }
                .iter()
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                .map(|h| {
                    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                    unsafe { handles::SET_LAYOUTS.get_optional(vk::Handle::as_raw(*h)) }
                        .map(|l| l.cloned())
                })
                .collect::<Result<Vec<_>, _>>()?;
            // SAFETY: pPushConstantRanges holds pushConstantRangeCount ranges.
            let ranges =
                unsafe { ffi::slice(info.p_push_constant_ranges, info.push_constant_range_count) }
                    .iter()
                    .map(|r| PushConstantRange {
                        stages: r.stage_flags,
                        offset: r.offset,
                        size: r.size,
                    })
                    .collect();
            let layout = PipelineLayout::new(sets, ranges)?;
            // SAFETY: pPipelineLayout is valid for a write.
            unsafe { ffi::write(p_layout, handles::new_pipeline_layout(layout)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyPipelineLayout(
    _device: vk::Device,
    layout: vk::PipelineLayout,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyPipelineLayout", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_pipeline_layout(layout) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkCreateShaderModule(
    _device: vk::Device,
    p_info: *const vk::ShaderModuleCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_module: *mut vk::ShaderModule,
) -> vk::Result {
    guard::success(
        "vkCreateShaderModule",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: pCode holds codeSize bytes.
            let code = unsafe { ffi::bytes(info.p_code.cast(), info.code_size) };
            let module = ShaderModule::new(code)?;
            // SAFETY: pShaderModule is valid for a write.
            unsafe { ffi::write(p_module, handles::new_shader_module(module)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyShaderModule(
    _device: vk::Device,
    module: vk::ShaderModule,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyShaderModule", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_shader_module(module) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkCreatePipelineCache(
    device: vk::Device,
    p_info: *const vk::PipelineCacheCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_cache: *mut vk::PipelineCache,
) -> vk::Result {
    guard::success(
        "vkCreatePipelineCache",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: pInitialData holds initialDataSize bytes.
            let initial = unsafe { ffi::bytes(info.p_initial_data, info.initial_data_size) };
            let cache = PipelineCache::new(device.device.physical.pipeline_cache_header(), initial);
            // SAFETY: pPipelineCache is valid for a write.
            unsafe { ffi::write(p_cache, handles::new_pipeline_cache(cache)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyPipelineCache(
    _device: vk::Device,
    cache: vk::PipelineCache,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyPipelineCache", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_pipeline_cache(cache) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPipelineCacheData(
    _device: vk::Device,
    cache: vk::PipelineCache,
    p_size: *mut usize,
    p_data: *mut c_void,
) -> vk::Result {
    guard::result(
        "vkGetPipelineCacheData",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let data = unsafe { handles::pipeline_cache(cache) }?.data();
            // SAFETY: pDataSize is valid for reads and writes.
            let size = unsafe { p_size.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            if p_data.is_null() {
                *size = data.len();
                return Ok(vk::Result::SUCCESS);
            }
            if *size < data.len() {
                // Only whole caches are useful: write nothing (the spec lets the
                // implementation write fewer bytes) and say so.
                *size = 0;
                return Ok(vk::Result::INCOMPLETE);
            }
            // SAFETY: pData holds *pDataSize >= data.len() bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(data.as_ptr(), p_data.cast::<u8>(), data.len())
            };
            *size = data.len();
            Ok(vk::Result::SUCCESS)
        },
    )
}

pub unsafe extern "system" fn vkMergePipelineCaches(
    _device: vk::Device,
    dst: vk::PipelineCache,
    count: u32,
    p_src: *const vk::PipelineCache,
) -> vk::Result {
    guard::success(
        "vkMergePipelineCaches",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let dst = unsafe { handles::pipeline_cache(dst) }?;
            // SAFETY: pSrcCaches holds srcCacheCount handles.
            let sources = unsafe { ffi::slice(p_src, count) }
                .iter()
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                .map(|h| unsafe { handles::pipeline_cache(*h) }.cloned())
                .collect::<Result<Vec<_>, _>>()?;
            dst.merge(&sources);
            Ok(())
        },
    )
}

/// The specialisation constants of a stage.
///
/// # Safety
/// `info` is null or a valid specialisation info.
pub(crate) unsafe fn specialization(info: *const vk::SpecializationInfo<'_>) -> Vec<SpecConstant> {
    // SAFETY: the caller's promise.
    let Some(info) = (unsafe { ffi::opt_ref(info) }) else {
        return Vec::new();
    };
    // SAFETY: pData holds dataSize bytes, pMapEntries mapEntryCount entries.
    let data = unsafe { ffi::bytes(info.p_data, info.data_size) };
    // SAFETY: as above.
    unsafe { ffi::slice(info.p_map_entries, info.map_entry_count) }
        .iter()
        .filter_map(|e| {
            let bytes = data.get(e.offset as usize..e.offset as usize + e.size)?;
            Some(SpecConstant {
                id: e.constant_id,
                bytes: bytes.to_vec(),
            })
        })
        .collect()
}

pub unsafe extern "system" fn vkCreateComputePipelines(
    device: vk::Device,
    cache: vk::PipelineCache,
    count: u32,
    p_infos: *const vk::ComputePipelineCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard::result(
        "vkCreateComputePipelines",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            let cache =
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::PIPELINE_CACHES.get_optional(vk::Handle::as_raw(cache)) }?;
            // SAFETY: pCreateInfos holds createInfoCount structures.
            let infos = unsafe { ffi::slice(p_infos, count) };
            let make = |info: &vk::ComputePipelineCreateInfo<'_>| {
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                let module = unsafe { handles::shader_module(info.stage.module) }?;
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                let layout = unsafe { handles::pipeline_layout(info.layout) }?;
                // SAFETY: pName is a valid string.
                let entry = unsafe { ffi::cstr(info.stage.p_name) }
                    .and_then(|s| s.to_str().ok())
                    .unwrap_or("main");
                let desc = ComputePipelineDesc {
                    module,
                    entry_point: entry,
                    // SAFETY: pSpecializationInfo is null or valid.
                    specialization: unsafe { specialization(info.stage.p_specialization_info) },
                    layout: layout.clone(),
                    // SAFETY: the stage's pNext chain is valid.
                    required_subgroup_size: unsafe {
                        ffi::find_in_chain::<
                            vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo<'_>,
                        >(info.stage.p_next)
                    }
                    .map(|s| s.required_subgroup_size),
                };
                let miss = if pipeline_creation::must_not_compile(info) {
                    OnCacheMiss::Refuse
                } else {
                    OnCacheMiss::Compile
                };
                let started = Instant::now();
                let p = ComputePipeline::create(&device.device, &desc, cache.map(|c| &**c), miss)?;
                let stage = Feedback {
                    cache_hit: p.cache_hit,
                    duration: started.elapsed(),
                };
                Ok(Made {
                    cache_hit: p.cache_hit,
                    pipeline: handles::new_pipeline(std::sync::Arc::new(AnyPipeline::Compute(p))),
                    stages: vec![stage],
                })
            };
            // SAFETY: pPipelines holds createInfoCount handles; the infos'
            // chains are valid.
            unsafe { pipeline_creation::create_batch(infos, p_pipelines, make) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyPipeline(
    _device: vk::Device,
    pipeline: vk::Pipeline,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyPipeline", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_pipeline(pipeline) };
        Ok(())
    })
}

/// The one executable of a compute pipeline.
///
/// # Safety
/// `p_info` is a valid structure.
unsafe fn executable(
    p_info: *const vk::PipelineExecutableInfoKHR<'_>,
) -> Result<std::sync::Arc<ComputePipeline>, vk::Result> {
    // SAFETY: the application's structure.
    let info = unsafe { ffi::input(p_info) }?;
    if info.executable_index != 0 {
        return Err(vk::Result::ERROR_UNKNOWN);
    }
    // SAFETY: the caller's promise covers the handle.
    unsafe { compute_pipeline(info.pipeline) }
}

/// The compute pipeline behind `pipeline`; graphics pipelines report no
/// executables yet.
///
/// # Safety
/// `pipeline` is a live handle.
unsafe fn compute_pipeline(
    pipeline: vk::Pipeline,
) -> Result<std::sync::Arc<ComputePipeline>, vk::Result> {
    // SAFETY: the caller's promise.
    match &**unsafe { handles::pipeline(pipeline) }? {
        AnyPipeline::Compute(p) => Ok(p.clone()),
        AnyPipeline::Graphics(_) => {
            eprintln!(
                "parsnip: pipeline executable properties of graphics pipelines are not \
                 reported yet"
            );
            Err(vk::Result::ERROR_UNKNOWN)
        }
    }
}

pub unsafe extern "system" fn vkGetPipelineExecutablePropertiesKHR(
    _device: vk::Device,
    p_info: *const vk::PipelineInfoKHR<'_>,
    p_count: *mut u32,
    p_props: *mut vk::PipelineExecutablePropertiesKHR<'_>,
) -> vk::Result {
    guard::result(
        "vkGetPipelineExecutablePropertiesKHR",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pipeline = unsafe { compute_pipeline(info.pipeline) }?;
            // SAFETY: pExecutableCount is valid.
            let count = unsafe { p_count.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            if p_props.is_null() {
                *count = 1;
                return Ok(vk::Result::SUCCESS);
            }
            if *count == 0 {
                return Ok(vk::Result::INCOMPLETE);
            }
            // SAFETY: pProperties holds at least one application-initialised
            // structure.
            let out = unsafe { &mut *p_props };
            out.stages = vk::ShaderStageFlags::COMPUTE;
            ffi::copy_str(&mut out.name, "CS");
            ffi::copy_str(&mut out.description, "compute shader (ir3)");
            out.subgroup_size = pipeline.binary.wave_size;
            *count = 1;
            Ok(vk::Result::SUCCESS)
        },
    )
}

pub unsafe extern "system" fn vkGetPipelineExecutableStatisticsKHR(
    _device: vk::Device,
    p_info: *const vk::PipelineExecutableInfoKHR<'_>,
    p_count: *mut u32,
    p_stats: *mut vk::PipelineExecutableStatisticKHR<'_>,
) -> vk::Result {
    guard::result(
        "vkGetPipelineExecutableStatisticsKHR",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let pipeline = unsafe { executable(p_info) }?;
            let stats = &pipeline.binary.statistics;
            // SAFETY: pStatisticCount is valid.
            let count = unsafe { p_count.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            if p_stats.is_null() {
                *count = stats.len() as u32;
                return Ok(vk::Result::SUCCESS);
            }
            let n = (*count as usize).min(stats.len());
            for (i, s) in stats.iter().take(n).enumerate() {
                // SAFETY: pStatistics holds *count application-initialised
                // structures.
                let out = unsafe { &mut *p_stats.add(i) };
                ffi::copy_str(&mut out.name, &s.name);
                ffi::copy_str(&mut out.description, &s.description);
                out.format = vk::PipelineExecutableStatisticFormatKHR::UINT64;
                out.value = vk::PipelineExecutableStatisticValueKHR { u64: s.value };
            }
            *count = n as u32;
            Ok(if n < stats.len() {
                vk::Result::INCOMPLETE
            } else {
                vk::Result::SUCCESS
            })
        },
    )
}

pub unsafe extern "system" fn vkGetPipelineExecutableInternalRepresentationsKHR(
    _device: vk::Device,
    p_info: *const vk::PipelineExecutableInfoKHR<'_>,
    p_count: *mut u32,
    p_reprs: *mut vk::PipelineExecutableInternalRepresentationKHR<'_>,
) -> vk::Result {
    guard::result(
        "vkGetPipelineExecutableInternalRepresentationsKHR",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let pipeline = unsafe { executable(p_info) }?;
            // SAFETY: pInternalRepresentationCount is valid.
            let count = unsafe { p_count.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            if p_reprs.is_null() {
                *count = 1;
                return Ok(vk::Result::SUCCESS);
            }
            if *count == 0 {
                return Ok(vk::Result::INCOMPLETE);
            }
            // SAFETY: pInternalRepresentations holds at least one
            // application-initialised structure.
            let out = unsafe { &mut *p_reprs };
            ffi::copy_str(&mut out.name, "ir3 assembly");
            ffi::copy_str(
                &mut out.description,
                "Final ir3 assembly of the compute shader",
            );
            out.is_text = vk::TRUE;
            let text = pipeline.binary.disassembly.as_bytes();
            let needed = text.len() + 1;
            *count = 1;
            if out.p_data.is_null() {
                out.data_size = needed;
                return Ok(vk::Result::SUCCESS);
            }
            let n = out.data_size.min(needed);
            if n > 0 {
                // SAFETY: pData holds dataSize bytes; n - 1 text bytes and
                // a NUL fit.
                unsafe {
                    std::ptr::copy_nonoverlapping(text.as_ptr(), out.p_data.cast::<u8>(), n - 1);
                    out.p_data.cast::<u8>().add(n - 1).write(0);
                }
            }
            let complete = n == needed;
            out.data_size = n;
            Ok(if complete {
                vk::Result::SUCCESS
            } else {
                vk::Result::INCOMPLETE
            })
        },
    )
}
