//! Push descriptors (`VK_KHR_push_descriptor`): a small bank of
//! descriptors per bind point that the command buffer owns. The spec lets
//! an application update it incrementally, so the bank keeps the CPU copy
//! of every descriptor pushed so far; each push applies its writes to the
//! copy, then uploads the whole set to fresh upload memory and binds that
//! address as the set's SP_BINDLESS_BASE (the memory a previous push bound
//! may still be read by work recorded before this push, so it is never
//! rewritten). This is what Turnip does too: the set's descriptors live in
//! the command buffer's memory, and the hardware reads them like any set.

use ash::vk;
use parsnip_registers::Chip;

use super::buffer::Recording;
use super::descriptor_bindings::BoundSet;
use crate::descriptor::encoding::DESCRIPTOR_DWORDS;
use crate::descriptor::set_layout::DescriptorSetLayout;
use crate::descriptor::write::{DescriptorDestination, DynamicBuffer};
use crate::error::VkResult;
use crate::limits::{DESCRIPTOR_SIZE, MAX_SETS};
use crate::pipeline_layout::PipelineLayout;

/// One bind point's push descriptors, as last pushed.
#[derive(Default)]
pub struct PushBank {
    /// The set's descriptors, slot by slot. It grows to the largest push
    /// layout used and keeps its memory across resets (a new command
    /// buffer's push descriptors are undefined, so stale contents are
    /// allowed).
    dwords: Vec<u32>,
}

/// The bank as the destination of one push's writes.
pub struct PushDestination<'a> {
    layout: &'a DescriptorSetLayout,
    chip: Chip,
    dwords: &'a mut [u32],
}

impl DescriptorDestination for PushDestination<'_> {
    #[inline]
    fn layout(&self) -> &DescriptorSetLayout {
        self.layout
    }

    #[inline]
    fn chip(&self) -> Chip {
        self.chip
    }

    #[inline]
    fn store(&mut self, slot: u32, dwords: &[u32]) -> VkResult<()> {
        let at = slot as usize * DESCRIPTOR_DWORDS;
        let room = self
            .dwords
            .get_mut(at..at + dwords.len())
            .ok_or_else(|| crate::error::internal("push descriptor slot", slot))?;
        room.copy_from_slice(dwords);
        Ok(())
    }

    #[inline]
    fn store_dynamic(&mut self, _index: u32, _buffer: DynamicBuffer) {
        // A push layout holds no dynamic buffers (set_layout refuses them),
        // so no write reaches here.
    }
}

impl Recording {
    /// `vkCmdPushDescriptorSetKHR` and its template form: `write` applies
    /// the application's writes to set `set` of `layout`, which must be a
    /// push descriptor layout, and the result is bound for `bind_point`.
    #[inline]
    pub fn push_descriptor_set(
        &mut self,
        bind_point: vk::PipelineBindPoint,
        layout: &PipelineLayout,
        set: u32,
        write: impl FnOnce(&mut PushDestination<'_>) -> VkResult<()>,
    ) -> VkResult<()> {
        let command = "vkCmdPushDescriptorSetKHR";
        // Checked first: a refused bind point pushes nothing.
        self.descriptors_of(bind_point, command)?;
        let Some(Some(set_layout)) = layout.sets.get(set as usize).filter(|_| set < MAX_SETS)
        else {
            eprintln!(
                "parsnip: vkCmdPushDescriptorSetKHR: set {set} is not in the pipeline layout"
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        if !set_layout.push {
            eprintln!(
                "parsnip: vkCmdPushDescriptorSetKHR: set {set}'s layout was not created with \
                 VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR"
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let dwords = set_layout.slots as usize * DESCRIPTOR_DWORDS;
        let chip = self.device.gpu.chip();
        let bindings = self.descriptors_of(bind_point, command)?;
        let bank = &mut bindings.push.dwords;
        if bank.len() < dwords {
            bank.resize(dwords, 0);
        }
        let mut dst = PushDestination {
            layout: set_layout,
            chip,
            dwords: &mut bank[..dwords],
        };
        // Immutable samplers are part of the layout: every push has them,
        // whatever another layout's push left in their slots.
        for b in &set_layout.bindings {
            for (e, sampler) in b.immutable_samplers.iter().enumerate() {
                if let Some(slot) = b.sampler_slot(e as u32) {
                    dst.store(slot, sampler)?;
                }
            }
        }
        write(&mut dst)?;
        let (bindings, upload) = self.descriptors_and_upload(bind_point, command)?;
        let (iova, room) = upload.alloc(dwords, DESCRIPTOR_SIZE)?;
        room.copy_from_slice(&bindings.push.dwords[..dwords]);
        bindings.bind(set as usize, BoundSet { iova });
        Ok(())
    }
}
