//! `vkCmdBlitImage` (and `2`) through the 2D engine: the source rectangle
//! is scaled to the destination's, filtered when asked, mirrored by the
//! engine's rotation (HFLIP/VFLIP/180, Turnip's choice for mirrored
//! blits), converting between the formats through the destination's
//! intermediate format. Resolves are `resolve`'s.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::A6xxRotation;

use super::blit2d::{Aspects, Blit, Source};
use super::buffer::Recording;
use super::copy_image::urect;
use super::image_surface::{self, image_surface, render_format, sample_format};
use crate::error::VkResult;
use crate::image::Image;

fn invalid(what: String) -> vk::Result {
    eprintln!("parsnip: vkCmdBlitImage: {what}");
    vk::Result::ERROR_UNKNOWN
}

/// The low corner, size and whether the pair of offsets is reversed.
fn span(a: i32, b: i32) -> (i32, u32, bool) {
    (a.min(b), a.abs_diff(b), b < a)
}

impl Recording {
    /// `vkCmdBlitImage`.
    pub fn blit_image(
        &mut self,
        src: &Arc<Image>,
        dst: &Arc<Image>,
        regions: &[vk::ImageBlit],
        filter: vk::Filter,
    ) -> VkResult<()> {
        image_surface::bound(src, "vkCmdBlitImage")?;
        image_surface::bound(dst, "vkCmdBlitImage")?;
        if src.desc.samples != 1 || dst.desc.samples != 1 {
            // Valid usage: blits are of single-sampled images (resolves are
            // vkCmdResolveImage's).
            return Err(invalid("a multisampled image".into()));
        }
        if filter == vk::Filter::CUBIC_EXT {
            return Err(invalid("cubic filtering is not offered".into()));
        }
        let color = vk::ImageAspectFlags::COLOR;
        let sf = src.format;
        let df = dst.format;
        let Some(d_fmt) = render_format(df).filter(|_| !df.is_depth_or_stencil()) else {
            return Err(invalid(format!("{:?} is not a blit destination", df.vk)));
        };
        if sf.is_depth_or_stencil() || sf.is_compressed() || !sf.copyable() {
            return Err(invalid(format!("{:?} is not a blit source", sf.vk)));
        }
        let s_fmt = sample_format(sf);
        let mut blits = Vec::new();
        for r in regions {
            for sub in [&r.src_subresource, &r.dst_subresource] {
                if sub.aspect_mask != color {
                    return Err(invalid(format!("aspect {:?}", sub.aspect_mask)));
                }
            }
            let (sx, sw, s_flip_x) = span(r.src_offsets[0].x, r.src_offsets[1].x);
            let (sy, sh, s_flip_y) = span(r.src_offsets[0].y, r.src_offsets[1].y);
            let (sz, sd, _) = span(r.src_offsets[0].z, r.src_offsets[1].z);
            let (dx, dw, d_flip_x) = span(r.dst_offsets[0].x, r.dst_offsets[1].x);
            let (dy, dh, d_flip_y) = span(r.dst_offsets[0].y, r.dst_offsets[1].y);
            let (dz, dd, _) = span(r.dst_offsets[0].z, r.dst_offsets[1].z);
            if sw == 0 || sh == 0 || dw == 0 || dh == 0 || sx < 0 || sy < 0 || dx < 0 || dy < 0 {
                continue;
            }
            // 3D depth scaling samples between slices: only the 3D path
            // (a draw sampling a 3D texture) can do it.
            let s_layers = if src.desc.image_type == vk::ImageType::TYPE_3D {
                sd
            } else {
                r.src_subresource.layer_count
            };
            let d_layers = if dst.desc.image_type == vk::ImageType::TYPE_3D {
                dd
            } else {
                r.dst_subresource.layer_count
            };
            if s_layers != d_layers {
                return Err(invalid(format!(
                    "{s_layers} source slices to {d_layers}: depth scaling needs the 3D path"
                )));
            }
            let (slv, dlv) = (r.src_subresource.mip_level, r.dst_subresource.mip_level);
            if slv >= src.desc.levels || dlv >= dst.desc.levels {
                return Err(invalid(format!("levels {slv} and {dlv}")));
            }
            let rotate = match (s_flip_x != d_flip_x, s_flip_y != d_flip_y) {
                (false, false) => A6xxRotation::ROTATE_0,
                (true, false) => A6xxRotation::ROTATE_HFLIP,
                (false, true) => A6xxRotation::ROTATE_VFLIP,
                (true, true) => A6xxRotation::ROTATE_180,
            };
            for i in 0..s_layers {
                let layer = |img: &Image, base: u32, z: i32| {
                    if img.desc.image_type == vk::ImageType::TYPE_3D {
                        z as u32 + i
                    } else {
                        base + i
                    }
                };
                let sl = layer(src, r.src_subresource.base_array_layer, sz);
                let dl = layer(dst, r.dst_subresource.base_array_layer, dz);
                if sl >= src.desc.layers.max(src.desc.extent.depth)
                    || dl >= dst.desc.layers.max(dst.desc.extent.depth)
                {
                    return Err(invalid(format!("layer {sl} or {dl} out of range")));
                }
                let s = image_surface(src, color, slv, sl, &s_fmt, None);
                let d = image_surface(dst, color, dlv, dl, &d_fmt, None);
                let (sx, sy) = (sx as u32, sy as u32);
                if sx + sw > s.width || sy + sh > s.height {
                    return Err(invalid(format!("source rectangle past level {slv}")));
                }
                let (dx, dy) = (dx as u32, dy as u32);
                if dx + dw > d.width || dy + dh > d.height {
                    return Err(invalid(format!("destination rectangle past level {dlv}")));
                }
                blits.push(Blit {
                    src: Source::Surface {
                        surface: s,
                        rect: [
                            sx as i32,
                            sy as i32,
                            (sx + sw) as i32 - 1,
                            (sy + sh) as i32 - 1,
                        ],
                        filter: filter == vk::Filter::LINEAR,
                    },
                    dst: d,
                    dst_rect: urect(dx, dy, dw, dh),
                    ifmt: d_fmt.ifmt,
                    kind: d_fmt.kind,
                    rotate,
                    aspects: Aspects::All,
                });
            }
        }
        self.keep(src.clone());
        self.keep(dst.clone());
        self.run_blits(&blits)
    }
}
