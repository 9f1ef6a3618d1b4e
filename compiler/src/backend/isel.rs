//! Instruction selection: the lowered, optimised IR to ir3 operations on virtual registers.
//!
//! Values live in one scalar each (booleans as 0/1, as ir3's comparisons write them: Mesa's
//! ir3_compiler_nir.c). Phis leave SSA here: each phi gets a temporary that every
//! predecessor writes just before its terminator and that the phi's block copies at its
//! start, so that parallel-copy cycles (swaps around loops) cannot lose a value.
//!
//! Hardware rules this relies on, each with where it is known from:
//! - Conversions: `cov` rounds toward zero unless marked, so float results of F2F and I2F
//!   are marked round-to-nearest-even; float-to-integer `cov` clamps to the destination
//!   type, which is what the IR's F2I means; integer narrowing truncates (parsnip-isa's
//!   eval/conv.rs, after Mesa's create_cov).
//! - Shifts take the amount modulo the width (parsnip-isa eval/alu.rs), as the IR does, so
//!   shifts need no masking.
//! - `(sat)` does not work on `sel` (parsnip-isa's opcode table, Mesa's
//!   is_sat_compatible): saturation is never folded into a select.
//! - `ldl`/`stl`/`ldp`/`stp` take a 13-bit signed immediate byte offset (parsnip-isa's
//!   `Local`, freedreno's cat6 XML): only constants in [-4096, 4095] are folded into it.
//! - There is no 32x32-bit multiply: `mull.u` multiplies the low 16 bits and `madsh.m16`
//!   adds `(a & 0xffff) * (b >> 16) << 16` (eval/alu.rs), so a product is
//!   `mull.u(a, b) + madsh.m16(a, b) + madsh.m16(b, a)`, as Mesa lowers NIR's imul.
//! - `stib.b`/`ldib.b`/`atomic.b` on an untyped 1D u32 buffer take an element index: Turnip
//!   stores `data[i]` with the coordinate `i` (turnip/a660/compute.pipeline-executable.txt).
//!   Atomics name a register group: destination, then the data; for compare-exchange the
//!   value to store, then the comparator (Mesa's emit_intrinsic_atomic_ssbo collects
//!   (dummy, NIR's data2, NIR's data), and spirv_to_nir puts SPIR-V's Comparator in data
//!   and its Value in data2). Shared-memory compare-exchange takes the same pair, value
//!   first (emit_intrinsic_atomic_shared collects (NIR's data2, NIR's data)).

use super::mir::*;
use crate::error::{CompileError, Result};
use crate::ir::{self, AluOp, BitSize, ConvKind, Op, Space, Src, SysVal, Terminator};
use parsnip_isa::{Cond, Opcode, Round, Type};
use smallvec::{smallvec, SmallVec};
use std::collections::{HashMap, HashSet};

mod barrier;
pub mod io;
mod subgroup;
mod texel;

/// The registers the driver must program for the hardware to deliver the built-ins.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InputRegs {
    /// LOCALIDREGID: local invocation id x, y, z in consecutive components (r0.x).
    pub local_id: u8,
    /// WGIDCONSTID: workgroup id x, y, z (the shared register r48.x, where Turnip has it).
    pub workgroup_id: u8,
}

pub const INPUT_REGS: InputRegs = InputRegs {
    local_id: 0,
    workgroup_id: parsnip_isa::SHARED_FIRST,
};

/// The 13-bit signed immediate offset of ldl/stl/ldp/stp.
pub fn fits_local_offset(v: i64) -> bool {
    (-4096..=4095).contains(&v)
}

/// cat2 immediates: 11 bits, sign-extended (parsnip-isa's SrcKind::Imm).
fn fits_alu_imm(v: i64) -> bool {
    (-1024..=1023).contains(&v)
}

/// `atomic.b.*` for an operation; signedness is the instruction's type.
fn ibo_atomic_opcode(op: ir::AtomicOp) -> Opcode {
    match op {
        ir::AtomicOp::Add => Opcode::AtomicBAdd,
        ir::AtomicOp::SMin | ir::AtomicOp::UMin => Opcode::AtomicBMin,
        ir::AtomicOp::SMax | ir::AtomicOp::UMax => Opcode::AtomicBMax,
        ir::AtomicOp::And => Opcode::AtomicBAnd,
        ir::AtomicOp::Or => Opcode::AtomicBOr,
        ir::AtomicOp::Xor => Opcode::AtomicBXor,
        ir::AtomicOp::Exchange => Opcode::AtomicBXchg,
        ir::AtomicOp::CompareExchange => Opcode::AtomicBCmpxchg,
    }
}

/// The type of a 32-bit atomic: signed for the signed minimum and maximum (Mesa's
/// ir3 takes it from nir_atomic_op_type).
fn atomic_type(op: ir::AtomicOp) -> Type {
    if matches!(op, ir::AtomicOp::SMin | ir::AtomicOp::SMax) {
        Type::S32
    } else {
        Type::U32
    }
}

/// An `atomic.b.*` on a storage buffer (untyped: `coord` is the element index) or a
/// storage texel buffer or image (typed: the first of `dims` texel coordinates).
struct IboAtomic {
    op: ir::AtomicOp,
    typed: bool,
    base: u8,
    index: MSrc8,
    coord: Comp,
    dims: u8,
    data: Src,
    compare: Option<Src>,
}

struct Sel<'a> {
    ir: &'a ir::Shader,
    m: MShader,
    vals: HashMap<ir::Value, VReg>,
    /// What each IR value was defined as (for folding address arithmetic).
    defs: HashMap<ir::Value, ir::Op>,
    cur: usize,
    phi_temps: HashMap<ir::Value, VReg>,
    /// Texel loads already selected as part of an earlier load of the same texel.
    texel_loaded: HashSet<ir::Value>,
    /// Where a graphics shader's inputs and outputs are.
    io: io::IoPlan,
    /// The generation encodings are chosen for.
    gen: parsnip_isa::IsaGen,
}

fn err(msg: impl Into<String>) -> CompileError {
    CompileError::new(msg)
}

impl Sel<'_> {
    fn emit(&mut self, op: MOp) {
        let cur = self.cur;
        self.m.blocks[cur].instrs.push(op);
    }

    fn vreg_of(&mut self, v: ir::Value) -> VReg {
        if let Some(r) = self.vals.get(&v) {
            return *r;
        }
        let half = self.ir.value_size(v) == BitSize::B16;
        let r = self.m.new_vreg(1, half);
        self.vals.insert(v, r);
        r
    }

    fn new_reg(&mut self, half: bool) -> VReg {
        self.m.new_vreg(1, half)
    }

    fn mov_imm(&mut self, v: u64, half: bool) -> Comp {
        let r = self.new_reg(half);
        let bits = if half { v & 0xffff } else { v & 0xffff_ffff };
        self.copy(r.into(), MSrc::Imm(bits as u32 as i32), half);
        r.into()
    }

    /// `dst = src`, both full or both half registers.
    fn copy(&mut self, dst: Comp, src: MSrc, half: bool) {
        let ty = if half { Type::U16 } else { Type::U32 };
        self.emit(MOp::Mov {
            dst,
            src,
            src_type: ty,
            dst_type: ty,
            round: Round::Zero,
        });
    }

    /// `dst` (half) = the low 16 bits of `src` (full): cov.u32u16 truncates.
    fn narrow(&mut self, dst: Comp, src: Comp) {
        self.emit(MOp::Mov {
            dst,
            src: MSrc::Reg(src),
            src_type: Type::U32,
            dst_type: Type::U16,
            round: Round::Zero,
        });
    }

    /// A source in a register.
    fn reg(&mut self, s: Src, half: bool) -> Comp {
        match s {
            Src::Val(v) => self.vreg_of(v).into(),
            Src::Imm(i) => self.mov_imm(i, half),
        }
    }

    /// An integer ALU source: small immediates stay immediate.
    fn int_src(&mut self, s: Src, half: bool) -> MSrc {
        if let Src::Imm(i) = s {
            let v = if half {
                i as u16 as i16 as i64
            } else {
                i as u32 as i32 as i64
            };
            if fits_alu_imm(v) {
                return MSrc::Imm(v as i32);
            }
        }
        MSrc::Reg(self.reg(s, half))
    }

    fn alu(&mut self, op: Opcode, dst: Comp, srcs: &[(MSrc, Mods)], cond: Cond, half: bool) {
        self.emit(MOp::Alu {
            op,
            dst,
            srcs: srcs.iter().copied().collect(),
            cond,
            sat: false,
            half,
        });
    }

    /// `alu` with no source modifiers, for the opcodes that are not compares: the
    /// condition field only means something to `cmps`/`cmpv`, and is left at its zero
    /// encoding (`lt`) for the others.
    fn alu_plain(&mut self, op: Opcode, dst: Comp, srcs: &[MSrc], half: bool) {
        let srcs: SmallVec<[(MSrc, Mods); 3]> = srcs.iter().map(|&s| Self::plain(s)).collect();
        self.alu(op, dst, &srcs, Cond::default(), half);
    }

    fn plain(s: MSrc) -> (MSrc, Mods) {
        (s, Mods::default())
    }

    fn neg(s: MSrc) -> (MSrc, Mods) {
        (
            s,
            Mods {
                neg: true,
                abs: false,
            },
        )
    }

    fn abs(s: MSrc) -> (MSrc, Mods) {
        (
            s,
            Mods {
                neg: false,
                abs: true,
            },
        )
    }

    /// dst = op(a, b) on full registers with integer sources.
    fn int2(&mut self, op: Opcode, dst: Comp, a: Src, b: Src, half: bool) {
        let b = self.int_src(b, half);
        self.int2_with(op, dst, a, b, half);
    }

    /// `int2` with the second source already selected.
    fn int2_with(&mut self, op: Opcode, dst: Comp, a: Src, b: MSrc, half: bool) {
        let a = self.int_src(a, half);
        // cat2's first source cannot be an immediate when the second is too; keep one
        // in a register.
        let a = if matches!(a, MSrc::Imm(_)) && matches!(b, MSrc::Imm(_)) {
            let MSrc::Imm(v) = a else { unreachable!() };
            MSrc::Reg(self.mov_imm(v as u32 as u64, half))
        } else {
            a
        };
        self.alu_plain(op, dst, &[a, b], half);
    }

    /// A shift's amount in the precision of the shift: the IR gives every amount 32 bits,
    /// and a 16-bit shift reads a 16-bit amount (cat2 sources are all full or all half,
    /// as parsnip-isa's encoder requires; Mesa's resize_shift_amount narrows them the same
    /// way). Truncating keeps the low four bits, all that a 16-bit shift takes.
    fn shift_amount(&mut self, s: Src, half: bool) -> MSrc {
        match s {
            Src::Val(v) if half && self.ir.value_size(v) != BitSize::B16 => {
                let narrow = self.new_reg(true);
                let wide = self.vreg_of(v);
                self.narrow(narrow.into(), wide.into());
                MSrc::Reg(narrow.into())
            }
            _ => self.int_src(s, half),
        }
    }

    fn cmp(&mut self, op: Opcode, cond: Cond, dst: Comp, a: Src, b: Src, half: bool) {
        let a = MSrc::Reg(self.reg(a, half));
        let b = self.int_src(b, half);
        self.alu(op, dst, &[Self::plain(a), Self::plain(b)], cond, half);
    }

    fn mul32(&mut self, dst: Comp, a: Src, b: Src) {
        // Operands known to fit 16 bits (masked with 0xffff, or small constants) drop the
        // terms their zero high half makes zero.
        let (a, b) = if matches!(a, Src::Imm(_)) {
            (b, a)
        } else {
            (a, b)
        };
        let is16 = |t: &Self, s: Src| match s {
            Src::Imm(v) => v < 0x1_0000,
            Src::Val(v) => {
                matches!(t.defs.get(&v), Some(Op::Alu(x)) if x.op == AluOp::And && x.srcs[1] == Src::Imm(0xffff))
            }
        };
        let (a16, b16) = (is16(self, a), is16(self, b));
        if a16 || b16 {
            let (ra, rb) = (self.reg(a, false), self.reg(b, false));
            let (ra, rb) = (MSrc::Reg(ra), MSrc::Reg(rb));
            if a16 && b16 {
                self.alu_plain(Opcode::MullU, dst, &[ra, rb], false);
                return;
            }
            // With b < 2^16: a * b = mull.u(a, b) + madsh.m16(b, a), the
            // narrow factor's low half times the wide one's high half.
            let (wide, narrow) = if b16 { (ra, rb) } else { (rb, ra) };
            let t0 = self.new_reg(false);
            self.alu_plain(Opcode::MullU, t0.into(), &[wide, narrow], false);
            self.alu_plain(
                Opcode::MadshM16,
                dst,
                &[narrow, wide, MSrc::Reg(t0.into())],
                false,
            );
            return;
        }
        let (a, b) = (self.reg(a, false), self.reg(b, false));
        let (ra, rb) = (MSrc::Reg(a), MSrc::Reg(b));
        let t0 = self.new_reg(false);
        self.alu_plain(Opcode::MullU, t0.into(), &[ra, rb], false);
        let t1 = self.new_reg(false);
        self.alu_plain(
            Opcode::MadshM16,
            t1.into(),
            &[ra, rb, MSrc::Reg(t0.into())],
            false,
        );
        self.alu_plain(
            Opcode::MadshM16,
            dst,
            &[rb, ra, MSrc::Reg(t1.into())],
            false,
        );
    }

    fn sel_alu(&mut self, dst: Comp, a: &ir::Alu) -> Result<()> {
        use AluOp::*;
        let half = a.size == BitSize::B16;
        let s = &a.srcs;
        let f = |t: &mut Self, x: Src| MSrc::Reg(t.reg(x, half));
        let fop = |t: &mut Self, op: Opcode, x: Src, y: Src, neg_y: bool| {
            let (x, y) = (f(t, x), f(t, y));
            let y = if neg_y { Self::neg(y) } else { Self::plain(y) };
            t.alu(op, dst, &[Self::plain(x), y], Cond::Lt, half);
        };
        let sfu = |t: &mut Self, op: Opcode, x: Src| {
            let x = t.reg(x, half);
            t.emit(MOp::Sfu {
                op,
                dst,
                src: x,
                half,
            });
        };
        match a.op {
            Mov => self.copy_value(dst, s[0], half),
            IAdd => self.int2(Opcode::AddU, dst, s[0], s[1], half),
            ISub => self.int2(Opcode::SubU, dst, s[0], s[1], half),
            IMul if half => {
                // mull.u multiplies the low 16 bits: exactly a 16-bit product.
                self.int2(Opcode::MullU, dst, s[0], s[1], true);
            }
            IMul => self.mul32(dst, s[0], s[1]),
            INeg => {
                let x = f(self, s[0]);
                self.alu(Opcode::AbsnegS, dst, &[Self::neg(x)], Cond::Lt, half);
            }
            IAbs => {
                let x = f(self, s[0]);
                self.alu(Opcode::AbsnegS, dst, &[Self::abs(x)], Cond::Lt, half);
            }
            UMin => self.int2(Opcode::MinU, dst, s[0], s[1], half),
            UMax => self.int2(Opcode::MaxU, dst, s[0], s[1], half),
            SMin => self.int2(Opcode::MinS, dst, s[0], s[1], half),
            SMax => self.int2(Opcode::MaxS, dst, s[0], s[1], half),
            And => self.int2(Opcode::AndB, dst, s[0], s[1], half),
            Or => self.int2(Opcode::OrB, dst, s[0], s[1], half),
            Xor => self.int2(Opcode::XorB, dst, s[0], s[1], half),
            Not if a.size == BitSize::B1 => self.int2(Opcode::XorB, dst, s[0], Src::Imm(1), false),
            Not => {
                let x = f(self, s[0]);
                self.alu_plain(Opcode::NotB, dst, &[x], half);
            }
            Shl | UShr | SShr => {
                let op = match a.op {
                    Shl => Opcode::ShlB,
                    UShr => Opcode::ShrB,
                    _ => Opcode::AshrB,
                };
                let amount = self.shift_amount(s[1], half);
                self.int2_with(op, dst, s[0], amount, half);
            }
            BitCount => {
                let x = f(self, s[0]);
                self.alu_plain(Opcode::CbitsB, dst, &[x], half);
            }
            BitReverse => {
                let x = f(self, s[0]);
                self.alu_plain(Opcode::BfrevB, dst, &[x], half);
            }
            FindLsb => {
                // The lowest set bit is the count of leading zeros of the reversed value;
                // clz.b of 0 is -1, which is findLSB's answer for 0.
                let x = f(self, s[0]);
                let r = self.new_reg(half);
                self.alu_plain(Opcode::BfrevB, r.into(), &[x], half);
                self.alu_plain(Opcode::ClzB, dst, &[MSrc::Reg(r.into())], half);
            }
            UFindMsb | SFindMsb => {
                // msb = (width - 1) - clz; clz of 0 (and clz.s of -1) is -1, for which
                // findMSB is -1 too: select it explicitly.
                let x = f(self, s[0]);
                let clz = self.new_reg(half);
                let op = if a.op == UFindMsb {
                    Opcode::ClzB
                } else {
                    Opcode::ClzS
                };
                self.alu_plain(op, clz.into(), &[x], half);
                let width = a.size.bits() as i32 - 1;
                let r = self.new_reg(half);
                let w = self.mov_imm(width as u64, half);
                self.alu_plain(
                    Opcode::SubU,
                    r.into(),
                    &[MSrc::Reg(w), MSrc::Reg(clz.into())],
                    half,
                );
                let none = self.new_reg(half);
                self.alu(
                    Opcode::CmpsS,
                    none.into(),
                    &[
                        Self::plain(MSrc::Reg(clz.into())),
                        Self::plain(MSrc::Imm(0)),
                    ],
                    Cond::Lt,
                    half,
                );
                let minus1 = self.mov_imm(u64::MAX, half);
                let sel = if half { Opcode::SelB16 } else { Opcode::SelB32 };
                self.alu_plain(
                    sel,
                    dst,
                    &[
                        MSrc::Reg(minus1),
                        MSrc::Reg(none.into()),
                        MSrc::Reg(r.into()),
                    ],
                    half,
                );
            }
            IEq => self.cmp(Opcode::CmpsU, Cond::Eq, dst, s[0], s[1], half),
            INe => self.cmp(Opcode::CmpsU, Cond::Ne, dst, s[0], s[1], half),
            ULt => self.cmp(Opcode::CmpsU, Cond::Lt, dst, s[0], s[1], half),
            ULe => self.cmp(Opcode::CmpsU, Cond::Le, dst, s[0], s[1], half),
            SLt => self.cmp(Opcode::CmpsS, Cond::Lt, dst, s[0], s[1], half),
            SLe => self.cmp(Opcode::CmpsS, Cond::Le, dst, s[0], s[1], half),
            FAdd => fop(self, Opcode::AddF, s[0], s[1], false),
            FSub => fop(self, Opcode::AddF, s[0], s[1], true),
            FMul => fop(self, Opcode::MulF, s[0], s[1], false),
            FMin => fop(self, Opcode::MinF, s[0], s[1], false),
            FMax => fop(self, Opcode::MaxF, s[0], s[1], false),
            FDiv => {
                let r = self.new_reg(half);
                let y = self.reg(s[1], half);
                self.emit(MOp::Sfu {
                    op: Opcode::Rcp,
                    dst: r.into(),
                    src: y,
                    half,
                });
                let x = f(self, s[0]);
                self.alu_plain(Opcode::MulF, dst, &[x, MSrc::Reg(r.into())], half);
            }
            FFma => {
                let (x, y, z) = (f(self, s[0]), f(self, s[1]), f(self, s[2]));
                let op = if half { Opcode::MadF16 } else { Opcode::MadF32 };
                self.alu_plain(op, dst, &[x, y, z], half);
            }
            FNeg => {
                let x = f(self, s[0]);
                self.alu(Opcode::AbsnegF, dst, &[Self::neg(x)], Cond::Lt, half);
            }
            FAbs => {
                let x = f(self, s[0]);
                self.alu(Opcode::AbsnegF, dst, &[Self::abs(x)], Cond::Lt, half);
            }
            FSat => {
                let x = f(self, s[0]);
                self.emit(MOp::Alu {
                    op: Opcode::AbsnegF,
                    dst,
                    srcs: smallvec![Self::plain(x)],
                    cond: Cond::Lt,
                    sat: true,
                    half,
                });
            }
            FSign => {
                let x = f(self, s[0]);
                self.alu_plain(Opcode::SignF, dst, &[x], half);
            }
            FFloor | FCeil | FTrunc | FRoundEven => {
                let op = match a.op {
                    FFloor => Opcode::FloorF,
                    FCeil => Opcode::CeilF,
                    FTrunc => Opcode::TruncF,
                    _ => Opcode::RndneF,
                };
                let x = f(self, s[0]);
                self.alu_plain(op, dst, &[x], half);
            }
            FFract => {
                let x = f(self, s[0]);
                let fl = self.new_reg(half);
                self.alu_plain(Opcode::FloorF, fl.into(), &[x], half);
                self.alu(
                    Opcode::AddF,
                    dst,
                    &[Self::plain(x), Self::neg(MSrc::Reg(fl.into()))],
                    Cond::Lt,
                    half,
                );
            }
            FSqrt => sfu(self, Opcode::Sqrt, s[0]),
            FRsq => sfu(self, Opcode::Rsq, s[0]),
            FRcp => sfu(self, Opcode::Rcp, s[0]),
            FExp2 => sfu(self, Opcode::Exp2, s[0]),
            FLog2 => sfu(self, Opcode::Log2, s[0]),
            FSin => sfu(self, Opcode::Sin, s[0]),
            FCos => sfu(self, Opcode::Cos, s[0]),
            FDdx | FDdy | FDdxFine | FDdyFine => {
                // cat5 `dsx`/`dsy` (coarse) and `dsxpp.1`/`dsypp.1` (fine; legalisation
                // issues those as the pair ir3 does), with no texture.
                let op = match a.op {
                    FDdx => Opcode::Dsx,
                    FDdy => Opcode::Dsy,
                    FDdxFine => Opcode::Dsxpp1,
                    _ => Opcode::Dsypp1,
                };
                let x = self.reg(s[0], half);
                self.emit(MOp::Tex {
                    op,
                    ty: if half { Type::F16 } else { Type::F32 },
                    wrmask: 1,
                    dst,
                    coords: Some((x, 1)),
                    src2: None,
                    is_3d: false,
                    array: false,
                    offset: false,
                    shadow: false,
                    base: 0,
                    index: TexSlot::None,
                });
            }
            FEq | FNeU | FLt | FLe => {
                let cond = match a.op {
                    FEq => Cond::Eq,
                    FNeU => Cond::Ne,
                    FLt => Cond::Lt,
                    _ => Cond::Le,
                };
                let (x, y) = (f(self, s[0]), f(self, s[1]));
                self.alu(
                    Opcode::CmpsF,
                    dst,
                    &[Self::plain(x), Self::plain(y)],
                    cond,
                    half,
                );
            }
            FIsNan => {
                let x = f(self, s[0]);
                self.alu(
                    Opcode::CmpsF,
                    dst,
                    &[Self::plain(x), Self::plain(x)],
                    Cond::Ne,
                    half,
                );
            }
            FIsInf => {
                let x = f(self, s[0]);
                let inf = if half { 0x7c00 } else { 0x7f80_0000 };
                let k = self.mov_imm(inf, half);
                self.alu(
                    Opcode::CmpsF,
                    dst,
                    &[Self::abs(x), Self::plain(MSrc::Reg(k))],
                    Cond::Eq,
                    half,
                );
            }
            Select => {
                let c = self.reg(s[0], false);
                let (x, y) = (f(self, s[1]), f(self, s[2]));
                let cond = if half {
                    // sel.b16 reads a half condition: narrow the 0/1 boolean.
                    let h = self.new_reg(true);
                    self.narrow(h.into(), c);
                    h.into()
                } else {
                    c
                };
                let op = if half { Opcode::SelB16 } else { Opcode::SelB32 };
                self.alu_plain(op, dst, &[x, MSrc::Reg(cond), y], half);
            }
            Pack32 => {
                // lo | hi << 16 from two half values.
                let lo = self.widen(s[0]);
                let hi = self.widen(s[1]);
                let t = self.new_reg(false);
                self.alu_plain(
                    Opcode::ShlB,
                    t.into(),
                    &[MSrc::Reg(hi), MSrc::Imm(16)],
                    false,
                );
                self.alu_plain(
                    Opcode::OrB,
                    dst,
                    &[MSrc::Reg(lo), MSrc::Reg(t.into())],
                    false,
                );
            }
            Unpack32Lo | Unpack32Hi => {
                let mut x = self.reg(s[0], false);
                if a.op == Unpack32Hi {
                    let t = self.new_reg(false);
                    self.alu_plain(
                        Opcode::ShrB,
                        t.into(),
                        &[MSrc::Reg(x), MSrc::Imm(16)],
                        false,
                    );
                    x = t.into();
                }
                self.narrow(dst, x);
            }
            op => {
                return Err(err(format!(
                    "ir3 has no instruction for {} (it should have been lowered)",
                    op.name()
                )))
            }
        }
        Ok(())
    }

    /// A 16-bit value zero-extended into a full register.
    fn widen(&mut self, s: Src) -> Comp {
        match s {
            Src::Imm(i) => self.mov_imm(i & 0xffff, false),
            Src::Val(v) => {
                let h = self.vreg_of(v);
                let r = self.new_reg(false);
                self.emit(MOp::Mov {
                    dst: r.into(),
                    src: MSrc::Reg(h.into()),
                    src_type: Type::U16,
                    dst_type: Type::U32,
                    round: Round::Zero,
                });
                r.into()
            }
        }
    }

    fn sel_convert(&mut self, dst: Comp, c: &ir::Convert) -> Result<()> {
        use BitSize::*;
        let int_ty = |s: BitSize, signed: bool| match (s, signed) {
            (B16, false) => Type::U16,
            (B16, true) => Type::S16,
            (_, false) => Type::U32,
            (_, true) => Type::S32,
        };
        let fty = |s: BitSize| if s == B16 { Type::F16 } else { Type::F32 };
        let src_half = c.from == B16;
        let (st, dt, round) = match c.kind {
            ConvKind::F2F => (fty(c.from), fty(c.to), Round::Even),
            ConvKind::F2I { signed } => (fty(c.from), int_ty(c.to, signed), Round::Zero),
            ConvKind::I2F { signed } => (int_ty(c.from, signed), fty(c.to), Round::Even),
            ConvKind::I2I { signed } => (int_ty(c.from, signed), int_ty(c.to, signed), Round::Zero),
            ConvKind::Bool => {
                if c.to == B1 {
                    // x != 0
                    self.cmp(Opcode::CmpsU, Cond::Ne, dst, c.src, Src::Imm(0), src_half);
                    return Ok(());
                }
                // A 0/1 boolean to an integer of the destination's size.
                (Type::U32, int_ty(c.to, false), Round::Zero)
            }
        };
        if c.from == B64 || c.to == B64 {
            return Err(err("64-bit conversions should have been lowered"));
        }
        let src = match c.src {
            Src::Imm(i) => MSrc::Imm(i as u32 as i32),
            Src::Val(v) => MSrc::Reg(self.vreg_of(v).into()),
        };
        self.emit(MOp::Mov {
            dst,
            src,
            src_type: st,
            dst_type: dt,
            round,
        });
        Ok(())
    }

    /// A descriptor index as cat6 takes it.
    fn desc(&mut self, r: &ir::Resource) -> Result<(u8, MSrc8)> {
        match *r {
            ir::Resource::Bindless { base, index } => {
                let idx = match index {
                    Src::Imm(i) if i < 256 => MSrc8::Imm(i as u8),
                    s => MSrc8::Reg(self.reg(s, false)),
                };
                Ok((base as u8, idx))
            }
            ir::Resource::Binding { .. } => {
                Err(err("descriptors should have been lowered to bindless"))
            }
        }
    }

    /// `offset / 4` as an element index in a register.
    fn dword_index(&mut self, offset: Src) -> Comp {
        // offset = x << 2, or (x << 2) + 4k after reassociation: use x (+ k).
        let shl2 = |s: &Self, v: ir::Value| match s.defs.get(&v) {
            Some(Op::Alu(a)) if a.op == AluOp::Shl && a.srcs[1] == Src::Imm(2) => {
                a.srcs[0].as_val()
            }
            _ => None,
        };
        if let Src::Val(v) = offset {
            if let Some(x) = shl2(self, v) {
                return self.vreg_of(x).into();
            }
            if let Some(Op::Alu(a)) = self.defs.get(&v).cloned() {
                if let (AluOp::IAdd, Src::Val(t), Src::Imm(k)) = (a.op, a.srcs[0], a.srcs[1]) {
                    if let (Some(x), 0) = (shl2(self, t), k % 4) {
                        let r = self.new_reg(false);
                        let x = self.vreg_of(x);
                        let k = self.int_src(Src::Imm(k >> 2), false);
                        self.alu_plain(Opcode::AddU, r.into(), &[MSrc::Reg(x.into()), k], false);
                        return r.into();
                    }
                }
            }
        }
        match offset {
            Src::Imm(i) => self.mov_imm(i >> 2, false),
            s => {
                let r = self.new_reg(false);
                let x = self.reg(s, false);
                self.alu_plain(Opcode::ShrB, r.into(), &[MSrc::Reg(x), MSrc::Imm(2)], false);
                r.into()
            }
        }
    }

    /// Splits an address into a register and a constant that fits the 13-bit offset.
    fn local_address(&mut self, offset: Src) -> (Comp, i32) {
        if let Src::Val(v) = offset {
            if let Some(Op::Alu(a)) = self.defs.get(&v) {
                if a.op == AluOp::IAdd {
                    if let (Src::Val(x), Src::Imm(k)) = (a.srcs[0], a.srcs[1]) {
                        let k = k as u32 as i32 as i64;
                        if fits_local_offset(k) {
                            return (self.vreg_of(x).into(), k as i32);
                        }
                    }
                }
            }
        }
        match offset {
            Src::Imm(i) if fits_local_offset(i as u32 as i32 as i64) => {
                (self.mov_imm(0, false), i as u32 as i32)
            }
            s => (self.reg(s, false), 0),
        }
    }

    /// The register pair `ldg`/`stg` take a 64-bit address in.
    fn global_address(&mut self, lo: Src, hi: Src) -> Comp {
        let pair = self.m.new_vreg(2, false);
        self.copy_into(Comp(pair, 0), lo);
        self.copy_into(Comp(pair, 1), hi);
        Comp(pair, 0)
    }

    fn mem_type(size: BitSize) -> Type {
        if size == BitSize::B16 {
            Type::U16
        } else {
            Type::U32
        }
    }

    fn sel_load(&mut self, dst: Comp, l: &ir::Load) -> Result<()> {
        match &l.space {
            Space::Const => {
                let Src::Imm(off) = l.offset else {
                    return Err(err(
                        "dynamically indexed push constants are not supported yet",
                    ));
                };
                if off % 4 != 0 || l.size != BitSize::B32 {
                    return Err(err("const-file reads must be whole aligned dwords"));
                }
                self.copy(dst, MSrc::Const((off / 4) as u16), false);
            }
            Space::Ssbo(r) => {
                if l.size != BitSize::B32 {
                    return Err(err(format!(
                        "{}-bit storage buffer loads are not supported yet",
                        l.size.bits()
                    )));
                }
                let (base, index) = self.desc(r)?;
                let coord = self.dword_index(l.offset);
                self.emit(MOp::Ibo {
                    op: Opcode::LdibB,
                    ty: Type::U32,
                    typed: false,
                    count: 1,
                    reg: dst,
                    coord,
                    dims: 1,
                    base,
                    index,
                });
            }
            Space::Ubo(r) => {
                if l.size != BitSize::B32 {
                    return Err(err(format!(
                        "{}-bit uniform buffer loads are not supported yet",
                        l.size.bits()
                    )));
                }
                let (base, index) = self.desc(r)?;
                match l.offset {
                    Src::Imm(off) if off / 16 < 256 => {
                        self.emit(MOp::Ldc {
                            dst,
                            offset: MSrc8::Imm((off / 16) as u8),
                            comp: ((off / 4) % 4) as u8,
                            base,
                            index,
                        });
                    }
                    s => {
                        // The component of ldc is an immediate: load all four of the vec4
                        // and pick the one the offset names.
                        let x = self.reg(s, false);
                        let vec4 = self.new_reg(false);
                        self.alu_plain(
                            Opcode::ShrB,
                            vec4.into(),
                            &[MSrc::Reg(x), MSrc::Imm(4)],
                            false,
                        );
                        let comp = self.new_reg(false);
                        let t = self.new_reg(false);
                        self.alu_plain(
                            Opcode::ShrB,
                            t.into(),
                            &[MSrc::Reg(x), MSrc::Imm(2)],
                            false,
                        );
                        self.alu_plain(
                            Opcode::AndB,
                            comp.into(),
                            &[MSrc::Reg(t.into()), MSrc::Imm(3)],
                            false,
                        );
                        let mut acc: Option<Comp> = None;
                        for k in 0..4u8 {
                            let v = self.new_reg(false);
                            self.emit(MOp::Ldc {
                                dst: v.into(),
                                offset: MSrc8::Reg(vec4.into()),
                                comp: k,
                                base,
                                index,
                            });
                            acc = Some(match acc {
                                None => v.into(),
                                Some(prev) => {
                                    let is_k = self.new_reg(false);
                                    self.alu(
                                        Opcode::CmpsU,
                                        is_k.into(),
                                        &[
                                            Self::plain(MSrc::Reg(comp.into())),
                                            Self::plain(MSrc::Imm(k as i32)),
                                        ],
                                        Cond::Eq,
                                        false,
                                    );
                                    let out = if k == 3 {
                                        dst
                                    } else {
                                        self.new_reg(false).into()
                                    };
                                    self.alu_plain(
                                        Opcode::SelB32,
                                        out,
                                        &[
                                            MSrc::Reg(v.into()),
                                            MSrc::Reg(is_k.into()),
                                            MSrc::Reg(prev),
                                        ],
                                        false,
                                    );
                                    out
                                }
                            });
                        }
                    }
                }
            }
            Space::Global { hi } => {
                let addr = self.global_address(l.offset, *hi);
                self.emit(MOp::Global {
                    op: Opcode::Ldg,
                    ty: Self::mem_type(l.size),
                    reg: dst,
                    addr,
                });
            }
            Space::Shared | Space::Scratch => {
                let (addr, offset) = self.local_address(l.offset);
                let op = if l.space == Space::Shared {
                    Opcode::Ldl
                } else {
                    Opcode::Ldp
                };
                self.emit(MOp::Local {
                    op,
                    ty: Self::mem_type(l.size),
                    reg: dst,
                    addr,
                    offset,
                });
            }
            Space::PushConst | Space::Local(_) => {
                return Err(err(format!("{} loads should have been lowered", l.space)))
            }
        }
        Ok(())
    }

    fn sel_store(&mut self, st: &ir::Store) -> Result<()> {
        let half = st.size == BitSize::B16;
        match &st.space {
            Space::Ssbo(r) => {
                if st.size != BitSize::B32 {
                    return Err(err(format!(
                        "{}-bit storage buffer stores are not supported yet",
                        st.size.bits()
                    )));
                }
                let (base, index) = self.desc(r)?;
                let coord = self.dword_index(st.offset);
                let value = self.reg(st.value, false);
                self.emit(MOp::Ibo {
                    op: Opcode::StibB,
                    ty: Type::U32,
                    typed: false,
                    count: 1,
                    reg: value,
                    coord,
                    dims: 1,
                    base,
                    index,
                });
            }
            Space::Global { hi } => {
                let addr = self.global_address(st.offset, *hi);
                let value = self.reg(st.value, half);
                self.emit(MOp::Global {
                    op: Opcode::Stg,
                    ty: Self::mem_type(st.size),
                    reg: value,
                    addr,
                });
            }
            Space::Shared | Space::Scratch => {
                let (addr, offset) = self.local_address(st.offset);
                let value = self.reg(st.value, half);
                let op = if st.space == Space::Shared {
                    Opcode::Stl
                } else {
                    Opcode::Stp
                };
                self.emit(MOp::Local {
                    op,
                    ty: Self::mem_type(st.size),
                    reg: value,
                    addr,
                    offset,
                });
            }
            s => return Err(err(format!("stores to {s} are not possible"))),
        }
        Ok(())
    }

    fn sel_atomic(&mut self, dst: Comp, a: &ir::Atomic) -> Result<()> {
        if a.size != BitSize::B32 {
            return Err(err("only 32-bit atomics are supported"));
        }
        let ty = atomic_type(a.op);
        let cmpxchg = a.op == ir::AtomicOp::CompareExchange;
        match &a.space {
            Space::Ssbo(r) => {
                let (base, index) = self.desc(r)?;
                let coord = self.dword_index(a.offset);
                let atomic = IboAtomic {
                    op: a.op,
                    typed: false,
                    base,
                    index,
                    coord,
                    dims: 1,
                    data: a.data,
                    compare: a.compare,
                };
                self.ibo_atomic(dst, &atomic);
            }
            Space::Shared | Space::Global { .. } => {
                // atomic.* on shared memory (.l), atomic.g.* at a device address.
                let (local, global) = match a.op {
                    ir::AtomicOp::Add => (Opcode::AtomicAdd, Opcode::AtomicGAdd),
                    ir::AtomicOp::SMin | ir::AtomicOp::UMin => {
                        (Opcode::AtomicMin, Opcode::AtomicGMin)
                    }
                    ir::AtomicOp::SMax | ir::AtomicOp::UMax => {
                        (Opcode::AtomicMax, Opcode::AtomicGMax)
                    }
                    ir::AtomicOp::And => (Opcode::AtomicAnd, Opcode::AtomicGAnd),
                    ir::AtomicOp::Or => (Opcode::AtomicOr, Opcode::AtomicGOr),
                    ir::AtomicOp::Xor => (Opcode::AtomicXor, Opcode::AtomicGXor),
                    ir::AtomicOp::Exchange => (Opcode::AtomicXchg, Opcode::AtomicGXchg),
                    ir::AtomicOp::CompareExchange => {
                        (Opcode::AtomicCmpxchg, Opcode::AtomicGCmpxchg)
                    }
                };
                let data = if cmpxchg {
                    // The value to store, then the comparator.
                    let g = self.m.new_vreg(2, false);
                    self.copy_into(Comp(g, 0), a.data);
                    self.copy_into(Comp(g, 1), a.compare.unwrap_or(Src::Imm(0)));
                    Comp(g, 0)
                } else {
                    self.reg(a.data, false)
                };
                if let Space::Global { hi } = a.space {
                    let addr = self.global_address(a.offset, hi);
                    self.emit(MOp::GlobalAtomic {
                        op: global,
                        ty,
                        dst,
                        addr,
                        data,
                    });
                } else {
                    let addr = self.reg(a.offset, false);
                    self.emit(MOp::LocalAtomic {
                        op: local,
                        ty,
                        dst,
                        addr,
                        data,
                    });
                }
            }
            s => return Err(err(format!("atomics on {s} are not supported"))),
        }
        Ok(())
    }

    /// `dst` = the old value: the instruction names a register group of the destination,
    /// the data, then the comparator of a compare-exchange.
    fn ibo_atomic(&mut self, dst: Comp, a: &IboAtomic) {
        let group = self
            .m
            .new_vreg(if a.compare.is_some() { 3 } else { 2 }, false);
        self.copy_into(Comp(group, 1), a.data);
        if let Some(c) = a.compare {
            self.copy_into(Comp(group, 2), c);
        }
        self.emit(MOp::Ibo {
            op: ibo_atomic_opcode(a.op),
            ty: atomic_type(a.op),
            typed: a.typed,
            count: 1,
            reg: Comp(group, 0),
            coord: a.coord,
            dims: a.dims,
            base: a.base,
            index: a.index,
        });
        self.mov(dst, Comp(group, 0));
    }

    /// A full-register copy.
    fn mov(&mut self, dst: Comp, src: Comp) {
        self.copy(dst, MSrc::Reg(src), false);
    }

    fn copy_into(&mut self, dst: Comp, s: Src) {
        self.copy_value(dst, s, false);
    }

    fn copy_value(&mut self, dst: Comp, s: Src, half: bool) {
        let src = match s {
            Src::Imm(i) => MSrc::Imm(i as u32 as i32),
            Src::Val(v) => MSrc::Reg(self.vreg_of(v).into()),
        };
        self.copy(dst, src, half);
    }

    fn sel_instr(&mut self, instr: &ir::Instr) -> Result<()> {
        let dst = instr.dst.map(|d| Comp::from(self.vreg_of(d)));
        let need = || dst.ok_or_else(|| err("an operation's result has no value"));
        match &instr.op {
            Op::Alu(a) => self.sel_alu(need()?, a)?,
            Op::Convert(c) => self.sel_convert(need()?, c)?,
            Op::Output(o) => self.sel_output(o)?,
            Op::Kill => {
                let always = self.new_reg(false);
                self.copy(always.into(), MSrc::Imm(1), false);
                self.emit(MOp::Kill {
                    cond: always.into(),
                });
            }
            Op::SysVal(s) => {
                let d = need()?;
                if self.sel_graphics_input(d, s)?.is_some() {
                    return Ok(());
                }
                let src = match s {
                    SysVal::LocalInvocationId(c) => MSrc::Fixed(INPUT_REGS.local_id + c),
                    SysVal::WorkgroupId(c) => MSrc::Fixed(INPUT_REGS.workgroup_id + c),
                    SysVal::SubgroupInvocationId => {
                        self.fiber_id(d);
                        return Ok(());
                    }
                    other => {
                        return Err(err(format!(
                            "system value {other} is not supported by the back end yet"
                        )))
                    }
                };
                if let MSrc::Fixed(r) = src {
                    if !self.m.fixed_inputs.contains(&r) {
                        self.m.fixed_inputs.push(r);
                    }
                }
                self.copy(d, src, false);
            }
            Op::Load(l) => self.sel_load(need()?, l)?,
            Op::Store(s) => self.sel_store(s)?,
            Op::Atomic(a) => {
                let d = match dst {
                    Some(d) => d,
                    None => self.new_reg(false).into(),
                };
                self.sel_atomic(d, a)?
            }
            Op::Barrier(b) => self.sel_barrier(b),
            Op::BufferSize(r) => {
                let (base, index) = self.desc(r)?;
                let group = self.m.new_vreg(3, false);
                self.emit(MOp::Resinfo {
                    dst: Comp(group, 0),
                    dims: 1,
                    base,
                    index,
                });
                // .x is the size in elements of the descriptor's format; the driver writes
                // storage buffers as 32-bit elements.
                self.alu_plain(
                    Opcode::ShlB,
                    need()?,
                    &[MSrc::Reg(Comp(group, 0)), MSrc::Imm(2)],
                    false,
                );
            }
            Op::Undef => {
                let d = need()?;
                let half = self.m.info(d.0).half;
                self.copy_value(d, Src::Imm(0), half);
            }
            Op::TexelLoad(_) => {
                return Err(err("a texel load is selected with the loads of its block"))
            }
            Op::TexelStore(t) => self.sel_texel_store(t)?,
            Op::TexelAtomic(a) => {
                let d = match dst {
                    Some(d) => d,
                    None => self.new_reg(false).into(),
                };
                self.sel_texel_atomic(d, a)?
            }
            Op::TexelSize(_) => {
                return Err(err("a size query is selected with the others of its block"))
            }
            Op::Subgroup(g) => self.sel_subgroup(need()?, g)?,
        }
        Ok(())
    }
}

/// Selects ir3 operations for a lowered, optimised shader; also returns where a graphics
/// shader's inputs and outputs are.
pub fn select(shader: &ir::Shader, gen: parsnip_isa::IsaGen) -> Result<(MShader, io::IoPlan)> {
    let n = shader.blocks.len();
    let mut s = Sel {
        ir: shader,
        m: MShader {
            blocks: vec![
                MBlock {
                    instrs: Vec::new(),
                    term: MTerm::End
                };
                n
            ],
            vregs: Vec::new(),
            fixed_inputs: Vec::new(),
            outputs: Vec::new(),
        },
        vals: HashMap::new(),
        defs: HashMap::new(),
        cur: 0,
        phi_temps: HashMap::new(),
        texel_loaded: HashSet::new(),
        io: io::IoPlan::default(),
        gen,
    };
    s.io = io::plan(shader, &mut s.m)?;
    s.m.outputs = s.io.outputs.values().map(|o| o.vreg).collect();
    for block in &shader.blocks {
        for instr in &block.instrs {
            if let Some(d) = instr.dst {
                s.defs.insert(d, instr.op.clone());
            }
        }
        for phi in &block.phis {
            let half = shader.value_size(phi.dst) == BitSize::B16;
            let t = s.m.new_vreg(1, half);
            s.phi_temps.insert(phi.dst, t);
        }
    }
    for b in 0..n {
        s.cur = b;
        let block = &shader.blocks[b];
        for phi in &block.phis {
            let half = shader.value_size(phi.dst) == BitSize::B16;
            let d = s.vreg_of(phi.dst);
            let t = s.phi_temps[&phi.dst];
            s.copy(d.into(), MSrc::Reg(t.into()), half);
        }
        for (i, instr) in block.instrs.iter().enumerate() {
            if let Op::TexelLoad(_) = instr.op {
                s.sel_texel_load(&block.instrs, i)?;
            } else if let Op::TexelSize(_) = instr.op {
                s.sel_texel_size(&block.instrs, i)?;
            } else {
                s.sel_instr(instr)?;
            }
        }
        // Phi temporaries of the successors, written before the terminator.
        for succ in block.term.successors() {
            for phi in &shader.block(succ).phis {
                let half = shader.value_size(phi.dst) == BitSize::B16;
                if let Some((_, src)) = phi.srcs.iter().find(|(p, _)| p.index() == b) {
                    let t = s.phi_temps[&phi.dst];
                    s.copy_value(t.into(), *src, half);
                }
            }
        }
        let term = match &block.term {
            Terminator::Jump(t) => MTerm::Jump(t.index()),
            Terminator::Return => MTerm::End,
            Terminator::Unreachable => MTerm::End,
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => {
                let c = s.reg(*cond, false);
                MTerm::Branch {
                    cond: c,
                    then_block: then_block.index(),
                    else_block: else_block.index(),
                }
            }
            Terminator::Switch {
                selector,
                size,
                cases,
                default,
            } => {
                // A chain of compares, each in its own block.
                let half = *size == BitSize::B16;
                let sel = s.reg(*selector, half);
                let mut here = b;
                let mut term = MTerm::Jump(default.index());
                for (i, (v, target)) in cases.iter().enumerate() {
                    s.cur = here;
                    let c = s.new_reg(false);
                    let imm = s.int_src(Src::Imm(*v), half);
                    s.alu(
                        Opcode::CmpsU,
                        c.into(),
                        &[Sel::plain(MSrc::Reg(sel)), Sel::plain(imm)],
                        Cond::Eq,
                        half,
                    );
                    let next = if i + 1 == cases.len() {
                        default.index()
                    } else {
                        s.m.blocks.push(MBlock {
                            instrs: Vec::new(),
                            term: MTerm::End,
                        });
                        s.m.blocks.len() - 1
                    };
                    let t = MTerm::Branch {
                        cond: c.into(),
                        then_block: target.index(),
                        else_block: next,
                    };
                    if here == b {
                        term = t;
                    } else {
                        s.m.blocks[here].term = t;
                    }
                    here = next;
                }
                s.cur = b;
                term
            }
        };
        s.m.blocks[b].term = term;
    }
    Ok((s.m, s.io))
}
