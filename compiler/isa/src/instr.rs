//! The typed instruction: one struct per encoding family, gathered in [`Op`].
//!
//! Every field an interpreter needs is here, decoded: register numbers with
//! their precision, const, relative and immediate sources, repeat counts and
//! `(r)` flags, nop counts, sync flags, branch targets, texture descriptors,
//! memory addressing, atomics and barriers. A field that an opcode does not
//! use must hold its default value; [`crate::encode`] refuses anything its
//! encoding cannot hold, so that `decode(encode(x)) == x` for every `x` that
//! encodes. Nothing here depends on the generation except which encodings
//! exist ([`GlobalAddr`], [`A1Imm`]), so an instruction prints the same on
//! both.

use crate::opcode::Opcode;
use crate::operand::{Operand, Reg};
use crate::types::{Cond, Round, Type};

/// One ir3 instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// `(sy)`: wait for outstanding texture/memory results first.
    pub sy: bool,
    /// `(ss)`: wait for outstanding SFU (and local memory) results first.
    /// cat5 and cat6 have no such bit.
    pub ss: bool,
    /// `(jp)`: a jump target, where diverged fibers reconverge.
    pub jp: bool,
    pub op: Op,
}

impl Instr {
    pub fn new(op: Op) -> Instr {
        Instr {
            sy: false,
            ss: false,
            jp: false,
            op,
        }
    }

    /// The instruction's opcode.
    pub fn opcode(&self) -> Opcode {
        match &self.op {
            Op::Flow(x) => x.op,
            Op::Mov(_) => Opcode::Mov,
            Op::MovMsk(_) => Opcode::Movmsk,
            Op::MovMulti(x) => x.op,
            Op::Alu(x) => x.op,
            Op::Alu3(x) => x.op,
            Op::Sfu(x) => x.op,
            Op::Tex(x) => x.op,
            Op::Mem(m) => m.opcode(),
            Op::Barrier(x) => x.op,
            Op::Cache(x) => x.op,
            Op::Sleep(_) => Opcode::Sleep,
            Op::Alias(_) => Opcode::Alias,
            Op::Bare(op) => *op,
        }
    }
}

/// The operation and operands, by encoding family.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// cat0: nops, branches, ends, predication, preamble markers.
    Flow(Flow),
    /// cat1 `mov`/`cov`/`mova`/`mova1`.
    Mov(Mov),
    /// cat1 `movmsk`.
    MovMsk(MovMsk),
    /// cat1 `swz`/`gat`/`sct`.
    MovMulti(MovMulti),
    /// cat2.
    Alu(Alu),
    /// cat3.
    Alu3(Alu3),
    /// cat4.
    Sfu(Sfu),
    /// cat5 texture, derivative and subgroup operations.
    Tex(Tex),
    /// cat6.
    Mem(Mem),
    /// cat7 `bar`/`fence`.
    Barrier(Barrier),
    /// cat7 `dccln`/`dcinv`/`dcflu`.
    Cache(CacheOp),
    /// cat7 `sleep`.
    Sleep(Sleep),
    /// cat7 `alias` (a7xx).
    Alias(Alias),
    /// Instructions with no operand: `tcinv`, `icinv`, `ccinv`, `lock`, `unlock`.
    Bare(Opcode),
}

/// A predicate condition of cat0: `p0.<comp>`, inverted by `!`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pred {
    pub comp: u8,
    pub inv: bool,
}

/// cat0. Which fields an opcode uses:
/// - `nop` .. `prede` (no operand): `repeat`, `eq`;
/// - `kill`: `pred`, `eq`;
/// - `br`, `bany`, `ball`: `pred`, `target`, `eq`;
/// - `brao`, `braa`: `pred`, `pred2`, `target`, `eq`;
/// - `brac`: `index`, `target`, `eq`; `brax`: `target`, `eq`;
/// - `jump`, `call`, `bkt`, `getone`, `shps`: `target`;
/// - `getlast`: `cluster`, `target`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Flow {
    pub op: Opcode,
    /// `(rptN)`, 0..=7: for `nop`, N + 1 nops.
    pub repeat: u8,
    pub eq: bool,
    /// Branch target relative to this instruction, in instructions.
    pub target: i32,
    pub pred: Option<Pred>,
    pub pred2: Option<Pred>,
    /// `brac.N`.
    pub index: u8,
    /// `getlast.wN`: the `W` field; the cluster size is `2 << W`.
    pub cluster: u8,
}

impl Flow {
    pub fn new(op: Opcode) -> Flow {
        Flow {
            op,
            repeat: 0,
            eq: false,
            target: 0,
            pred: None,
            pred2: None,
            index: 0,
            cluster: 0,
        }
    }
}

/// The destination of a cat1 move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovDst {
    Reg(u8),
    /// `r<a0.x + off>`, an unsigned 8-bit offset.
    Rel(u8),
}

/// `mov`/`cov` (cat1 opcode 0): convert `src` from `src_type` to `dst_type`.
/// The precision of the destination and of a register source follow their
/// types ([`Type::is_half_cat1`]); `src.half` must agree. An immediate source
/// holds the bits of the value in `src_type` (16 of them for f16 and s16).
/// Only `r` and `last` modifiers exist (and `r` on an immediate only in the
/// `mova`/`mova1` forms).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mov {
    pub src_type: Type,
    pub dst_type: Type,
    pub dst: MovDst,
    pub src: Operand,
    /// `(rptN)`, 0..=3.
    pub repeat: u8,
    pub ul: bool,
    pub round: Round,
}

/// `movmsk.wN`: writes the execution mask; N = (repeat + 1) * 32 bits over
/// `repeat + 1` registers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MovMsk {
    pub dst: MovDst,
    pub repeat: u8,
    pub ul: bool,
}

/// `swz` (2 sources to 2 destinations), `gat` (4 sources to `dsts[0]` and the
/// 3 registers after it), `sct` (`srcs[0]` and the 3 registers after it to 4
/// destinations). All sources are read before any destination is written.
/// Unused slots hold 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MovMulti {
    pub op: Opcode,
    pub src_type: Type,
    pub dst_type: Type,
    pub dsts: [u8; 4],
    pub srcs: [u8; 4],
    pub ul: bool,
    pub round: Round,
}

impl MovMulti {
    /// How many destination and source registers the opcode names.
    pub fn counts(op: Opcode) -> (usize, usize) {
        match op {
            Opcode::Swz => (2, 2),
            Opcode::Gat => (1, 4),
            _ => (4, 1),
        }
    }
}

/// cat2. Both sources have the same precision; the destination may differ.
/// `(rptN)` repeats the instruction N more times on the next registers, with
/// the sources marked `(r)` stepping too. Without a repeat the `(r)` bits
/// instead hold `nop`, the number of nop cycles after the instruction; `bary.f`
/// and `flat.b` show the bits as `(r)` either way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alu {
    pub op: Opcode,
    pub dst: Reg,
    pub src1: Operand,
    /// The second source, for the two-source opcodes.
    pub src2: Option<Operand>,
    /// The condition of `cmps.*`/`cmpv.*`.
    pub cond: Cond,
    pub repeat: u8,
    pub nop: u8,
    pub sat: bool,
    pub ul: bool,
    /// `(ei)`: end of input (the last `bary.f`); Mesa also sets it on `add.s`/
    /// `add.u` for a halving add (`nir_op_ihadd`/`uhadd` in `ir3_compiler_nir.c`).
    pub ei: bool,
}

/// Sign and packing of `dp2acc`/`dp4acc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DotMode {
    /// `.mixed` (signed first source) rather than `.unsigned`.
    pub mixed: bool,
    /// `.high`: the 8-bit pairs are in the high halves (dp2acc).
    pub high: bool,
}

/// cat3. `srcs[1]` is always a register. The plain encodings read sources of
/// the opcode's precision; `shrm`..`andg` and `wmm` choose it per instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alu3 {
    pub op: Opcode,
    pub dst: Reg,
    pub srcs: [Operand; 3],
    pub repeat: u8,
    pub nop: u8,
    pub sat: bool,
    pub ul: bool,
    pub dot: DotMode,
}

/// cat4: one source through the special function unit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sfu {
    pub op: Opcode,
    pub dst: Reg,
    pub src: Operand,
    pub repeat: u8,
    pub sat: bool,
    pub ul: bool,
}

/// The `DESC_MODE` of an indirect or bindless texture instruction
/// (`#cat5-s2en-bindless-desc-mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescMode {
    /// Sampler and texture numbers from `src3`, uniform across the wave.
    Uniform = 0,
    /// Bindless; the sampler's descriptor set from `a1.x`, numbers from `src3`.
    BindlessA1Uniform = 1,
    BindlessNonuniform = 2,
    BindlessA1Nonuniform = 3,
    Nonuniform = 4,
    BindlessUniform = 5,
}

impl DescMode {
    pub fn from_bits(bits: u64) -> Option<DescMode> {
        Some(match bits {
            0 => DescMode::Uniform,
            1 => DescMode::BindlessA1Uniform,
            2 => DescMode::BindlessNonuniform,
            3 => DescMode::BindlessA1Nonuniform,
            4 => DescMode::Nonuniform,
            5 => DescMode::BindlessUniform,
            _ => return None,
        })
    }

    pub fn is_bindless(self) -> bool {
        !matches!(self, DescMode::Uniform | DescMode::Nonuniform)
    }

    pub fn uses_a1(self) -> bool {
        matches!(
            self,
            DescMode::BindlessA1Uniform | DescMode::BindlessA1Nonuniform
        )
    }

    pub fn is_uniform(self) -> bool {
        matches!(
            self,
            DescMode::Uniform | DescMode::BindlessA1Uniform | DescMode::BindlessUniform
        )
    }
}

/// What the instruction of a [`TexDesc::BindlessA1`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum A1Imm {
    /// a6xx: the sampler (the texture is in `a1.x`).
    Samp(u8),
    /// a7xx: the texture (the sampler is in `a1.x`).
    Tex(u8),
}

/// Where a cat5 instruction finds its sampler and texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexDesc {
    /// Numbers in the instruction: `s#samp` (4 bits), `t#tex` (7 bits).
    Direct { samp: u8, tex: u8 },
    /// `.s2en`: numbers in register `reg` (a half register unless bindless);
    /// bindless modes also name the descriptor set `base`.
    Indexed { mode: DescMode, reg: u8, base: u8 },
    /// Bindless with immediate numbers (mode 6): 4-bit sampler and texture.
    BindlessImm { base: u8, samp: u8, tex: u8 },
    /// Bindless with `a1.x` (mode 7).
    BindlessA1 { base: u8, imm: A1Imm },
}

/// cat5. The destination's precision follows `ty`; `src1`/`src2` are
/// registers of the precision `half_src` says (the coordinate and the
/// lod/bias/array operand, by opcode).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tex {
    pub op: Opcode,
    pub ty: Type,
    pub wrmask: u8,
    pub dst: u8,
    pub half_src: bool,
    pub src1: Option<u8>,
    pub src2: Option<u8>,
    /// `isam`'s immediate offset added to the coordinate (`r0.y+8`).
    pub offset: Option<u8>,
    /// `.3d`.
    pub is_3d: bool,
    /// `.a`: array.
    pub array: bool,
    /// `.o`: with offset operand.
    pub o: bool,
    /// `.p`: projected.
    pub p: bool,
    /// `.s` (shadow), shown `.v` on `isam`.
    pub s: bool,
    /// `isam` only: `.1d`, shown when the instruction's bit 18 is clear. The
    /// XML notes that `isam.v` needs the bit set.
    pub one_d: bool,
    pub desc: TexDesc,
    /// `brcst.active.wN`: the `W` field, cluster size `2 << W`.
    pub cluster: u8,
}

impl Tex {
    /// A texture instruction of `op` with every field at its default: no
    /// sources, no flags, sampler and texture 0, an f32 result.
    pub fn new(op: Opcode) -> Tex {
        Tex {
            op,
            ty: Type::F32,
            wrmask: 0,
            dst: 0,
            half_src: false,
            src1: None,
            src2: None,
            offset: None,
            is_3d: false,
            array: false,
            o: false,
            p: false,
            s: false,
            one_d: false,
            desc: TexDesc::Direct { samp: 0, tex: 0 },
            cluster: 0,
        }
    }
}

/// A cat6 source that is a register or an 8-bit immediate (`#cat6-src`).
/// Registers print `r<n>.<c>` even for a0/p0 numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src8 {
    Reg(u8),
    Imm(u8),
}

/// A cat6 base address that is a register or a const (`#cat6-src-const-or-gpr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrSrc {
    Reg(u8),
    Const(u8),
}

/// A const-file destination `c[N]` or `c[a1.x + N]` (`#const-dst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstDst {
    Imm(u8),
    A1(u8),
}

/// cat6 memory instructions by encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mem {
    /// `ldg`, `ldg.a`, `stg`, `stg.a`.
    Global(Global),
    /// `ldg.k`: global memory into the const file.
    LdgK(LdgK),
    /// `ldl`, `ldp`, `ldlw`, `stl`, `stp`, `stlw`.
    Local(Local),
    /// `ldlv`.
    Ldlv(Ldlv),
    /// `stc`.
    Stc(Stc),
    /// `stsc` (a7xx).
    Stsc(Stsc),
    /// The a3xx-style `resinfo`.
    Resinfo(Resinfo),
    /// `atomic.*` (local, `.l`) and `atomic.g.*` (global address in `src1`).
    Atomic(Atomic),
    /// `ray_intersection` (a7xx).
    Ray(RayIntersection),
    /// `ldc`, `ldc.k`.
    Ldc(Ldc),
    /// `getspid`, `getwid`, `getfiberid`.
    GetId(GetId),
    /// `resinfo.b`, `resbase`.
    ResinfoB(ResinfoB),
    /// `stib.b`, `ldib.b`, `atomic.b.*`.
    Ibo(Ibo),
    /// `shfl`.
    Shfl(Shfl),
}

impl Mem {
    pub fn opcode(&self) -> Opcode {
        match self {
            Mem::Global(x) => x.op,
            Mem::LdgK(_) => Opcode::LdgK,
            Mem::Local(x) => x.op,
            Mem::Ldlv(_) => Opcode::Ldlv,
            Mem::Stc(_) => Opcode::Stc,
            Mem::Stsc(_) => Opcode::Stsc,
            Mem::Resinfo(_) => Opcode::Resinfo,
            Mem::Atomic(x) => x.op,
            Mem::Ray(_) => Opcode::RayIntersection,
            Mem::Ldc(x) => x.op,
            Mem::GetId(x) => x.op,
            Mem::ResinfoB(x) => x.op,
            Mem::Ibo(x) => x.op,
            Mem::Shfl(_) => Opcode::Shfl,
        }
    }
}

/// How `ldg`/`stg` and their `.a` forms add to the base address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlobalAddr {
    /// `ldg`/`stg`: base + `offset`, 13-bit signed, in bytes.
    Offset(i32),
    /// `ldg.a`/`stg.a` on a6xx: base + (((index << shift) + offset) << the
    /// type's size shift), `shift` and `offset` 0..=3 (the XML's `ldg.a` doc).
    Scaled { index: u8, shift: u8, offset: u8 },
    /// `ldg.a`/`stg.a` on a7xx: base + index + offset, `offset` 0..=255.
    Indexed { index: u8, offset: u8 },
}

/// Global memory through a 64-bit address in the register pair `base`
/// (`base` + 1 holds the high half); a const base exists only in the a7xx
/// `.a` forms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Global {
    pub op: Opcode,
    pub ty: Type,
    /// The destination of a load or the first value register of a store.
    pub reg: u8,
    pub base: AddrSrc,
    pub addr: GlobalAddr,
    /// Number of components (3 bits).
    pub size: u8,
}

/// `ldg.k`: `size` dwords from base + `offset` into the const file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LdgK {
    pub ty: Type,
    pub dst: ConstDst,
    pub base: u8,
    pub offset: i32,
    pub size: u8,
}

/// Local (`l[]`, shared) and private (`p[]`) memory: address = `addr` register
/// + `offset` (13-bit signed bytes); `size` components (8 bits).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Local {
    pub op: Opcode,
    pub ty: Type,
    /// The destination of a load or the first value register of a store.
    pub reg: u8,
    pub addr: u8,
    pub offset: i32,
    pub size: u8,
}

/// `ldlv`: read varying storage at an immediate offset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ldlv {
    pub ty: Type,
    pub dst: u8,
    pub offset: u16,
    pub size: u8,
}

/// `stc`: store `size` registers from `src` into the const file (used in the
/// preamble).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stc {
    pub ty: Type,
    pub dst: ConstDst,
    pub src: u8,
    pub size: u8,
}

/// `stsc` (a7xx): copy `size` dwords of the shared consts starting at `src`
/// to `c[dst]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stsc {
    pub ty: Type,
    pub dst: u16,
    pub src: u8,
    pub size: u8,
}

/// The a3xx-style `resinfo.<type>.<d>d dst, g[ssbo]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resinfo {
    pub ty: Type,
    /// Dimensions, 1..=4.
    pub d: u8,
    pub dst: u8,
    pub ssbo: Src8,
}

/// `atomic.<op>` on local memory (`l[src1]`) or `atomic.g.<op>` on the global
/// address in the register pair `src1`; `src2` is the operand. For the global
/// form `Type::U8` means a 64-bit integer (`#type-atomic`, printed `u64`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    pub op: Opcode,
    pub typed: bool,
    pub d: u8,
    pub ty: Type,
    /// Components, 1..=4.
    pub type_size: u8,
    pub dst: u8,
    pub src1: Src8,
    pub src2: Src8,
}

/// `ray_intersection dst, [bvh], src2, src3, src4` (a7xx).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RayIntersection {
    pub dst: u8,
    pub bvh: AddrSrc,
    pub src2: u8,
    pub src3: u8,
    pub src4: u8,
}

/// How an a6xx-style cat6 instruction names its buffer (`#cat6-src-mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum IndexMode {
    /// An immediate buffer index.
    #[default]
    Imm = 0,
    /// An index in a register, uniform across the wave.
    Uniform = 1,
    /// An index in a register that may differ per fiber.
    Nonuniform = 2,
}

/// The buffer addressing of an a6xx-style cat6 instruction (`MODE`,
/// `BINDLESS`, `BASE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BufferDesc {
    pub mode: IndexMode,
    /// Bindless: the index is into descriptor set `base` (0..=7).
    pub bindless: bool,
    pub base: u8,
}

/// `ldc` (UBO load to `dst`) and `ldc.k` (UBO load into the const file at
/// `a1.x`). `src1` is the offset, `src2` the UBO index (an immediate when the
/// mode is `imm`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ldc {
    pub op: Opcode,
    /// `.u`: the destination is uniform (a shared register).
    pub u: bool,
    /// `ldc` only: `.offsetN`, the first component read, 0..=3.
    pub component: u8,
    /// `ldc`: components loaded (1..=4); `ldc.k`: vec4s loaded (1..=256).
    pub size: u16,
    pub dst: u8,
    pub src1: Src8,
    pub src2: Src8,
    pub desc: BufferDesc,
}

/// `getspid`, `getwid`, `getfiberid`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GetId {
    pub op: Opcode,
    pub ty: Type,
    pub dst: u8,
}

/// `resinfo.b` (image/SSBO dimensions) and `resbase` (descriptor address).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResinfoB {
    pub op: Opcode,
    pub typed: bool,
    pub d: u8,
    pub ty: Type,
    pub type_size: u8,
    pub desc: BufferDesc,
    pub dst: u8,
    pub ssbo: Src8,
}

/// `stib.b` (store `reg` at `coord`), `ldib.b` (load `coord` into `reg`),
/// `atomic.b.*` (`reg` is the destination and data). For atomics `Type::U8`
/// means a 64-bit integer, printed `u64`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ibo {
    pub op: Opcode,
    pub typed: bool,
    pub d: u8,
    pub ty: Type,
    pub type_size: u8,
    pub desc: BufferDesc,
    pub reg: u8,
    pub coord: u8,
    /// `stib.b`/`ldib.b`: an immediate added to the coordinate, 1..=127.
    pub offset: Option<u8>,
    pub ssbo: Src8,
}

/// The lane pattern of `shfl` (`#cat6-shfl-mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Xor = 1,
    Up = 2,
    Down = 3,
    Rup = 6,
    Rdown = 7,
}

/// `shfl.<mode>.<type> dst, src1, src2`: subgroup shuffle by `src2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shfl {
    pub mode: ShflMode,
    pub ty: Type,
    pub dst: u8,
    pub src1: u8,
    pub src2: Src8,
}

/// `bar`/`fence` with what they order: `.g` global, `.l` local, `.r` reads,
/// `.w` writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Barrier {
    pub op: Opcode,
    pub g: bool,
    pub l: bool,
    pub r: bool,
    pub w: bool,
}

/// `dccln`/`dcinv`/`dcflu` with `.all` or `.shr`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheOp {
    pub op: Opcode,
    pub all: bool,
}

/// `sleep.s` / `sleep.l`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sleep {
    pub long: bool,
}

/// The table an `alias` adds to (`#alias-scope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AliasScope {
    Tex = 0,
    Rt = 1,
    Mem = 2,
}

/// What an alias entry maps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AliasSrc {
    Reg(u8),
    Const(u16),
    Imm(u32),
}

/// `alias.<scope>.<f|b><16|32>.<n> dst, src` (a7xx): reads of `dst` by
/// instructions of that scope see `src` instead. For the `rt` scope `dst` is
/// a render target component (`rt<n>.<c>`, 5 bits).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alias {
    pub scope: AliasScope,
    /// `.b` rather than `.f`: only changes how immediates print.
    pub int: bool,
    /// 32-bit (`32`) rather than 16-bit values.
    pub size32: bool,
    pub table_size_minus_one: u8,
    pub dst: u8,
    pub src: AliasSrc,
}
