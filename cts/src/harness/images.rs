//! Images bound to memory of their own, layout transitions, and the
//! image transfer commands.

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
        // SAFETY: a query on the live physical device.
        let props = unsafe {
            self.instance.get_physical_device_image_format_properties(
                self.physical,
                shape.format,
                shape.image_type,
                shape.tiling,
                USAGE,
                vk::ImageCreateFlags::empty(),
            )
        };
        let props = props.map_err(|e| {
            Stop::NotSupported(format!(
                "{:?} {:?} images: {e:?}",
                shape.format, shape.tiling
            ))
        })?;
        if props.max_mip_levels < shape.levels || props.max_array_layers < shape.layers {
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
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(shape.tiling)
            .usage(USAGE)
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
    /// Moves every subresource of `image` from `old` to `new`, after the
    /// transfers that used it in `old` and before those that use it in
    /// `new`.
    pub fn transition(&self, image: &Image, old: vk::ImageLayout, new: vk::ImageLayout) {
        let src_access = if old == vk::ImageLayout::UNDEFINED {
            vk::AccessFlags::empty()
        } else {
            access(old) | vk::AccessFlags::TRANSFER_WRITE
        };
        let barrier = [vk::ImageMemoryBarrier::default()
            .src_access_mask(src_access)
            .dst_access_mask(access(new) | vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(old)
            .new_layout(new)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image.handle)
            .subresource_range(image.range())];
        let transfer = vk::PipelineStageFlags::TRANSFER;
        // SAFETY: the command buffer is recording; the image is alive.
        unsafe {
            self.device().cmd_pipeline_barrier(
                self.command_buffer(),
                transfer,
                transfer,
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
