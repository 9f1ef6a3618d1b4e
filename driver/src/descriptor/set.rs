//! `VkDescriptorSet`: a range of its pool's BO holding one descriptor per
//! slot of its layout, and the CPU copy of its dynamic buffers' bindings
//! (which are only complete once a bind supplies their offsets).

use std::sync::Arc;

use ash::vk;

use parking_lot::Mutex;

use super::encoding::DESCRIPTOR_DWORDS;
use super::inline_block;
use super::pool::DescriptorPool;
use super::set_layout::{slots_per_descriptor, DescriptorSetLayout, SetBinding};
use super::write::{self, dynamic_descriptor, element_binding, DescriptorDestination};
pub use super::write::{DescriptorWrite, DynamicBuffer};
use crate::error::VkResult;
use crate::limits::DESCRIPTOR_SIZE;

pub struct DescriptorSet {
    pub pool: Arc<DescriptorPool>,
    pub layout: Arc<DescriptorSetLayout>,
    /// Byte offset in the pool's BO.
    pub offset: u64,
    /// Descriptor slots the set holds: the layout's, or fewer when its
    /// variable count binding was allocated with fewer descriptors.
    slots: u32,
    generation: u64,
    dynamic: Mutex<Vec<Option<DynamicBuffer>>>,
}

impl DescriptorSet {
    pub fn allocate(
        pool: &Arc<DescriptorPool>,
        layout: &Arc<DescriptorSetLayout>,
    ) -> VkResult<Arc<DescriptorSet>> {
        DescriptorSet::allocate_with_variable_count(pool, layout, None)
    }

    /// A set whose variable count binding holds `variable_count`
    /// descriptors (`VkDescriptorSetVariableDescriptorCountAllocateInfo`).
    /// Without a count that binding holds none, as the spec says; a layout
    /// without such a binding ignores the count.
    pub fn allocate_with_variable_count(
        pool: &Arc<DescriptorPool>,
        layout: &Arc<DescriptorSetLayout>,
        variable_count: Option<u32>,
    ) -> VkResult<Arc<DescriptorSet>> {
        let slots = layout.slots_with_variable_count(variable_count.unwrap_or(0));
        let size = u64::from(slots) * DESCRIPTOR_SIZE;
        let (offset, generation) = pool.allocate(size)?;
        let set = DescriptorSet {
            pool: pool.clone(),
            layout: layout.clone(),
            offset,
            slots,
            generation,
            dynamic: Mutex::new(vec![None; layout.dynamic_count as usize]),
        };
        // A fresh set reads as zeros (a null descriptor), not as whatever a
        // freed set left.
        if let Some(bo) = &set.pool.bo {
            bo.fill(set.offset, size, 0)?;
        }
        for b in &layout.bindings {
            if b.ty == inline_block::TYPE {
                set.write_slots(b.first_slot, &inline_block::descriptor(b, set.iova())?)?;
            }
            for (e, sampler) in b.immutable_samplers.iter().enumerate() {
                if let Some(slot) = b.sampler_slot(e as u32).filter(|&s| s < slots) {
                    set.write_slots(slot, sampler)?;
                }
            }
        }
        Ok(Arc::new(set))
    }

    /// The GPU address of the set (its SP_BINDLESS_BASE).
    pub fn iova(&self) -> u64 {
        self.pool
            .bo
            .as_ref()
            .map_or(0, |bo| bo.iova() + self.offset)
    }

    /// Descriptor slots the set holds.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Bytes the set takes in its pool.
    fn size(&self) -> u64 {
        u64::from(self.slots) * DESCRIPTOR_SIZE
    }

    #[inline]
    fn write_slots(&self, slot: u32, dwords: &[u32]) -> VkResult<()> {
        self.check_slots(slot, dwords.len())?;
        match &self.pool.bo {
            Some(bo) if !dwords.is_empty() => bo.write_dwords(self.slot_offset(slot), dwords),
            _ => Ok(()),
        }
    }

    /// Refuses slots past the set's end: elements of a variable count
    /// binding beyond the count the set was allocated with are another
    /// set's memory.
    fn check_slots(&self, slot: u32, dwords: usize) -> VkResult<()> {
        let end = u64::from(slot) + dwords.div_ceil(DESCRIPTOR_DWORDS) as u64;
        if end > u64::from(self.slots) {
            eprintln!(
                "parsnip: descriptor slot {slot} is past the {} slots the set was allocated \
                 with (its variable descriptor count)",
                self.slots
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        Ok(())
    }

    /// Where descriptor slot `slot` is in the pool's BO.
    #[inline]
    fn slot_offset(&self, slot: u32) -> u64 {
        self.offset + u64::from(slot) * DESCRIPTOR_SIZE
    }

    /// The descriptors of the whole set, as the GPU sees them.
    pub fn contents(&self) -> VkResult<Vec<u32>> {
        let mut dwords = vec![0; self.slots as usize * DESCRIPTOR_DWORDS];
        if let Some(bo) = &self.pool.bo {
            bo.read_dwords(self.offset, &mut dwords)?;
        }
        Ok(dwords)
    }

    /// The dynamic buffers, in dynamic-offset order.
    pub fn dynamic_buffers(&self) -> Vec<Option<DynamicBuffer>> {
        self.dynamic.lock().clone()
    }

    /// `vkUpdateDescriptorSets`' write: `writes` go to consecutive array
    /// elements from `element` of `binding`, continuing into the following
    /// bindings as the spec describes.
    pub fn write(
        &self,
        binding: u32,
        element: u32,
        ty: vk::DescriptorType,
        writes: &[DescriptorWrite<'_>],
    ) -> VkResult<()> {
        self.write_each(binding, element, ty, writes.len(), |i, _| Ok(writes[i]))
    }

    /// [`DescriptorSet::write`] of `count` writes that `source` gives one
    /// by one (the ICD reads each from the application's arrays, so nothing
    /// is collected first).
    pub fn write_each<'a>(
        &self,
        binding: u32,
        element: u32,
        ty: vk::DescriptorType,
        count: usize,
        source: impl FnMut(usize, &SetBinding) -> VkResult<DescriptorWrite<'a>>,
    ) -> VkResult<()> {
        write::write_each(&mut SetMemory(self), binding, element, ty, count, source)
    }

    fn binding(&self, binding: u32, element: u32) -> VkResult<&SetBinding> {
        element_binding(&self.layout, binding, element)
    }

    /// Writes `bytes` at byte `offset` of inline uniform block `binding`.
    pub fn write_inline(&self, binding: u32, offset: u32, bytes: &[u8]) -> VkResult<()> {
        let b = self.binding(binding, 0)?;
        inline_block::check_range(b, offset, bytes.len())?;
        match &self.pool.bo {
            Some(bo) if !bytes.is_empty() => bo.write(
                self.offset + inline_block::data_offset(b) + u64::from(offset),
                bytes,
            ),
            _ => Ok(()),
        }
    }

    /// `vkUpdateDescriptorSets`' copy: `count` consecutive descriptors.
    pub fn copy_from(
        &self,
        binding: u32,
        element: u32,
        src: &DescriptorSet,
        src_binding: u32,
        src_element: u32,
        count: u32,
    ) -> VkResult<()> {
        if self.binding(binding, 0)?.ty == inline_block::TYPE {
            // `count` bytes from block to block.
            let sb = src.binding(src_binding, 0)?;
            inline_block::check_range(sb, src_element, count as usize)?;
            let mut bytes = vec![0u8; count as usize];
            if let Some(bo) = &src.pool.bo {
                bo.read(
                    src.offset + inline_block::data_offset(sb) + u64::from(src_element),
                    &mut bytes,
                )?;
            }
            return self.write_inline(binding, element, &bytes);
        }
        let (mut d, mut s) = ((binding, element), (src_binding, src_element));
        for _ in 0..count {
            let db = self.binding(d.0, d.1)?;
            let sb = src.binding(s.0, s.1)?;
            if db.ty != sb.ty {
                eprintln!(
                    "parsnip: vkUpdateDescriptorSets: a copy from a {:?} binding to a {:?} one",
                    sb.ty, db.ty
                );
                return Err(vk::Result::ERROR_UNKNOWN);
            }
            // A combined image sampler is two slots, anything else one.
            let mut slots = [0u32; 2 * DESCRIPTOR_DWORDS];
            let slots = &mut slots[..slots_per_descriptor(sb.ty) as usize * DESCRIPTOR_DWORDS];
            src.check_slots(sb.slot(s.1), slots.len())?;
            if let Some(bo) = &src.pool.bo {
                bo.read_dwords(src.slot_offset(sb.slot(s.1)), slots)?;
            }
            self.write_slots(db.slot(d.1), slots)?;
            if let (Some(df), Some(sf)) = (db.first_dynamic, sb.first_dynamic) {
                let value = src
                    .dynamic
                    .lock()
                    .get((sf + s.1) as usize)
                    .copied()
                    .flatten();
                if let Some(dst) = self.dynamic.lock().get_mut((df + d.1) as usize) {
                    *dst = value;
                }
            }
            let (Some(nd), Some(ns)) = (
                self.layout.next_element(d.0, d.1),
                src.layout.next_element(s.0, s.1),
            ) else {
                break;
            };
            (d, s) = (nd, ns);
        }
        Ok(())
    }

    /// The set's descriptors with each dynamic buffer moved by its dynamic
    /// offset: what a command buffer uploads when it binds the set.
    pub fn with_dynamic_offsets(&self, offsets: &[u32]) -> VkResult<Vec<u32>> {
        let mut dwords = vec![0; self.slots as usize * DESCRIPTOR_DWORDS];
        self.write_with_dynamic_offsets(offsets, &mut dwords)?;
        Ok(dwords)
    }

    /// [`DescriptorSet::with_dynamic_offsets`] into `dwords`, which holds
    /// the whole set (a command buffer's upload memory).
    pub fn write_with_dynamic_offsets(&self, offsets: &[u32], dwords: &mut [u32]) -> VkResult<()> {
        let chip = self.pool.device.gpu.chip();
        if let Some(bo) = &self.pool.bo {
            bo.read_dwords(self.offset, dwords)?;
        }
        let dynamic = self.dynamic.lock();
        for b in self.layout.bindings.iter().filter(|b| b.is_dynamic()) {
            let first = b.first_dynamic.unwrap_or(0);
            for e in 0..b.count {
                let index = (first + e) as usize;
                let (Some(Some(buffer)), Some(&offset)) = (dynamic.get(index), offsets.get(index))
                else {
                    continue;
                };
                let d = dynamic_descriptor(chip, buffer, u64::from(offset))?;
                let at = b.slot(e) as usize * DESCRIPTOR_DWORDS;
                dwords[at..at + DESCRIPTOR_DWORDS].copy_from_slice(&d);
            }
        }
        Ok(())
    }
}

impl Drop for DescriptorSet {
    fn drop(&mut self) {
        self.pool.release(self.offset, self.size(), self.generation);
    }
}

/// A set's memory, as the destination of its updates.
pub struct SetMemory<'s>(pub &'s DescriptorSet);

impl DescriptorDestination for SetMemory<'_> {
    #[inline]
    fn layout(&self) -> &DescriptorSetLayout {
        &self.0.layout
    }

    #[inline]
    fn chip(&self) -> parsnip_registers::Chip {
        self.0.pool.device.gpu.chip()
    }

    #[inline]
    fn store(&mut self, slot: u32, dwords: &[u32]) -> VkResult<()> {
        self.0.write_slots(slot, dwords)
    }

    #[inline]
    fn store_dynamic(&mut self, index: u32, buffer: DynamicBuffer) {
        if let Some(slot) = self.0.dynamic.lock().get_mut(index as usize) {
            *slot = Some(buffer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::set_layout::BindingDesc;
    use super::*;
    use crate::buffer::Buffer;
    use crate::device_memory::DeviceMemory;
    use parsnip_registers::descriptors::{a6xx, UboDescriptor};

    fn layout() -> Arc<DescriptorSetLayout> {
        let b = |binding, ty, count| BindingDesc {
            binding,
            ty,
            count,
            stages: vk::ShaderStageFlags::COMPUTE,
        };
        DescriptorSetLayout::new(&[
            b(0, vk::DescriptorType::STORAGE_BUFFER, 2),
            b(1, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1),
        ])
        .unwrap()
    }

    #[test]
    fn writes_land_in_their_slots_and_dynamic_offsets_apply_at_bind() {
        let device = crate::device::tests::null_device("a660");
        let memory = DeviceMemory::allocate(&device, 8192, 0).unwrap();
        let buffer = Buffer::new(4096, vk::BufferUsageFlags::STORAGE_BUFFER).unwrap();
        buffer.bind(memory, 0).unwrap();
        let pool =
            DescriptorPool::new(&device, 1, &[(vk::DescriptorType::STORAGE_BUFFER, 3)]).unwrap();
        let set = DescriptorSet::allocate(&pool, &layout()).unwrap();
        let w = |offset| DescriptorWrite::Buffer {
            buffer: &buffer,
            offset,
            range: 256,
        };
        set.write(0, 1, vk::DescriptorType::STORAGE_BUFFER, &[w(512)])
            .unwrap();
        set.write(1, 0, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, &[w(64)])
            .unwrap();
        let words = set.contents().unwrap();
        assert!(words[..16].iter().all(|&w| w == 0), "element 0 untouched");
        let ssbo = a6xx::TextureDescriptor::from_raw(words[16..32].try_into().unwrap());
        assert_eq!(
            u64::from(ssbo.base_lo) | u64::from(ssbo.base_hi) << 32,
            buffer.iova(512)
        );
        assert_eq!(ssbo.width, 64);

        let bound = set.with_dynamic_offsets(&[128]).unwrap();
        let ubo = UboDescriptor::from_raw(&[bound[32], bound[33]]);
        assert_eq!(
            u64::from(ubo.base_lo) | u64::from(ubo.base_hi) << 32,
            buffer.iova(64 + 128)
        );
        assert_eq!(ubo.size, 16);
        assert_eq!(bound[..32], words[..32]);

        // The wrong type, or an element past the layout, is refused.
        assert!(set
            .write(1, 0, vk::DescriptorType::STORAGE_BUFFER, &[w(0)])
            .is_err());
        assert!(set
            .write(7, 0, vk::DescriptorType::STORAGE_BUFFER, &[w(0)])
            .is_err());
    }

    #[test]
    fn writes_continue_into_the_next_binding_and_copies_carry_dynamic_state() {
        let device = crate::device::tests::null_device("a740");
        let memory = DeviceMemory::allocate(&device, 4096, 0).unwrap();
        let buffer = Buffer::new(1024, vk::BufferUsageFlags::STORAGE_BUFFER).unwrap();
        buffer.bind(memory, 0).unwrap();
        let pool =
            DescriptorPool::new(&device, 2, &[(vk::DescriptorType::STORAGE_BUFFER, 6)]).unwrap();
        let a = DescriptorSet::allocate(&pool, &layout()).unwrap();
        let b = DescriptorSet::allocate(&pool, &layout()).unwrap();
        assert_ne!(a.iova(), b.iova());
        let w = DescriptorWrite::Buffer {
            buffer: &buffer,
            offset: 0,
            range: vk::WHOLE_SIZE,
        };
        a.write(0, 0, vk::DescriptorType::STORAGE_BUFFER, &[w, w])
            .unwrap();
        a.write(1, 0, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, &[w])
            .unwrap();
        b.copy_from(0, 0, &a, 0, 0, 3).unwrap();
        assert_eq!(a.contents().unwrap(), b.contents().unwrap());
        assert_eq!(a.dynamic_buffers(), b.dynamic_buffers());
        assert_eq!(b.dynamic_buffers()[0].unwrap().range, 1024);
    }
}
