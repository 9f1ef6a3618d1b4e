//! Queue entry points: submits (1 and 2), sparse binds and wait-idle.

use ash::vk;
use parsnip_driver::queue::{SemaphoreOp, SubmitBatch};

use crate::ffi;
use crate::guard;
use crate::handles;

/// The semaphore operations of `list`, with the timeline values of
/// `values` (0 for binary semaphores or past its end).
fn semaphore_ops(list: &[vk::Semaphore], values: &[u64]) -> Result<Vec<SemaphoreOp>, vk::Result> {
    list.iter()
        .enumerate()
        .map(|(i, h)| {
            Ok(SemaphoreOp {
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                semaphore: unsafe { handles::semaphore(*h) }?.clone(),
                value: values.get(i).copied().unwrap_or(0),
            })
        })
        .collect()
}

/// The wait and signal values of a `VkTimelineSemaphoreSubmitInfo` in the
/// chain, empty without one.
///
/// # Safety
/// `p_next` starts a valid chain whose arrays hold their counts.
unsafe fn timeline_values<'a>(p_next: *const std::ffi::c_void) -> (&'a [u64], &'a [u64]) {
    // SAFETY: the caller's promise.
    let timeline = unsafe { ffi::find_in_chain::<vk::TimelineSemaphoreSubmitInfo<'_>>(p_next) };
    // SAFETY: the value arrays hold their counts.
    timeline.map_or((&[][..], &[][..]), |t| unsafe {
        (
            ffi::slice(t.p_wait_semaphore_values, t.wait_semaphore_value_count),
            ffi::slice(t.p_signal_semaphore_values, t.signal_semaphore_value_count),
        )
    })
}

/// The batches of `vkQueueSubmit`.
///
/// # Safety
/// `submits` are valid structures with valid arrays and chains.
unsafe fn batches_v1(submits: &[vk::SubmitInfo<'_>]) -> Result<Vec<SubmitBatch>, vk::Result> {
    let mut out = Vec::with_capacity(submits.len());
    for s in submits {
        // SAFETY: the caller's promise.
        let (wait_values, signal_values) = unsafe { timeline_values(s.p_next) };
        // SAFETY: the submit's arrays hold their counts.
        let (waits, cmds, signals) = unsafe {
            (
                ffi::slice(s.p_wait_semaphores, s.wait_semaphore_count),
                ffi::slice(s.p_command_buffers, s.command_buffer_count),
                ffi::slice(s.p_signal_semaphores, s.signal_semaphore_count),
            )
        };
        out.push(SubmitBatch {
            waits: semaphore_ops(waits, wait_values)?,
            command_buffers: cmds
                .iter()
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                .map(|c| unsafe { handles::command_buffer(*c) }.cloned())
                .collect::<Result<_, _>>()?,
            signals: semaphore_ops(signals, signal_values)?,
        });
    }
    Ok(out)
}

/// The batches of `vkQueueSubmit2`.
///
/// # Safety
/// `submits` are valid structures with valid arrays.
unsafe fn batches_v2(submits: &[vk::SubmitInfo2<'_>]) -> Result<Vec<SubmitBatch>, vk::Result> {
    let op = |infos: &[vk::SemaphoreSubmitInfo<'_>]| {
        infos
            .iter()
            .map(|i| {
                Ok(SemaphoreOp {
                    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                    semaphore: unsafe { handles::semaphore(i.semaphore) }?.clone(),
                    value: i.value,
                })
            })
            .collect::<Result<Vec<_>, vk::Result>>()
    };
    let mut out = Vec::with_capacity(submits.len());
    for s in submits {
        // SAFETY: the caller's promise.
        let (waits, cmds, signals) = unsafe {
            (
                ffi::slice(s.p_wait_semaphore_infos, s.wait_semaphore_info_count),
                ffi::slice(s.p_command_buffer_infos, s.command_buffer_info_count),
                ffi::slice(s.p_signal_semaphore_infos, s.signal_semaphore_info_count),
            )
        };
        out.push(SubmitBatch {
            waits: op(waits)?,
            command_buffers: cmds
                .iter()
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                .map(|c| unsafe { handles::command_buffer(c.command_buffer) }.cloned())
                .collect::<Result<_, _>>()?,
            signals: op(signals)?,
        });
    }
    Ok(out)
}

pub unsafe extern "system" fn vkQueueSubmit(
    queue: vk::Queue,
    count: u32,
    p_submits: *const vk::SubmitInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard::success("vkQueueSubmit", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let queue = unsafe { handles::queue(queue) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let fence = unsafe { handles::FENCES.get_optional(vk::Handle::as_raw(fence)) }?;
        // SAFETY: pSubmits holds submitCount valid structures.
        let batches = unsafe { batches_v1(ffi::slice(p_submits, count)) }?;
        queue.submit(&batches, fence)
    })
}

pub unsafe extern "system" fn vkQueueSubmit2(
    queue: vk::Queue,
    count: u32,
    p_submits: *const vk::SubmitInfo2<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard::success("vkQueueSubmit2", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let queue = unsafe { handles::queue(queue) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let fence = unsafe { handles::FENCES.get_optional(vk::Handle::as_raw(fence)) }?;
        // SAFETY: pSubmits holds submitCount valid structures.
        let batches = unsafe { batches_v2(ffi::slice(p_submits, count)) }?;
        queue.submit(&batches, fence)
    })
}

pub unsafe extern "system" fn vkQueueWaitIdle(queue: vk::Queue) -> vk::Result {
    guard::success("vkQueueWaitIdle", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::queue(queue) }?.wait_idle()
    })
}

/// `vkQueueBindSparse`: no queue family has `VK_QUEUE_SPARSE_BINDING_BIT`
/// and no sparse resource can be created, so a bind is refused; what is
/// left, the semaphore waits and signals and the fence, runs as an empty
/// submit in order with the queue's other work, as the spec orders it.
pub unsafe extern "system" fn vkQueueBindSparse(
    queue: vk::Queue,
    count: u32,
    p_bind_info: *const vk::BindSparseInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard::success("vkQueueBindSparse", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let queue = unsafe { handles::queue(queue) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let fence = unsafe { handles::FENCES.get_optional(vk::Handle::as_raw(fence)) }?;
        // SAFETY: pBindInfo holds bindInfoCount valid structures.
        let infos = unsafe { ffi::slice(p_bind_info, count) };
        if infos
            .iter()
            .any(|b| b.buffer_bind_count + b.image_opaque_bind_count + b.image_bind_count != 0)
        {
            eprintln!(
                "parsnip: vkQueueBindSparse: no queue of Parsnip's supports sparse binding \
                 (sparseBinding is not offered)"
            );
            return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
        }
        let mut batches = Vec::with_capacity(infos.len());
        for b in infos {
            // SAFETY: the caller's promise.
            let (wait_values, signal_values) = unsafe { timeline_values(b.p_next) };
            // SAFETY: the semaphore arrays hold their counts.
            let (waits, signals) = unsafe {
                (
                    ffi::slice(b.p_wait_semaphores, b.wait_semaphore_count),
                    ffi::slice(b.p_signal_semaphores, b.signal_semaphore_count),
                )
            };
            batches.push(SubmitBatch {
                waits: semaphore_ops(waits, wait_values)?,
                command_buffers: Vec::new(),
                signals: semaphore_ops(signals, signal_values)?,
            });
        }
        queue.submit(&batches, fence)
    })
}
