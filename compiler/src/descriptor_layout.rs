//! The driver's description of where each descriptor lives, which the compiler needs to
//! turn `(set, binding)[index]` into the bindless form the hardware uses.
//!
//! On a6xx/a7xx each descriptor set is an array of 16-dword (64-byte) descriptors whose
//! address is programmed in SP_BINDLESS_BASE[set] (a6xx.xml); shaders name a descriptor by
//! the set's base register and the descriptor's index in that array (`.bindless` forms of
//! ldib/stib/ldc and of the cat5 texture instructions, freedreno's ir3 isa XML).

use crate::error::{CompileError, Result};
use crate::spirv::DeclaredBinding;

/// What a binding holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DescriptorKind {
    StorageBuffer,
    UniformBuffer,
    /// A buffer view read through the texture unit (`samplerBuffer`: `isam`, `getbuf`).
    UniformTexelBuffer,
    /// A buffer view read and written by the shader processor's typed image access
    /// (`imageBuffer`: typed `ldib`/`stib`/`atomic.b`, `resinfo.b`).
    StorageTexelBuffer,
    /// An image view read through the texture unit (`texture2D`: `isam`, `sam`,
    /// `getsize`), with a sampler from elsewhere where it is sampled.
    SampledImage,
    /// An image view read and written by typed image access (`image2D`).
    StorageImage,
    /// A sampler alone (`sampler`), combined in the shader with a sampled image.
    Sampler,
    /// A texture descriptor followed by its sampler's (`sampler2D`): two descriptors
    /// per element, as Turnip lays them out.
    CombinedImageSampler,
    /// A render pass attachment a fragment shader reads (`subpassInput`): a texture
    /// descriptor.
    InputAttachment,
}

impl DescriptorKind {
    /// 16-dword descriptors one array element of this kind takes in its set.
    pub fn descriptors_per_element(self) -> u32 {
        match self {
            DescriptorKind::CombinedImageSampler => 2,
            _ => 1,
        }
    }
}

/// One binding of one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingLayout {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// Index of element 0 within the set, in 16-dword descriptors; element `i` starts
    /// [`DescriptorKind::descriptors_per_element`] descriptors further on per element.
    pub first_descriptor: u32,
    /// Number of array elements.
    pub count: u32,
}

impl BindingLayout {
    /// The first descriptor of array element `i`.
    pub fn descriptor(&self, i: u32) -> u32 {
        self.first_descriptor + i * self.kind.descriptors_per_element()
    }
}

/// The layouts of all sets a pipeline uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DescriptorLayout {
    pub bindings: Vec<BindingLayout>,
}

/// The number of descriptor sets (SP_BINDLESS_BASE registers) on a6xx/a7xx (a6xx.xml
/// declares the array with 5 entries).
pub const MAX_SETS: u32 = 5;

impl DescriptorLayout {
    pub fn find(&self, set: u32, binding: u32) -> Option<&BindingLayout> {
        self.bindings
            .iter()
            .find(|b| b.set == set && b.binding == binding)
    }

    /// The binding and array element a bindless descriptor index refers to (the
    /// element's first descriptor or, for a combined image sampler, its sampler).
    pub fn element_at(&self, set: u32, descriptor: u32) -> Option<(&BindingLayout, u32)> {
        self.bindings.iter().find_map(|b| {
            let per = b.kind.descriptors_per_element();
            (b.set == set
                && descriptor >= b.first_descriptor
                && (descriptor - b.first_descriptor) / per < b.count)
                .then(|| (b, (descriptor - b.first_descriptor) / per))
        })
    }

    /// A layout that packs the given `(set, binding, kind, count)` in binding order, the
    /// way a driver with no other constraint would.
    pub fn packed(bindings: &[(u32, u32, DescriptorKind, u32)]) -> DescriptorLayout {
        let mut sorted = bindings.to_vec();
        sorted.sort_by_key(|b| (b.0, b.1));
        let mut next = std::collections::HashMap::new();
        let bindings = sorted
            .into_iter()
            .map(|(set, binding, kind, count)| {
                let n = next.entry(set).or_insert(0u32);
                let first_descriptor = *n;
                *n = n.saturating_add(count.saturating_mul(kind.descriptors_per_element()));
                BindingLayout {
                    set,
                    binding,
                    kind,
                    first_descriptor,
                    count,
                }
            })
            .collect();
        DescriptorLayout { bindings }
    }

    /// The layout a driver would build from a pipeline layout that holds exactly the
    /// declared bindings: [`DescriptorLayout::packed`], with a runtime-sized array taking
    /// the rest of its set. Vulkan gives a variable descriptor count only to the highest
    /// binding of a set (VK_EXT_descriptor_indexing), so a runtime-sized array anywhere
    /// else has no place without a count and is refused.
    pub fn matching(declared: &[DeclaredBinding]) -> Result<DescriptorLayout> {
        for d in declared.iter().filter(|d| d.count.is_none()) {
            if let Some(after) = declared
                .iter()
                .find(|o| o.set == d.set && o.binding > d.binding)
            {
                return Err(CompileError::new(format!(
                    "set {} binding {} ({}) is a runtime-sized array but binding {} follows it \
                     in the set; only a set's last binding can have a variable count, so its \
                     size must be given",
                    d.set, d.binding, d.variable, after.binding
                )));
            }
        }
        let list: Vec<_> = declared
            .iter()
            .map(|d| (d.set, d.binding, d.kind, d.count.unwrap_or(0)))
            .collect();
        let mut layout = DescriptorLayout::packed(&list);
        for b in &mut layout.bindings {
            let runtime = declared
                .iter()
                .any(|d| d.set == b.set && d.binding == b.binding && d.count.is_none());
            if runtime {
                b.count = (u32::MAX - b.first_descriptor) / b.kind.descriptors_per_element();
            }
        }
        Ok(layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(set: u32, binding: u32, count: Option<u32>) -> DeclaredBinding {
        DeclaredBinding {
            set,
            binding,
            kind: DescriptorKind::StorageBuffer,
            count,
            variable: format!("%{binding}"),
        }
    }

    #[test]
    fn a_matching_layout_packs_each_set_in_binding_order() {
        let layout = DescriptorLayout::matching(&[
            declared(1, 4, Some(1)),
            declared(0, 2, Some(3)),
            declared(1, 0, Some(2)),
            declared(0, 0, Some(1)),
            declared(0, 7, None),
        ])
        .unwrap();
        let placed: Vec<(u32, u32, u32, u32)> = layout
            .bindings
            .iter()
            .map(|b| (b.set, b.binding, b.first_descriptor, b.count))
            .collect();
        // The runtime-sized array takes every descriptor from its first to the set's end.
        assert_eq!(
            placed,
            [
                (0, 0, 0, 1),
                (0, 2, 1, 3),
                (0, 7, 4, u32::MAX - 4),
                (1, 0, 0, 2),
                (1, 4, 2, 1)
            ]
        );
        assert_eq!(
            layout.element_at(0, 1000).map(|(b, i)| (b.binding, i)),
            Some((7, 996))
        );
    }

    #[test]
    fn a_runtime_sized_array_before_another_binding_is_refused() {
        let err = DescriptorLayout::matching(&[
            declared(0, 0, None),
            declared(0, 1, Some(1)),
            declared(1, 2, None),
        ])
        .unwrap_err();
        assert!(
            err.message
                .contains("set 0 binding 0 (%0) is a runtime-sized array but binding 1 follows it"),
            "{err}"
        );
    }
}
