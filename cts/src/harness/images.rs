//! Images bound to memory of their own, linear images the host writes
//! and reads through a mapping, image views and samplers, layout
//! transitions, and the image transfer commands.

use super::{Harness, Placement, Recorder};
use crate::case::{OrStop, Stop};
use ash::vk;

/// What an image is.
#[derive(Clone, Copy, Debug)]
pub struct ImageShape {
    pub image_type: vk::ImageType,
    pub format: vk::Format,
    pub extent: [u32; 3],
    pub levels: u32,
    pub layers: u32,
    pub tiling: vk::ImageTiling,
}

impl ImageShape {
    /// A single-level, single-layer 2D image.
    pub fn two_d(format: vk::Format, width: u32, height: u32, tiling: vk::ImageTiling) -> Self {
        ImageShape {
            image_type: vk::ImageType::TYPE_2D,
            format,
            extent: [width, height, 1],
            levels: 1,
            layers: 1,
            tiling,
        }
    }
}

/// An image bound at offset 0 of a device-local allocation of its own.
#[derive(Clone, Copy, Debug)]
pub struct Image {
    pub handle: vk::Image,
    pub shape: ImageShape,
    pub aspect: vk::ImageAspectFlags,
}

/// The aspects of a format (the formats the cases use).
fn aspects(format: vk::Format) -> vk::ImageAspectFlags {
    match format {
        vk::Format::D16_UNORM | vk::Format::D32_SFLOAT | vk::Format::X8_D24_UNORM_PACK32 => {
            vk::ImageAspectFlags::DEPTH
        }
        vk::Format::S8_UINT => vk::ImageAspectFlags::STENCIL,
        vk::Format::D24_UNORM_S8_UINT | vk::Format::D32_SFLOAT_S8_UINT => {
            vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
        }
        _ => vk::ImageAspectFlags::COLOR,
    }
}

const USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::TRANSFER_SRC.as_raw() | vk::ImageUsageFlags::TRANSFER_DST.as_raw(),
);

impl Harness {
    /// An image for transfers; `NotSupported` when the device cannot make
    /// it (vkGetPhysicalDeviceImageFormatProperties refuses it, or lacks
    /// the levels or layers).
    pub fn image(&mut self, shape: ImageShape) -> Result<Image, Stop> {
        self.image_for(shape, USAGE, vk::SampleCountFlags::TYPE_1)
    }

    /// An image for transfers and rendering to (colour or depth/stencil
    /// attachment, by its format).
    pub fn attachment_image(&mut self, shape: ImageShape) -> Result<Image, Stop> {
        let attachment = if aspects(shape.format) == vk::ImageAspectFlags::COLOR {
            vk::ImageUsageFlags::COLOR_ATTACHMENT
        } else {
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
        };
        self.image_for(shape, USAGE | attachment, vk::SampleCountFlags::TYPE_1)
    }

    /// A depth/stencil attachment and nothing else (the formats whose
    /// aspects share a texel may not be copied).
    pub fn depth_stencil_image(&mut self, shape: ImageShape) -> Result<Image, Stop> {
        self.image_for(
            shape,
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
            vk::SampleCountFlags::TYPE_1,
        )
    }

    /// A multisampled attachment image of `samples` (2D, one level and
    /// layer), for rendering to, clearing and resolving from (a colour
    /// format) or rendering to and clearing (depth/stencil);
    /// `NotSupported` when the device does not offer the sample count.
    pub fn multisampled_image(
        &mut self,
        shape: ImageShape,
        samples: vk::SampleCountFlags,
    ) -> Result<Image, Stop> {
        let usage = if aspects(shape.format) == vk::ImageAspectFlags::COLOR {
            USAGE | vk::ImageUsageFlags::COLOR_ATTACHMENT
        } else {
            vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
        };
        self.image_for(shape, usage, samples)
    }

    pub(super) fn image_for(
        &mut self,
        shape: ImageShape,
        usage: vk::ImageUsageFlags,
        samples: vk::SampleCountFlags,
    ) -> Result<Image, Stop> {
        // SAFETY: a query on the live physical device.
        let props = unsafe {
            self.instance.get_physical_device_image_format_properties(
                self.physical,
                shape.format,
                shape.image_type,
                shape.tiling,
                usage,
                vk::ImageCreateFlags::empty(),
            )
        };
        let props = props.map_err(|e| {
            Stop::NotSupported(format!(
                "{:?} {:?} images: {e:?}",
                shape.format, shape.tiling
            ))
        })?;
        if props.max_mip_levels < shape.levels
            || props.max_array_layers < shape.layers
            || !props.sample_counts.contains(samples)
        {
            return Err(Stop::NotSupported(format!(
                "{:?} {:?}: {props:?}",
                shape.format, shape.tiling
            )));
        }
        let [width, height, depth] = shape.extent;
        let info = vk::ImageCreateInfo::default()
            .image_type(shape.image_type)
            .format(shape.format)
            .extent(vk::Extent3D {
                width,
                height,
                depth,
            })
            .mip_levels(shape.levels)
            .array_layers(shape.layers)
            .samples(samples)
            .tiling(shape.tiling)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: the device is alive; `info` is valid for the call.
        let handle = unsafe { self.device.create_image(&info, None) }.or_stop("vkCreateImage")?;
        // SAFETY: `handle` was just created from this device.
        let requirements = unsafe { self.device.get_image_memory_requirements(handle) };
        let memory = match self.allocate(&requirements, Placement::Device) {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: the image is unused.
                unsafe { self.device.destroy_image(handle, None) };
                return Err(e);
            }
        };
        // Owned in this order so the image is destroyed before its memory.
        self.own(memory);
        self.own(handle);
        // SAFETY: fresh image and memory, sized by the image's requirements.
        unsafe { self.device.bind_image_memory(handle, memory, 0) }.or_stop("vkBindImageMemory")?;
        Ok(Image {
            handle,
            shape,
            aspect: aspects(shape.format),
        })
    }
}

/// A linear 2D image of one level and layer in host-visible, coherent
/// memory of its own, which the host writes and reads row by row.
#[derive(Clone, Copy, Debug)]
pub struct HostImage {
    pub image: Image,
    memory: vk::DeviceMemory,
    /// Where its texels are in the memory (vkGetImageSubresourceLayout).
    layout: vk::SubresourceLayout,
    texel_bytes: usize,
}

impl Harness {
    /// A [`HostImage`] of `texel_bytes`-byte texels for `usage`, created in
    /// the PREINITIALIZED layout so that what the host writes stays;
    /// `NotSupported` when linear tiling of the format lacks `features` or
    /// the device refuses the image.
    pub fn host_image(
        &mut self,
        format: vk::Format,
        [width, height]: [u32; 2],
        texel_bytes: usize,
        usage: vk::ImageUsageFlags,
        features: vk::FormatFeatureFlags,
    ) -> Result<HostImage, Stop> {
        let tiling = vk::ImageTiling::LINEAR;
        // SAFETY: queries on the live physical device.
        let (format_props, image_props) = unsafe {
            (
                self.instance
                    .get_physical_device_format_properties(self.physical, format),
                self.instance.get_physical_device_image_format_properties(
                    self.physical,
                    format,
                    vk::ImageType::TYPE_2D,
                    tiling,
                    usage,
                    vk::ImageCreateFlags::empty(),
                ),
            )
        };
        if !format_props.linear_tiling_features.contains(features) {
            return Err(Stop::NotSupported(format!(
                "linear {format:?} lacks {features:?}"
            )));
        }
        if let Err(e) = image_props {
            return Err(Stop::NotSupported(format!(
                "linear {format:?} for {usage:?}: {e:?}"
            )));
        }
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(tiling)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::PREINITIALIZED);
        // SAFETY: the device is alive; `info` is valid for the call.
        let handle = unsafe { self.device.create_image(&info, None) }.or_stop("vkCreateImage")?;
        // SAFETY: `handle` was just created from this device.
        let requirements = unsafe { self.device.get_image_memory_requirements(handle) };
        let memory = match self.allocate(&requirements, Placement::Host) {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: the image is unused.
                unsafe { self.device.destroy_image(handle, None) };
                return Err(e);
            }
        };
        self.own(memory);
        self.own(handle);
        // SAFETY: fresh image and memory, sized by the image's requirements;
        // the query names the image's only subresource.
        let layout = unsafe {
            self.device
                .bind_image_memory(handle, memory, 0)
                .or_stop("vkBindImageMemory")?;
            self.device.get_image_subresource_layout(
                handle,
                vk::ImageSubresource {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    array_layer: 0,
                },
            )
        };
        Ok(HostImage {
            image: Image {
                handle,
                shape: ImageShape::two_d(format, width, height, tiling),
                aspect: vk::ImageAspectFlags::COLOR,
            },
            memory,
            layout,
            texel_bytes,
        })
    }

    /// Writes `texels` (rows of the image, tightly packed) into `image`.
    pub fn write_image(&self, image: &HostImage, texels: &[u8]) -> Result<(), Stop> {
        let row = image.row_bytes();
        let rows = image.image.shape.extent[1] as usize;
        if texels.len() != row * rows {
            return Err(Stop::Error(format!(
                "{} bytes for {rows} rows of {row}",
                texels.len()
            )));
        }
        let pitch = image.layout.row_pitch as usize;
        self.map_memory(image.memory, image.layout.offset, image.layout.size, |m| {
            for (y, src) in texels.chunks_exact(row).enumerate() {
                m[y * pitch..y * pitch + row].copy_from_slice(src);
            }
        })
    }

    /// The texels of `image`, rows tightly packed.
    pub fn read_image(&self, image: &HostImage) -> Result<Vec<u8>, Stop> {
        let row = image.row_bytes();
        let rows = image.image.shape.extent[1] as usize;
        let pitch = image.layout.row_pitch as usize;
        self.map_memory(image.memory, image.layout.offset, image.layout.size, |m| {
            (0..rows)
                .flat_map(|y| m[y * pitch..y * pitch + row].to_vec())
                .collect()
        })
    }

    /// A view of every level and layer of `image` as `view_type`.
    pub fn image_view(
        &mut self,
        image: &Image,
        view_type: vk::ImageViewType,
    ) -> Result<vk::ImageView, Stop> {
        let info = vk::ImageViewCreateInfo::default()
            .image(image.handle)
            .view_type(view_type)
            .format(image.shape.format)
            .subresource_range(image.range());
        // SAFETY: the image is alive and bound; `info` is valid for the call.
        let view =
            unsafe { self.device.create_image_view(&info, None) }.or_stop("vkCreateImageView")?;
        Ok(self.own(view))
    }

    pub fn sampler(&mut self, info: &vk::SamplerCreateInfo<'_>) -> Result<vk::Sampler, Stop> {
        // SAFETY: the device is alive; `info` is valid for the call.
        let sampler =
            unsafe { self.device.create_sampler(info, None) }.or_stop("vkCreateSampler")?;
        Ok(self.own(sampler))
    }
}

impl HostImage {
    fn row_bytes(&self) -> usize {
        self.image.shape.extent[0] as usize * self.texel_bytes
    }
}

impl Image {
    /// Every level and layer.
    pub fn range(&self) -> vk::ImageSubresourceRange {
        vk::ImageSubresourceRange {
            aspect_mask: self.aspect,
            base_mip_level: 0,
            level_count: self.shape.levels,
            base_array_layer: 0,
            layer_count: self.shape.layers,
        }
    }

    /// A copy of all of level 0, layer 0 to or from a tightly packed
    /// buffer at offset 0.
    pub fn whole_copy(&self) -> vk::BufferImageCopy {
        let [width, height, depth] = self.shape.extent;
        vk::BufferImageCopy {
            image_subresource: self.layers(self.aspect, 0, 0, 1),
            image_extent: vk::Extent3D {
                width,
                height,
                depth,
            },
            ..Default::default()
        }
    }

    /// Layers `base..base + count` of `level`, for `aspect`.
    pub fn layers(
        &self,
        aspect: vk::ImageAspectFlags,
        level: u32,
        base: u32,
        count: u32,
    ) -> vk::ImageSubresourceLayers {
        vk::ImageSubresourceLayers {
            aspect_mask: aspect,
            mip_level: level,
            base_array_layer: base,
            layer_count: count,
        }
    }
}

/// The access a layout is used with by the cases.
fn access(layout: vk::ImageLayout) -> vk::AccessFlags {
    match layout {
        vk::ImageLayout::TRANSFER_DST_OPTIMAL => vk::AccessFlags::TRANSFER_WRITE,
        vk::ImageLayout::TRANSFER_SRC_OPTIMAL => vk::AccessFlags::TRANSFER_READ,
        _ => vk::AccessFlags::empty(),
    }
}

impl Recorder<'_> {
    /// Moves the host images a compute shader reads and writes from their
    /// initial layout to GENERAL, what the host wrote made visible to the
    /// shader.
    pub fn for_shaders(&self, images: &[&HostImage]) {
        self.for_shaders_at(images, vk::PipelineStageFlags::COMPUTE_SHADER);
    }

    /// [`Recorder::for_shaders`] for the shaders of `stages`.
    pub fn for_shaders_at(&self, images: &[&HostImage], stages: vk::PipelineStageFlags) {
        let barriers: Vec<_> = images
            .iter()
            .map(|i| {
                vk::ImageMemoryBarrier::default()
                    .src_access_mask(vk::AccessFlags::HOST_WRITE)
                    .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)
                    .old_layout(vk::ImageLayout::PREINITIALIZED)
                    .new_layout(vk::ImageLayout::GENERAL)
                    .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                    .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                    .image(i.image.handle)
                    .subresource_range(i.image.range())
            })
            .collect();
        // SAFETY: the command buffer is recording; the images are alive.
        unsafe {
            self.device().cmd_pipeline_barrier(
                self.command_buffer(),
                vk::PipelineStageFlags::HOST,
                stages,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barriers,
            )
        };
    }

    /// Moves every subresource of `image` from `old` to `new`, after the
    /// transfers that used it in `old` and before those that use it in
    /// `new`.
    pub fn transition(&self, image: &Image, old: vk::ImageLayout, new: vk::ImageLayout) {
        let src_access = if old == vk::ImageLayout::UNDEFINED {
            vk::AccessFlags::empty()
        } else {
            access(old) | vk::AccessFlags::TRANSFER_WRITE
        };
        let dst_access = access(new) | vk::AccessFlags::TRANSFER_WRITE;
        let transfer = vk::PipelineStageFlags::TRANSFER;
        self.layout_barrier(image, [old, new], [src_access, dst_access], transfer);
    }

    /// Moves every subresource of `image` from `old` to `new`, ordering
    /// every command before with every command after (transfers and
    /// render-pass attachment accesses alike).
    pub fn relayout(&self, image: &Image, old: vk::ImageLayout, new: vk::ImageLayout) {
        let all = vk::AccessFlags::TRANSFER_READ
            | vk::AccessFlags::TRANSFER_WRITE
            | vk::AccessFlags::COLOR_ATTACHMENT_READ
            | vk::AccessFlags::COLOR_ATTACHMENT_WRITE
            | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
            | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE;
        let stages = vk::PipelineStageFlags::ALL_COMMANDS;
        self.layout_barrier(image, [old, new], [all, all], stages);
    }

    /// One image barrier over all of `image`, between `stages` and
    /// `stages`.
    fn layout_barrier(
        &self,
        image: &Image,
        [old, new]: [vk::ImageLayout; 2],
        [src_access, dst_access]: [vk::AccessFlags; 2],
        stages: vk::PipelineStageFlags,
    ) {
        let barrier = [vk::ImageMemoryBarrier::default()
            .src_access_mask(src_access)
            .dst_access_mask(dst_access)
            .old_layout(old)
            .new_layout(new)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image.handle)
            .subresource_range(image.range())];
        // SAFETY: the command buffer is recording; the image is alive.
        unsafe {
            self.device().cmd_pipeline_barrier(
                self.command_buffer(),
                stages,
                stages,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier,
            )
        };
    }

    pub fn buffer_to_image(
        &self,
        src: &super::Buffer,
        dst: &Image,
        regions: &[vk::BufferImageCopy],
    ) {
        // SAFETY: the command buffer is recording; both are alive.
        unsafe {
            self.device().cmd_copy_buffer_to_image(
                self.command_buffer(),
                src.handle,
                dst.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                regions,
            )
        };
    }

    pub fn image_to_buffer(
        &self,
        src: &Image,
        dst: &super::Buffer,
        regions: &[vk::BufferImageCopy],
    ) {
        // SAFETY: as above.
        unsafe {
            self.device().cmd_copy_image_to_buffer(
                self.command_buffer(),
                src.handle,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                dst.handle,
                regions,
            )
        };
    }

    pub fn image_to_image(&self, src: &Image, dst: &Image, regions: &[vk::ImageCopy]) {
        // SAFETY: as above.
        unsafe {
            self.device().cmd_copy_image(
                self.command_buffer(),
                src.handle,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                dst.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                regions,
            )
        };
    }

    pub fn blit(&self, src: &Image, dst: &Image, regions: &[vk::ImageBlit], filter: vk::Filter) {
        // SAFETY: as above.
        unsafe {
            self.device().cmd_blit_image(
                self.command_buffer(),
                src.handle,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                dst.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                regions,
                filter,
            )
        };
    }

    pub fn clear_color(
        &self,
        image: &Image,
        value: vk::ClearColorValue,
        ranges: &[vk::ImageSubresourceRange],
    ) {
        // SAFETY: as above.
        unsafe {
            self.device().cmd_clear_color_image(
                self.command_buffer(),
                image.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &value,
                ranges,
            )
        };
    }

    pub fn clear_depth_stencil(
        &self,
        image: &Image,
        value: vk::ClearDepthStencilValue,
        ranges: &[vk::ImageSubresourceRange],
    ) {
        // SAFETY: as above.
        unsafe {
            self.device().cmd_clear_depth_stencil_image(
                self.command_buffer(),
                image.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &value,
                ranges,
            )
        };
    }
}
