//! Queries in command buffers: timestamps and occlusion queries.
//!
//! - `vkCmdWriteTimestamp(2)`: the end-of-pipe timestamp event writes the
//!   always-on counter to the query's value (a6xx CP_EVENT_WRITE RB_DONE_TS
//!   with TIMESTAMP; a7xx CP_EVENT_WRITE7 RB_DONE_TS writing ALWAYSON), then
//!   CP_MEM_WRITE sets its availability word. The event is ordered after
//!   the work before it, which is what every stage but TOP_OF_PIPE asks;
//!   TOP_OF_PIPE is allowed to be late.
//! - `vkCmdBeginQuery`/`vkCmdEndQuery` of an occlusion query: the RB's
//!   sample count read at both ends and the difference added to the result
//!   (`parsnip_hw_state::occlusion`). Inside a render pass the begin and
//!   end are in the pass's stream, which may run once per bin: the
//!   availability is written when the pass has been rendered, after its
//!   stream ([`Recording::owed_availability`]), as Turnip writes it in
//!   the pass's epilogue. Counts are exact (every sample that passes is
//!   counted), whether or not PRECISE is asked for.
//! - `vkCmdResetQueryPool`: CP_MEM_WRITE of zeros.
//! - `vkCmdCopyQueryPoolResults`: per query, CP_WAIT_REG_MEM for
//!   availability when asked to wait, then CP_MEM_TO_MEM of the value
//!   under CP_COND_EXEC (only when available, unless PARTIAL asks for the
//!   value whatever it is), and of the availability word when asked for it.

use parsnip_hw_state::PacketSink as _;
use std::sync::Arc;

use ash::vk;
use parsnip_registers::enums::{EventWriteDst, EventWriteSrc, VgtEventType};
use parsnip_registers::packets::{CpEventWrite7Dw0, CpEventWriteDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::Chip;

use parsnip_hw_state::occlusion::{
    occlusion_begin, occlusion_end, query_available, AVAILABLE_DWORDS, BEGIN_DWORDS, END_DWORDS,
};

use super::buffer::Recording;
use super::packets::{copy_memory, field, wait_memory_equal, PacketSink, PacketWriter};
use crate::buffer::Buffer;
use crate::error::VkResult;
use crate::query_pool::QueryPool;

/// Dwords of one CP_MEM_WRITE's payload at most (a type 7 packet's count
/// is 14 bits, adreno_pm4.xml), less its address.
const MAX_ZEROS_DWORDS: u64 = 16 * 1024 - 8;

fn fail<T>(command: &str, what: &str) -> VkResult<T> {
    eprintln!("parsnip: {command}: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

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
        let mut w = PacketWriter::new(self.device.gpu.chip());
        timestamp_packets(&mut w, pool.value_iova(query))?;
        let [lo, hi] = PacketWriter::split(pool.available_iova(query));
        w.packet(Opcode::CP_MEM_WRITE, &[lo, hi, 1, 0]);
        self.cs.append(&w)
    }

    /// `vkCmdResetQueryPool`.
    pub fn reset_queries(&mut self, pool: &Arc<QueryPool>, first: u32, count: u32) -> VkResult<()> {
        self.keep(pool.clone());
        self.flush_pending()?;
        // Earlier writes of these queries must not land after the reset.
        self.cs.packet(Opcode::CP_WAIT_FOR_IDLE, &[])?;
        // One CP_MEM_WRITE per run of queries that fits one packet.
        let slot_dwords = pool.slot_bytes / 4;
        let per_packet = (MAX_ZEROS_DWORDS / slot_dwords) as u32;
        let mut at = first;
        let end = first + count;
        while at < end {
            let n = (end - at).min(per_packet);
            let [lo, hi] = PacketWriter::split(pool.slot_iova(at));
            let mut payload = vec![lo, hi];
            payload.resize(2 + (u64::from(n) * slot_dwords) as usize, 0);
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
            let available = pool.available_iova(first + i);
            let out = dst.iova(offset + u64::from(i) * stride);
            let mut w = PacketWriter::new(self.device.gpu.chip());
            if flags.contains(vk::QueryResultFlags::WAIT) {
                wait_memory_equal(&mut w, available, 1)?;
            }
            let mut copy = PacketWriter::new(w.chip());
            copy_memory(&mut copy, out, pool.value_iova(first + i), wide)?;
            if flags.contains(vk::QueryResultFlags::PARTIAL) {
                // What it has counted so far, available or not.
                w.dwords.extend_from_slice(&copy.dwords);
            } else {
                // Execute the copy only if [available] != 0 and
                // [available] < 2.
                let [alo, ahi] = PacketWriter::split(available);
                w.packet(
                    Opcode::CP_COND_EXEC,
                    &[alo, ahi, alo, ahi, 2, copy.len() as u32],
                );
                w.dwords.extend_from_slice(&copy.dwords);
            }
            if flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY) {
                copy_memory(&mut w, out + size, available, wide)?;
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

impl Recording {
    /// `vkCmdBeginQuery`. Its flags change nothing: the counts are exact,
    /// which is what PRECISE asks for and more than its absence does.
    pub fn begin_query(&mut self, pool: &Arc<QueryPool>, query: u32) -> VkResult<()> {
        let command = "vkCmdBeginQuery";
        if pool.ty != vk::QueryType::OCCLUSION {
            return fail(command, "only occlusion queries are begun and ended");
        }
        if query + self.queries_per_use() > pool.count {
            return fail(command, "the query is past the pool's end");
        }
        self.keep(pool.clone());
        self.flush_pending()?;
        let slot = pool.occlusion_slot(query);
        self.cs.emit(BEGIN_DWORDS, |r| occlusion_begin(r, slot))
    }

    /// `vkCmdEndQuery`.
    pub fn end_query(&mut self, pool: &Arc<QueryPool>, query: u32) -> VkResult<()> {
        let command = "vkCmdEndQuery";
        let uses = self.queries_per_use();
        if pool.ty != vk::QueryType::OCCLUSION || query + uses > pool.count {
            return fail(command, "not an occlusion query of the pool");
        }
        self.keep(pool.clone());
        self.flush_pending()?;
        let slot = pool.occlusion_slot(query);
        self.cs.emit(END_DWORDS, |r| occlusion_end(r, slot))?;
        let available = pool.available_iova(query);
        if self.in_subpass() {
            self.owed_availability.push(available);
            // In a multiview subpass the query is `uses` queries, one per
            // view: the first counts the samples of every view (each
            // view's draws run between the begin and the end), the others
            // keep the zero their reset left, as the spec allows.
            for q in query + 1..query + uses {
                self.owed_availability.push(pool.available_iova(q));
            }
            Ok(())
        } else {
            self.cs
                .emit(AVAILABLE_DWORDS, |r| query_available(r, available))
        }
    }

    /// The queries a query begun now takes: one per view in a multiview
    /// subpass, else one.
    fn queries_per_use(&self) -> u32 {
        let mask = self.current_subpass().map_or(0, |(s, _)| s.view_mask);
        mask.count_ones().max(1)
    }

    /// Writes the availability of the queries the render pass just
    /// rendered ended, after all of its stream.
    pub fn write_owed_availability(&mut self) -> VkResult<()> {
        for i in 0..self.owed_availability.len() {
            let at = self.owed_availability[i];
            self.cs.emit(AVAILABLE_DWORDS, |r| query_available(r, at))?;
        }
        self.owed_availability.clear();
        Ok(())
    }
}
