//! `vkCmdCopyBufferToImage`, `vkCmdCopyImageToBuffer` and `vkCmdCopyImage`
//! (and their `2` forms, which the ICD turns into these): one 2D engine
//! blit per layer (or 3D slice) and region, unscaled, in a format whose
//! path through the engine keeps every bit (see `image_surface`).
//!
//! Buffer rows the engine cannot address in one blit (a base or pitch not
//! 64-byte aligned, where the engine needs it) are blitted row by row.
//! Compressed images are copied in texel blocks, multisampled ones as
//! the raw bits of all their samples (see `image::multisample`).

use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::{A3xxColorSwap, A6xxRotation, A6xxTileMode};

use super::blit2d::{self, Aspects, Blit, Source, Surface};
use super::buffer::Recording;
use super::image_surface::{
    self, buffer_pieces, copy_format, image_surface, raw_format, BlitFormat, BufferRect,
};
use super::packets::PacketWriter;
use crate::buffer::Buffer;
use crate::error::VkResult;
use crate::formats::Format;
use crate::image::Image;

/// A region of a buffer-image copy (`VkBufferImageCopy`).
pub type BufferImageCopy = vk::BufferImageCopy;

fn invalid(command: &str, what: String) -> vk::Result {
    eprintln!("parsnip: {command}: {what}");
    vk::Result::ERROR_UNKNOWN
}

/// The format of the plane of `image` that `aspect` names.
fn plane_format(image: &Image, aspect: vk::ImageAspectFlags) -> &'static Format {
    image.plane(aspect).format
}

/// Checks a subresource and returns its layers (or slices for 3D).
fn layers_of(
    image: &Image,
    sub: &vk::ImageSubresourceLayers,
    depth: u32,
    command: &str,
) -> VkResult<u32> {
    let aspects = image.format.aspects();
    let one_aspect = sub.aspect_mask.as_raw().count_ones() == 1;
    if !aspects.contains(sub.aspect_mask) || !one_aspect {
        return Err(invalid(
            command,
            format!(
                "aspect {:?} of a {:?} image",
                sub.aspect_mask, image.desc.format
            ),
        ));
    }
    if sub.mip_level >= image.desc.levels {
        return Err(invalid(command, format!("level {}", sub.mip_level)));
    }
    let count = if sub.layer_count == vk::REMAINING_ARRAY_LAYERS {
        image.desc.layers.saturating_sub(sub.base_array_layer)
    } else {
        sub.layer_count
    };
    if sub.base_array_layer + count > image.desc.layers {
        return Err(invalid(
            command,
            format!("layers {}+{count}", sub.base_array_layer),
        ));
    }
    Ok(if image.desc.image_type == vk::ImageType::TYPE_3D {
        depth
    } else {
        count
    })
}

/// The image-side rectangle of a region, in texel blocks, checked against
/// the level.
fn block_rect(
    image: &Image,
    aspect: vk::ImageAspectFlags,
    level: u32,
    offset: vk::Offset3D,
    extent: vk::Extent3D,
    command: &str,
) -> VkResult<[u32; 4]> {
    let f = plane_format(image, aspect);
    let [bw, bh] = f.block;
    let lv = &image.plane(aspect).layout.levels[level as usize];
    let (w, h) = (
        (image.desc.extent.width >> level).max(1),
        (image.desc.extent.height >> level).max(1),
    );
    let depth = (image.desc.extent.depth >> level).max(1);
    let ok = extent.width > 0
        && extent.height > 0
        && extent.depth > 0
        && offset.x >= 0
        && offset.y >= 0
        && offset.z >= 0
        // A compressed region may end in the partial blocks at the edge
        // (an extent converted from another block size reaches past it).
        && offset.x as u32 + extent.width <= w.next_multiple_of(bw)
        && offset.y as u32 + extent.height <= h.next_multiple_of(bh)
        && offset.z as u32 + extent.depth <= depth
        && (offset.x as u32).is_multiple_of(bw)
        && (offset.y as u32).is_multiple_of(bh);
    if !ok {
        return Err(invalid(
            command,
            format!("{offset:?} {extent:?} is outside level {level} ({w}x{h}x{depth}) or not block aligned"),
        ));
    }
    let x = offset.x as u32 / bw;
    let y = offset.y as u32 / bh;
    let bw_n = extent.width.div_ceil(bw).min(lv.width - x);
    let bh_n = extent.height.div_ceil(bh).min(lv.height - y);
    Ok([x, y, bw_n, bh_n])
}

impl Recording {
    /// Emits `blits` after what barriers left owed.
    pub(super) fn run_blits(&mut self, blits: &[Blit]) -> VkResult<()> {
        self.flush_pending()?;
        let mut w = PacketWriter::new(self.device.gpu.chip());
        for b in blits {
            blit2d::emit(&mut w, b)?;
        }
        self.cs.append(&w)
    }

    /// `vkCmdCopyBufferToImage`.
    pub fn copy_buffer_to_image(
        &mut self,
        src: &Arc<Buffer>,
        dst: &Arc<Image>,
        regions: &[BufferImageCopy],
    ) -> VkResult<()> {
        let blits = self.buffer_image_blits(src, dst, regions, true)?;
        self.keep(src.clone());
        self.keep(dst.clone());
        self.run_blits(&blits)
    }

    /// `vkCmdCopyImageToBuffer`.
    pub fn copy_image_to_buffer(
        &mut self,
        src: &Arc<Image>,
        dst: &Arc<Buffer>,
        regions: &[BufferImageCopy],
    ) -> VkResult<()> {
        let blits = self.buffer_image_blits(dst, src, regions, false)?;
        self.keep(src.clone());
        self.keep(dst.clone());
        self.run_blits(&blits)
    }

    fn buffer_image_blits(
        &self,
        buffer: &Buffer,
        image: &Image,
        regions: &[BufferImageCopy],
        to_image: bool,
    ) -> VkResult<Vec<Blit>> {
        let command = if to_image {
            "vkCmdCopyBufferToImage"
        } else {
            "vkCmdCopyImageToBuffer"
        };
        image_surface::bound(image, command)?;
        if image.desc.samples != 1 {
            // Valid usage: buffer copies are of single-sampled images.
            return Err(invalid(command, "a multisampled image".into()));
        }
        let chip = self.device.gpu.chip();
        let mut blits = Vec::new();
        for r in regions {
            let sub = &r.image_subresource;
            let layers = layers_of(image, sub, r.image_extent.depth, command)?;
            let f = plane_format(image, sub.aspect_mask);
            let Some(fmt) = copy_format(f) else {
                return Err(invalid(
                    command,
                    format!("{:?} cannot be copied", image.desc.format),
                ));
            };
            let level = sub.mip_level;
            let [x, y, w, h] = block_rect(
                image,
                sub.aspect_mask,
                level,
                r.image_offset,
                r.image_extent,
                command,
            )?;
            let [bw, bh] = f.block;
            let row_texels = if r.buffer_row_length == 0 {
                r.image_extent.width
            } else {
                r.buffer_row_length
            };
            let rows = if r.buffer_image_height == 0 {
                r.image_extent.height
            } else {
                r.buffer_image_height
            };
            let pitch = row_texels.div_ceil(bw) * fmt.bytes;
            let layer_bytes = u64::from(rows.div_ceil(bh)) * u64::from(pitch);
            if row_texels < r.image_extent.width || rows < r.image_extent.height {
                return Err(invalid(command, format!("buffer rows shorter than {r:?}")));
            }
            let last = r.buffer_offset
                + layer_bytes * u64::from(layers.max(1) - 1)
                + u64::from(h.max(1) - 1) * u64::from(pitch)
                + u64::from(w * fmt.bytes);
            if last > buffer.size || !r.buffer_offset.is_multiple_of(u64::from(fmt.bytes)) {
                return Err(invalid(
                    command,
                    format!(
                        "region {r:?} does not fit the {}-byte buffer or is misaligned",
                        buffer.size
                    ),
                ));
            }
            let z0 = r.image_offset.z.max(0) as u32;
            for i in 0..layers {
                let layer = if image.desc.image_type == vk::ImageType::TYPE_3D {
                    z0 + i
                } else {
                    sub.base_array_layer + i
                };
                let surface = image_surface(image, sub.aspect_mask, level, layer, &fmt, None);
                let rect = BufferRect {
                    iova: buffer.iova(r.buffer_offset + layer_bytes * u64::from(i)),
                    pitch,
                    width: w,
                    height: h,
                };
                for p in buffer_pieces(&rect, fmt.bytes, chip, to_image) {
                    let linear = Surface {
                        iova: p.base,
                        pitch: p.pitch,
                        format: fmt.hw,
                        swap: fmt.swap,
                        tile_mode: A6xxTileMode::TILE6_LINEAR,
                        srgb: false,
                        flags: None,
                        width: p.x + w,
                        height: p.rows,
                        buffer: true,
                        samples: 1,
                    };
                    let (img_y, buf_y) = (y + p.first_row, 0);
                    blits.push(if to_image {
                        Blit {
                            src: Source::Surface {
                                surface: linear,
                                rect: rect_of(p.x, buf_y, w, p.rows),
                                filter: false,
                            },
                            dst: surface,
                            dst_rect: urect(x, img_y, w, p.rows),
                            ifmt: fmt.ifmt,
                            kind: fmt.kind,
                            rotate: A6xxRotation::ROTATE_0,
                            aspects: Aspects::All,
                        }
                    } else {
                        Blit {
                            src: Source::Surface {
                                surface,
                                rect: rect_of(x, img_y, w, p.rows),
                                filter: false,
                            },
                            dst: linear,
                            dst_rect: urect(p.x, buf_y, w, p.rows),
                            ifmt: fmt.ifmt,
                            kind: fmt.kind,
                            rotate: A6xxRotation::ROTATE_0,
                            aspects: Aspects::All,
                        }
                    });
                }
            }
        }
        Ok(blits)
    }

    /// `vkCmdCopyImage`.
    pub fn copy_image(
        &mut self,
        src: &Arc<Image>,
        dst: &Arc<Image>,
        regions: &[vk::ImageCopy],
    ) -> VkResult<()> {
        let command = "vkCmdCopyImage";
        image_surface::bound(src, command)?;
        image_surface::bound(dst, command)?;
        let samples = src.desc.samples;
        if dst.desc.samples != samples {
            return Err(invalid(
                command,
                format!("{samples} samples to {}", dst.desc.samples),
            ));
        }
        let mut blits = Vec::new();
        for r in regions {
            let sf = plane_format(src, r.src_subresource.aspect_mask);
            let df = plane_format(dst, r.dst_subresource.aspect_mask);
            let (Some(s_fmt), Some(d_fmt)) = (copy_format(sf), copy_format(df)) else {
                return Err(invalid(command, format!("{:?} to {:?}", sf.vk, df.vk)));
            };
            if sf.bytes != df.bytes {
                return Err(invalid(
                    command,
                    format!("{:?} and {:?} differ in texel size", sf.vk, df.vk),
                ));
            }
            let (mut fmt, mut src_swap, mut dst_swap) =
                shared_format(src, dst, r, &s_fmt, &d_fmt, sf, df);
            if samples > 1 {
                // Multisampled levels copy as the single-sampled surfaces
                // of their whole texels (see `image::multisample`), every
                // sample's bits moved as they are.
                let Some(raw) = raw_format(sf.bytes * samples) else {
                    return Err(invalid(
                        command,
                        format!("{:?} at {samples} samples", sf.vk),
                    ));
                };
                (fmt, src_swap, dst_swap) = (raw, None, None);
            }
            let s_layers = layers_of(src, &r.src_subresource, r.extent.depth, command)?;
            let d_layers = layers_of(dst, &r.dst_subresource, r.extent.depth, command)?;
            if s_layers != d_layers {
                return Err(invalid(
                    command,
                    format!("{s_layers} source layers to {d_layers} destination layers"),
                ));
            }
            let [sx, sy, w, h] = block_rect(
                src,
                r.src_subresource.aspect_mask,
                r.src_subresource.mip_level,
                r.src_offset,
                r.extent,
                command,
            )?;
            // The destination's extent is the source's in blocks, in the
            // destination's block size.
            let dext = vk::Extent3D {
                width: w * df.block[0],
                height: h * df.block[1],
                depth: r.extent.depth,
            };
            let [dx, dy, _, _] = block_rect(
                dst,
                r.dst_subresource.aspect_mask,
                r.dst_subresource.mip_level,
                r.dst_offset,
                dext,
                command,
            )?;
            for i in 0..s_layers {
                let layer_of = |img: &Image, sub: &vk::ImageSubresourceLayers, z: i32| {
                    if img.desc.image_type == vk::ImageType::TYPE_3D {
                        z.max(0) as u32 + i
                    } else {
                        sub.base_array_layer + i
                    }
                };
                let mut s = image_surface(
                    src,
                    r.src_subresource.aspect_mask,
                    r.src_subresource.mip_level,
                    layer_of(src, &r.src_subresource, r.src_offset.z),
                    &fmt,
                    src_swap,
                );
                let mut d = image_surface(
                    dst,
                    r.dst_subresource.aspect_mask,
                    r.dst_subresource.mip_level,
                    layer_of(dst, &r.dst_subresource, r.dst_offset.z),
                    &fmt,
                    dst_swap,
                );
                (s.samples, d.samples) = (1, 1);
                blits.push(Blit {
                    src: Source::Surface {
                        surface: s,
                        rect: rect_of(sx, sy, w, h),
                        filter: false,
                    },
                    dst: d,
                    dst_rect: urect(dx, dy, w, h),
                    ifmt: fmt.ifmt,
                    kind: fmt.kind,
                    rotate: A6xxRotation::ROTATE_0,
                    aspects: Aspects::All,
                });
            }
        }
        self.keep(src.clone());
        self.keep(dst.clone());
        self.run_blits(&blits)
    }
}

/// The format both sides of an image copy use, and the swaps that make
/// tiled surfaces present their linear byte order when the formats
/// differ. Equal copy formats copy as themselves; otherwise a compressed
/// (UBWC) side's format is used for both, its compression being format
/// specific (Turnip does the same); otherwise the unsigned integer of the
/// texel size moves the bits.
fn shared_format(
    src: &Image,
    dst: &Image,
    r: &vk::ImageCopy,
    s: &BlitFormat,
    d: &BlitFormat,
    sf: &Format,
    df: &Format,
) -> (BlitFormat, Option<A3xxColorSwap>, Option<A3xxColorSwap>) {
    if s.hw == d.hw && s.swap == d.swap {
        return (*s, None, None);
    }
    let ubwc = |img: &Image, sub: &vk::ImageSubresourceLayers| {
        img.plane(sub.aspect_mask).layout.levels[sub.mip_level as usize]
            .ubwc
            .is_some()
    };
    if ubwc(dst, &r.dst_subresource) {
        return (*d, None, None);
    }
    if ubwc(src, &r.src_subresource) {
        return (*s, None, None);
    }
    let raw = raw_format(s.bytes).expect("copyable sizes have a raw format");
    let swap = |f: &Format| {
        if f.is_compressed() {
            A3xxColorSwap::WZYX
        } else {
            f.swap
        }
    };
    (raw, Some(swap(sf)), Some(swap(df)))
}

/// An inclusive source rectangle.
pub fn rect_of(x: u32, y: u32, w: u32, h: u32) -> [i32; 4] {
    [x as i32, y as i32, (x + w) as i32 - 1, (y + h) as i32 - 1]
}

/// An inclusive destination rectangle.
pub fn urect(x: u32, y: u32, w: u32, h: u32) -> [u32; 4] {
    [x, y, x + w - 1, y + h - 1]
}
