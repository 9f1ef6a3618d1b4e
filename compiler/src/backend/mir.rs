//! The machine IR between instruction selection and encoding: ir3 operations on virtual
//! registers, in blocks with explicit control flow. After register allocation every
//! virtual register has a physical one and [`super::emit`] builds `parsnip_isa` instructions.

use parsnip_isa::{Cond, Opcode, Round, Type};
use smallvec::SmallVec;

/// A virtual register: one scalar, or a group of consecutive scalars (the operand of
/// atomics that name a register vector).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VRegInfo {
    /// Consecutive scalars.
    pub size: u8,
    /// Read and written as half (16-bit) registers: in the merged register file of
    /// a6xx/a7xx, half register 2k is the low half of full scalar k (Mesa's ir3 RA).
    pub half: bool,
}

/// A scalar component of a virtual register.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comp(pub VReg, pub u8);

impl From<VReg> for Comp {
    fn from(v: VReg) -> Comp {
        Comp(v, 0)
    }
}

/// An ALU source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MSrc {
    Reg(Comp),
    /// An immediate that fits the instruction's immediate field.
    Imm(i32),
    /// A const-file component `c[n / 4].xyzw[n % 4]`.
    Const(u16),
    /// A register the hardware wrote before the shader started (local ids, workgroup id).
    Fixed(u8),
}

/// A cat6 operand that is a register or an 8-bit immediate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MSrc8 {
    Reg(Comp),
    Imm(u8),
}

/// Which texture and sampler of a bindless set a texture instruction names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TexSlot {
    /// Both below 16: held in the instruction.
    Imm { tex: u8, samp: u8 },
    /// The first of two registers holding the texture's index and the sampler's.
    Reg(Comp),
    /// No texture: the cat5 instructions that only compute (`dsx`, `dsy`, ...).
    None,
}

/// Source modifiers of an ALU source.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    pub neg: bool,
    pub abs: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MOp {
    /// cat2 (one or two sources) and cat3 (three sources).
    Alu {
        op: Opcode,
        dst: Comp,
        srcs: SmallVec<[(MSrc, Mods); 3]>,
        cond: Cond,
        sat: bool,
        /// Operates on half registers.
        half: bool,
    },
    /// cat1 `mov`/`cov`.
    Mov {
        dst: Comp,
        src: MSrc,
        src_type: Type,
        dst_type: Type,
        round: Round,
    },
    /// cat4.
    Sfu {
        op: Opcode,
        dst: Comp,
        src: Comp,
        half: bool,
    },
    /// `ldib.b`/`stib.b`/`atomic.b.*` on a bindless storage buffer, storage texel buffer
    /// or storage image: `reg` is the first of `count` destinations (load) or values
    /// (store), or the group (destination, data [, comparator]) of an atomic; `coord` the
    /// first of `dims` consecutive coordinates: the element index (untyped), or the
    /// texel's coordinates (`typed`: converted through the view's format).
    Ibo {
        op: Opcode,
        ty: Type,
        typed: bool,
        count: u8,
        reg: Comp,
        coord: Comp,
        dims: u8,
        base: u8,
        index: MSrc8,
    },
    /// A texture instruction (`isam`, `isaml`, `saml`, `getsize`, `getinfo`, `getbuf`) on
    /// a bindless texture and sampler of set `base`: the components `wrmask` enables are
    /// written to consecutive registers from `dst`; `coords` is the first of the given
    /// number of consecutive registers of the first source (coordinates, then the layer
    /// of an array), `src2` the given number of consecutive registers of the second
    /// source (offsets, then a level of detail or bias); `is_3d`, `array`, `offset` and
    /// `shadow` are the `.3d`, `.a`, `.o` and `.s` flags.
    Tex {
        op: Opcode,
        ty: Type,
        wrmask: u8,
        dst: Comp,
        coords: Option<(Comp, u8)>,
        src2: Option<(Comp, u8)>,
        is_3d: bool,
        array: bool,
        offset: bool,
        shadow: bool,
        base: u8,
        index: TexSlot,
    },
    /// `ldl`/`stl` (shared) and `ldp`/`stp` (private): `reg` is the destination or
    /// value; the address is `addr` + `offset` bytes.
    Local {
        op: Opcode,
        ty: Type,
        reg: Comp,
        addr: Comp,
        offset: i32,
    },
    /// `atomic.*` on shared memory: `dst` = old value of `l[addr]`, `data` the operand
    /// (for compare-exchange a group (data, comparator)).
    LocalAtomic {
        op: Opcode,
        ty: Type,
        dst: Comp,
        addr: Comp,
        data: Comp,
    },
    /// `ldc`: one component of a uniform buffer, at vec4 `offset` component `comp`.
    Ldc {
        dst: Comp,
        offset: MSrc8,
        comp: u8,
        base: u8,
        index: MSrc8,
    },
    /// `resinfo.b` of a storage buffer into a group of three.
    Resinfo {
        dst: Comp,
        dims: u8,
        base: u8,
        index: MSrc8,
    },
    /// `kill`: the fibers where `cond` (a 0/1 value) is non-zero stop (legalisation
    /// moves `cond` to p0.x).
    Kill { cond: Comp },
    /// `bar` (execution), `fence` (memory) or `ccinv` (the a7xx cache invalidation),
    /// with their `.g`, `.l`, `.r`, `.w` flags.
    Barrier {
        op: Opcode,
        g: bool,
        l: bool,
        r: bool,
        w: bool,
    },
    /// `ldg`/`stg` of one value at the 64-bit address in the register pair `addr`
    /// (a group of two: low, high): `reg` is the destination or the value.
    Global {
        op: Opcode,
        ty: Type,
        reg: Comp,
        addr: Comp,
    },
    /// `atomic.g.*` at the 64-bit address in the register pair `addr`: `dst` = the old
    /// value, `data` the operand (for compare-exchange a group (data, comparator)).
    GlobalAtomic {
        op: Opcode,
        ty: Type,
        dst: Comp,
        addr: Comp,
        data: Comp,
    },
    /// `getfiberid`: the fiber's index in its wave.
    FiberId { dst: Comp },
    /// `quad_shuffle.brcst` (`lane` names the quad's fiber) or `.horiz`/`.vert`/`.diag`:
    /// `src` of another fiber of the fiber's quad.
    QuadShuffle {
        op: Opcode,
        dst: Comp,
        src: Comp,
        lane: Option<Comp>,
    },
    /// A subgroup operation the hardware does with flow control inside (Mesa's ir3
    /// `*.macro` instructions), written out when the program is laid out
    /// (`backend::subgroup_macro`): reads `src` (a value or a 0/1 condition), writes
    /// `dst`.
    SubgroupMacro {
        kind: SubgroupMacro,
        dst: Comp,
        src: Option<Comp>,
    },
}

/// What a [`MOp::SubgroupMacro`] computes; operands are 32-bit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SubgroupMacro {
    /// 1 in the first active fiber, 0 in the others (`getone`).
    Elect,
    /// Whether `src` is non-zero in any / every active fiber (`bany` / `ball`).
    Vote { all: bool },
    /// Dword `dword` of the mask of active fibers whose `src` is non-zero (`movmsk`
    /// in the fibers where it is).
    Ballot { dword: u8 },
    /// `src` of the first active fiber (`getone`, then a move to a shared register).
    ReadFirst,
    /// `src` of the fiber whose `cond` is non-zero (a group of two: value, condition).
    ReadCond,
    /// A reduction or scan: the first active fiber adds its `src` to a shared
    /// accumulator, leaves, and the others elect again (`getone` in a loop).
    Scan { op: ScanOp, kind: ScanKind },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScanOp {
    AddU,
    MulU,
    MinU,
    MaxU,
    MinS,
    MaxS,
    And,
    Or,
    Xor,
    AddF,
    MulF,
    MinF,
    MaxF,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScanKind {
    Reduce,
    Inclusive,
    Exclusive,
}

impl MOp {
    /// Components read.
    pub fn uses(&self) -> SmallVec<[Comp; 4]> {
        let mut u = SmallVec::new();
        let src8 = |s: &MSrc8, u: &mut SmallVec<[Comp; 4]>| {
            if let MSrc8::Reg(c) = s {
                u.push(*c);
            }
        };
        match self {
            MOp::Alu { srcs, .. } => {
                for (s, _) in srcs {
                    if let MSrc::Reg(c) = s {
                        u.push(*c);
                    }
                }
            }
            MOp::Mov { src, .. } => {
                if let MSrc::Reg(c) = src {
                    u.push(*c);
                }
            }
            MOp::Sfu { src, .. } => u.push(*src),
            MOp::Ibo {
                op,
                reg,
                coord,
                index,
                count,
                dims,
                ..
            } => {
                for k in 0..*dims {
                    u.push(Comp(coord.0, coord.1 + k));
                }
                src8(index, &mut u);
                if *op == Opcode::StibB {
                    for k in 0..*count {
                        u.push(Comp(reg.0, reg.1 + k));
                    }
                } else if *op != Opcode::LdibB {
                    // Atomics read the data (and comparand) after the destination slot.
                    u.push(Comp(reg.0, reg.1 + 1));
                    if *op == Opcode::AtomicBCmpxchg {
                        u.push(Comp(reg.0, reg.1 + 2));
                    }
                }
            }
            MOp::Local { op, reg, addr, .. } => {
                u.push(*addr);
                if matches!(op, Opcode::Stl | Opcode::Stp) {
                    u.push(*reg);
                }
            }
            MOp::LocalAtomic { op, addr, data, .. } => {
                u.push(*addr);
                u.push(*data);
                if *op == Opcode::AtomicCmpxchg {
                    u.push(Comp(data.0, data.1 + 1));
                }
            }
            MOp::Ldc { offset, index, .. } => {
                src8(offset, &mut u);
                src8(index, &mut u);
            }
            MOp::Resinfo { index, .. } => src8(index, &mut u),
            MOp::Tex {
                coords,
                src2,
                index,
                ..
            } => {
                if let Some((c, n)) = coords {
                    for k in 0..*n {
                        u.push(Comp(c.0, c.1 + k));
                    }
                }
                if let Some((c, n)) = src2 {
                    for k in 0..*n {
                        u.push(Comp(c.0, c.1 + k));
                    }
                }
                if let TexSlot::Reg(c) = index {
                    u.push(*c);
                    u.push(Comp(c.0, c.1 + 1));
                }
            }
            MOp::Kill { cond } => u.push(*cond),
            MOp::Barrier { .. } | MOp::FiberId { .. } => {}
            MOp::GlobalAtomic { op, addr, data, .. } => {
                u.push(*addr);
                u.push(Comp(addr.0, addr.1 + 1));
                u.push(*data);
                if *op == Opcode::AtomicGCmpxchg {
                    u.push(Comp(data.0, data.1 + 1));
                }
            }
            MOp::Global { op, reg, addr, .. } => {
                u.push(*addr);
                u.push(Comp(addr.0, addr.1 + 1));
                if *op == Opcode::Stg {
                    u.push(*reg);
                }
            }
            MOp::QuadShuffle { src, lane, .. } => {
                u.push(*src);
                if let Some(l) = lane {
                    u.push(*l);
                }
            }
            MOp::SubgroupMacro {
                kind,
                src: Some(src),
                ..
            } => {
                u.push(*src);
                if *kind == SubgroupMacro::ReadCond {
                    u.push(Comp(src.0, src.1 + 1));
                }
            }
            MOp::SubgroupMacro { src: None, .. } => {}
        }
        u
    }

    /// Components written.
    pub fn defs(&self) -> SmallVec<[Comp; 3]> {
        let mut d = SmallVec::new();
        match self {
            MOp::Alu { dst, .. }
            | MOp::Mov { dst, .. }
            | MOp::Sfu { dst, .. }
            | MOp::FiberId { dst }
            | MOp::QuadShuffle { dst, .. }
            | MOp::SubgroupMacro { dst, .. } => d.push(*dst),
            MOp::Ibo {
                op: Opcode::LdibB,
                reg,
                count,
                ..
            } => {
                for k in 0..*count {
                    d.push(Comp(reg.0, reg.1 + k));
                }
            }
            MOp::Ibo { op, reg, .. } if *op != Opcode::StibB => d.push(*reg),
            MOp::Tex { wrmask, dst, .. } => {
                for k in 0..wrmask.count_ones() as u8 {
                    d.push(Comp(dst.0, dst.1 + k));
                }
            }
            MOp::Local {
                op: Opcode::Ldl | Opcode::Ldp,
                reg,
                ..
            } => d.push(*reg),
            MOp::LocalAtomic { dst, .. } | MOp::GlobalAtomic { dst, .. } | MOp::Ldc { dst, .. } => {
                d.push(*dst)
            }
            MOp::Global {
                op: Opcode::Ldg,
                reg,
                ..
            } => d.push(*reg),
            MOp::Resinfo { dst, .. } => {
                for k in 0..3 {
                    d.push(Comp(dst.0, dst.1 + k));
                }
            }
            _ => {}
        }
        d
    }

    /// Every component operand, for renaming.
    pub fn for_each_comp_mut(&mut self, mut f: impl FnMut(&mut Comp)) {
        let src8 = |s: &mut MSrc8, f: &mut dyn FnMut(&mut Comp)| {
            if let MSrc8::Reg(c) = s {
                f(c);
            }
        };
        match self {
            MOp::Alu { dst, srcs, .. } => {
                f(dst);
                for (s, _) in srcs {
                    if let MSrc::Reg(c) = s {
                        f(c);
                    }
                }
            }
            MOp::Mov { dst, src, .. } => {
                f(dst);
                if let MSrc::Reg(c) = src {
                    f(c);
                }
            }
            MOp::Sfu { dst, src, .. } => {
                f(dst);
                f(src);
            }
            MOp::Ibo {
                reg, coord, index, ..
            } => {
                f(reg);
                f(coord);
                src8(index, &mut f);
            }
            MOp::Local { reg, addr, .. } => {
                f(reg);
                f(addr);
            }
            MOp::LocalAtomic {
                dst, addr, data, ..
            } => {
                f(dst);
                f(addr);
                f(data);
            }
            MOp::Ldc {
                dst, offset, index, ..
            } => {
                f(dst);
                src8(offset, &mut f);
                src8(index, &mut f);
            }
            MOp::Resinfo { dst, index, .. } => {
                f(dst);
                src8(index, &mut f);
            }
            MOp::Tex {
                dst,
                coords,
                src2,
                index,
                ..
            } => {
                f(dst);
                if let Some((c, _)) = coords {
                    f(c);
                }
                if let Some((c, _)) = src2 {
                    f(c);
                }
                if let TexSlot::Reg(c) = index {
                    f(c);
                }
            }
            MOp::Kill { cond } => f(cond),
            MOp::Barrier { .. } => {}
            MOp::FiberId { dst } => f(dst),
            MOp::GlobalAtomic {
                dst, addr, data, ..
            } => {
                f(dst);
                f(addr);
                f(data);
            }
            MOp::Global { reg, addr, .. } => {
                f(reg);
                f(addr);
            }
            MOp::QuadShuffle { dst, src, lane, .. } => {
                f(dst);
                f(src);
                if let Some(l) = lane {
                    f(l);
                }
            }
            MOp::SubgroupMacro { dst, src, .. } => {
                f(dst);
                if let Some(s) = src {
                    f(s);
                }
            }
        }
    }

    /// Whether the instruction's effect goes beyond its destination (memory, barriers).
    pub fn has_side_effects(&self) -> bool {
        match self {
            MOp::Ibo { op, .. } => *op != Opcode::LdibB,
            MOp::Local { op, .. } => matches!(op, Opcode::Stl | Opcode::Stp),
            MOp::Global { op, .. } => *op == Opcode::Stg,
            MOp::LocalAtomic { .. }
            | MOp::GlobalAtomic { .. }
            | MOp::Barrier { .. }
            | MOp::Kill { .. } => true,
            // Which fibers run it is part of its result: it stays where it is.
            MOp::SubgroupMacro { .. } | MOp::QuadShuffle { .. } => true,
            _ => false,
        }
    }

    /// Whether it reads memory (so it must stay ordered after stores and barriers).
    pub fn reads_memory(&self) -> bool {
        matches!(
            self,
            MOp::Ibo { .. }
                | MOp::Local { .. }
                | MOp::Global { .. }
                | MOp::GlobalAtomic { .. }
                | MOp::LocalAtomic { .. }
                | MOp::Barrier { .. }
                | MOp::Tex {
                    op: Opcode::Isam | Opcode::Isaml | Opcode::Saml,
                    ..
                }
        )
    }

    /// The opcode, for latency questions.
    pub fn opcode(&self) -> Opcode {
        match self {
            MOp::Alu { op, .. }
            | MOp::Sfu { op, .. }
            | MOp::Ibo { op, .. }
            | MOp::Local { op, .. }
            | MOp::Global { op, .. }
            | MOp::GlobalAtomic { op, .. }
            | MOp::LocalAtomic { op, .. }
            | MOp::Tex { op, .. }
            | MOp::Barrier { op, .. } => *op,
            MOp::Mov { .. } => Opcode::Mov,
            MOp::Ldc { .. } => Opcode::Ldc,
            MOp::FiberId { .. } => Opcode::Getfiberid,
            MOp::QuadShuffle { op, .. } => *op,
            // Its first instructions read the operands as cat1/cat2 do, and its result
            // is written by a move.
            MOp::SubgroupMacro { .. } => Opcode::Mov,
            MOp::Resinfo { .. } => Opcode::ResinfoB,
            MOp::Kill { .. } => Opcode::Kill,
        }
    }
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq)]
pub enum MTerm {
    Jump(usize),
    /// To `then_block` if `cond` (a 0/1 value) is non-zero.
    Branch {
        cond: Comp,
        then_block: usize,
        else_block: usize,
    },
    End,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MBlock {
    pub instrs: Vec<MOp>,
    pub term: MTerm,
}

/// A shader in machine IR.
#[derive(Clone, Debug, PartialEq)]
pub struct MShader {
    pub blocks: Vec<MBlock>,
    pub vregs: Vec<VRegInfo>,
    /// Hardware-written registers read by `MSrc::Fixed` operands (kept free until their
    /// last read).
    pub fixed_inputs: Vec<u8>,
    /// Register groups read at `end`: a graphics shader's outputs.
    pub outputs: Vec<VReg>,
}

impl MShader {
    pub fn new_vreg(&mut self, size: u8, half: bool) -> VReg {
        self.vregs.push(VRegInfo { size, half });
        VReg(self.vregs.len() as u32 - 1)
    }

    pub fn info(&self, v: VReg) -> VRegInfo {
        self.vregs[v.0 as usize]
    }

    pub fn successors(&self, b: usize) -> Vec<usize> {
        match self.blocks[b].term {
            MTerm::Jump(t) => vec![t],
            MTerm::Branch {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            MTerm::End => vec![],
        }
    }
}

/// Removes operations without side effects whose results nothing reads (left behind by
/// selection, e.g. a byte offset whose element index was taken from its operand).
pub fn remove_dead(m: &mut MShader) {
    loop {
        let mut used = vec![false; m.vregs.len()];
        for b in &m.blocks {
            for op in &b.instrs {
                for u in op.uses() {
                    used[u.0 .0 as usize] = true;
                }
            }
            if let MTerm::Branch { cond, .. } = &b.term {
                used[cond.0 .0 as usize] = true;
            }
        }
        for o in &m.outputs {
            used[o.0 as usize] = true;
        }
        let mut changed = false;
        for b in &mut m.blocks {
            let before = b.instrs.len();
            b.instrs.retain(|op| {
                op.has_side_effects() || op.defs().iter().any(|d| used[d.0 .0 as usize])
            });
            changed |= b.instrs.len() != before;
        }
        if !changed {
            break;
        }
    }
}
