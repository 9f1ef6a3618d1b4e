//! A command buffer's command stream: packets written into BO-backed chunks.
//!
//! A chunk is one IB1 of the submit (as Turnip's `tu_cs` entries are). When
//! the current chunk cannot hold the next packet, it is closed and a new one
//! twice its size (up to 1 MiB) is opened, so a long command buffer costs a
//! handful of BOs. A secondary command buffer's chunks join the primary's
//! list of IBs as they are. Pipelines' state is called from the stream as an
//! IB2 (CP_INDIRECT_BUFFER).

use std::sync::Arc;

use parsnip_registers::pm4::Opcode;
use parsnip_registers::{ArrayRegister, Chip, RegWrite, Register};

use super::packets::PacketWriter;
use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;

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
    bo: Arc<DeviceBo>,
    capacity: usize,
    writer: PacketWriter,
}

pub struct CommandStream {
    device: Arc<Device>,
    ibs: Vec<Ib>,
    open: Option<OpenChunk>,
    next_capacity: usize,
}

impl CommandStream {
    pub fn new(device: &Arc<Device>) -> CommandStream {
        CommandStream {
            device: device.clone(),
            ibs: Vec::new(),
            open: None,
            next_capacity: FIRST_CHUNK_DWORDS,
        }
    }

    pub fn chip(&self) -> Chip {
        self.device.gpu.chip()
    }

    /// Makes room for `dwords` more dwords in the open chunk, opening a new
    /// one if needed. Every packet is reserved whole: none straddles chunks.
    pub fn reserve(&mut self, dwords: usize) -> VkResult<&mut PacketWriter> {
        let fits = self
            .open
            .as_ref()
            .is_some_and(|c| c.writer.len() + dwords <= c.capacity);
        if !fits {
            self.close_chunk()?;
            let capacity = self.next_capacity.max(dwords);
            self.next_capacity = (capacity * 2).min(MAX_CHUNK_DWORDS);
            let bo = self
                .device
                .allocate_bo(capacity as u64 * 4, BoKind::Commands)?;
            self.open = Some(OpenChunk {
                bo,
                capacity,
                writer: PacketWriter::new(self.chip()),
            });
        }
        Ok(&mut self.open.as_mut().expect("a chunk was just opened").writer)
    }

    /// Writes the open chunk to its BO and adds it to the IB list.
    fn close_chunk(&mut self) -> VkResult<()> {
        if let Some(chunk) = self.open.take() {
            if !chunk.writer.is_empty() {
                chunk.bo.write_dwords(0, &chunk.writer.dwords)?;
                self.ibs.push(Ib {
                    bo: chunk.bo,
                    offset: 0,
                    dwords: chunk.writer.len() as u32,
                });
            }
        }
        Ok(())
    }

    /// Appends packets built elsewhere (they are copied whole into one
    /// chunk).
    pub fn append(&mut self, packets: &PacketWriter) -> VkResult<()> {
        self.reserve(packets.len())?
            .dwords
            .extend_from_slice(&packets.dwords);
        Ok(())
    }

    pub fn reg<R: Register>(&mut self, value: &R) -> VkResult<()> {
        let w = value
            .write(self.chip())
            .map_err(|e| crate::error::internal("encoding a register", e))?;
        self.writes(&[w])
    }

    pub fn array_reg<R: ArrayRegister>(&mut self, value: &R, index: u32) -> VkResult<()> {
        let w = value
            .write(self.chip(), index)
            .map_err(|e| crate::error::internal("encoding a register", e))?;
        self.writes(&[w])
    }

    pub fn writes(&mut self, writes: &[RegWrite]) -> VkResult<()> {
        let mut p = PacketWriter::new(self.chip());
        p.writes(writes);
        self.append(&p)
    }

    pub fn packet(&mut self, opcode: Opcode, payload: &[u32]) -> VkResult<()> {
        self.reserve(payload.len() + 1)?.packet(opcode, payload);
        Ok(())
    }

    /// Adds IBs recorded elsewhere (a secondary command buffer's) after
    /// what is written so far.
    pub fn add_ibs(&mut self, ibs: &[Ib]) -> VkResult<()> {
        self.close_chunk()?;
        self.ibs.extend_from_slice(ibs);
        Ok(())
    }

    /// Closes the stream: the IBs to submit, in order.
    pub fn finish(&mut self) -> VkResult<Vec<Ib>> {
        self.close_chunk()?;
        Ok(self.ibs.clone())
    }

    /// Drops everything recorded (command buffer reset).
    pub fn reset(&mut self) {
        self.ibs.clear();
        self.open = None;
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
