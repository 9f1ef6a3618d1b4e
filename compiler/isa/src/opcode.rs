//! Every ir3 opcode, listed once with its encoding and its meaning.
//!
//! The table below is the one place an opcode is named. Its columns are the
//! opcode's text name, category, encoding (`enc`, and `sub` where a second
//! field selects it), latency class, the value kinds of its sources and
//! destination, how many sources it reads and whether it writes a register,
//! and property flags. The encodings come from freedreno's ISA XML
//! (`ir3-cat0.xml` .. `ir3-cat7.xml`); the meanings from the same XML's
//! `<doc>` and from how Mesa's ir3 backend uses each opcode
//! (`ir3_compiler_nir.c`, `ir3.h`), and are evaluated in [`crate::eval`].
//!
//! Meaning of `enc`/`sub` per category:
//! - cat0: `enc` = `OPC_HI << 4 | OPC` (bits 49, 55..58); `sub` = `BRTYPE`
//!   (bits 37..39) for the branch family.
//! - cat1: `enc` = bits 57..58; `sub` = bits 40..41 for `swz`/`gat`/`sct`.
//! - cat2: `enc` = bits 53..58; `sub` = bit 50 for `bary.f`/`flat.b`.
//! - cat3: `enc` = bits 55..58; `sub` = 0 for the plain encoding (bit 13
//!   clear), 1 for the alternative one (bit 13 set: `shrm`..`andg`), 2/3 for
//!   `dp2acc`/`dp4acc` (bit 46), 4/5 for `wmm`/`wmm.accu` (bit 42).
//! - cat4: `enc` = bits 53..58.
//! - cat5: `enc` = bits 54..58; for `enc` 31, `sub` = bit 53 << 2 | bits 19..20.
//! - cat6: `enc` = bits 54..58 for the a3xx-style encodings, or bits 14..19
//!   for the a6xx ones (`sub` = 1 marks those).
//! - cat7: `enc` = bits 55..58; `sub` tells `dcinv`/`ccinv` and `lock`/`unlock`
//!   apart.

/// How long until an instruction's result can be read, in the terms the
/// scheduler and the legaliser use: ALU results are ready after a fixed number
/// of cycles (nops), SFU results need `(ss)`, texture and memory results
/// `(sy)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Latency {
    Alu,
    Sfu,
    Texture,
    Memory,
    Flow,
    Barrier,
}

/// What a source or destination holds, which decides what `(neg)`/`(abs)` do
/// and how a constant folder reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// No value (flow control, barriers).
    None,
    Float,
    Signed,
    Unsigned,
    /// Raw bits: `(neg)` inverts them (Mesa's `ir3_cat2_absneg` gives the `.b`
    /// opcodes `IR3_REG_BNOT`).
    Bits,
    /// Given by a type field of the instruction (cat1, cat5, cat6).
    Typed,
    /// A boolean 0/1 (comparison results).
    Bool,
}

/// Whether `(sat)` exists on an opcode and works.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sat {
    /// The encoding has no saturate bit.
    Absent,
    /// The bit exists and saturates.
    Works,
    /// The bit exists but does not work (Mesa's `is_sat_compatible`: not on
    /// cat4 on a6xx, not on `bary.f`, not on `sel.*`).
    Broken,
}

/// Property flags of an opcode.
pub mod flags {
    /// Only on a7xx (`<gen min="700"/>` in the XML).
    pub const A7XX: u16 = 1 << 0;
    /// cat2/cat3: reads half-precision sources by definition (cat3 `FULL` = 0).
    pub const HALF: u16 = 1 << 1;
    /// cat2: has a condition code (`cmps`, `cmpv`).
    pub const COND: u16 = 1 << 2;
    /// cat5: takes a sampler.
    pub const SAMP: u16 = 1 << 3;
    /// cat5: takes a texture.
    pub const TEX: u16 = 1 << 4;
    /// cat5: shows its type (`HAS_TYPE`).
    pub const TYPE: u16 = 1 << 5;
    /// cat6: an atomic read-modify-write.
    pub const ATOMIC: u16 = 1 << 6;
    /// cat0: a branch target immediate.
    pub const TARGET: u16 = 1 << 7;
    /// Reads the varying storage (`bary.f`, `flat.b`, `ldlv`).
    pub const VARYING: u16 = 1 << 8;
    /// Writes memory.
    pub const STORE: u16 = 1 << 9;
}

/// What the table says about one opcode.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub opcode: Opcode,
    /// The name as printed, e.g. `cmps.f`.
    pub name: &'static str,
    /// Instruction category 0..=7 (bits 61..63).
    pub cat: u8,
    pub enc: u8,
    pub sub: u8,
    pub latency: Latency,
    pub src: ValueKind,
    pub dst: ValueKind,
    /// Number of register/immediate sources read (not counting implicit ones).
    pub nsrc: u8,
    /// Writes a destination register.
    pub writes_dst: bool,
    pub sat: Sat,
    pub flags: u16,
}

impl OpInfo {
    pub fn has(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }

    /// The `(ss)` bit exists in this category (not in cat5 and cat6).
    pub fn has_ss(&self) -> bool {
        !matches!(self.cat, 5 | 6)
    }

    /// The `(sy)` bit exists in every category.
    pub fn has_sy(&self) -> bool {
        true
    }

    /// Whether the opcode exists on `generation`.
    pub fn exists_on(&self, generation: crate::IsaGen) -> bool {
        !self.has(flags::A7XX) || generation.is_a7xx()
    }
}

macro_rules! opcodes {
    ($( $variant:ident $name:literal $cat:literal $enc:literal $sub:literal
        $lat:ident $src:ident $dst:ident $nsrc:literal $wr:literal $sat:ident $fl:expr; )*) => {
        /// An ir3 opcode. [`Opcode::info`] gives its row of the table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode { $($variant),* }

        /// The opcode table, in declaration order of [`Opcode`].
        pub const OPCODES: &[OpInfo] = &[ $(
            OpInfo {
                opcode: Opcode::$variant,
                name: $name,
                cat: $cat,
                enc: $enc,
                sub: $sub,
                latency: Latency::$lat,
                src: ValueKind::$src,
                dst: ValueKind::$dst,
                nsrc: $nsrc,
                writes_dst: $wr,
                sat: Sat::$sat,
                flags: $fl,
            },
        )* ];
    };
}

use flags::*;

opcodes! {
    // cat0: flow control. `nop` .. `prede` take no operand; `kill` a predicate;
    // `jump` .. `shps` a target; the branches a predicate (or two) and a target.
    Nop "nop" 0 0x00 0 Flow None None 0 false Absent 0;
    Br "br" 0 0x01 0 Flow Bool None 1 false Absent TARGET;
    Brao "brao" 0 0x01 1 Flow Bool None 2 false Absent TARGET;
    Braa "braa" 0 0x01 2 Flow Bool None 2 false Absent TARGET;
    Brac "brac" 0 0x01 3 Flow None None 0 false Absent TARGET;
    Bany "bany" 0 0x01 4 Flow Bool None 1 false Absent TARGET;
    Ball "ball" 0 0x01 5 Flow Bool None 1 false Absent TARGET;
    Brax "brax" 0 0x01 6 Flow None None 0 false Absent TARGET;
    Jump "jump" 0 0x02 0 Flow None None 0 false Absent TARGET;
    Call "call" 0 0x03 0 Flow None None 0 false Absent TARGET;
    Ret "ret" 0 0x04 0 Flow None None 0 false Absent 0;
    Kill "kill" 0 0x05 0 Flow Bool None 1 false Absent 0;
    End "end" 0 0x06 0 Flow None None 0 false Absent 0;
    Emit "emit" 0 0x07 0 Flow None None 0 false Absent 0;
    Cut "cut" 0 0x08 0 Flow None None 0 false Absent 0;
    Chmask "chmask" 0 0x09 0 Flow None None 0 false Absent 0;
    Chsh "chsh" 0 0x0a 0 Flow None None 0 false Absent 0;
    FlowRev "flow_rev" 0 0x0b 0 Flow None None 0 false Absent 0;
    Bkt "bkt" 0 0x10 0 Flow None None 0 false Absent TARGET;
    Getlast "getlast" 0 0x14 0 Flow None None 0 false Absent TARGET;
    Getone "getone" 0 0x15 0 Flow None None 0 false Absent TARGET;
    Shps "shps" 0 0x17 0 Flow None None 0 false Absent TARGET;
    Shpe "shpe" 0 0x18 0 Flow None None 0 false Absent 0;
    Predt "predt" 0 0x1d 0 Flow Bool None 0 false Absent 0;
    Predf "predf" 0 0x1e 0 Flow Bool None 0 false Absent 0;
    Prede "prede" 0 0x1f 0 Flow None None 0 false Absent 0;

    // cat1: moves and conversions. `cov`, `mova` and `mova1` are spellings of `mov`.
    Mov "mov" 1 0 0 Alu Typed Typed 1 true Absent 0;
    Swz "swz" 1 2 0 Alu Typed Typed 2 true Absent 0;
    Gat "gat" 1 2 1 Alu Typed Typed 4 true Absent 0;
    Sct "sct" 1 2 2 Alu Typed Typed 1 true Absent 0;
    Movmsk "movmsk" 1 3 0 Alu None Unsigned 0 true Absent 0;

    // cat2: one and two source ALU.
    AddF "add.f" 2 0 0 Alu Float Float 2 true Works 0;
    MinF "min.f" 2 1 0 Alu Float Float 2 true Works 0;
    MaxF "max.f" 2 2 0 Alu Float Float 2 true Works 0;
    MulF "mul.f" 2 3 0 Alu Float Float 2 true Works 0;
    SignF "sign.f" 2 4 0 Alu Float Float 1 true Works 0;
    CmpsF "cmps.f" 2 5 0 Alu Float Bool 2 true Works COND;
    AbsnegF "absneg.f" 2 6 0 Alu Float Float 1 true Works 0;
    CmpvF "cmpv.f" 2 7 0 Alu Float Bool 2 true Works COND;
    FloorF "floor.f" 2 9 0 Alu Float Float 1 true Works 0;
    CeilF "ceil.f" 2 10 0 Alu Float Float 1 true Works 0;
    RndneF "rndne.f" 2 11 0 Alu Float Float 1 true Works 0;
    RndazF "rndaz.f" 2 12 0 Alu Float Float 1 true Works 0;
    TruncF "trunc.f" 2 13 0 Alu Float Float 1 true Works 0;
    AddU "add.u" 2 16 0 Alu Unsigned Unsigned 2 true Works 0;
    AddS "add.s" 2 17 0 Alu Signed Signed 2 true Works 0;
    SubU "sub.u" 2 18 0 Alu Unsigned Unsigned 2 true Works 0;
    SubS "sub.s" 2 19 0 Alu Signed Signed 2 true Works 0;
    CmpsU "cmps.u" 2 20 0 Alu Unsigned Bool 2 true Works COND;
    CmpsS "cmps.s" 2 21 0 Alu Signed Bool 2 true Works COND;
    MinU "min.u" 2 22 0 Alu Unsigned Unsigned 2 true Works 0;
    MinS "min.s" 2 23 0 Alu Signed Signed 2 true Works 0;
    MaxU "max.u" 2 24 0 Alu Unsigned Unsigned 2 true Works 0;
    MaxS "max.s" 2 25 0 Alu Signed Signed 2 true Works 0;
    AbsnegS "absneg.s" 2 26 0 Alu Signed Signed 1 true Works 0;
    AndB "and.b" 2 28 0 Alu Bits Bits 2 true Works 0;
    OrB "or.b" 2 29 0 Alu Bits Bits 2 true Works 0;
    NotB "not.b" 2 30 0 Alu Bits Bits 1 true Works 0;
    XorB "xor.b" 2 31 0 Alu Bits Bits 2 true Works 0;
    CmpvU "cmpv.u" 2 33 0 Alu Unsigned Bool 2 true Works COND;
    CmpvS "cmpv.s" 2 34 0 Alu Signed Bool 2 true Works COND;
    MulU24 "mul.u24" 2 48 0 Alu Unsigned Unsigned 2 true Works 0;
    MulS24 "mul.s24" 2 49 0 Alu Signed Signed 2 true Works 0;
    MullU "mull.u" 2 50 0 Alu Unsigned Unsigned 2 true Works 0;
    BfrevB "bfrev.b" 2 51 0 Alu Bits Bits 1 true Works 0;
    ClzS "clz.s" 2 52 0 Alu Signed Signed 1 true Works 0;
    ClzB "clz.b" 2 53 0 Alu Bits Signed 1 true Works 0;
    ShlB "shl.b" 2 54 0 Alu Bits Bits 2 true Works 0;
    ShrB "shr.b" 2 55 0 Alu Bits Bits 2 true Works 0;
    AshrB "ashr.b" 2 56 0 Alu Bits Bits 2 true Works 0;
    BaryF "bary.f" 2 57 0 Alu Float Float 2 true Broken VARYING;
    FlatB "flat.b" 2 57 1 Alu Bits Bits 2 true Works VARYING;
    MgenB "mgen.b" 2 58 0 Alu Bits Bits 2 true Works 0;
    GetbitB "getbit.b" 2 59 0 Alu Bits Bits 2 true Works 0;
    Setrm "setrm" 2 60 0 Alu Bits Bits 1 true Works 0;
    CbitsB "cbits.b" 2 61 0 Alu Bits Unsigned 1 true Works 0;
    Shb "shb" 2 62 0 Alu Bits Bits 2 true Works 0;
    Msad "msad" 2 63 0 Alu Unsigned Unsigned 2 true Works 0;

    // cat3: three source ALU. `sub` 0 = plain, 1 = alternative encoding.
    MadU16 "mad.u16" 3 0 0 Alu Unsigned Unsigned 3 true Works HALF;
    MadshU16 "madsh.u16" 3 1 0 Alu Unsigned Unsigned 3 true Works 0;
    MadS16 "mad.s16" 3 2 0 Alu Signed Signed 3 true Works HALF;
    MadshM16 "madsh.m16" 3 3 0 Alu Unsigned Unsigned 3 true Works 0;
    MadU24 "mad.u24" 3 4 0 Alu Unsigned Unsigned 3 true Works 0;
    MadS24 "mad.s24" 3 5 0 Alu Signed Signed 3 true Works 0;
    MadF16 "mad.f16" 3 6 0 Alu Float Float 3 true Works HALF;
    MadF32 "mad.f32" 3 7 0 Alu Float Float 3 true Works 0;
    SelB16 "sel.b16" 3 8 0 Alu Bits Bits 3 true Broken HALF;
    SelB32 "sel.b32" 3 9 0 Alu Bits Bits 3 true Broken 0;
    SelS16 "sel.s16" 3 10 0 Alu Signed Signed 3 true Broken HALF;
    SelS32 "sel.s32" 3 11 0 Alu Signed Signed 3 true Broken 0;
    SelF16 "sel.f16" 3 12 0 Alu Float Float 3 true Broken HALF;
    SelF32 "sel.f32" 3 13 0 Alu Float Float 3 true Broken 0;
    SadS16 "sad.s16" 3 14 0 Alu Signed Signed 3 true Works HALF;
    SadS32 "sad.s32" 3 15 0 Alu Signed Signed 3 true Works 0;
    Shrm "shrm" 3 8 1 Alu Bits Bits 3 true Absent 0;
    Shlm "shlm" 3 9 1 Alu Bits Bits 3 true Absent 0;
    Shrg "shrg" 3 10 1 Alu Bits Bits 3 true Absent 0;
    Shlg "shlg" 3 11 1 Alu Bits Bits 3 true Absent 0;
    Andg "andg" 3 12 1 Alu Bits Bits 3 true Absent 0;
    Dp2acc "dp2acc" 3 13 2 Alu Bits Signed 3 true Works 0;
    Dp4acc "dp4acc" 3 13 3 Alu Bits Signed 3 true Works 0;
    Wmm "wmm" 3 14 4 Alu Float Float 3 true Absent 0;
    WmmAccu "wmm.accu" 3 14 5 Alu Float Float 3 true Absent 0;

    // cat4: special function unit. (sat) exists but does not work on a6xx.
    Rcp "rcp" 4 0 0 Sfu Float Float 1 true Broken 0;
    Rsq "rsq" 4 1 0 Sfu Float Float 1 true Broken 0;
    Log2 "log2" 4 2 0 Sfu Float Float 1 true Broken 0;
    Exp2 "exp2" 4 3 0 Sfu Float Float 1 true Broken 0;
    Sin "sin" 4 4 0 Sfu Float Float 1 true Broken 0;
    Cos "cos" 4 5 0 Sfu Float Float 1 true Broken 0;
    Sqrt "sqrt" 4 6 0 Sfu Float Float 1 true Broken 0;
    Hrsq "hrsq" 4 9 0 Sfu Float Float 1 true Broken 0;
    Hlog2 "hlog2" 4 10 0 Sfu Float Float 1 true Broken 0;
    Hexp2 "hexp2" 4 11 0 Sfu Float Float 1 true Broken 0;

    // cat5: texture and subgroup operations.
    Isam "isam" 5 0 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Isaml "isaml" 5 1 0 Texture Typed Typed 2 true Absent SAMP | TEX | TYPE;
    Isamm "isamm" 5 2 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Sam "sam" 5 3 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Samb "samb" 5 4 0 Texture Typed Typed 2 true Absent SAMP | TEX | TYPE;
    Saml "saml" 5 5 0 Texture Typed Typed 2 true Absent SAMP | TEX | TYPE;
    Samgq "samgq" 5 6 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Getlod "getlod" 5 7 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Conv "conv" 5 8 0 Texture Typed Typed 2 true Absent SAMP | TEX | TYPE;
    Convm "convm" 5 9 0 Texture Typed Typed 2 true Absent SAMP | TEX | TYPE;
    Getsize "getsize" 5 10 0 Texture Typed Typed 1 true Absent TEX | TYPE;
    Getbuf "getbuf" 5 11 0 Texture Typed Typed 0 true Absent TEX | TYPE;
    Getpos "getpos" 5 12 0 Texture Typed Typed 1 true Absent TEX | TYPE;
    Getinfo "getinfo" 5 13 0 Texture Typed Typed 0 true Absent TEX | TYPE;
    Dsx "dsx" 5 14 0 Texture Typed Typed 1 true Absent TYPE;
    Dsy "dsy" 5 15 0 Texture Typed Typed 1 true Absent TYPE;
    Gather4r "gather4r" 5 16 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Gather4g "gather4g" 5 17 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Gather4b "gather4b" 5 18 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Gather4a "gather4a" 5 19 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Samgp0 "samgp0" 5 20 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Samgp1 "samgp1" 5 21 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Samgp2 "samgp2" 5 22 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Samgp3 "samgp3" 5 23 0 Texture Typed Typed 1 true Absent SAMP | TEX | TYPE;
    Dsxpp1 "dsxpp.1" 5 24 0 Texture Float Float 1 true Absent 0;
    Dsypp1 "dsypp.1" 5 25 0 Texture Float Float 1 true Absent 0;
    Rgetpos "rgetpos" 5 26 0 Texture Typed Typed 1 true Absent TYPE;
    Rgetinfo "rgetinfo" 5 27 0 Texture Typed Typed 0 true Absent TYPE;
    Tcinv "tcinv" 5 28 0 Texture None None 0 false Absent 0;
    BrcstActive "brcst.active" 5 31 0 Texture Typed Typed 1 true Absent TYPE;
    QuadShuffleBrcst "quad_shuffle.brcst" 5 31 4 Texture Typed Typed 2 true Absent TYPE;
    QuadShuffleHoriz "quad_shuffle.horiz" 5 31 5 Texture Typed Typed 1 true Absent TYPE;
    QuadShuffleVert "quad_shuffle.vert" 5 31 6 Texture Typed Typed 1 true Absent TYPE;
    QuadShuffleDiag "quad_shuffle.diag" 5 31 7 Texture Typed Typed 1 true Absent TYPE;

    // cat6: memory. `sub` 0 = a3xx-style encoding (opcode in bits 54..58),
    // 1 = a6xx-style encoding (opcode in bits 14..19).
    Ldg "ldg" 6 0 0 Memory Unsigned Typed 3 true Absent 0;
    LdgA "ldg.a" 6 0 0 Memory Unsigned Typed 4 true Absent 0;
    LdgK "ldg.k" 6 0 0 Memory Unsigned None 3 false Absent 0;
    Ldl "ldl" 6 1 0 Memory Unsigned Typed 3 true Absent 0;
    Ldp "ldp" 6 2 0 Memory Unsigned Typed 3 true Absent 0;
    Stg "stg" 6 3 0 Memory Typed None 4 false Absent STORE;
    StgA "stg.a" 6 3 0 Memory Typed None 5 false Absent STORE;
    Stl "stl" 6 4 0 Memory Typed None 3 false Absent STORE;
    Stp "stp" 6 5 0 Memory Typed None 3 false Absent STORE;
    Ldlw "ldlw" 6 10 0 Memory Unsigned Typed 3 true Absent 0;
    Stlw "stlw" 6 11 0 Memory Typed None 3 false Absent STORE;
    RayIntersection "ray_intersection" 6 14 0 Memory Unsigned Unsigned 4 true Absent A7XX;
    Resinfo "resinfo" 6 15 0 Memory Unsigned Unsigned 1 true Absent 0;
    AtomicAdd "atomic.add" 6 16 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicSub "atomic.sub" 6 17 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicXchg "atomic.xchg" 6 18 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicInc "atomic.inc" 6 19 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicDec "atomic.dec" 6 20 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicCmpxchg "atomic.cmpxchg" 6 21 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicMin "atomic.min" 6 22 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicMax "atomic.max" 6 23 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicAnd "atomic.and" 6 24 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicOr "atomic.or" 6 25 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicXor "atomic.xor" 6 26 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGAdd "atomic.g.add" 6 16 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGSub "atomic.g.sub" 6 17 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGXchg "atomic.g.xchg" 6 18 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGInc "atomic.g.inc" 6 19 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGDec "atomic.g.dec" 6 20 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGCmpxchg "atomic.g.cmpxchg" 6 21 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGMin "atomic.g.min" 6 22 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGMax "atomic.g.max" 6 23 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGAnd "atomic.g.and" 6 24 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGOr "atomic.g.or" 6 25 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    AtomicGXor "atomic.g.xor" 6 26 0 Memory Typed Typed 2 true Absent ATOMIC | STORE;
    Shfl "shfl" 6 27 0 Memory Typed Typed 2 true Absent 0;
    Stc "stc" 6 28 0 Memory Typed None 1 false Absent 0;
    Stsc "stsc" 6 29 0 Memory Typed None 1 false Absent A7XX;
    Ldlv "ldlv" 6 31 0 Memory Unsigned Typed 1 true Absent VARYING;
    Resbase "resbase" 6 0b001100 1 Memory Unsigned Unsigned 1 true Absent 0;
    ResinfoB "resinfo.b" 6 0b001111 1 Memory Unsigned Unsigned 1 true Absent 0;
    LdibB "ldib.b" 6 0b000110 1 Memory Unsigned Typed 2 true Absent 0;
    StibB "stib.b" 6 0b011101 1 Memory Typed None 3 false Absent STORE;
    AtomicBAdd "atomic.b.add" 6 0b010000 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBSub "atomic.b.sub" 6 0b010001 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBXchg "atomic.b.xchg" 6 0b010010 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBCmpxchg "atomic.b.cmpxchg" 6 0b010101 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBMin "atomic.b.min" 6 0b010110 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBMax "atomic.b.max" 6 0b010111 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBAnd "atomic.b.and" 6 0b011000 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBOr "atomic.b.or" 6 0b011001 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    AtomicBXor "atomic.b.xor" 6 0b011010 1 Memory Typed Typed 3 true Absent ATOMIC | STORE;
    Ldc "ldc" 6 0b011110 1 Memory Unsigned Typed 2 true Absent 0;
    LdcK "ldc.k" 6 0b011110 1 Memory Unsigned None 2 false Absent 0;
    Getspid "getspid" 6 0b100100 1 Memory None Unsigned 0 true Absent 0;
    Getwid "getwid" 6 0b100101 1 Memory None Unsigned 0 true Absent 0;
    Getfiberid "getfiberid" 6 0b100110 1 Memory None Unsigned 0 true Absent 0;

    // cat7: barriers, caches, and the a7xx alias table.
    Bar "bar" 7 0 0 Barrier None None 0 false Absent 0;
    Fence "fence" 7 1 0 Barrier None None 0 false Absent 0;
    Sleep "sleep" 7 2 0 Barrier None None 0 false Absent 0;
    Icinv "icinv" 7 3 0 Barrier None None 0 false Absent 0;
    Dccln "dccln" 7 4 0 Barrier None None 0 false Absent 0;
    Dcinv "dcinv" 7 5 0 Barrier None None 0 false Absent 0;
    Ccinv "ccinv" 7 5 1 Barrier None None 0 false Absent A7XX;
    Dcflu "dcflu" 7 6 0 Barrier None None 0 false Absent 0;
    Lock "lock" 7 7 0 Barrier None None 0 false Absent A7XX;
    Unlock "unlock" 7 7 1 Barrier None None 0 false Absent A7XX;
    Alias "alias" 7 8 0 Alu Typed None 1 false Absent A7XX;
}

impl Opcode {
    pub fn info(self) -> &'static OpInfo {
        &OPCODES[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn cat(self) -> u8 {
        self.info().cat
    }

    /// The opcode with this printed name.
    pub fn from_name(name: &str) -> Option<Opcode> {
        OPCODES.iter().find(|i| i.name == name).map(|i| i.opcode)
    }

    /// The opcode of category `cat` with encoding `enc`/`sub`, if there is one
    /// and only one. (cat6 has several opcodes per encoding value; its decoder
    /// does not use this.)
    pub(crate) fn find(cat: u8, enc: u8, sub: u8) -> Option<Opcode> {
        OPCODES
            .iter()
            .find(|i| i.cat == cat && i.enc == enc && i.sub == sub)
            .map(|i| i.opcode)
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_opcode_and_names_are_unique() {
        for (i, info) in OPCODES.iter().enumerate() {
            assert_eq!(info.opcode as usize, i, "{}", info.name);
            assert_eq!(Opcode::from_name(info.name), Some(info.opcode));
        }
    }

    #[test]
    fn encodings_are_unique_outside_cat6() {
        for a in OPCODES.iter().filter(|i| i.cat != 6) {
            for b in OPCODES.iter().filter(|i| i.cat != 6) {
                if a.opcode != b.opcode {
                    assert!(
                        (a.cat, a.enc, a.sub) != (b.cat, b.enc, b.sub),
                        "{} and {}",
                        a.name,
                        b.name
                    );
                }
            }
        }
    }
}
