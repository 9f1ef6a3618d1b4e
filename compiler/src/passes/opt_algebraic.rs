//! Algebraic simplification. Every rule is an identity of the IR's semantics (integers wrap,
//! shift amounts are taken modulo the bit size, floats are IEEE with signed zeros and NaNs),
//! so none depends on an idealised machine. Rules that would only hold for a particular
//! hardware behaviour live in instruction selection, next to the instruction they rely on.
//!
//! Deliberately absent, because they are false: `x + 0.0 -> x` (-0 + 0 = +0),
//! `x * 0.0 -> 0` (NaN and infinities), `(x << a) << b -> x << (a + b)` (the sum can reach
//! the bit size, where the amount wraps), `x / x -> 1` (x = 0).

use crate::ir::*;
use std::collections::HashMap;

enum Rewrite {
    /// Uses of the result read this instead; the instruction goes.
    Value(Src),
    /// The instruction becomes this operation.
    NewOp(Op),
}

fn float_bits(v: f64, size: BitSize) -> Option<u64> {
    match size {
        BitSize::B16 => Some(eval::f32_to_f16(v as f32) as u64),
        BitSize::B32 => Some((v as f32).to_bits() as u64),
        _ => None,
    }
}

fn simplify(a: &Alu, defs: &HashMap<Value, Op>) -> Option<Rewrite> {
    use AluOp::*;
    use Rewrite::{NewOp, Value};
    let size = a.size;
    let mask = size.mask();
    let s = &a.srcs;
    let imm = |i: usize| s.get(i).and_then(|x| x.as_imm());
    let is = |i: usize, v: u64| imm(i) == Some(v & mask);
    let fis = |i: usize, v: f64| float_bits(v, size).is_some_and(|b| imm(i) == Some(b));
    let def = |i: usize| s.get(i).and_then(|x| x.as_val()).and_then(|v| defs.get(&v));
    let def_alu = |i: usize, op: AluOp| match def(i) {
        Some(Op::Alu(d)) if d.op == op && d.size == size => Some(d),
        _ => None,
    };
    let pow2 = |i: usize| {
        imm(i)
            .filter(|v| v.is_power_of_two())
            .map(|v| v.trailing_zeros() as u64)
    };
    let same = s.len() == 2 && s[0] == s[1];
    let alu = |op: AluOp, srcs: &[Src]| NewOp(Op::alu(op, size, srcs));
    match a.op {
        IAdd | Or | Xor if is(1, 0) => Some(Value(s[0])),
        ISub | Shl | UShr | SShr if is(1, 0) => Some(Value(s[0])),
        ISub | Xor if same => Some(Value(Src::Imm(0))),
        And | Or | UMin | UMax | SMin | SMax if same => Some(Value(s[0])),
        IMul if is(1, 1) => Some(Value(s[0])),
        IMul | And if is(1, 0) => Some(Value(Src::Imm(0))),
        And if is(1, mask) => Some(Value(s[0])),
        Or if is(1, mask) => Some(Value(Src::Imm(mask))),
        // Multiplying by 2^k is shifting left by k, in wrapping arithmetic.
        IMul if pow2(1).is_some() => Some(alu(Shl, &[s[0], Src::Imm(pow2(1)?)])),
        UDiv if is(1, 1) => Some(Value(s[0])),
        UDiv if pow2(1).is_some() => Some(alu(UShr, &[s[0], Src::Imm(pow2(1)?)])),
        UMod if pow2(1).is_some() => Some(alu(And, &[s[0], Src::Imm(imm(1)? - 1)])),
        // The amount is taken modulo the size: make that explicit in constants.
        Shl | UShr | SShr if imm(1).is_some_and(|v| v >= size.bits() as u64) => {
            Some(alu(a.op, &[s[0], Src::Imm(imm(1)? % size.bits() as u64)]))
        }
        Not | INeg | FNeg => def_alu(0, a.op).map(|d| Value(d.srcs[0])),
        // a + (-b) = a - b in wrapping arithmetic.
        IAdd => def_alu(1, INeg).map(|d| alu(ISub, &[s[0], d.srcs[0]])),
        IEq | ULe | SLe if same => Some(Value(Src::Imm(1))),
        INe | ULt | SLt if same => Some(Value(Src::Imm(0))),
        // Booleans compared with constants.
        INe if size == BitSize::B1 && is(1, 0) => Some(Value(s[0])),
        IEq if size == BitSize::B1 && is(1, 1) => Some(Value(s[0])),
        Select if s[1] == s[2] => Some(Value(s[1])),
        Select if size == BitSize::B1 && is(1, 1) && is(2, 0) => Some(Value(s[0])),
        Select if size == BitSize::B1 && is(1, 0) && is(2, 1) => {
            Some(NewOp(Op::alu(Not, BitSize::B1, &[s[0]])))
        }
        Select => match def(0) {
            Some(Op::Alu(d)) if d.op == Not => {
                Some(NewOp(Op::alu(Select, size, &[d.srcs[0], s[2], s[1]])))
            }
            _ => None,
        },
        // x * 1.0 = x and x - (+0.0) = x, x + (-0.0) = x hold for every x, signed zeros and
        // NaNs included.
        FMul if fis(1, 1.0) => Some(Value(s[0])),
        // Division by one is exact: x / 1.0 is x, NaNs, infinities and signed zeros alike.
        FDiv if fis(1, 1.0) => Some(Value(s[0])),
        FSub if fis(1, 0.0) => Some(Value(s[0])),
        FAdd if imm(1).is_some_and(|v| Some(v) == float_bits(-0.0, size)) => Some(Value(s[0])),
        // fabs(-x) = fabs(x).
        FAbs => def_alu(0, FNeg).map(|d| alu(FAbs, &[d.srcs[0]])),
        _ => None,
    }
}

/// Puts an immediate operand of a commutative operation second, where the rules look.
fn canonicalize(a: &mut Alu) -> bool {
    if a.op.is_commutative()
        && a.srcs.len() == 2
        && a.srcs[0].as_imm().is_some()
        && a.srcs[1].as_imm().is_none()
    {
        a.srcs.swap(0, 1);
        return true;
    }
    false
}

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let mut defs: HashMap<Value, Op> = HashMap::new();
    for block in &shader.blocks {
        for instr in &block.instrs {
            if let Some(d) = instr.dst {
                defs.insert(d, instr.op.clone());
            }
        }
    }
    let mut replace: HashMap<Value, Src> = HashMap::new();
    let mut changed = false;
    for block in &mut shader.blocks {
        block.instrs.retain_mut(|instr| {
            if let Op::Convert(c) = &instr.op {
                // Same-size integer and float "conversions" change nothing.
                if c.from == c.to && matches!(c.kind, ConvKind::I2I { .. } | ConvKind::F2F) {
                    if let Some(d) = instr.dst {
                        replace.insert(d, c.src);
                        return false;
                    }
                }
            }
            let Op::Alu(a) = &mut instr.op else {
                return true;
            };
            changed |= canonicalize(a);
            match simplify(a, &defs) {
                Some(Rewrite::Value(v)) => match instr.dst {
                    Some(d) => {
                        replace.insert(d, v);
                        false
                    }
                    None => true,
                },
                Some(Rewrite::NewOp(op)) => {
                    instr.op = op;
                    changed = true;
                    true
                }
                None => true,
            }
        });
    }
    changed |= !replace.is_empty();
    shader.replace_uses(&replace);
    changed
}
