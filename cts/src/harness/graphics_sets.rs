//! Descriptor sets for the graphics stages: pipeline layouts whose sets
//! the vertex and fragment shaders read, binding and pushing them at the
//! GRAPHICS bind point, and sampled textures uploaded through a staging
//! buffer.

use super::commands::Recorder;
use super::images::{Image, ImageShape};
use super::memory::Buffer;
use super::pipelines::{Bind, Slot};
use super::Harness;
use crate::case::{OrStop, Stop};
use ash::vk;

/// The stages every graphics set and push constant range is for.
pub const GRAPHICS_STAGES: vk::ShaderStageFlags = vk::ShaderStageFlags::from_raw(
    vk::ShaderStageFlags::VERTEX.as_raw() | vk::ShaderStageFlags::FRAGMENT.as_raw(),
);

/// A pipeline layout for graphics pipelines and the layouts of its sets.
#[derive(Clone, Debug)]
pub struct GraphicsLayout {
    pub layout: vk::PipelineLayout,
    pub set_layouts: Vec<vk::DescriptorSetLayout>,
    sets: Vec<Vec<Slot>>,
}

/// A sampled 2D image in SHADER_READ_ONLY_OPTIMAL and a view of it.
#[derive(Clone, Copy, Debug)]
pub struct Texture {
    pub image: Image,
    pub view: vk::ImageView,
}

impl Texture {
    /// The image info of a descriptor that samples it with `sampler`
    /// (null for a sampled image alone).
    pub fn info(&self, sampler: vk::Sampler) -> vk::DescriptorImageInfo {
        vk::DescriptorImageInfo {
            sampler,
            image_view: self.view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }
    }
}

impl Harness {
    /// A pipeline layout of `sets` (for the vertex and fragment stages;
    /// `push_set`'s a push descriptor layout) and one push constant range
    /// of `push_constant_bytes` from 0.
    pub fn graphics_layout(
        &mut self,
        sets: &[&[Slot]],
        push_set: Option<usize>,
        push_constant_bytes: u32,
    ) -> Result<GraphicsLayout, Stop> {
        let mut set_layouts = Vec::new();
        for (i, slots) in sets.iter().enumerate() {
            let flags = if push_set == Some(i) {
                vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR
            } else {
                vk::DescriptorSetLayoutCreateFlags::empty()
            };
            set_layouts.push(self.set_layout_for(slots, false, flags, GRAPHICS_STAGES)?);
        }
        let ranges = [vk::PushConstantRange {
            stage_flags: GRAPHICS_STAGES,
            offset: 0,
            size: push_constant_bytes,
        }];
        let n = usize::from(push_constant_bytes > 0);
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&set_layouts)
            .push_constant_ranges(&ranges[..n]);
        // SAFETY: the device and the set layouts are alive; `info` outlives
        // the call.
        let layout = unsafe { self.device().create_pipeline_layout(&info, None) }
            .or_stop("vkCreatePipelineLayout")?;
        Ok(GraphicsLayout {
            layout: self.own(layout),
            set_layouts,
            sets: sets.iter().map(|s| s.to_vec()).collect(),
        })
    }

    /// A descriptor set for set `set` of `layout`, written with `binds`.
    pub fn graphics_set(
        &mut self,
        layout: &GraphicsLayout,
        set: usize,
        binds: &[Bind],
    ) -> Result<vk::DescriptorSet, Stop> {
        let Some(slots) = layout.sets.get(set) else {
            return Err(Stop::Error(format!("the layout has no set {set}")));
        };
        self.descriptor_set_of(layout.set_layouts[set], slots, binds)
    }

    /// A `width` x `height` optimally tiled `format` image the shaders
    /// sample, holding `texels` (rows tightly packed): copied from a
    /// staging buffer, then made visible to the vertex and fragment
    /// shaders in SHADER_READ_ONLY_OPTIMAL.
    pub fn texture(
        &mut self,
        format: vk::Format,
        [width, height]: [u32; 2],
        texels: &[u8],
    ) -> Result<Texture, Stop> {
        let shape = ImageShape::two_d(format, width, height, vk::ImageTiling::OPTIMAL);
        let image = self.image_for(
            shape,
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            vk::SampleCountFlags::TYPE_1,
        )?;
        let staging = self.host_buffer_with(vk::BufferUsageFlags::TRANSFER_SRC, texels)?;
        self.run(|r| r.upload_texture(&staging, &image))?;
        let view = self.image_view(&image, vk::ImageViewType::TYPE_2D)?;
        Ok(Texture { image, view })
    }

    /// A sampler filtering with `filter` and clamping to the edge.
    pub fn clamped_sampler(&mut self, filter: vk::Filter) -> Result<vk::Sampler, Stop> {
        let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
            .address_mode_u(clamp)
            .address_mode_v(clamp)
            .address_mode_w(clamp)
            .max_lod(0.25);
        self.sampler(&info)
    }
}

impl Recorder<'_> {
    /// Copies `staging` into all of `image` (from UNDEFINED), then moves it
    /// to SHADER_READ_ONLY_OPTIMAL for the vertex and fragment shaders.
    pub fn upload_texture(&self, staging: &Buffer, image: &Image) {
        let barrier = |old, new, src_access, dst_access| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src_access)
                .dst_access_mask(dst_access)
                .old_layout(old)
                .new_layout(new)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image.handle)
                .subresource_range(image.range())
        };
        let to_copy = [barrier(
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::AccessFlags::empty(),
            vk::AccessFlags::TRANSFER_WRITE,
        )];
        let to_shaders = [barrier(
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            vk::AccessFlags::TRANSFER_WRITE,
            vk::AccessFlags::SHADER_READ,
        )];
        let shaders =
            vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER;
        let transfer = vk::PipelineStageFlags::TRANSFER;
        let cmd = self.command_buffer();
        // SAFETY: the command buffer is recording; the buffer and the image
        // are alive, the copy within both.
        unsafe {
            let d = self.device();
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                transfer,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_copy,
            );
            d.cmd_copy_buffer_to_image(
                cmd,
                staging.handle,
                image.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[image.whole_copy()],
            );
            d.cmd_pipeline_barrier(
                cmd,
                transfer,
                shaders,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_shaders,
            );
        }
    }

    /// Binds `sets` as sets `first`, `first + 1`, ... of `layout` at the
    /// GRAPHICS bind point, with the dynamic offsets of their dynamic
    /// buffers.
    pub fn bind_graphics_sets(
        &self,
        layout: &GraphicsLayout,
        first: u32,
        sets: &[vk::DescriptorSet],
        dynamic_offsets: &[u32],
    ) {
        // SAFETY: the command buffer is recording; the layout and the sets
        // are alive (owned by the harness).
        unsafe {
            self.device().cmd_bind_descriptor_sets(
                self.command_buffer(),
                vk::PipelineBindPoint::GRAPHICS,
                layout.layout,
                first,
                sets,
                dynamic_offsets,
            )
        };
    }
}
