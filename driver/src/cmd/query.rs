//! Timestamp queries in command buffers.
//!
//! - `vkCmdWriteTimestamp(2)`: the end-of-pipe timestamp event writes the
//!   always-on counter to the query's value (a6xx CP_EVENT_WRITE RB_DONE_TS
//!   with TIMESTAMP; a7xx CP_EVENT_WRITE7 RB_DONE_TS writing ALWAYSON), then
//!   CP_MEM_WRITE sets its availability word. The event is ordered after
//!   the work before it, which is what every stage but TOP_OF_PIPE asks;
//!   TOP_OF_PIPE is allowed to be late.
//! - `vkCmdResetQueryPool`: CP_MEM_WRITE of zeros.
//! - `vkCmdCopyQueryPoolResults`: per query, CP_WAIT_REG_MEM for
//!   availability when asked to wait, then CP_MEM_TO_MEM of the value
//!   under CP_COND_EXEC (only when available: timestamps may not be
//!   partial), and of the availability word when asked for it.

use parsnip_hw_state::PacketSink as _;
use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::{EventWriteDst, EventWriteSrc, VgtEventType};
use parsnip_registers::packets::{CpEventWrite7Dw0, CpEventWriteDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::Chip;

use super::buffer::Recording;
use super::packets::{copy_memory, field, wait_memory_equal, PacketSink, PacketWriter};
use crate::buffer::Buffer;
use crate::error::VkResult;
use crate::query_pool::{QueryPool, AVAILABLE_OFFSET, SLOT_BYTES, VALUE_OFFSET};

/// The packets that write the GPU's timestamp to `iova` (8 bytes).
pub fn timestamp_packets(w: &mut impl PacketSink, iova: u64) -> VkResult<()> {
    let [lo, hi] = PacketWriter::split(iova);
    match w.chip() {
        Chip::A6xx => {
            let dw0 = field(
                "CP_EVENT_WRITE",
                CpEventWriteDw0 {
                    event: VgtEventType::RB_DONE_TS,
                    timestamp: true,
                    irq: false,
                }
                .try_to_raw(),
            )?;
            w.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi]);
        }
        Chip::A7xx => {
            let dw0 = field(
                "CP_EVENT_WRITE7",
                CpEventWrite7Dw0 {
                    event: VgtEventType::RB_DONE_TS,
                    write_src: EventWriteSrc::EV_WRITE_ALWAYSON,
                    write_dst: EventWriteDst::EV_DST_RAM,
                    write_enabled: true,
                    ..Default::default()
                }
                .try_to_raw(),
            )?;
            w.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi]);
        }
    }
    Ok(())
}

impl Recording {
    /// `vkCmdWriteTimestamp(2)`.
    pub fn write_timestamp(&mut self, pool: &Arc<QueryPool>, query: u32) -> VkResult<()> {
        self.keep(pool.clone());
        self.flush_pending()?;
        let slot = pool.slot_iova(query);
        let mut w = PacketWriter::new(self.device.gpu.chip());
        timestamp_packets(&mut w, slot + VALUE_OFFSET)?;
        let [lo, hi] = PacketWriter::split(slot + AVAILABLE_OFFSET);
        w.packet(Opcode::CP_MEM_WRITE, &[lo, hi, 1, 0]);
        self.cs.append(&w)
    }

    /// `vkCmdResetQueryPool`.
    pub fn reset_queries(&mut self, pool: &Arc<QueryPool>, first: u32, count: u32) -> VkResult<()> {
        self.keep(pool.clone());
        self.flush_pending()?;
        // Earlier writes of these queries must not land after the reset.
        self.cs.packet(Opcode::CP_WAIT_FOR_IDLE, &[])?;
        // One CP_MEM_WRITE per run of at most 4096 queries.
        let mut at = first;
        let end = first + count;
        while at < end {
            let n = (end - at).min(4096);
            let [lo, hi] = PacketWriter::split(pool.slot_iova(at));
            let mut payload = vec![lo, hi];
            payload.resize(2 + (u64::from(n) * SLOT_BYTES / 4) as usize, 0);
            self.cs.packet(Opcode::CP_MEM_WRITE, &payload)?;
            at += n;
        }
        Ok(())
    }

    /// `vkCmdCopyQueryPoolResults`.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_query_results(
        &mut self,
        pool: &Arc<QueryPool>,
        first: u32,
        count: u32,
        dst: &Arc<Buffer>,
        offset: u64,
        stride: u64,
        flags: vk::QueryResultFlags,
    ) -> VkResult<()> {
        self.keep(pool.clone());
        self.keep(dst.clone());
        self.flush_pending()?;
        // The timestamps and availability written before must have landed.
        self.cs.packet(Opcode::CP_WAIT_FOR_IDLE, &[])?;
        let wide = flags.contains(vk::QueryResultFlags::TYPE_64);
        let size = if wide { 8 } else { 4 };
        for i in 0..count {
            let slot = pool.slot_iova(first + i);
            let out = dst.iova(offset + u64::from(i) * stride);
            let mut w = PacketWriter::new(self.device.gpu.chip());
            if flags.contains(vk::QueryResultFlags::WAIT) {
                wait_memory_equal(&mut w, slot + AVAILABLE_OFFSET, 1)?;
            }
            let mut copy = PacketWriter::new(w.chip());
            copy_memory(&mut copy, out, slot + VALUE_OFFSET, wide)?;
            // Execute the copy only if [available] != 0 and [available] < 2.
            let [alo, ahi] = PacketWriter::split(slot + AVAILABLE_OFFSET);
            w.packet(
                Opcode::CP_COND_EXEC,
                &[alo, ahi, alo, ahi, 2, copy.len() as u32],
            );
            w.dwords.extend_from_slice(&copy.dwords);
            if flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY) {
                copy_memory(&mut w, out + size, slot + AVAILABLE_OFFSET, wide)?;
            }
            self.cs.append(&w)?;
        }
        // What follows may read the results through the caches.
        self.pending = self.pending.union(super::cache::CacheOps {
            invalidate: true,
            wait_for_idle: true,
            ..Default::default()
        });
        Ok(())
    }
}
