//! Inline uniform blocks (VK_EXT_inline_uniform_block, core in Vulkan 1.3):
//! a binding whose `descriptorCount` is a number of bytes of uniform data
//! kept in the set's own memory, written by the descriptor updates
//! themselves (`VkWriteDescriptorSetInlineUniformBlock`, copies,
//! templates).
//!
//! In the set the binding takes one descriptor slot for a UBO descriptor
//! pointing at its data, written when the set is allocated, then the data
//! in the slots after it. Shaders read the block as any uniform buffer of
//! that binding (the compiler sees a uniform buffer of one descriptor,
//! `ldc` through that slot), as Turnip lays inline blocks out (a UBO
//! descriptor in the set pointing into the set's own BO).

use ash::vk;

use super::encoding::{self, Descriptor};
use super::set_layout::SetBinding;
use crate::error::VkResult;
use crate::limits::{DESCRIPTOR_SIZE, INLINE_UNIFORM_BLOCKS};

pub const TYPE: vk::DescriptorType = vk::DescriptorType::INLINE_UNIFORM_BLOCK;

/// Slots a block of `bytes` takes: its descriptor, then its data.
pub fn slots(bytes: u32) -> u32 {
    1 + bytes.div_ceil(DESCRIPTOR_SIZE as u32)
}

/// What is wrong with a block binding of `bytes`, if anything.
pub fn binding_problem(binding: u32, bytes: u32) -> Option<String> {
    let max = INLINE_UNIFORM_BLOCKS.max_block_size;
    (!bytes.is_multiple_of(4) || bytes > max).then(|| {
        format!(
            "binding {binding}: an inline uniform block of {bytes} bytes (a multiple of 4 up to \
             {max} is allowed)"
        )
    })
}

/// Where `b`'s data starts, in bytes from the set's start.
pub fn data_offset(b: &SetBinding) -> u64 {
    (u64::from(b.first_slot) + 1) * DESCRIPTOR_SIZE
}

/// The UBO descriptor of block `b` of a set at `set_iova`.
pub fn descriptor(b: &SetBinding, set_iova: u64) -> VkResult<Descriptor> {
    encoding::uniform_buffer(set_iova + data_offset(b), u64::from(b.count))
}

/// An error unless `len` bytes from byte `offset` are inside block `b`
/// (an update of an inline block never continues into the next binding).
pub fn check_range(b: &SetBinding, offset: u32, len: usize) -> VkResult<()> {
    if b.ty == TYPE
        && offset.is_multiple_of(4)
        && u64::from(offset) + len as u64 <= u64::from(b.count)
    {
        return Ok(());
    }
    eprintln!(
        "parsnip: descriptor update: {len} bytes at {offset} of binding {} ({:?} of {})",
        b.binding, b.ty, b.count
    );
    Err(vk::Result::ERROR_UNKNOWN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_its_descriptor_then_its_data() {
        assert_eq!(slots(4), 2);
        assert_eq!(slots(64), 2);
        assert_eq!(slots(68), 3);
        assert_eq!(slots(256), 5);
        assert!(binding_problem(0, 256).is_none());
        assert!(binding_problem(0, 6).is_some());
        assert!(binding_problem(0, 260).is_some());
        let b = SetBinding {
            binding: 2,
            ty: TYPE,
            count: 40,
            stages: vk::ShaderStageFlags::COMPUTE,
            first_slot: 3,
            first_dynamic: None,
            immutable_samplers: Vec::new(),
        };
        assert_eq!(data_offset(&b), 4 * 64);
        let d = descriptor(&b, 0x1_0000_0000).unwrap();
        let u = parsnip_registers::descriptors::UboDescriptor::from_raw(&[d[0], d[1]]);
        assert_eq!((u.base_lo, u.base_hi, u.size), (0x100, 1, 3));
        assert!(check_range(&b, 36, 4).is_ok());
        assert!(check_range(&b, 36, 8).is_err());
        assert!(check_range(&b, 2, 4).is_err());
    }
}
