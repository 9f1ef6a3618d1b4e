//! Render passes and framebuffers for the cases, and the commands that
//! begin and end a pass and clear its attachments.

use ash::vk;

use super::commands::Recorder;
use super::images::Image;
use super::Harness;
use crate::case::{OrStop, Stop};

/// One attachment of a pass: its image (rendered whole, level 0, layer
/// 0), what the pass does with it on load, and the layout it is in.
#[derive(Clone, Copy, Debug)]
pub struct PassAttachment {
    pub image: Image,
    pub load: vk::AttachmentLoadOp,
    pub layout: vk::ImageLayout,
}

impl Harness {
    /// A render pass over `attachments` whose subpass `i` renders to the
    /// colour attachments `colors[i]` (indices) and the depth/stencil
    /// attachment `depth[i]`; every attachment is stored and keeps its
    /// layout; each subpass follows the one before it, and transfers
    /// before and after the pass are ordered with it.
    pub fn render_pass(
        &mut self,
        attachments: &[PassAttachment],
        colors: &[&[u32]],
        depth: &[Option<u32>],
    ) -> Result<vk::RenderPass, Stop> {
        let descs: Vec<vk::AttachmentDescription> = attachments
            .iter()
            .map(|a| vk::AttachmentDescription {
                format: a.image.shape.format,
                samples: vk::SampleCountFlags::TYPE_1,
                load_op: a.load,
                store_op: vk::AttachmentStoreOp::STORE,
                stencil_load_op: a.load,
                stencil_store_op: vk::AttachmentStoreOp::STORE,
                initial_layout: a.layout,
                final_layout: a.layout,
                ..Default::default()
            })
            .collect();
        let refs: Vec<Vec<vk::AttachmentReference>> = colors
            .iter()
            .map(|list| {
                list.iter()
                    .map(|&i| vk::AttachmentReference {
                        attachment: i,
                        layout: attachments[i as usize].layout,
                    })
                    .collect()
            })
            .collect();
        let depth_refs: Vec<Option<vk::AttachmentReference>> = depth
            .iter()
            .map(|d| {
                d.map(|i| vk::AttachmentReference {
                    attachment: i,
                    layout: attachments[i as usize].layout,
                })
            })
            .collect();
        let subpasses: Vec<vk::SubpassDescription> = refs
            .iter()
            .zip(&depth_refs)
            .map(|(c, d)| {
                let s = vk::SubpassDescription::default()
                    .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                    .color_attachments(c);
                match d {
                    Some(d) => s.depth_stencil_attachment(d),
                    None => s,
                }
            })
            .collect();
        // The subpass side of a dependency names graphics stages only.
        let stages = vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
            | vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
            | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS;
        let transfer = vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE;
        let access = vk::AccessFlags::COLOR_ATTACHMENT_WRITE
            | vk::AccessFlags::COLOR_ATTACHMENT_READ
            | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE
            | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ;
        let last = subpasses.len() as u32 - 1;
        let mut dependencies = vec![
            vk::SubpassDependency {
                src_subpass: vk::SUBPASS_EXTERNAL,
                dst_subpass: 0,
                src_stage_mask: stages | vk::PipelineStageFlags::TRANSFER,
                dst_stage_mask: stages,
                src_access_mask: access | transfer,
                dst_access_mask: access,
                ..Default::default()
            },
            vk::SubpassDependency {
                src_subpass: last,
                dst_subpass: vk::SUBPASS_EXTERNAL,
                src_stage_mask: stages,
                dst_stage_mask: stages | vk::PipelineStageFlags::TRANSFER,
                src_access_mask: access,
                dst_access_mask: access | transfer,
                ..Default::default()
            },
        ];
        for i in 1..=last {
            dependencies.push(vk::SubpassDependency {
                src_subpass: i - 1,
                dst_subpass: i,
                src_stage_mask: stages,
                dst_stage_mask: stages,
                src_access_mask: access,
                dst_access_mask: access,
                ..Default::default()
            });
        }
        let info = vk::RenderPassCreateInfo::default()
            .attachments(&descs)
            .subpasses(&subpasses)
            .dependencies(&dependencies);
        // SAFETY: the device is alive; `info` and what it points at are valid for the call.
        let pass = unsafe { self.device().create_render_pass(&info, None) }
            .or_stop("vkCreateRenderPass")?;
        Ok(self.own(pass))
    }

    /// A framebuffer of `pass` over views of the attachments' images.
    pub fn framebuffer(
        &mut self,
        pass: vk::RenderPass,
        attachments: &[PassAttachment],
    ) -> Result<vk::Framebuffer, Stop> {
        let mut views = Vec::new();
        for a in attachments {
            views.push(self.image_view(&a.image, vk::ImageViewType::TYPE_2D)?);
        }
        let [width, height, _] = attachments[0].image.shape.extent;
        let info = vk::FramebufferCreateInfo::default()
            .render_pass(pass)
            .attachments(&views)
            .width(width)
            .height(height)
            .layers(1);
        // SAFETY: the device is alive; `info` and what it points at are valid for the call.
        let fb = unsafe { self.device().create_framebuffer(&info, None) }
            .or_stop("vkCreateFramebuffer")?;
        Ok(self.own(fb))
    }
}

impl Recorder<'_> {
    /// Begins `pass` on `framebuffer` over `area`, with `clears` for the
    /// attachments that load by clearing.
    pub fn begin_pass(
        &self,
        pass: vk::RenderPass,
        framebuffer: vk::Framebuffer,
        area: vk::Rect2D,
        clears: &[vk::ClearValue],
    ) {
        let info = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(framebuffer)
            .render_area(area)
            .clear_values(clears);
        // SAFETY: the command buffer is recording; the pass and framebuffer are alive.
        unsafe {
            self.device().cmd_begin_render_pass(
                self.command_buffer(),
                &info,
                vk::SubpassContents::INLINE,
            )
        };
    }

    pub fn next_subpass(&self) {
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            self.device()
                .cmd_next_subpass(self.command_buffer(), vk::SubpassContents::INLINE)
        };
    }

    pub fn end_pass(&self) {
        // SAFETY: the command buffer is recording inside a pass.
        unsafe { self.device().cmd_end_render_pass(self.command_buffer()) };
    }

    pub fn clear_attachments(&self, attachments: &[vk::ClearAttachment], rects: &[vk::ClearRect]) {
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            self.device()
                .cmd_clear_attachments(self.command_buffer(), attachments, rects)
        };
    }
}
