//! cat4: the special function unit.
//!
//! The hardware computes approximations whose error bounds are not public;
//! we return the correctly rounded IEEE values (computed in f64 and rounded
//! to nearest even at the destination's precision). `(sat)` is refused: Mesa's
//! `is_sat_compatible` notes that "on a6xx saturation doesn't work on cat4".
//! `hrsq`/`hlog2`/`hexp2` are the half-precision opcodes of `rsq`/`log2`/`exp2`
//! (the XML notes they are 8 + the full opcode).

use super::alu::{float, float_bits};
use super::{unknown, AluOp, EvalError};
use crate::opcode::Opcode;

pub(super) fn eval(op: &AluOp, v: u32) -> Result<u32, EvalError> {
    if op.sat {
        return unknown(op.opcode, "(sat) on an SFU opcode");
    }
    let x = float(v, op.half);
    let r = match op.opcode {
        Opcode::Rcp => 1.0 / x,
        Opcode::Rsq | Opcode::Hrsq => 1.0 / x.sqrt(),
        Opcode::Log2 | Opcode::Hlog2 => x.log2(),
        Opcode::Exp2 | Opcode::Hexp2 => x.exp2(),
        Opcode::Sin => x.sin(),
        Opcode::Cos => x.cos(),
        Opcode::Sqrt => x.sqrt(),
        other => return Err(EvalError::NotAlu(other)),
    };
    Ok(float_bits(r, op.dst_half))
}
