//! `VkRenderPass`: attachments, subpasses and dependencies as plain data,
//! with the multiview view masks (`VkRenderPassMultiviewCreateInfo`), for
//! the graphics work to schedule (sysmem or GMEM, load and store streams).
//!
//! Creation checks what would otherwise index out of range later (an
//! attachment reference past the attachment list, a dependency naming a
//! subpass that does not exist, a view mask beyond the views the device
//! reports) and refuses it with a message; the rest is the application's
//! valid usage.

use std::sync::Arc;

use ash::vk;

use crate::error::VkResult;
use crate::gpu_info::GpuInfo;
use crate::limits::MAX_MULTIVIEW_VIEW_COUNT;

/// One attachment of the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub format: vk::Format,
    pub samples: vk::SampleCountFlags,
    pub load_op: vk::AttachmentLoadOp,
    pub store_op: vk::AttachmentStoreOp,
    pub stencil_load_op: vk::AttachmentLoadOp,
    pub stencil_store_op: vk::AttachmentStoreOp,
    pub initial_layout: vk::ImageLayout,
    pub final_layout: vk::ImageLayout,
    /// `VK_ATTACHMENT_DESCRIPTION_MAY_ALIAS_BIT`.
    pub may_alias: bool,
}

/// A subpass's use of an attachment: its index (`None` for
/// `VK_ATTACHMENT_UNUSED`), the layout it is in, and for input attachments
/// the aspects read (`VkRenderPassInputAttachmentAspectCreateInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttachmentRef {
    pub attachment: Option<u32>,
    pub layout: vk::ImageLayout,
    pub aspects: vk::ImageAspectFlags,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Subpass {
    pub inputs: Vec<AttachmentRef>,
    pub colors: Vec<AttachmentRef>,
    /// Empty, or one per color attachment.
    pub resolves: Vec<AttachmentRef>,
    pub depth_stencil: Option<AttachmentRef>,
    pub preserves: Vec<u32>,
    /// The views the subpass renders (bit `i`: view `i`); 0 without
    /// multiview.
    pub view_mask: u32,
}

/// A dependency, `None` for `VK_SUBPASS_EXTERNAL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub src_subpass: Option<u32>,
    pub dst_subpass: Option<u32>,
    pub src_stages: vk::PipelineStageFlags,
    pub dst_stages: vk::PipelineStageFlags,
    pub src_access: vk::AccessFlags,
    pub dst_access: vk::AccessFlags,
    pub flags: vk::DependencyFlags,
    /// The view offset of a view-local dependency (multiview).
    pub view_offset: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderPassDesc {
    pub attachments: Vec<Attachment>,
    pub subpasses: Vec<Subpass>,
    pub dependencies: Vec<Dependency>,
    /// Views rendered concurrently, as sets of view masks (multiview).
    pub correlation_masks: Vec<u32>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct RenderPass {
    pub desc: RenderPassDesc,
}

/// The attachment index a reference holds: `VK_ATTACHMENT_UNUSED` is none.
pub fn attachment_index(raw: u32) -> Option<u32> {
    (raw != vk::ATTACHMENT_UNUSED).then_some(raw)
}

/// The subpass index a dependency names: `VK_SUBPASS_EXTERNAL` is none.
pub fn subpass_index(raw: u32) -> Option<u32> {
    (raw != vk::SUBPASS_EXTERNAL).then_some(raw)
}

impl RenderPass {
    pub fn new(desc: RenderPassDesc) -> VkResult<Arc<RenderPass>> {
        if let Some(why) = problem(&desc) {
            eprintln!("parsnip: vkCreateRenderPass: {why}");
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(RenderPass { desc }))
    }

    /// Whether the pass uses multiview (every subpass then has a view mask).
    pub fn is_multiview(&self) -> bool {
        self.desc.subpasses.iter().any(|s| s.view_mask != 0)
    }

    /// The views a multiview pass renders: one past the highest view any
    /// subpass names (each is a layer of every attachment); 0 without
    /// multiview.
    pub fn views(&self) -> u32 {
        let all = self.desc.subpasses.iter().fold(0, |m, s| m | s.view_mask);
        u32::BITS - all.leading_zeros()
    }

    /// The views of a multiview pass in which attachment `index` is used
    /// (by any subpass that names it): those its load op clears. 0 without
    /// multiview.
    pub fn views_using(&self, index: u32) -> u32 {
        self.desc
            .subpasses
            .iter()
            .filter(|s| s.uses(index))
            .fold(0, |m, s| m | s.view_mask)
    }
}

impl Subpass {
    /// Whether the subpass names attachment `index` in any role.
    pub fn uses(&self, index: u32) -> bool {
        let named = |r: &AttachmentRef| r.attachment == Some(index);
        self.inputs.iter().any(named)
            || self.colors.iter().any(named)
            || self.resolves.iter().any(named)
            || self.depth_stencil.as_ref().is_some_and(named)
    }
}

/// The layers a subpass's work covers, as (first, count) ranges: each view
/// of `view_mask` its own layer; without multiview (a mask of 0), the
/// framebuffer's `layers` from 0.
pub fn layer_ranges(view_mask: u32, layers: u32) -> Vec<(u32, u32)> {
    if view_mask == 0 {
        return vec![(0, layers)];
    }
    (0..u32::BITS)
        .filter(|v| view_mask >> v & 1 != 0)
        .map(|v| (v, 1))
        .collect()
}

fn problem(desc: &RenderPassDesc) -> Option<String> {
    if desc.subpasses.is_empty() {
        return Some("a render pass has at least one subpass".into());
    }
    let attachments = desc.attachments.len() as u32;
    for (i, s) in desc.subpasses.iter().enumerate() {
        let refs = s
            .inputs
            .iter()
            .chain(&s.colors)
            .chain(&s.resolves)
            .chain(&s.depth_stencil);
        for r in refs {
            if let Some(a) = r.attachment.filter(|&a| a >= attachments) {
                return Some(format!("subpass {i} uses attachment {a} of {attachments}"));
            }
        }
        if let Some(&a) = s.preserves.iter().find(|&&a| a >= attachments) {
            return Some(format!(
                "subpass {i} preserves attachment {a} of {attachments}"
            ));
        }
        if !s.resolves.is_empty() && s.resolves.len() != s.colors.len() {
            return Some(format!(
                "subpass {i} has {} resolve attachments for {} color attachments",
                s.resolves.len(),
                s.colors.len()
            ));
        }
        if s.view_mask >> MAX_MULTIVIEW_VIEW_COUNT != 0 {
            return Some(format!(
                "subpass {i}'s view mask {:#x} names views beyond the {MAX_MULTIVIEW_VIEW_COUNT} \
                 the device has",
                s.view_mask
            ));
        }
    }
    let multiview = desc.subpasses.iter().filter(|s| s.view_mask != 0).count();
    if multiview != 0 && multiview != desc.subpasses.len() {
        return Some("with multiview, every subpass has a view mask".into());
    }
    let subpasses = desc.subpasses.len() as u32;
    for (i, d) in desc.dependencies.iter().enumerate() {
        for s in [d.src_subpass, d.dst_subpass].into_iter().flatten() {
            if s >= subpasses {
                return Some(format!("dependency {i} names subpass {s} of {subpasses}"));
            }
        }
    }
    None
}

/// `vkGetRenderAreaGranularity`: GMEM tiles are placed in units of the
/// GMEM alignment (the catalogue's gmem_align_w x gmem_align_h, the
/// granularity Turnip reports), so a render area aligned to it costs no
/// partial tiles.
pub fn render_area_granularity(gpu: &GpuInfo) -> vk::Extent2D {
    vk::Extent2D {
        width: gpu.entry.gmem_align_w,
        height: gpu.entry.gmem_align_h,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attachment() -> Attachment {
        Attachment {
            format: vk::Format::R8G8B8A8_UNORM,
            samples: vk::SampleCountFlags::TYPE_1,
            load_op: vk::AttachmentLoadOp::CLEAR,
            store_op: vk::AttachmentStoreOp::STORE,
            stencil_load_op: vk::AttachmentLoadOp::DONT_CARE,
            stencil_store_op: vk::AttachmentStoreOp::DONT_CARE,
            initial_layout: vk::ImageLayout::UNDEFINED,
            final_layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            may_alias: false,
        }
    }

    fn color(a: u32) -> AttachmentRef {
        AttachmentRef {
            attachment: attachment_index(a),
            layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            aspects: vk::ImageAspectFlags::empty(),
        }
    }

    fn one_subpass(view_mask: u32, color_ref: u32) -> RenderPassDesc {
        RenderPassDesc {
            attachments: vec![attachment()],
            subpasses: vec![Subpass {
                colors: vec![color(color_ref)],
                view_mask,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn a_pass_keeps_what_it_was_given_and_unused_references_are_none() {
        let pass = RenderPass::new(one_subpass(0, vk::ATTACHMENT_UNUSED)).unwrap();
        assert_eq!(pass.desc.subpasses[0].colors[0].attachment, None);
        assert!(!pass.is_multiview());
        assert_eq!(pass.views(), 0);
        let pass = RenderPass::new(one_subpass(0b1011, 0)).unwrap();
        assert!(pass.is_multiview());
        // Views 0, 1 and 3: four layers of each attachment.
        assert_eq!(pass.views(), 4);
        assert_eq!(pass.desc.subpasses[0].colors[0].attachment, Some(0));
    }

    #[test]
    fn references_out_of_range_and_views_beyond_the_device_are_refused() {
        assert!(RenderPass::new(one_subpass(0, 1)).is_err());
        assert!(RenderPass::new(one_subpass(1 << MAX_MULTIVIEW_VIEW_COUNT, 0)).is_err());
        assert!(RenderPass::new(one_subpass((1 << MAX_MULTIVIEW_VIEW_COUNT) - 1, 0)).is_ok());
        let mut mixed = one_subpass(1, 0);
        mixed.subpasses.push(Subpass::default());
        assert!(
            RenderPass::new(mixed).is_err(),
            "one subpass without a mask"
        );
        let mut dependency = one_subpass(0, 0);
        dependency.dependencies.push(Dependency {
            src_subpass: subpass_index(vk::SUBPASS_EXTERNAL),
            dst_subpass: Some(1),
            src_stages: vk::PipelineStageFlags::TOP_OF_PIPE,
            dst_stages: vk::PipelineStageFlags::BOTTOM_OF_PIPE,
            src_access: vk::AccessFlags::empty(),
            dst_access: vk::AccessFlags::empty(),
            flags: vk::DependencyFlags::empty(),
            view_offset: 0,
        });
        assert!(RenderPass::new(dependency).is_err());
        assert!(RenderPass::new(RenderPassDesc::default()).is_err());
    }

    #[test]
    fn the_granularity_is_the_gmem_alignment() {
        // freedreno_devices.py: gmem_align_w 16, gmem_align_h 4 on a6xx and
        // a7xx alike.
        for name in ["a618", "a660", "a740"] {
            let entry = parsnip_registers::gpu::by_name(name).unwrap();
            let gpu = GpuInfo::new(entry, u64::from(entry.kernel_chip_id), 19_200_000);
            assert_eq!(
                render_area_granularity(&gpu),
                vk::Extent2D {
                    width: 16,
                    height: 4
                },
                "{name}"
            );
        }
    }
}
