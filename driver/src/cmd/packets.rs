//! Building PM4 packets, through the register database.
//!
//! Type 4 packets write registers named by their generated structs (the
//! database resolves each register's offset on the chip); type 7 packets
//! take their payload from the generated packet structs. Nothing here knows
//! an offset or an opcode number.
//!
//! Packets go to a [`PacketSink`]: a [`PacketWriter`] (a growing buffer,
//! for state built once, such as a pipeline's program) or room reserved in
//! a command stream's chunk ([`super::stream::Reserved`]), which recording
//! writes straight into, with no buffer in between.

use parsnip_registers::enums::{CpCondFunction, PollMemoryType};
use parsnip_registers::packets::{CpMemToMemDw0, CpWaitRegMemDw0};
use parsnip_registers::pm4::{pkt4, pkt7, Opcode, PKT4_MAX_COUNT};
use parsnip_registers::{ArrayRegister, Chip, RegWrite, Register, RegisterError};

use crate::error::{internal, VkResult};

/// Where packets are written, dword by dword.
pub trait PacketSink {
    /// The chip the packets are for.
    fn chip(&self) -> Chip;
    fn push(&mut self, dword: u32);
    fn push_all(&mut self, dwords: &[u32]);

    /// Writes one register.
    #[inline]
    fn reg<R: Register>(&mut self, value: &R) -> VkResult<()> {
        let w = value.write(self.chip()).map_err(register_error)?;
        self.write(&w);
        Ok(())
    }

    /// Writes entry `index` of a register array.
    #[inline]
    fn array_reg<R: ArrayRegister>(&mut self, value: &R, index: u32) -> VkResult<()> {
        let w = value.write(self.chip(), index).map_err(register_error)?;
        self.write(&w);
        Ok(())
    }

    /// One register write as its own type 4 packet.
    #[inline]
    fn write(&mut self, w: &RegWrite) {
        self.push(pkt4(w.offset, 1 + u32::from(w.is_64)));
        self.push(w.value as u32);
        if w.is_64 {
            self.push((w.value >> 32) as u32);
        }
    }

    /// Writes registers, one type 4 packet per run of consecutive offsets
    /// (the packet's count is limited to 127 dwords).
    fn writes(&mut self, writes: &[RegWrite]) {
        let size = |w: &RegWrite| 1 + u32::from(w.is_64);
        let mut i = 0;
        while i < writes.len() {
            // The run starting at `i`: consecutive offsets within a packet.
            let (start, mut next, mut count) = (writes[i].offset, writes[i].offset, 0);
            let mut end = i;
            while end < writes.len()
                && writes[end].offset == next
                && count + size(&writes[end]) <= PKT4_MAX_COUNT
            {
                count += size(&writes[end]);
                next += size(&writes[end]);
                end += 1;
            }
            self.push(pkt4(start, count));
            for w in &writes[i..end] {
                self.push(w.value as u32);
                if w.is_64 {
                    self.push((w.value >> 32) as u32);
                }
            }
            i = end;
        }
    }

    /// A type 7 packet.
    #[inline]
    fn packet(&mut self, opcode: Opcode, payload: &[u32]) {
        self.push(pkt7(opcode.0, payload.len() as u32));
        self.push_all(payload);
    }
}

/// A register the database does not place on the chip, or a field that
/// does not fit, is a driver bug.
#[cold]
fn register_error(e: RegisterError) -> ash::vk::Result {
    internal("encoding a register", e)
}

/// A growing list of packets for one chip.
#[derive(Clone, Debug)]
pub struct PacketWriter {
    pub chip: Chip,
    pub dwords: Vec<u32>,
}

impl PacketWriter {
    pub fn new(chip: Chip) -> PacketWriter {
        PacketWriter {
            chip,
            dwords: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.dwords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dwords.is_empty()
    }

    /// The low and high dwords of a 64-bit packet field.
    pub fn split(value: u64) -> [u32; 2] {
        [value as u32, (value >> 32) as u32]
    }
}

impl PacketSink for PacketWriter {
    fn chip(&self) -> Chip {
        self.chip
    }

    fn push(&mut self, dword: u32) {
        self.dwords.push(dword);
    }

    fn push_all(&mut self, dwords: &[u32]) {
        self.dwords.extend_from_slice(dwords);
    }
}

/// CP_WAIT_REG_MEM: the CP stops until the dword at `iova` equals `value`,
/// polling every 16 cycles.
pub fn wait_memory_equal(w: &mut impl PacketSink, iova: u64, value: u32) -> VkResult<()> {
    let dw0 = field(
        "CP_WAIT_REG_MEM",
        CpWaitRegMemDw0 {
            function: CpCondFunction::WRITE_EQ,
            poll: PollMemoryType::POLL_MEMORY,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [lo, hi] = PacketWriter::split(iova);
    // Reference, mask, and the delay between polls.
    w.packet(Opcode::CP_WAIT_REG_MEM, &[dw0, lo, hi, value, u32::MAX, 16]);
    Ok(())
}

/// CP_MEM_TO_MEM: copies the dword (or, with `double`, the qword) at `src`
/// to `dst`, after the CP's earlier memory writes landed.
pub fn copy_memory(w: &mut impl PacketSink, dst: u64, src: u64, double: bool) -> VkResult<()> {
    let dw0 = field(
        "CP_MEM_TO_MEM",
        CpMemToMemDw0 {
            double,
            wait_for_mem_writes: true,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [dlo, dhi] = PacketWriter::split(dst);
    let [slo, shi] = PacketWriter::split(src);
    w.packet(Opcode::CP_MEM_TO_MEM, &[dw0, dlo, dhi, slo, shi]);
    Ok(())
}

/// CP_MEM_TO_MEM: writes the sum of the dwords at `a` and `b` to `dst`
/// (the packet adds its sources, adreno_pm4.xml), after the CP's earlier
/// memory writes landed.
pub fn add_memory(w: &mut impl PacketSink, dst: u64, a: u64, b: u64) -> VkResult<()> {
    let dw0 = field(
        "CP_MEM_TO_MEM",
        CpMemToMemDw0 {
            wait_for_mem_writes: true,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    let [dlo, dhi] = PacketWriter::split(dst);
    let [alo, ahi] = PacketWriter::split(a);
    let [blo, bhi] = PacketWriter::split(b);
    w.packet(Opcode::CP_MEM_TO_MEM, &[dw0, dlo, dhi, alo, ahi, blo, bhi]);
    Ok(())
}

/// A packet payload field value that does not fit is a driver bug: report
/// it rather than emit a truncated packet.
pub fn field<T, E: std::fmt::Display>(what: &str, r: Result<T, E>) -> VkResult<T> {
    r.map_err(|e| internal(what, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::pm4::Pm4Header;
    use parsnip_registers::regs;

    #[test]
    fn consecutive_registers_share_one_packet_and_64_bit_ones_take_two_dwords() {
        let mut w = PacketWriter::new(Chip::A6xx);
        w.writes(&[
            RegWrite {
                offset: 0x100,
                value: 1,
                is_64: false,
            },
            RegWrite {
                offset: 0x101,
                value: 0x2_0000_0003,
                is_64: true,
            },
            RegWrite {
                offset: 0x200,
                value: 4,
                is_64: false,
            },
        ]);
        assert_eq!(
            Pm4Header::parse(w.dwords[0]),
            Ok(Pm4Header::Type4 {
                offset: 0x100,
                count: 3
            })
        );
        assert_eq!(&w.dwords[1..4], &[1, 3, 2]);
        assert_eq!(
            Pm4Header::parse(w.dwords[4]),
            Ok(Pm4Header::Type4 {
                offset: 0x200,
                count: 1
            })
        );
    }

    #[test]
    fn a_register_is_written_at_its_offset_on_each_chip() {
        // HLSQ_CS_CNTL moved on a7xx: 0xb987 on a6xx, 0xa9cd on a7xx
        // (Turnip's compute.log for each GPU).
        // The same layout on both generations (SP_CS_INSTRLEN, a9bc on both
        // in the captures) and a moved one (HLSQ_CS_CNTL).
        let mut a6 = PacketWriter::new(Chip::A6xx);
        a6.reg(&regs::a6xx::HlsqCsCntl {
            constlen: 4,
            enabled: true,
        })
        .unwrap();
        assert_eq!(a6.dwords, vec![0x40b9_8701, 0x0000_0101]);
        let mut a7 = PacketWriter::new(Chip::A7xx);
        a7.reg(&regs::a7xx::HlsqCsCntl {
            constlen: 4,
            enabled: true,
            ..Default::default()
        })
        .unwrap();
        a7.reg(&regs::SpCsInstrlen(1)).unwrap();
        assert_eq!(a7.dwords, vec![0x40a9_cd01, 0x0000_0101, 0x40a9_bc01, 1]);
    }

    #[test]
    fn a_type_7_packet_has_its_payload_counted() {
        let mut w = PacketWriter::new(Chip::A6xx);
        w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
        // The a660 trace's CP_WAIT_FOR_IDLE: 70268000.
        assert_eq!(w.dwords, vec![0x7026_8000]);
    }
}
