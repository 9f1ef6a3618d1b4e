//! Images: [`layout`] (where the hardware expects every texel), and
//! `VkImage` itself ([`Image`]): its planes' layouts, memory requirements
//! and binding.
//!
//! How an image is laid out follows Turnip (`tu_image.cc`): optimal tiling
//! is `TILE6_3`, compressed (UBWC) unless the format, usage or GPU forbids
//! it; linear tiling, 1D images and mutable images whose views may swap
//! components are linear. D32_SFLOAT_S8_UINT is two planes (depth, then
//! stencil 4 KiB aligned after it); D24S8 is one.

pub mod layout;
pub mod lrz_layout;
pub mod modifier;
pub mod multisample;
pub mod sampler;
pub mod view;

use std::sync::{Arc, OnceLock};

use ash::vk;
pub use parsnip_registers::gpu::{GpuInfo as GpuFacts, UbwcFacts};

use crate::device_memory::DeviceMemory;
use crate::error::VkResult;
use crate::formats::{self, Class, Format};
use layout::{Layout, LayoutParams, PlaneKind, Tiling};
use lrz_layout::LrzLayout;

/// The largest extent in each dimension: the 2D engine's and texture
/// descriptor's width and height fields hold 15 bits (a6xx.xml:
/// SP_PS_2D_SRC_SIZE, TEX_CONST WIDTH/HEIGHT), and Turnip reports 16384
/// (maxImageDimension2D); 3D depth is limited to 2048 as Turnip reports.
pub const MAX_EXTENT: u32 = 16384;
pub const MAX_DEPTH_3D: u32 = 2048;
pub const MAX_LAYERS: u32 = 2048;

/// What an image was created with that its layout depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    pub image_type: vk::ImageType,
    pub format: vk::Format,
    pub extent: vk::Extent3D,
    pub levels: u32,
    pub layers: u32,
    pub samples: u32,
    pub tiling: vk::ImageTiling,
    pub usage: vk::ImageUsageFlags,
    pub flags: vk::ImageCreateFlags,
    /// The formats a mutable image's views may use (empty: any compatible
    /// one).
    pub view_formats_swap: bool,
}

/// A plane's format and layout.
#[derive(Clone, Debug)]
pub struct Plane {
    pub format: &'static Format,
    pub layout: Layout,
    /// Offset of the plane from the image's start.
    pub offset: u64,
}

/// Where an image's memory is.
pub struct ImageBinding {
    pub memory: Arc<DeviceMemory>,
    pub offset: u64,
}

pub struct Image {
    pub desc: ImageDesc,
    /// The DRM format modifier of an image created with one.
    pub modifier: Option<modifier::Modifier>,
    pub format: &'static Format,
    pub planes: Vec<Plane>,
    /// The LRZ buffer after the planes, for depth attachments that can
    /// use one (see [`lrz_layout`]).
    pub lrz: Option<LrzLayout>,
    /// Bytes the image takes.
    pub size: u64,
    pub align: u64,
    binding: OnceLock<ImageBinding>,
}

/// Whether UBWC may be used for an image (Turnip's `ubwc_possible`, with
/// the GPU's facts).
pub fn ubwc_possible(f: &Format, desc: &ImageDesc, gpu: &UbwcFacts) -> bool {
    if f.is_compressed()
        || matches!(
            f.vk,
            vk::Format::E5B9G9R9_UFLOAT_PACK32 | vk::Format::S8_UINT
        )
    {
        return false;
    }
    // The copy paths treat SNORM as UNORM, which disagree on UBWC special
    // values before a740.
    if f.class == Class::Snorm && !gpu.unorm_snorm_compatible {
        return false;
    }
    if f.bytes == 1 && !gpu.eight_bit {
        return false;
    }
    if desc.image_type == vk::ImageType::TYPE_3D && desc.levels > 1 {
        return false;
    }
    if desc.usage.contains(vk::ImageUsageFlags::STORAGE) && !gpu.storage {
        return false;
    }
    if f.is_depth_or_stencil() && gpu.broken_depth_stencil {
        return false;
    }
    // Multisampled images are cleared as single-sampled surfaces of their
    // whole texels (see `multisample`), whose flag blocks differ.
    if desc.samples > 1 {
        return false;
    }
    // D24S8's stencil is sampled as 8_8_8_8_UINT without Z24_UINT_S8_UINT,
    // which is not UBWC-compatible; multisampled D24S8 likewise.
    let d24 = matches!(
        f.vk,
        vk::Format::D24_UNORM_S8_UINT | vk::Format::X8_D24_UNORM_PACK32
    );
    if d24 && !gpu.z24uint_s8uint {
        let sampled = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::INPUT_ATTACHMENT;
        if f.vk == vk::Format::D24_UNORM_S8_UINT && desc.usage.intersects(sampled) {
            return false;
        }
        if desc.samples > 1 {
            return false;
        }
    }
    true
}

/// The error for an image the device cannot create.
fn unsupported(what: String) -> vk::Result {
    // Reached from vkCreateImage and from the create-info requirement
    // queries (vkGetDeviceImageMemoryRequirements), so no command is named.
    eprintln!("parsnip: image not supported: {what}");
    vk::Result::ERROR_FORMAT_NOT_SUPPORTED
}

impl Image {
    /// `vkCreateImage`: refuses what `vkGetPhysicalDeviceImageFormatProperties`
    /// refuses, then lays the image out.
    pub fn new(desc: ImageDesc, gpu: &GpuFacts) -> VkResult<Arc<Image>> {
        Self::with_modifier(desc, gpu, None, None)
    }

    /// `vkCreateImage` with a DRM format modifier, and for an imported
    /// image plane 0's (offset, row pitch); a layout the pitch does not
    /// fit is `VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT`.
    pub fn with_modifier(
        desc: ImageDesc,
        gpu: &GpuFacts,
        modifier: Option<modifier::Modifier>,
        explicit: Option<(u64, u32)>,
    ) -> VkResult<Arc<Image>> {
        if modifier.is_some()
            && (desc.image_type != vk::ImageType::TYPE_2D
                || desc.levels != 1
                || desc.layers != 1
                || desc.extent.depth != 1)
        {
            return Err(unsupported(
                "a DRM format modifier's image is 2D with one level and layer".into(),
            ));
        }
        let (format, planes, size, align) = Self::lay_out(&desc, &gpu.ubwc, modifier, explicit)
            .map_err(|e| {
                if explicit.is_some() {
                    vk::Result::ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT
                } else {
                    e
                }
            })?;
        let lrz = lrz_wanted(&desc, format, modifier.is_some())
            .then(|| {
                lrz_layout::lrz_layout(
                    size,
                    desc.extent.width,
                    desc.extent.height,
                    desc.samples,
                    desc.layers,
                    gpu.chip,
                    gpu.lrz,
                )
            })
            .flatten();
        let size = lrz.map_or(size, |l| l.offset + l.size);
        Ok(Arc::new(Image {
            desc,
            modifier,
            format,
            planes,
            lrz,
            size,
            align,
            binding: OnceLock::new(),
        }))
    }

    /// The planes, size and alignment of an image; `modifier` fixes its
    /// layout, `explicit` is an imported plane 0 (offset, row pitch).
    pub fn lay_out(
        desc: &ImageDesc,
        gpu: &UbwcFacts,
        modifier: Option<modifier::Modifier>,
        explicit: Option<(u64, u32)>,
    ) -> VkResult<(&'static Format, Vec<Plane>, u64, u64)> {
        use modifier::Modifier;
        let Some(format) = formats::format(desc.format) else {
            return Err(unsupported(format!("format {:?}", desc.format)));
        };
        check_limits(desc).map_err(unsupported)?;
        let linear = match modifier {
            Some(m) => m == Modifier::Linear,
            None => {
                desc.tiling == vk::ImageTiling::LINEAR
                    || desc.image_type == vk::ImageType::TYPE_1D
                    || !format.bytes.is_power_of_two()
                    || explicit.is_some()
                    // Tiled surfaces are stored unswapped: views that swap
                    // would see the components moved.
                    || (desc.flags.contains(vk::ImageCreateFlags::MUTABLE_FORMAT)
                        && !format.is_depth_or_stencil()
                        && desc.view_formats_swap)
            }
        };
        if linear && format.is_depth_or_stencil() {
            return Err(unsupported(format!(
                "{:?} cannot be linear: the RB has no linear depth/stencil",
                desc.format
            )));
        }
        let mut ubwc = !linear && ubwc_possible(format, desc, gpu);
        // Mutable images lose UBWC: compression differs between formats.
        if desc.flags.contains(vk::ImageCreateFlags::MUTABLE_FORMAT) {
            ubwc = false;
        }
        match modifier {
            Some(Modifier::Compressed) if !ubwc => {
                return Err(unsupported(format!(
                    "{:?} {:?} cannot be compressed",
                    desc.format, desc.usage
                )))
            }
            Some(Modifier::Compressed) => {}
            Some(_) => ubwc = false,
            None => {}
        }
        let is_3d = desc.image_type == vk::ImageType::TYPE_3D;
        let mut planes = Vec::new();
        let two_planes = desc.format == vk::Format::D32_SFLOAT_S8_UINT;
        let plane_formats: Vec<&'static Format> = if two_planes {
            vec![
                format,
                formats::format(vk::Format::S8_UINT).expect("S8 in the table"),
            ]
        } else {
            vec![format]
        };
        let mut size = 0u64;
        let mut align = 0u64;
        for (i, f) in plane_formats.into_iter().enumerate() {
            let kind = if f.is_depth_or_stencil() {
                PlaneKind::DepthStencil
            } else if f.is_r8g8() && !desc.flags.contains(vk::ImageCreateFlags::MUTABLE_FORMAT) {
                PlaneKind::TwoByEight
            } else {
                PlaneKind::Color
            };
            let params = LayoutParams {
                block_bytes: f.bytes,
                block: f.block,
                kind,
                samples: desc.samples,
                width: desc.extent.width,
                height: desc.extent.height,
                depth: desc.extent.depth,
                levels: desc.levels,
                layers: desc.layers,
                is_3d,
                tiling: if linear {
                    Tiling::Linear
                } else {
                    Tiling::Tiled
                },
                // No UBWC for the separate stencil plane (it has no flag
                // buffer enable).
                ubwc: ubwc && i == 0,
            };
            let l = layout::layout(&params, gpu, if i == 0 { explicit } else { None })
                .map_err(|e| unsupported(e.0))?;
            let offset = if i == 0 {
                0
            } else {
                size.next_multiple_of(4096)
            };
            size = offset + l.size;
            align = align.max(u64::from(l.base_align));
            planes.push(Plane {
                format: f,
                layout: l,
                offset,
            });
        }
        // A modifier names the layout: one the shape cannot have (too
        // narrow to tile or compress) is refused rather than misreported.
        let l0 = &planes[0].layout;
        let tiled0 = l0.levels[0].tile_mode != parsnip_registers::enums::A6xxTileMode::TILE6_LINEAR;
        let matches = match modifier {
            Some(Modifier::Compressed) => l0.ubwc,
            Some(Modifier::Tiled) => tiled0 && !l0.ubwc,
            _ => true,
        };
        if !matches {
            return Err(unsupported(format!(
                "{:?} {:?} cannot have {modifier:?}",
                desc.format, desc.extent
            )));
        }
        Ok((format, planes, size, align))
    }
}

/// Whether an image gets an LRZ buffer: a depth attachment (of any depth
/// format, its depth plane), 2D, without a modifier, and not a storage
/// image, whose shader writes LRZ could not see.
fn lrz_wanted(desc: &ImageDesc, format: &Format, has_modifier: bool) -> bool {
    format.aspects().contains(vk::ImageAspectFlags::DEPTH)
        && desc
            .usage
            .contains(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT)
        && !desc.usage.contains(vk::ImageUsageFlags::STORAGE)
        && desc.image_type == vk::ImageType::TYPE_2D
        && !has_modifier
}

/// The limits every image must meet (the ones
/// `vkGetPhysicalDeviceImageFormatProperties` reports).
fn check_limits(desc: &ImageDesc) -> Result<(), String> {
    let e = desc.extent;
    let max = image_limits(desc.image_type);
    if e.width == 0 || e.height == 0 || e.depth == 0 || desc.levels == 0 || desc.layers == 0 {
        return Err(format!(
            "an empty image: {e:?}, {} levels, {} layers",
            desc.levels, desc.layers
        ));
    }
    if e.width > max.max_extent.width
        || e.height > max.max_extent.height
        || e.depth > max.max_extent.depth
        || desc.layers > max.max_array_layers
    {
        return Err(format!("{e:?} x {} layers exceeds {max:?}", desc.layers));
    }
    let full_chain = 32 - e.width.max(e.height).max(e.depth).leading_zeros();
    if desc.levels > full_chain {
        return Err(format!("{} levels for {e:?}", desc.levels));
    }
    if desc.samples != 1 {
        let f = formats::format(desc.format).ok_or_else(|| format!("{:?}", desc.format))?;
        let shape_ok = desc.image_type == vk::ImageType::TYPE_2D
            && desc.levels == 1
            && desc.tiling == vk::ImageTiling::OPTIMAL
            && !desc.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE);
        if !shape_ok
            || !multisample::USAGE.contains(desc.usage)
            || !multisample::supported(f, desc.samples)
        {
            return Err(format!(
                "{} samples of {:?} {:?} with {:?}: multisampled images are 2D, optimal, \
                 single-level attachments of the formats `image::multisample` lists",
                desc.samples, desc.format, desc.image_type, desc.usage
            ));
        }
    }
    Ok(())
}

/// The extent, layer and level limits of an image type.
pub fn image_limits(image_type: vk::ImageType) -> vk::ImageFormatProperties {
    let (w, h, d, layers) = match image_type {
        vk::ImageType::TYPE_1D => (MAX_EXTENT, 1, 1, MAX_LAYERS),
        vk::ImageType::TYPE_3D => (MAX_DEPTH_3D, MAX_DEPTH_3D, MAX_DEPTH_3D, 1),
        _ => (MAX_EXTENT, MAX_EXTENT, 1, MAX_LAYERS),
    };
    vk::ImageFormatProperties {
        max_extent: vk::Extent3D {
            width: w,
            height: h,
            depth: d,
        },
        max_mip_levels: 32 - w.max(h).max(d).leading_zeros(),
        max_array_layers: layers,
        sample_counts: vk::SampleCountFlags::TYPE_1,
        // Images must fit a BO the kernel can map: 2^32 bytes is what
        // Turnip reports.
        max_resource_size: 1 << 32,
    }
}

/// The usages an image of `f` may have, from its features.
pub fn supported_usage(f: &Format) -> vk::ImageUsageFlags {
    let features = formats::image_features(f);
    let mut usage = vk::ImageUsageFlags::empty();
    if features.contains(vk::FormatFeatureFlags::TRANSFER_SRC) {
        usage |= vk::ImageUsageFlags::TRANSFER_SRC;
    }
    if features.contains(vk::FormatFeatureFlags::TRANSFER_DST) {
        usage |= vk::ImageUsageFlags::TRANSFER_DST;
    }
    if features.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE) {
        usage |= vk::ImageUsageFlags::SAMPLED;
    }
    if features.contains(vk::FormatFeatureFlags::STORAGE_IMAGE) {
        usage |= vk::ImageUsageFlags::STORAGE;
    }
    if features.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT) {
        usage |= vk::ImageUsageFlags::COLOR_ATTACHMENT;
    }
    if features.contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT) {
        usage |= vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
    }
    usage
}

/// `vkGetPhysicalDeviceImageFormatProperties2`: what an image of `info`
/// may be, or `VK_ERROR_FORMAT_NOT_SUPPORTED` for one the device cannot
/// create (unknown format, a usage the format's features do not give,
/// sparse or other unsupported flags, or a tiling the format cannot have).
pub fn format_properties(
    format: vk::Format,
    image_type: vk::ImageType,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
) -> VkResult<vk::ImageFormatProperties> {
    let refuse = |why: &str| {
        eprintln!(
            "parsnip: vkGetPhysicalDeviceImageFormatProperties: {format:?} {image_type:?} \
             {tiling:?} {usage:?} {flags:?}: {why}"
        );
        Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED)
    };
    let Some(f) = formats::format(format) else {
        return refuse("unsupported format");
    };
    if !supported_usage(f).contains(usage) || usage.is_empty() {
        return refuse("usage not supported by the format's features");
    }
    let allowed = vk::ImageCreateFlags::MUTABLE_FORMAT
        | vk::ImageCreateFlags::CUBE_COMPATIBLE
        | vk::ImageCreateFlags::TYPE_2D_ARRAY_COMPATIBLE
        | vk::ImageCreateFlags::EXTENDED_USAGE
        | vk::ImageCreateFlags::BLOCK_TEXEL_VIEW_COMPATIBLE;
    if !allowed.contains(flags) {
        return refuse("sparse, protected, aliased or other unsupported flags");
    }
    match tiling {
        vk::ImageTiling::OPTIMAL => {}
        vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT => {
            // Checked against the modifier by modifier_format_properties.
            if image_type != vk::ImageType::TYPE_2D {
                return refuse("modifier images other than 2D");
            }
        }
        vk::ImageTiling::LINEAR => {
            if f.is_depth_or_stencil() {
                return refuse("depth/stencil cannot be linear");
            }
        }
        _ => return refuse("unsupported tiling"),
    }
    if !f.bytes.is_power_of_two() && tiling == vk::ImageTiling::OPTIMAL && f.copyable() {
        return refuse("non-power-of-two texels cannot be tiled");
    }
    if f.is_depth_or_stencil() && image_type == vk::ImageType::TYPE_3D {
        return refuse("3D depth/stencil images");
    }
    if f.is_compressed() && image_type == vk::ImageType::TYPE_1D {
        return refuse("1D compressed images");
    }
    let mut props = image_limits(image_type);
    if tiling == vk::ImageTiling::LINEAR && image_type != vk::ImageType::TYPE_2D {
        // Linear images are required only for 2D, one level, one layer.
        return refuse("linear images other than 2D");
    }
    if tiling != vk::ImageTiling::OPTIMAL {
        props.max_mip_levels = 1;
        props.max_array_layers = 1;
    }
    if tiling == vk::ImageTiling::OPTIMAL
        && image_type == vk::ImageType::TYPE_2D
        && !flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE)
    {
        props.sample_counts = multisample::sample_counts(f, usage);
    }
    Ok(props)
}

/// `vkGetPhysicalDeviceImageFormatProperties2` for
/// `VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT`: the modifier must be one the
/// format offers, and compressed only where the usage allows UBWC.
pub fn modifier_format_properties(
    format: vk::Format,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
    drm_modifier: u64,
    gpu: &UbwcFacts,
) -> VkResult<vk::ImageFormatProperties> {
    let props = format_properties(
        format,
        vk::ImageType::TYPE_2D,
        vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT,
        usage,
        flags,
    )?;
    let offered = modifier::modifiers(format, gpu);
    let Some(m) =
        modifier::Modifier::from_drm(drm_modifier).filter(|m| offered.iter().any(|(o, _)| o == m))
    else {
        eprintln!(
            "parsnip: vkGetPhysicalDeviceImageFormatProperties2: {format:?} has no modifier {drm_modifier:#x}"
        );
        return Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED);
    };
    let f = formats::format(format).expect("offered formats are in the table");
    let desc = ImageDesc {
        flags,
        ..modifier::shape(f, usage)
    };
    if m == modifier::Modifier::Compressed
        && (!ubwc_possible(f, &desc, gpu) || flags.contains(vk::ImageCreateFlags::MUTABLE_FORMAT))
    {
        eprintln!(
            "parsnip: vkGetPhysicalDeviceImageFormatProperties2: {format:?} {usage:?} {flags:?} \
             cannot be compressed"
        );
        return Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED);
    }
    Ok(props)
}

impl Image {
    /// `VkMemoryRequirements`: any memory type; the alignment the layout's
    /// base needs (4 KiB for UBWC and depth).
    pub fn memory_requirements(&self, memory_type_bits: u32) -> vk::MemoryRequirements {
        vk::MemoryRequirements {
            size: self.size.next_multiple_of(self.align),
            alignment: self.align,
            memory_type_bits,
        }
    }

    /// `vkBindImageMemory`.
    pub fn bind(&self, memory: Arc<DeviceMemory>, offset: u64) -> VkResult<()> {
        if !offset.is_multiple_of(self.align) || offset + self.size > memory.size {
            eprintln!(
                "parsnip: vkBindImageMemory: {:#x} bytes at offset {offset:#x} do not fit the \
                 {:#x}-byte allocation with {}-byte alignment",
                self.size, memory.size, self.align
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        self.binding
            .set(ImageBinding { memory, offset })
            .map_err(|_| {
                eprintln!("parsnip: vkBindImageMemory: the image is already bound");
                vk::Result::ERROR_UNKNOWN
            })
    }

    pub fn binding(&self) -> Option<&ImageBinding> {
        self.binding.get()
    }

    /// The GPU address of byte `offset` of the image (0 while unbound,
    /// which faults on use, as on hardware).
    pub fn iova(&self, offset: u64) -> u64 {
        self.binding
            .get()
            .map_or(0, |b| b.memory.iova() + b.offset + offset)
    }

    /// The levels and layers a subresource range names, with
    /// `VK_REMAINING_*` resolved (not checked against the image).
    pub fn range_counts(&self, r: &vk::ImageSubresourceRange) -> (u32, u32) {
        let levels = if r.level_count == vk::REMAINING_MIP_LEVELS {
            self.desc.levels.saturating_sub(r.base_mip_level)
        } else {
            r.level_count
        };
        let layers = if r.layer_count == vk::REMAINING_ARRAY_LAYERS {
            self.desc.layers.saturating_sub(r.base_array_layer)
        } else {
            r.layer_count
        };
        (levels, layers)
    }

    /// The plane holding `aspect`.
    pub fn plane(&self, aspect: vk::ImageAspectFlags) -> &Plane {
        let second = vk::ImageAspectFlags::STENCIL | vk::ImageAspectFlags::MEMORY_PLANE_1_EXT;
        if second.contains(aspect) && !aspect.is_empty() && self.planes.len() == 2 {
            &self.planes[1]
        } else {
            &self.planes[0]
        }
    }

    /// `vkGetImageSubresourceLayout` (linear images; for tiled ones the
    /// result describes the tiled level, which the spec leaves undefined).
    pub fn subresource_layout(&self, sub: vk::ImageSubresource) -> vk::SubresourceLayout {
        let plane = self.plane(sub.aspect_mask);
        let l = &plane.layout;
        let level = sub.mip_level.min(self.desc.levels - 1);
        let lv = &l.levels[level as usize];
        let layer_stride = l.layer_stride(level);
        let (array_pitch, depth_pitch) = if l.layer_first {
            (layer_stride, lv.size)
        } else {
            (lv.size, lv.size)
        };
        if self.modifier == Some(modifier::Modifier::Compressed) {
            // A UBWC plane is shared from its start, flag buffer first (an
            // import lays the texels out after it again).
            return vk::SubresourceLayout {
                offset: 0,
                size: self.size,
                row_pitch: u64::from(lv.pitch),
                array_pitch,
                depth_pitch,
            };
        }
        vk::SubresourceLayout {
            offset: plane.offset + l.offset(level, sub.array_layer),
            size: lv.size * u64::from(lv.depth),
            row_pitch: u64::from(lv.pitch),
            array_pitch,
            depth_pitch,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    fn desc(format: vk::Format, w: u32, h: u32, usage: vk::ImageUsageFlags) -> ImageDesc {
        ImageDesc {
            image_type: vk::ImageType::TYPE_2D,
            format,
            extent: vk::Extent3D {
                width: w,
                height: h,
                depth: 1,
            },
            levels: 1,
            layers: 1,
            samples: 1,
            tiling: vk::ImageTiling::OPTIMAL,
            usage,
            flags: vk::ImageCreateFlags::empty(),
            view_formats_swap: true,
        }
    }

    #[test]
    fn ubwc_follows_usage_and_the_gpu() {
        let a660 = gpu::by_name("a660").unwrap();
        let a740 = gpu::by_name("a740").unwrap();
        let storage = vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::TRANSFER_DST;
        let d = desc(vk::Format::R32_UINT, 16, 16, storage);
        // storage_image.log: a660 stores storage images uncompressed; a740
        // supports UBWC storage.
        assert!(!Image::new(d, a660).unwrap().planes[0].layout.ubwc);
        assert!(Image::new(d, a740).unwrap().planes[0].layout.ubwc);
        let snorm = desc(
            vk::Format::R8G8B8A8_SNORM,
            64,
            64,
            vk::ImageUsageFlags::TRANSFER_DST,
        );
        assert!(!Image::new(snorm, a660).unwrap().planes[0].layout.ubwc);
        assert!(Image::new(snorm, a740).unwrap().planes[0].layout.ubwc);
        let mut mutable = desc(vk::Format::R8G8B8A8_UNORM, 64, 64, storage);
        mutable.flags = vk::ImageCreateFlags::MUTABLE_FORMAT;
        let i = Image::new(mutable, a740).unwrap();
        assert!(!i.planes[0].layout.ubwc);
        assert_eq!(
            i.planes[0].layout.levels[0].tile_mode,
            parsnip_registers::enums::A6xxTileMode::TILE6_LINEAR
        );
    }

    #[test]
    fn d32s8_is_two_planes_and_d24s8_one() {
        let a660 = gpu::by_name("a660").unwrap();
        let usage = vk::ImageUsageFlags::TRANSFER_DST;
        let i = Image::new(desc(vk::Format::D32_SFLOAT_S8_UINT, 64, 32, usage), a660).unwrap();
        assert_eq!(i.planes.len(), 2);
        // Depth: 4096 flags + 32 rows x 256; stencil after it, 4 KiB
        // aligned, uncompressed, with the 8-bit 32-row tile.
        assert_eq!(i.planes[0].layout.size, 4096 + 32 * 256);
        assert_eq!(i.planes[1].offset, 12288);
        assert!(!i.planes[1].layout.ubwc);
        assert_eq!(i.planes[1].layout.levels[0].pitch, 128);
        assert_eq!(i.size, 12288 + 32 * 128);
        let s = i.subresource_layout(vk::ImageSubresource {
            aspect_mask: vk::ImageAspectFlags::STENCIL,
            mip_level: 0,
            array_layer: 0,
        });
        assert_eq!((s.offset, s.row_pitch), (12288, 128));
        let i = Image::new(desc(vk::Format::D24_UNORM_S8_UINT, 64, 32, usage), a660).unwrap();
        assert_eq!(i.planes.len(), 1);
    }

    #[test]
    fn depth_attachments_get_turnips_lrz_buffer_after_their_planes() {
        // depth_bias_cull_sysmem.log: the 96x64 D16 attachment's BO is
        // 23048 bytes on a660 and 28672 on a740, GRAS_LRZ_BUFFER_BASE at
        // BO + 20480, GRAS_LRZ_FAST_CLEAR_BUFFER_BASE at BO + 22528.
        let attachment = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        for (name, size) in [("a660", 23048), ("a740", 28672)] {
            let i = Image::new(
                desc(vk::Format::D16_UNORM, 96, 64, attachment),
                gpu::by_name(name).unwrap(),
            )
            .unwrap();
            let lrz = i.lrz.expect("a depth attachment has LRZ");
            assert_eq!((lrz.offset, lrz.fast_clear_offset), (20480, Some(22528)));
            assert_eq!(i.size, size, "{name}");
        }
        let a660 = gpu::by_name("a660").unwrap();
        // The stencil plane comes first: D32S8's LRZ follows it.
        let d32s8 = Image::new(
            desc(vk::Format::D32_SFLOAT_S8_UINT, 64, 32, attachment),
            a660,
        )
        .unwrap();
        assert_eq!(d32s8.lrz.unwrap().offset, 12288 + 32 * 128);
        // Not for stencil-only images, nor depth images never attached.
        for (format, usage) in [
            (vk::Format::S8_UINT, attachment),
            (vk::Format::D16_UNORM, vk::ImageUsageFlags::TRANSFER_DST),
        ] {
            assert!(Image::new(desc(format, 64, 32, usage), a660)
                .unwrap()
                .lrz
                .is_none());
        }
    }

    #[test]
    fn refusals() {
        let a740 = gpu::by_name("a740").unwrap();
        let u = vk::ImageUsageFlags::TRANSFER_SRC;
        let mut d = desc(vk::Format::R8G8B8A8_UNORM, MAX_EXTENT + 1, 1, u);
        assert_eq!(
            Image::new(d, a740).err(),
            Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED)
        );
        d.extent.width = 16;
        d.levels = 6;
        assert!(Image::new(d, a740).is_err());
        d.levels = 5;
        assert!(Image::new(d, a740).is_ok());
        let mut lin = desc(vk::Format::D16_UNORM, 16, 16, u);
        lin.tiling = vk::ImageTiling::LINEAR;
        assert!(Image::new(lin, a740).is_err());
        let t = vk::ImageType::TYPE_2D;
        let o = vk::ImageTiling::OPTIMAL;
        let none = vk::ImageCreateFlags::empty();
        assert!(format_properties(vk::Format::R8G8B8A8_UNORM, t, o, u, none).is_ok());
        let shaders = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::STORAGE;
        assert!(format_properties(vk::Format::R32_UINT, t, o, shaders, none).is_ok());
        let attached = vk::ImageUsageFlags::COLOR_ATTACHMENT;
        assert!(format_properties(vk::Format::R8G8B8A8_UNORM, t, o, attached, none).is_ok());
        let depth_stencil = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        assert!(
            format_properties(vk::Format::D24_UNORM_S8_UINT, t, o, depth_stencil, none).is_ok()
        );
        for (format, usage, flags) in [
            // Input attachments are not read yet; D24S8 is not copied.
            (
                vk::Format::R8G8B8A8_UNORM,
                vk::ImageUsageFlags::INPUT_ATTACHMENT,
                none,
            ),
            (
                vk::Format::D24_UNORM_S8_UINT,
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_DST,
                none,
            ),
            // sRGB has no storage format; depth is not sampled yet.
            (
                vk::Format::R8G8B8A8_SRGB,
                vk::ImageUsageFlags::STORAGE,
                none,
            ),
            (vk::Format::D16_UNORM, vk::ImageUsageFlags::SAMPLED, none),
            (
                vk::Format::R8G8B8A8_UNORM,
                u,
                vk::ImageCreateFlags::SPARSE_BINDING,
            ),
            (vk::Format::G8B8G8R8_422_UNORM, u, none),
            (vk::Format::R8G8B8_UNORM, u, none),
        ] {
            assert_eq!(
                format_properties(format, t, o, usage, flags).err(),
                Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED),
                "{format:?} {usage:?} {flags:?}"
            );
        }
        let lin = format_properties(
            vk::Format::R8G8B8A8_UNORM,
            t,
            vk::ImageTiling::LINEAR,
            u,
            none,
        )
        .unwrap();
        assert_eq!((lin.max_mip_levels, lin.max_array_layers), (1, 1));
    }

    #[test]
    fn drm_modifiers_fix_the_layout_and_imports_their_pitch() {
        use modifier::Modifier;
        let a660 = gpu::by_name("a660").unwrap();
        let a740 = gpu::by_name("a740").unwrap();
        let mut d = desc(
            vk::Format::R8G8B8A8_UNORM,
            64,
            64,
            vk::ImageUsageFlags::TRANSFER_SRC,
        );
        d.tiling = vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT;
        let i = Image::with_modifier(d, a660, Some(Modifier::Compressed), None).unwrap();
        assert!(i.planes[0].layout.ubwc);
        // Shared from the start, the flags first; the texels 4096 in.
        let sub = vk::ImageSubresource {
            aspect_mask: vk::ImageAspectFlags::MEMORY_PLANE_0_EXT,
            mip_level: 0,
            array_layer: 0,
        };
        let l = i.subresource_layout(sub);
        assert_eq!((l.offset, l.row_pitch, l.size), (0, 256, 20480));
        let t = Image::with_modifier(d, a660, Some(Modifier::Tiled), None).unwrap();
        assert!(!t.planes[0].layout.ubwc);
        // An imported linear image keeps its pitch (64-byte multiple) and
        // offset; a pitch off the alignment or too short is the plane
        // layout error.
        let lin = Image::with_modifier(d, a660, Some(Modifier::Linear), Some((4096, 320))).unwrap();
        let l = lin.subresource_layout(sub);
        assert_eq!((l.offset, l.row_pitch), (4096, 320));
        for pitch in [100, 192] {
            assert_eq!(
                Image::with_modifier(d, a660, Some(Modifier::Linear), Some((0, pitch))).err(),
                Some(vk::Result::ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT)
            );
        }
        // Too narrow to compress, or an array: refused.
        let mut narrow = d;
        narrow.extent.width = 8;
        assert!(Image::with_modifier(narrow, a660, Some(Modifier::Compressed), None).is_err());
        let mut array = d;
        array.layers = 2;
        assert!(Image::with_modifier(array, a660, Some(Modifier::Linear), None).is_err());
        // Storage images compress on a740 only.
        let storage = vk::ImageUsageFlags::TRANSFER_DST;
        let f = vk::Format::R32_UINT;
        let none = vk::ImageCreateFlags::empty();
        assert!(modifier_format_properties(
            f,
            storage,
            none,
            modifier::QCOM_COMPRESSED,
            &a660.ubwc
        )
        .is_ok());
        assert!(
            modifier_format_properties(f, storage, none, 0x0500_0000_0000_0002, &a660.ubwc)
                .is_err()
        );
        assert!(modifier_format_properties(f, storage, none, modifier::LINEAR, &a740.ubwc).is_ok());
    }
}
