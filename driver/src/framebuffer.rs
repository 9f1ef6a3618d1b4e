//! `VkFramebuffer`: a render pass's attachments bound to image views, and
//! the framebuffer's size, as plain data for the graphics work.
//!
//! The views stay alive while the framebuffer does. Creation refuses an
//! attachment the pass could not render to as described (another format
//! or sample count, a view with several levels, smaller than the
//! framebuffer or with fewer layers than it, or than the views of a
//! multiview pass): the graphics work would otherwise address memory
//! outside the view.

use std::sync::Arc;

use ash::vk;

use crate::error::VkResult;
use crate::image::view::ImageView;
use crate::limits::{MAX_FRAMEBUFFER_LAYERS, MAX_FRAMEBUFFER_SIZE};
use crate::render_pass::{Attachment, RenderPass};

pub struct Framebuffer {
    pub render_pass: Arc<RenderPass>,
    /// The views; none for an imageless framebuffer, whose views each
    /// render pass instance names ([`Framebuffer::with_views`]).
    pub attachments: Vec<Arc<ImageView>>,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    /// Created with `VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT`.
    pub imageless: bool,
}

impl Framebuffer {
    pub fn new(
        render_pass: Arc<RenderPass>,
        attachments: Vec<Arc<ImageView>>,
        width: u32,
        height: u32,
        layers: u32,
    ) -> VkResult<Arc<Framebuffer>> {
        let expected = render_pass.desc.attachments.len();
        let problem = if attachments.len() != expected {
            Some(format!(
                "{} attachments for a render pass of {expected}",
                attachments.len()
            ))
        } else if let Some(why) = size_problem(&render_pass, width, height, layers) {
            Some(why)
        } else {
            let views = render_pass.views();
            let layers_needed = if views == 0 { layers } else { views };
            render_pass
                .desc
                .attachments
                .iter()
                .zip(&attachments)
                .enumerate()
                .find_map(|(i, (a, v))| {
                    attachment_problem(a, v, width, height, layers_needed)
                        .map(|why| format!("attachment {i}: {why}"))
                })
        };
        if let Some(why) = problem {
            eprintln!("parsnip: vkCreateFramebuffer: {why}");
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(Framebuffer {
            render_pass,
            attachments,
            width,
            height,
            layers,
            imageless: false,
        }))
    }

    /// An imageless framebuffer (Vulkan 1.2's imagelessFramebuffer): its
    /// size and its count of attachments, the views coming with each
    /// vkCmdBeginRenderPass. `attachments` is how many image infos the
    /// create info gave.
    pub fn imageless(
        render_pass: Arc<RenderPass>,
        attachments: usize,
        width: u32,
        height: u32,
        layers: u32,
    ) -> VkResult<Arc<Framebuffer>> {
        let expected = render_pass.desc.attachments.len();
        if attachments != expected {
            eprintln!(
                "parsnip: vkCreateFramebuffer: {attachments} attachment image infos for a \
                 render pass of {expected}"
            );
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        // The size checks of a framebuffer with views, before any view.
        if let Some(why) = size_problem(&render_pass, width, height, layers) {
            eprintln!("parsnip: vkCreateFramebuffer: {why}");
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(Framebuffer {
            render_pass,
            attachments: Vec::new(),
            width,
            height,
            layers,
            imageless: true,
        }))
    }

    /// The framebuffer a render pass instance of an imageless framebuffer
    /// renders to: these views, checked as vkCreateFramebuffer checks
    /// views.
    pub fn with_views(&self, views: Vec<Arc<ImageView>>) -> VkResult<Arc<Framebuffer>> {
        Framebuffer::new(
            self.render_pass.clone(),
            views,
            self.width,
            self.height,
            self.layers,
        )
    }
}

impl Framebuffer {
    /// Whether `other` is of the same views, in the same places, size and
    /// layers (what a resumed dynamic rendering pass renders to is the
    /// suspended one's).
    pub fn same_views(&self, other: &Framebuffer) -> bool {
        (self.width, self.height, self.layers) == (other.width, other.height, other.layers)
            && self.attachments.len() == other.attachments.len()
            && self
                .attachments
                .iter()
                .zip(&other.attachments)
                .all(|(a, b)| Arc::ptr_eq(a, b))
    }
}

/// Why a framebuffer of `width` x `height` and `layers` layers cannot be
/// one of `render_pass`, if it cannot.
fn size_problem(render_pass: &RenderPass, width: u32, height: u32, layers: u32) -> Option<String> {
    if !(1..=MAX_FRAMEBUFFER_SIZE).contains(&width)
        || !(1..=MAX_FRAMEBUFFER_SIZE).contains(&height)
        || !(1..=MAX_FRAMEBUFFER_LAYERS).contains(&layers)
    {
        Some(format!(
            "{width}x{height} with {layers} layers is outside 1..={MAX_FRAMEBUFFER_SIZE} \
             (1..={MAX_FRAMEBUFFER_LAYERS} layers)"
        ))
    } else if render_pass.is_multiview() && layers != 1 {
        Some(format!("a multiview pass renders one layer, not {layers}"))
    } else {
        None
    }
}

/// Why view `v` cannot be attachment `a` of a `width` x `height`
/// framebuffer rendering `layers` layers (or views), if it cannot.
fn attachment_problem(
    a: &Attachment,
    v: &ImageView,
    width: u32,
    height: u32,
    layers: u32,
) -> Option<String> {
    let image = &v.image.desc;
    let level = v.desc.range.base_mip_level;
    let (w, h) = (
        (image.extent.width >> level).max(1),
        (image.extent.height >> level).max(1),
    );
    if v.desc.format != a.format {
        Some(format!(
            "the view is {:?}, the pass's attachment {:?}",
            v.desc.format, a.format
        ))
    } else if image.samples != a.samples.as_raw() {
        Some(format!(
            "the image has {} samples, the pass's attachment {:?}",
            image.samples, a.samples
        ))
    } else if v.levels != 1 {
        Some(format!("the view has {} levels, not 1", v.levels))
    } else if w < width || h < height {
        Some(format!(
            "the view is {w}x{h}, smaller than the {width}x{height} framebuffer"
        ))
    } else if v.layers < layers {
        Some(format!(
            "the view has {} layers, the framebuffer renders {layers}",
            v.layers
        ))
    } else {
        None
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::image::view::ViewDesc;
    use crate::image::{Image, ImageDesc};
    use crate::render_pass::{AttachmentRef, RenderPassDesc, Subpass};

    /// A pass of one `R8G8B8A8_UNORM` colour attachment (or none).
    fn pass(view_mask: u32, attachments: usize) -> Arc<RenderPass> {
        let attachment = Attachment {
            format: vk::Format::R8G8B8A8_UNORM,
            samples: vk::SampleCountFlags::TYPE_1,
            load_op: vk::AttachmentLoadOp::CLEAR,
            store_op: vk::AttachmentStoreOp::STORE,
            stencil_load_op: vk::AttachmentLoadOp::DONT_CARE,
            stencil_store_op: vk::AttachmentStoreOp::DONT_CARE,
            initial_layout: vk::ImageLayout::UNDEFINED,
            final_layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            may_alias: false,
        };
        let colors = (0..attachments as u32)
            .map(|a| AttachmentRef {
                attachment: Some(a),
                layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                aspects: vk::ImageAspectFlags::empty(),
            })
            .collect();
        RenderPass::new(RenderPassDesc {
            attachments: vec![attachment; attachments],
            subpasses: vec![Subpass {
                colors,
                view_mask,
                ..Default::default()
            }],
            ..Default::default()
        })
        .unwrap()
    }

    /// A view of level `level` and `layers` layers of a 64x32 image of
    /// `format` with 2 levels and 4 layers.
    pub(crate) fn view(format: vk::Format, level: u32, levels: u32, layers: u32) -> Arc<ImageView> {
        let device = crate::device::tests::null_device("a660");
        let image = Image::new(
            ImageDesc {
                image_type: vk::ImageType::TYPE_2D,
                format,
                extent: vk::Extent3D {
                    width: 64,
                    height: 32,
                    depth: 1,
                },
                levels: 2,
                layers: 4,
                samples: 1,
                tiling: vk::ImageTiling::OPTIMAL,
                // What the framebuffer checks does not depend on usage.
                usage: vk::ImageUsageFlags::TRANSFER_DST,
                flags: vk::ImageCreateFlags::empty(),
                view_formats_swap: false,
            },
            device.gpu.entry,
        )
        .unwrap();
        let desc = ViewDesc {
            view_type: vk::ImageViewType::TYPE_2D_ARRAY,
            format,
            components: vk::ComponentMapping::default(),
            range: vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: level,
                level_count: levels,
                base_array_layer: 0,
                layer_count: layers,
            },
            min_lod: 0.0,
        };
        ImageView::new(device.gpu.chip(), image, desc).unwrap()
    }

    #[test]
    fn a_framebuffer_keeps_its_size_and_refuses_impossible_ones() {
        let fb = Framebuffer::new(pass(0, 0), Vec::new(), 640, 480, 3).unwrap();
        assert_eq!((fb.width, fb.height, fb.layers), (640, 480, 3));
        assert!(Framebuffer::new(pass(0, 0), Vec::new(), 0, 480, 1).is_err());
        assert!(Framebuffer::new(pass(0, 0), Vec::new(), MAX_FRAMEBUFFER_SIZE + 1, 1, 1).is_err());
        assert!(
            Framebuffer::new(pass(0, 0), Vec::new(), 1, 1, MAX_FRAMEBUFFER_LAYERS + 1).is_err()
        );
        assert!(Framebuffer::new(pass(0b11, 0), Vec::new(), 64, 64, 2).is_err());
        let rgba = view(vk::Format::R8G8B8A8_UNORM, 0, 1, 1);
        assert!(
            Framebuffer::new(pass(0, 0), vec![rgba], 64, 32, 1).is_err(),
            "more attachments than the pass has"
        );
    }

    #[test]
    fn attachments_are_views_that_cover_the_framebuffer() {
        let rgba = |level, levels, layers| view(vk::Format::R8G8B8A8_UNORM, level, levels, layers);
        let fb = Framebuffer::new(pass(0, 1), vec![rgba(0, 1, 2)], 64, 32, 2).unwrap();
        assert_eq!(fb.attachments[0].layers, 2);
        // Level 1 is 32x16: enough for 32x16, not for 33x16.
        assert!(Framebuffer::new(pass(0, 1), vec![rgba(1, 1, 1)], 32, 16, 1).is_ok());
        assert!(Framebuffer::new(pass(0, 1), vec![rgba(1, 1, 1)], 33, 16, 1).is_err());
        assert!(Framebuffer::new(pass(0, 1), vec![rgba(0, 1, 1)], 64, 33, 1).is_err());
        // Two layers rendered from a one-layer view; a view of two levels.
        assert!(Framebuffer::new(pass(0, 1), vec![rgba(0, 1, 1)], 64, 32, 2).is_err());
        assert!(Framebuffer::new(pass(0, 1), vec![rgba(0, 2, 1)], 64, 32, 1).is_err());
        // Another format than the pass's attachment.
        let other = view(vk::Format::R8G8B8A8_SRGB, 0, 1, 1);
        assert!(Framebuffer::new(pass(0, 1), vec![other], 64, 32, 1).is_err());
        // Multiview views 0 and 2 are layers 0 and 2: three layers needed.
        assert!(Framebuffer::new(pass(0b101, 1), vec![rgba(0, 1, 2)], 64, 32, 1).is_err());
        assert!(Framebuffer::new(pass(0b101, 1), vec![rgba(0, 1, 3)], 64, 32, 1).is_ok());
    }
}
