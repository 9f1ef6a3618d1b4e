//! A command buffer's command stream: packets written into BO-backed chunks.
//!
//! A chunk is one IB1 of the submit (as Turnip's `tu_cs` entries are). When
//! the current chunk cannot hold the next packet, it is closed and a new one
//! twice its size (up to 1 MiB) is opened, so a long command buffer costs a
//! handful of BOs; a reset keeps them for the next recording. A secondary
//! command buffer's chunks join the primary's list of IBs as they are.
//!
//! Recording reserves room for what it is about to write in the open chunk
//! and stores the packets straight into the chunk's mapping
//! ([`CommandStream::emit`]): no buffer in between, nothing allocated.

use std::sync::Arc;

use parsnip_registers::pm4::Opcode;
use parsnip_registers::{ArrayRegister, Chip, RegWrite, Register, RegisterError};

use super::chunk::Chunk;
use super::packets::{register_error, PacketWriter};
use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;
use parsnip_hw_state::PacketSink;

/// The first chunk's size in dwords, and the largest.
pub const FIRST_CHUNK_DWORDS: usize = 1024;
pub const MAX_CHUNK_DWORDS: usize = 256 * 1024;

/// One IB of a submit.
#[derive(Clone)]
pub struct Ib {
    pub bo: Arc<DeviceBo>,
    pub offset: u64,
    pub dwords: u32,
}

struct OpenChunk {
    chunk: Chunk,
    /// Dwords written so far.
    len: usize,
}

/// Room reserved in the open chunk: packets written here land in the
/// stream. Writing past the reservation is a driver bug (a panic, which
/// the entry point's guard turns into an error).
pub struct Reserved<'a> {
    chip: Chip,
    room: &'a mut [u32],
    len: usize,
}

impl Reserved<'_> {
    /// Dwords written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next `n` dwords, to fill in place (a packet's payload built
    /// where it goes).
    pub fn take(&mut self, n: usize) -> &mut [u32] {
        let at = self.len;
        self.len += n;
        &mut self.room[at..at + n]
    }
}

impl parsnip_hw_state::PacketSink for Reserved<'_> {
    type Error = ash::vk::Result;

    #[inline]
    fn chip(&self) -> Chip {
        self.chip
    }

    fn encoding_error(error: RegisterError) -> ash::vk::Result {
        register_error(error)
    }

    #[inline]
    fn push(&mut self, dword: u32) {
        self.room[self.len] = dword;
        self.len += 1;
    }

    #[inline]
    fn push_all(&mut self, dwords: &[u32]) {
        self.take(dwords.len()).copy_from_slice(dwords);
    }
}

pub struct CommandStream {
    device: Arc<Device>,
    chip: Chip,
    ibs: Vec<Ib>,
    open: Option<OpenChunk>,
    /// Chunks this stream filled and closed, and chunks a reset freed for
    /// reuse.
    closed: Vec<Chunk>,
    spare: Vec<Chunk>,
    next_capacity: usize,
}

impl CommandStream {
    pub fn new(device: &Arc<Device>) -> CommandStream {
        CommandStream {
            device: device.clone(),
            chip: device.gpu.chip(),
            ibs: Vec::new(),
            open: None,
            closed: Vec::new(),
            spare: Vec::new(),
            next_capacity: FIRST_CHUNK_DWORDS,
        }
    }

    pub fn chip(&self) -> Chip {
        self.chip
    }

    /// Reserves `dwords` in the open chunk (opening a new one if needed:
    /// every reservation is whole, so no packet straddles chunks) and runs
    /// `emit` to write at most that many there. What it wrote is kept if
    /// it succeeds, dropped if it fails.
    #[inline]
    pub fn emit<T>(
        &mut self,
        dwords: usize,
        emit: impl FnOnce(&mut Reserved<'_>) -> VkResult<T>,
    ) -> VkResult<T> {
        let chip = self.chip;
        let fits = matches!(&self.open, Some(o) if o.len + dwords <= o.chunk.capacity());
        let open = match (fits, &mut self.open) {
            (true, Some(open)) => open,
            _ => self.open_chunk(dwords)?,
        };
        let start = open.len;
        let mut room = Reserved {
            chip,
            room: &mut open.chunk.dwords_mut()[start..start + dwords],
            len: 0,
        };
        let out = emit(&mut room)?;
        open.len += room.len;
        Ok(out)
    }

    /// Closes the open chunk and opens one of at least `dwords`.
    #[cold]
    fn open_chunk(&mut self, dwords: usize) -> VkResult<&mut OpenChunk> {
        self.close_chunk();
        let chunk = match self.spare.iter().position(|c| c.capacity() >= dwords) {
            Some(i) => self.spare.swap_remove(i),
            None => {
                let capacity = self.next_capacity.max(dwords);
                self.next_capacity = (capacity * 2).min(MAX_CHUNK_DWORDS);
                Chunk::new(&self.device, capacity, BoKind::Commands)?
            }
        };
        Ok(self.open.insert(OpenChunk { chunk, len: 0 }))
    }

    /// Adds the open chunk to the IB list.
    fn close_chunk(&mut self) {
        if let Some(open) = self.open.take() {
            if open.len > 0 {
                self.ibs.push(Ib {
                    bo: open.chunk.bo().clone(),
                    offset: 0,
                    dwords: open.len as u32,
                });
            }
            self.closed.push(open.chunk);
        }
    }

    /// Appends packets built elsewhere (they are copied whole into one
    /// chunk).
    pub fn append(&mut self, packets: &PacketWriter) -> VkResult<()> {
        self.emit(packets.len(), |r| {
            r.push_all(&packets.dwords);
            Ok(())
        })
    }

    pub fn reg<R: Register>(&mut self, value: &R) -> VkResult<()> {
        self.emit(3, |r| r.reg(value))
    }

    pub fn array_reg<R: ArrayRegister>(&mut self, value: &R, index: u32) -> VkResult<()> {
        self.emit(3, |r| r.array_reg(value, index))
    }

    pub fn writes(&mut self, writes: &[RegWrite]) -> VkResult<()> {
        // At most a header and two dwords a write.
        self.emit(writes.len() * 3, |r| {
            r.writes(writes);
            Ok(())
        })
    }

    pub fn packet(&mut self, opcode: Opcode, payload: &[u32]) -> VkResult<()> {
        self.emit(payload.len() + 1, |r| {
            r.packet(opcode, payload);
            Ok(())
        })
    }

    /// Adds IBs recorded elsewhere (a secondary command buffer's) after
    /// what is written so far.
    pub fn add_ibs(&mut self, ibs: &[Ib]) -> VkResult<()> {
        self.close_chunk();
        self.ibs.extend_from_slice(ibs);
        Ok(())
    }

    /// Hands over the IBs written so far and keeps recording after them
    /// (the stream's chunks stay its own until a reset).
    pub fn take_ibs(&mut self) -> Vec<Ib> {
        self.close_chunk();
        std::mem::take(&mut self.ibs)
    }

    /// Closes the stream: the IBs to submit, in order.
    pub fn finish(&mut self) -> VkResult<Vec<Ib>> {
        self.close_chunk();
        Ok(self.ibs.clone())
    }

    /// Drops everything recorded (command buffer reset); the chunks are
    /// kept for the next recording.
    pub fn reset(&mut self) {
        self.close_chunk();
        self.ibs.clear();
        self.spare.append(&mut self.closed);
        self.next_capacity = FIRST_CHUNK_DWORDS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::pm4::Pm4Header;

    fn read_ib(ib: &Ib) -> Vec<u32> {
        let mut bytes = vec![0u8; ib.dwords as usize * 4];
        ib.bo.read(ib.offset, &mut bytes).unwrap();
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn chunks_grow_and_no_packet_straddles_two() {
        let device = crate::device::tests::null_device("a660");
        let mut cs = CommandStream::new(&device);
        // 700 four-dword packets: 2800 dwords over chunks of 1024, 2048.
        for i in 0..700u32 {
            cs.packet(Opcode::CP_NOP, &[i, i, i]).unwrap();
        }
        let ibs = cs.finish().unwrap();
        assert_eq!(ibs.len(), 2);
        assert_eq!(ibs[0].dwords, 1024);
        assert_eq!(ibs[0].bo.size(), 4096);
        assert_eq!(ibs[1].bo.size(), 8192);
        let mut seen = 0u32;
        for ib in &ibs {
            let words = read_ib(ib);
            let mut at = 0;
            while at < words.len() {
                let header = Pm4Header::parse(words[at]).unwrap();
                assert_eq!(header.payload_dwords(), 3);
                assert_eq!(words[at + 1], seen);
                seen += 1;
                at += 4;
            }
            assert_eq!(at, words.len(), "the IB ends on a packet boundary");
        }
        assert_eq!(seen, 700);
    }

    #[test]
    fn a_packet_larger_than_a_chunk_gets_a_chunk_of_its_own() {
        let device = crate::device::tests::null_device("a740");
        let mut cs = CommandStream::new(&device);
        cs.packet(Opcode::CP_NOP, &[]).unwrap();
        cs.packet(Opcode::CP_NOP, &vec![7; 5000]).unwrap();
        let ibs = cs.finish().unwrap();
        assert_eq!(
            ibs.iter().map(|ib| ib.dwords).collect::<Vec<_>>(),
            vec![1, 5001]
        );
        cs.reset();
        assert!(cs.finish().unwrap().is_empty());
    }
}
