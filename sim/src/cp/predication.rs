//! Conditional execution: CP_REG_TEST sets predicate bits, CP_COND_REG_EXEC
//! and CP_COND_EXEC run or skip the dwords that follow them, and
//! CP_SKIP_IB2_ENABLE_* arm IB2 skipping (adreno_pm4.xml documents each).
//!
//! The model runs one CP thread, BR (see CP_THREAD_CONTROL in `cp`), so a
//! THREAD_MODE test passes when it names BR.
//!
//! IB2 skipping: "If both GLOBAL and LOCAL are 1 and nothing is left in the
//! visibility stream, then CP_INDIRECT_BUFFER will be skipped, and draws
//! will early return from their IB" (adreno_pm4.xml). Nothing is left when
//! a bin is being rendered against a visibility stream (CP_SET_BIN_DATA5,
//! no CP_SET_VISIBILITY_OVERRIDE) and none of the draws of the last binning
//! pass from the next one on is visible in the bin. Turnip arms it around
//! each bin's draw IB (tu6_render_tile), so a bin that sees no more draws
//! stops running them.

use parsnip_registers::enums::{CompareMode, SourceType};
use parsnip_registers::packets::{
    self, CpCondRegExecDw1PredTest, CpCondRegExecDw1RegCompareImm, CpCondRegExecDw2, CpRegTestDw0,
};
use parsnip_registers::Chip;

use super::draw_state::{mode_bit, mode_bits};
use super::{CommandProcessor, Flow};
use crate::report::{GpuError, StreamProblem};

/// The fields of CP_COND_REG_EXEC's first dword the model uses (the a6xx
/// and a7xx layouts differ only in the a7xx-only bits).
struct CondRegExec {
    reg0: u32,
    pred_bit: u32,
    onchip_mem: bool,
    modes: u8,
    br: bool,
    mode: CompareMode,
}

impl CommandProcessor<'_> {
    /// CP_REG_TEST: predicate bit PRED_BIT = bit BIT of register REG; or,
    /// with PRED_UPDATE, predicates = (predicates & !MASK) | (VAL & MASK).
    pub(super) fn reg_test(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        let dw = CpRegTestDw0::from_raw(payload[0]);
        if dw.pred_update {
            self.need(payload, 3)?;
            let (mask, value) = (payload[1], payload[2]);
            self.cp.predicates = (self.cp.predicates & !mask) | (value & mask);
            return Ok(());
        }
        if dw.source == SourceType::SOURCE_SCRATCH_MEM {
            return Err(self.stream_error(StreamProblem::NotModelled {
                what: "CP_REG_TEST of scratch memory is not modelled".into(),
            }));
        }
        let bit = self.read_register(dw.reg) >> dw.bit & 1;
        self.cp.predicates = (self.cp.predicates & !(1 << dw.pred_bit)) | bit << dw.pred_bit;
        Ok(())
    }

    fn cond_reg_exec_dw0(&self, raw: u32) -> CondRegExec {
        match self.chip() {
            Chip::A6xx => {
                let d = packets::a6xx::CpCondRegExecDw0::from_raw(raw);
                CondRegExec {
                    reg0: d.reg0,
                    pred_bit: d.pred_bit,
                    onchip_mem: false,
                    modes: mode_bits(d.binning, d.gmem, d.sysmem),
                    br: d.br,
                    mode: d.mode,
                }
            }
            Chip::A7xx => {
                let d = packets::a7xx::CpCondRegExecDw0::from_raw(raw);
                CondRegExec {
                    reg0: d.reg0,
                    pred_bit: d.pred_bit,
                    onchip_mem: d.onchip_mem,
                    modes: mode_bits(d.binning, d.gmem, d.sysmem),
                    br: d.br,
                    mode: d.mode,
                }
            }
        }
    }

    /// CP_COND_REG_EXEC: run the next DWORDS dwords if the test passes, else
    /// skip them. The register comparisons carry DWORDS in the third dword,
    /// the other tests in the second.
    pub(super) fn cond_reg_exec(&mut self, payload: &[u32]) -> Result<Flow, GpuError> {
        self.need(payload, 2)?;
        let d = self.cond_reg_exec_dw0(payload[0]);
        if d.onchip_mem {
            return Err(self.stream_error(StreamProblem::NotModelled {
                what: "CP_COND_REG_EXEC on on-chip memory is not modelled".into(),
            }));
        }
        // Tests whose DWORDS is the second dword.
        let second = |pass: bool| (pass, CpCondRegExecDw1PredTest::from_raw(payload[1]).dwords);
        let (pass, dwords) = match d.mode {
            CompareMode::PRED_TEST => second(self.cp.predicates >> d.pred_bit & 1 != 0),
            CompareMode::RENDER_MODE => second(d.modes & mode_bit(self.cp.marker) != 0),
            CompareMode::THREAD_MODE if self.chip() == Chip::A7xx => second(d.br),
            CompareMode::REG_COMPARE => {
                self.need(payload, 3)?;
                let reg1 = match self.chip() {
                    Chip::A6xx => {
                        packets::a6xx::CpCondRegExecDw1RegCompare::from_raw(payload[1]).reg1
                    }
                    Chip::A7xx => {
                        let d = packets::a7xx::CpCondRegExecDw1RegCompare::from_raw(payload[1]);
                        if d.onchip_mem {
                            return Err(self.stream_error(StreamProblem::NotModelled {
                                what: "CP_COND_REG_EXEC on on-chip memory is not modelled".into(),
                            }));
                        }
                        d.reg1
                    }
                };
                (
                    self.read_register(d.reg0) == self.read_register(reg1),
                    CpCondRegExecDw2::from_raw(payload[2]).dwords,
                )
            }
            CompareMode::REG_COMPARE_IMM if self.chip() == Chip::A7xx => {
                self.need(payload, 3)?;
                (
                    self.read_register(d.reg0)
                        == CpCondRegExecDw1RegCompareImm::from_raw(payload[1]).imm,
                    CpCondRegExecDw2::from_raw(payload[2]).dwords,
                )
            }
            other => {
                return Err(self.bad_payload(format!(
                    "CP_COND_REG_EXEC mode {} does not exist on {}",
                    other.0,
                    self.chip()
                )))
            }
        };
        Ok(if pass { Flow::Next } else { Flow::Skip(dwords) })
    }

    /// CP_COND_EXEC: run the next DWORDS dwords if the dword at ADDR0 is not
    /// 0 and the dword at ADDR1 is less than REF (signed), else skip them.
    pub(super) fn cond_exec(&mut self, payload: &[u32]) -> Result<Flow, GpuError> {
        self.need(payload, 6)?;
        let addr0 = u64::from(payload[0]) | u64::from(payload[1]) << 32;
        let addr1 = u64::from(payload[2]) | u64::from(payload[3]) << 32;
        let pass = self.read_u32(addr0)? != 0 && (self.read_u32(addr1)? as i32) < payload[4] as i32;
        Ok(if pass {
            Flow::Next
        } else {
            Flow::Skip(payload[5])
        })
    }

    /// Whether IB2 skipping is armed and the bin sees no more draws.
    pub(super) fn skips_ib2(&self) -> Result<bool, GpuError> {
        if self.cp.skip_ib2 != [true, true] || self.cp.visibility_override {
            return Ok(false);
        }
        self.nothing_left_visible()
    }

    /// After a draw: an IB2 returns early when IB2 skipping is armed and
    /// nothing is left visible.
    pub(super) fn after_draw(&self) -> Result<Flow, GpuError> {
        let in_ib2 = self.frames.last().map(|f| f.level) == Some(crate::report::IbLevel::Ib2);
        Ok(if in_ib2 && self.skips_ib2()? {
            Flow::Return
        } else {
            Flow::Next
        })
    }

    /// CP_SKIP_IB2_ENABLE_GLOBAL (which = 0) / _LOCAL (which = 1).
    pub(super) fn skip_ib2(&mut self, which: usize, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        self.cp.skip_ib2[which] = payload[0] & 1 != 0;
        Ok(())
    }
}
