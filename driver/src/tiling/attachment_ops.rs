//! What each attachment of a pass rendered in bins needs in every bin:
//! loaded from memory into GMEM (loadOp LOAD), cleared in GMEM (loadOp
//! CLEAR), stored back (storeOp STORE); nothing for DONT_CARE and NONE,
//! whose contents the pass may leave undefined or untouched. A
//! depth/stencil attachment is loaded if either aspect loads (the clear
//! then writes only the aspect it clears) and stored if either stores
//! (the other aspect's memory may hold anything: its store op allowed
//! that). Attachments no subpass uses are not in GMEM, and their ops do
//! not happen (Vulkan: an attachment's load and store ops are at its first
//! and last use).
//!
//! The resolve engine moves GMEM in blocks of gmem_align_w x gmem_align_h
//! pixels (the catalogue's "gmem load/store granularity"), so a store of a
//! render area that does not start and end on that grid would write
//! pixels outside it; where the area ends at the attachment's right or
//! bottom edge, the blocks past it must still be in the image's padding.
//! A pass whose stores do not fit so is rendered in sysmem.

use ash::vk;

use super::clear_value::packs;
use crate::framebuffer::Framebuffer;
use crate::gpu_info::GpuInfo;
use crate::image::view::ImageView;
use crate::render_pass::{Attachment, RenderPass};

/// One attachment's work per bin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttachmentOps {
    /// Its index in the pass.
    pub index: usize,
    pub load: bool,
    /// The aspects its load op clears.
    pub clear: vk::ImageAspectFlags,
    pub store: bool,
}

fn loads(op: vk::AttachmentLoadOp) -> bool {
    op == vk::AttachmentLoadOp::LOAD
}

fn clears(op: vk::AttachmentLoadOp) -> bool {
    op == vk::AttachmentLoadOp::CLEAR
}

fn stores(op: vk::AttachmentStoreOp) -> bool {
    op == vk::AttachmentStoreOp::STORE
}

/// The ops of attachment `a` (of `format_aspects`).
fn ops_of(index: usize, a: &Attachment, format_aspects: vk::ImageAspectFlags) -> AttachmentOps {
    let stencil = format_aspects.contains(vk::ImageAspectFlags::STENCIL);
    let main = format_aspects & !vk::ImageAspectFlags::STENCIL;
    let mut clear = vk::ImageAspectFlags::empty();
    if clears(a.load_op) {
        clear |= main;
    }
    if stencil && clears(a.stencil_load_op) {
        clear |= vk::ImageAspectFlags::STENCIL;
    }
    AttachmentOps {
        index,
        load: (!main.is_empty() && loads(a.load_op)) || (stencil && loads(a.stencil_load_op)),
        clear,
        store: (!main.is_empty() && stores(a.store_op)) || (stencil && stores(a.stencil_store_op)),
    }
}

/// The per-bin work of every attachment the pass keeps in GMEM
/// (`in_gmem`, per attachment).
pub fn attachment_ops(
    pass: &RenderPass,
    framebuffer: &Framebuffer,
    in_gmem: &[Option<u32>],
) -> Vec<AttachmentOps> {
    pass.desc
        .attachments
        .iter()
        .enumerate()
        .filter(|(i, _)| in_gmem.get(*i).is_some_and(Option::is_some))
        .map(|(i, a)| ops_of(i, a, framebuffer.attachments[i].format.aspects()))
        .collect()
}

/// Whether a store of `area` of `view` stays within the render area and
/// the image, blocks of `align` pixels being written whole.
fn store_fits(view: &ImageView, area: vk::Rect2D, align: (u32, u32)) -> bool {
    let aspect = if view.format.is_depth_or_stencil() {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    };
    let plane = view.image.plane(aspect);
    let Some(level) = plane
        .layout
        .levels
        .get(view.desc.range.base_mip_level as usize)
    else {
        return false;
    };
    let (x0, y0) = (area.offset.x.max(0) as u32, area.offset.y.max(0) as u32);
    let (x1, y1) = (x0 + area.extent.width, y0 + area.extent.height);
    let edge_ok = |end: u32, size: u32, a: u32, fits: &dyn Fn(u32) -> bool| {
        end.is_multiple_of(a) || (end >= size && fits(size.next_multiple_of(a)))
    };
    let cpp = u64::from(plane.layout.cpp);
    let pitch = u64::from(level.pitch);
    x0.is_multiple_of(align.0)
        && y0.is_multiple_of(align.1)
        && edge_ok(x1, level.width, align.0, &|w| u64::from(w) * cpp <= pitch)
        && edge_ok(y1, level.height, align.1, &|h| {
            u64::from(h) * pitch <= level.size
        })
}

/// Why the pass's attachment ops cannot all be done in GMEM, if they
/// cannot: a clear of a format not packed for GMEM, or a store that does
/// not fit the resolve engine's blocks.
pub fn gmem_blocker(
    gpu: &GpuInfo,
    framebuffer: &Framebuffer,
    area: vk::Rect2D,
    ops: &[AttachmentOps],
) -> Option<String> {
    let align = (gpu.entry.gmem_align_w, gpu.entry.gmem_align_h);
    for o in ops {
        let view = &framebuffer.attachments[o.index];
        if !o.clear.is_empty() && !packs(view.format) {
            return Some(format!(
                "attachment {} ({:?}) is cleared, and its clear value is not packed for GMEM",
                o.index, view.format.vk
            ));
        }
        if o.store && !store_fits(view, area, align) {
            return Some(format!(
                "the render area {:?} of attachment {} is not on the {}x{} store grid",
                area, o.index, align.0, align.1
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attachment(
        load: vk::AttachmentLoadOp,
        store: vk::AttachmentStoreOp,
        stencil_load: vk::AttachmentLoadOp,
        stencil_store: vk::AttachmentStoreOp,
    ) -> Attachment {
        Attachment {
            format: vk::Format::D24_UNORM_S8_UINT,
            samples: vk::SampleCountFlags::TYPE_1,
            load_op: load,
            store_op: store,
            stencil_load_op: stencil_load,
            stencil_store_op: stencil_store,
            initial_layout: vk::ImageLayout::UNDEFINED,
            final_layout: vk::ImageLayout::GENERAL,
            may_alias: false,
        }
    }

    #[test]
    fn ops_follow_each_aspects_load_and_store_op() {
        use vk::AttachmentLoadOp as L;
        use vk::AttachmentStoreOp as S;
        use vk::ImageAspectFlags as A;
        let ds = A::DEPTH | A::STENCIL;
        // Depth cleared, stencil loaded: loaded, then depth cleared.
        let o = ops_of(
            0,
            &attachment(L::CLEAR, S::STORE, L::LOAD, S::DONT_CARE),
            ds,
        );
        assert!(o.load && o.store);
        assert_eq!(o.clear, A::DEPTH);
        // Nothing needed of either.
        let o = ops_of(
            1,
            &attachment(L::DONT_CARE, S::NONE, L::DONT_CARE, S::DONT_CARE),
            ds,
        );
        assert!(!o.load && !o.store && o.clear.is_empty());
        // A colour attachment's stencil ops mean nothing.
        let o = ops_of(
            2,
            &attachment(L::CLEAR, S::DONT_CARE, L::LOAD, S::STORE),
            A::COLOR,
        );
        assert!(!o.load && !o.store);
        assert_eq!(o.clear, A::COLOR);
    }
}
