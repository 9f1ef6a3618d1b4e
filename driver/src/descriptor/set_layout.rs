//! `VkDescriptorSetLayout`: where each binding's descriptors sit in a set's
//! memory.
//!
//! Bindings are laid out in binding order, one 64-byte slot per array
//! element (the hardware reads every kind from a 16-dword slot at
//! SP_BINDLESS_BASE[set] + 64 * index), except combined image samplers,
//! which take two: the texture, then its sampler, the layout Turnip uses
//! (the mip_lod traces' set holds the texture at +0 and its sampler at
//! +0x40), so that a shader names the sampler as the slot after the
//! texture's. Dynamic buffers have slots too: a command buffer binding the
//! set copies its descriptors and rewrites those slots with the dynamic
//! offsets applied.
//!
//! Immutable samplers are part of the layout: a set is allocated with them
//! in their slots, and writes to a combined image sampler binding that has
//! them write only the texture.

use std::sync::Arc;

use ash::vk;

use super::encoding::Descriptor;
use super::inline_block;
use crate::error::VkResult;
use crate::limits::{
    MAX_DESCRIPTORS_PER_SET, MAX_DYNAMIC_STORAGE_BUFFERS, MAX_DYNAMIC_UNIFORM_BUFFERS,
    MAX_PUSH_DESCRIPTORS,
};

/// One binding of a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetBinding {
    pub binding: u32,
    pub ty: vk::DescriptorType,
    pub count: u32,
    pub stages: vk::ShaderStageFlags,
    /// The slot of element 0.
    pub first_slot: u32,
    /// For dynamic buffers: the index of element 0 among the layout's
    /// dynamic descriptors, which is the order of dynamic offsets.
    pub first_dynamic: Option<u32>,
    /// The sampler descriptors of a sampler or combined image sampler
    /// binding with immutable samplers, one per element; empty otherwise.
    pub immutable_samplers: Vec<Descriptor>,
}

impl SetBinding {
    pub fn is_dynamic(&self) -> bool {
        self.first_dynamic.is_some()
    }

    /// The first slot of array element `element`.
    #[inline]
    pub fn slot(&self, element: u32) -> u32 {
        self.first_slot + element * slots_per_descriptor(self.ty)
    }

    /// The slot of element `element`'s sampler, for the types that have
    /// one.
    pub fn sampler_slot(&self, element: u32) -> Option<u32> {
        match self.ty {
            vk::DescriptorType::SAMPLER => Some(self.slot(element)),
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER => Some(self.slot(element) + 1),
            _ => None,
        }
    }
}

/// Slots one descriptor of `ty` takes: two for a combined image sampler
/// (texture, then sampler), one for every other type.
#[inline]
pub fn slots_per_descriptor(ty: vk::DescriptorType) -> u32 {
    if ty == vk::DescriptorType::COMBINED_IMAGE_SAMPLER {
        2
    } else {
        1
    }
}

/// The descriptor types a layout may hold.
pub fn is_dynamic_type(ty: vk::DescriptorType) -> bool {
    matches!(
        ty,
        vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC | vk::DescriptorType::STORAGE_BUFFER_DYNAMIC
    )
}

/// A binding as the application describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BindingDesc {
    pub binding: u32,
    pub ty: vk::DescriptorType,
    pub count: u32,
    pub stages: vk::ShaderStageFlags,
}

/// The immutable samplers of one binding (`pImmutableSamplers`), as
/// their descriptors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImmutableSamplers {
    pub binding: u32,
    pub descriptors: Vec<Descriptor>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct DescriptorSetLayout {
    /// Sorted by binding number.
    pub bindings: Vec<SetBinding>,
    /// Slots a set of this layout takes.
    pub slots: u32,
    /// Dynamic descriptors (dynamic offsets a bind of this set consumes).
    pub dynamic_count: u32,
    /// A push descriptor layout
    /// (`VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR`): no set
    /// is allocated from it; command buffers hold its descriptors.
    pub push: bool,
    /// The binding with `VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT`
    /// (always the last: the flag is only valid on the highest-numbered
    /// binding), whose count is a maximum: each set is allocated with the
    /// count it asks for, and takes only that binding's slots of it.
    pub variable_count: Option<u32>,
}

/// What a layout is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutUse {
    /// Sets allocated from pools.
    Sets,
    /// `vkCmdPushDescriptorSetKHR`.
    Push,
}

impl LayoutUse {
    pub fn of(flags: vk::DescriptorSetLayoutCreateFlags) -> LayoutUse {
        if flags.contains(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR) {
            LayoutUse::Push
        } else {
            LayoutUse::Sets
        }
    }
}

/// Whether a layout may hold descriptors of this type: every type of core
/// Vulkan 1.1 (`api.descriptor_pool.*` and
/// `api.maintenance3_check.descriptor_set` ask for all of them, with every
/// stage), and inline uniform blocks (`inline_block`). Other extension
/// types (acceleration structures) belong to extensions not offered.
pub fn layout_type(ty: vk::DescriptorType) -> bool {
    matches!(
        ty,
        vk::DescriptorType::SAMPLER
            | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
            | vk::DescriptorType::SAMPLED_IMAGE
            | vk::DescriptorType::STORAGE_IMAGE
            | vk::DescriptorType::INPUT_ATTACHMENT
            | vk::DescriptorType::UNIFORM_BUFFER
            | vk::DescriptorType::STORAGE_BUFFER
            | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
            | vk::DescriptorType::STORAGE_BUFFER_DYNAMIC
            | vk::DescriptorType::UNIFORM_TEXEL_BUFFER
            | vk::DescriptorType::STORAGE_TEXEL_BUFFER
            | inline_block::TYPE
    )
}

impl DescriptorSetLayout {
    /// Lays out `bindings`. A type of an extension not offered, too many
    /// descriptors or too many dynamic buffers make creation fail (what
    /// `vkGetDescriptorSetLayoutSupport` would have said).
    pub fn new(bindings: &[BindingDesc]) -> VkResult<Arc<DescriptorSetLayout>> {
        DescriptorSetLayout::with_immutable_samplers(bindings, &[])
    }

    /// [`DescriptorSetLayout::new`] with the immutable samplers of some
    /// bindings.
    pub fn with_immutable_samplers(
        bindings: &[BindingDesc],
        samplers: &[ImmutableSamplers],
    ) -> VkResult<Arc<DescriptorSetLayout>> {
        DescriptorSetLayout::create(bindings, samplers, LayoutUse::Sets)
    }

    /// A layout for `usage`: a push descriptor layout also may not hold
    /// dynamic buffers (there is no bind to give their offsets) nor more
    /// than `maxPushDescriptors` descriptors.
    pub fn create(
        bindings: &[BindingDesc],
        samplers: &[ImmutableSamplers],
        usage: LayoutUse,
    ) -> VkResult<Arc<DescriptorSetLayout>> {
        DescriptorSetLayout::create_with_flags(bindings, &[], samplers, usage)
    }

    /// [`DescriptorSetLayout::create`] with each binding's
    /// `VkDescriptorBindingFlags` (`flags[i]` for `bindings[i]`, as
    /// `VkDescriptorSetLayoutBindingFlagsCreateInfo` gives them; empty for
    /// none). Only the variable descriptor count changes the layout: a set's
    /// descriptors are read by the GPU from the set's memory when a dispatch
    /// or draw runs, never copied at record time (except for dynamic
    /// buffers, which cannot be updated after bind), so an update after
    /// bind, or of an element no pending work uses, is seen by the work
    /// submitted after it, and an element never written is a null
    /// descriptor (zeros) that the shader must not use.
    pub fn create_with_flags(
        bindings: &[BindingDesc],
        flags: &[vk::DescriptorBindingFlags],
        samplers: &[ImmutableSamplers],
        usage: LayoutUse,
    ) -> VkResult<Arc<DescriptorSetLayout>> {
        let (layout, problem) = DescriptorSetLayout::plan(bindings, flags, samplers, usage);
        match problem {
            None => Ok(Arc::new(layout)),
            Some(why) => {
                eprintln!("parsnip: vkCreateDescriptorSetLayout: {why}");
                Err(vk::Result::ERROR_INITIALIZATION_FAILED)
            }
        }
    }

    /// `vkGetDescriptorSetLayoutSupport`.
    pub fn supported(bindings: &[BindingDesc], usage: LayoutUse) -> bool {
        DescriptorSetLayout::support(bindings, &[], usage).is_some()
    }

    /// `vkGetDescriptorSetLayoutSupport` with binding flags: `None` when
    /// the layout cannot be created, else the most descriptors its variable
    /// count binding may be allocated with
    /// (`VkDescriptorSetVariableDescriptorCountLayoutSupport`; 0 without
    /// one).
    pub fn support(
        bindings: &[BindingDesc],
        flags: &[vk::DescriptorBindingFlags],
        usage: LayoutUse,
    ) -> Option<u32> {
        let (layout, problem) = DescriptorSetLayout::plan(bindings, flags, &[], usage);
        if problem.is_some() {
            return None;
        }
        let Some(b) = layout.variable_count.and_then(|b| layout.binding(b)) else {
            return Some(0);
        };
        let room = u64::from(MAX_DESCRIPTORS_PER_SET) - u64::from(b.first_slot);
        Some((room / u64::from(slots_per_descriptor(b.ty))) as u32)
    }

    /// Slots a set takes whose variable count binding holds `count`
    /// descriptors; the whole layout when it has no such binding.
    pub fn slots_with_variable_count(&self, count: u32) -> u32 {
        match self.variable_count.and_then(|b| self.binding(b)) {
            Some(b) => b.first_slot + count.min(b.count) * slots_per_descriptor(b.ty),
            None => self.slots,
        }
    }

    fn plan(
        bindings: &[BindingDesc],
        flags: &[vk::DescriptorBindingFlags],
        samplers: &[ImmutableSamplers],
        usage: LayoutUse,
    ) -> (DescriptorSetLayout, Option<String>) {
        let mut sorted: Vec<(BindingDesc, vk::DescriptorBindingFlags)> = bindings
            .iter()
            .enumerate()
            .map(|(i, b)| (*b, flags.get(i).copied().unwrap_or_default()))
            .collect();
        sorted.sort_by_key(|(b, _)| b.binding);
        let mut variable_count = None;
        let variable = vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT;
        if let Some(i) = sorted.iter().position(|(_, f)| f.contains(variable)) {
            let b = sorted[i].0;
            if i + 1 != sorted.len() {
                return (
                    DescriptorSetLayout::refused(),
                    Some(format!(
                        "binding {} has a variable descriptor count but is not the \
                         highest-numbered binding",
                        b.binding
                    )),
                );
            }
            if is_dynamic_type(b.ty) || usage == LayoutUse::Push {
                return (
                    DescriptorSetLayout::refused(),
                    Some(format!(
                        "binding {}: a variable descriptor count is not allowed on a dynamic \
                         buffer nor in a push descriptor layout",
                        b.binding
                    )),
                );
            }
            if b.ty == inline_block::TYPE {
                // Its descriptor's range is the layout's byte count; a
                // shorter block per set is not built.
                return (
                    DescriptorSetLayout::refused(),
                    Some(format!(
                        "binding {}: Parsnip does not support a variable size inline uniform \
                         block",
                        b.binding
                    )),
                );
            }
            variable_count = Some(b.binding);
        }
        let sorted: Vec<BindingDesc> = sorted.into_iter().map(|(b, _)| b).collect();
        let mut problem = None;
        let mut slots = 0u64;
        let mut dynamic = 0u32;
        let mut inline_blocks = 0u32;
        let (mut dyn_ubo, mut dyn_ssbo) = (0u32, 0u32);
        let mut out = Vec::with_capacity(sorted.len());
        for (i, b) in sorted.iter().enumerate() {
            if i > 0 && sorted[i - 1].binding == b.binding {
                problem.get_or_insert(format!("binding {} is listed twice", b.binding));
            }
            if b.count == 0 {
                // A binding with no descriptors is reserved but takes nothing.
                continue;
            }
            if !layout_type(b.ty) {
                problem.get_or_insert(format!(
                    "binding {}: descriptor type {:?} belongs to an extension Parsnip does not offer",
                    b.binding, b.ty
                ));
            }
            let first_dynamic = is_dynamic_type(b.ty).then(|| {
                let first = dynamic;
                dynamic += b.count;
                if b.ty == vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC {
                    dyn_ubo += b.count;
                } else {
                    dyn_ssbo += b.count;
                }
                first
            });
            let immutable_samplers = samplers
                .iter()
                .find(|s| s.binding == b.binding)
                .map_or_else(Vec::new, |s| s.descriptors.clone());
            let has_samplers = matches!(
                b.ty,
                vk::DescriptorType::SAMPLER | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
            );
            if !immutable_samplers.is_empty()
                && (!has_samplers || immutable_samplers.len() != b.count as usize)
            {
                problem.get_or_insert(format!(
                    "binding {}: {} immutable samplers for {} {:?} descriptors",
                    b.binding,
                    immutable_samplers.len(),
                    b.count,
                    b.ty
                ));
            }
            out.push(SetBinding {
                binding: b.binding,
                ty: b.ty,
                count: b.count,
                stages: b.stages,
                first_slot: slots as u32,
                first_dynamic,
                immutable_samplers,
            });
            if b.ty == inline_block::TYPE {
                inline_blocks += 1;
                if let Some(why) = inline_block::binding_problem(b.binding, b.count) {
                    problem.get_or_insert(why);
                }
                slots += u64::from(inline_block::slots(b.count));
            } else {
                slots += u64::from(b.count) * u64::from(slots_per_descriptor(b.ty));
            }
        }
        let max_blocks = crate::limits::INLINE_UNIFORM_BLOCKS.max_blocks;
        if inline_blocks > max_blocks {
            problem.get_or_insert(format!(
                "{inline_blocks} inline uniform blocks are more than the {max_blocks} a set may hold"
            ));
        }
        if slots > u64::from(MAX_DESCRIPTORS_PER_SET) {
            problem.get_or_insert(format!(
                "{slots} descriptor slots are more than the {MAX_DESCRIPTORS_PER_SET} a set may \
                 hold"
            ));
        }
        if dyn_ubo > MAX_DYNAMIC_UNIFORM_BUFFERS || dyn_ssbo > MAX_DYNAMIC_STORAGE_BUFFERS {
            problem.get_or_insert(format!(
                "{dyn_ubo} dynamic uniform and {dyn_ssbo} dynamic storage buffers exceed the limits"
            ));
        }
        let push = usage == LayoutUse::Push;
        if push {
            let descriptors: u64 = out.iter().map(|b| u64::from(b.count)).sum();
            if dynamic > 0 || inline_blocks > 0 {
                problem.get_or_insert(
                    "a push descriptor layout cannot hold dynamic buffers nor inline uniform \
                     blocks"
                        .to_string(),
                );
            } else if descriptors > u64::from(MAX_PUSH_DESCRIPTORS) {
                problem.get_or_insert(format!(
                    "{descriptors} push descriptors are more than the {MAX_PUSH_DESCRIPTORS} \
                     maxPushDescriptors allows"
                ));
            }
        }
        let layout = DescriptorSetLayout {
            bindings: out,
            slots: slots.min(u64::from(u32::MAX)) as u32,
            dynamic_count: dynamic,
            push,
            variable_count,
        };
        (layout, problem)
    }

    /// What `plan` gives with a problem found before laying anything out.
    fn refused() -> DescriptorSetLayout {
        DescriptorSetLayout {
            bindings: Vec::new(),
            slots: 0,
            dynamic_count: 0,
            push: false,
            variable_count: None,
        }
    }

    #[inline]
    pub fn binding(&self, binding: u32) -> Option<&SetBinding> {
        // Bindings are sorted by number, so in a layout numbered densely
        // from 0 (the usual one) binding n is entry n: look there first.
        match self.bindings.get(binding as usize) {
            Some(b) if b.binding == binding => Some(b),
            _ => self.bindings.iter().find(|b| b.binding == binding),
        }
    }

    /// Bytes a set of this layout takes.
    pub fn size(&self) -> u64 {
        u64::from(self.slots) * crate::limits::DESCRIPTOR_SIZE
    }

    /// The binding and element that array element `element` of `binding`
    /// continues into when a write runs past the binding's end (the spec's
    /// "consecutive binding updates").
    pub fn next_element(&self, binding: u32, element: u32) -> Option<(u32, u32)> {
        let i = self.bindings.iter().position(|b| b.binding == binding)?;
        let b = &self.bindings[i];
        if element + 1 < b.count {
            Some((binding, element + 1))
        } else {
            self.bindings.get(i + 1).map(|n| (n.binding, 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(binding: u32, ty: vk::DescriptorType, count: u32) -> BindingDesc {
        BindingDesc {
            binding,
            ty,
            count,
            stages: vk::ShaderStageFlags::COMPUTE,
        }
    }

    #[test]
    fn bindings_get_consecutive_slots_in_binding_order() {
        let layout = DescriptorSetLayout::new(&[
            b(3, vk::DescriptorType::UNIFORM_BUFFER, 1),
            b(0, vk::DescriptorType::STORAGE_BUFFER, 2),
            b(1, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 2),
            b(2, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1),
            b(5, vk::DescriptorType::STORAGE_BUFFER, 0),
        ])
        .unwrap();
        let slots: Vec<(u32, u32, Option<u32>)> = layout
            .bindings
            .iter()
            .map(|b| (b.binding, b.first_slot, b.first_dynamic))
            .collect();
        assert_eq!(
            slots,
            vec![(0, 0, None), (1, 2, Some(0)), (2, 4, Some(2)), (3, 5, None)]
        );
        assert_eq!(layout.slots, 6);
        assert_eq!(layout.size(), 384);
        assert_eq!(layout.dynamic_count, 3);
        assert_eq!(layout.next_element(0, 0), Some((0, 1)));
        assert_eq!(layout.next_element(0, 1), Some((1, 0)));
        assert_eq!(layout.next_element(3, 0), None);
    }

    #[test]
    fn combined_image_samplers_take_a_texture_and_a_sampler_slot() {
        let sampler = [7u32; 16];
        let layout = DescriptorSetLayout::with_immutable_samplers(
            &[
                b(0, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 2),
                b(1, vk::DescriptorType::SAMPLED_IMAGE, 1),
                b(2, vk::DescriptorType::SAMPLER, 1),
            ],
            &[ImmutableSamplers {
                binding: 2,
                descriptors: vec![sampler],
            }],
        )
        .unwrap();
        let combined = layout.binding(0).unwrap();
        assert_eq!((combined.slot(1), combined.sampler_slot(1)), (2, Some(3)));
        let sampled = layout.binding(1).unwrap();
        assert_eq!((sampled.first_slot, sampled.sampler_slot(0)), (4, None));
        let samplers = layout.binding(2).unwrap();
        assert_eq!(samplers.sampler_slot(0), Some(5));
        assert_eq!(samplers.immutable_samplers, vec![sampler]);
        assert_eq!(layout.slots, 6);
        // Immutable samplers of a binding without samplers, or too few.
        let wrong = |ty, n| {
            DescriptorSetLayout::with_immutable_samplers(
                &[b(0, ty, 2)],
                &[ImmutableSamplers {
                    binding: 0,
                    descriptors: vec![sampler; n],
                }],
            )
            .is_err()
        };
        assert!(wrong(vk::DescriptorType::SAMPLED_IMAGE, 2));
        assert!(wrong(vk::DescriptorType::SAMPLER, 1));
        assert!(!wrong(vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 2));
    }

    #[test]
    fn every_core_type_with_every_stage_is_a_layout() {
        // api.maintenance3_check.descriptor_set's kind of layout: each core
        // type, VK_SHADER_STAGE_ALL (input attachments: fragment).
        let types = [
            vk::DescriptorType::SAMPLER,
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            vk::DescriptorType::SAMPLED_IMAGE,
            vk::DescriptorType::STORAGE_IMAGE,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            vk::DescriptorType::STORAGE_TEXEL_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::STORAGE_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
            vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
            vk::DescriptorType::INPUT_ATTACHMENT,
        ];
        let bindings: Vec<BindingDesc> = types
            .iter()
            .enumerate()
            .map(|(i, &ty)| BindingDesc {
                binding: i as u32,
                ty,
                count: if is_dynamic_type(ty) { 8 } else { 1000 },
                stages: if ty == vk::DescriptorType::INPUT_ATTACHMENT {
                    vk::ShaderStageFlags::FRAGMENT
                } else {
                    vk::ShaderStageFlags::ALL
                },
            })
            .collect();
        assert!(DescriptorSetLayout::supported(&bindings, LayoutUse::Sets));
        let layout = DescriptorSetLayout::new(&bindings).unwrap();
        // Combined image samplers take two slots each.
        assert_eq!(layout.slots, 10 * 1000 + 2 * 8);
        let acceleration = [b(0, vk::DescriptorType::ACCELERATION_STRUCTURE_KHR, 1)];
        assert!(!DescriptorSetLayout::supported(
            &acceleration,
            LayoutUse::Sets
        ));
    }

    #[test]
    fn an_inline_block_takes_its_descriptor_and_its_bytes_in_slots() {
        let inline = vk::DescriptorType::INLINE_UNIFORM_BLOCK;
        let layout = DescriptorSetLayout::new(&[
            b(0, vk::DescriptorType::STORAGE_BUFFER, 2),
            b(1, inline, 80),
            b(2, inline, 16),
            b(3, vk::DescriptorType::UNIFORM_BUFFER, 1),
        ])
        .unwrap();
        let first: Vec<u32> = layout.bindings.iter().map(|b| b.first_slot).collect();
        assert_eq!(first, [0, 2, 5, 7]);
        assert_eq!(layout.slots, 8);
        // Sizes that are not whole dwords, blocks over 256 bytes, more than
        // four blocks, and blocks in push layouts are refused.
        assert!(!DescriptorSetLayout::supported(
            &[b(0, inline, 6)],
            LayoutUse::Sets
        ));
        assert!(!DescriptorSetLayout::supported(
            &[b(0, inline, 260)],
            LayoutUse::Sets
        ));
        let five: Vec<_> = (0..5).map(|i| b(i, inline, 4)).collect();
        assert!(!DescriptorSetLayout::supported(&five, LayoutUse::Sets));
        assert!(!DescriptorSetLayout::supported(
            &[b(0, inline, 4)],
            LayoutUse::Push
        ));
    }

    #[test]
    fn too_many_descriptors_or_dynamic_buffers_are_unsupported() {
        let too_many = [b(
            0,
            vk::DescriptorType::STORAGE_BUFFER,
            MAX_DESCRIPTORS_PER_SET + 1,
        )];
        assert!(!DescriptorSetLayout::supported(&too_many, LayoutUse::Sets));
        assert!(DescriptorSetLayout::new(&too_many).is_err());
        let dynamic = [b(0, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 9)];
        assert!(!DescriptorSetLayout::supported(&dynamic, LayoutUse::Sets));
        let twice = [
            b(0, vk::DescriptorType::STORAGE_BUFFER, 1),
            b(0, vk::DescriptorType::UNIFORM_BUFFER, 1),
        ];
        assert!(!DescriptorSetLayout::supported(&twice, LayoutUse::Sets));
    }

    #[test]
    fn a_variable_count_binding_is_last_and_sets_take_only_the_count_asked() {
        use vk::DescriptorBindingFlags as F;
        let bindings = [
            b(2, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 100),
            b(0, vk::DescriptorType::UNIFORM_BUFFER, 3),
        ];
        let flags = [
            F::VARIABLE_DESCRIPTOR_COUNT | F::PARTIALLY_BOUND,
            F::UPDATE_AFTER_BIND,
        ];
        let layout =
            DescriptorSetLayout::create_with_flags(&bindings, &flags, &[], LayoutUse::Sets)
                .unwrap();
        assert_eq!(layout.variable_count, Some(2));
        assert_eq!(layout.slots, 3 + 2 * 100);
        // Three uniform buffers, then two slots per combined image sampler.
        assert_eq!(layout.slots_with_variable_count(5), 3 + 2 * 5);
        assert_eq!(layout.slots_with_variable_count(0), 3);
        assert_eq!(layout.slots_with_variable_count(1000), 3 + 2 * 100);
        // What is left of the set's slots after binding 0, in pairs.
        assert_eq!(
            DescriptorSetLayout::support(&bindings, &flags, LayoutUse::Sets),
            Some((MAX_DESCRIPTORS_PER_SET - 3) / 2)
        );
        // Without the flag a layout is always allocated whole.
        let plain = DescriptorSetLayout::new(&bindings).unwrap();
        assert_eq!(plain.variable_count, None);
        assert_eq!(plain.slots_with_variable_count(5), plain.slots);
        assert_eq!(
            DescriptorSetLayout::support(&bindings, &[], LayoutUse::Sets),
            Some(0)
        );
    }

    #[test]
    fn a_variable_count_is_refused_where_the_spec_forbids_it() {
        use vk::DescriptorBindingFlags as F;
        let v = F::VARIABLE_DESCRIPTOR_COUNT;
        let not_last = [
            b(0, vk::DescriptorType::STORAGE_BUFFER, 4),
            b(1, vk::DescriptorType::STORAGE_BUFFER, 4),
        ];
        assert_eq!(
            DescriptorSetLayout::support(&not_last, &[v, F::empty()], LayoutUse::Sets),
            None
        );
        let dynamic = [b(0, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 4)];
        assert_eq!(
            DescriptorSetLayout::support(&dynamic, &[v], LayoutUse::Sets),
            None
        );
        let storage = [b(0, vk::DescriptorType::STORAGE_BUFFER, 4)];
        assert_eq!(
            DescriptorSetLayout::support(&storage, &[v], LayoutUse::Push),
            None
        );
        assert_eq!(
            DescriptorSetLayout::create_with_flags(&storage, &[v], &[], LayoutUse::Push),
            Err(vk::Result::ERROR_INITIALIZATION_FAILED)
        );
    }

    #[test]
    fn push_layouts_hold_no_dynamic_buffers_and_at_most_max_push_descriptors() {
        let storage = |n| [b(0, vk::DescriptorType::STORAGE_BUFFER, n)];
        assert!(DescriptorSetLayout::supported(
            &storage(MAX_PUSH_DESCRIPTORS),
            LayoutUse::Push
        ));
        assert!(!DescriptorSetLayout::supported(
            &storage(MAX_PUSH_DESCRIPTORS + 1),
            LayoutUse::Push
        ));
        // The same binding is fine for a set.
        assert!(DescriptorSetLayout::supported(
            &storage(MAX_PUSH_DESCRIPTORS + 1),
            LayoutUse::Sets
        ));
        let dynamic = [b(0, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1)];
        assert!(!DescriptorSetLayout::supported(&dynamic, LayoutUse::Push));
        // Combined image samplers count once, though they take two slots.
        let combined = [b(
            0,
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            MAX_PUSH_DESCRIPTORS,
        )];
        let layout = DescriptorSetLayout::create(&combined, &[], LayoutUse::Push).unwrap();
        assert!(layout.push);
        assert_eq!(layout.slots, 2 * MAX_PUSH_DESCRIPTORS);
    }
}
