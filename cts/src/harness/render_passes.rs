//! Render passes and framebuffers for the cases, and the commands that
//! begin and end a pass and clear its attachments.

use ash::vk;

use super::commands::Recorder;
use super::images::Image;
use super::Harness;
use crate::case::{OrStop, Stop};

/// Graphics subpass descriptions (`VkSubpassDescription` or `...2`) of
/// colour reference lists and optional depth references.
macro_rules! subpasses {
    ($ty:ty, $colors:expr, $depth:expr) => {
        $colors
            .iter()
            .zip(&$depth)
            .map(|(c, d)| {
                let s = <$ty>::default()
                    .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                    .color_attachments(c);
                match d {
                    Some(d) => s.depth_stencil_attachment(d),
                    None => s,
                }
            })
            .collect()
    };
}

/// One attachment of a pass: its image (rendered whole, level 0, layer
/// 0), what the pass does with it on load, and the layout it is in.
#[derive(Clone, Copy, Debug)]
pub struct PassAttachment {
    pub image: Image,
    pub load: vk::AttachmentLoadOp,
    pub layout: vk::ImageLayout,
}

impl PassAttachment {
    /// The attachment at `samples`, stored, keeping its layout.
    fn description(&self, samples: vk::SampleCountFlags) -> vk::AttachmentDescription {
        vk::AttachmentDescription {
            format: self.image.shape.format,
            samples,
            load_op: self.load,
            store_op: vk::AttachmentStoreOp::STORE,
            stencil_load_op: self.load,
            stencil_store_op: vk::AttachmentStoreOp::STORE,
            initial_layout: self.layout,
            final_layout: self.layout,
            ..Default::default()
        }
    }
}

impl Harness {
    /// A render pass over `attachments` whose subpass `i` renders to the
    /// colour attachments `colors[i]` (indices) and the depth/stencil
    /// attachment `depth[i]`; every attachment is stored and keeps its
    /// layout; each subpass follows the one before it, and transfers
    /// before and after the pass are ordered with it. `version2` creates it
    /// with `vkCreateRenderPass2` (`NotSupported` without it).
    pub fn render_pass(
        &mut self,
        attachments: &[PassAttachment],
        colors: &[&[u32]],
        depth: &[Option<u32>],
        version2: bool,
    ) -> Result<vk::RenderPass, Stop> {
        let descs: Vec<vk::AttachmentDescription> = attachments
            .iter()
            .map(|a| a.description(vk::SampleCountFlags::TYPE_1))
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
        let subpasses: Vec<vk::SubpassDescription> =
            subpasses!(vk::SubpassDescription, refs, depth_refs);
        let last = subpasses.len() as u32 - 1;
        let dependencies = subpass_dependencies(last);
        let info = vk::RenderPassCreateInfo::default()
            .attachments(&descs)
            .subpasses(&subpasses)
            .dependencies(&dependencies);
        if !version2 {
            // SAFETY: the device is alive; `info` and what it points at are valid for the call.
            let pass = unsafe { self.device().create_render_pass(&info, None) }
                .or_stop("vkCreateRenderPass")?;
            return Ok(self.own(pass));
        }
        // The same pass through VkRenderPassCreateInfo2.
        let descs2: Vec<vk::AttachmentDescription2> = descs
            .iter()
            .map(|d| vk::AttachmentDescription2 {
                format: d.format,
                samples: d.samples,
                load_op: d.load_op,
                store_op: d.store_op,
                stencil_load_op: d.stencil_load_op,
                stencil_store_op: d.stencil_store_op,
                initial_layout: d.initial_layout,
                final_layout: d.final_layout,
                ..Default::default()
            })
            .collect();
        let ref2 = |r: &vk::AttachmentReference, aspect| vk::AttachmentReference2 {
            attachment: r.attachment,
            layout: r.layout,
            aspect_mask: aspect,
            ..Default::default()
        };
        let refs2: Vec<Vec<vk::AttachmentReference2>> = refs
            .iter()
            .map(|list| {
                list.iter()
                    .map(|r| ref2(r, vk::ImageAspectFlags::COLOR))
                    .collect()
            })
            .collect();
        let depth_refs2: Vec<Option<vk::AttachmentReference2>> = depth_refs
            .iter()
            .map(|d| d.as_ref().map(|r| ref2(r, vk::ImageAspectFlags::DEPTH)))
            .collect();
        let subpasses2: Vec<vk::SubpassDescription2> =
            subpasses!(vk::SubpassDescription2, refs2, depth_refs2);
        let dependencies2: Vec<vk::SubpassDependency2> = dependencies
            .iter()
            .map(|d| vk::SubpassDependency2 {
                src_subpass: d.src_subpass,
                dst_subpass: d.dst_subpass,
                src_stage_mask: d.src_stage_mask,
                dst_stage_mask: d.dst_stage_mask,
                src_access_mask: d.src_access_mask,
                dst_access_mask: d.dst_access_mask,
                ..Default::default()
            })
            .collect();
        let info2 = vk::RenderPassCreateInfo2::default()
            .attachments(&descs2)
            .subpasses(&subpasses2)
            .dependencies(&dependencies2);
        let pass = self
            .render_pass2()?
            .create(&info2)
            .or_stop("vkCreateRenderPass2")?;
        Ok(self.own(pass))
    }

    /// A one-subpass render pass over `attachments` of `samples` each,
    /// rendering to colour attachment `color` (resolved into `resolve` at
    /// the end of the subpass, if given) and depth attachment `depth`;
    /// every attachment is stored and keeps its layout, transfers before
    /// and after are ordered with it.
    pub fn multisampled_render_pass(
        &mut self,
        attachments: &[(PassAttachment, vk::SampleCountFlags)],
        color: u32,
        resolve: Option<u32>,
        depth: Option<u32>,
    ) -> Result<vk::RenderPass, Stop> {
        let descs: Vec<vk::AttachmentDescription> = attachments
            .iter()
            .map(|(a, samples)| a.description(*samples))
            .collect();
        let reference = |i: u32| vk::AttachmentReference {
            attachment: i,
            layout: attachments[i as usize].0.layout,
        };
        let colors = [reference(color)];
        let resolves = resolve.map(|r| [reference(r)]);
        let depth_ref = depth.map(reference);
        let mut subpass = vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&colors);
        if let Some(r) = &resolves {
            subpass = subpass.resolve_attachments(r);
        }
        if let Some(d) = &depth_ref {
            subpass = subpass.depth_stencil_attachment(d);
        }
        let subpasses = [subpass];
        let dependencies = subpass_dependencies(0);
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

/// Each subpass after the one before it, and transfers before and after
/// the pass ordered with it, for a pass of subpasses 0..=`last`.
/// The dependencies of a pass of subpasses `0..=last`: on what came before
/// (transfers included), of what follows on the last, and of each
/// subpass on the one before.
pub fn subpass_dependencies(last: u32) -> Vec<vk::SubpassDependency> {
    // The subpass side of a dependency names graphics stages only.
    let stages = vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
        | vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
        | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS;
    let transfer = vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE;
    let access = vk::AccessFlags::COLOR_ATTACHMENT_WRITE
        | vk::AccessFlags::COLOR_ATTACHMENT_READ
        | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE
        | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ;
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
    dependencies
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
        self.begin_pass_with(pass, framebuffer, area, clears, vk::SubpassContents::INLINE);
    }

    /// [`Recorder::begin_pass`], the first subpass's contents inline or in
    /// secondaries.
    pub fn begin_pass_with(
        &self,
        pass: vk::RenderPass,
        framebuffer: vk::Framebuffer,
        area: vk::Rect2D,
        clears: &[vk::ClearValue],
        contents: vk::SubpassContents,
    ) {
        let info = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(framebuffer)
            .render_area(area)
            .clear_values(clears);
        // SAFETY: the command buffer is recording; the pass and framebuffer are alive.
        unsafe {
            self.device()
                .cmd_begin_render_pass(self.command_buffer(), &info, contents)
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
