//! Events from command buffers: `vkCmdSetEvent`/`vkCmdResetEvent` write the
//! event's word with CP_MEM_WRITE once the work they follow is done (a
//! wait for idle, and a cache flush when that work wrote memory);
//! `vkCmdWaitEvents` has the CP poll the word until it is set
//! (CP_WAIT_REG_MEM, equal to 1), then applies the barriers it carries.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::pm4::Opcode;

use super::barrier::Dependency;
use super::buffer::Recording;
use super::cache::CacheOps;
use super::packets::{wait_memory_equal, PacketWriter};
use crate::error::VkResult;
use crate::sync::event::{Event, EVENT_RESET, EVENT_SET};

impl Recording {
    /// `vkCmdSetEvent(2)` / `vkCmdResetEvent(2)`: `stages` is the work the
    /// write waits for.
    pub fn write_event(
        &mut self,
        event: &Arc<Event>,
        set: bool,
        stages: vk::PipelineStageFlags2,
    ) -> VkResult<()> {
        self.keep(event.clone());
        let ops = CacheOps::for_dependency(
            stages,
            vk::AccessFlags2::MEMORY_WRITE,
            vk::PipelineStageFlags2::HOST,
            vk::AccessFlags2::MEMORY_READ,
        );
        self.pending = self.pending.union(ops);
        self.flush_pending()?;
        let [lo, hi] = PacketWriter::split(event.iova());
        let value = if set { EVENT_SET } else { EVENT_RESET };
        self.cs.packet(Opcode::CP_MEM_WRITE, &[lo, hi, value])
    }

    /// `vkCmdWaitEvents(2)`.
    pub fn wait_events(
        &mut self,
        events: &[Arc<Event>],
        dependencies: &[Dependency],
    ) -> VkResult<()> {
        self.flush_pending()?;
        let mut w = PacketWriter::new(self.device.gpu.chip());
        for event in events {
            self.keep(event.clone());
            wait_memory_equal(&mut w, event.iova(), EVENT_SET)?;
        }
        self.cs.append(&w)?;
        self.pipeline_barrier(dependencies)
    }
}
