//! What a `VkDescriptorImageInfo` write puts in a set's slots, per
//! descriptor type:
//!
//! - sampled images and input attachments: the view's texture descriptor
//!   (what the texture unit reads; an input attachment read from system
//!   memory is a texel fetch of it);
//! - storage images: the view's storage descriptor (no mip levels, cubes as
//!   2D arrays), what the SP's typed `ldib`/`stib` read;
//! - samplers: the sampler's `A6XX_TEX_SAMP`;
//! - combined image samplers: the texture in the element's first slot and
//!   the sampler in the next (see `set_layout`), unless the binding has
//!   immutable samplers, which the set already holds and the write's
//!   sampler does not replace (the spec ignores it).
//!
//! The image layout a write names does not change a descriptor: every unit
//! that reads an image understands its UBWC state in every layout.

use ash::vk;
use smallvec::SmallVec;

use super::encoding::Descriptor;
use super::set_layout::SetBinding;
use crate::error::VkResult;
use crate::image::sampler::Sampler;
use crate::image::view::ImageView;

/// The (slot, descriptor) pairs writing element `element` of `b` with
/// `view` and `sampler` stores.
pub fn image_slots(
    b: &SetBinding,
    element: u32,
    view: Option<&ImageView>,
    sampler: Option<&Sampler>,
) -> VkResult<SmallVec<[(u32, Descriptor); 2]>> {
    let missing = |what: &str| {
        eprintln!(
            "parsnip: descriptor update: binding {} ({:?}) element {element} is written \
             without {what}",
            b.binding, b.ty
        );
        vk::Result::ERROR_UNKNOWN
    };
    let slot = b.slot(element);
    let mut out = SmallVec::new();
    match b.ty {
        vk::DescriptorType::SAMPLED_IMAGE | vk::DescriptorType::INPUT_ATTACHMENT => {
            out.push((slot, view.ok_or_else(|| missing("an image view"))?.texture));
        }
        vk::DescriptorType::STORAGE_IMAGE => {
            out.push((slot, view.ok_or_else(|| missing("an image view"))?.storage));
        }
        vk::DescriptorType::SAMPLER => {
            if b.immutable_samplers.is_empty() {
                out.push((
                    slot,
                    sampler.ok_or_else(|| missing("a sampler"))?.descriptor,
                ));
            }
        }
        vk::DescriptorType::COMBINED_IMAGE_SAMPLER => {
            out.push((slot, view.ok_or_else(|| missing("an image view"))?.texture));
            if b.immutable_samplers.is_empty() {
                let s = sampler.ok_or_else(|| missing("a sampler"))?;
                out.push((slot + 1, s.descriptor));
            }
        }
        ty => {
            eprintln!("parsnip: descriptor update: an image write to a {ty:?} binding");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::descriptor::encoding::SamplerArgs;
    use crate::descriptor::pool::DescriptorPool;
    use crate::descriptor::set::{DescriptorSet, DescriptorWrite};
    use crate::descriptor::set_layout::{BindingDesc, DescriptorSetLayout, ImmutableSamplers};
    use crate::device::tests::null_device;
    use crate::device_memory::DeviceMemory;
    use crate::image::view::ViewDesc;
    use crate::image::{Image, ImageDesc};

    fn sampler(max_lod: f32) -> Arc<Sampler> {
        Sampler::new(SamplerArgs {
            mag: vk::Filter::NEAREST,
            min: vk::Filter::NEAREST,
            mipmap: vk::SamplerMipmapMode::NEAREST,
            address: [vk::SamplerAddressMode::CLAMP_TO_EDGE; 3],
            lod_bias: 0.0,
            anisotropy: None,
            compare: None,
            min_lod: 0.0,
            max_lod,
            border_color: 0,
            unnormalized: false,
            reduction: vk::SamplerReductionMode::WEIGHTED_AVERAGE,
            seamless_cube: true,
        })
        .unwrap()
    }

    /// The mip_lod traces' texture: 8x8 RGBA8 with 4 levels, sampled.
    fn mip_lod_view(device: &Arc<crate::device::Device>) -> Arc<ImageView> {
        let image = Image::new(
            ImageDesc {
                image_type: vk::ImageType::TYPE_2D,
                format: vk::Format::R8G8B8A8_UNORM,
                extent: vk::Extent3D {
                    width: 8,
                    height: 8,
                    depth: 1,
                },
                levels: 4,
                layers: 1,
                samples: 1,
                tiling: vk::ImageTiling::OPTIMAL,
                usage: vk::ImageUsageFlags::SAMPLED
                    | vk::ImageUsageFlags::STORAGE
                    | vk::ImageUsageFlags::TRANSFER_DST,
                flags: vk::ImageCreateFlags::empty(),
                view_formats_swap: false,
            },
            device.gpu.entry,
        )
        .unwrap();
        let memory = DeviceMemory::allocate(device, image.size.next_multiple_of(4096), 0).unwrap();
        image.bind(memory, 0).unwrap();
        let desc = ViewDesc {
            view_type: vk::ImageViewType::TYPE_2D,
            format: vk::Format::R8G8B8A8_UNORM,
            components: vk::ComponentMapping::default(),
            range: vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: 0,
                level_count: 4,
                base_array_layer: 0,
                layer_count: 1,
            },
            min_lod: 0.0,
        };
        ImageView::new(device.gpu.chip(), image, desc).unwrap()
    }

    fn binding(binding: u32, ty: vk::DescriptorType, count: u32) -> BindingDesc {
        BindingDesc {
            binding,
            ty,
            count,
            stages: vk::ShaderStageFlags::COMPUTE,
        }
    }

    #[test]
    fn a_combined_image_sampler_is_turnips_texture_then_sampler() {
        // mip_lod_sysmem.rd.gz (a660 and a740): the set at 0x100038000
        // holds the texture (0c036880 00040008 20008002 00000002, then
        // the address with 1 << 17) and at +0x40 the sampler (00000920
        // 00030000 0 0): one combined image sampler.
        for gpu in ["a660", "a740"] {
            let device = null_device(gpu);
            let view = mip_lod_view(&device);
            let iova = view.image.iova(0);
            let layout = DescriptorSetLayout::new(&[binding(
                0,
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                1,
            )])
            .unwrap();
            let pool = DescriptorPool::new(
                &device,
                1,
                &[(vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 1)],
            )
            .unwrap();
            let set = DescriptorSet::allocate(&pool, &layout).unwrap();
            let sampler = sampler(3.0);
            let write = DescriptorWrite::Image {
                view: Some(&view),
                sampler: Some(&sampler),
            };
            set.write(0, 0, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, &[write])
                .unwrap();
            let words = set.contents().unwrap();
            assert_eq!(words.len(), 32, "{gpu}: two slots");
            let mut turnip = [0u32; 32];
            turnip[..6].copy_from_slice(&[
                0x0c03_6880,
                0x0004_0008,
                0x2000_8002,
                2,
                iova as u32,
                (iova >> 32) as u32 | 1 << 17,
            ]);
            turnip[16..18].copy_from_slice(&[0x920, 0x0003_0000]);
            assert_eq!(words, turnip, "{gpu}");
        }
    }

    #[test]
    fn each_image_type_writes_its_descriptor_and_immutable_samplers_stay() {
        let device = null_device("a660");
        let view = mip_lod_view(&device);
        let (fixed, other) = (sampler(1.0), sampler(2.0));
        let layout = DescriptorSetLayout::with_immutable_samplers(
            &[
                binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
                binding(1, vk::DescriptorType::STORAGE_IMAGE, 1),
                binding(2, vk::DescriptorType::SAMPLER, 1),
                binding(3, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 2),
                binding(4, vk::DescriptorType::INPUT_ATTACHMENT, 1),
            ],
            &[ImmutableSamplers {
                binding: 3,
                descriptors: vec![fixed.descriptor; 2],
            }],
        )
        .unwrap();
        let pool = DescriptorPool::new(&device, 3, &[(vk::DescriptorType::SAMPLER, 20)]).unwrap();
        let set = DescriptorSet::allocate(&pool, &layout).unwrap();
        let slot = |words: &[u32], n: usize| words[16 * n..16 * (n + 1)].to_vec();
        // Slots: 0 sampled, 1 storage, 2 sampler, 3-6 combined, 7 input.
        let fresh = set.contents().unwrap();
        assert_eq!(
            slot(&fresh, 4),
            fixed.descriptor,
            "immutable from the start"
        );
        assert_eq!(slot(&fresh, 6), fixed.descriptor);
        fn image<'a>(view: &'a ImageView, sampler: Option<&'a Sampler>) -> DescriptorWrite<'a> {
            DescriptorWrite::Image {
                view: Some(view),
                sampler,
            }
        }
        use vk::DescriptorType as T;
        set.write(0, 0, T::SAMPLED_IMAGE, &[image(&view, None)])
            .unwrap();
        set.write(1, 0, T::STORAGE_IMAGE, &[image(&view, None)])
            .unwrap();
        let only_sampler = DescriptorWrite::Image {
            view: None,
            sampler: Some(&*other),
        };
        set.write(2, 0, T::SAMPLER, &[only_sampler]).unwrap();
        // The write's sampler is ignored where the layout has immutable
        // ones; the second element continues into binding 4.
        let pair = image(&view, Some(&*other));
        set.write(3, 1, T::COMBINED_IMAGE_SAMPLER, &[pair]).unwrap();
        set.write(4, 0, T::INPUT_ATTACHMENT, &[image(&view, None)])
            .unwrap();
        let words = set.contents().unwrap();
        assert_eq!(slot(&words, 0), view.texture);
        assert_eq!(slot(&words, 1), view.storage);
        assert_ne!(view.texture, view.storage, "storage views have no levels");
        assert_eq!(slot(&words, 2), other.descriptor);
        assert!(
            slot(&words, 3).iter().all(|&w| w == 0),
            "element 0 unwritten"
        );
        assert_eq!(slot(&words, 5), view.texture);
        assert_eq!(slot(&words, 6), fixed.descriptor);
        assert_eq!(slot(&words, 7), view.texture);

        // A copy of a combined element carries both slots.
        let copy = DescriptorSet::allocate(&pool, &layout).unwrap();
        copy.copy_from(3, 0, &set, 3, 1, 1).unwrap();
        let copied = copy.contents().unwrap();
        assert_eq!(slot(&copied, 3), view.texture);
        assert_eq!(slot(&copied, 4), fixed.descriptor);

        // A sampled image without a view, a sampler binding written without
        // a sampler, an image write to a buffer binding: refused.
        let nothing = DescriptorWrite::Image {
            view: None,
            sampler: None,
        };
        assert!(set
            .write(0, 0, T::SAMPLED_IMAGE, std::slice::from_ref(&nothing))
            .is_err());
        assert!(set.write(2, 0, T::SAMPLER, &[nothing]).is_err());
        let buffers = DescriptorSetLayout::new(&[binding(0, T::STORAGE_BUFFER, 1)]).unwrap();
        let b = DescriptorSet::allocate(&pool, &buffers).unwrap();
        assert!(b
            .write(0, 0, T::STORAGE_BUFFER, &[image(&view, None)])
            .is_err());
    }
}
