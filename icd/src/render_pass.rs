//! Render pass and framebuffer entry points, the render area
//! granularity, and the commands that begin, step through and end a pass
//! and clear its attachments (recorded by driver/src/cmd/pass.rs). Both
//! objects are plain data (driver/src/render_pass.rs, framebuffer.rs);
//! their handles live in tables of this file.

use std::sync::Arc;

use ash::vk;
use parsnip_driver::framebuffer::Framebuffer;
use parsnip_driver::image::view::ImageView;
use parsnip_driver::render_pass::{
    self as rp, attachment_index, subpass_index, Attachment, AttachmentRef, RenderPass,
    RenderPassDesc, Subpass,
};

use crate::commands::record_with;
use crate::ffi;
use crate::guard;
use crate::handles::{self, Table};

pub static RENDER_PASSES: Table<RenderPass> = Table::new();
pub static FRAMEBUFFERS: Table<Framebuffer> = Table::new();

/// The driver's attachment from a `VkAttachmentDescription` or
/// `VkAttachmentDescription2` (the same fields).
macro_rules! attachment {
    ($a:expr) => {
        Attachment {
            format: $a.format,
            samples: $a.samples,
            load_op: $a.load_op,
            store_op: $a.store_op,
            stencil_load_op: $a.stencil_load_op,
            stencil_store_op: $a.stencil_store_op,
            initial_layout: $a.initial_layout,
            final_layout: $a.final_layout,
            may_alias: $a.flags.contains(vk::AttachmentDescriptionFlags::MAY_ALIAS),
        }
    };
}

/// The driver's dependency from a `VkSubpassDependency` or
/// `VkSubpassDependency2` and its view offset.
macro_rules! dependency {
    ($d:expr, $view_offset:expr) => {
        rp::Dependency {
            src_subpass: subpass_index($d.src_subpass),
            dst_subpass: subpass_index($d.dst_subpass),
            src_stages: $d.src_stage_mask,
            dst_stages: $d.dst_stage_mask,
            src_access: $d.src_access_mask,
            dst_access: $d.dst_access_mask,
            flags: $d.dependency_flags,
            view_offset: $view_offset,
        }
    };
}

/// A subpass's attachment references as the driver keeps them.
fn refs(list: &[vk::AttachmentReference]) -> Vec<AttachmentRef> {
    list.iter()
        .map(|r| AttachmentRef {
            attachment: attachment_index(r.attachment),
            layout: r.layout,
            aspects: vk::ImageAspectFlags::empty(),
        })
        .collect()
}

/// The driver's description of a `VkRenderPassCreateInfo` and its chain
/// (multiview view masks, input attachment aspects).
///
/// # Safety
/// `info` is a valid create info with valid arrays and chain.
unsafe fn render_pass_desc(info: &vk::RenderPassCreateInfo<'_>) -> RenderPassDesc {
    // SAFETY: the caller's promise for every array and chain read below.
    unsafe {
        let attachments = ffi::slice(info.p_attachments, info.attachment_count)
            .iter()
            .map(|a| attachment!(a))
            .collect();
        let multiview = ffi::find_in_chain::<vk::RenderPassMultiviewCreateInfo<'_>>(info.p_next);
        let view_masks = multiview.map_or(&[][..], |m| ffi::slice(m.p_view_masks, m.subpass_count));
        let view_offsets = multiview.map_or(&[][..], |m| {
            ffi::slice(m.p_view_offsets, m.dependency_count)
        });
        let mut subpasses: Vec<Subpass> = ffi::slice(info.p_subpasses, info.subpass_count)
            .iter()
            .enumerate()
            .map(|(i, s)| Subpass {
                inputs: refs(ffi::slice(s.p_input_attachments, s.input_attachment_count)),
                colors: refs(ffi::slice(s.p_color_attachments, s.color_attachment_count)),
                resolves: refs(ffi::slice(
                    s.p_resolve_attachments,
                    s.color_attachment_count,
                )),
                depth_stencil: ffi::opt_ref(s.p_depth_stencil_attachment)
                    .and_then(|r| refs(std::slice::from_ref(r)).pop()),
                preserves: ffi::slice(s.p_preserve_attachments, s.preserve_attachment_count)
                    .to_vec(),
                view_mask: view_masks.get(i).copied().unwrap_or(0),
            })
            .collect();
        if let Some(aspects) =
            ffi::find_in_chain::<vk::RenderPassInputAttachmentAspectCreateInfo<'_>>(info.p_next)
        {
            for a in ffi::slice(aspects.p_aspect_references, aspects.aspect_reference_count) {
                if let Some(r) = subpasses
                    .get_mut(a.subpass as usize)
                    .and_then(|s| s.inputs.get_mut(a.input_attachment_index as usize))
                {
                    r.aspects = a.aspect_mask;
                }
            }
        }
        let dependencies = ffi::slice(info.p_dependencies, info.dependency_count)
            .iter()
            .enumerate()
            .map(|(i, d)| dependency!(d, view_offsets.get(i).copied().unwrap_or(0)))
            .collect();
        let correlation_masks = multiview.map_or(Vec::new(), |m| {
            ffi::slice(m.p_correlation_masks, m.correlation_mask_count).to_vec()
        });
        RenderPassDesc {
            attachments,
            subpasses,
            dependencies,
            correlation_masks,
        }
    }
}

/// A subpass's attachment references (`VkAttachmentReference2`, which
/// carries input attachments' aspects itself).
fn refs2(list: &[vk::AttachmentReference2<'_>]) -> Vec<AttachmentRef> {
    list.iter()
        .map(|r| AttachmentRef {
            attachment: attachment_index(r.attachment),
            layout: r.layout,
            aspects: r.aspect_mask,
        })
        .collect()
}

/// Whether a subpass's chain asks for nothing beyond the subpass: it may
/// only hold `VkSubpassDescriptionDepthStencilResolve`s that resolve into no
/// attachment (every attachment is single-sampled, so nothing can be
/// resolved).
///
/// # Safety
/// `p_next` starts a valid chain.
unsafe fn resolves_nothing(p_next: *const std::ffi::c_void) -> bool {
    let mut nothing = true;
    // SAFETY: the caller's promise; each structure is read as its sType says.
    unsafe {
        ffi::walk_chain(p_next, |ty, ptr| {
            nothing &= ty == vk::StructureType::SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE
                && ffi::opt_ref(
                    (*ptr.cast::<vk::SubpassDescriptionDepthStencilResolve<'_>>())
                        .p_depth_stencil_resolve_attachment,
                )
                .is_none_or(|r| r.attachment == vk::ATTACHMENT_UNUSED);
        });
    }
    nothing
}

/// The driver's description of a `VkRenderPassCreateInfo2`, where view
/// masks and offsets are in the subpasses and dependencies themselves.
/// Chained structures it does not implement (depth/stencil resolves,
/// fragment shading rate attachments) are refused.
///
/// # Safety
/// `info` is a valid create info with valid arrays and chain.
unsafe fn render_pass2_desc(
    info: &vk::RenderPassCreateInfo2<'_>,
) -> Result<RenderPassDesc, vk::Result> {
    // SAFETY: the caller's promise for every array and chain read below.
    unsafe {
        let attachments = ffi::slice(info.p_attachments, info.attachment_count)
            .iter()
            .map(|a| attachment!(a))
            .collect();
        let mut subpasses = Vec::new();
        for s in ffi::slice(info.p_subpasses, info.subpass_count) {
            if !resolves_nothing(s.p_next) {
                eprintln!(
                    "parsnip: vkCreateRenderPass2: subpass extensions (depth/stencil resolve, \
                     shading rate attachments) are not supported"
                );
                return Err(vk::Result::ERROR_UNKNOWN);
            }
            subpasses.push(Subpass {
                inputs: refs2(ffi::slice(s.p_input_attachments, s.input_attachment_count)),
                colors: refs2(ffi::slice(s.p_color_attachments, s.color_attachment_count)),
                resolves: refs2(ffi::slice(
                    s.p_resolve_attachments,
                    s.color_attachment_count,
                )),
                depth_stencil: ffi::opt_ref(s.p_depth_stencil_attachment)
                    .and_then(|r| refs2(std::slice::from_ref(r)).pop()),
                preserves: ffi::slice(s.p_preserve_attachments, s.preserve_attachment_count)
                    .to_vec(),
                view_mask: s.view_mask,
            });
        }
        let dependencies = ffi::slice(info.p_dependencies, info.dependency_count)
            .iter()
            .map(|d| dependency!(d, d.view_offset))
            .collect();
        let correlation_masks = ffi::slice(
            info.p_correlated_view_masks,
            info.correlated_view_mask_count,
        )
        .to_vec();
        Ok(RenderPassDesc {
            attachments,
            subpasses,
            dependencies,
            correlation_masks,
        })
    }
}

pub unsafe extern "system" fn vkCreateRenderPass(
    _device: vk::Device,
    p_info: *const vk::RenderPassCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_render_pass: *mut vk::RenderPass,
) -> vk::Result {
    guard::success(
        "vkCreateRenderPass",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure and everything it points at.
            let desc = unsafe { render_pass_desc(ffi::input(p_info)?) };
            let pass = RenderPass::new(desc)?;
            let handle = vk::Handle::from_raw(RENDER_PASSES.insert(pass));
            // SAFETY: pRenderPass is valid for a write.
            unsafe { ffi::write(p_render_pass, handle) }
        },
    )
}

pub unsafe extern "system" fn vkCreateRenderPass2(
    _device: vk::Device,
    p_info: *const vk::RenderPassCreateInfo2<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_render_pass: *mut vk::RenderPass,
) -> vk::Result {
    guard::success(
        "vkCreateRenderPass2",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure and everything it points at.
            let desc = unsafe { render_pass2_desc(ffi::input(p_info)?) }?;
            let pass = RenderPass::new(desc)?;
            let handle = vk::Handle::from_raw(RENDER_PASSES.insert(pass));
            // SAFETY: pRenderPass is valid for a write.
            unsafe { ffi::write(p_render_pass, handle) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyRenderPass(
    _device: vk::Device,
    render_pass: vk::RenderPass,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyRenderPass", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { RENDER_PASSES.remove(vk::Handle::as_raw(render_pass)) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetRenderAreaGranularity(
    device: vk::Device,
    _render_pass: vk::RenderPass,
    p_granularity: *mut vk::Extent2D,
) {
    guard::void("vkGetRenderAreaGranularity", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let device = unsafe { handles::device(device) }?;
        let granularity = rp::render_area_granularity(&device.device.gpu);
        // SAFETY: pGranularity is valid for a write.
        unsafe { ffi::write(p_granularity, granularity) }
    })
}

pub unsafe extern "system" fn vkCreateFramebuffer(
    _device: vk::Device,
    p_info: *const vk::FramebufferCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_framebuffer: *mut vk::Framebuffer,
) -> vk::Result {
    guard::success(
        "vkCreateFramebuffer",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pass = unsafe { RENDER_PASSES.get(vk::Handle::as_raw(info.render_pass)) }?;
            if info.flags.contains(vk::FramebufferCreateFlags::IMAGELESS) {
                // The views come with each render pass instance; only their
                // number is checked here (the image infos' count, which
                // valid usage makes attachmentCount).
                let framebuffer = Framebuffer::imageless(
                    pass.clone(),
                    info.attachment_count as usize,
                    info.width,
                    info.height,
                    info.layers,
                )?;
                let handle = vk::Handle::from_raw(FRAMEBUFFERS.insert(framebuffer));
                // SAFETY: pFramebuffer is valid for a write.
                return unsafe { ffi::write(p_framebuffer, handle) };
            }
            // SAFETY: pAttachments holds attachmentCount handles.
            let attachments = unsafe { ffi::slice(info.p_attachments, info.attachment_count) }
                .iter()
                // SAFETY: handles the application passed; valid usage keeps them live for the call.
                .map(|v| unsafe { handles::image_view(*v) }.cloned())
                .collect::<Result<Vec<_>, _>>()?;
            let framebuffer = Framebuffer::new(
                pass.clone(),
                attachments,
                info.width,
                info.height,
                info.layers,
            )?;
            let handle = vk::Handle::from_raw(FRAMEBUFFERS.insert(framebuffer));
            // SAFETY: pFramebuffer is valid for a write.
            unsafe { ffi::write(p_framebuffer, handle) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyFramebuffer(
    _device: vk::Device,
    framebuffer: vk::Framebuffer,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyFramebuffer", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { FRAMEBUFFERS.remove(vk::Handle::as_raw(framebuffer)) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkCmdBeginRenderPass(
    command_buffer: vk::CommandBuffer,
    p_begin: *const vk::RenderPassBeginInfo<'_>,
    _contents: vk::SubpassContents,
) {
    // SAFETY: the application's pointer, passed on.
    unsafe { begin_render_pass("vkCmdBeginRenderPass", command_buffer, p_begin) }
}

pub unsafe extern "system" fn vkCmdBeginRenderPass2(
    command_buffer: vk::CommandBuffer,
    p_begin: *const vk::RenderPassBeginInfo<'_>,
    _p_subpass_begin: *const vk::SubpassBeginInfo<'_>,
) {
    // SAFETY: the application's pointer, passed on.
    unsafe { begin_render_pass("vkCmdBeginRenderPass2", command_buffer, p_begin) }
}

/// Both begins: the subpass contents (inline or secondaries) change
/// nothing in what is recorded.
///
/// # Safety
/// `p_begin` is the application's valid begin info.
unsafe fn begin_render_pass(
    entry: &'static str,
    command_buffer: vk::CommandBuffer,
    p_begin: *const vk::RenderPassBeginInfo<'_>,
) {
    record_with(
        entry,
        command_buffer,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_begin) }?;
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            let pass = unsafe { RENDER_PASSES.get(vk::Handle::as_raw(info.render_pass)) }?;
            // SAFETY: as above.
            let mut fb = unsafe { FRAMEBUFFERS.get(vk::Handle::as_raw(info.framebuffer)) }?.clone();
            if fb.imageless {
                // SAFETY: the begin info's chain is valid.
                let views = unsafe { attachment_begin_views(info.p_next) }?;
                fb = fb.with_views(views)?;
            }
            // SAFETY: pClearValues holds clearValueCount values.
            let clears =
                unsafe { ffi::slice(info.p_clear_values, info.clear_value_count) }.to_vec();
            Ok((pass.clone(), fb, info.render_area, clears))
        },
        |rec, (pass, fb, area, clears)| rec.begin_render_pass(pass, fb, area, clears),
    );
}

/// The views a `VkRenderPassAttachmentBeginInfo` in a begin info's chain
/// names, for an imageless framebuffer.
///
/// # Safety
/// `p_next` starts a valid chain.
unsafe fn attachment_begin_views(
    p_next: *const std::ffi::c_void,
) -> Result<Vec<Arc<ImageView>>, vk::Result> {
    let mut views = None;
    // SAFETY: the caller's promise; the structure is read as its sType says.
    unsafe {
        ffi::walk_chain(p_next, |ty, ptr| {
            if ty == vk::StructureType::RENDER_PASS_ATTACHMENT_BEGIN_INFO {
                let b = &*ptr.cast::<vk::RenderPassAttachmentBeginInfo<'_>>();
                views = Some(ffi::slice(b.p_attachments, b.attachment_count).to_vec());
            }
        });
    }
    let Some(handles) = views else {
        eprintln!(
            "parsnip: vkCmdBeginRenderPass: an imageless framebuffer without a \
             VkRenderPassAttachmentBeginInfo"
        );
        return Err(vk::Result::ERROR_UNKNOWN);
    };
    handles
        .iter()
        // SAFETY: handles the application passed; valid usage keeps them live for the call.
        .map(|v| unsafe { handles::image_view(*v) }.cloned())
        .collect()
}

pub unsafe extern "system" fn vkCmdNextSubpass(
    command_buffer: vk::CommandBuffer,
    _contents: vk::SubpassContents,
) {
    record_with(
        "vkCmdNextSubpass",
        command_buffer,
        || Ok(()),
        |rec, ()| rec.next_subpass(),
    );
}

pub unsafe extern "system" fn vkCmdEndRenderPass(command_buffer: vk::CommandBuffer) {
    record_with(
        "vkCmdEndRenderPass",
        command_buffer,
        || Ok(()),
        |rec, ()| rec.end_render_pass(),
    );
}

pub unsafe extern "system" fn vkCmdNextSubpass2(
    command_buffer: vk::CommandBuffer,
    _p_begin: *const vk::SubpassBeginInfo<'_>,
    _p_end: *const vk::SubpassEndInfo<'_>,
) {
    record_with(
        "vkCmdNextSubpass2",
        command_buffer,
        || Ok(()),
        |rec, ()| rec.next_subpass(),
    );
}

pub unsafe extern "system" fn vkCmdEndRenderPass2(
    command_buffer: vk::CommandBuffer,
    _p_end: *const vk::SubpassEndInfo<'_>,
) {
    record_with(
        "vkCmdEndRenderPass2",
        command_buffer,
        || Ok(()),
        |rec, ()| rec.end_render_pass(),
    );
}

pub unsafe extern "system" fn vkCmdClearAttachments(
    command_buffer: vk::CommandBuffer,
    attachment_count: u32,
    p_attachments: *const vk::ClearAttachment,
    rect_count: u32,
    p_rects: *const vk::ClearRect,
) {
    record_with(
        "vkCmdClearAttachments",
        command_buffer,
        || {
            // SAFETY: the arrays hold the counts the application gave.
            let attachments = unsafe { ffi::slice(p_attachments, attachment_count) }.to_vec();
            // SAFETY: as above.
            let rects = unsafe { ffi::slice(p_rects, rect_count) }.to_vec();
            Ok((attachments, rects))
        },
        |rec, (attachments, rects)| rec.clear_attachments(&attachments, &rects),
    );
}
