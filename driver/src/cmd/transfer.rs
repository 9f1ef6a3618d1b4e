//! Buffer updates, fills and copies.
//!
//! Mechanism, and why:
//! - `vkCmdUpdateBuffer` (at most 64 KiB, dword-aligned): the data goes in
//!   the command stream as CP_MEM_WRITE payloads, so the CP writes it in
//!   order with no shader and no staging copy; Turnip's blit path would
//!   need a staging buffer for the same bytes.
//! - `vkCmdFillBuffer` (dword-aligned): CP_MEM_WRITE of the value repeated,
//!   up to [`CP_FILL_LIMIT`] bytes; larger fills run the internal fill
//!   shader (one dword per invocation), since the stream would otherwise
//!   grow with the fill.
//! - `vkCmdCopyBuffer` (any byte offsets and sizes): the internal copy
//!   shader, which writes whole destination dwords, merging the bytes
//!   outside the copied range back from the destination, so any alignment
//!   works without byte stores.
//!
//! CP writes bypass the UCHE: before them the GPU waits for idle and the
//! caches are flushed (a shader may have written the same memory), and
//! after them the caches must be invalidated before shaders read, which the
//! barrier that must follow a transfer asks for.

use std::sync::Arc;

use ash::vk;
use parsnip_registers::pm4::Opcode;

use super::buffer::Recording;
use super::cache::CacheOps;
use super::packets::PacketWriter;
use crate::buffer::Buffer;
use crate::error::VkResult;

/// Fills up to this many bytes are CP_MEM_WRITEs.
pub const CP_FILL_LIMIT: u64 = 64 * 1024;
/// Payload dwords of one CP_MEM_WRITE (the type 7 count holds 14 bits).
const MEM_WRITE_DWORDS: usize = 0x3fff - 2;

/// A buffer region to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyRegion {
    pub src_offset: u64,
    pub dst_offset: u64,
    pub size: u64,
}

impl Recording {
    /// Waits for earlier GPU work and flushes it, before the CP writes.
    fn before_cp_writes(&mut self) -> VkResult<()> {
        self.pending = self.pending.union(CacheOps {
            wait_for_idle: true,
            flush: true,
            ..Default::default()
        });
        self.flush_pending()
    }

    fn cp_write(&mut self, iova: u64, dwords: &[u32]) -> VkResult<()> {
        for (i, chunk) in dwords.chunks(MEM_WRITE_DWORDS).enumerate() {
            let [lo, hi] = PacketWriter::split(iova + (i * MEM_WRITE_DWORDS * 4) as u64);
            let mut payload = Vec::with_capacity(chunk.len() + 2);
            payload.extend_from_slice(&[lo, hi]);
            payload.extend_from_slice(chunk);
            self.cs.packet(Opcode::CP_MEM_WRITE, &payload)?;
        }
        Ok(())
    }

    /// `vkCmdUpdateBuffer`.
    pub fn update_buffer(&mut self, dst: &Arc<Buffer>, offset: u64, data: &[u8]) -> VkResult<()> {
        if !offset.is_multiple_of(4)
            || !data.len().is_multiple_of(4)
            || offset + data.len() as u64 > dst.size
        {
            eprintln!("parsnip: vkCmdUpdateBuffer: {} bytes at {offset:#x} are misaligned or out of range", data.len());
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        self.keep(dst.clone());
        self.before_cp_writes()?;
        let dwords: Vec<u32> = data
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        self.cp_write(dst.iova(offset), &dwords)
    }

    /// `vkCmdFillBuffer`.
    pub fn fill_buffer(
        &mut self,
        dst: &Arc<Buffer>,
        offset: u64,
        size: u64,
        value: u32,
    ) -> VkResult<()> {
        let size = if size == vk::WHOLE_SIZE {
            (dst.size - offset.min(dst.size)) & !3
        } else {
            size
        };
        if !offset.is_multiple_of(4) || size % 4 != 0 || offset + size > dst.size {
            eprintln!("parsnip: vkCmdFillBuffer: {size:#x} bytes at {offset:#x} are misaligned or out of range");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        if size == 0 {
            return Ok(());
        }
        self.keep(dst.clone());
        if size > CP_FILL_LIMIT {
            let iova = dst.iova(offset);
            return self.internal_fill(iova, size, value);
        }
        self.before_cp_writes()?;
        self.cp_write(dst.iova(offset), &vec![value; (size / 4) as usize])
    }

    /// `vkCmdCopyBuffer`.
    pub fn copy_buffer(
        &mut self,
        src: &Arc<Buffer>,
        dst: &Arc<Buffer>,
        regions: &[CopyRegion],
    ) -> VkResult<()> {
        for r in regions {
            if r.src_offset + r.size > src.size || r.dst_offset + r.size > dst.size {
                eprintln!("parsnip: vkCmdCopyBuffer: region {r:?} is out of range");
                return Err(vk::Result::ERROR_UNKNOWN);
            }
        }
        self.keep(src.clone());
        self.keep(dst.clone());
        for r in regions.iter().filter(|r| r.size > 0) {
            self.internal_copy(src.iova(r.src_offset), dst.iova(r.dst_offset), r.size)?;
        }
        Ok(())
    }
}
