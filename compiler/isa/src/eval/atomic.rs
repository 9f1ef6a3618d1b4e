//! What the atomic opcodes (`atomic.*`, `atomic.g.*`, `atomic.b.*`) leave in
//! memory, given the value they read there.
//!
//! Every form reads the old value, stores the new one and returns the old
//! one to its destination (Mesa's `ir3_a6xx.c`: "read a value from memory,
//! compute a new value using one of the operations below, write the new
//! value to memory, and return the original value read"). Rules:
//! - `add`, `sub` (old - operand) wrap; `and`, `or`, `xor` are bitwise;
//!   `xchg` stores the operand;
//! - `min`/`max` compare as signed integers when the instruction's type is
//!   signed (Mesa emits `s32` for NIR's `imin`/`imax`, `u32` for
//!   `umin`/`umax`);
//! - `cmpxchg` stores the operand when the old value equals the comparand;
//! - `inc`/`dec` add or subtract one, wrapping, as OpenCL's `atomic_inc`
//!   and `atomic_dec` do (from the names: Mesa never emits them and no
//!   public document says more).

use crate::opcode::Opcode;

/// The operation of an atomic opcode, whichever memory it works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Inc,
    Dec,
    CmpXchg,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl AtomicOp {
    /// The operation of `op`, or `None` if it is not an atomic.
    pub fn of(op: Opcode) -> Option<AtomicOp> {
        use Opcode::*;
        Some(match op {
            AtomicAdd | AtomicGAdd | AtomicBAdd => AtomicOp::Add,
            AtomicSub | AtomicGSub | AtomicBSub => AtomicOp::Sub,
            AtomicXchg | AtomicGXchg | AtomicBXchg => AtomicOp::Xchg,
            AtomicInc | AtomicGInc => AtomicOp::Inc,
            AtomicDec | AtomicGDec => AtomicOp::Dec,
            AtomicCmpxchg | AtomicGCmpxchg | AtomicBCmpxchg => AtomicOp::CmpXchg,
            AtomicMin | AtomicGMin | AtomicBMin => AtomicOp::Min,
            AtomicMax | AtomicGMax | AtomicBMax => AtomicOp::Max,
            AtomicAnd | AtomicGAnd | AtomicBAnd => AtomicOp::And,
            AtomicOr | AtomicGOr | AtomicBOr => AtomicOp::Or,
            AtomicXor | AtomicGXor | AtomicBXor => AtomicOp::Xor,
            _ => return None,
        })
    }
}

/// The value `op` stores over `old`, on `width`-bit (32 or 64) values,
/// `signed` for the signed types. `operand` is the instruction's value and
/// `compare` the comparand of `cmpxchg`. Only the low `width` bits of the
/// inputs are used and returned.
pub fn eval_atomic(
    op: AtomicOp,
    signed: bool,
    width: u32,
    old: u64,
    operand: u64,
    compare: u64,
) -> u64 {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let (old, operand, compare) = (old & mask, operand & mask, compare & mask);
    let sext = |v: u64| -> i64 {
        let shift = 64 - width.min(64);
        ((v << shift) as i64) >> shift
    };
    let less = |a: u64, b: u64| if signed { sext(a) < sext(b) } else { a < b };
    let new = match op {
        AtomicOp::Add => old.wrapping_add(operand),
        AtomicOp::Sub => old.wrapping_sub(operand),
        AtomicOp::Xchg => operand,
        AtomicOp::Inc => old.wrapping_add(1),
        AtomicOp::Dec => old.wrapping_sub(1),
        AtomicOp::CmpXchg if old == compare => operand,
        AtomicOp::CmpXchg => old,
        AtomicOp::Min if less(operand, old) => operand,
        AtomicOp::Max if less(old, operand) => operand,
        AtomicOp::Min | AtomicOp::Max => old,
        AtomicOp::And => old & operand,
        AtomicOp::Or => old | operand,
        AtomicOp::Xor => old ^ operand,
    };
    new & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opcode_form_maps_to_its_operation() {
        assert_eq!(AtomicOp::of(Opcode::AtomicGMax), Some(AtomicOp::Max));
        assert_eq!(
            AtomicOp::of(Opcode::AtomicBCmpxchg),
            Some(AtomicOp::CmpXchg)
        );
        assert_eq!(AtomicOp::of(Opcode::AtomicInc), Some(AtomicOp::Inc));
        assert_eq!(AtomicOp::of(Opcode::Ldg), None);
    }

    #[test]
    fn values_at_the_edges() {
        let n1 = u32::MAX as u64;
        assert_eq!(eval_atomic(AtomicOp::Add, false, 32, n1, 2, 0), 1);
        assert_eq!(eval_atomic(AtomicOp::Sub, false, 32, 0, 1, 0), n1);
        // -1 < 5 signed, but 0xffffffff > 5 unsigned.
        assert_eq!(eval_atomic(AtomicOp::Min, true, 32, 5, n1, 0), n1);
        assert_eq!(eval_atomic(AtomicOp::Min, false, 32, 5, n1, 0), 5);
        assert_eq!(eval_atomic(AtomicOp::Max, true, 32, 5, n1, 0), 5);
        assert_eq!(eval_atomic(AtomicOp::Max, false, 32, 5, n1, 0), n1);
        assert_eq!(eval_atomic(AtomicOp::CmpXchg, false, 32, 7, 9, 7), 9);
        assert_eq!(eval_atomic(AtomicOp::CmpXchg, false, 32, 7, 9, 8), 7);
        assert_eq!(eval_atomic(AtomicOp::Inc, false, 32, n1, 0, 0), 0);
        assert_eq!(eval_atomic(AtomicOp::Dec, false, 32, 0, 0, 0), n1);
        assert_eq!(
            eval_atomic(AtomicOp::Xchg, false, 32, 1, 0x1_0000_0002, 0),
            2
        );
        assert_eq!(
            eval_atomic(AtomicOp::Add, false, 64, u64::MAX, 1, 0),
            0,
            "64-bit values wrap at 64 bits"
        );
        assert_eq!(
            eval_atomic(AtomicOp::Xor, false, 32, 0b1100, 0b1010, 0),
            0b0110
        );
    }
}
