//! Encoding: the legalised program as parsnip-isa instructions and 64-bit words.

use super::legalize::{scalar, LInstr, LOp};
use super::mir::*;
use super::ra::Allocation;
use crate::error::{CompileError, Result};
use parsnip_isa::{
    encode, AddrSrc, Alu, Alu3, Atomic, Barrier, BufferDesc, DescMode, DotMode, Flow, GetId,
    Global, GlobalAddr, Ibo, IndexMode, Instr, IsaGen, Ldc, Local, Mem, Mov, MovDst, Op, Opcode,
    Operand, Pred, Reg, ResinfoB, Sfu, Src8, SrcKind, Tex, TexDesc, Type, P0_X,
};

struct Ctx<'a> {
    m: &'a MShader,
    alloc: &'a Allocation,
}

impl Ctx<'_> {
    /// The register number of a component: scalar k, or half register 2k.
    fn num(&self, c: Comp) -> Result<u8> {
        let k = scalar(self.alloc, c);
        let n = if self.m.info(c.0).half { 2 * k } else { k };
        u8::try_from(n).map_err(|_| CompileError::new(format!("register {n} out of range")))
    }

    fn reg(&self, c: Comp) -> Result<Reg> {
        Ok(if self.m.info(c.0).half {
            Reg::half(self.num(c)?)
        } else {
            Reg::full(self.num(c)?)
        })
    }

    fn operand(&self, s: &MSrc, mods: Mods, half: bool) -> Result<Operand> {
        let mut o = match s {
            MSrc::Reg(c) => Operand {
                kind: SrcKind::Reg(self.num(*c)?),
                half: self.m.info(c.0).half,
                ..Operand::default()
            },
            MSrc::Imm(i) => Operand {
                kind: SrcKind::Imm(*i),
                half,
                ..Operand::default()
            },
            MSrc::Const(n) => Operand {
                kind: SrcKind::Const(*n),
                half: false,
                ..Operand::default()
            },
            MSrc::Fixed(r) => Operand::reg(*r),
        };
        o.neg = mods.neg;
        o.abs = mods.abs;
        Ok(o)
    }

    fn src8(&self, s: &MSrc8) -> Result<Src8> {
        Ok(match s {
            MSrc8::Reg(c) => Src8::Reg(self.num(*c)?),
            MSrc8::Imm(i) => Src8::Imm(*i),
        })
    }

    fn desc(base: u8, index: &MSrc8) -> BufferDesc {
        BufferDesc {
            mode: if matches!(index, MSrc8::Imm(_)) {
                IndexMode::Imm
            } else {
                IndexMode::Nonuniform
            },
            bindless: true,
            base,
        }
    }

    fn mop(&self, op: &MOp) -> Result<Op> {
        Ok(match op {
            MOp::Alu {
                op,
                dst,
                srcs,
                cond,
                sat,
                half,
            } => {
                let ops: Vec<Operand> = srcs
                    .iter()
                    .map(|(s, m)| self.operand(s, *m, *half))
                    .collect::<Result<_>>()?;
                if op.cat() == 3 {
                    let three: [Operand; 3] = [ops[0], ops[1], ops[2]];
                    Op::Alu3(Alu3 {
                        op: *op,
                        dst: self.reg(*dst)?,
                        srcs: three,
                        repeat: 0,
                        nop: 0,
                        sat: *sat,
                        ul: false,
                        dot: DotMode::default(),
                    })
                } else {
                    Op::Alu(Alu {
                        op: *op,
                        dst: self.reg(*dst)?,
                        src1: ops[0],
                        src2: ops.get(1).copied(),
                        cond: *cond,
                        repeat: 0,
                        nop: 0,
                        sat: *sat,
                        ul: false,
                        ei: false,
                    })
                }
            }
            MOp::Mov {
                dst,
                src,
                src_type,
                dst_type,
                round,
            } => {
                let mut s = self.operand(src, Mods::default(), src_type.is_half_cat1())?;
                s.half = src_type.is_half_cat1();
                Op::Mov(Mov {
                    src_type: *src_type,
                    dst_type: *dst_type,
                    dst: MovDst::Reg(self.num(*dst)?),
                    src: s,
                    repeat: 0,
                    ul: false,
                    round: *round,
                })
            }
            MOp::Sfu { op, dst, src, half } => Op::Sfu(Sfu {
                op: *op,
                dst: self.reg(*dst)?,
                src: self.operand(&MSrc::Reg(*src), Mods::default(), *half)?,
                repeat: 0,
                sat: false,
                ul: false,
            }),
            MOp::Ibo {
                op,
                ty,
                typed,
                count,
                reg,
                coord,
                dims,
                base,
                index,
            } => Op::Mem(Mem::Ibo(Ibo {
                op: *op,
                typed: *typed,
                d: *dims,
                ty: *ty,
                type_size: *count,
                desc: Self::desc(*base, index),
                reg: self.num(*reg)?,
                coord: self.num(*coord)?,
                offset: None,
                ssbo: self.src8(index)?,
            })),
            MOp::Local {
                op,
                ty,
                reg,
                addr,
                offset,
            } => Op::Mem(Mem::Local(Local {
                op: *op,
                ty: *ty,
                reg: self.num(*reg)?,
                addr: self.num(*addr)?,
                offset: *offset,
                size: 1,
            })),
            // The address is a register of shared memory, or the first of a pair holding
            // a 64-bit one (atomic.g.*).
            MOp::LocalAtomic {
                op,
                ty,
                dst,
                addr,
                data,
            }
            | MOp::GlobalAtomic {
                op,
                ty,
                dst,
                addr,
                data,
            } => Op::Mem(Mem::Atomic(Atomic {
                op: *op,
                typed: false,
                d: 1,
                ty: *ty,
                type_size: 1,
                dst: self.num(*dst)?,
                src1: Src8::Reg(self.num(*addr)?),
                src2: Src8::Reg(self.num(*data)?),
            })),
            MOp::Ldc {
                dst,
                offset,
                comp,
                base,
                index,
            } => Op::Mem(Mem::Ldc(Ldc {
                op: Opcode::Ldc,
                u: false,
                component: *comp,
                size: 1,
                dst: self.num(*dst)?,
                src1: self.src8(offset)?,
                src2: self.src8(index)?,
                desc: Self::desc(*base, index),
            })),
            MOp::Resinfo {
                dst,
                dims,
                base,
                index,
            } => Op::Mem(Mem::ResinfoB(ResinfoB {
                op: Opcode::ResinfoB,
                typed: false,
                d: *dims,
                ty: Type::U32,
                type_size: 1,
                desc: Self::desc(*base, index),
                dst: self.num(*dst)?,
                ssbo: self.src8(index)?,
            })),
            MOp::Tex {
                op,
                ty,
                wrmask,
                dst,
                coords,
                src2,
                is_3d,
                array,
                offset,
                shadow,
                base,
                index,
            } => {
                let mut t = Tex::new(*op);
                t.ty = *ty;
                t.wrmask = *wrmask;
                t.dst = self.num(*dst)?;
                t.src1 = coords.map(|(c, _)| self.num(c)).transpose()?;
                t.src2 = src2.map(|(c, _)| self.num(c)).transpose()?;
                t.is_3d = *is_3d;
                t.array = *array;
                t.o = *offset;
                t.s = *shadow;
                if *index == TexSlot::None {
                    // The derivatives read their source in the destination's precision.
                    t.half_src = ty.is_half();
                }
                t.desc = match index {
                    TexSlot::None => TexDesc::Direct { samp: 0, tex: 0 },
                    TexSlot::Imm { tex, samp } => TexDesc::BindlessImm {
                        base: *base,
                        samp: *samp,
                        tex: *tex,
                    },
                    TexSlot::Reg(c) => TexDesc::Indexed {
                        mode: DescMode::BindlessNonuniform,
                        reg: self.num(*c)?,
                        base: *base,
                    },
                };
                Op::Tex(t)
            }
            MOp::Kill { .. } => {
                return Err(CompileError::new(
                    "kill reaches encoding without its p0.x (legalisation expands it)",
                ))
            }
            MOp::Global { op, ty, reg, addr } => Op::Mem(Mem::Global(Global {
                op: *op,
                ty: *ty,
                reg: self.num(*reg)?,
                base: AddrSrc::Reg(self.num(*addr)?),
                addr: GlobalAddr::Offset(0),
                size: 1,
            })),
            MOp::FiberId { dst } => Op::Mem(Mem::GetId(GetId {
                op: Opcode::Getfiberid,
                ty: Type::U32,
                dst: self.num(*dst)?,
            })),
            MOp::QuadShuffle { op, dst, src, lane } => {
                let mut t = Tex::new(*op);
                t.ty = Type::U32;
                t.wrmask = 1;
                t.dst = self.num(*dst)?;
                t.src1 = Some(self.num(*src)?);
                t.src2 = match lane {
                    Some(l) => Some(self.num(*l)?),
                    None => None,
                };
                Op::Tex(t)
            }
            MOp::SubgroupMacro { .. } => {
                return Err(CompileError::new(
                    "a subgroup macro reached encoding without being written out",
                ))
            }
            MOp::Barrier {
                op: Opcode::Ccinv, ..
            } => Op::Bare(Opcode::Ccinv),
            MOp::Barrier { op, g, l, r, w } => Op::Barrier(Barrier {
                op: *op,
                g: *g,
                l: *l,
                r: *r,
                w: *w,
            }),
        })
    }
}

/// Encodes the program; branch targets become instruction offsets. Returns the
/// instructions (for printing) and their words.
pub fn emit(
    prog: &[LInstr],
    starts: &[usize],
    m: &MShader,
    alloc: &Allocation,
    gen: IsaGen,
) -> Result<(Vec<Instr>, Vec<u64>)> {
    let ctx = Ctx { m, alloc };
    let mut instrs = Vec::with_capacity(prog.len());
    for (i, l) in prog.iter().enumerate() {
        let rel = |target: usize| starts[target] as i32 - i as i32;
        let op = match &l.op {
            LOp::M(mop) => ctx.mop(mop)?,
            LOp::WithP(mop) => match ctx.mop(mop)? {
                Op::Tex(mut t) => {
                    t.p = true;
                    Op::Tex(t)
                }
                _ => return Err(CompileError::new("only cat5 instructions repeat with .p")),
            },
            LOp::SetP0(c) => Op::Alu(Alu {
                op: Opcode::CmpsU,
                dst: Reg::full(P0_X),
                src1: ctx.operand(&MSrc::Reg(*c), Mods::default(), m.info(c.0).half)?,
                src2: Some(Operand {
                    kind: SrcKind::Imm(0),
                    half: m.info(c.0).half,
                    ..Operand::default()
                }),
                cond: parsnip_isa::Cond::Ne,
                repeat: 0,
                nop: 0,
                sat: false,
                ul: false,
                ei: false,
            }),
            LOp::CmpP0(cmp) => match ctx.mop(cmp)? {
                Op::Alu(mut a) => {
                    a.dst = Reg::full(P0_X);
                    Op::Alu(a)
                }
                _ => return Err(CompileError::new("a branch condition is not a compare")),
            },
            LOp::Br { target, inv } => {
                let mut f = Flow::new(Opcode::Br);
                f.pred = Some(Pred { comp: 0, inv: *inv });
                f.target = rel(*target);
                Op::Flow(f)
            }
            LOp::Jump { target } => {
                let mut f = Flow::new(Opcode::Jump);
                f.target = rel(*target);
                Op::Flow(f)
            }
            LOp::End => Op::Flow(Flow::new(Opcode::End)),
            LOp::Kill => {
                let mut f = Flow::new(Opcode::Kill);
                f.pred = Some(Pred {
                    comp: 0,
                    inv: false,
                });
                Op::Flow(f)
            }
            LOp::Nop { repeat } => {
                let mut f = Flow::new(Opcode::Nop);
                f.repeat = *repeat;
                Op::Flow(f)
            }
            LOp::Raw(op) => op.clone(),
        };
        instrs.push(Instr {
            sy: l.sy,
            ss: l.ss,
            jp: l.jp,
            op,
        });
    }
    // `(ei)` marks the last varying read: the VPC may release the primitive's varyings
    // after it (a6xx ISA "end input"; Turnip's fragment shaders carry it on their last
    // bary.f / flat.b). The program's last one in layout order is the last executed in
    // straight-line code; a varying read in a loop is not supported by this rule.
    if let Some(last) = instrs
        .iter_mut()
        .rev()
        .find(|i| matches!(&i.op, Op::Alu(a) if matches!(a.op, Opcode::BaryF | Opcode::FlatB)))
    {
        if let Op::Alu(a) = &mut last.op {
            a.ei = true;
        }
    }
    // ir3 programs are fetched in groups of 16 instructions (SP_CS_INSTRLEN counts them):
    // pad with nops.
    while instrs.len() % 16 != 0 {
        instrs.push(Instr::new(Op::Flow(Flow::new(Opcode::Nop))));
    }
    let mut words = Vec::with_capacity(instrs.len());
    for (i, ins) in instrs.iter().enumerate() {
        let w = encode(ins, gen).map_err(|e| {
            CompileError::new(format!("cannot encode instruction {i} ({ins}): {e}"))
        })?;
        words.push(w);
    }
    Ok((instrs, words))
}
