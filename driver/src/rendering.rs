//! Dynamic rendering (`vkCmdBeginRendering`, Vulkan 1.3 and
//! VK_KHR_dynamic_rendering): a `VkRenderingInfo` as plain data, and the
//! render pass instance it is: a pass of one subpass whose attachments
//! are the info's colour, resolve and depth/stencil attachments with their
//! load and store ops, over a framebuffer of their views as large as the
//! render area reaches. Recording, tiling, loads, stores and resolves are
//! then those of any render pass (`cmd::pass`, `cmd::rendering`).
//!
//! The depth and stencil attachments of a `VkRenderingInfo` are one view
//! (the spec requires the same view when both are given), so they are one
//! attachment whose depth ops come from the depth attachment and stencil
//! ops from the stencil one. An aspect of that view that the info does not
//! name is loaded and stored, so that the pass leaves it as it was.
//!
//! Resolves run as the pass's subpass resolves do (the 2D engine's
//! average of the samples, or sample 0 for integer formats): so
//! `VK_RESOLVE_MODE_AVERAGE_BIT` of non-integer formats and
//! `SAMPLE_ZERO_BIT` of integer ones are built; other modes, and depth or
//! stencil resolves, are refused with a message.

use std::sync::Arc;

use ash::vk;

use crate::error::VkResult;
use crate::framebuffer::Framebuffer;
use crate::image::view::ImageView;
use crate::render_pass::{Attachment, AttachmentRef, RenderPass, RenderPassDesc, Subpass};

const COMMAND: &str = "vkCmdBeginRendering";

/// One `VkRenderingAttachmentInfo` with a view.
#[derive(Clone)]
pub struct RenderingAttachment {
    pub view: Arc<ImageView>,
    pub layout: vk::ImageLayout,
    pub load_op: vk::AttachmentLoadOp,
    pub store_op: vk::AttachmentStoreOp,
    pub clear: vk::ClearValue,
    /// The resolve mode and view, when the mode is not NONE.
    pub resolve: Option<(vk::ResolveModeFlags, Arc<ImageView>)>,
}

/// A `VkRenderingInfo`: `None` for an attachment without a view.
#[derive(Clone)]
pub struct RenderingDesc {
    pub flags: vk::RenderingFlags,
    pub area: vk::Rect2D,
    pub layers: u32,
    pub view_mask: u32,
    pub colors: Vec<Option<RenderingAttachment>>,
    pub depth: Option<RenderingAttachment>,
    pub stencil: Option<RenderingAttachment>,
}

/// The render pass instance a `VkRenderingInfo` describes.
pub struct RenderingInstance {
    pub pass: Arc<RenderPass>,
    pub framebuffer: Arc<Framebuffer>,
    /// Per attachment of the pass.
    pub clears: Vec<vk::ClearValue>,
}

fn refuse<T>(what: impl std::fmt::Display) -> VkResult<T> {
    eprintln!("parsnip: {COMMAND}: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// The attachments, views and clear values of a pass being built.
#[derive(Default)]
struct Builder {
    attachments: Vec<Attachment>,
    views: Vec<Arc<ImageView>>,
    clears: Vec<vk::ClearValue>,
}

impl Builder {
    /// Adds an attachment of `view`; its reference in `layout`.
    fn add(
        &mut self,
        view: &Arc<ImageView>,
        layout: vk::ImageLayout,
        ops: [vk::AttachmentLoadOp; 2],
        stores: [vk::AttachmentStoreOp; 2],
        clear: vk::ClearValue,
    ) -> AttachmentRef {
        self.attachments.push(Attachment {
            format: view.desc.format,
            samples: vk::SampleCountFlags::from_raw(view.image.desc.samples),
            load_op: ops[0],
            store_op: stores[0],
            stencil_load_op: ops[1],
            stencil_store_op: stores[1],
            initial_layout: layout,
            final_layout: layout,
            may_alias: false,
        });
        self.views.push(view.clone());
        self.clears.push(clear);
        AttachmentRef {
            attachment: Some(self.attachments.len() as u32 - 1),
            layout,
            aspects: vk::ImageAspectFlags::empty(),
        }
    }
}

const UNUSED: AttachmentRef = AttachmentRef {
    attachment: None,
    layout: vk::ImageLayout::UNDEFINED,
    aspects: vk::ImageAspectFlags::empty(),
};

/// Whether the 2D engine's resolve of `view` is what `mode` asks.
fn resolve_built(view: &ImageView, mode: vk::ResolveModeFlags) -> bool {
    if view.format.is_integer() {
        mode == vk::ResolveModeFlags::SAMPLE_ZERO
    } else {
        mode == vk::ResolveModeFlags::AVERAGE
    }
}

impl RenderingDesc {
    /// The pass, framebuffer and clear values this info renders with.
    pub fn instance(&self) -> VkResult<RenderingInstance> {
        let mut b = Builder::default();
        let load = vk::AttachmentLoadOp::LOAD;
        let store = vk::AttachmentStoreOp::STORE;
        let mut colors = Vec::with_capacity(self.colors.len());
        let mut resolved = Vec::new();
        for (i, c) in self.colors.iter().enumerate() {
            let Some(c) = c else {
                colors.push(UNUSED);
                continue;
            };
            colors.push(b.add(
                &c.view,
                c.layout,
                [c.load_op, load],
                [c.store_op, store],
                c.clear,
            ));
            if let Some((mode, view)) = &c.resolve {
                if !resolve_built(&c.view, *mode) {
                    return refuse(format!(
                        "colour attachment {i}: resolve mode {mode:?} of {:?} is not built",
                        c.view.format.vk
                    ));
                }
                resolved.push((i, view.clone()));
            }
        }
        let mut resolves = Vec::new();
        if !resolved.is_empty() {
            resolves = vec![UNUSED; colors.len()];
            for (i, view) in resolved {
                let dont_care = vk::AttachmentLoadOp::DONT_CARE;
                let clear = vk::ClearValue::default();
                let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
                resolves[i] = b.add(&view, layout, [dont_care; 2], [store; 2], clear);
            }
        }
        let depth_stencil = self.depth_stencil(&mut b)?;
        let view_mask = self.view_mask;
        let pass = RenderPass::new(RenderPassDesc {
            attachments: b.attachments,
            subpasses: vec![Subpass {
                colors,
                resolves,
                depth_stencil,
                view_mask,
                ..Default::default()
            }],
            ..Default::default()
        })?;
        let reach = |offset: i32, extent: u32| offset.max(0) as u32 + extent;
        let width = reach(self.area.offset.x, self.area.extent.width);
        let height = reach(self.area.offset.y, self.area.extent.height);
        // With a view mask each view is a layer and the framebuffer one.
        let layers = if view_mask != 0 { 1 } else { self.layers };
        let framebuffer = Framebuffer::new(pass.clone(), b.views, width, height, layers)?;
        Ok(RenderingInstance {
            pass,
            framebuffer,
            clears: b.clears,
        })
    }

    /// The one depth/stencil attachment of the depth and stencil
    /// attachments, if either has a view.
    fn depth_stencil(&self, b: &mut Builder) -> VkResult<Option<AttachmentRef>> {
        let (d, s) = (self.depth.as_ref(), self.stencil.as_ref());
        let Some(main) = d.or(s) else {
            return Ok(None);
        };
        if let (Some(d), Some(s)) = (d, s) {
            if !Arc::ptr_eq(&d.view, &s.view) {
                return refuse("the depth and stencil attachments are different views");
            }
        }
        if d.or(s).is_some_and(|a| a.resolve.is_some()) {
            return refuse("depth and stencil resolves are not built");
        }
        // An aspect the info does not name keeps its contents.
        let load = vk::AttachmentLoadOp::LOAD;
        let store = vk::AttachmentStoreOp::STORE;
        let ops = [d.map_or(load, |a| a.load_op), s.map_or(load, |a| a.load_op)];
        let stores = [
            d.map_or(store, |a| a.store_op),
            s.map_or(store, |a| a.store_op),
        ];
        // SAFETY: the clear values' unions read as the depth/stencil
        // values an attachment of this aspect holds.
        let clear = unsafe {
            vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: d.map_or(0.0, |a| a.clear.depth_stencil.depth),
                    stencil: s.map_or(0, |a| a.clear.depth_stencil.stencil),
                },
            }
        };
        Ok(Some(b.add(&main.view, main.layout, ops, stores, clear)))
    }
}
