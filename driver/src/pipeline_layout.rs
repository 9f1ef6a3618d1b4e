//! `VkPipelineLayout`: the set layouts a pipeline sees, and its push
//! constants. It also gives the compiler its view of the descriptors: for
//! every (set, binding), the slot of element 0 within the set.

use std::sync::Arc;

use ash::vk;
use parsnip_compiler::descriptor_layout::{BindingLayout, DescriptorKind, DescriptorLayout};

use crate::descriptor::set_layout::DescriptorSetLayout;
use crate::error::VkResult;
use crate::limits::{MAX_PUSH_CONSTANTS_SIZE, MAX_SETS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushConstantRange {
    pub stages: vk::ShaderStageFlags,
    pub offset: u32,
    pub size: u32,
}

pub struct PipelineLayout {
    /// `None` for a set index the layout leaves empty.
    pub sets: Vec<Option<Arc<DescriptorSetLayout>>>,
    pub push_constants: Vec<PushConstantRange>,
}

impl PipelineLayout {
    pub fn new(
        sets: Vec<Option<Arc<DescriptorSetLayout>>>,
        push_constants: Vec<PushConstantRange>,
    ) -> VkResult<Arc<PipelineLayout>> {
        if sets.len() as u32 > MAX_SETS {
            eprintln!(
                "parsnip: vkCreatePipelineLayout: {} sets, more than the {MAX_SETS} supported",
                sets.len()
            );
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        if push_constants
            .iter()
            .any(|r| r.offset.saturating_add(r.size) > MAX_PUSH_CONSTANTS_SIZE)
        {
            eprintln!("parsnip: vkCreatePipelineLayout: push constants beyond {MAX_PUSH_CONSTANTS_SIZE} bytes");
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(PipelineLayout {
            sets,
            push_constants,
        }))
    }

    /// Bytes of push constants the layout declares (the end of its last
    /// range).
    pub fn push_constant_size(&self) -> u32 {
        self.push_constants
            .iter()
            .map(|r| r.offset + r.size)
            .max()
            .unwrap_or(0)
    }

    /// Dynamic offsets each set consumes, in set order.
    pub fn dynamic_counts(&self) -> Vec<u32> {
        self.sets
            .iter()
            .map(|s| s.as_ref().map_or(0, |l| l.dynamic_count))
            .collect()
    }

    /// What the compiler needs to know of the descriptors.
    pub fn compiler_layout(&self) -> DescriptorLayout {
        let mut bindings = Vec::new();
        for (set, layout) in self.sets.iter().enumerate() {
            let Some(layout) = layout else { continue };
            for b in &layout.bindings {
                let kind = match b.ty {
                    vk::DescriptorType::UNIFORM_BUFFER
                    | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC => DescriptorKind::UniformBuffer,
                    vk::DescriptorType::STORAGE_BUFFER
                    | vk::DescriptorType::STORAGE_BUFFER_DYNAMIC => DescriptorKind::StorageBuffer,
                    vk::DescriptorType::UNIFORM_TEXEL_BUFFER => DescriptorKind::UniformTexelBuffer,
                    vk::DescriptorType::STORAGE_TEXEL_BUFFER => DescriptorKind::StorageTexelBuffer,
                    vk::DescriptorType::SAMPLED_IMAGE => DescriptorKind::SampledImage,
                    vk::DescriptorType::STORAGE_IMAGE => DescriptorKind::StorageImage,
                    vk::DescriptorType::SAMPLER => DescriptorKind::Sampler,
                    vk::DescriptorType::COMBINED_IMAGE_SAMPLER => {
                        DescriptorKind::CombinedImageSampler
                    }
                    vk::DescriptorType::INPUT_ATTACHMENT => DescriptorKind::InputAttachment,
                    // The block's UBO descriptor is its first slot; its
                    // count is bytes, the shader sees one buffer.
                    crate::descriptor::inline_block::TYPE => DescriptorKind::UniformBuffer,
                    // Kinds of extensions a layout cannot hold.
                    _ => continue,
                };
                let count = if b.ty == crate::descriptor::inline_block::TYPE {
                    1
                } else {
                    b.count
                };
                bindings.push(BindingLayout {
                    set: set as u32,
                    binding: b.binding,
                    kind,
                    first_descriptor: b.first_slot,
                    count,
                });
            }
        }
        DescriptorLayout { bindings }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::set_layout::BindingDesc;

    #[test]
    fn the_compiler_sees_each_bindings_first_slot() {
        let set = DescriptorSetLayout::new(&[
            BindingDesc {
                binding: 2,
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                count: 1,
                stages: vk::ShaderStageFlags::COMPUTE,
            },
            BindingDesc {
                binding: 0,
                ty: vk::DescriptorType::STORAGE_BUFFER,
                count: 3,
                stages: vk::ShaderStageFlags::COMPUTE,
            },
            BindingDesc {
                binding: 4,
                ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                count: 2,
                stages: vk::ShaderStageFlags::COMPUTE,
            },
            BindingDesc {
                binding: 5,
                ty: vk::DescriptorType::STORAGE_TEXEL_BUFFER,
                count: 1,
                stages: vk::ShaderStageFlags::COMPUTE,
            },
        ])
        .unwrap();
        let layout = PipelineLayout::new(
            vec![None, Some(set)],
            vec![PushConstantRange {
                stages: vk::ShaderStageFlags::COMPUTE,
                offset: 16,
                size: 16,
            }],
        )
        .unwrap();
        let c = layout.compiler_layout();
        let ubo = c.find(1, 2).unwrap();
        assert_eq!(
            (ubo.kind, ubo.first_descriptor),
            (DescriptorKind::UniformBuffer, 3)
        );
        assert_eq!(c.find(1, 0).unwrap().count, 3);
        // Texel buffers follow in binding order, one slot per element.
        let uniform = c.find(1, 4).unwrap();
        assert_eq!(
            (uniform.kind, uniform.first_descriptor, uniform.count),
            (DescriptorKind::UniformTexelBuffer, 4, 2)
        );
        let storage = c.find(1, 5).unwrap();
        assert_eq!(
            (storage.kind, storage.first_descriptor),
            (DescriptorKind::StorageTexelBuffer, 6)
        );
        assert!(c.find(0, 0).is_none());
        assert_eq!(layout.push_constant_size(), 32);
        assert_eq!(layout.dynamic_counts(), vec![0, 0]);
    }

    #[test]
    fn combined_image_samplers_take_two_descriptors_the_compiler_steps_over() {
        let b = |binding, ty, count| BindingDesc {
            binding,
            ty,
            count,
            stages: vk::ShaderStageFlags::COMPUTE,
        };
        let set = DescriptorSetLayout::new(&[
            b(0, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 3),
            b(1, vk::DescriptorType::SAMPLER, 1),
            b(2, vk::DescriptorType::SAMPLED_IMAGE, 2),
            b(3, vk::DescriptorType::STORAGE_IMAGE, 1),
        ])
        .unwrap();
        let layout = PipelineLayout::new(vec![Some(set)], vec![]).unwrap();
        let c = layout.compiler_layout();
        let placed: Vec<(DescriptorKind, u32, u32)> = c
            .bindings
            .iter()
            .map(|b| (b.kind, b.first_descriptor, b.count))
            .collect();
        // Three combined elements are six descriptors (texture, sampler).
        assert_eq!(
            placed,
            vec![
                (DescriptorKind::CombinedImageSampler, 0, 3),
                (DescriptorKind::Sampler, 6, 1),
                (DescriptorKind::SampledImage, 7, 2),
                (DescriptorKind::StorageImage, 9, 1),
            ]
        );
        assert_eq!(c.find(0, 0).unwrap().descriptor(2), 4);
        // Descriptor 5 is element 2's sampler.
        assert_eq!(
            c.element_at(0, 5).map(|(b, e)| (b.binding, e)),
            Some((0, 2))
        );
    }

    #[test]
    fn too_many_sets_or_push_constants_are_refused() {
        assert!(PipelineLayout::new(vec![None; 5], vec![]).is_err());
        let big = PushConstantRange {
            stages: vk::ShaderStageFlags::COMPUTE,
            offset: 64,
            size: 128,
        };
        assert!(PipelineLayout::new(vec![], vec![big]).is_err());
    }
}
