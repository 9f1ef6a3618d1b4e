//! Cache maintenance: what a barrier needs the GPU to flush, invalidate and
//! wait for, and the packets that do it on each generation.
//!
//! Compute shaders reach memory through the UCHE (the GPU's L2), and read
//! uniform and texel buffers through caches in front of it. The CP reads
//! memory (indirect dispatch arguments, event and query words) without the
//! UCHE, and CP_MEM_WRITE writes memory without it. So, as Turnip's barrier
//! logic has it:
//!
//! - a dependency on earlier work waits for the GPU to go idle
//!   (CP_WAIT_FOR_IDLE): dispatches otherwise overlap;
//! - shader writes read by the CP or the host need the UCHE flushed to
//!   memory (a6xx CACHE_FLUSH_TS, a7xx CACHE_CLEAN);
//! - shader reads of what the CP or the host wrote, or of what shaders wrote
//!   but is read through another cache, need the caches invalidated (a6xx
//!   CACHE_INVALIDATE, a7xx CACHE_INVALIDATE7; both at once is a7xx
//!   CACHE_FLUSH7);
//! - the CP reading what was just written waits for its own writes and
//!   prefetch (CP_WAIT_FOR_ME).
//! - the 2D engine (copies, blits, clears) writes through the CCU, the
//!   RB's colour cache, not the UCHE: its writes are flushed from the CCU
//!   before anything else reads them (a6xx PC_CCU_FLUSH_COLOR_TS, a7xx
//!   CCU_CLEAN_COLOR), and the CCU is invalidated before it writes memory
//!   that others wrote (PC_CCU_INVALIDATE_COLOR), as Turnip's barriers
//!   around its blits show (storage_image.log).
//!
//! Event names and their payloads per generation are from adreno_pm4.xml
//! and the end of Turnip's compute streams (compute.log for a660 and a740).

use ash::vk;
use parsnip_registers::enums::VgtEventType;
use parsnip_registers::packets::CpEventWriteDw0;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::Chip;

use super::packets::{field, PacketSink, PacketWriter};
use crate::error::VkResult;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheOps {
    pub wait_for_idle: bool,
    pub flush: bool,
    pub invalidate: bool,
    pub wait_for_me: bool,
    pub ccu_flush_color: bool,
    pub ccu_invalidate_color: bool,
}

impl CacheOps {
    /// Everything: what `PARSNIP_DEBUG=flushall` makes every barrier do.
    pub fn all() -> CacheOps {
        CacheOps {
            wait_for_idle: true,
            flush: true,
            invalidate: true,
            wait_for_me: true,
            ccu_flush_color: true,
            ccu_invalidate_color: true,
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == CacheOps::default()
    }

    pub fn union(self, o: CacheOps) -> CacheOps {
        CacheOps {
            wait_for_idle: self.wait_for_idle || o.wait_for_idle,
            flush: self.flush || o.flush,
            invalidate: self.invalidate || o.invalidate,
            wait_for_me: self.wait_for_me || o.wait_for_me,
            ccu_flush_color: self.ccu_flush_color || o.ccu_flush_color,
            ccu_invalidate_color: self.ccu_invalidate_color || o.ccu_invalidate_color,
        }
    }

    /// What a memory dependency from `src` work and accesses to `dst` work
    /// and accesses needs (synchronization2 flags; the 1.0 flags have the
    /// same bits).
    pub fn for_dependency(
        src_stages: vk::PipelineStageFlags2,
        src_access: vk::AccessFlags2,
        dst_stages: vk::PipelineStageFlags2,
        dst_access: vk::AccessFlags2,
    ) -> CacheOps {
        use vk::AccessFlags2 as A;
        use vk::PipelineStageFlags2 as S;

        let gpu_src = S::COMPUTE_SHADER
            | S::TRANSFER
            | S::ALL_TRANSFER
            | S::COPY
            | S::CLEAR
            | S::ALL_COMMANDS
            | S::ALL_GRAPHICS
            | S::BOTTOM_OF_PIPE
            | S::DRAW_INDIRECT;
        let shader_writes =
            A::SHADER_WRITE | A::SHADER_STORAGE_WRITE | A::TRANSFER_WRITE | A::MEMORY_WRITE;
        let host_or_cp_writes = A::HOST_WRITE | A::TRANSFER_WRITE | A::MEMORY_WRITE;
        let shader_reads = A::SHADER_READ
            | A::SHADER_STORAGE_READ
            | A::SHADER_SAMPLED_READ
            | A::UNIFORM_READ
            | A::TRANSFER_READ
            | A::MEMORY_READ
            | A::SHADER_WRITE
            | A::SHADER_STORAGE_WRITE
            | A::TRANSFER_WRITE
            | A::MEMORY_WRITE;
        let cp_or_host_reads = A::INDIRECT_COMMAND_READ | A::HOST_READ | A::MEMORY_READ;

        // Stages whose writes may be 2D engine writes, through the CCU.
        let transfer = S::TRANSFER
            | S::ALL_TRANSFER
            | S::COPY
            | S::BLIT
            | S::CLEAR
            | S::RESOLVE
            | S::ALL_COMMANDS
            | S::ALL_GRAPHICS
            | S::BOTTOM_OF_PIPE;
        let transfer_writes = A::TRANSFER_WRITE | A::MEMORY_WRITE;
        let any_write = shader_writes | host_or_cp_writes;

        let src_is_gpu = src_stages.intersects(gpu_src | transfer);
        let dst_is_cp = dst_access.intersects(A::INDIRECT_COMMAND_READ | A::MEMORY_READ)
            || dst_stages.intersects(S::DRAW_INDIRECT);
        CacheOps {
            wait_for_idle: src_is_gpu,
            flush: src_is_gpu
                && src_access.intersects(shader_writes)
                && (dst_access.intersects(cp_or_host_reads) || dst_stages.intersects(S::HOST)),
            invalidate: src_access.intersects(host_or_cp_writes | shader_writes)
                && dst_access.intersects(shader_reads),
            wait_for_me: dst_is_cp && src_access.intersects(shader_writes | host_or_cp_writes),
            ccu_flush_color: src_stages.intersects(transfer)
                && src_access.intersects(transfer_writes),
            ccu_invalidate_color: dst_stages.intersects(transfer)
                && dst_access.intersects(transfer_writes | A::TRANSFER_READ)
                && src_access.intersects(any_write),
        }
    }
}

/// An a6xx CP_EVENT_WRITE; a "_TS" event also writes 0 to `scratch` once
/// it is done, which for a flush is after the flush.
fn a6xx_event(w: &mut impl PacketSink, event: VgtEventType, scratch: Option<u64>) -> VkResult<()> {
    let dw0 = field(
        "CP_EVENT_WRITE",
        CpEventWriteDw0 {
            event,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    match scratch {
        Some(iova) => {
            let [lo, hi] = PacketWriter::split(iova);
            w.packet(Opcode::CP_EVENT_WRITE, &[dw0, lo, hi, 0]);
        }
        None => w.packet(Opcode::CP_EVENT_WRITE, &[dw0]),
    }
    Ok(())
}

/// An a7xx CP_EVENT_WRITE7 with no write, as Turnip emits cache events.
fn a7xx_event(w: &mut impl PacketSink, event: VgtEventType) -> VkResult<()> {
    parsnip_hw_state::events::event(w, event)
}

/// Emits `ops`; `scratch` is a device address _TS events may write.
pub fn emit(w: &mut impl PacketSink, ops: CacheOps, scratch: u64) -> VkResult<()> {
    match w.chip() {
        Chip::A6xx => {
            if ops.ccu_flush_color {
                a6xx_event(w, VgtEventType::PC_CCU_FLUSH_COLOR_TS, Some(scratch))?;
            }
            if ops.ccu_invalidate_color {
                a6xx_event(w, VgtEventType::PC_CCU_INVALIDATE_COLOR, None)?;
            }
            if ops.flush {
                a6xx_event(w, VgtEventType::CACHE_FLUSH_TS, Some(scratch))?;
            }
            if ops.invalidate {
                a6xx_event(w, VgtEventType::CACHE_INVALIDATE, None)?;
            }
        }
        Chip::A7xx => {
            if ops.ccu_flush_color {
                a7xx_event(w, VgtEventType::CCU_CLEAN_COLOR)?;
            }
            if ops.ccu_invalidate_color {
                a7xx_event(w, VgtEventType::PC_CCU_INVALIDATE_COLOR)?;
            }
            match (ops.flush, ops.invalidate) {
                (true, true) => a7xx_event(w, VgtEventType::CACHE_FLUSH7)?,
                (true, false) => a7xx_event(w, VgtEventType::CACHE_CLEAN)?,
                (false, true) => a7xx_event(w, VgtEventType::CACHE_INVALIDATE7)?,
                (false, false) => {}
            }
        }
    }
    if ops.wait_for_idle {
        w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
    }
    if ops.wait_for_me {
        w.packet(Opcode::CP_WAIT_FOR_ME, &[]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::packets::CpEventWrite7Dw0;
    use vk::AccessFlags2 as A;
    use vk::PipelineStageFlags2 as S;

    #[test]
    fn dispatch_to_dispatch_waits_and_invalidates_without_flushing() {
        let ops = CacheOps::for_dependency(
            S::COMPUTE_SHADER,
            A::SHADER_WRITE,
            S::COMPUTE_SHADER,
            A::SHADER_READ,
        );
        assert_eq!(
            ops,
            CacheOps {
                wait_for_idle: true,
                flush: false,
                invalidate: true,
                wait_for_me: false,
                ccu_flush_color: false,
                ccu_invalidate_color: false,
            }
        );
    }

    #[test]
    fn blits_read_by_shaders_flush_the_ccu_as_turnip_does() {
        // storage_image.log (a660), between the buffer-to-image CP_BLITs and
        // the dispatch: PC_CCU_FLUSH_COLOR_TS, CACHE_INVALIDATE,
        // CP_WAIT_FOR_IDLE.
        let ops = CacheOps::for_dependency(
            S::TRANSFER,
            A::TRANSFER_WRITE,
            S::COMPUTE_SHADER,
            A::SHADER_READ,
        );
        assert!(ops.ccu_flush_color && ops.invalidate && ops.wait_for_idle);
        assert!(!ops.ccu_invalidate_color && !ops.flush);
        let mut a6 = PacketWriter::new(Chip::A6xx);
        emit(&mut a6, ops, 0x1_0000_4000).unwrap();
        assert_eq!(
            a6.dwords,
            vec![
                0x7046_0004,
                0x1d,
                0x4000,
                0x1,
                0,
                0x7046_0001,
                0x31,
                0x7026_8000
            ]
        );
        // Shader writes a blit then overwrites: the CCU drops stale lines.
        let ops = CacheOps::for_dependency(
            S::COMPUTE_SHADER,
            A::SHADER_WRITE,
            S::TRANSFER,
            A::TRANSFER_WRITE,
        );
        assert!(ops.ccu_invalidate_color && ops.wait_for_idle && !ops.ccu_flush_color);
        let mut a7 = PacketWriter::new(Chip::A7xx);
        emit(&mut a7, ops, 0).unwrap();
        let event = CpEventWrite7Dw0::from_raw(a7.dwords[1]);
        assert_eq!(event.event, VgtEventType::PC_CCU_INVALIDATE_COLOR);
    }

    #[test]
    fn shader_writes_for_the_host_or_the_cp_are_flushed() {
        let host =
            CacheOps::for_dependency(S::COMPUTE_SHADER, A::SHADER_WRITE, S::HOST, A::HOST_READ);
        assert!(host.wait_for_idle && host.flush);
        let indirect = CacheOps::for_dependency(
            S::COMPUTE_SHADER,
            A::SHADER_WRITE,
            S::DRAW_INDIRECT,
            A::INDIRECT_COMMAND_READ,
        );
        assert!(indirect.flush && indirect.wait_for_me && indirect.wait_for_idle);
        let exec_only =
            CacheOps::for_dependency(S::TOP_OF_PIPE, A::NONE, S::COMPUTE_SHADER, A::NONE);
        assert!(exec_only.is_empty());
    }

    #[test]
    fn the_events_match_turnips_streams() {
        // a660 compute.log ends with CACHE_FLUSH_TS to 0x100004000: 70460004
        // 00000004 00004000 00000001 00000000.
        let mut a6 = PacketWriter::new(Chip::A6xx);
        emit(
            &mut a6,
            CacheOps {
                flush: true,
                ..Default::default()
            },
            0x1_0000_4000,
        )
        .unwrap();
        assert_eq!(a6.dwords, vec![0x7046_0004, 0x4, 0x4000, 0x1, 0]);
        // a660 starts with CACHE_INVALIDATE: 70460001 00000031.
        let mut a6 = PacketWriter::new(Chip::A6xx);
        emit(
            &mut a6,
            CacheOps {
                invalidate: true,
                wait_for_idle: true,
                ..Default::default()
            },
            0,
        )
        .unwrap();
        assert_eq!(a6.dwords, vec![0x7046_0001, 0x31, 0x7026_8000]);
        // a740 ends with CACHE_CLEAN as a CP_EVENT_WRITE7 with no write.
        let mut a7 = PacketWriter::new(Chip::A7xx);
        emit(
            &mut a7,
            CacheOps {
                flush: true,
                ..Default::default()
            },
            0,
        )
        .unwrap();
        assert_eq!(a7.dwords.len(), 2);
        let event = CpEventWrite7Dw0::from_raw(a7.dwords[1]);
        assert_eq!(event.event, VgtEventType::CACHE_CLEAN);
    }
}
