//! The driver's description of where each descriptor lives, which the compiler needs to
//! turn `(set, binding)[index]` into the bindless form the hardware uses.
//!
//! On a6xx/a7xx each descriptor set is an array of 16-dword (64-byte) descriptors whose
//! address is programmed in SP_BINDLESS_BASE[set] (a6xx.xml); shaders name a descriptor by
//! the set's base register and the descriptor's index in that array (`.bindless` forms of
//! ldib/stib/ldc and of the cat5 texture instructions, freedreno's ir3 isa XML).

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
}

/// One binding of one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingLayout {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// Index of element 0 within the set, in 16-dword descriptors.
    pub first_descriptor: u32,
    /// Number of array elements.
    pub count: u32,
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

    /// The binding and array element a bindless descriptor index refers to.
    pub fn element_at(&self, set: u32, descriptor: u32) -> Option<(&BindingLayout, u32)> {
        self.bindings.iter().find_map(|b| {
            (b.set == set
                && descriptor >= b.first_descriptor
                && descriptor - b.first_descriptor < b.count)
                .then(|| (b, descriptor - b.first_descriptor))
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
                *n += count;
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
}
