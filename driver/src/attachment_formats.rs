//! The formats a graphics pipeline or a secondary command buffer renders
//! to, apart from any `VkRenderPass`: a subpass's attachments' formats, or
//! what dynamic rendering names instead (`VkPipelineRenderingCreateInfo`,
//! `VkCommandBufferInheritanceRenderingInfo`).
//!
//! A secondary that continues dynamic rendering records into a subpass
//! like one of a render pass ([`AttachmentFormats::pass`]): one subpass of
//! attachments of these formats, which is all its draws check and use.

use std::sync::Arc;

use ash::vk;

use crate::error::VkResult;
use crate::render_pass::{Attachment, AttachmentRef, RenderPass, RenderPassDesc, Subpass};

/// Attachment formats, `UNDEFINED` where an attachment is unused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttachmentFormats {
    pub colors: Vec<vk::Format>,
    /// The depth/stencil attachment's format, if there is one.
    pub depth_stencil: Option<vk::Format>,
    pub samples: vk::SampleCountFlags,
    pub view_mask: u32,
}

fn refuse<T>(command: &str, what: impl std::fmt::Display) -> VkResult<T> {
    eprintln!("parsnip: {command}: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

impl AttachmentFormats {
    /// The formats of `subpass` of `pass`.
    pub fn of_subpass(pass: &RenderPass, subpass: u32, command: &str) -> VkResult<Self> {
        let Some(sub) = pass.desc.subpasses.get(subpass as usize) else {
            return refuse(command, format!("the render pass has no subpass {subpass}"));
        };
        let format = |r: &AttachmentRef| {
            r.attachment
                .map(|a| pass.desc.attachments[a as usize].format)
        };
        let samples = sub
            .colors
            .iter()
            .chain(&sub.depth_stencil)
            .find_map(|r| r.attachment)
            .map_or(vk::SampleCountFlags::TYPE_1, |a| {
                pass.desc.attachments[a as usize].samples
            });
        Ok(AttachmentFormats {
            colors: sub
                .colors
                .iter()
                .map(|r| format(r).unwrap_or(vk::Format::UNDEFINED))
                .collect(),
            depth_stencil: sub.depth_stencil.as_ref().and_then(format),
            samples,
            view_mask: sub.view_mask,
        })
    }

    /// The formats dynamic rendering names: colour formats, and the depth
    /// and stencil formats (each `UNDEFINED` if absent; equal if both are
    /// given, the one depth/stencil attachment).
    pub fn of_rendering(
        colors: &[vk::Format],
        depth: vk::Format,
        stencil: vk::Format,
        samples: vk::SampleCountFlags,
        view_mask: u32,
        command: &str,
    ) -> VkResult<Self> {
        let undefined = vk::Format::UNDEFINED;
        let depth_stencil = match (depth, stencil) {
            (d, s) if d == undefined && s == undefined => None,
            (d, s) if s == undefined || s == d => Some(d),
            (d, s) if d == undefined => Some(s),
            (d, s) => {
                return refuse(
                    command,
                    format!("a depth format {d:?} and another stencil format {s:?}"),
                )
            }
        };
        Ok(AttachmentFormats {
            colors: colors.to_vec(),
            depth_stencil,
            samples: if samples.is_empty() {
                vk::SampleCountFlags::TYPE_1
            } else {
                samples
            },
            view_mask,
        })
    }

    /// A pass of one subpass rendering to attachments of these formats.
    pub fn pass(&self) -> VkResult<Arc<RenderPass>> {
        let mut attachments = Vec::new();
        let mut reference = |format: vk::Format, layout| {
            let attachment = (format != vk::Format::UNDEFINED).then(|| {
                attachments.push(Attachment {
                    format,
                    samples: self.samples,
                    load_op: vk::AttachmentLoadOp::LOAD,
                    store_op: vk::AttachmentStoreOp::STORE,
                    stencil_load_op: vk::AttachmentLoadOp::LOAD,
                    stencil_store_op: vk::AttachmentStoreOp::STORE,
                    initial_layout: layout,
                    final_layout: layout,
                    may_alias: false,
                });
                attachments.len() as u32 - 1
            });
            AttachmentRef {
                attachment,
                layout,
                aspects: vk::ImageAspectFlags::empty(),
            }
        };
        let colors = self
            .colors
            .iter()
            .map(|&f| reference(f, vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL))
            .collect();
        let depth_stencil = self
            .depth_stencil
            .map(|f| reference(f, vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL));
        RenderPass::new(RenderPassDesc {
            attachments,
            subpasses: vec![Subpass {
                colors,
                depth_stencil,
                view_mask: self.view_mask,
                ..Default::default()
            }],
            ..Default::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RGBA: vk::Format = vk::Format::R8G8B8A8_UNORM;
    const D24S8: vk::Format = vk::Format::D24_UNORM_S8_UINT;

    #[test]
    fn a_subpass_and_the_pass_of_its_formats_have_the_same_formats() {
        let one = vk::SampleCountFlags::TYPE_4;
        let formats = AttachmentFormats::of_rendering(
            &[RGBA, vk::Format::UNDEFINED, vk::Format::R16_SFLOAT],
            D24S8,
            D24S8,
            one,
            0,
            "test",
        )
        .unwrap();
        assert_eq!(formats.depth_stencil, Some(D24S8));
        let pass = formats.pass().unwrap();
        // Two colour attachments and the depth/stencil one; the unused
        // colour stays unused.
        assert_eq!(pass.desc.attachments.len(), 3);
        let sub = &pass.desc.subpasses[0];
        assert_eq!(sub.colors[1].attachment, None);
        assert_eq!(sub.colors[2].attachment, Some(1));
        assert!(pass.desc.attachments.iter().all(|a| a.samples == one));
        let again = AttachmentFormats::of_subpass(&pass, 0, "test").unwrap();
        assert_eq!(again, formats);
        assert!(AttachmentFormats::of_subpass(&pass, 1, "test").is_err());
    }

    #[test]
    fn depth_and_stencil_formats_name_one_attachment_or_are_refused() {
        let f = |d, s| {
            AttachmentFormats::of_rendering(&[], d, s, vk::SampleCountFlags::empty(), 0, "test")
                .map(|f| (f.depth_stencil, f.samples))
        };
        let one = vk::SampleCountFlags::TYPE_1;
        let undefined = vk::Format::UNDEFINED;
        assert_eq!(f(undefined, undefined).unwrap(), (None, one));
        assert_eq!(f(undefined, D24S8).unwrap(), (Some(D24S8), one));
        assert_eq!(
            f(vk::Format::D32_SFLOAT, undefined).unwrap(),
            (Some(vk::Format::D32_SFLOAT), one)
        );
        assert!(f(vk::Format::D32_SFLOAT, D24S8).is_err());
    }
}
