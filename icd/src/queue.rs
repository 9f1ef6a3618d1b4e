//! Queue entry points: submits (1 and 2) and wait-idle.

use ash::vk;
use parsnip_driver::queue::{SemaphoreOp, SubmitBatch};

use crate::ffi;
use crate::guard;
use crate::handles;

/// The batches of `vkQueueSubmit`.
///
/// # Safety
/// `submits` are valid structures with valid arrays and chains.
unsafe fn batches_v1(submits: &[vk::SubmitInfo<'_>]) -> Result<Vec<SubmitBatch>, vk::Result> {
    let mut out = Vec::with_capacity(submits.len());
    for s in submits {
        // SAFETY: the caller's promise.
        let timeline =
            unsafe { ffi::find_in_chain::<vk::TimelineSemaphoreSubmitInfo<'_>>(s.p_next) };
        // SAFETY: the value arrays hold their counts.
        let (wait_values, signal_values) = timeline.map_or((&[][..], &[][..]), |t| unsafe {
            (
                ffi::slice(t.p_wait_semaphore_values, t.wait_semaphore_value_count),
                ffi::slice(t.p_signal_semaphore_values, t.signal_semaphore_value_count),
            )
        });
        let op = |list: &[vk::Semaphore], values: &[u64]| {
            list.iter()
                .enumerate()
                .map(|(i, h)| {
                    Ok(SemaphoreOp {
                        semaphore: handles::semaphore(*h)?,
                        value: values.get(i).copied().unwrap_or(0),
                    })
                })
                .collect::<Result<Vec<_>, vk::Result>>()
        };
        // SAFETY: the submit's arrays hold their counts.
        let (waits, cmds, signals) = unsafe {
            (
                ffi::slice(s.p_wait_semaphores, s.wait_semaphore_count),
                ffi::slice(s.p_command_buffers, s.command_buffer_count),
                ffi::slice(s.p_signal_semaphores, s.signal_semaphore_count),
            )
        };
        out.push(SubmitBatch {
            waits: op(waits, wait_values)?,
            command_buffers: cmds
                .iter()
                .map(|c| handles::command_buffer(*c))
                .collect::<Result<_, _>>()?,
            signals: op(signals, signal_values)?,
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
                    semaphore: handles::semaphore(i.semaphore)?,
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
                .map(|c| handles::command_buffer(c.command_buffer))
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
        let queue = handles::queue(queue)?;
        let fence = handles::FENCES.get_optional(vk::Handle::as_raw(fence))?;
        // SAFETY: pSubmits holds submitCount valid structures.
        let batches = unsafe { batches_v1(ffi::slice(p_submits, count)) }?;
        queue.submit(&batches, fence.as_ref())
    })
}

pub unsafe extern "system" fn vkQueueSubmit2(
    queue: vk::Queue,
    count: u32,
    p_submits: *const vk::SubmitInfo2<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard::success("vkQueueSubmit2", vk::Result::ERROR_DEVICE_LOST, || {
        let queue = handles::queue(queue)?;
        let fence = handles::FENCES.get_optional(vk::Handle::as_raw(fence))?;
        // SAFETY: pSubmits holds submitCount valid structures.
        let batches = unsafe { batches_v2(ffi::slice(p_submits, count)) }?;
        queue.submit(&batches, fence.as_ref())
    })
}

pub unsafe extern "system" fn vkQueueWaitIdle(queue: vk::Queue) -> vk::Result {
    guard::success("vkQueueWaitIdle", vk::Result::ERROR_DEVICE_LOST, || {
        handles::queue(queue)?.wait_idle()
    })
}
