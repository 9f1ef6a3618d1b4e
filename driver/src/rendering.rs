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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framebuffer::tests::view;

    fn attachment(view: &Arc<ImageView>, load_op: vk::AttachmentLoadOp) -> RenderingAttachment {
        RenderingAttachment {
            view: view.clone(),
            layout: vk::ImageLayout::GENERAL,
            load_op,
            store_op: vk::AttachmentStoreOp::DONT_CARE,
            clear: vk::ClearValue::default(),
            resolve: None,
        }
    }

    fn desc(colors: Vec<Option<RenderingAttachment>>) -> RenderingDesc {
        RenderingDesc {
            flags: vk::RenderingFlags::empty(),
            area: vk::Rect2D {
                offset: vk::Offset2D { x: 8, y: 4 },
                extent: vk::Extent2D {
                    width: 40,
                    height: 20,
                },
            },
            layers: 1,
            view_mask: 0,
            colors,
            depth: None,
            stencil: None,
        }
    }

    #[test]
    fn colours_and_resolves_are_the_attachments_of_one_subpass() {
        let rgba = vk::Format::R8G8B8A8_UNORM;
        let (a, b, r) = (
            view(rgba, 0, 1, 1),
            view(rgba, 0, 1, 1),
            view(rgba, 0, 1, 1),
        );
        let mut resolved = attachment(&b, vk::AttachmentLoadOp::CLEAR);
        resolved.resolve = Some((vk::ResolveModeFlags::AVERAGE, r.clone()));
        let d = desc(vec![
            Some(attachment(&a, vk::AttachmentLoadOp::LOAD)),
            None,
            Some(resolved),
        ]);
        let instance = d.instance().unwrap();
        let pass = &instance.pass.desc;
        let sub = &pass.subpasses[0];
        let refs: Vec<_> = sub.colors.iter().map(|r| r.attachment).collect();
        assert_eq!(refs, [Some(0), None, Some(1)]);
        let resolves: Vec<_> = sub.resolves.iter().map(|r| r.attachment).collect();
        assert_eq!(resolves, [None, None, Some(2)]);
        assert_eq!(pass.attachments[0].load_op, vk::AttachmentLoadOp::LOAD);
        assert_eq!(pass.attachments[1].load_op, vk::AttachmentLoadOp::CLEAR);
        assert_eq!(pass.attachments[2].store_op, vk::AttachmentStoreOp::STORE);
        let fb = &instance.framebuffer;
        // As large as the render area reaches: 8 + 40 by 4 + 20.
        assert_eq!((fb.width, fb.height, fb.layers), (48, 24, 1));
        assert!(Arc::ptr_eq(&fb.attachments[2], &r));
        assert_eq!(instance.clears.len(), 3);
    }

    #[test]
    fn what_the_2d_engine_cannot_resolve_and_areas_past_the_views_are_refused() {
        let rgba = vk::Format::R8G8B8A8_UNORM;
        let (a, r) = (view(rgba, 0, 1, 1), view(rgba, 0, 1, 1));
        let mut c = attachment(&a, vk::AttachmentLoadOp::LOAD);
        c.resolve = Some((vk::ResolveModeFlags::SAMPLE_ZERO, r.clone()));
        assert!(desc(vec![Some(c.clone())]).instance().is_err());
        let uint = view(vk::Format::R8G8B8A8_UINT, 0, 1, 1);
        let mut i = attachment(&uint, vk::AttachmentLoadOp::LOAD);
        i.resolve = Some((vk::ResolveModeFlags::AVERAGE, r.clone()));
        assert!(desc(vec![Some(i.clone())]).instance().is_err());
        i.resolve = Some((vk::ResolveModeFlags::SAMPLE_ZERO, r));
        // Sample 0 of an integer format is what the engine takes.
        assert!(desc(vec![Some(i)]).instance().is_ok());
        // The views are 64x32: an area reaching past them is refused.
        let mut d = desc(vec![Some(attachment(&a, vk::AttachmentLoadOp::LOAD))]);
        d.area.extent.height = 40;
        assert!(d.instance().is_err());
    }

    #[test]
    fn depth_and_stencil_are_one_attachment_keeping_the_aspect_not_named() {
        let ds = view(vk::Format::D24_UNORM_S8_UINT, 0, 1, 1);
        let mut d = desc(Vec::new());
        d.stencil = Some(attachment(&ds, vk::AttachmentLoadOp::CLEAR));
        let instance = d.instance().unwrap();
        let a = instance.pass.desc.attachments[0];
        assert_eq!(instance.pass.desc.attachments.len(), 1);
        // The depth the info does not name is loaded and stored.
        assert_eq!(a.load_op, vk::AttachmentLoadOp::LOAD);
        assert_eq!(a.store_op, vk::AttachmentStoreOp::STORE);
        assert_eq!(a.stencil_load_op, vk::AttachmentLoadOp::CLEAR);
        assert_eq!(a.stencil_store_op, vk::AttachmentStoreOp::DONT_CARE);
        d.depth = Some(attachment(&ds, vk::AttachmentLoadOp::DONT_CARE));
        let a = d.instance().unwrap().pass.desc.attachments[0];
        assert_eq!(a.load_op, vk::AttachmentLoadOp::DONT_CARE);
        assert_eq!(a.stencil_load_op, vk::AttachmentLoadOp::CLEAR);
        // Two views for the depth and the stencil.
        let other = view(vk::Format::D24_UNORM_S8_UINT, 0, 1, 1);
        d.depth = Some(attachment(&other, vk::AttachmentLoadOp::LOAD));
        assert!(d.instance().is_err());
    }
}
