//! The demo's texture: an 8x8 checkerboard of two grey levels, copied
//! from a staging buffer into an optimally tiled image, and the
//! descriptor set through which the fragment shader samples it (nearest,
//! clamped to the edge). textured.vert projects it onto the scene from
//! the front, so the texel a pixel samples follows from the pixel's
//! position alone: 16x12 pixels a texel on the 128x96 image.

use ash::vk;

use super::memory::{allocate, Allocation};
use super::scene::{image, range, Objects};

/// Texels a side.
pub const TEXELS: u32 = 8;
/// The two grey levels: the scene's colours at full and at a quarter.
pub const BRIGHT: u8 = 255;
pub const DARK: u8 = 64;

const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;

/// The grey level of texel (i, j).
pub fn level(i: u32, j: u32) -> u8 {
    if (i + j).is_multiple_of(2) {
        BRIGHT
    } else {
        DARK
    }
}

fn texels() -> Vec<u8> {
    (0..TEXELS)
        .flat_map(|j| (0..TEXELS).flat_map(move |i| [level(i, j), level(i, j), level(i, j), 255]))
        .collect()
}

/// The texture's objects but its image's (the scene's, with its other
/// images), for the caller to destroy.
pub struct Texture {
    pub image: vk::Image,
    pub staging: Allocation,
    pub sampler: vk::Sampler,
    pub set_layout: vk::DescriptorSetLayout,
    pub pool: vk::DescriptorPool,
    pub set: vk::DescriptorSet,
}

/// Creates the texture in `o` (its image with the scene's), its staging
/// buffer (filled) and its descriptor set; each object is kept in `o` as
/// it is made, so that a failure half-way leaves nothing behind.
pub fn create(
    device: &ash::Device,
    memory_props: &vk::PhysicalDeviceMemoryProperties,
    o: &mut Objects,
) -> Result<(), String> {
    let bytes = texels();
    let staging = allocate(
        device,
        memory_props,
        bytes.len() as u64,
        vk::BufferUsageFlags::TRANSFER_SRC,
    )?;
    o.texture = Some(Texture {
        image: vk::Image::null(),
        staging,
        sampler: vk::Sampler::null(),
        set_layout: vk::DescriptorSetLayout::null(),
        pool: vk::DescriptorPool::null(),
        set: vk::DescriptorSet::null(),
    });
    staging.write(device, &bytes)?;
    let (image, view) = image(
        device,
        memory_props,
        FORMAT,
        [TEXELS, TEXELS],
        vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
        vk::ImageAspectFlags::COLOR,
        o,
    )?;
    let t = o.texture.as_mut().expect("set above");
    t.image = image;
    let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
    let sampler_info = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::NEAREST)
        .min_filter(vk::Filter::NEAREST)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(clamp)
        .address_mode_v(clamp)
        .address_mode_w(clamp);
    let binding = [vk::DescriptorSetLayoutBinding::default()
        .binding(0)
        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
        .descriptor_count(1)
        .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
    let sizes = [vk::DescriptorPoolSize {
        ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        descriptor_count: 1,
    }];
    // SAFETY: the device is live; every create info refers to locals alive
    // for its call; each object is recorded in `t` to be destroyed.
    unsafe {
        t.sampler = device
            .create_sampler(&sampler_info, None)
            .map_err(|e| format!("vkCreateSampler failed: {e:?}"))?;
        t.set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                None,
            )
            .map_err(|e| format!("vkCreateDescriptorSetLayout failed: {e:?}"))?;
        t.pool = device
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
            .map_err(|e| format!("vkCreateDescriptorPool failed: {e:?}"))?;
        let layouts = [t.set_layout];
        t.set = device
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(t.pool)
                    .set_layouts(&layouts),
            )
            .map_err(|e| format!("vkAllocateDescriptorSets failed: {e:?}"))?[0];
        let image_info = [vk::DescriptorImageInfo {
            sampler: t.sampler,
            image_view: view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(t.set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&image_info);
        device.update_descriptor_sets(&[write], &[]);
    }
    Ok(())
}

impl Texture {
    /// Records the copy from the staging buffer, and the layout change
    /// that makes it visible to the fragment shader.
    ///
    /// # Safety
    /// `cmd` is recording, outside a render pass; the texture is live.
    pub unsafe fn record_upload(&self, device: &ash::Device, cmd: vk::CommandBuffer) {
        let barrier = |old, new, src, dst| {
            [vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(old)
                .new_layout(new)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(self.image)
                .subresource_range(range(vk::ImageAspectFlags::COLOR))]
        };
        let region = vk::BufferImageCopy {
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_extent: vk::Extent3D {
                width: TEXELS,
                height: TEXELS,
                depth: 1,
            },
            ..Default::default()
        };
        let transfer = vk::PipelineStageFlags::TRANSFER;
        // SAFETY: the caller's promise.
        unsafe {
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                transfer,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier(
                    vk::ImageLayout::UNDEFINED,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::AccessFlags::empty(),
                    vk::AccessFlags::TRANSFER_WRITE,
                ),
            );
            device.cmd_copy_buffer_to_image(
                cmd,
                self.staging.buffer,
                self.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            );
            device.cmd_pipeline_barrier(
                cmd,
                transfer,
                vk::PipelineStageFlags::FRAGMENT_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier(
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                    vk::AccessFlags::TRANSFER_WRITE,
                    vk::AccessFlags::SHADER_READ,
                ),
            );
        }
    }

    /// # Safety
    /// The objects are of `device` and no longer in use.
    pub unsafe fn destroy(&self, device: &ash::Device) {
        // SAFETY: the caller's promise; null handles are ignored.
        unsafe {
            device.destroy_descriptor_pool(self.pool, None);
            device.destroy_descriptor_set_layout(self.set_layout, None);
            device.destroy_sampler(self.sampler, None);
            self.staging.destroy(device);
        }
    }
}
