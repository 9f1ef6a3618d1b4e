//! Image entry points: `vkCreateImage` and its memory, subresource layout
//! and sparse queries, and the image transfer commands (`vkCmdCopy*Image*`,
//! `vkCmdBlitImage`, `vkCmdResolveImage`, `vkCmdClear*Image`, and the
//! `VK_KHR_copy_commands2` forms, turned into the same calls, with that
//! extension's `vkCmdCopyBuffer2`).

use ash::vk;
use parsnip_driver::cmd::transfer::CopyRegion;
use parsnip_driver::descriptor::set::DescriptorWrite;
use parsnip_driver::descriptor::set_layout::SetBinding;
use parsnip_driver::image::modifier::{self, Modifier};
use parsnip_driver::image::view::{ImageView, ViewDesc};
use parsnip_driver::image::{Image, ImageDesc};
use parsnip_driver::{formats, VkResult};

use crate::commands::record_with;
use crate::ffi;
use crate::guard;
use crate::handles;

/// Whether a mutable image's views may use a format with a component
/// swap (no format list: any compatible format, some of which swap).
fn view_formats_swap(list: Option<&vk::ImageFormatListCreateInfo<'_>>) -> bool {
    let Some(list) = list.filter(|l| l.view_format_count > 0) else {
        return true;
    };
    // SAFETY: pViewFormats holds viewFormatCount formats.
    unsafe { ffi::slice(list.p_view_formats, list.view_format_count) }
        .iter()
        .any(|f| formats::format(*f).is_none_or(|f| f.has_swap()))
}

pub unsafe extern "system" fn vkCreateImage(
    device: vk::Device,
    p_info: *const vk::ImageCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_image: *mut vk::Image,
) -> vk::Result {
    guard::success(
        "vkCreateImage",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure and its chain.
            let image = unsafe { image_from_info(&device.device, ffi::input(p_info)?) }?;
            // SAFETY: pImage is valid for a write.
            unsafe { ffi::write(p_image, handles::new_image(image)) }
        },
    )
}

/// The image `info` describes, as vkCreateImage makes it (and
/// vkGetDeviceImageMemoryRequirements, to measure it).
///
/// # Safety
/// `info`'s chain is valid.
unsafe fn image_from_info(
    device: &parsnip_driver::device::Device,
    info: &vk::ImageCreateInfo<'_>,
) -> VkResult<std::sync::Arc<Image>> {
    // SAFETY: the caller's promise: the chain is valid.
    let list = unsafe { ffi::find_in_chain::<vk::ImageFormatListCreateInfo<'_>>(info.p_next) };
    let unsupported = vk::ImageCreateFlags::SPARSE_BINDING
        | vk::ImageCreateFlags::SPARSE_RESIDENCY
        | vk::ImageCreateFlags::SPARSE_ALIASED
        | vk::ImageCreateFlags::PROTECTED
        | vk::ImageCreateFlags::ALIAS
        | vk::ImageCreateFlags::SPLIT_INSTANCE_BIND_REGIONS
        | vk::ImageCreateFlags::DISJOINT;
    if info.flags.intersects(unsupported) {
        eprintln!(
            "parsnip: image not supported: flags {:?} are not supported",
            info.flags & unsupported
        );
        return Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY);
    }
    let desc = ImageDesc {
        image_type: info.image_type,
        format: info.format,
        extent: info.extent,
        levels: info.mip_levels,
        layers: info.array_layers,
        samples: info.samples.as_raw(),
        tiling: info.tiling,
        usage: info.usage,
        flags: info.flags,
        view_formats_swap: view_formats_swap(list),
    };
    let gpu = device.gpu.entry;
    let (modifier, explicit) = if info.tiling == vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT {
        // SAFETY: the chain is valid.
        unsafe { modifier_of(info, &desc, &gpu.ubwc) }?
    } else {
        (None, None)
    };
    // An image the hardware cannot address is never created; the
    // application was told so by vkGetPhysicalDeviceImageFormatProperties,
    // and vkCreateImage's own codes have only memory exhaustion (and,
    // for an imported layout, the modifier's plane layout error).
    Image::with_modifier(desc, gpu, modifier, explicit).map_err(|e| {
        if e == vk::Result::ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT {
            e
        } else {
            vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
        }
    })
}

/// A modifier, and an imported plane 0's (offset, row pitch).
type ModifierChoice = (Option<Modifier>, Option<(u64, u32)>);

/// The modifier (and, for an explicit one, plane 0's offset and pitch) a
/// `VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT` image is created with.
///
/// # Safety
/// `info`'s chain is valid.
unsafe fn modifier_of(
    info: &vk::ImageCreateInfo<'_>,
    desc: &ImageDesc,
    gpu: &parsnip_driver::image::UbwcFacts,
) -> Result<ModifierChoice, vk::Result> {
    let layout_error = vk::Result::ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT;
    // SAFETY: the caller's promise.
    let list = unsafe {
        ffi::find_in_chain::<vk::ImageDrmFormatModifierListCreateInfoEXT<'_>>(info.p_next)
    };
    if let Some(list) = list {
        // SAFETY: pDrmFormatModifiers holds drmFormatModifierCount values.
        let offered =
            unsafe { ffi::slice(list.p_drm_format_modifiers, list.drm_format_modifier_count) };
        let Some(m) = modifier::choose(desc, offered, gpu) else {
            eprintln!("parsnip: image not supported: none of the modifiers {offered:x?} fits");
            return Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY);
        };
        return Ok((Some(m), None));
    }
    // SAFETY: the caller's promise.
    let explicit = unsafe {
        ffi::find_in_chain::<vk::ImageDrmFormatModifierExplicitCreateInfoEXT<'_>>(info.p_next)
    };
    let Some(explicit) = explicit else {
        eprintln!("parsnip: image not supported: a DRM format modifier image names no modifier");
        return Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY);
    };
    let Some(m) = Modifier::from_drm(explicit.drm_format_modifier) else {
        eprintln!(
            "parsnip: image not supported: modifier {:#x} is not one of Parsnip's",
            explicit.drm_format_modifier
        );
        return Err(layout_error);
    };
    // SAFETY: pPlaneLayouts holds drmFormatModifierPlaneCount layouts.
    let planes = unsafe {
        ffi::slice(
            explicit.p_plane_layouts,
            explicit.drm_format_modifier_plane_count,
        )
    };
    let [plane] = planes else {
        eprintln!(
            "parsnip: image not supported: {} plane layouts for one plane",
            planes.len()
        );
        return Err(layout_error);
    };
    let Ok(pitch) = u32::try_from(plane.row_pitch) else {
        return Err(layout_error);
    };
    Ok((Some(m), Some((plane.offset, pitch))))
}

pub unsafe extern "system" fn vkGetImageDrmFormatModifierPropertiesEXT(
    _device: vk::Device,
    image: vk::Image,
    p: *mut vk::ImageDrmFormatModifierPropertiesEXT<'_>,
) -> vk::Result {
    guard::success(
        "vkGetImageDrmFormatModifierPropertiesEXT",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let image = unsafe { handles::image(image) }?;
            let Some(m) = image.modifier else {
                eprintln!("parsnip: vkGetImageDrmFormatModifierPropertiesEXT: no modifier");
                return Err(vk::Result::ERROR_UNKNOWN);
            };
            // SAFETY: the output structure is valid.
            let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            out.drm_format_modifier = m.drm();
            Ok(())
        },
    )
}

/// Fills a `VkDrmFormatModifierPropertiesListEXT` in a format properties
/// chain with the modifiers `format` offers.
///
/// # Safety
/// `p_next` is a valid output chain.
pub unsafe fn drm_modifier_properties(
    pd: &parsnip_driver::physical_device::PhysicalDevice,
    format: vk::Format,
    p_next: *mut std::ffi::c_void,
) {
    let offered: Vec<vk::DrmFormatModifierPropertiesEXT> =
        modifier::modifiers(format, &pd.gpu.entry.ubwc)
            .into_iter()
            .map(|(m, features)| vk::DrmFormatModifierPropertiesEXT {
                drm_format_modifier: m.drm(),
                drm_format_modifier_plane_count: 1,
                drm_format_modifier_tiling_features: features,
            })
            .collect();
    // The same with 64-bit features (VK_KHR_format_feature_flags2).
    let offered2: Vec<vk::DrmFormatModifierProperties2EXT> = offered
        .iter()
        .map(|m| vk::DrmFormatModifierProperties2EXT {
            drm_format_modifier: m.drm_format_modifier,
            drm_format_modifier_plane_count: m.drm_format_modifier_plane_count,
            drm_format_modifier_tiling_features: parsnip_driver::formats::features2(
                m.drm_format_modifier_tiling_features,
            ),
        })
        .collect();
    // SAFETY: the caller's promise.
    unsafe {
        ffi::walk_out_chain(p_next, |ty, ptr| {
            if ty == vk::StructureType::DRM_FORMAT_MODIFIER_PROPERTIES_LIST_EXT {
                ffi::fill_out::<vk::DrmFormatModifierPropertiesListEXT<'_>>(ptr, |list| {
                    let _ = ffi::fill(
                        &mut list.drm_format_modifier_count,
                        list.p_drm_format_modifier_properties,
                        &offered,
                    );
                });
            } else if ty == vk::StructureType::DRM_FORMAT_MODIFIER_PROPERTIES_LIST_2_EXT {
                ffi::fill_out::<vk::DrmFormatModifierPropertiesList2EXT<'_>>(ptr, |list| {
                    let _ = ffi::fill(
                        &mut list.drm_format_modifier_count,
                        list.p_drm_format_modifier_properties,
                        &offered2,
                    );
                });
            }
        });
    }
}

/// `vkGetPhysicalDeviceImageFormatProperties2`: a DRM format modifier's
/// image is checked against its modifier.
///
/// # Safety
/// `info`'s chain is valid.
pub unsafe fn image_format_properties2(
    pd: &parsnip_driver::physical_device::PhysicalDevice,
    info: &vk::PhysicalDeviceImageFormatInfo2<'_>,
) -> Result<vk::ImageFormatProperties, vk::Result> {
    if info.tiling != vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT {
        return pd.image_format_properties(
            info.format,
            info.ty,
            info.tiling,
            info.usage,
            info.flags,
        );
    }
    // SAFETY: the caller's promise.
    let Some(m) = (unsafe {
        ffi::find_in_chain::<vk::PhysicalDeviceImageDrmFormatModifierInfoEXT<'_>>(info.p_next)
    }) else {
        eprintln!(
            "parsnip: vkGetPhysicalDeviceImageFormatProperties2: a modifier tiling without \
             VkPhysicalDeviceImageDrmFormatModifierInfoEXT"
        );
        return Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED);
    };
    if info.ty != vk::ImageType::TYPE_2D {
        return Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED);
    }
    parsnip_driver::image::modifier_format_properties(
        info.format,
        info.usage,
        info.flags,
        m.drm_format_modifier,
        &pd.gpu.entry.ubwc,
    )
}

pub unsafe extern "system" fn vkDestroyImage(
    _device: vk::Device,
    image: vk::Image,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyImage", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_image(image) };
        Ok(())
    })
}

fn requirements(device: vk::Device, image: vk::Image) -> VkResult<vk::MemoryRequirements> {
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    let device = unsafe { handles::device(device) }?;
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    let image = unsafe { handles::image(image) }?;
    Ok(image.memory_requirements(device.device.physical.memory.all_types_mask()))
}

pub unsafe extern "system" fn vkGetImageMemoryRequirements(
    device: vk::Device,
    image: vk::Image,
    p: *mut vk::MemoryRequirements,
) {
    guard::void("vkGetImageMemoryRequirements", || {
        let r = requirements(device, image)?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, r) }
    })
}

pub unsafe extern "system" fn vkGetImageMemoryRequirements2(
    device: vk::Device,
    p_info: *const vk::ImageMemoryRequirementsInfo2<'_>,
    p: *mut vk::MemoryRequirements2<'_>,
) {
    guard::void("vkGetImageMemoryRequirements2", || {
        // SAFETY: the application's structures.
        let info = unsafe { ffi::input(p_info) }?;
        let r = requirements(device, info.image)?;
        // SAFETY: the application's output structure.
        unsafe { crate::device::write_requirements2(p, r) }
    })
}

/// VK_KHR_maintenance4: what an image made from `pCreateInfo` would need,
/// measured on the image vkCreateImage would make (and then dropped: it
/// owns no memory). No image is disjoint, so `planeAspect` is unused.
pub unsafe extern "system" fn vkGetDeviceImageMemoryRequirements(
    device: vk::Device,
    p_info: *const vk::DeviceImageMemoryRequirements<'_>,
    p: *mut vk::MemoryRequirements2<'_>,
) {
    guard::void("vkGetDeviceImageMemoryRequirements", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let device = unsafe { handles::device(device) }?;
        // SAFETY: the application's structures and the create info's chain.
        let image = unsafe {
            image_from_info(
                &device.device,
                ffi::input(ffi::input(p_info)?.p_create_info)?,
            )
        };
        let r = match image {
            Ok(image) => image.memory_requirements(device.device.physical.memory.all_types_mask()),
            // Valid usage makes the create info one vkCreateImage accepts;
            // a refused one is told as needing nothing anywhere.
            Err(e) => {
                // SAFETY: the application's output structure.
                unsafe {
                    crate::device::write_requirements2(p, vk::MemoryRequirements::default())
                }?;
                return Err(e);
            }
        };
        // SAFETY: the application's output structure.
        unsafe { crate::device::write_requirements2(p, r) }
    })
}

/// VK_KHR_maintenance4: no image is sparse (sparseBinding is not offered),
/// so none has sparse requirements.
pub unsafe extern "system" fn vkGetDeviceImageSparseMemoryRequirements(
    _device: vk::Device,
    _info: *const vk::DeviceImageMemoryRequirements<'_>,
    p_count: *mut u32,
    _p: *mut vk::SparseImageMemoryRequirements2<'_>,
) {
    guard::void("vkGetDeviceImageSparseMemoryRequirements", || {
        // SAFETY: pSparseMemoryRequirementCount is valid for a write.
        unsafe { ffi::write(p_count, 0) }
    })
}

pub unsafe extern "system" fn vkGetImageSparseMemoryRequirements(
    _device: vk::Device,
    _image: vk::Image,
    p_count: *mut u32,
    _p: *mut vk::SparseImageMemoryRequirements,
) {
    guard::void("vkGetImageSparseMemoryRequirements", || {
        // SAFETY: pSparseMemoryRequirementCount is valid for a write; no
        // image is sparse.
        unsafe { ffi::write(p_count, 0) }
    })
}

pub unsafe extern "system" fn vkGetImageSparseMemoryRequirements2(
    _device: vk::Device,
    _info: *const vk::ImageSparseMemoryRequirementsInfo2<'_>,
    p_count: *mut u32,
    _p: *mut vk::SparseImageMemoryRequirements2<'_>,
) {
    guard::void("vkGetImageSparseMemoryRequirements2", || {
        // SAFETY: as above.
        unsafe { ffi::write(p_count, 0) }
    })
}

pub unsafe extern "system" fn vkBindImageMemory(
    _device: vk::Device,
    image: vk::Image,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    guard::success(
        "vkBindImageMemory",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            let (image, memory) = unsafe { (handles::image(image)?, handles::memory(memory)?) };
            image.bind(memory.clone(), offset)
        },
    )
}

pub unsafe extern "system" fn vkBindImageMemory2(
    _device: vk::Device,
    count: u32,
    p_infos: *const vk::BindImageMemoryInfo<'_>,
) -> vk::Result {
    guard::success(
        "vkBindImageMemory2",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: pBindInfos holds bindInfoCount structures.
            for info in unsafe { ffi::slice(p_infos, count) } {
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                let image = unsafe { handles::image(info.image) }?;
                // SAFETY: the structure's chain is valid.
                let alias = unsafe {
                    ffi::find_in_chain::<vk::BindImageMemorySwapchainInfoKHR<'_>>(info.p_next)
                };
                if let Some(alias) = alias {
                    // SAFETY: as above.
                    let chain = unsafe { handles::swapchain(alias.swapchain) }?;
                    chain.swapchain.bind_alias(image, alias.image_index)?;
                    continue;
                }
                // SAFETY: as above.
                let memory = unsafe { handles::memory(info.memory) }?;
                image.bind(memory.clone(), info.memory_offset)?;
            }
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkGetImageSubresourceLayout(
    _device: vk::Device,
    image: vk::Image,
    p_sub: *const vk::ImageSubresource,
    p: *mut vk::SubresourceLayout,
) {
    guard::void("vkGetImageSubresourceLayout", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let image = unsafe { handles::image(image) }?;
        // SAFETY: the application's structure.
        let sub = unsafe { ffi::input(p_sub) }?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, image.subresource_layout(*sub)) }
    })
}

pub unsafe extern "system" fn vkCreateImageView(
    device: vk::Device,
    p_info: *const vk::ImageViewCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_view: *mut vk::ImageView,
) -> vk::Result {
    guard::success(
        "vkCreateImageView",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // VkImageViewMinLodCreateInfoEXT is not offered, so the chain has
            // nothing the view depends on.
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let image = unsafe { handles::image(info.image) }?;
            let desc = ViewDesc {
                view_type: info.view_type,
                format: info.format,
                components: info.components,
                range: info.subresource_range,
                min_lod: 0.0,
            };
            let view = ImageView::new(device.device.gpu.chip(), image.clone(), desc)?;
            // SAFETY: pView is valid for a write.
            unsafe { ffi::write(p_view, handles::new_image_view(view)) }
        },
    )
}

/// A `VkDescriptorImageInfo` as a driver write to binding `b`, borrowing
/// the application's objects for the call: the handles the binding's type
/// uses resolved, the others left unread (a sampler that the binding's
/// immutable samplers replace, a view a sampler binding has no use for),
/// since the application may leave them invalid.
///
/// # Safety
/// The handles of `info` the type uses are live for the call (valid usage).
pub(crate) unsafe fn image_write<'a>(
    b: &SetBinding,
    info: &vk::DescriptorImageInfo,
) -> Result<DescriptorWrite<'a>, vk::Result> {
    use vk::DescriptorType as T;
    let ty = b.ty;
    let immutable = !b.immutable_samplers.is_empty();
    let view = match ty {
        T::SAMPLED_IMAGE | T::STORAGE_IMAGE | T::INPUT_ATTACHMENT | T::COMBINED_IMAGE_SAMPLER => {
            // SAFETY: the caller's promise.
            Some(&**unsafe { handles::image_view(info.image_view) }?)
        }
        _ => None,
    };
    let sampler = match ty {
        T::SAMPLER | T::COMBINED_IMAGE_SAMPLER if !immutable => {
            // SAFETY: the caller's promise.
            Some(&**unsafe { handles::sampler(info.sampler) }?)
        }
        _ => None,
    };
    Ok(DescriptorWrite::Image { view, sampler })
}

pub unsafe extern "system" fn vkDestroyImageView(
    _device: vk::Device,
    view: vk::ImageView,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyImageView", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_image_view(view) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkCmdCopyBufferToImage(
    command_buffer: vk::CommandBuffer,
    src: vk::Buffer,
    dst: vk::Image,
    _layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::BufferImageCopy,
) {
    record_with(
        "vkCmdCopyBufferToImage",
        command_buffer,
        || {
            // SAFETY: pRegions holds regionCount structures.
            let regions = unsafe { ffi::slice(p_regions, count) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((
                unsafe { handles::buffer(src) }?,
                unsafe { handles::image(dst) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_buffer_to_image(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdCopyImageToBuffer(
    command_buffer: vk::CommandBuffer,
    src: vk::Image,
    _layout: vk::ImageLayout,
    dst: vk::Buffer,
    count: u32,
    p_regions: *const vk::BufferImageCopy,
) {
    record_with(
        "vkCmdCopyImageToBuffer",
        command_buffer,
        || {
            // SAFETY: pRegions holds regionCount structures.
            let regions = unsafe { ffi::slice(p_regions, count) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((
                unsafe { handles::image(src) }?,
                unsafe { handles::buffer(dst) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_image_to_buffer(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdCopyImage(
    command_buffer: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::ImageCopy,
) {
    record_with(
        "vkCmdCopyImage",
        command_buffer,
        || {
            // SAFETY: pRegions holds regionCount structures.
            let regions = unsafe { ffi::slice(p_regions, count) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((
                unsafe { handles::image(src) }?,
                unsafe { handles::image(dst) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_image(src, dst, &regions),
    );
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn vkCmdBlitImage(
    command_buffer: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::ImageBlit,
    filter: vk::Filter,
) {
    record_with(
        "vkCmdBlitImage",
        command_buffer,
        || {
            // SAFETY: pRegions holds regionCount structures.
            let regions = unsafe { ffi::slice(p_regions, count) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((
                unsafe { handles::image(src) }?,
                unsafe { handles::image(dst) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.blit_image(src, dst, &regions, filter),
    );
}

pub unsafe extern "system" fn vkCmdResolveImage(
    command_buffer: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::ImageResolve,
) {
    record_with(
        "vkCmdResolveImage",
        command_buffer,
        || {
            // SAFETY: pRegions holds regionCount structures.
            let regions = unsafe { ffi::slice(p_regions, count) }.to_vec();
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            Ok(unsafe { (handles::image(src)?, handles::image(dst)?, regions) })
        },
        |rec, (src, dst, regions)| rec.resolve_image(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdClearColorImage(
    command_buffer: vk::CommandBuffer,
    image: vk::Image,
    _layout: vk::ImageLayout,
    p_color: *const vk::ClearColorValue,
    count: u32,
    p_ranges: *const vk::ImageSubresourceRange,
) {
    record_with(
        "vkCmdClearColorImage",
        command_buffer,
        || {
            // SAFETY: the application's value and pRanges' rangeCount
            // structures.
            let color = *unsafe { ffi::input(p_color) }?;
            // SAFETY: as above.
            let ranges = unsafe { ffi::slice(p_ranges, count) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((unsafe { handles::image(image) }?, color, ranges))
        },
        |rec, (image, color, ranges)| rec.clear_color_image(image, &color, &ranges),
    );
}

pub unsafe extern "system" fn vkCmdClearDepthStencilImage(
    command_buffer: vk::CommandBuffer,
    image: vk::Image,
    _layout: vk::ImageLayout,
    p_value: *const vk::ClearDepthStencilValue,
    count: u32,
    p_ranges: *const vk::ImageSubresourceRange,
) {
    record_with(
        "vkCmdClearDepthStencilImage",
        command_buffer,
        || {
            // SAFETY: the application's value and ranges.
            let value = *unsafe { ffi::input(p_value) }?;
            // SAFETY: as above.
            let ranges = unsafe { ffi::slice(p_ranges, count) }.to_vec();
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            Ok((unsafe { handles::image(image) }?, value, ranges))
        },
        |rec, (image, value, ranges)| rec.clear_depth_stencil_image(image, &value, &ranges),
    );
}

/// `VkBufferImageCopy2` regions as the 1.0 structures (their fields are
/// the same).
///
/// # Safety
/// `p` holds `count` valid structures.
unsafe fn regions_v1(p: *const vk::BufferImageCopy2<'_>, count: u32) -> Vec<vk::BufferImageCopy> {
    // SAFETY: the caller's promise.
    unsafe { ffi::slice(p, count) }
        .iter()
        .map(|r| vk::BufferImageCopy {
            buffer_offset: r.buffer_offset,
            buffer_row_length: r.buffer_row_length,
            buffer_image_height: r.buffer_image_height,
            image_subresource: r.image_subresource,
            image_offset: r.image_offset,
            image_extent: r.image_extent,
        })
        .collect()
}

pub unsafe extern "system" fn vkCmdCopyBufferToImage2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::CopyBufferToImageInfo2<'_>,
) {
    record_with(
        "vkCmdCopyBufferToImage2",
        command_buffer,
        || {
            // SAFETY: the application's structure and its region array.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let regions = unsafe { regions_v1(info.p_regions, info.region_count) };
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(info.src_buffer) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.dst_image) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_buffer_to_image(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdCopyImageToBuffer2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::CopyImageToBufferInfo2<'_>,
) {
    record_with(
        "vkCmdCopyImageToBuffer2",
        command_buffer,
        || {
            // SAFETY: the application's structure and its region array.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let regions = unsafe { regions_v1(info.p_regions, info.region_count) };
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.src_image) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(info.dst_buffer) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_image_to_buffer(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdCopyImage2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::CopyImageInfo2<'_>,
) {
    record_with(
        "vkCmdCopyImage2",
        command_buffer,
        || {
            // SAFETY: the application's structure and its region array.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let regions = unsafe { ffi::slice(info.p_regions, info.region_count) }
                .iter()
                .map(|r| vk::ImageCopy {
                    src_subresource: r.src_subresource,
                    src_offset: r.src_offset,
                    dst_subresource: r.dst_subresource,
                    dst_offset: r.dst_offset,
                    extent: r.extent,
                })
                .collect::<Vec<_>>();
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.src_image) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.dst_image) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_image(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdBlitImage2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::BlitImageInfo2<'_>,
) {
    record_with(
        "vkCmdBlitImage2",
        command_buffer,
        || {
            // SAFETY: the application's structure and its region array.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let regions = unsafe { ffi::slice(info.p_regions, info.region_count) }
                .iter()
                .map(|r| vk::ImageBlit {
                    src_subresource: r.src_subresource,
                    src_offsets: r.src_offsets,
                    dst_subresource: r.dst_subresource,
                    dst_offsets: r.dst_offsets,
                })
                .collect::<Vec<_>>();
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.src_image) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.dst_image) }?,
                regions,
                info.filter,
            ))
        },
        |rec, (src, dst, regions, filter)| rec.blit_image(src, dst, &regions, filter),
    );
}

pub unsafe extern "system" fn vkCmdResolveImage2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::ResolveImageInfo2<'_>,
) {
    record_with(
        "vkCmdResolveImage2",
        command_buffer,
        || {
            // SAFETY: the application's structure and its region array.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let regions = unsafe { ffi::slice(info.p_regions, info.region_count) }
                .iter()
                .map(|r| vk::ImageResolve {
                    src_subresource: r.src_subresource,
                    src_offset: r.src_offset,
                    dst_subresource: r.dst_subresource,
                    dst_offset: r.dst_offset,
                    extent: r.extent,
                })
                .collect::<Vec<_>>();
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.src_image) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::image(info.dst_image) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.resolve_image(src, dst, &regions),
    );
}

pub unsafe extern "system" fn vkCmdCopyBuffer2(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::CopyBufferInfo2<'_>,
) {
    record_with(
        "vkCmdCopyBuffer2",
        command_buffer,
        || {
            // SAFETY: the application's structure and its region array.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above.
            let regions = unsafe { ffi::slice(info.p_regions, info.region_count) }
                .iter()
                .map(|r| CopyRegion {
                    src_offset: r.src_offset,
                    dst_offset: r.dst_offset,
                    size: r.size,
                })
                .collect::<Vec<_>>();
            Ok((
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(info.src_buffer) }?,
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(info.dst_buffer) }?,
                regions,
            ))
        },
        |rec, (src, dst, regions)| rec.copy_buffer(src, dst, &regions),
    );
}
