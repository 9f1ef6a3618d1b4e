//! Checked access to SPIR-V instruction operands: a malformed module gets an error naming
//! the instruction, never a panic.

use crate::error::{CompileError, Result};
use rspirv::dr;

/// "OpIAdd (result %12)" for error messages.
pub fn describe(inst: &dr::Instruction) -> String {
    match inst.result_id {
        Some(id) => format!("Op{} (result %{id})", inst.class.opname),
        None => format!("Op{}", inst.class.opname),
    }
}

fn missing(inst: &dr::Instruction, i: usize, what: &str) -> CompileError {
    CompileError::new(format!("{}: operand {i} is not {what}", describe(inst)))
}

/// Operand `i` as an id.
pub fn id_at(inst: &dr::Instruction, i: usize) -> Result<u32> {
    match inst.operands.get(i) {
        Some(dr::Operand::IdRef(id))
        | Some(dr::Operand::IdScope(id))
        | Some(dr::Operand::IdMemorySemantics(id)) => Ok(*id),
        _ => Err(missing(inst, i, "an id")),
    }
}

/// Operand `i` as a 32-bit literal.
pub fn lit_at(inst: &dr::Instruction, i: usize) -> Result<u32> {
    match inst.operands.get(i) {
        Some(dr::Operand::LiteralBit32(v)) | Some(dr::Operand::LiteralExtInstInteger(v)) => Ok(*v),
        _ => Err(missing(inst, i, "a literal")),
    }
}

/// The result type and result id of an instruction that must have both.
pub fn result_of(inst: &dr::Instruction) -> Result<(u32, u32)> {
    match (inst.result_type, inst.result_id) {
        (Some(t), Some(r)) => Ok((t, r)),
        _ => Err(CompileError::new(format!(
            "{}: missing result type or id",
            describe(inst)
        ))),
    }
}
