//! What the ALU opcodes compute, as pure functions on raw register bits.
//!
//! The simulator's interpreter and the compiler's constant folder both call
//! [`eval_alu`], so an optimisation can only assume what the model executes.
//! A value is the raw bits of one register component: 32 bits for a full
//! register, the low 16 bits for a half one (an f16 is its bit pattern).
//!
//! Each rule cites where it is known from. Where the hardware's behaviour is
//! not publicly documented the comment says so: IEEE/GLSL behaviour is chosen
//! where there is one, and otherwise the evaluation refuses with
//! [`EvalError::Unknown`] rather than invent a meaning.
//!
//! ```
//! use parsnip_isa::eval::{eval_alu, AluOp};
//! use parsnip_isa::{Opcode, Type};
//! // cov.f32u16 clamps: 70000.0 becomes 65535.
//! let cov = AluOp::conversion(Type::F32, Type::U16, Default::default());
//! assert_eq!(eval_alu(&cov, &[70000.0f32.to_bits()]), Ok(0xffff));
//! // add.s wraps; with (sat) it clamps.
//! let mut add = AluOp::new(Opcode::AddS, false);
//! assert_eq!(eval_alu(&add, &[i32::MAX as u32, 1]), Ok(i32::MIN as u32));
//! add.sat = true;
//! assert_eq!(eval_alu(&add, &[i32::MAX as u32, 1]), Ok(i32::MAX as u32));
//! ```

mod alu;
pub mod atomic;
mod conv;
pub mod float;
mod sfu;

use std::fmt;

use crate::instr::{DotMode, Instr, Op};
use crate::opcode::{Opcode, ValueKind};
use crate::types::{Cond, Round, Type};

/// The modifiers applied to one source before the operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrcMods {
    /// `(neg)`: float negate, integer two's complement negate, or bitwise not
    /// for `.b` operations.
    pub neg: bool,
    /// `(abs)`: float or integer absolute value.
    pub abs: bool,
}

/// One ALU operation with everything that changes its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluOp {
    pub opcode: Opcode,
    /// The sources are half precision (16 bits).
    pub half: bool,
    /// The result is half precision.
    pub dst_half: bool,
    /// The condition of `cmps.*`.
    pub cond: Cond,
    pub sat: bool,
    pub mods: [SrcMods; 3],
    /// cat1: the conversion's types and rounding.
    pub src_type: Type,
    pub dst_type: Type,
    pub round: Round,
    /// `(ei)` on `add.u`/`add.s`: a halving add.
    pub halving: bool,
    /// `dp2acc`/`dp4acc`.
    pub dot: DotMode,
}

impl AluOp {
    /// `opcode` at the given precision, destination of the same precision, no
    /// modifiers.
    pub fn new(opcode: Opcode, half: bool) -> AluOp {
        AluOp {
            opcode,
            half,
            dst_half: half,
            cond: Cond::Lt,
            sat: false,
            mods: [SrcMods::default(); 3],
            src_type: Type::F32,
            dst_type: Type::F32,
            round: Round::Zero,
            halving: false,
            dot: DotMode::default(),
        }
    }

    /// A cat1 `mov`/`cov` from `src` to `dst` type.
    pub fn conversion(src: Type, dst: Type, round: Round) -> AluOp {
        AluOp {
            src_type: src,
            dst_type: dst,
            round,
            dst_half: dst.is_half_cat1(),
            ..AluOp::new(Opcode::Mov, src.is_half_cat1())
        }
    }

    /// The operation of a decoded cat1 `mov`/`cov`, cat2, cat3 or cat4
    /// instruction (for `swz`/`gat`/`sct` use [`AluOp::conversion`] per
    /// element), or `None` for other instructions.
    pub fn from_instr(instr: &Instr) -> Option<AluOp> {
        let mods = |o: &crate::operand::Operand| SrcMods {
            neg: o.neg,
            abs: o.abs,
        };
        Some(match &instr.op {
            Op::Mov(m) => AluOp::conversion(m.src_type, m.dst_type, m.round),
            Op::Alu(a) => AluOp {
                dst_half: a.dst.half,
                cond: a.cond,
                sat: a.sat,
                mods: [
                    mods(&a.src1),
                    a.src2.as_ref().map(mods).unwrap_or_default(),
                    SrcMods::default(),
                ],
                halving: a.ei && matches!(a.op, Opcode::AddU | Opcode::AddS),
                ..AluOp::new(a.op, a.src1.half)
            },
            Op::Alu3(a) => AluOp {
                dst_half: a.dst.half,
                sat: a.sat,
                mods: [mods(&a.srcs[0]), mods(&a.srcs[1]), mods(&a.srcs[2])],
                dot: a.dot,
                ..AluOp::new(a.op, a.srcs[1].half)
            },
            Op::Sfu(s) => AluOp {
                dst_half: s.dst.half,
                sat: s.sat,
                mods: [mods(&s.src), SrcMods::default(), SrcMods::default()],
                ..AluOp::new(s.op, s.src.half)
            },
            _ => return None,
        })
    }
}

/// Why an operation has no value here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// Not an ALU operation on register values (flow, memory, texture,
    /// `bary.f`, `wmm`, which read or write more than one component).
    NotAlu(Opcode),
    /// Fewer sources than the operation reads.
    MissingSource(Opcode),
    /// What the hardware does here is not publicly known.
    Unknown { opcode: Opcode, what: &'static str },
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::NotAlu(op) => write!(f, "{op} is not a pure ALU operation"),
            EvalError::MissingSource(op) => write!(f, "{op}: too few sources"),
            EvalError::Unknown { opcode, what } => {
                write!(f, "{opcode}: {what} is not publicly documented")
            }
        }
    }
}

impl std::error::Error for EvalError {}

pub(crate) fn unknown<T>(opcode: Opcode, what: &'static str) -> Result<T, EvalError> {
    Err(EvalError::Unknown { opcode, what })
}

/// Applies `(neg)`/`(abs)` to a source of `kind` at precision `half`, as
/// Mesa's ir3 defines them per opcode (`ir3_cat2_absneg`: float, integer or
/// bitwise-not modifiers).
fn apply_mods(
    op: Opcode,
    kind: ValueKind,
    half: bool,
    v: u32,
    m: SrcMods,
) -> Result<u32, EvalError> {
    if !m.neg && !m.abs {
        return Ok(v);
    }
    let width = if half { 16 } else { 32 };
    let mask = if half { 0xffff } else { u32::MAX };
    let sign = 1u32 << (width - 1);
    Ok(match kind {
        ValueKind::Float => {
            let mut v = v;
            if m.abs {
                v &= !sign;
            }
            if m.neg {
                v ^= sign;
            }
            v & mask
        }
        ValueKind::Signed | ValueKind::Unsigned => {
            let mut x = alu::signed(v, half);
            if m.abs {
                x = x.abs();
            }
            if m.neg {
                x = -x;
            }
            x as u32 & mask
        }
        ValueKind::Bits if !m.abs => !v & mask,
        _ => return unknown(op, "this source modifier"),
    })
}

/// The result bits of `op` on source bits `srcs` (low 16 bits for half
/// values); see the module documentation.
pub fn eval_alu(op: &AluOp, srcs: &[u32]) -> Result<u32, EvalError> {
    let info = op.opcode.info();
    let needed = match op.opcode {
        Opcode::Mov => 1,
        _ => info.nsrc as usize,
    };
    if srcs.len() < needed {
        return Err(EvalError::MissingSource(op.opcode));
    }
    let mask = |half: bool| if half { 0xffff } else { u32::MAX };
    // cat3 takes (neg) only on its float opcodes (Mesa's `ir3_cat3_absneg`;
    // on the integer mads it "*may* work on 3rd src").
    if info.cat == 3 && info.src != ValueKind::Float && op.mods.iter().any(|m| m.neg || m.abs) {
        return unknown(op.opcode, "(neg) on an integer or bitwise cat3 source");
    }
    let mut v = [0u32; 3];
    for i in 0..needed.min(3) {
        v[i] = apply_mods(
            op.opcode,
            info.src,
            op.half,
            srcs[i] & mask(op.half),
            op.mods[i],
        )?;
    }
    match info.cat {
        1 if op.opcode == Opcode::Mov => conv::convert(op, srcs[0]),
        2 | 3 => alu::eval(op, &v[..needed]),
        4 => sfu::eval(op, v[0]),
        _ => Err(EvalError::NotAlu(op.opcode)),
    }
}
