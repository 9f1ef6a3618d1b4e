//! Dynamic rendering entry points (Vulkan 1.3's `vkCmdBeginRendering` and
//! `vkCmdEndRendering`, which VK_KHR_dynamic_rendering's commands alias):
//! the `VkRenderingInfo` read into the driver's description
//! (driver/src/rendering.rs) and recorded by driver/src/cmd/rendering.rs.

use std::sync::Arc;

use ash::vk;
use parsnip_driver::image::view::ImageView;
use parsnip_driver::rendering::{RenderingAttachment, RenderingDesc};

use crate::commands::record_with;
use crate::ffi;
use crate::handles;

/// A view the application passed, `None` for `VK_NULL_HANDLE`.
///
/// # Safety
/// `view` is null or a live image view.
unsafe fn view(view: vk::ImageView) -> Result<Option<Arc<ImageView>>, vk::Result> {
    if view == vk::ImageView::null() {
        return Ok(None);
    }
    // SAFETY: the caller's promise.
    unsafe { handles::image_view(view) }.map(|v| Some(v.clone()))
}

/// One `VkRenderingAttachmentInfo`, `None` when it is absent or has no
/// view.
///
/// # Safety
/// `info` is null or a valid attachment info with live views.
unsafe fn attachment(
    info: *const vk::RenderingAttachmentInfo<'_>,
) -> Result<Option<RenderingAttachment>, vk::Result> {
    // SAFETY: the caller's promise.
    let Some(a) = (unsafe { ffi::opt_ref(info) }) else {
        return Ok(None);
    };
    // SAFETY: as above.
    let Some(image_view) = (unsafe { view(a.image_view) })? else {
        return Ok(None);
    };
    let resolve = if a.resolve_mode == vk::ResolveModeFlags::NONE {
        None
    } else {
        // SAFETY: as above.
        unsafe { view(a.resolve_image_view) }?.map(|v| (a.resolve_mode, v))
    };
    Ok(Some(RenderingAttachment {
        view: image_view,
        layout: a.image_layout,
        load_op: a.load_op,
        store_op: a.store_op,
        clear: a.clear_value,
        resolve,
    }))
}

/// The driver's description of a `VkRenderingInfo`.
///
/// # Safety
/// `info` is a valid rendering info with valid arrays and live views.
unsafe fn rendering_desc(info: &vk::RenderingInfo<'_>) -> Result<RenderingDesc, vk::Result> {
    // SAFETY: pColorAttachments holds colorAttachmentCount infos.
    let colors = unsafe { ffi::slice(info.p_color_attachments, info.color_attachment_count) };
    Ok(RenderingDesc {
        flags: info.flags,
        area: info.render_area,
        layers: info.layer_count,
        view_mask: info.view_mask,
        colors: colors
            .iter()
            // SAFETY: the caller's promise.
            .map(|c| unsafe { attachment(c) })
            .collect::<Result<_, _>>()?,
        // SAFETY: as above.
        depth: unsafe { attachment(info.p_depth_attachment) }?,
        // SAFETY: as above.
        stencil: unsafe { attachment(info.p_stencil_attachment) }?,
    })
}

pub unsafe extern "system" fn vkCmdBeginRendering(
    command_buffer: vk::CommandBuffer,
    p_info: *const vk::RenderingInfo<'_>,
) {
    record_with(
        "vkCmdBeginRendering",
        command_buffer,
        // SAFETY: the application's structure, valid for the call.
        || unsafe { rendering_desc(ffi::input(p_info)?) },
        |rec, desc| rec.begin_rendering(&desc),
    );
}

pub unsafe extern "system" fn vkCmdEndRendering(command_buffer: vk::CommandBuffer) {
    record_with(
        "vkCmdEndRendering",
        command_buffer,
        || Ok(()),
        |rec, ()| rec.end_rendering(),
    );
}
