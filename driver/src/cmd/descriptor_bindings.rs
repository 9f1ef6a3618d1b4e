//! The descriptor sets bound at one bind point (`vkCmdBindDescriptorSets`
//! and push descriptors). Compute and graphics each have their own: the
//! hardware gives compute SP_CS_BINDLESS_BASE and the graphics stages
//! SP_BINDLESS_BASE (`parsnip_hw_state::descriptors`), so binding sets
//! for one never disturbs what the other reads, and an application may
//! bind both and dispatch and draw in any order.
//!
//! Binding records the set's address; the next dispatch or draw of the
//! bind point programs the bases that changed since the stream last did,
//! and invalidates them.

use std::sync::Arc;

use ash::vk;
use parsnip_hw_state::descriptors::{all_bases, bindless_base, invalidate_bindless, BindPoint};

use super::buffer::Recording;
use super::packets::PacketSink;
use super::push_descriptors::PushBank;
use super::upload::UploadBuffer;
use crate::descriptor::pool::DescriptorPool;
use crate::descriptor::set::DescriptorSet;
use crate::error::VkResult;
use crate::limits::MAX_SETS;
use crate::pipeline_layout::PipelineLayout;

/// Bind points: the application's sets, then the driver's internal one.
pub const SET_SLOTS: usize = MAX_SETS as usize + 1;

/// Dwords programming every slot at most: two 64-bit bases a slot (the
/// SP's and, on a6xx, the HLSQ's copy) and the invalidation.
pub const EMIT_DWORDS: usize = SET_SLOTS * 6 + 2;

/// A bound descriptor set: the address its descriptors are read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoundSet {
    pub iova: u64,
}

#[derive(Default)]
pub struct DescriptorBindings {
    /// The application's sets, then the driver's internal one.
    pub sets: [Option<BoundSet>; SET_SLOTS],
    /// The push descriptors (`VK_KHR_push_descriptor`) of this bind point.
    pub push: PushBank,
    /// A set was bound since the bases were last programmed.
    dirty: bool,
    /// The base the stream has programmed for each slot (`None`: unknown).
    programmed: [Option<BoundSet>; SET_SLOTS],
    /// The pools of the sets bound, kept alive while the commands are (the
    /// GPU reads descriptors from the pool's BO), each once.
    pools: Vec<Arc<DescriptorPool>>,
}

impl DescriptorBindings {
    /// Binds `set` at set index `index`, for the next dispatch or draw.
    pub fn bind(&mut self, index: usize, set: BoundSet) {
        self.sets[index] = Some(set);
        self.dirty = true;
    }

    /// Unbinds slot `index` (the driver's internal set after its use).
    pub fn unbind(&mut self, index: usize) {
        self.sets[index] = None;
    }

    /// Keeps `pool` alive as long as the recorded commands.
    pub fn keep_pool(&mut self, pool: &Arc<DescriptorPool>) {
        if !self.pools.iter().any(|p| Arc::ptr_eq(p, pool)) {
            self.pools.push(pool.clone());
        }
    }

    /// Forgets what the stream has programmed: the next use programs every
    /// bound set (after a secondary ran, or in a stream of its own).
    pub fn invalidate(&mut self) {
        self.programmed = [None; SET_SLOTS];
        self.dirty = true;
    }

    /// Back to a new command buffer's state, keeping the lists' memory.
    pub fn reset(&mut self) {
        self.sets = [None; SET_SLOTS];
        self.dirty = false;
        self.programmed = [None; SET_SLOTS];
        self.pools.clear();
    }

    /// Whether [`DescriptorBindings::emit`] has anything to write.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Programs the bases of `point` for the bound sets that changed, then
    /// invalidates the bind point's bases ([`EMIT_DWORDS`] at most).
    pub fn emit(&mut self, w: &mut impl PacketSink, point: BindPoint) -> VkResult<()> {
        if !self.dirty {
            return Ok(());
        }
        self.dirty = false;
        let mut changed = false;
        for (i, set) in self.sets.iter().enumerate() {
            let Some(set) = *set else { continue };
            if self.programmed[i] == Some(set) {
                continue;
            }
            bindless_base(w, point, i as u32, set.iova)?;
            self.programmed[i] = Some(set);
            changed = true;
        }
        // Every base, as Turnip invalidates them.
        if changed {
            invalidate_bindless(w, point, all_bases(w.chip()))?;
        }
        Ok(())
    }
}

impl Recording {
    /// The sets of `bind_point`: compute's or graphics'. Other bind points
    /// (ray tracing, subpass shading) have no pipelines here.
    #[inline]
    pub fn descriptors_of(
        &mut self,
        bind_point: vk::PipelineBindPoint,
        command: &str,
    ) -> VkResult<&mut DescriptorBindings> {
        Ok(self.descriptors_and_upload(bind_point, command)?.0)
    }

    /// [`Recording::descriptors_of`], and the upload memory sets are
    /// copied to.
    #[inline]
    pub fn descriptors_and_upload(
        &mut self,
        bind_point: vk::PipelineBindPoint,
        command: &str,
    ) -> VkResult<(&mut DescriptorBindings, &mut UploadBuffer)> {
        let bindings = match bind_point {
            vk::PipelineBindPoint::COMPUTE => &mut self.compute.descriptors,
            vk::PipelineBindPoint::GRAPHICS => &mut self.graphics.descriptors,
            other => return Err(unsupported_bind_point(command, other)),
        };
        Ok((bindings, &mut self.upload))
    }

    /// `vkCmdBindDescriptorSets` at `bind_point`, for `count` sets that
    /// `set` gives one by one: sets with dynamic buffers are copied with their
    /// offsets applied, since one set may be bound with different offsets
    /// in different places.
    pub fn bind_descriptor_sets_each<'a>(
        &mut self,
        bind_point: vk::PipelineBindPoint,
        layout: &PipelineLayout,
        first_set: u32,
        count: usize,
        mut set: impl FnMut(usize) -> VkResult<&'a Arc<DescriptorSet>>,
        dynamic_offsets: &[u32],
    ) -> VkResult<()> {
        let end = first_set as usize + count;
        if end > layout.sets.len() || end > MAX_SETS as usize {
            eprintln!(
                "parsnip: vkCmdBindDescriptorSets: sets {first_set}..{end} are not all in the \
                 pipeline layout's {} sets",
                layout.sets.len()
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        // Checked first: a refused bind point binds nothing.
        self.descriptors_of(bind_point, "vkCmdBindDescriptorSets")?;
        let mut offsets = dynamic_offsets;
        for i in 0..count {
            let set = set(i)?;
            let index = first_set as usize + i;
            let n = set.layout.dynamic_count as usize;
            let iova = if n == 0 {
                set.iova()
            } else {
                if offsets.len() < n {
                    return Err(too_few_offsets(dynamic_offsets.len()));
                }
                let (mine, rest) = offsets.split_at(n);
                offsets = rest;
                let dwords = set.slots() as usize * crate::descriptor::encoding::DESCRIPTOR_DWORDS;
                let (iova, room) = self.upload.alloc(dwords, crate::limits::DESCRIPTOR_SIZE)?;
                set.write_with_dynamic_offsets(mine, room)?;
                iova
            };
            let bindings = self.descriptors_of(bind_point, "vkCmdBindDescriptorSets")?;
            bindings.bind(index, BoundSet { iova });
            bindings.keep_pool(&set.pool);
        }
        if !offsets.is_empty() {
            return Err(too_few_offsets(dynamic_offsets.len()));
        }
        Ok(())
    }

    /// [`Recording::bind_descriptor_sets_each`] of a slice.
    pub fn bind_descriptor_sets(
        &mut self,
        bind_point: vk::PipelineBindPoint,
        layout: &PipelineLayout,
        first_set: u32,
        sets: &[Arc<DescriptorSet>],
        dynamic_offsets: &[u32],
    ) -> VkResult<()> {
        self.bind_descriptor_sets_each(
            bind_point,
            layout,
            first_set,
            sets.len(),
            |i| Ok(&sets[i]),
            dynamic_offsets,
        )
    }
}

#[cold]
fn too_few_offsets(given: usize) -> vk::Result {
    eprintln!("parsnip: vkCmdBindDescriptorSets: {given} dynamic offsets do not match the sets' dynamic descriptors");
    vk::Result::ERROR_UNKNOWN
}

#[cold]
fn unsupported_bind_point(command: &str, point: vk::PipelineBindPoint) -> vk::Result {
    eprintln!("parsnip: {command}: bind point {point:?} is not supported");
    vk::Result::ERROR_FEATURE_NOT_PRESENT
}
