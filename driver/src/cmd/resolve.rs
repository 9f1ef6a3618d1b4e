//! Multisample resolves through the 2D engine: `vkCmdResolveImage`, and
//! the resolve attachments of a render pass's subpasses.
//!
//! A resolve is a 2D blit whose source is the multisampled surface
//! (SP_PS_2D_SRC_INFO.SAMPLES) with SAMPLES_AVERAGE set for non-integer
//! formats, into the single-sampled destination at 1:1 scale, as Turnip
//! resolves in sysmem (`tu_clear_blit.cc`: its r2d resolves, the source
//! view's SAMPLES_AVERAGE). Integer formats take sample 0, which Vulkan
//! allows ("a single sample's value is selected").
//!
//! A render pass resolves at its end, where how it was rendered is known
//! (see `pass`): in sysmem after the draws, once the RB's colour writes
//! are flushed from the CCU and the caches the 2D engine's source reads
//! through are invalidated, with the GPU idle (Turnip's sysmem resolves
//! clean the CCU, invalidate and wait for idle first); a GMEM pass would
//! resolve at tile store time.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::A6xxRotation;

use super::blit2d::{Aspects, Blit, Source};
use super::buffer::Recording;
use super::cache::CacheOps;
use super::copy_image::{rect_of, urect};
use super::image_surface::{self, image_surface, render_format, sample_format};
use crate::error::VkResult;
use crate::framebuffer::Framebuffer;
use crate::image::Image;
use crate::render_pass::{layer_ranges, RenderPass};

fn invalid(command: &str, what: String) -> vk::Result {
    eprintln!("parsnip: {command}: {what}");
    vk::Result::ERROR_UNKNOWN
}

/// One rectangle of one layer of a colour resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolveRegion {
    pub src_level: u32,
    pub src_layer: u32,
    pub src_offset: [u32; 2],
    pub dst_level: u32,
    pub dst_layer: u32,
    pub dst_offset: [u32; 2],
    pub extent: [u32; 2],
}

/// The blit resolving `r` of `src` into `dst`; `None` for an empty one.
pub fn resolve_blit(
    src: &Image,
    dst: &Image,
    r: &ResolveRegion,
    command: &str,
) -> VkResult<Option<Blit>> {
    let color = vk::ImageAspectFlags::COLOR;
    let (sf, df) = (src.format, dst.format);
    if sf.is_depth_or_stencil() || df.is_depth_or_stencil() {
        return Err(invalid(
            command,
            "depth/stencil resolves are not built".into(),
        ));
    }
    if src.desc.samples < 2 || dst.desc.samples != 1 {
        return Err(invalid(
            command,
            format!(
                "a resolve of {} samples into {}",
                src.desc.samples, dst.desc.samples
            ),
        ));
    }
    let Some(d_fmt) = render_format(df) else {
        return Err(invalid(
            command,
            format!("{:?} is not a 2D engine destination", df.vk),
        ));
    };
    if r.src_level >= src.desc.levels
        || r.dst_level >= dst.desc.levels
        || r.src_layer >= src.desc.layers
        || r.dst_layer >= dst.desc.layers
    {
        return Err(invalid(command, format!("{r:?} is outside the images")));
    }
    let s = image_surface(
        src,
        color,
        r.src_level,
        r.src_layer,
        &sample_format(sf),
        None,
    );
    let d = image_surface(dst, color, r.dst_level, r.dst_layer, &d_fmt, None);
    let [w, h] = r.extent;
    let [sx, sy] = r.src_offset;
    let [dx, dy] = r.dst_offset;
    if w == 0 || h == 0 {
        return Ok(None);
    }
    if sx + w > s.width || sy + h > s.height || dx + w > d.width || dy + h > d.height {
        return Err(invalid(command, format!("{r:?} is past the levels")));
    }
    Ok(Some(Blit {
        src: Source::Surface {
            surface: s,
            rect: rect_of(sx, sy, w, h),
            filter: false,
        },
        dst: d,
        dst_rect: urect(dx, dy, w, h),
        ifmt: d_fmt.ifmt,
        kind: d_fmt.kind,
        rotate: A6xxRotation::ROTATE_0,
        aspects: Aspects::All,
    }))
}

/// The resolves of every subpass of `pass` over `area`, in subpass order:
/// each colour attachment into its resolve attachment, every layer of the
/// framebuffer.
pub fn pass_resolves(
    pass: &RenderPass,
    framebuffer: &Framebuffer,
    area: vk::Rect2D,
) -> VkResult<Vec<Blit>> {
    let command = "vkCmdEndRenderPass";
    let x0 = area.offset.x.max(0) as u32;
    let y0 = area.offset.y.max(0) as u32;
    let x1 = (area.offset.x.max(0) as u32 + area.extent.width).min(framebuffer.width);
    let y1 = (area.offset.y.max(0) as u32 + area.extent.height).min(framebuffer.height);
    let mut blits = Vec::new();
    if x1 <= x0 || y1 <= y0 {
        return Ok(blits);
    }
    for sub in &pass.desc.subpasses {
        for (c, r) in sub.colors.iter().zip(&sub.resolves) {
            let (Some(c), Some(r)) = (c.attachment, r.attachment) else {
                continue;
            };
            let src = &framebuffer.attachments[c as usize];
            let dst = &framebuffer.attachments[r as usize];
            let layers = layer_ranges(sub.view_mask, framebuffer.layers);
            for layer in layers.iter().flat_map(|&(first, n)| first..first + n) {
                let region = ResolveRegion {
                    src_level: src.desc.range.base_mip_level,
                    src_layer: src.desc.range.base_array_layer + layer,
                    src_offset: [x0, y0],
                    dst_level: dst.desc.range.base_mip_level,
                    dst_layer: dst.desc.range.base_array_layer + layer,
                    dst_offset: [x0, y0],
                    extent: [x1 - x0, y1 - y0],
                };
                blits.extend(resolve_blit(&src.image, &dst.image, &region, command)?);
            }
        }
    }
    Ok(blits)
}

/// Whether a pass's resolves may all run at its end: no subpass after one
/// that resolves touches the attachments it resolves from or to (else the
/// resolve would have to run between them).
pub fn resolves_fit_the_end(pass: &RenderPass) -> bool {
    let subs = &pass.desc.subpasses;
    subs.iter().enumerate().all(|(i, s)| {
        let resolved: Vec<u32> = s
            .colors
            .iter()
            .zip(&s.resolves)
            .filter(|(_, r)| r.attachment.is_some())
            .flat_map(|(c, r)| [c.attachment, r.attachment])
            .flatten()
            .collect();
        subs[i + 1..].iter().all(|later| {
            let uses = later
                .inputs
                .iter()
                .chain(&later.colors)
                .chain(&later.resolves)
                .chain(&later.depth_stencil)
                .filter_map(|r| r.attachment);
            uses.into_iter().all(|a| !resolved.contains(&a))
        })
    })
}

impl Recording {
    /// Runs `resolves` after the draws before them: the RB's colour writes
    /// flushed from the CCU, the caches the 2D engine reads through
    /// invalidated, the GPU idle.
    pub(super) fn run_resolves(&mut self, resolves: &[Blit]) -> VkResult<()> {
        if resolves.is_empty() {
            return Ok(());
        }
        self.pending = self.pending.union(CacheOps {
            wait_for_idle: true,
            invalidate: true,
            ccu_flush_color: true,
            ..Default::default()
        });
        self.run_blits(resolves)
    }

    /// `vkCmdResolveImage` (and `2`).
    pub fn resolve_image(
        &mut self,
        src: &Arc<Image>,
        dst: &Arc<Image>,
        regions: &[vk::ImageResolve],
    ) -> VkResult<()> {
        let command = "vkCmdResolveImage";
        image_surface::bound(src, command)?;
        image_surface::bound(dst, command)?;
        let mut blits = Vec::new();
        for r in regions {
            let (s, d) = (&r.src_subresource, &r.dst_subresource);
            let color = vk::ImageAspectFlags::COLOR;
            if s.aspect_mask != color || d.aspect_mask != color || s.layer_count != d.layer_count {
                return Err(invalid(command, format!("region {r:?}")));
            }
            let (so, dof) = (r.src_offset, r.dst_offset);
            if so.x < 0 || so.y < 0 || dof.x < 0 || dof.y < 0 || so.z != 0 || dof.z != 0 {
                return Err(invalid(command, format!("offsets of {r:?}")));
            }
            let layers = if s.layer_count == vk::REMAINING_ARRAY_LAYERS {
                src.desc.layers.saturating_sub(s.base_array_layer)
            } else {
                s.layer_count
            };
            for i in 0..layers {
                let region = ResolveRegion {
                    src_level: s.mip_level,
                    src_layer: s.base_array_layer + i,
                    src_offset: [so.x as u32, so.y as u32],
                    dst_level: d.mip_level,
                    dst_layer: d.base_array_layer + i,
                    dst_offset: [dof.x as u32, dof.y as u32],
                    extent: [r.extent.width, r.extent.height],
                };
                blits.extend(resolve_blit(src, dst, &region, command)?);
            }
        }
        self.keep(src.clone());
        self.keep(dst.clone());
        self.run_blits(&blits)
    }
}
