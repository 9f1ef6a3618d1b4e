//! An imageless framebuffer (Vulkan 1.2's `imagelessFramebuffer`): one
//! framebuffer, created with only its attachments' descriptions, renders
//! into the image each `vkCmdBeginRenderPass` names in its
//! `VkRenderPassAttachmentBeginInfo`.

use super::{
    color, full, opaque, prepared_of_size, probe, quad, read_back, unorm8, Scene, CLEAR,
    COLOR_LAYOUT, GREEN, RED, RGBA8, SIZE,
};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Harness, PassAttachment};
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "draws.imageless_framebuffer",
    run: imageless_framebuffer,
}];

/// The usage of the harness's colour attachment images, which the
/// framebuffer's attachment description must repeat.
const USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::TRANSFER_SRC.as_raw()
        | vk::ImageUsageFlags::TRANSFER_DST.as_raw()
        | vk::ImageUsageFlags::COLOR_ATTACHMENT.as_raw(),
);

/// Two passes through the same framebuffer: the red quad (bottom left)
/// into the first image, the green one (top right) into the second. Each
/// image holds its own quad and not the other's.
fn imageless_framebuffer(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().imageless_framebuffer {
        return Err(Stop::NotSupported("imagelessFramebuffer".into()));
    }
    let mut v = quad(-0.75, -0.75, -0.25, -0.25, 0.5, RED);
    v.extend(quad(0.25, 0.25, 0.75, 0.75, 0.5, GREEN));
    let scene = Scene::new(h, &v, false)?;
    let pipeline = h.graphics_pipeline(&scene.desc())?;
    let mut images = Vec::new();
    for _ in 0..2 {
        images.push(prepared_of_size(
            h,
            RGBA8,
            SIZE,
            color([0.0; 4]),
            COLOR_LAYOUT,
        )?);
    }
    let attachment = PassAttachment {
        image: images[0],
        load: vk::AttachmentLoadOp::CLEAR,
        layout: COLOR_LAYOUT,
    };
    let pass = h.render_pass(&[attachment], &[&[0]], &[None], false)?;
    let formats = [RGBA8];
    let image_infos = [vk::FramebufferAttachmentImageInfo::default()
        .usage(USAGE)
        .width(SIZE.0)
        .height(SIZE.1)
        .layer_count(1)
        .view_formats(&formats)];
    let mut attachments =
        vk::FramebufferAttachmentsCreateInfo::default().attachment_image_infos(&image_infos);
    let info = vk::FramebufferCreateInfo::default()
        .flags(vk::FramebufferCreateFlags::IMAGELESS)
        .render_pass(pass)
        .attachment_count(1)
        .width(SIZE.0)
        .height(SIZE.1)
        .layers(1)
        .push_next(&mut attachments);
    // SAFETY: the device is alive; `info` and its chain are valid for the call.
    let fb =
        unsafe { h.device().create_framebuffer(&info, None) }.or_stop("vkCreateFramebuffer")?;
    let fb = h.own(fb);
    let mut views = Vec::new();
    for image in &images {
        views.push(h.image_view(image, vk::ImageViewType::TYPE_2D)?);
    }
    let clears = [color(CLEAR)];
    h.run(|r| {
        for (i, view) in views.iter().enumerate() {
            let attached = [*view];
            let mut begin_views =
                vk::RenderPassAttachmentBeginInfo::default().attachments(&attached);
            let begin = vk::RenderPassBeginInfo::default()
                .render_pass(pass)
                .framebuffer(fb)
                .render_area(full())
                .clear_values(&clears)
                .push_next(&mut begin_views);
            // SAFETY: the command buffer is recording; the pass, framebuffer
            // and view are alive, the view matching the framebuffer's
            // attachment description.
            unsafe {
                r.device().cmd_begin_render_pass(
                    r.command_buffer(),
                    &begin,
                    vk::SubpassContents::INLINE,
                )
            };
            r.bind_graphics(pipeline);
            r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
            r.draw(6, 1, 6 * i as u32, 0);
            r.end_pass();
        }
    })?;
    let first = read_back(h, &images[0], COLOR_LAYOUT, 4)?;
    let second = read_back(h, &images[1], COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    // Red at window 8..24 x 8..24, green at 40..56 x 40..56.
    probe(&mut result, &first, 16, 16, opaque(RED));
    probe(&mut result, &first, 48, 48, unorm8(CLEAR));
    probe(&mut result, &second, 48, 48, opaque(GREEN));
    probe(&mut result, &second, 16, 16, unorm8(CLEAR));
    result.keep_approximate("rgba8", first);
    result.keep_approximate("rgba8_second", second);
    Ok(result)
}
