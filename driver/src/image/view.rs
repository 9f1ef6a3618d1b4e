//! `VkImageView`: a range of an image's levels and layers seen through a
//! format and a swizzle, and the texture and storage descriptors that view
//! takes (see `descriptor::encoding::image_view`).
//!
//! Views reinterpret formats within the compatibility the hardware keeps:
//! the same texel size, and for tiled images of formats stored unswapped
//! (see `formats::Format::swap_for`). Depth/stencil views select one plane
//! (D32_SFLOAT_S8_UINT) or its aspect. The component swizzle composes with
//! the format's own: formats without alpha read alpha as 1 (BC1_RGB, the
//! 3-component and E5B9G9R9 formats), as freedreno's `fdl6_format_swiz`
//! does, so border colours still apply before the swizzle.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::A6xxTexSwiz;

use super::Image;
use crate::descriptor::encoding::{self, Descriptor};
use crate::error::VkResult;
use crate::formats::{self, Format};

/// The parts of a view its descriptors depend on.
#[derive(Clone, Copy, Debug)]
pub struct ViewDesc {
    pub view_type: vk::ImageViewType,
    pub format: vk::Format,
    pub components: vk::ComponentMapping,
    pub range: vk::ImageSubresourceRange,
    pub min_lod: f32,
}

pub struct ImageView {
    pub image: Arc<Image>,
    pub desc: ViewDesc,
    pub format: &'static Format,
    pub levels: u32,
    pub layers: u32,
    /// The descriptor a sampled-image or input-attachment binding holds.
    pub texture: Descriptor,
    /// The descriptor a storage-image binding holds (cubes as 2D arrays).
    pub storage: Descriptor,
}

/// The hardware swizzle selecting component `c` of the format, after the
/// format's own (alpha 1 for formats without alpha).
fn swizzle(c: vk::ComponentSwizzle, identity: A6xxTexSwiz, f: &Format) -> A6xxTexSwiz {
    use vk::ComponentSwizzle as C;
    let chosen = match c {
        C::IDENTITY => identity,
        C::R => A6xxTexSwiz::A6XX_TEX_X,
        C::G => A6xxTexSwiz::A6XX_TEX_Y,
        C::B => A6xxTexSwiz::A6XX_TEX_Z,
        C::A => A6xxTexSwiz::A6XX_TEX_W,
        C::ZERO => A6xxTexSwiz::A6XX_TEX_ZERO,
        _ => A6xxTexSwiz::A6XX_TEX_ONE,
    };
    if chosen == A6xxTexSwiz::A6XX_TEX_W && !has_alpha(f) {
        A6xxTexSwiz::A6XX_TEX_ONE
    } else {
        chosen
    }
}

/// Whether the format has an alpha component the texture unit returns
/// (single-, two- and three-component formats return 1 for it anyway,
/// except the ones the hardware reads from a 4-component layout).
fn has_alpha(f: &Format) -> bool {
    !matches!(
        f.vk,
        vk::Format::BC1_RGB_UNORM_BLOCK
            | vk::Format::BC1_RGB_SRGB_BLOCK
            | vk::Format::E5B9G9R9_UFLOAT_PACK32
            | vk::Format::B10G11R11_UFLOAT_PACK32
            | vk::Format::R5G6B5_UNORM_PACK16
            | vk::Format::B5G6R5_UNORM_PACK16
    )
}

fn invalid(what: String) -> vk::Result {
    eprintln!("parsnip: vkCreateImageView: {what}");
    vk::Result::ERROR_UNKNOWN
}

impl ImageView {
    /// `vkCreateImageView`.
    pub fn new(
        chip: parsnip_registers::Chip,
        image: Arc<Image>,
        desc: ViewDesc,
    ) -> VkResult<Arc<ImageView>> {
        let Some(format) = formats::format(desc.format) else {
            return Err(invalid(format!("format {:?}", desc.format)));
        };
        let r = desc.range;
        let (levels, layers) = image.range_counts(&r);
        if levels == 0
            || layers == 0
            || r.base_mip_level + levels > image.desc.levels
            || r.base_array_layer + layers > image.desc.layers
        {
            return Err(invalid(format!("range {r:?} of a {:?}", image.desc)));
        }
        // Depth/stencil views pick their plane's format.
        let plane = image.plane(r.aspect_mask);
        let view_format = if image.format.is_depth_or_stencil() {
            plane.format
        } else {
            format
        };
        if view_format.bytes != plane.format.bytes || view_format.block != plane.format.block {
            // Block-texel views of compressed images see blocks as texels.
            let block_view = plane.format.is_compressed() && !view_format.is_compressed();
            if !(block_view && view_format.bytes == plane.format.bytes) {
                return Err(invalid(format!(
                    "{:?} is not size-compatible with {:?}",
                    desc.format, image.desc.format
                )));
            }
        }
        let tiled = plane.layout.levels[r.base_mip_level as usize].tile_mode
            != parsnip_registers::enums::A6xxTileMode::TILE6_LINEAR;
        if tiled && view_format.has_swap() != plane.format.has_swap() {
            return Err(invalid(format!(
                "{:?} and {:?} store tiled texels differently",
                desc.format, image.desc.format
            )));
        }
        let c = desc.components;
        let swiz = [
            swizzle(c.r, A6xxTexSwiz::A6XX_TEX_X, view_format),
            swizzle(c.g, A6xxTexSwiz::A6XX_TEX_Y, view_format),
            swizzle(c.b, A6xxTexSwiz::A6XX_TEX_Z, view_format),
            swizzle(c.a, A6xxTexSwiz::A6XX_TEX_W, view_format),
        ];
        let args = encoding::ImageViewArgs {
            image: &image,
            aspect: r.aspect_mask,
            format: view_format,
            view_type: desc.view_type,
            base_level: r.base_mip_level,
            levels,
            base_layer: r.base_array_layer,
            layers,
            swizzle: swiz,
            min_lod: desc.min_lod,
        };
        let texture = encoding::image_view(chip, &args, false)?;
        let storage = encoding::image_view(chip, &args, true)?;
        Ok(Arc::new(ImageView {
            image,
            desc,
            format: view_format,
            levels,
            layers,
            texture,
            storage,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::tests::null_device;
    use crate::device_memory::DeviceMemory;
    use crate::image::ImageDesc;

    fn bound_image(gpu: &str, desc: ImageDesc) -> (Arc<Image>, u64) {
        let device = null_device(gpu);
        let image = Image::new(desc, device.gpu.entry).unwrap();
        let memory = DeviceMemory::allocate(&device, image.size.next_multiple_of(4096), 0).unwrap();
        image.bind(memory, 0).unwrap();
        let iova = image.iova(0);
        (image, iova)
    }

    fn view_of(image: &Arc<Image>, format: vk::Format, levels: u32) -> ViewDesc {
        ViewDesc {
            view_type: vk::ImageViewType::TYPE_2D,
            format,
            components: vk::ComponentMapping::default(),
            range: vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: 0,
                level_count: levels,
                base_array_layer: 0,
                layer_count: image.desc.layers,
            },
            min_lod: 0.0,
        }
    }

    fn rgba8(w: u32, levels: u32, usage: vk::ImageUsageFlags) -> ImageDesc {
        ImageDesc {
            image_type: vk::ImageType::TYPE_2D,
            format: vk::Format::R8G8B8A8_UNORM,
            extent: vk::Extent3D {
                width: w,
                height: w,
                depth: 1,
            },
            levels,
            layers: 1,
            samples: 1,
            tiling: vk::ImageTiling::OPTIMAL,
            usage,
            flags: vk::ImageCreateFlags::empty(),
            view_formats_swap: true,
        }
    }

    #[test]
    fn the_mip_lod_texture_descriptor_is_turnips() {
        // mip_lod_sysmem.rd.gz (a660 and a740): the descriptor set at
        // 0x100038000 holds 0c036880 00040008 20008002 00000002 00036000
        // 00020001 and zeros for the 8x8 RGBA8 4-level texture at
        // 0x100036000.
        for (gpu, chip) in [
            ("a660", parsnip_registers::Chip::A6xx),
            ("a740", parsnip_registers::Chip::A7xx),
        ] {
            let usage = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST;
            let (image, iova) = bound_image(gpu, rgba8(8, 4, usage));
            let desc = view_of(&image, vk::Format::R8G8B8A8_UNORM, 4);
            let v = ImageView::new(chip, image, desc).unwrap();
            let d = v.texture;
            assert_eq!(
                &d[..4],
                &[0x0c03_6880, 0x0004_0008, 0x2000_8002, 2],
                "{gpu}"
            );
            assert_eq!(d[4], iova as u32);
            assert_eq!(d[5], (iova >> 32) as u32 | 1 << 17);
            assert!(d[6..].iter().all(|&w| w == 0));
        }
    }

    #[test]
    fn compressed_views_name_their_flag_buffer() {
        // The 64x64 RGBA8 attachment of the triangle traces: flags at +0
        // with pitch 64 and a 4096-byte layer, texels at +4096.
        let usage = vk::ImageUsageFlags::TRANSFER_SRC;
        let (image, iova) = bound_image("a740", rgba8(64, 1, usage));
        let desc = view_of(&image, vk::Format::R8G8B8A8_UNORM, 1);
        let v = ImageView::new(parsnip_registers::Chip::A7xx, image, desc).unwrap();
        let t = parsnip_registers::descriptors::a7xx::TextureDescriptor::from_raw(&v.texture);
        assert!(t.flag);
        assert_eq!(
            u64::from(t.base_lo) | u64::from(t.base_hi) << 32,
            iova + 4096
        );
        assert_eq!(u64::from(t.flag_lo) | u64::from(t.flag_hi) << 32, iova);
        assert_eq!(t.flag_buffer_pitch, 64);
        // 64 / 16 = 4 blocks across (log2 2), 64 / 4 = 16 down (log2 4).
        assert_eq!((t.flag_buffer_logw, t.flag_buffer_logh), (2, 4));
        assert_eq!(t.tile_mode, parsnip_registers::enums::A6xxTileMode::TILE6_3);
    }

    #[test]
    fn views_swizzle_and_refuse_incompatible_formats() {
        let usage = vk::ImageUsageFlags::TRANSFER_SRC;
        let (image, _) = bound_image("a660", rgba8(16, 1, usage));
        let mut desc = view_of(&image, vk::Format::R8G8B8A8_UNORM, 1);
        desc.components = vk::ComponentMapping {
            r: vk::ComponentSwizzle::B,
            g: vk::ComponentSwizzle::ZERO,
            b: vk::ComponentSwizzle::ONE,
            a: vk::ComponentSwizzle::IDENTITY,
        };
        let chip = parsnip_registers::Chip::A6xx;
        let v = ImageView::new(chip, image.clone(), desc).unwrap();
        let t = parsnip_registers::descriptors::a6xx::TextureDescriptor::from_raw(&v.texture);
        assert_eq!(
            [t.swiz_x, t.swiz_y, t.swiz_z, t.swiz_w],
            [
                A6xxTexSwiz::A6XX_TEX_Z,
                A6xxTexSwiz::A6XX_TEX_ZERO,
                A6xxTexSwiz::A6XX_TEX_ONE,
                A6xxTexSwiz::A6XX_TEX_W
            ]
        );
        // A 16-bit view of 32-bit texels, or levels past the image, are
        // refused.
        let bad = view_of(&image, vk::Format::R16_UINT, 1);
        assert!(ImageView::new(chip, image.clone(), bad).is_err());
        let bad = view_of(&image, vk::Format::R8G8B8A8_UNORM, 2);
        assert!(ImageView::new(chip, image.clone(), bad).is_err());
        // R32_UINT reinterprets the same texels.
        let ok = view_of(&image, vk::Format::R32_UINT, 1);
        assert!(ImageView::new(chip, image, ok).is_ok());
    }
}
