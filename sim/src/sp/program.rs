//! The shader program of one dispatch: instructions fetched from memory at
//! SP_CS_OBJ_START and decoded once, on first execution.
//!
//! The hardware preloads SP_CS_INSTRLEN units of the program but fetches
//! the rest from memory as execution reaches it (Turnip's a740 compute
//! shader runs past its INSTRLEN; see [`ComputeDispatch::program_len`]), so
//! the model fetches each instruction when a wave first reaches it: an
//! instruction word in unmapped memory faults only if it is executed.
//!
//! Words are decoded permissively, as hardware executes them: bits the ISA
//! marks don't-care may be set (the blob's compiler sets some). A word that
//! is no instruction of the generation is an illegal-instruction error.
//!
//! [`ComputeDispatch::program_len`]: crate::compute_dispatch::ComputeDispatch::program_len

use parsnip_isa::eval::AluOp;
use parsnip_isa::{decode_permissive, Instr, IsaGen};

use super::trap::{error, Trap};
use crate::memory::AddressSpace;

/// Instructions are 64 bits.
const INSTR_BYTES: u64 = 8;

/// The longest program the model fetches, in instructions: SP_xS_INSTRLEN
/// is 28 bits of 16-instruction units, far beyond any real program, so a
/// runaway PC is reported rather than followed through memory.
const MAX_INSTRUCTIONS: u32 = 1 << 20;

/// One instruction, decoded with what executing it needs.
pub(crate) struct Decoded {
    pub instr: Instr,
    /// For `mov`/`cov` and cat2..cat4: the operation to evaluate
    /// (precomputed once, not per fiber).
    pub alu: Option<AluOp>,
}

/// The program of a dispatch, decoded as it runs.
pub(crate) struct Program {
    iova: u64,
    generation: IsaGen,
    instrs: Vec<Option<Decoded>>,
    /// How many instructions were fetched from memory.
    pub fetched: u32,
}

impl Program {
    pub fn new(iova: u64, a7xx: bool) -> Program {
        Program {
            iova,
            generation: if a7xx { IsaGen::A7xx } else { IsaGen::A6xx },
            instrs: Vec::new(),
            fetched: 0,
        }
    }

    /// The instruction at `pc`, fetched and decoded if this is the first
    /// time any wave reaches it.
    pub fn get(&mut self, pc: u32, memory: &AddressSpace) -> Result<&Decoded, Trap> {
        let i = pc as usize;
        if self.instrs.get(i).is_some_and(Option::is_some) {
            return Ok(self.instrs[i].as_ref().expect("checked above"));
        }
        if pc >= MAX_INSTRUCTIONS {
            return error(format!(
                "the program counter reached instruction {pc}, past the longest program the \
                 hardware can hold"
            ));
        }
        let word = memory.read_u64(self.iova + u64::from(pc) * INSTR_BYTES)?;
        let instr = match decode_permissive(word, self.generation) {
            Ok((instr, _ignored)) => instr,
            Err(e) => {
                return error(format!(
                    "illegal instruction {word:#018x} at instruction {pc} (iova {:#x}): {e}",
                    self.iova + u64::from(pc) * INSTR_BYTES
                ))
            }
        };
        let alu = AluOp::from_instr(&instr);
        if self.instrs.len() <= i {
            self.instrs.resize_with(i + 1, || None);
        }
        self.fetched += 1;
        self.instrs[i] = Some(Decoded { instr, alu });
        Ok(self.instrs[i].as_ref().expect("just stored"))
    }

    /// The text of the instruction at `pc` for a report, or its raw word
    /// when it was never decoded.
    pub fn describe(&self, pc: u32, memory: &AddressSpace) -> String {
        match self.instrs.get(pc as usize).and_then(Option::as_ref) {
            Some(d) => d.instr.to_string(),
            None => match memory.read_u64(self.iova + u64::from(pc) * INSTR_BYTES) {
                Ok(word) => format!("raw {word:#018x}"),
                Err(_) => "(unmapped)".to_string(),
            },
        }
    }
}
