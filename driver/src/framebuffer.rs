//! `VkFramebuffer`: a render pass's attachments bound to image views, and
//! the framebuffer's size, as plain data for the graphics work.
//!
//! The views are kept as the objects the image-view code makes (they stay
//! alive while the framebuffer does); this file only needs them to exist.

use std::any::Any;
use std::sync::Arc;

use ash::vk;

use crate::error::VkResult;
use crate::limits::{MAX_FRAMEBUFFER_LAYERS, MAX_FRAMEBUFFER_SIZE};
use crate::render_pass::RenderPass;

/// An attachment: an image view object.
pub type AttachmentView = Arc<dyn Any + Send + Sync>;

pub struct Framebuffer {
    pub render_pass: Arc<RenderPass>,
    pub attachments: Vec<AttachmentView>,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
}

impl Framebuffer {
    pub fn new(
        render_pass: Arc<RenderPass>,
        attachments: Vec<AttachmentView>,
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
        } else if !(1..=MAX_FRAMEBUFFER_SIZE).contains(&width)
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
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render_pass::{RenderPassDesc, Subpass};

    fn pass(view_mask: u32) -> Arc<RenderPass> {
        RenderPass::new(RenderPassDesc {
            subpasses: vec![Subpass {
                view_mask,
                ..Default::default()
            }],
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn a_framebuffer_keeps_its_size_and_refuses_impossible_ones() {
        let fb = Framebuffer::new(pass(0), Vec::new(), 640, 480, 3).unwrap();
        assert_eq!((fb.width, fb.height, fb.layers), (640, 480, 3));
        assert!(Framebuffer::new(pass(0), Vec::new(), 0, 480, 1).is_err());
        assert!(Framebuffer::new(pass(0), Vec::new(), MAX_FRAMEBUFFER_SIZE + 1, 1, 1).is_err());
        assert!(Framebuffer::new(pass(0), Vec::new(), 1, 1, MAX_FRAMEBUFFER_LAYERS + 1).is_err());
        assert!(Framebuffer::new(pass(0b11), Vec::new(), 64, 64, 2).is_err());
        let view: AttachmentView = Arc::new(());
        assert!(
            Framebuffer::new(pass(0), vec![view], 64, 64, 1).is_err(),
            "more attachments than the pass has"
        );
    }
}
