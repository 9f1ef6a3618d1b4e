//! Presentation entry points: `VK_KHR_surface` and `VK_EXT_headless_surface`
//! (with `VK_KHR_get_surface_capabilities2`'s queries), `VK_KHR_swapchain`
//! and its Vulkan 1.1 device-group queries.
//!
//! Surfaces are this ICD's own objects: from loader interface version 3 on
//! (Parsnip negotiates 5, loader.rs), a loader that finds
//! `vkCreateHeadlessSurfaceEXT` in the ICD calls it and hands the ICD the
//! handle it returned wherever the application passes its surface, instead
//! of the loader's `VkIcdSurfaceHeadless`.

use std::sync::Arc;

use ash::vk;
use parsnip_driver::queue::SemaphoreOp;
use parsnip_driver::wsi::surface::{self, Surface, PRESENT_MODES};
use parsnip_driver::wsi::swapchain::{self, PresentImage, Swapchain, SwapchainDesc};

use crate::ffi;
use crate::guard;
use crate::handles;
use crate::objects::SwapchainObject;

pub unsafe extern "system" fn vkCreateHeadlessSurfaceEXT(
    _instance: vk::Instance,
    p_info: *const vk::HeadlessSurfaceCreateInfoEXT<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_surface: *mut vk::SurfaceKHR,
) -> vk::Result {
    guard::success(
        "vkCreateHeadlessSurfaceEXT",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure (its flags are reserved).
            unsafe { ffi::input(p_info) }?;
            let handle = handles::new_surface(Arc::new(Surface::headless()));
            // SAFETY: pSurface is valid for a write.
            unsafe { ffi::write(p_surface, handle) }
        },
    )
}

pub unsafe extern "system" fn vkDestroySurfaceKHR(
    _instance: vk::Instance,
    surface: vk::SurfaceKHR,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroySurfaceKHR", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_surface(surface) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSurfaceSupportKHR(
    _pd: vk::PhysicalDevice,
    family: u32,
    surface: vk::SurfaceKHR,
    p_supported: *mut vk::Bool32,
) -> vk::Result {
    guard::success(
        "vkGetPhysicalDeviceSurfaceSupportKHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let surface = unsafe { handles::surface(surface) }?;
            let supported = surface.supports_queue_family(family);
            // SAFETY: pSupported is valid for a write.
            unsafe { ffi::write(p_supported, vk::Bool32::from(supported)) }
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSurfaceCapabilitiesKHR(
    _pd: vk::PhysicalDevice,
    surface: vk::SurfaceKHR,
    p_caps: *mut vk::SurfaceCapabilitiesKHR,
) -> vk::Result {
    guard::success(
        "vkGetPhysicalDeviceSurfaceCapabilitiesKHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let surface = unsafe { handles::surface(surface) }?;
            // SAFETY: pSurfaceCapabilities is valid for a write.
            unsafe { ffi::write(p_caps, surface.capabilities()) }
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSurfaceFormatsKHR(
    _pd: vk::PhysicalDevice,
    surface: vk::SurfaceKHR,
    p_count: *mut u32,
    p_formats: *mut vk::SurfaceFormatKHR,
) -> vk::Result {
    guard::result(
        "vkGetPhysicalDeviceSurfaceFormatsKHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::surface(surface) }?;
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p_formats, &surface::surface_formats()) }
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSurfacePresentModesKHR(
    _pd: vk::PhysicalDevice,
    surface: vk::SurfaceKHR,
    p_count: *mut u32,
    p_modes: *mut vk::PresentModeKHR,
) -> vk::Result {
    guard::result(
        "vkGetPhysicalDeviceSurfacePresentModesKHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::surface(surface) }?;
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p_modes, &PRESENT_MODES) }
        },
    )
}

/// The surface a `VkPhysicalDeviceSurfaceInfo2KHR` names.
///
/// # Safety
/// `p_info` is the application's valid structure.
unsafe fn surface_of<'a>(
    p_info: *const vk::PhysicalDeviceSurfaceInfo2KHR<'_>,
) -> Result<&'a Arc<Surface>, vk::Result> {
    // SAFETY: the caller's promise.
    let info = unsafe { ffi::input(p_info) }?;
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    unsafe { handles::surface(info.surface) }
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSurfaceCapabilities2KHR(
    _pd: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceSurfaceInfo2KHR<'_>,
    p_caps: *mut vk::SurfaceCapabilities2KHR<'_>,
) -> vk::Result {
    guard::success(
        "vkGetPhysicalDeviceSurfaceCapabilities2KHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: the application's structure.
            let surface = unsafe { surface_of(p_info) }?;
            // SAFETY: pSurfaceCapabilities is the application's output
            // structure; only its capabilities are written (no extension
            // that chains more is offered).
            let caps = unsafe { p_caps.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            caps.surface_capabilities = surface.capabilities();
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSurfaceFormats2KHR(
    _pd: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceSurfaceInfo2KHR<'_>,
    p_count: *mut u32,
    p_formats: *mut vk::SurfaceFormat2KHR<'_>,
) -> vk::Result {
    guard::result(
        "vkGetPhysicalDeviceSurfaceFormats2KHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: the application's structure.
            unsafe { surface_of(p_info) }?;
            let list = surface::surface_formats();
            // SAFETY: pSurfaceFormatCount is valid.
            let count = unsafe { p_count.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            if p_formats.is_null() {
                *count = list.len() as u32;
                return Ok(vk::Result::SUCCESS);
            }
            let n = (*count as usize).min(list.len());
            for (i, f) in list.iter().take(n).enumerate() {
                // SAFETY: pSurfaceFormats holds *count application-initialised
                // structures; only the outputs are written.
                unsafe { (*p_formats.add(i)).surface_format = *f };
            }
            *count = n as u32;
            Ok(if n < list.len() {
                vk::Result::INCOMPLETE
            } else {
                vk::Result::SUCCESS
            })
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDevicePresentRectanglesKHR(
    _pd: vk::PhysicalDevice,
    surface: vk::SurfaceKHR,
    p_count: *mut u32,
    p_rects: *mut vk::Rect2D,
) -> vk::Result {
    guard::result(
        "vkGetPhysicalDevicePresentRectanglesKHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let surface = unsafe { handles::surface(surface) }?;
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p_rects, &surface.present_rectangles()) }
        },
    )
}

/// A device group of one device presents its own images only.
pub unsafe extern "system" fn vkGetDeviceGroupPresentCapabilitiesKHR(
    _device: vk::Device,
    p_caps: *mut vk::DeviceGroupPresentCapabilitiesKHR<'_>,
) -> vk::Result {
    guard::success(
        "vkGetDeviceGroupPresentCapabilitiesKHR",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's output structure; only its outputs
            // are written.
            let caps = unsafe { p_caps.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            caps.present_mask = [0; vk::MAX_DEVICE_GROUP_SIZE];
            caps.present_mask[0] = 1;
            caps.modes = vk::DeviceGroupPresentModeFlagsKHR::LOCAL;
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkGetDeviceGroupSurfacePresentModesKHR(
    _device: vk::Device,
    surface: vk::SurfaceKHR,
    p_modes: *mut vk::DeviceGroupPresentModeFlagsKHR,
) -> vk::Result {
    guard::success(
        "vkGetDeviceGroupSurfacePresentModesKHR",
        vk::Result::ERROR_SURFACE_LOST_KHR,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::surface(surface) }?;
            // SAFETY: pModes is valid for a write.
            unsafe { ffi::write(p_modes, vk::DeviceGroupPresentModeFlagsKHR::LOCAL) }
        },
    )
}

pub unsafe extern "system" fn vkCreateSwapchainKHR(
    device: vk::Device,
    p_info: *const vk::SwapchainCreateInfoKHR<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_swapchain: *mut vk::SwapchainKHR,
) -> vk::Result {
    guard::success(
        "vkCreateSwapchainKHR",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            let (surface, old) = unsafe {
                (
                    handles::surface(info.surface)?,
                    handles::SWAPCHAINS.get_optional(vk::Handle::as_raw(info.old_swapchain))?,
                )
            };
            let desc = SwapchainDesc {
                min_image_count: info.min_image_count,
                format: info.image_format,
                color_space: info.image_color_space,
                extent: info.image_extent,
                layers: info.image_array_layers,
                usage: info.image_usage,
                present_mode: info.present_mode,
                pre_transform: info.pre_transform,
                composite_alpha: info.composite_alpha,
                flags: info.flags,
            };
            let chain = Swapchain::new(&device.device, surface, desc, old.map(|o| &*o.swapchain))?;
            let images = chain
                .images
                .iter()
                .map(|i| handles::new_image(i.clone()))
                .collect();
            let handle = handles::new_swapchain(Arc::new(SwapchainObject {
                swapchain: chain,
                images,
            }));
            // SAFETY: pSwapchain is valid for a write.
            unsafe { ffi::write(p_swapchain, handle) }
        },
    )
}

pub unsafe extern "system" fn vkDestroySwapchainKHR(
    _device: vk::Device,
    swapchain: vk::SwapchainKHR,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroySwapchainKHR", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        if let Some(object) = unsafe { handles::drop_swapchain(swapchain) } {
            object.swapchain.destroy()?;
            for image in &object.images {
                // SAFETY: a child handle its parent retires; valid usage ends its use before the parent is destroyed.
                unsafe { handles::drop_image(*image) };
            }
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetSwapchainImagesKHR(
    _device: vk::Device,
    swapchain: vk::SwapchainKHR,
    p_count: *mut u32,
    p_images: *mut vk::Image,
) -> vk::Result {
    guard::result(
        "vkGetSwapchainImagesKHR",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let object = unsafe { handles::swapchain(swapchain) }?;
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p_images, &object.images) }
        },
    )
}

/// Acquires an image of `swapchain`, writing its index.
///
/// # Safety
/// The handles are the application's, live for the call; `p_index` is
/// valid for a write.
unsafe fn acquire(
    swapchain: vk::SwapchainKHR,
    timeout: u64,
    semaphore: vk::Semaphore,
    fence: vk::Fence,
    p_index: *mut u32,
) -> Result<vk::Result, vk::Result> {
    // SAFETY: the caller's promise.
    let (object, semaphore, fence) = unsafe {
        (
            handles::swapchain(swapchain)?,
            handles::SEMAPHORES.get_optional(vk::Handle::as_raw(semaphore))?,
            handles::FENCES.get_optional(vk::Handle::as_raw(fence))?,
        )
    };
    match object.swapchain.acquire(timeout, semaphore, fence) {
        Ok(index) => {
            // SAFETY: the caller's promise.
            unsafe { ffi::write(p_index, index) }?;
            Ok(vk::Result::SUCCESS)
        }
        // Success codes without an image.
        Err(code @ (vk::Result::NOT_READY | vk::Result::TIMEOUT)) => Ok(code),
        Err(e) => Err(e),
    }
}

pub unsafe extern "system" fn vkAcquireNextImageKHR(
    _device: vk::Device,
    swapchain: vk::SwapchainKHR,
    timeout: u64,
    semaphore: vk::Semaphore,
    fence: vk::Fence,
    p_index: *mut u32,
) -> vk::Result {
    guard::result(
        "vkAcquireNextImageKHR",
        vk::Result::ERROR_DEVICE_LOST,
        // SAFETY: the application's handles and pointer.
        || unsafe { acquire(swapchain, timeout, semaphore, fence, p_index) },
    )
}

pub unsafe extern "system" fn vkAcquireNextImage2KHR(
    _device: vk::Device,
    p_info: *const vk::AcquireNextImageInfoKHR<'_>,
    p_index: *mut u32,
) -> vk::Result {
    guard::result(
        "vkAcquireNextImage2KHR",
        vk::Result::ERROR_DEVICE_LOST,
        || {
            // SAFETY: the application's structure; its deviceMask can only
            // name the one device.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: the application's handles and pointer.
            unsafe {
                acquire(
                    info.swapchain,
                    info.timeout,
                    info.semaphore,
                    info.fence,
                    p_index,
                )
            }
        },
    )
}

pub unsafe extern "system" fn vkQueuePresentKHR(
    queue: vk::Queue,
    p_info: *const vk::PresentInfoKHR<'_>,
) -> vk::Result {
    guard::result("vkQueuePresentKHR", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let queue = unsafe { handles::queue(queue) }?;
        // SAFETY: the application's structure and its arrays, which hold
        // their counts.
        let (info, waits, chains, indices) = unsafe {
            let info = ffi::input(p_info)?;
            (
                info,
                ffi::slice(info.p_wait_semaphores, info.wait_semaphore_count),
                ffi::slice(info.p_swapchains, info.swapchain_count),
                ffi::slice(info.p_image_indices, info.swapchain_count),
            )
        };
        let waits = waits
            .iter()
            .map(|s| {
                Ok(SemaphoreOp {
                    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                    semaphore: unsafe { handles::semaphore(*s) }?.clone(),
                    value: 0,
                })
            })
            .collect::<Result<Vec<_>, vk::Result>>()?;
        let images = chains
            .iter()
            .zip(indices)
            .map(|(c, &index)| {
                Ok(PresentImage {
                    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                    swapchain: unsafe { handles::swapchain(*c) }?.swapchain.clone(),
                    index,
                })
            })
            .collect::<Result<Vec<_>, vk::Result>>()?;
        let results = swapchain::present(queue, waits, &images)?;
        if !info.p_results.is_null() {
            for (i, r) in results.iter().enumerate() {
                // SAFETY: pResults, when given, holds swapchainCount results.
                unsafe { info.p_results.add(i).write(*r) };
            }
        }
        // The first failure is the command's; otherwise the best of the
        // successes (every present here is optimal).
        match results.iter().find(|r| r.as_raw() < 0) {
            Some(e) => Err(*e),
            None => Ok(vk::Result::SUCCESS),
        }
    })
}
