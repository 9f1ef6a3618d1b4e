//! 64-bit integers to pairs of 32-bit halves. ir3 has no 64-bit integer ALU, so every
//! 64-bit value becomes (low, high) and each operation is built from 32-bit ones: carries
//! from unsigned compares, products from `umul_high`, comparisons from the high halves
//! then the low ones, shifts from the two halves with the amount split at 32.
//!
//! Division and remainder arrive as loops of 64-bit steps (`lower_div64`); bit counting
//! and conversions between 64-bit integers and floats are refused with an error naming
//! the operation.

use crate::error::{CompileError, Result};
use crate::ir::cfg::reverse_postorder;
use crate::ir::*;
use std::collections::HashMap;

type Pair = (Src, Src);

struct Lower<'a> {
    shader: &'a mut Shader,
    out: Vec<Instr>,
    halves: HashMap<Value, Pair>,
}

impl Lower<'_> {
    fn emit(&mut self, op: Op, size: BitSize) -> Src {
        let d = self.shader.new_value(size);
        self.out.push(Instr { dst: Some(d), op });
        d.into()
    }

    fn alu(&mut self, op: AluOp, size: BitSize, srcs: &[Src]) -> Src {
        self.emit(Op::alu(op, size, srcs), op.result_size(size))
    }

    fn a32(&mut self, op: AluOp, srcs: &[Src]) -> Src {
        self.alu(op, BitSize::B32, srcs)
    }

    fn split(&self, s: Src) -> Result<Pair> {
        match s {
            Src::Imm(v) => Ok((Src::Imm(v & 0xffff_ffff), Src::Imm(v >> 32))),
            Src::Val(v) => self.halves.get(&v).copied().ok_or_else(|| {
                CompileError::new(format!("64-bit value {v} is used before it is defined"))
            }),
        }
    }

    fn b2i(&mut self, b: Src) -> Src {
        self.emit(
            Op::Convert(Convert {
                kind: ConvKind::Bool,
                from: BitSize::B1,
                to: BitSize::B32,
                src: b,
            }),
            BitSize::B32,
        )
    }

    fn ult(&mut self, a: Pair, b: Pair, signed: bool) -> Src {
        let hi_lt = self.a32(if signed { AluOp::SLt } else { AluOp::ULt }, &[a.1, b.1]);
        let hi_eq = self.a32(AluOp::IEq, &[a.1, b.1]);
        let lo_lt = self.a32(AluOp::ULt, &[a.0, b.0]);
        let t = self.alu(AluOp::And, BitSize::B1, &[hi_eq, lo_lt]);
        self.alu(AluOp::Or, BitSize::B1, &[hi_lt, t])
    }

    fn eq(&mut self, a: Pair, b: Pair) -> Src {
        let lo = self.a32(AluOp::IEq, &[a.0, b.0]);
        let hi = self.a32(AluOp::IEq, &[a.1, b.1]);
        self.alu(AluOp::And, BitSize::B1, &[lo, hi])
    }

    fn select(&mut self, c: Src, a: Pair, b: Pair) -> Pair {
        (
            self.a32(AluOp::Select, &[c, a.0, b.0]),
            self.a32(AluOp::Select, &[c, a.1, b.1]),
        )
    }

    fn add(&mut self, a: Pair, b: Pair) -> Pair {
        let lo = self.a32(AluOp::IAdd, &[a.0, b.0]);
        let carry = self.a32(AluOp::ULt, &[lo, a.0]);
        let carry = self.b2i(carry);
        let hi = self.a32(AluOp::IAdd, &[a.1, b.1]);
        (lo, self.a32(AluOp::IAdd, &[hi, carry]))
    }

    fn sub(&mut self, a: Pair, b: Pair) -> Pair {
        let lo = self.a32(AluOp::ISub, &[a.0, b.0]);
        let borrow = self.a32(AluOp::ULt, &[a.0, b.0]);
        let borrow = self.b2i(borrow);
        let hi = self.a32(AluOp::ISub, &[a.1, b.1]);
        (lo, self.a32(AluOp::ISub, &[hi, borrow]))
    }

    fn shift(&mut self, op: AluOp, a: Pair, n: Src) -> Pair {
        use AluOp::*;
        let s = self.a32(And, &[n, Src::Imm(31)]);
        let big_bit = self.a32(And, &[n, Src::Imm(32)]);
        let big = self.a32(INe, &[big_bit, Src::Imm(0)]);
        let inv = self.a32(ISub, &[Src::Imm(31), s]);
        // Bits crossing between the halves, shifted in two steps so that s = 0 moves none
        // (a single shift by 32 - s would wrap to a shift by 0).
        match op {
            Shl => {
                let lo = self.a32(Shl, &[a.0, s]);
                let hs = self.a32(Shl, &[a.1, s]);
                let cross = self.a32(UShr, &[a.0, Src::Imm(1)]);
                let cross = self.a32(UShr, &[cross, inv]);
                let hi = self.a32(Or, &[hs, cross]);
                self.select(big, (Src::Imm(0), lo), (lo, hi))
            }
            _ => {
                let ls = self.a32(UShr, &[a.0, s]);
                let cross = self.a32(Shl, &[a.1, Src::Imm(1)]);
                let cross = self.a32(Shl, &[cross, inv]);
                let lo = self.a32(Or, &[ls, cross]);
                let (hi, fill) = if op == SShr {
                    (
                        self.a32(SShr, &[a.1, s]),
                        self.a32(SShr, &[a.1, Src::Imm(31)]),
                    )
                } else {
                    (self.a32(UShr, &[a.1, s]), Src::Imm(0))
                };
                self.select(big, (hi, fill), (lo, hi))
            }
        }
    }

    fn alu64(&mut self, a: &Alu) -> Result<Option<Pair>> {
        use AluOp::*;
        let s: Vec<Src> = a.srcs.to_vec();
        let p = |l: &Self, i: usize| l.split(s[i]);
        Ok(Some(match a.op {
            Mov => p(self, 0)?,
            IAdd => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                self.add(x, y)
            }
            ISub => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                self.sub(x, y)
            }
            INeg => {
                let x = p(self, 0)?;
                self.sub((Src::Imm(0), Src::Imm(0)), x)
            }
            IMul => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                let lo = self.a32(IMul, &[x.0, y.0]);
                let carry = self.a32(UMulHigh, &[x.0, y.0]);
                let c1 = self.a32(IMul, &[x.0, y.1]);
                let c2 = self.a32(IMul, &[x.1, y.0]);
                let hi = self.a32(IAdd, &[carry, c1]);
                (lo, self.a32(IAdd, &[hi, c2]))
            }
            And | Or | Xor => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                (self.a32(a.op, &[x.0, y.0]), self.a32(a.op, &[x.1, y.1]))
            }
            Not => {
                let x = p(self, 0)?;
                (self.a32(Not, &[x.0]), self.a32(Not, &[x.1]))
            }
            Shl | UShr | SShr => {
                let x = p(self, 0)?;
                self.shift(a.op, x, s[1])
            }
            UMin | UMax | SMin | SMax => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                let lt = self.ult(x, y, matches!(a.op, SMin | SMax));
                if matches!(a.op, UMin | SMin) {
                    self.select(lt, x, y)
                } else {
                    self.select(lt, y, x)
                }
            }
            IAbs => {
                let x = p(self, 0)?;
                let neg = self.a32(SLt, &[x.1, Src::Imm(0)]);
                let n = self.sub((Src::Imm(0), Src::Imm(0)), x);
                self.select(neg, n, x)
            }
            Select => {
                let (x, y) = (p(self, 1)?, p(self, 2)?);
                self.select(s[0], x, y)
            }
            Pack64 => (s[0], s[1]),
            op => {
                return Err(CompileError::new(format!(
                    "64-bit {} is not supported (ir3 has no 64-bit integer ALU)",
                    op.name()
                )))
            }
        }))
    }

    /// Operations reading 64-bit values but producing a narrower result.
    fn narrow_from64(&mut self, a: &Alu) -> Result<Option<Src>> {
        use AluOp::*;
        let p = |l: &Self, i: usize| l.split(a.srcs[i]);
        Ok(Some(match a.op {
            Unpack64Lo => p(self, 0)?.0,
            Unpack64Hi => p(self, 0)?.1,
            IEq | INe => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                let e = self.eq(x, y);
                if a.op == IEq {
                    e
                } else {
                    self.alu(Not, BitSize::B1, &[e])
                }
            }
            ULt | SLt => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                self.ult(x, y, a.op == SLt)
            }
            ULe | SLe => {
                let (x, y) = (p(self, 0)?, p(self, 1)?);
                let gt = self.ult(y, x, a.op == SLe);
                self.alu(Not, BitSize::B1, &[gt])
            }
            _ => return Ok(None),
        }))
    }

    fn instr(&mut self, instr: Instr) -> Result<()> {
        let dst64 = instr
            .dst
            .filter(|d| self.shader.value_size(*d) == BitSize::B64);
        match &instr.op {
            Op::Alu(a) if a.size == BitSize::B64 || a.op == AluOp::Pack64 => {
                if let Some(d) = dst64 {
                    if let Some(pair) = self.alu64(a)? {
                        self.halves.insert(d, pair);
                        return Ok(());
                    }
                }
                if let (Some(d), Some(v)) = (instr.dst, self.narrow_from64(a)?) {
                    let op = Op::alu(AluOp::Mov, self.shader.value_size(d), &[v]);
                    self.out.push(Instr { dst: Some(d), op });
                    return Ok(());
                }
                Err(CompileError::new(format!(
                    "64-bit {} is not supported",
                    a.op.name()
                )))
            }
            Op::Alu(a) if matches!(a.op, AluOp::Unpack64Lo | AluOp::Unpack64Hi) => {
                let v = self.narrow_from64(a)?.expect("unpack handled");
                self.out.push(Instr {
                    dst: instr.dst,
                    op: Op::alu(AluOp::Mov, BitSize::B32, &[v]),
                });
                Ok(())
            }
            Op::Convert(c) if c.from == BitSize::B64 || c.to == BitSize::B64 => {
                self.convert(instr.dst, c)
            }
            Op::Load(l) if l.size == BitSize::B64 => {
                let hi_off = self.a32(AluOp::IAdd, &[l.offset, Src::Imm(4)]);
                let lo = self.emit(
                    Op::Load(Load {
                        space: l.space,
                        offset: l.offset,
                        size: BitSize::B32,
                    }),
                    BitSize::B32,
                );
                let hi = self.emit(
                    Op::Load(Load {
                        space: l.space,
                        offset: hi_off,
                        size: BitSize::B32,
                    }),
                    BitSize::B32,
                );
                if let Some(d) = instr.dst {
                    self.halves.insert(d, (lo, hi));
                }
                Ok(())
            }
            Op::Store(st) if st.size == BitSize::B64 => {
                let (lo, hi) = self.split(st.value)?;
                let hi_off = self.a32(AluOp::IAdd, &[st.offset, Src::Imm(4)]);
                self.out.push(Instr {
                    dst: None,
                    op: Op::Store(Store {
                        space: st.space,
                        offset: st.offset,
                        value: lo,
                        size: BitSize::B32,
                    }),
                });
                self.out.push(Instr {
                    dst: None,
                    op: Op::Store(Store {
                        space: st.space,
                        offset: hi_off,
                        value: hi,
                        size: BitSize::B32,
                    }),
                });
                Ok(())
            }
            Op::Atomic(at) if at.size == BitSize::B64 => {
                Err(CompileError::new("64-bit atomics are not supported"))
            }
            Op::Undef if dst64.is_some() => {
                let lo = self.emit(Op::Undef, BitSize::B32);
                let hi = self.emit(Op::Undef, BitSize::B32);
                self.halves.insert(dst64.expect("checked"), (lo, hi));
                Ok(())
            }
            _ => {
                self.out.push(instr);
                Ok(())
            }
        }
    }

    fn convert(&mut self, dst: Option<Value>, c: &Convert) -> Result<()> {
        let Some(d) = dst else { return Ok(()) };
        match (c.kind, c.from, c.to) {
            (ConvKind::I2I { signed }, from, BitSize::B64) => {
                let lo = if from == BitSize::B32 {
                    c.src
                } else {
                    self.emit(
                        Op::Convert(Convert {
                            kind: ConvKind::I2I { signed },
                            from,
                            to: BitSize::B32,
                            src: c.src,
                        }),
                        BitSize::B32,
                    )
                };
                let hi = if signed {
                    self.a32(AluOp::SShr, &[lo, Src::Imm(31)])
                } else {
                    Src::Imm(0)
                };
                self.halves.insert(d, (lo, hi));
            }
            (ConvKind::I2I { signed }, BitSize::B64, to) => {
                let (lo, _) = self.split(c.src)?;
                let op = if to == BitSize::B32 {
                    Op::alu(AluOp::Mov, BitSize::B32, &[lo])
                } else {
                    Op::Convert(Convert {
                        kind: ConvKind::I2I { signed },
                        from: BitSize::B32,
                        to,
                        src: lo,
                    })
                };
                self.out.push(Instr { dst: Some(d), op });
            }
            (ConvKind::Bool, BitSize::B64, BitSize::B1) => {
                let (lo, hi) = self.split(c.src)?;
                let any = self.a32(AluOp::Or, &[lo, hi]);
                self.out.push(Instr {
                    dst: Some(d),
                    op: Op::alu(AluOp::INe, BitSize::B32, &[any, Src::Imm(0)]),
                });
            }
            (ConvKind::Bool, BitSize::B1, BitSize::B64) => {
                let lo = self.b2i(c.src);
                self.halves.insert(d, (lo, Src::Imm(0)));
            }
            _ => {
                return Err(CompileError::new(format!(
                    "conversion {:?} from {} to {} bits is not supported",
                    c.kind,
                    c.from.bits(),
                    c.to.bits()
                )))
            }
        }
        Ok(())
    }
}

pub fn run(shader: &mut Shader) -> Result<()> {
    let has64 =
        (0..shader.value_count()).any(|v| shader.value_size(Value(v as u32)) == BitSize::B64);
    if !has64 {
        return Ok(());
    }
    let mut l = Lower {
        shader,
        out: Vec::new(),
        halves: HashMap::new(),
    };
    // Phis first, so that values flowing around loops have their halves.
    let mut phi_pairs = Vec::new();
    for b in l.shader.block_ids().collect::<Vec<_>>() {
        let phis = std::mem::take(&mut l.shader.block_mut(b).phis);
        let mut kept = Vec::new();
        for phi in phis {
            if l.shader.value_size(phi.dst) == BitSize::B64 {
                let lo = l.shader.new_value(BitSize::B32);
                let hi = l.shader.new_value(BitSize::B32);
                l.halves.insert(phi.dst, (lo.into(), hi.into()));
                phi_pairs.push((b, lo, hi, phi.srcs));
            } else {
                kept.push(phi);
            }
        }
        l.shader.block_mut(b).phis = kept;
    }
    for b in reverse_postorder(l.shader) {
        let instrs = std::mem::take(&mut l.shader.block_mut(b).instrs);
        for instr in instrs {
            l.instr(instr)?;
        }
        l.shader.block_mut(b).instrs = std::mem::take(&mut l.out);
        if let Terminator::Switch {
            size: BitSize::B64, ..
        } = l.shader.block(b).term
        {
            return Err(CompileError::new(
                "switch on a 64-bit selector is not supported",
            ));
        }
    }
    for (b, lo, hi, srcs) in phi_pairs {
        let mut lo_srcs = Vec::new();
        let mut hi_srcs = Vec::new();
        for (p, s) in srcs {
            let (a, c) = l.split(s)?;
            lo_srcs.push((p, a));
            hi_srcs.push((p, c));
        }
        let block = l.shader.block_mut(b);
        block.phis.push(Phi {
            dst: lo,
            srcs: lo_srcs,
        });
        block.phis.push(Phi {
            dst: hi,
            srcs: hi_srcs,
        });
    }
    Ok(())
}
