//! Packets that compare a register or memory value with a reference:
//! CP_WAIT_REG_MEM and CP_WAIT_MEM_GTE wait until the comparison holds,
//! CP_COND_WRITE5 writes if it holds (adreno_pm4.xml: CP_WAIT_REG_MEM "uses
//! the same internal comparison as CP_COND_WRITE, but waits until the
//! comparison is true instead").
//!
//! The comparison is `(value & MASK) FUNCTION REF`, unsigned unless
//! SIGNED_COMPARE. A wait polls: memory may be written by the CPU through a
//! mapping while the GPU waits (that is how a driver releases a GPU wait),
//! so the model re-reads it with short sleeps. A wait whose condition is
//! still false when the wait budget runs out ends the submit with a hang
//! report naming the packet and the condition.

use std::time::{Duration, Instant};

use parsnip_registers::enums::{CpCondFunction as Func, PollMemoryType as Poll};
use parsnip_registers::packets::{CpCondWrite5Dw0, CpWaitRegMemDw0};

use super::CommandProcessor;
use crate::report::{ErrorKind, GpuError, HangCause, StreamProblem};

/// Where a compared value comes from.
#[derive(Clone, Copy, Debug)]
enum Source {
    Register(u32),
    Memory(u64),
    Scratch(u32),
}

/// `(value & mask) function reference`.
#[derive(Clone, Copy, Debug)]
struct Comparison {
    source: Source,
    function: Func,
    signed: bool,
    reference: u32,
    mask: u32,
}

impl Comparison {
    fn holds(&self, value: u32) -> bool {
        let v = value & self.mask;
        let ordering = if self.signed {
            (v as i32).cmp(&(self.reference as i32))
        } else {
            v.cmp(&self.reference)
        };
        use std::cmp::Ordering::*;
        match self.function {
            Func::WRITE_ALWAYS => true,
            Func::WRITE_LT => ordering == Less,
            Func::WRITE_LE => ordering != Greater,
            Func::WRITE_EQ => ordering == Equal,
            Func::WRITE_NE => ordering != Equal,
            Func::WRITE_GE => ordering != Less,
            Func::WRITE_GT => ordering == Greater,
            _ => false,
        }
    }

    fn describe(&self, regs_name: impl Fn(u32) -> String) -> String {
        let what = match self.source {
            Source::Register(r) => regs_name(r),
            Source::Memory(a) => format!("mem[{a:#x}]"),
            Source::Scratch(s) => format!("scratch[{s}]"),
        };
        let op = match self.function {
            Func::WRITE_ALWAYS => "always",
            Func::WRITE_LT => "<",
            Func::WRITE_LE => "<=",
            Func::WRITE_EQ => "==",
            Func::WRITE_NE => "!=",
            Func::WRITE_GE => ">=",
            Func::WRITE_GT => ">",
            _ => "?",
        };
        let signed = if self.signed { " (signed)" } else { "" };
        format!(
            "({what} & {:#x}) {op} {:#x}{signed}",
            self.mask, self.reference
        )
    }
}

impl CommandProcessor<'_> {
    /// The comparison of CP_WAIT_REG_MEM and CP_COND_WRITE5, which share
    /// their first five dwords: flags, POLL_ADDR_LO/HI, REF, MASK.
    fn comparison(
        &self,
        function: Func,
        signed: bool,
        poll: Poll,
        payload: &[u32],
    ) -> Result<Comparison, GpuError> {
        Ok(Comparison {
            source: self.comparison_source(poll, payload[1], payload[2])?,
            function,
            signed,
            reference: payload[3],
            mask: payload[4],
        })
    }

    fn comparison_source(&self, poll: Poll, lo: u32, hi: u32) -> Result<Source, GpuError> {
        Ok(match poll {
            Poll::POLL_REGISTER => Source::Register(lo),
            Poll::POLL_MEMORY => Source::Memory(u64::from(lo) | u64::from(hi) << 32),
            Poll::POLL_SCRATCH => {
                if lo as usize >= self.cp.scratch.len() {
                    return Err(self.bad_payload(format!("scratch register {lo} does not exist")));
                }
                Source::Scratch(lo)
            }
            _ => {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: "polling on-chip memory is not modelled".into(),
                }))
            }
        })
    }

    fn sample(&self, source: Source) -> Result<u32, GpuError> {
        match source {
            Source::Register(r) => Ok(self.read_register(r)),
            Source::Memory(a) => self.read_u32(a),
            Source::Scratch(s) => Ok(self.cp.scratch[s as usize]),
        }
    }

    /// Polls until `c` holds, or reports a hang when the budget runs out.
    fn wait_until(&self, c: Comparison) -> Result<(), GpuError> {
        let budget = self.gpu.options.wait_budget;
        let start = Instant::now();
        let mut polls = 0u32;
        loop {
            let value = self.sample(c.source)?;
            if c.holds(value) {
                return Ok(());
            }
            let waited = start.elapsed();
            if waited >= budget {
                return Err(self.error(ErrorKind::Hang(HangCause::Wait {
                    condition: c.describe(|r| self.regs.name_of(r)),
                    last_value: u64::from(value),
                    waited,
                })));
            }
            // Spin briefly (a CPU writer is usually about to arrive), then
            // sleep in growing steps so a long wait costs little CPU.
            polls += 1;
            if polls < 64 {
                std::thread::yield_now();
            } else {
                let step = Duration::from_micros(50 * u64::from(polls.min(1000) / 64));
                std::thread::sleep(step.min(budget.saturating_sub(waited)));
            }
        }
    }

    pub(super) fn wait_reg_mem(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 5)?;
        let dw = CpWaitRegMemDw0::from_raw(payload[0]);
        // WRITE_MEMORY is CP_COND_WRITE's field in the shared layout; a wait
        // writes nothing.
        let c = self.comparison(dw.function, dw.signed_compare, dw.poll, payload)?;
        self.wait_until(c)
    }

    /// CP_WAIT_MEM_GTE (a6xx): "Wait until a memory value is greater than or
    /// equal to the reference, using signed comparison."
    pub(super) fn wait_mem_gte(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 4)?;
        self.wait_until(Comparison {
            source: Source::Memory(u64::from(payload[1]) | u64::from(payload[2]) << 32),
            function: Func::WRITE_GE,
            signed: true,
            reference: payload[3],
            mask: u32::MAX,
        })
    }

    /// CP_COND_WRITE5: if the comparison holds, write WRITE_DATA to memory
    /// (WRITE_MEMORY) or to the register WRITE_ADDR_LO names.
    pub(super) fn cond_write5(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 8)?;
        let dw = CpCondWrite5Dw0::from_raw(payload[0]);
        let c = self.comparison(dw.function, dw.signed_compare, dw.poll, payload)?;
        if !c.holds(self.sample(c.source)?) {
            return Ok(());
        }
        if dw.write_memory {
            self.write_u32(
                u64::from(payload[5]) | u64::from(payload[6]) << 32,
                payload[7],
            )
        } else {
            self.write_register(payload[5], payload[7]);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(function: Func, signed: bool, reference: u32) -> Comparison {
        Comparison {
            source: Source::Memory(0),
            function,
            signed,
            reference,
            mask: 0xffff,
        }
    }

    #[test]
    fn comparisons_mask_the_value_and_honour_signedness() {
        assert!(cmp(Func::WRITE_EQ, false, 5).holds(0xabcd_0005));
        assert!(!cmp(Func::WRITE_EQ, false, 5).holds(6));
        assert!(cmp(Func::WRITE_GE, false, 5).holds(5));
        // 0xffff_fffe masked to 0xfffe: unsigned it is large, signed (as a
        // masked 32-bit value) it is still positive.
        assert!(cmp(Func::WRITE_GT, false, 5).holds(0xffff_fffe));
        let neg = Comparison {
            mask: u32::MAX,
            ..cmp(Func::WRITE_LT, true, 0)
        };
        assert!(neg.holds(0xffff_ffff));
        assert!(!Comparison {
            signed: false,
            ..neg
        }
        .holds(0xffff_ffff));
        assert!(cmp(Func::WRITE_ALWAYS, false, 9).holds(0));
    }
}
