//! The tiler's decisions for a render pass: where its attachments go in
//! GMEM ([`gmem_layout`]), how the framebuffer is cut into bins
//! ([`bin_layout`]), what each attachment needs loaded, cleared and
//! stored per bin ([`attachment_ops`], with the clear values packed for
//! GMEM by [`clear_value`]), and whether the pass is rendered in bins or
//! straight to memory ([`render_mode`]). The command stream that follows
//! from them is `cmd::gmem_pass`.

pub mod attachment_ops;
pub mod bin_layout;
pub mod clear_value;
pub mod gmem_layout;
pub mod render_mode;

use ash::vk;

use crate::formats::Format;
use crate::framebuffer::Framebuffer;
use crate::gpu_info::GpuInfo;
use crate::render_pass::RenderPass;
use bin_layout::BinLayout;
use gmem_layout::{GmemAttachment, GmemLayout};

/// A pass's GMEM layout and bins, for its framebuffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassTiling {
    pub gmem: GmemLayout,
    pub bins: BinLayout,
}

/// Bytes a pixel of `format` takes in GMEM with `samples` samples, or why
/// it cannot be there.
fn gmem_bytes_per_pixel(format: &Format, samples: u32) -> Result<u32, String> {
    match format.vk {
        // Two planes: the depth and a separate 8-bit stencil, which would
        // need a GMEM surface of its own (RB_STENCIL_BUFFER_BASE_GMEM).
        vk::Format::D32_SFLOAT_S8_UINT | vk::Format::S8_UINT => Err(format!(
            "{:?} attachments (separate stencil) are not laid out in GMEM yet",
            format.vk
        )),
        _ => Ok(format.bytes * samples),
    }
}

/// Whether subpass attachments of `pass` use attachment `index`.
fn used(pass: &RenderPass, index: u32) -> bool {
    pass.desc.subpasses.iter().any(|s| {
        s.colors
            .iter()
            .chain(&s.inputs)
            .chain(s.depth_stencil.iter())
            .any(|r| r.attachment == Some(index))
    })
}

impl PassTiling {
    /// The tiling of `pass` over `framebuffer` on `gpu`, with at least
    /// `min_bins` bins across and down where the alignment allows; or why
    /// the pass cannot be rendered in GMEM.
    pub fn new(
        gpu: &GpuInfo,
        pass: &RenderPass,
        framebuffer: &Framebuffer,
        min_bins: u32,
    ) -> Result<PassTiling, String> {
        if framebuffer.layers > 1 {
            return Err(format!(
                "a framebuffer of {} layers: layered rendering in bins is not built",
                framebuffer.layers
            ));
        }
        let subpasses = &pass.desc.subpasses;
        if subpasses
            .iter()
            .any(|s| s.resolves.iter().any(|r| r.attachment.is_some()))
        {
            return Err("resolve attachments are not resolved from GMEM yet".to_string());
        }
        if subpasses.iter().any(|s| s.view_mask != 0) {
            // Their draws run once per view, each programming its view's
            // layer in memory (cmd/draw.rs), which bins do not lay out.
            return Err("multiview passes are rendered a view at a time in memory".to_string());
        }
        if subpasses.iter().any(|s| !s.inputs.is_empty()) {
            // Their descriptors read memory, which holds none of what the
            // bin drew until its store.
            return Err("input attachments are read from memory, not yet from GMEM".to_string());
        }
        let mut attachments = Vec::with_capacity(pass.desc.attachments.len());
        for (i, a) in pass.desc.attachments.iter().enumerate() {
            if !used(pass, i as u32) {
                attachments.push(None);
                continue;
            }
            let view = &framebuffer.attachments[i];
            let bytes_per_pixel = gmem_bytes_per_pixel(view.format, a.samples.as_raw())?;
            attachments.push(Some(GmemAttachment { bytes_per_pixel }));
        }
        let gmem = GmemLayout::new(gpu.entry, &attachments).map_err(|e| e.0)?;
        let bins = BinLayout::new(
            gpu.entry,
            &gmem,
            framebuffer.width,
            framebuffer.height,
            min_bins,
        )?;
        Ok(PassTiling { gmem, bins })
    }
}
