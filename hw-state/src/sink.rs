//! Where packets are written: a [`PacketSink`] takes dwords, and writes
//! registers and type 7 packets built through the register database.
//! Each sink says how it reports a register that does not encode (a
//! caller's bug): the driver as a Vulkan error, a test as the database's
//! error.

use parsnip_registers::encode::FieldError;
use parsnip_registers::pm4::{pkt4, pkt7, Opcode, Pm4Header, PKT4_MAX_COUNT};
use parsnip_registers::{ArrayRegister, Chip, RegWrite, Register, RegisterError};

pub trait PacketSink {
    /// What a failed encoding becomes.
    type Error;

    /// The chip the packets are for.
    fn chip(&self) -> Chip;
    fn push(&mut self, dword: u32);
    fn push_all(&mut self, dwords: &[u32]);
    /// Reports a register or packet field that does not encode.
    fn encoding_error(error: RegisterError) -> Self::Error;

    /// Writes one register.
    #[inline]
    fn reg<R: Register>(&mut self, value: &R) -> Result<(), Self::Error> {
        let w = value.write(self.chip()).map_err(Self::encoding_error)?;
        self.write(&w);
        Ok(())
    }

    /// Writes entry `index` of a register array.
    #[inline]
    fn array_reg<R: ArrayRegister>(&mut self, value: &R, index: u32) -> Result<(), Self::Error> {
        let w = value
            .write(self.chip(), index)
            .map_err(Self::encoding_error)?;
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

    /// A packet payload dword from its typed form, or the sink's error if
    /// a field does not fit (never a truncated packet).
    #[inline]
    fn field<T>(r: Result<T, FieldError>) -> Result<T, Self::Error> {
        r.map_err(|e| Self::encoding_error(RegisterError::Field(e)))
    }
}

/// The low and high dwords of a 64-bit packet field.
pub fn lo_hi(value: u64) -> [u32; 2] {
    [value as u32, (value >> 32) as u32]
}

/// A growing list of packets for one chip, reporting the database's
/// errors as they are.
#[derive(Clone, Debug)]
pub struct StateWriter {
    pub chip: Chip,
    pub dwords: Vec<u32>,
}

impl StateWriter {
    pub fn new(chip: Chip) -> StateWriter {
        StateWriter {
            chip,
            dwords: Vec::new(),
        }
    }
}

impl StateWriter {
    /// (offset, value) of every register dword the type 4 packets write,
    /// in order: what a stream programs, for checking it.
    pub fn register_writes(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < self.dwords.len() {
            let Ok(header) = Pm4Header::parse(self.dwords[at]) else {
                break;
            };
            if let Pm4Header::Type4 { offset, count } = header {
                for k in 0..count {
                    out.push((offset + k, self.dwords[at + 1 + k as usize]));
                }
            }
            at += 1 + header.payload_dwords() as usize;
        }
        out
    }
}

impl PacketSink for StateWriter {
    type Error = RegisterError;

    fn chip(&self) -> Chip {
        self.chip
    }

    fn push(&mut self, dword: u32) {
        self.dwords.push(dword);
    }

    fn push_all(&mut self, dwords: &[u32]) {
        self.dwords.extend_from_slice(dwords);
    }

    fn encoding_error(error: RegisterError) -> RegisterError {
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::regs;

    #[test]
    fn consecutive_registers_share_one_packet_and_64_bit_ones_take_two_dwords() {
        let mut w = StateWriter::new(Chip::A6xx);
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
        // HLSQ_CS_CNTL moved on a7xx: 0xb987 on a6xx, 0xa9cd on a7xx;
        // SP_CS_INSTRLEN is a9bc on both (Turnip's compute.log for each GPU).
        let mut a6 = StateWriter::new(Chip::A6xx);
        a6.reg(&regs::a6xx::HlsqCsCntl {
            constlen: 4,
            enabled: true,
        })
        .unwrap();
        assert_eq!(a6.dwords, vec![0x40b9_8701, 0x0000_0101]);
        let mut a7 = StateWriter::new(Chip::A7xx);
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
    fn a_register_missing_on_the_chip_is_an_error_not_a_write() {
        // RB_RENDER_CNTL exists on a6xx only (a6xx.xml; a7xx moved it).
        let mut a7 = StateWriter::new(Chip::A7xx);
        let e = a7.reg(&regs::a6xx::RbRenderCntl::default());
        assert!(matches!(e, Err(RegisterError::NotOnChip { .. })), "{e:?}");
        assert!(a7.dwords.is_empty());
    }

    #[test]
    fn a_type_7_packet_has_its_payload_counted() {
        let mut w = StateWriter::new(Chip::A6xx);
        w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
        // The a660 trace's CP_WAIT_FOR_IDLE: 70268000.
        assert_eq!(w.dwords, vec![0x7026_8000]);
    }
}
