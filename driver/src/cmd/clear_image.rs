//! `vkCmdClearColorImage` and `vkCmdClearDepthStencilImage`: one solid
//! colour 2D blit (RB_2D_BLIT_CNTL.SOLID_COLOR with RB_2D_SRC_SOLID_C0..3)
//! per level and layer of each range, as Turnip clears outside render
//! passes.
//!
//! The solid colour is given in the blit's intermediate format (Turnip's
//! `r2d_clear_value`): UNORM8 takes 8-bit values per component (sRGB
//! encoded for sRGB formats, SNORM scaled by 127), FLOAT16 half floats,
//! and FLOAT32 and the integer formats the 32-bit values as they are.
//! Depth goes through FLOAT32 as the float depth, stencil through INT8.

use std::sync::Arc;

use ash::vk;
use parsnip_compiler::ir::eval::f32_to_f16;
use parsnip_registers::enums::{A3xxColorSwap, A6xx2dIfmt, A6xxFormat, A6xxRotation};

use super::blit2d::{Aspects, Blit, DstKind, Source};
use super::buffer::Recording;
use super::copy_image::urect;
use super::image_surface::{self, image_surface, raw_format, render_format, BlitFormat};
use crate::error::VkResult;
use crate::formats::{self, Class, Format};
use crate::image::{multisample, Image};

/// The sRGB encoding of a linear value in [0, 1].
pub fn linear_to_srgb(v: f32) -> f32 {
    let v = v.clamp(0.0, 1.0);
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// The solid colour for `value` in `fmt` of a `class` format.
pub fn pack_color(value: &vk::ClearColorValue, fmt: &BlitFormat, class: Class) -> [u32; 4] {
    // SAFETY: reading a union's bytes as the type the format gives them.
    let (floats, uints) = unsafe { (value.float32, value.uint32) };
    let mut out = [0u32; 4];
    for i in 0..4 {
        out[i] = match fmt.ifmt {
            A6xx2dIfmt::R2D_UNORM8 | A6xx2dIfmt::R2D_UNORM8_SRGB => {
                let v = if class == Class::Srgb && i < 3 {
                    linear_to_srgb(floats[i])
                } else {
                    floats[i]
                };
                if class == Class::Snorm {
                    (v.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i32 as u32
                } else {
                    (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32
                }
            }
            A6xx2dIfmt::R2D_FLOAT16 => u32::from(f32_to_f16(floats[i])),
            _ => uints[i],
        };
    }
    out
}

/// The inclusive blit rectangle of `area` on a `width` x `height`
/// surface (the whole surface without one), or `None` if nothing of it is
/// on the surface.
fn clip(area: Option<vk::Rect2D>, width: u32, height: u32) -> Option<[u32; 4]> {
    let Some(a) = area else {
        return Some(urect(0, 0, width, height));
    };
    let x0 = a.offset.x.max(0) as u32;
    let y0 = a.offset.y.max(0) as u32;
    let x1 = (i64::from(a.offset.x) + i64::from(a.extent.width)).min(i64::from(width));
    let y1 = (i64::from(a.offset.y) + i64::from(a.extent.height)).min(i64::from(height));
    if x1 <= i64::from(x0) || y1 <= i64::from(y0) {
        return None;
    }
    Some([x0, y0, x1 as u32 - 1, y1 as u32 - 1])
}

/// The format and solid colour that clear a `samples`-sample surface of
/// `f` (cleared as `fmt` to `solid`) as the single-sampled surface of its
/// whole texels (see `image::multisample`): the raw integer format of
/// their size, and the element repeated once per sample.
fn multisampled_solid(
    f: &Format,
    fmt: &BlitFormat,
    solid: [u32; 4],
    samples: u32,
) -> Option<(BlitFormat, [u32; 4])> {
    let element = multisample::element_bytes(f, fmt.hw, fmt.ifmt, solid)?;
    let texel = element.repeat(samples as usize);
    let raw = raw_format(texel.len() as u32)?;
    let mut out = [0u32; 4];
    if texel.len() == 2 {
        out[0] = u32::from(u16::from_le_bytes([texel[0], texel[1]]));
    } else {
        for (o, w) in out.iter_mut().zip(texel.chunks_exact(4)) {
            *o = u32::from_le_bytes(w.try_into().expect("four bytes"));
        }
    }
    Some((raw, out))
}

/// A D24S8 (or X8_D24) texel as the 2D engine writes it: through its
/// R8G8B8A8 view, the 24-bit depth in R (low byte), G and B, the stencil
/// in A, in UNORM8 (each value the byte it is), as Turnip clears Z24S8.
const Z24S8_AS_RGBA8: BlitFormat = BlitFormat {
    hw: A6xxFormat::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8,
    swap: A3xxColorSwap::WZYX,
    ifmt: A6xx2dIfmt::R2D_UNORM8,
    kind: DstKind::Float,
    srgb: false,
    bytes: 4,
};

/// The solid colour of a D24S8 clear to `depth` and `stencil`.
fn z24s8_colour(depth: f32, stencil: u32) -> [u32; 4] {
    let z = (f64::from(depth.clamp(0.0, 1.0)) * f64::from(0xff_ffffu32)).round() as u32;
    [z & 0xff, z >> 8 & 0xff, z >> 16 & 0xff, stencil & 0xff]
}

/// Each clear of `mask`'s aspects of `image`: the aspect whose plane it
/// writes, the format it writes it in, the solid colour and which
/// components of a shared texel it writes. D24S8's two aspects share a
/// texel: one blit writes both, or one of them through the RB's aspect
/// mask.
#[allow(clippy::type_complexity)]
fn aspect_clears(
    image: &Image,
    mask: vk::ImageAspectFlags,
    colour: &impl Fn(vk::ImageAspectFlags, &BlitFormat) -> [u32; 4],
    command: &str,
) -> VkResult<Vec<(vk::ImageAspectFlags, BlitFormat, [u32; 4], Aspects)>> {
    use vk::ImageAspectFlags as A;
    let mut out = Vec::new();
    if image.plane(A::DEPTH).format.hw == A6xxFormat::FMT6_Z24_UNORM_S8_UINT
        && image.format.is_depth_or_stencil()
    {
        let (depth, stencil) = (mask.contains(A::DEPTH), mask.contains(A::STENCIL));
        let fmt = Z24S8_AS_RGBA8;
        let z = f32::from_bits(colour(A::DEPTH, &fmt)[0]);
        let s = colour(A::STENCIL, &fmt)[0];
        let has_stencil = image.format.aspects().contains(A::STENCIL);
        let aspects = match (depth, stencil) {
            // X8_D24's X byte is undefined: all of the texel is written.
            (true, true) => Aspects::All,
            (true, false) if !has_stencil => Aspects::All,
            (true, false) => Aspects::Depth,
            (false, true) => Aspects::Stencil,
            (false, false) => return Ok(out),
        };
        out.push((A::DEPTH, fmt, z24s8_colour(z, s), aspects));
        return Ok(out);
    }
    for aspect in [A::COLOR, A::DEPTH, A::STENCIL] {
        if !mask.contains(aspect) {
            continue;
        }
        let f = image.plane(aspect).format;
        let f = if aspect == A::STENCIL {
            formats::format(vk::Format::S8_UINT).expect("S8 in the table")
        } else {
            f
        };
        let Some(fmt) = render_format(f) else {
            eprintln!(
                "parsnip: {command}: {:?} cannot be cleared",
                image.desc.format
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        let c = colour(aspect, &fmt);
        out.push((aspect, fmt, c, Aspects::All));
    }
    Ok(out)
}

impl Recording {
    /// The blits clearing `ranges` of `image`, each within `area` if given
    /// (a render area or an attachment clear's rectangle).
    pub(super) fn clear_blits(
        &self,
        image: &Image,
        ranges: &[vk::ImageSubresourceRange],
        area: Option<vk::Rect2D>,
        command: &str,
        colour: impl Fn(vk::ImageAspectFlags, &BlitFormat) -> [u32; 4],
    ) -> VkResult<Vec<Blit>> {
        image_surface::bound(image, command)?;
        let mut blits = Vec::new();
        for r in ranges {
            let (levels, layers) = image.range_counts(r);
            if r.base_mip_level + levels > image.desc.levels
                || r.base_array_layer + layers > image.desc.layers
                || !image.format.aspects().contains(r.aspect_mask)
            {
                eprintln!("parsnip: {command}: range {r:?} is outside the image");
                return Err(vk::Result::ERROR_UNKNOWN);
            }
            for (aspect, fmt, c, aspects) in aspect_clears(image, r.aspect_mask, &colour, command)?
            {
                let samples = image.desc.samples;
                let (fmt, c) = if samples > 1 {
                    let f = if aspect == vk::ImageAspectFlags::STENCIL {
                        formats::format(vk::Format::S8_UINT).expect("S8 in the table")
                    } else {
                        image.plane(aspect).format
                    };
                    let Some(alias) = multisampled_solid(f, &fmt, c, samples) else {
                        eprintln!(
                            "parsnip: {command}: {:?} with {samples} samples cannot be cleared",
                            image.desc.format
                        );
                        return Err(vk::Result::ERROR_UNKNOWN);
                    };
                    alias
                } else {
                    (fmt, c)
                };
                for level in r.base_mip_level..r.base_mip_level + levels {
                    let depth = (image.desc.extent.depth >> level).max(1);
                    let slices = if image.desc.image_type == vk::ImageType::TYPE_3D {
                        0..depth
                    } else {
                        r.base_array_layer..r.base_array_layer + layers
                    };
                    for layer in slices {
                        let mut d = image_surface(image, aspect, level, layer, &fmt, None);
                        // A multisampled level as the single-sampled
                        // surface of its whole texels.
                        d.samples = 1;
                        let Some(dst_rect) = clip(area, d.width, d.height) else {
                            continue;
                        };
                        blits.push(Blit {
                            src: Source::Solid(c),
                            dst_rect,
                            dst: d,
                            ifmt: fmt.ifmt,
                            kind: fmt.kind,
                            rotate: A6xxRotation::ROTATE_0,
                            aspects,
                        });
                    }
                }
            }
        }
        Ok(blits)
    }

    /// `vkCmdClearColorImage`.
    pub fn clear_color_image(
        &mut self,
        image: &Arc<Image>,
        value: &vk::ClearColorValue,
        ranges: &[vk::ImageSubresourceRange],
    ) -> VkResult<()> {
        if image.format.is_depth_or_stencil() || image.format.is_compressed() {
            eprintln!(
                "parsnip: vkCmdClearColorImage: {:?} is not a colour format",
                image.desc.format
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let class = image.format.class;
        let blits = self.clear_blits(image, ranges, None, "vkCmdClearColorImage", |_, fmt| {
            pack_color(value, fmt, class)
        })?;
        self.keep(image.clone());
        self.run_blits(&blits)
    }

    /// `vkCmdClearDepthStencilImage`.
    pub fn clear_depth_stencil_image(
        &mut self,
        image: &Arc<Image>,
        value: &vk::ClearDepthStencilValue,
        ranges: &[vk::ImageSubresourceRange],
    ) -> VkResult<()> {
        if !image.format.is_depth_or_stencil() {
            eprintln!(
                "parsnip: vkCmdClearDepthStencilImage: {:?} is not a depth/stencil format",
                image.desc.format
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let blits = self.clear_blits(
            image,
            ranges,
            None,
            "vkCmdClearDepthStencilImage",
            |aspect, _| {
                if aspect == vk::ImageAspectFlags::STENCIL {
                    [value.stencil, 0, 0, 0]
                } else {
                    [value.depth.to_bits(), 0, 0, 0]
                }
            },
        )?;
        self.keep(image.clone());
        self.run_blits(&blits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_area_is_clipped_to_the_surface() {
        let rect = |x, y, w, h| vk::Rect2D {
            offset: vk::Offset2D { x, y },
            extent: vk::Extent2D {
                width: w,
                height: h,
            },
        };
        assert_eq!(clip(None, 16, 8), Some([0, 0, 15, 7]));
        assert_eq!(clip(Some(rect(2, 3, 4, 2)), 16, 8), Some([2, 3, 5, 4]));
        assert_eq!(
            clip(Some(rect(10, 6, 100, 100)), 16, 8),
            Some([10, 6, 15, 7])
        );
        assert_eq!(clip(Some(rect(16, 0, 4, 4)), 16, 8), None);
    }
    use crate::cmd::image_surface::copy_format;
    use crate::formats::format;

    #[test]
    fn colours_are_packed_for_the_intermediate_format() {
        let v = vk::ClearColorValue {
            float32: [0.1, 0.2, 0.3, 1.0],
        };
        // The triangle workload clears RGBA8 to (0.1, 0.2, 0.3, 1.0);
        // lavapipe's result (triangle_lvp.ppm) holds 26, 51, 76 there:
        // 0.3 * 255 is 76.5 in f32, rounded to even.
        let rgba = render_format(format(vk::Format::R8G8B8A8_UNORM).unwrap()).unwrap();
        assert_eq!(pack_color(&v, &rgba, Class::Unorm), [26, 51, 76, 255]);
        // sRGB: 0.1 encodes to 0.349 → 89.
        let srgb = render_format(format(vk::Format::R8G8B8A8_SRGB).unwrap()).unwrap();
        assert_eq!(pack_color(&v, &srgb, Class::Srgb)[0], 89);
        let h = render_format(format(vk::Format::R16G16B16A16_SFLOAT).unwrap()).unwrap();
        assert_eq!(pack_color(&v, &h, Class::Sfloat)[3], 0x3c00);
        let u = vk::ClearColorValue {
            uint32: [7, 0xffff_ffff, 3, 1],
        };
        let r32 = copy_format(format(vk::Format::R32G32B32A32_UINT).unwrap()).unwrap();
        assert_eq!(pack_color(&u, &r32, Class::Uint), [7, 0xffff_ffff, 3, 1]);
        let s = vk::ClearColorValue {
            float32: [-1.0, 0.5, 0.0, 1.0],
        };
        let snorm = render_format(format(vk::Format::R8G8B8A8_SNORM).unwrap()).unwrap();
        assert_eq!(
            pack_color(&s, &snorm, Class::Snorm),
            [(-127i32) as u32, 64, 0, 127]
        );
    }
}
