//! Packets that move values between registers, the CP's scratch RAM and
//! memory, as adreno_pm4.xml describes them: CP_MEM_WRITE, CP_REG_TO_MEM,
//! CP_MEM_TO_REG, CP_MEM_TO_MEM, CP_MEMCPY, CP_REG_RMW, CP_SCRATCH_WRITE,
//! CP_REG_TO_SCRATCH, CP_SCRATCH_TO_REG, CP_CONTEXT_REG_BUNCH and
//! CP_REG_WRITE.

use parsnip_registers::packets::{
    self, CpMemToMemDw0, CpMemToRegDw0, CpMemcpyDw0, CpRegToMemDw0, CpScratchToRegDw0,
    CpScratchWriteDw0,
};
use parsnip_registers::Chip;

use super::CommandProcessor;
use crate::report::{GpuError, StreamProblem};

fn address(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | u64::from(hi) << 32
}

impl CommandProcessor<'_> {
    /// CP_MEM_WRITE: the dwords after the address, written from it on.
    pub(super) fn mem_write(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let bytes: Vec<u8> = payload[2..].iter().flat_map(|d| d.to_le_bytes()).collect();
        self.gpu
            .memory
            .write(address(payload[0], payload[1]), &bytes)
            .map_err(|f| self.fault(f))
    }

    /// CP_REG_TO_MEM: max(CNT, 1) registers from REG to DEST. With 64B the
    /// registers are read as 64-bit pairs (Turnip reads CP_ALWAYS_ON_COUNTER
    /// so, with CNT 2); with ACCUMULATE each value is added to what DEST
    /// holds, per 64-bit pair with 64B and per dword otherwise.
    pub(super) fn reg_to_mem(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let dw = CpRegToMemDw0::from_raw(payload[0]);
        let dest = address(payload[1], payload[2]);
        let count = dw.cnt.max(1);
        if dw.field_64b {
            for pair in 0..count.div_ceil(2) {
                let reg = dw.reg + pair * 2;
                // Sample the pair once, so a counter's halves agree.
                let value = self.read_register_64(reg);
                let at = dest + u64::from(pair) * 8;
                let value = if dw.accumulate {
                    value.wrapping_add(self.read_u64(at)?)
                } else {
                    value
                };
                if pair * 2 + 1 < count {
                    self.write_u64(at, value)?;
                } else {
                    self.write_u32(at, value as u32)?;
                }
            }
        } else {
            for i in 0..count {
                let at = dest + u64::from(i) * 4;
                let value = self.read_register(dw.reg + i);
                let value = if dw.accumulate {
                    value.wrapping_add(self.read_u32(at)?)
                } else {
                    value
                };
                self.write_u32(at, value)?;
            }
        }
        Ok(())
    }

    /// Two consecutive registers read at one moment.
    fn read_register_64(&self, reg: u32) -> u64 {
        let counter = self
            .regs
            .offset_of::<parsnip_registers::regs::CpAlwaysOnCounter>();
        if counter == Ok(reg) {
            return self.gpu.clock.read();
        }
        u64::from(self.read_register(reg)) | u64::from(self.read_register(reg + 1)) << 32
    }

    /// CP_MEM_TO_REG: max(CNT, 1) dwords from SRC into registers from REG,
    /// each shifted left by 2 with SHIFT_BY_2.
    pub(super) fn mem_to_reg(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let dw = CpMemToRegDw0::from_raw(payload[0]);
        let count = dw.cnt.max(1);
        let values = self.read_dwords(address(payload[1], payload[2]), count as usize)?;
        for (i, v) in values.into_iter().enumerate() {
            let v = if dw.shift_by_2 { v << 2 } else { v };
            self.write_register(dw.reg + i as u32, v);
        }
        Ok(())
    }

    /// CP_MEM_TO_MEM: a destination address, then source addresses; writes
    /// the sum of the sources, each negated if its NEG_x bit is set, as 32-
    /// or (DOUBLE) 64-bit values.
    pub(super) fn mem_to_mem(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        let dw = CpMemToMemDw0::from_raw(*payload.first().unwrap_or(&0));
        let addresses = payload.get(1..).unwrap_or_default().chunks_exact(2);
        if addresses.len() < 2 || !addresses.remainder().is_empty() {
            return Err(self.bad_payload(format!(
                "CP_MEM_TO_MEM payload of {} dwords is not flags, a destination and sources",
                payload.len()
            )));
        }
        let mut addrs = addresses.map(|pair| address(pair[0], pair[1]));
        let dest = addrs.next().unwrap_or(0);
        let negate = [dw.neg_a, dw.neg_b, dw.neg_c];
        let mut sum = 0u64;
        for (i, src) in addrs.enumerate() {
            let v = if dw.double {
                self.read_u64(src)?
            } else {
                u64::from(self.read_u32(src)?)
            };
            let v = if negate.get(i).copied().unwrap_or(false) {
                v.wrapping_neg()
            } else {
                v
            };
            sum = sum.wrapping_add(v);
        }
        if dw.double {
            self.write_u64(dest, sum)
        } else {
            self.write_u32(dest, sum as u32)
        }
    }

    /// CP_MEMCPY: DWORDS dwords from SRC to DST.
    pub(super) fn memcpy(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 5)?;
        let dwords = CpMemcpyDw0::from_raw(payload[0]).dwords;
        let mut bytes = vec![0u8; dwords as usize * 4];
        self.gpu
            .memory
            .read(address(payload[1], payload[2]), &mut bytes)
            .map_err(|f| self.fault(f))?;
        self.gpu
            .memory
            .write(address(payload[3], payload[4]), &bytes)
            .map_err(|f| self.fault(f))
    }

    /// CP_REG_RMW: dst = ((dst & src0) rotl ROTATE) + src1 with SRC1_ADD,
    /// | src1 without; each source a register or an immediate.
    pub(super) fn reg_rmw(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let (dst, rotate, add, src1_reg, src0_reg) = match self.chip() {
            Chip::A6xx => {
                let d = packets::a6xx::CpRegRmwDw0::from_raw(payload[0]);
                (
                    d.dst_reg,
                    d.rotate,
                    d.src1_add,
                    d.src1_is_reg,
                    d.src0_is_reg,
                )
            }
            Chip::A7xx => {
                let d = packets::a7xx::CpRegRmwDw0::from_raw(payload[0]);
                if d.dst_scratch {
                    return Err(self.stream_error(StreamProblem::NotModelled {
                        what: "CP_REG_RMW into a scratch register is not modelled".into(),
                    }));
                }
                (
                    d.dst_reg,
                    d.rotate,
                    d.src1_add,
                    d.src1_is_reg,
                    d.src0_is_reg,
                )
            }
        };
        let src = |is_reg: bool, v: u32| if is_reg { self.read_register(v) } else { v };
        let src0 = src(src0_reg, payload[1]);
        let src1 = src(src1_reg, payload[2]);
        let masked = (self.read_register(dst) & src0).rotate_left(rotate);
        let value = if add {
            masked.wrapping_add(src1)
        } else {
            masked | src1
        };
        self.write_register(dst, value);
        Ok(())
    }

    fn scratch_range(&self, first: u32, count: usize) -> Result<std::ops::Range<usize>, GpuError> {
        let first = first as usize;
        if first + count > self.cp.scratch.len() {
            return Err(self.bad_payload(format!(
                "scratch registers {first}..{} are past the {} the CP has",
                first + count,
                self.cp.scratch.len()
            )));
        }
        Ok(first..first + count)
    }

    /// CP_SCRATCH_WRITE: the dwords after the first into scratch registers
    /// from SCRATCH on.
    pub(super) fn scratch_write(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        let first = CpScratchWriteDw0::from_raw(payload[0]).scratch;
        let range = self.scratch_range(first, payload.len() - 1)?;
        self.cp.scratch[range].copy_from_slice(&payload[1..]);
        Ok(())
    }

    /// CP_REG_TO_SCRATCH: CNT + 1 registers from REG into scratch registers.
    pub(super) fn reg_to_scratch(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        let (reg, first, cnt) = match self.chip() {
            Chip::A6xx => {
                let d = packets::a6xx::CpRegToScratchDw0::from_raw(payload[0]);
                (d.reg, d.scratch, d.cnt)
            }
            Chip::A7xx => {
                let d = packets::a7xx::CpRegToScratchDw0::from_raw(payload[0]);
                (d.reg, d.scratch, d.cnt)
            }
        };
        let range = self.scratch_range(first, cnt as usize + 1)?;
        for (i, slot) in range.enumerate() {
            self.cp.scratch[slot] = self.read_register(reg + i as u32);
        }
        Ok(())
    }

    /// CP_SCRATCH_TO_REG: CNT + 1 scratch registers into registers from REG.
    pub(super) fn scratch_to_reg(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        let d = CpScratchToRegDw0::from_raw(payload[0]);
        let range = self.scratch_range(d.scratch, d.cnt as usize + 1)?;
        for (i, slot) in range.enumerate() {
            let v = self.cp.scratch[slot];
            self.write_register(d.reg + i as u32, v);
        }
        Ok(())
    }

    /// CP_CONTEXT_REG_BUNCH: (register, value) pairs.
    pub(super) fn context_reg_bunch(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        let pairs = payload.chunks_exact(2);
        if !pairs.remainder().is_empty() {
            return Err(self.bad_payload(format!(
                "CP_CONTEXT_REG_BUNCH payload of {} dwords is not (register, value) pairs",
                payload.len()
            )));
        }
        for pair in pairs {
            self.write_register(pair[0], pair[1]);
        }
        Ok(())
    }

    /// CP_REG_WRITE (a6xx): a tracker, a register and its value. The
    /// trackers make the firmware skip redundant writes or add waits and
    /// LRZ flushes around them, none of which changes the value written.
    pub(super) fn reg_write(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        self.write_register(payload[1], payload[2]);
        Ok(())
    }
}
