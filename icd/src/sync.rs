//! Fence, semaphore and event entry points.

use ash::vk;
use parsnip_driver::sync::event::Event;
use parsnip_driver::sync::fence::Fence;
use parsnip_driver::sync::semaphore::{Semaphore, SemaphoreKind};

use crate::ffi;
use crate::guard;
use crate::handles;

pub unsafe extern "system" fn vkCreateFence(
    device: vk::Device,
    p_info: *const vk::FenceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    guard::success(
        "vkCreateFence",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            let fence = Fence::new(
                &device.device,
                info.flags.contains(vk::FenceCreateFlags::SIGNALED),
            )?;
            // SAFETY: pFence is valid for a write.
            unsafe { ffi::write(p_fence, handles::new_fence(fence)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyFence(
    _device: vk::Device,
    fence: vk::Fence,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyFence", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_fence(fence) };
        Ok(())
    })
}

/// # Safety
/// `p` holds `count` fence handles.
unsafe fn fences(
    count: u32,
    p: *const vk::Fence,
) -> Result<Vec<std::sync::Arc<Fence>>, vk::Result> {
    // SAFETY: the caller's promise.
    unsafe { ffi::slice(p, count) }
        .iter()
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        .map(|f| unsafe { handles::fence(*f) }.cloned())
        .collect()
}

pub unsafe extern "system" fn vkResetFences(
    _device: vk::Device,
    count: u32,
    p_fences: *const vk::Fence,
) -> vk::Result {
    guard::success(
        "vkResetFences",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: pFences holds fenceCount handles.
            Fence::reset(&unsafe { fences(count, p_fences) }?)
        },
    )
}

pub unsafe extern "system" fn vkGetFenceStatus(
    _device: vk::Device,
    fence: vk::Fence,
) -> vk::Result {
    guard::result("vkGetFenceStatus", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::fence(fence) }?.status()
    })
}

pub unsafe extern "system" fn vkWaitForFences(
    _device: vk::Device,
    count: u32,
    p_fences: *const vk::Fence,
    wait_all: vk::Bool32,
    timeout: u64,
) -> vk::Result {
    guard::result("vkWaitForFences", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: pFences holds fenceCount handles.
        let list = unsafe { fences(count, p_fences) }?;
        match Fence::wait(&list, wait_all != vk::FALSE, timeout) {
            Ok(()) => Ok(vk::Result::SUCCESS),
            Err(vk::Result::TIMEOUT) => Ok(vk::Result::TIMEOUT),
            Err(e) => Err(e),
        }
    })
}

pub unsafe extern "system" fn vkCreateSemaphore(
    device: vk::Device,
    p_info: *const vk::SemaphoreCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_semaphore: *mut vk::Semaphore,
) -> vk::Result {
    guard::success(
        "vkCreateSemaphore",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure and its chain.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let ty = unsafe { ffi::find_in_chain::<vk::SemaphoreTypeCreateInfo<'_>>(info.p_next) };
            let (kind, initial) = match ty {
                Some(t) if t.semaphore_type == vk::SemaphoreType::TIMELINE => {
                    (SemaphoreKind::Timeline, t.initial_value)
                }
                _ => (SemaphoreKind::Binary, 0),
            };
            let semaphore = Semaphore::new(&device.device, kind, initial)?;
            // SAFETY: pSemaphore is valid for a write.
            unsafe { ffi::write(p_semaphore, handles::new_semaphore(semaphore)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroySemaphore(
    _device: vk::Device,
    semaphore: vk::Semaphore,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroySemaphore", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_semaphore(semaphore) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetSemaphoreCounterValue(
    _device: vk::Device,
    semaphore: vk::Semaphore,
    p_value: *mut u64,
) -> vk::Result {
    guard::success(
        "vkGetSemaphoreCounterValue",
        vk::Result::ERROR_DEVICE_LOST,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let value = unsafe { handles::semaphore(semaphore) }?.counter_value()?;
            // SAFETY: pValue is valid for a write.
            unsafe { ffi::write(p_value, value) }
        },
    )
}

pub unsafe extern "system" fn vkWaitSemaphores(
    _device: vk::Device,
    p_info: *const vk::SemaphoreWaitInfo<'_>,
    timeout: u64,
) -> vk::Result {
    guard::result("vkWaitSemaphores", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: the application's structure.
        let info = unsafe { ffi::input(p_info) }?;
        // SAFETY: pSemaphores and pValues hold semaphoreCount elements.
        let (list, values) = unsafe {
            (
                ffi::slice(info.p_semaphores, info.semaphore_count),
                ffi::slice(info.p_values, info.semaphore_count),
            )
        };
        let waits = list
            .iter()
            .zip(values)
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            .map(|(s, v)| unsafe { handles::semaphore(*s) }.map(|s| (s.clone(), *v)))
            .collect::<Result<Vec<_>, _>>()?;
        let any = info.flags.contains(vk::SemaphoreWaitFlags::ANY);
        match Semaphore::wait(&waits, any, timeout) {
            Ok(()) => Ok(vk::Result::SUCCESS),
            Err(vk::Result::TIMEOUT) => Ok(vk::Result::TIMEOUT),
            Err(e) => Err(e),
        }
    })
}

pub unsafe extern "system" fn vkSignalSemaphore(
    _device: vk::Device,
    p_info: *const vk::SemaphoreSignalInfo<'_>,
) -> vk::Result {
    guard::success("vkSignalSemaphore", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: the application's structure.
        let info = unsafe { ffi::input(p_info) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::semaphore(info.semaphore) }?.signal(info.value)
    })
}

pub unsafe extern "system" fn vkCreateEvent(
    device: vk::Device,
    _p_info: *const vk::EventCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_event: *mut vk::Event,
) -> vk::Result {
    guard::success(
        "vkCreateEvent",
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            let event = Event::new(&device.device)?;
            // SAFETY: pEvent is valid for a write.
            unsafe { ffi::write(p_event, handles::new_event(event)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyEvent(
    _device: vk::Device,
    event: vk::Event,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyEvent", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_event(event) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetEventStatus(
    _device: vk::Device,
    event: vk::Event,
) -> vk::Result {
    guard::result("vkGetEventStatus", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        Ok(if unsafe { handles::event(event) }?.is_set()? {
            vk::Result::EVENT_SET
        } else {
            vk::Result::EVENT_RESET
        })
    })
}

pub unsafe extern "system" fn vkSetEvent(_device: vk::Device, event: vk::Event) -> vk::Result {
    guard::success("vkSetEvent", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::event(event) }?.set()
    })
}

pub unsafe extern "system" fn vkResetEvent(_device: vk::Device, event: vk::Event) -> vk::Result {
    guard::success("vkResetEvent", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::event(event) }?.reset()
    })
}
