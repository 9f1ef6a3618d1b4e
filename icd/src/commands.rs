//! The recording commands (`vkCmd*`). Each reads its arguments, then
//! records through the command buffer, which keeps the first error for
//! `vkEndCommandBuffer`.

use std::ffi::c_void;
use std::sync::Arc;

use ash::vk;
use parsnip_driver::cmd::barrier::Dependency;
use parsnip_driver::cmd::buffer::Recording;
use parsnip_driver::cmd::transfer::CopyRegion;
use parsnip_driver::pipeline::AnyPipeline;
use parsnip_driver::sync::event::Event;
use parsnip_driver::VkResult;

use crate::ffi;
use crate::guard;
use crate::handles;

/// Records `command` into `command_buffer`; a panic is reported and turns
/// into the command buffer's error. Inlined into each entry point, so that
/// a command's arguments reach its recording in registers.
#[inline(always)]
pub(crate) fn record(
    entry: &'static str,
    command_buffer: vk::CommandBuffer,
    command: impl FnOnce(&mut Recording) -> VkResult<()>,
) {
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    let Ok(cmd) = (unsafe { handles::command_buffer(command_buffer) }) else {
        return;
    };
    let recorded = guard::value(entry, false, || {
        cmd.record_command(entry, command);
        true
    });
    if !recorded {
        cmd.record(|_| Err(vk::Result::ERROR_UNKNOWN));
    }
}

/// Like `record`, for commands whose arguments must first be resolved
/// (handles, arrays): a resolution error becomes the command's error.
#[inline(always)]
pub(crate) fn record_with<A>(
    entry: &'static str,
    command_buffer: vk::CommandBuffer,
    args: impl FnOnce() -> Result<A, vk::Result>,
    command: impl FnOnce(&mut Recording, A) -> VkResult<()>,
) {
    let resolved = guard::value(entry, Err(vk::Result::ERROR_UNKNOWN), args);
    record(entry, command_buffer, |rec| command(rec, resolved?));
}

pub unsafe extern "system" fn vkCmdBindPipeline(
    command_buffer: vk::CommandBuffer,
    bind_point: vk::PipelineBindPoint,
    pipeline: vk::Pipeline,
) {
    record_with(
        "vkCmdBindPipeline",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::pipeline(pipeline) },
        |rec, p| match (bind_point, &**p) {
            (vk::PipelineBindPoint::COMPUTE, AnyPipeline::Compute(p)) => {
                rec.bind_compute_pipeline(p.clone())
            }
            (vk::PipelineBindPoint::GRAPHICS, AnyPipeline::Graphics(p)) => {
                rec.bind_graphics_pipeline(p.clone())
            }
            _ => {
                eprintln!("parsnip: vkCmdBindPipeline: a pipeline of another bind point");
                Err(vk::Result::ERROR_UNKNOWN)
            }
        },
    );
}

pub unsafe extern "system" fn vkCmdBindDescriptorSets(
    command_buffer: vk::CommandBuffer,
    bind_point: vk::PipelineBindPoint,
    layout: vk::PipelineLayout,
    first_set: u32,
    set_count: u32,
    p_sets: *const vk::DescriptorSet,
    dynamic_count: u32,
    p_dynamic: *const u32,
) {
    record("vkCmdBindDescriptorSets", command_buffer, |rec| {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let layout = unsafe { handles::pipeline_layout(layout) }?;
        // SAFETY: pDescriptorSets holds descriptorSetCount handles, and
        // pDynamicOffsets dynamicOffsetCount offsets.
        let (sets, offsets) = unsafe {
            (
                ffi::slice(p_sets, set_count),
                ffi::slice(p_dynamic, dynamic_count),
            )
        };
        rec.bind_descriptor_sets_each(
            bind_point,
            layout,
            first_set,
            sets.len(),
            // SAFETY: the sets are live for the call (valid usage).
            |i| unsafe { handles::descriptor_set(sets[i]) },
            offsets,
        )
    });
}

pub unsafe extern "system" fn vkCmdPushConstants(
    command_buffer: vk::CommandBuffer,
    _layout: vk::PipelineLayout,
    _stages: vk::ShaderStageFlags,
    offset: u32,
    size: u32,
    p_values: *const c_void,
) {
    record("vkCmdPushConstants", command_buffer, |rec| {
        // SAFETY: pValues holds size bytes.
        rec.push_constants(offset, unsafe { ffi::bytes(p_values, size as usize) })
    });
}

pub unsafe extern "system" fn vkCmdDispatch(
    command_buffer: vk::CommandBuffer,
    x: u32,
    y: u32,
    z: u32,
) {
    record("vkCmdDispatch", command_buffer, |rec| {
        rec.dispatch([0; 3], [x, y, z])
    });
}

pub unsafe extern "system" fn vkCmdDispatchBase(
    command_buffer: vk::CommandBuffer,
    bx: u32,
    by: u32,
    bz: u32,
    x: u32,
    y: u32,
    z: u32,
) {
    record("vkCmdDispatchBase", command_buffer, |rec| {
        rec.dispatch([bx, by, bz], [x, y, z])
    });
}

pub unsafe extern "system" fn vkCmdDispatchIndirect(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
) {
    record_with(
        "vkCmdDispatchIndirect",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::buffer(buffer) },
        |rec, b| rec.dispatch_indirect(b, offset),
    );
}

pub unsafe extern "system" fn vkCmdSetDeviceMask(command_buffer: vk::CommandBuffer, mask: u32) {
    // One physical device per device group: the only valid mask is 1.
    record("vkCmdSetDeviceMask", command_buffer, |_| {
        if mask == 1 {
            Ok(())
        } else {
            Err(vk::Result::ERROR_UNKNOWN)
        }
    });
}

/// The dependencies of a Vulkan 1.0 barrier.
///
/// # Safety
/// The arrays hold their counts of structures.
unsafe fn v1_dependencies(
    src: vk::PipelineStageFlags,
    dst: vk::PipelineStageFlags,
    memory: (u32, *const vk::MemoryBarrier<'_>),
    buffers: (u32, *const vk::BufferMemoryBarrier<'_>),
    images: (u32, *const vk::ImageMemoryBarrier<'_>),
) -> Vec<Dependency> {
    let mut out = vec![Dependency::from_v1(
        src,
        vk::AccessFlags::empty(),
        dst,
        vk::AccessFlags::empty(),
    )];
    // SAFETY: the caller's promise.
    for m in unsafe { ffi::slice(memory.1, memory.0) } {
        out.push(Dependency::from_v1(
            src,
            m.src_access_mask,
            dst,
            m.dst_access_mask,
        ));
    }
    // SAFETY: the caller's promise.
    for b in unsafe { ffi::slice(buffers.1, buffers.0) } {
        out.push(Dependency::from_v1(
            src,
            b.src_access_mask,
            dst,
            b.dst_access_mask,
        ));
    }
    // SAFETY: the caller's promise. A layout transition is a memory
    // dependency only: every unit that reads or writes images (the 2D
    // engine, the texture unit, the RB) understands their UBWC state, so
    // no layout needs the image decompressed or moved.
    for i in unsafe { ffi::slice(images.1, images.0) } {
        out.push(Dependency::from_v1(
            src,
            i.src_access_mask,
            dst,
            i.dst_access_mask,
        ));
    }
    out
}

/// The dependencies of a synchronization2 dependency info.
///
/// # Safety
/// `info` is a valid structure with valid arrays.
unsafe fn v2_dependencies(info: &vk::DependencyInfo<'_>) -> Vec<Dependency> {
    let mut out = Vec::new();
    // SAFETY: the caller's promise.
    for m in unsafe { ffi::slice(info.p_memory_barriers, info.memory_barrier_count) } {
        out.push(Dependency {
            src_stages: m.src_stage_mask,
            src_access: m.src_access_mask,
            dst_stages: m.dst_stage_mask,
            dst_access: m.dst_access_mask,
        });
    }
    // SAFETY: the caller's promise.
    for b in unsafe {
        ffi::slice(
            info.p_buffer_memory_barriers,
            info.buffer_memory_barrier_count,
        )
    } {
        out.push(Dependency {
            src_stages: b.src_stage_mask,
            src_access: b.src_access_mask,
            dst_stages: b.dst_stage_mask,
            dst_access: b.dst_access_mask,
        });
    }
    // SAFETY: the caller's promise. Image barriers are memory
    // dependencies (see v1_dependencies).
    for i in unsafe {
        ffi::slice(
            info.p_image_memory_barriers,
            info.image_memory_barrier_count,
        )
    } {
        out.push(Dependency {
            src_stages: i.src_stage_mask,
            src_access: i.src_access_mask,
            dst_stages: i.dst_stage_mask,
            dst_access: i.dst_access_mask,
        });
    }
    out
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn vkCmdPipelineBarrier(
    command_buffer: vk::CommandBuffer,
    src: vk::PipelineStageFlags,
    dst: vk::PipelineStageFlags,
    _flags: vk::DependencyFlags,
    memory_count: u32,
    p_memory: *const vk::MemoryBarrier<'_>,
    buffer_count: u32,
    p_buffers: *const vk::BufferMemoryBarrier<'_>,
    image_count: u32,
    p_images: *const vk::ImageMemoryBarrier<'_>,
) {
    record_with(
        "vkCmdPipelineBarrier",
        command_buffer,
        // SAFETY: the barrier arrays hold their counts of structures.
        || {
            Ok(unsafe {
                v1_dependencies(
                    src,
                    dst,
                    (memory_count, p_memory),
                    (buffer_count, p_buffers),
                    (image_count, p_images),
                )
            })
        },
        |rec, deps| rec.pipeline_barrier(&deps),
    );
}

pub unsafe extern "system" fn vkCmdPipelineBarrier2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::DependencyInfo<'_>,
) {
    record_with(
        "vkCmdPipelineBarrier2",
        command_buffer,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            Ok(unsafe { v2_dependencies(info) })
        },
        |rec, deps| rec.pipeline_barrier(&deps),
    );
}

pub unsafe extern "system" fn vkCmdCopyBuffer(
    command_buffer: vk::CommandBuffer,
    src: vk::Buffer,
    dst: vk::Buffer,
    count: u32,
    p_regions: *const vk::BufferCopy,
) {
    record_with(
        "vkCmdCopyBuffer",
        command_buffer,
        || {
            // SAFETY: pRegions holds regionCount structures.
            let regions = unsafe { ffi::slice(p_regions, count) }
                .iter()
                .map(|r| CopyRegion {
                    src_offset: r.src_offset,
                    dst_offset: r.dst_offset,
                    size: r.size,
                })
                .collect::<Vec<_>>();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(src) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(dst) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_buffer(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdFillBuffer(
    command_buffer: vk::CommandBuffer,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    data: u32,
) {
    record_with(
        "vkCmdFillBuffer",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::buffer(dst) },
        |rec, dst| rec.fill_buffer(dst, offset, size, data),
    );
}

pub unsafe extern "system" fn vkCmdUpdateBuffer(
    command_buffer: vk::CommandBuffer,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    p_data: *const c_void,
) {
    record_with(
        "vkCmdUpdateBuffer",
        command_buffer,
        || {
            // SAFETY: pData holds dataSize bytes.
            let data = unsafe { ffi::bytes(p_data, size as usize) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((unsafe { handles::buffer(dst) }?, data))
        },
        |rec, (dst, data)| rec.update_buffer(dst, offset, &data),
    );
}

/// Sets (`signal`) or resets `event` once `stages` are done.
fn write_event(
    entry: &'static str,
    command_buffer: vk::CommandBuffer,
    event: vk::Event,
    signal: bool,
    stages: vk::PipelineStageFlags2,
) {
    record_with(
        entry,
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::event(event) },
        |rec, e| rec.write_event(e, signal, stages),
    );
}

/// Vulkan 1.0 stages as synchronization2 stages: the same bits (the
/// VK_KHR_synchronization2 specification keeps every 1.0 value).
fn stages2(stages: vk::PipelineStageFlags) -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::from_raw(u64::from(stages.as_raw()))
}

pub unsafe extern "system" fn vkCmdSetEvent(
    command_buffer: vk::CommandBuffer,
    event: vk::Event,
    stages: vk::PipelineStageFlags,
) {
    write_event(
        "vkCmdSetEvent",
        command_buffer,
        event,
        true,
        stages2(stages),
    );
}

pub unsafe extern "system" fn vkCmdResetEvent(
    command_buffer: vk::CommandBuffer,
    event: vk::Event,
    stages: vk::PipelineStageFlags,
) {
    write_event(
        "vkCmdResetEvent",
        command_buffer,
        event,
        false,
        stages2(stages),
    );
}

pub unsafe extern "system" fn vkCmdSetEvent2(
    command_buffer: vk::CommandBuffer,
    event: vk::Event,
    p_info: *const vk::DependencyInfo<'_>,
) {
    record_with(
        "vkCmdSetEvent2",
        command_buffer,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let stages = unsafe { v2_dependencies(info) }
                .iter()
                .fold(vk::PipelineStageFlags2::empty(), |s, d| s | d.src_stages);
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((unsafe { handles::event(event) }?, stages))
        },
        |rec, (e, stages)| rec.write_event(e, true, stages),
    );
}

pub unsafe extern "system" fn vkCmdResetEvent2(
    command_buffer: vk::CommandBuffer,
    event: vk::Event,
    stages: vk::PipelineStageFlags2,
) {
    write_event("vkCmdResetEvent2", command_buffer, event, false, stages);
}

/// The driver's events for the application's handles.
fn events(raw: &[vk::Event]) -> Result<Vec<Arc<Event>>, vk::Result> {
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    raw.iter()
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        .map(|e| unsafe { handles::event(*e) }.cloned())
        .collect()
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn vkCmdWaitEvents(
    command_buffer: vk::CommandBuffer,
    count: u32,
    p_events: *const vk::Event,
    src: vk::PipelineStageFlags,
    dst: vk::PipelineStageFlags,
    memory_count: u32,
    p_memory: *const vk::MemoryBarrier<'_>,
    buffer_count: u32,
    p_buffers: *const vk::BufferMemoryBarrier<'_>,
    image_count: u32,
    p_images: *const vk::ImageMemoryBarrier<'_>,
) {
    record_with(
        "vkCmdWaitEvents",
        command_buffer,
        || {
            // SAFETY: pEvents holds eventCount handles.
            let events = events(unsafe { ffi::slice(p_events, count) })?;
            // SAFETY: the barrier arrays hold their counts.
            let deps = unsafe {
                v1_dependencies(
                    src,
                    dst,
                    (memory_count, p_memory),
                    (buffer_count, p_buffers),
                    (image_count, p_images),
                )
            };
            Ok((events, deps))
        },
        |rec, (events, deps)| rec.wait_events(&events, &deps),
    );
}

pub unsafe extern "system" fn vkCmdWaitEvents2(
    command_buffer: vk::CommandBuffer,
    count: u32,
    p_events: *const vk::Event,
    p_infos: *const vk::DependencyInfo<'_>,
) {
    record_with(
        "vkCmdWaitEvents2",
        command_buffer,
        || {
            // SAFETY: pEvents and pDependencyInfos hold eventCount elements.
            let (events, infos) =
                unsafe { (ffi::slice(p_events, count), ffi::slice(p_infos, count)) };
            let events = self::events(events)?;
            // SAFETY: each dependency info is valid.
            let deps = infos
                .iter()
                .flat_map(|i| unsafe { v2_dependencies(i) })
                .collect::<Vec<_>>();
            Ok((events, deps))
        },
        |rec, (events, deps)| rec.wait_events(&events, &deps),
    );
}

/// Writes the timestamp of `query`. The stage is not needed: the driver
/// writes it once all earlier work is done (RB_DONE_TS), which is late
/// enough for any stage.
fn write_timestamp(
    entry: &'static str,
    command_buffer: vk::CommandBuffer,
    pool: vk::QueryPool,
    query: u32,
) {
    record_with(
        entry,
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::query_pool(pool) },
        |rec, p| rec.write_timestamp(p, query),
    );
}

pub unsafe extern "system" fn vkCmdWriteTimestamp(
    command_buffer: vk::CommandBuffer,
    _stage: vk::PipelineStageFlags,
    pool: vk::QueryPool,
    query: u32,
) {
    write_timestamp("vkCmdWriteTimestamp", command_buffer, pool, query);
}

pub unsafe extern "system" fn vkCmdWriteTimestamp2(
    command_buffer: vk::CommandBuffer,
    _stage: vk::PipelineStageFlags2,
    pool: vk::QueryPool,
    query: u32,
) {
    write_timestamp("vkCmdWriteTimestamp2", command_buffer, pool, query);
}

/// Writes `marker` into `dst` at `offset` once the work before it has
/// finished `stage`.
fn write_buffer_marker(
    entry: &'static str,
    command_buffer: vk::CommandBuffer,
    stage: vk::PipelineStageFlags2,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    marker: u32,
) {
    record_with(
        entry,
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::buffer(dst) },
        |rec, b| rec.write_buffer_marker(stage, b, offset, marker),
    );
}

pub unsafe extern "system" fn vkCmdWriteBufferMarkerAMD(
    command_buffer: vk::CommandBuffer,
    stage: vk::PipelineStageFlags,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    marker: u32,
) {
    // The 1.0 stage bits are the low bits of the synchronization2 ones.
    let stage = vk::PipelineStageFlags2::from_raw(u64::from(stage.as_raw()));
    write_buffer_marker(
        "vkCmdWriteBufferMarkerAMD",
        command_buffer,
        stage,
        dst,
        offset,
        marker,
    );
}

pub unsafe extern "system" fn vkCmdWriteBufferMarker2AMD(
    command_buffer: vk::CommandBuffer,
    stage: vk::PipelineStageFlags2,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    marker: u32,
) {
    write_buffer_marker(
        "vkCmdWriteBufferMarker2AMD",
        command_buffer,
        stage,
        dst,
        offset,
        marker,
    );
}

pub unsafe extern "system" fn vkCmdResetQueryPool(
    command_buffer: vk::CommandBuffer,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
) {
    record_with(
        "vkCmdResetQueryPool",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::query_pool(pool) },
        |rec, p| rec.reset_queries(p, first, count),
    );
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn vkCmdCopyQueryPoolResults(
    command_buffer: vk::CommandBuffer,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    stride: vk::DeviceSize,
    flags: vk::QueryResultFlags,
) {
    record_with(
        "vkCmdCopyQueryPoolResults",
        command_buffer,
        || {
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            Ok(unsafe { (handles::query_pool(pool)?, handles::buffer(dst)?) })
        },
        |rec, (p, b)| rec.copy_query_results(p, first, count, b, offset, stride, flags),
    );
}

pub unsafe extern "system" fn vkCmdExecuteCommands(
    command_buffer: vk::CommandBuffer,
    count: u32,
    p_buffers: *const vk::CommandBuffer,
) {
    guard::void("vkCmdExecuteCommands", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let primary = unsafe { handles::command_buffer(command_buffer) }?;
        // SAFETY: pCommandBuffers holds commandBufferCount handles.
        let secondaries = unsafe { ffi::slice(p_buffers, count) }
            .iter()
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            .map(|c| unsafe { handles::command_buffer(*c) }.cloned())
            .collect::<Result<Vec<_>, _>>()?;
        primary.execute_commands(&secondaries);
        Ok(())
    })
}
