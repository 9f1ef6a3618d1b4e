//! cat6 (memory) encoding, from `ir3-cat6.xml`.
//!
//! Two families share the category. The a3xx-style encodings keep the
//! opcode in bits 54..58 (`ldg`, `stl`, `atomic.*`, `shfl`, ...). The a6xx
//! ones, which support bindless descriptors, put it in bits 14..19 and keep
//! bits 54..58 zero, except `stib.b`/`ldib.b` which use them for the high bits
//! of an immediate offset. The two are told apart by the patterns below; with
//! don't-care bits required clear, no word matches two encodings.

use crate::bits::{apply, field, fixed, flag, matches, Field, Fixed};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{
    AddrSrc, Atomic, BufferDesc, ConstDst, GetId, Global, GlobalAddr, Ibo, IndexMode, Ldc, LdgK,
    Ldlv, Local, Mem, Op, RayIntersection, Resinfo, ResinfoB, Shfl, ShflMode, Src8, Stc, Stsc,
};
use crate::opcode::{flags, Opcode, OPCODES};
use crate::types::Type;

const OPC: Field = field("OPC", 54, 58);
const TYPE: Field = field("TYPE", 49, 51);
const BIT0: Field = flag("bit 0", 0);

// The ldg/stg family.
const OFF13: Field = field("OFF", 1, 13);
const SRC1_LO: Field = field("SRC1", 14, 21);
const SIZE3: Field = field("SIZE", 24, 26);
const DST: Field = field("DST", 32, 39);
const A6_SRC2: Field = field("SRC2", 1, 8);
const A6_OFF: Field = field("OFF", 9, 10);
const A6_SHIFT: Field = field("SRC2_SHIFT", 12, 13);
const A7_SRC1_CONST: Field = flag("SRC1_CONST", 13);
const A7_LDG_OFF: Field = field("OFF", 41, 48);
const A7_STG_OFF: Field = field("OFF", 14, 21);
const LDGK_SIZE: Field = field("SIZE", 23, 26);
const CONST_DST: Field = field("DST", 32, 39);
const CONST_DST_A1: Field = flag("DST_A1", 40);
const STG_VALUE: Field = field("SRC3", 1, 8);
const STG_OFF_HI: Field = field("OFF_HI", 9, 13);
const STG_OFF_LO: Field = field("OFF_LO", 32, 39);
const STG_ADDR: Field = field("SRC1", 41, 48);
const STG_INDEX: Field = field("SRC2", 32, 39);

const LDG: [Fixed; 5] = [
    fixed(0, 0, 1),
    fixed(22, 22, 0),
    fixed(23, 23, 1),
    fixed(30, 31, 0),
    fixed(52, 53, 0),
];
const LDG_A: [Fixed; 5] = [
    fixed(0, 0, 1),
    fixed(22, 22, 1),
    fixed(23, 23, 1),
    fixed(30, 31, 0),
    fixed(52, 53, 0),
];
const LDG_K: [Fixed; 5] = [
    fixed(0, 0, 1),
    fixed(22, 22, 0),
    fixed(30, 31, 0),
    fixed(52, 52, 1),
    fixed(53, 53, 0),
];
const STG_COMMON: [Fixed; 4] = [
    fixed(23, 23, 1),
    fixed(30, 31, 0),
    fixed(40, 40, 1),
    fixed(53, 53, 0),
];

// Local and private memory.
const LD_SRC: Field = field("SRC", 14, 21);
const SIZE8: Field = field("SIZE", 24, 31);
const ST_SRC: Field = field("SRC", 1, 8);
const ST_DST: Field = field("DST", 41, 48);
const LD_LOCAL: [Fixed; 2] = [fixed(0, 0, 1), fixed(23, 23, 1)];
const ST_LOCAL: [Fixed; 2] = [fixed(23, 23, 1), fixed(40, 40, 1)];
const LDLV: [Fixed; 3] = [fixed(0, 0, 0), fixed(14, 21, 0), fixed(22, 23, 3)];
const LDLV_OFF: Field = field("OFF", 1, 13);

// stc, stsc, resinfo.
const STC: [Fixed; 2] = [fixed(14, 22, 0), fixed(23, 23, 1)];
const STSC: [Fixed; 3] = [fixed(22, 23, 3), fixed(40, 40, 0), fixed(52, 53, 0)];
const STSC_DST_HI: Field = field("DST_HI", 9, 13);
const RESINFO: [Fixed; 2] = [fixed(14, 23, 0), fixed(40, 40, 0)];
const D_MINUS_ONE: Field = field("D_MINUS_ONE", 9, 10);
const SSBO: Field = field("SSBO", 41, 48);
const SSBO_IM: Field = flag("SSBO_IM", 53);

// The a3xx-style atomics.
const ATOMIC: [Fixed; 4] = [
    fixed(0, 0, 1),
    fixed(1, 8, 0),
    fixed(41, 48, 0),
    fixed(53, 53, 0),
];
const TYPED: Field = flag("TYPED", 11);
const TYPE_SIZE_MINUS_ONE: Field = field("TYPE_SIZE_MINUS_ONE", 12, 13);
const ATOMIC_SRC1_IM: Field = flag("SRC1_IM", 22);
const SRC2_IM: Field = flag("SRC2_IM", 23);
const SRC2_HI: Field = field("SRC2", 24, 31);
const ATOMIC_GLOBAL: Field = flag("G", 52);

// ray_intersection and shfl.
const RAY: [Fixed; 1] = [fixed(0, 0, 1)];
const RAY_SRC4: Field = field("SRC4", 41, 48);
const SHFL: [Fixed; 3] = [fixed(0, 0, 0), fixed(9, 22, 0), fixed(52, 53, 2)];
const SHFL_SRC1: Field = field("SRC1", 1, 8);
const SHFL_MODE: Field = field("MODE", 45, 47);

// The a6xx encodings.
const BASE: Field = field("BASE", 1, 3);
const OFFSET_HI: Field = field("OFFSET_HI", 4, 5);
const MODE: Field = field("MODE", 6, 7);
const BINDLESS: Field = flag("BINDLESS", 8);
const A6_OPC: Field = field("OPC", 14, 19);
const LDC_COMPONENT: Field = field("OFFSET", 9, 10);
const LDC_U: Field = flag("U", 11);
const LDC_SRC1_IM: Field = flag("SRC1_IM", 23);
const LDC_LOAD_SIZE: Field = field("LOAD_SIZE_MINUS_ONE", 32, 39);
const HAS_OFFSET: Field = flag("HAS_OFFSET", 23);
const OFFSET_LO: Field = field("OFFSET_LO", 54, 58);
const IBO_SRC1: Field = field("SRC1", 32, 39);

const A6XX_COMMON: [Fixed; 1] = [fixed(40, 40, 0)];
const IBO_BASE: [Fixed; 2] = [fixed(20, 22, 0b110), fixed(40, 40, 0)];
const LDC: [Fixed; 3] = [fixed(22, 22, 1), fixed(49, 50, 3), fixed(53, 53, 1)];
const GETID: [Fixed; 2] = [fixed(22, 22, 1), fixed(53, 53, 1)];
const RESINFO_B: [Fixed; 2] = [fixed(20, 23, 0b0110), fixed(53, 53, 1)];

fn a6xx_opcode(enc: u64) -> Option<Opcode> {
    OPCODES
        .iter()
        .find(|i| i.cat == 6 && i.sub == 1 && i.enc as u64 == enc)
        .map(|i| i.opcode)
}

fn read_src8(word: u64, f: Field, imm: bool) -> Src8 {
    let v = f.get(word) as u8;
    if imm {
        Src8::Imm(v)
    } else {
        Src8::Reg(v)
    }
}

/// Writes a `#cat6-src`; returns whether it is an immediate.
fn write_src8(word: &mut u64, f: Field, src: Src8) -> Result<bool, EncodeError> {
    match src {
        Src8::Reg(n) => f.set(word, n as u64).map(|_| false),
        Src8::Imm(n) => f.set(word, n as u64).map(|_| true),
    }
}

fn read_addr(word: u64, f: Field, is_const: bool) -> AddrSrc {
    let v = f.get(word) as u8;
    if is_const {
        AddrSrc::Const(v)
    } else {
        AddrSrc::Reg(v)
    }
}

fn write_addr(word: &mut u64, f: Field, src: AddrSrc) -> Result<bool, EncodeError> {
    match src {
        AddrSrc::Reg(n) => f.set(word, n as u64).map(|_| false),
        AddrSrc::Const(n) => f.set(word, n as u64).map(|_| true),
    }
}

fn read_const_dst(word: u64) -> ConstDst {
    let v = CONST_DST.get(word) as u8;
    if CONST_DST_A1.get_bool(word) {
        ConstDst::A1(v)
    } else {
        ConstDst::Imm(v)
    }
}

fn write_const_dst(word: &mut u64, dst: ConstDst) -> Result<(), EncodeError> {
    let (a1, v) = match dst {
        ConstDst::Imm(v) => (false, v),
        ConstDst::A1(v) => (true, v),
    };
    CONST_DST_A1.set_bool(word, a1);
    CONST_DST.set(word, v as u64)
}

fn minus_one(f: Field, value: u16, what: &str) -> Result<u64, EncodeError> {
    if value == 0 || (value - 1) as u64 > f.mask() >> f.lo {
        return Err(EncodeError::new(format!(
            "{what} {value} is outside 1..={}",
            (f.mask() >> f.lo) + 1
        )));
    }
    Ok((value - 1) as u64)
}

fn read_desc(word: u64) -> Result<BufferDesc, &'static str> {
    let mode = match MODE.get(word) {
        0 => IndexMode::Imm,
        1 => IndexMode::Uniform,
        2 => IndexMode::Nonuniform,
        _ => return Err("source mode 3"),
    };
    let bindless = BINDLESS.get_bool(word);
    Ok(BufferDesc {
        mode,
        bindless,
        // `.baseN` shows only for bindless accesses.
        base: if bindless { BASE.get(word) as u8 } else { 0 },
    })
}

fn write_desc(word: &mut u64, d: BufferDesc) -> Result<(), EncodeError> {
    MODE.set(word, d.mode as u64)?;
    BINDLESS.set_bool(word, d.bindless);
    BASE.set(word, d.base as u64)
}

/// Decodes `stib.b`, `ldib.b` or `atomic.b.*`.
fn ibo_instr(word: u64, op: Opcode, bad: &dyn Fn(&str) -> DecodeError) -> Result<Mem, DecodeError> {
    let desc = read_desc(word).map_err(bad)?;
    let load_store = matches!(op, Opcode::StibB | Opcode::LdibB);
    Ok(Mem::Ibo(Ibo {
        op,
        typed: TYPED.get_bool(word),
        d: D_MINUS_ONE.get(word) as u8 + 1,
        ty: Type::from_bits(TYPE.get(word)),
        type_size: TYPE_SIZE_MINUS_ONE.get(word) as u8 + 1,
        desc,
        reg: IBO_SRC1.get(word) as u8,
        coord: SRC2_HI.get(word) as u8,
        offset: (load_store && HAS_OFFSET.get_bool(word))
            .then_some((OFFSET_HI.get(word) << 5 | OFFSET_LO.get(word)) as u8),
        ssbo: read_src8(word, SSBO, desc.mode == IndexMode::Imm),
    }))
}

/// Decodes the a6xx-style encodings, or returns `None` for the others.
fn decode_a6xx(word: u64, bad: &dyn Fn(&str) -> DecodeError) -> Result<Option<Mem>, DecodeError> {
    if !matches(word, &A6XX_COMMON) {
        return Ok(None);
    }
    let opcode = a6xx_opcode(A6_OPC.get(word));
    let sel = (word >> 52) & 3;
    let ty = Type::from_bits(TYPE.get(word));
    let d = D_MINUS_ONE.get(word) as u8 + 1;
    let typed = TYPED.get_bool(word);
    let type_size = TYPE_SIZE_MINUS_ONE.get(word) as u8 + 1;
    let ibo = matches(word, &IBO_BASE);
    let plain_opcode = OPC.get(word) == 0 && OFFSET_HI.get(word) == 0;
    let m = match opcode {
        // stib.b/ldib.b keep the high bits of their offset in bits 54..58.
        Some(op @ (Opcode::StibB | Opcode::LdibB)) if ibo && sel == 2 && !BIT0.get_bool(word) => {
            ibo_instr(word, op, bad)?
        }
        _ if !plain_opcode => return Ok(None),
        Some(op) if op.info().has(flags::ATOMIC) && ibo && sel == 3 => ibo_instr(word, op, bad)?,
        Some(Opcode::Ldc) if matches(word, &LDC) => {
            let desc = read_desc(word).map_err(bad)?;
            let src1 = read_src8(word, SRC2_HI, LDC_SRC1_IM.get_bool(word));
            let src2 = read_src8(word, SSBO, desc.mode == IndexMode::Imm);
            if sel == 3 {
                Mem::Ldc(Ldc {
                    op: Opcode::LdcK,
                    u: false,
                    component: 0,
                    size: LDC_LOAD_SIZE.get(word) as u16 + 1,
                    dst: 0,
                    src1,
                    src2,
                    desc,
                })
            } else {
                Mem::Ldc(Ldc {
                    op: Opcode::Ldc,
                    u: LDC_U.get_bool(word),
                    component: LDC_COMPONENT.get(word) as u8,
                    size: type_size as u16,
                    dst: DST.get(word) as u8,
                    src1,
                    src2,
                    desc,
                })
            }
        }
        Some(op @ (Opcode::Getspid | Opcode::Getwid | Opcode::Getfiberid))
            if matches(word, &GETID) && (op != Opcode::Getfiberid || HAS_OFFSET.get_bool(word)) =>
        {
            Mem::GetId(GetId {
                op,
                ty,
                dst: DST.get(word) as u8,
            })
        }
        Some(op @ (Opcode::ResinfoB | Opcode::Resbase)) if matches(word, &RESINFO_B) => {
            let desc = read_desc(word).map_err(bad)?;
            Mem::ResinfoB(ResinfoB {
                op,
                typed,
                d,
                ty,
                type_size,
                desc,
                dst: DST.get(word) as u8,
                ssbo: read_src8(word, SSBO, desc.mode == IndexMode::Imm),
            })
        }
        _ => return Ok(None),
    };
    Ok(Some(m))
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let bad = |why: &str| DecodeError::undefined(word, generation, format!("cat6: {why}"));
    if let Some(m) = decode_a6xx(word, &bad)? {
        return Ok(Op::Mem(m));
    }
    let ty = Type::from_bits(TYPE.get(word));
    let opc = OPC.get(word) as u8;
    let a7 = generation.is_a7xx();
    let m = match opc {
        0 if matches(word, &LDG) => Mem::Global(Global {
            op: Opcode::Ldg,
            ty,
            reg: DST.get(word) as u8,
            base: AddrSrc::Reg(SRC1_LO.get(word) as u8),
            addr: GlobalAddr::Offset(OFF13.get_signed(word) as i32),
            size: SIZE3.get(word) as u8,
        }),
        0 if matches(word, &LDG_A) => Mem::Global(Global {
            op: Opcode::LdgA,
            ty,
            reg: DST.get(word) as u8,
            base: read_addr(word, SRC1_LO, a7 && A7_SRC1_CONST.get_bool(word)),
            addr: if a7 {
                GlobalAddr::Indexed {
                    index: A6_SRC2.get(word) as u8,
                    offset: A7_LDG_OFF.get(word) as u8,
                }
            } else {
                GlobalAddr::Scaled {
                    index: A6_SRC2.get(word) as u8,
                    shift: A6_SHIFT.get(word) as u8,
                    offset: A6_OFF.get(word) as u8,
                }
            },
            size: SIZE3.get(word) as u8,
        }),
        0 if matches(word, &LDG_K) => Mem::LdgK(LdgK {
            ty,
            dst: read_const_dst(word),
            base: SRC1_LO.get(word) as u8,
            offset: OFF13.get_signed(word) as i32,
            size: LDGK_SIZE.get(word) as u8,
        }),
        1 | 2 | 10 if matches(word, &LD_LOCAL) => Mem::Local(Local {
            op: [Opcode::Ldl, Opcode::Ldp, Opcode::Ldlw][match opc {
                1 => 0,
                2 => 1,
                _ => 2,
            }],
            ty,
            reg: DST.get(word) as u8,
            addr: LD_SRC.get(word) as u8,
            offset: OFF13.get_signed(word) as i32,
            size: SIZE8.get(word) as u8,
        }),
        3 if matches(word, &STG_COMMON) => {
            let indexed = (word >> 52) & 1 != 0;
            let value = STG_VALUE.get(word) as u8;
            let size = SIZE3.get(word) as u8;
            if !indexed {
                Mem::Global(Global {
                    op: Opcode::Stg,
                    ty,
                    reg: value,
                    base: AddrSrc::Reg(STG_ADDR.get(word) as u8),
                    addr: GlobalAddr::Offset(
                        ((STG_OFF_HI.get_signed(word) << 8) | STG_OFF_LO.get(word) as i64) as i32,
                    ),
                    size,
                })
            } else if a7 {
                if (word >> 22) & 1 != 0 {
                    return Err(bad("stg.a with bit 22 set"));
                }
                Mem::Global(Global {
                    op: Opcode::StgA,
                    ty,
                    reg: value,
                    base: read_addr(word, STG_ADDR, A7_SRC1_CONST.get_bool(word)),
                    addr: GlobalAddr::Indexed {
                        index: STG_INDEX.get(word) as u8,
                        offset: A7_STG_OFF.get(word) as u8,
                    },
                    size,
                })
            } else {
                Mem::Global(Global {
                    op: Opcode::StgA,
                    ty,
                    reg: value,
                    base: AddrSrc::Reg(STG_ADDR.get(word) as u8),
                    addr: GlobalAddr::Scaled {
                        index: STG_INDEX.get(word) as u8,
                        shift: A6_SHIFT.get(word) as u8,
                        offset: A6_OFF.get(word) as u8,
                    },
                    size,
                })
            }
        }
        4 | 5 | 11 if matches(word, &ST_LOCAL) => Mem::Local(Local {
            op: [Opcode::Stl, Opcode::Stp, Opcode::Stlw][match opc {
                4 => 0,
                5 => 1,
                _ => 2,
            }],
            ty,
            reg: ST_SRC.get(word) as u8,
            addr: ST_DST.get(word) as u8,
            offset: ((STG_OFF_HI.get_signed(word) << 8) | STG_OFF_LO.get(word) as i64) as i32,
            size: SIZE8.get(word) as u8,
        }),
        14 if a7 && matches(word, &RAY) => Mem::Ray(RayIntersection {
            dst: DST.get(word) as u8,
            bvh: read_addr(word, SRC1_LO, A7_SRC1_CONST.get_bool(word)),
            src2: A6_SRC2.get(word) as u8,
            src3: SRC2_HI.get(word) as u8,
            src4: RAY_SRC4.get(word) as u8,
        }),
        15 if matches(word, &RESINFO) => Mem::Resinfo(Resinfo {
            ty,
            d: D_MINUS_ONE.get(word) as u8 + 1,
            dst: DST.get(word) as u8,
            ssbo: read_src8(word, SSBO, SSBO_IM.get_bool(word)),
        }),
        16..=26 if matches(word, &ATOMIC) => {
            let global = ATOMIC_GLOBAL.get_bool(word);
            let op = OPCODES
                .iter()
                .filter(|i| i.cat == 6 && i.sub == 0 && i.enc == opc)
                .map(|i| i.opcode)
                .nth(global as usize)
                .expect("local and global atomics for every opcode");
            Mem::Atomic(Atomic {
                op,
                typed: TYPED.get_bool(word),
                d: D_MINUS_ONE.get(word) as u8 + 1,
                ty,
                type_size: TYPE_SIZE_MINUS_ONE.get(word) as u8 + 1,
                dst: DST.get(word) as u8,
                src1: read_src8(word, SRC1_LO, ATOMIC_SRC1_IM.get_bool(word)),
                src2: read_src8(word, SRC2_HI, SRC2_IM.get_bool(word)),
            })
        }
        27 if matches(word, &SHFL) => Mem::Shfl(Shfl {
            mode: match SHFL_MODE.get(word) {
                1 => ShflMode::Xor,
                2 => ShflMode::Up,
                3 => ShflMode::Down,
                6 => ShflMode::Rup,
                7 => ShflMode::Rdown,
                m => return Err(bad(&format!("shfl mode {m}"))),
            },
            ty,
            dst: DST.get(word) as u8,
            src1: SHFL_SRC1.get(word) as u8,
            src2: read_src8(word, SRC2_HI, SRC2_IM.get_bool(word)),
        }),
        28 if matches(word, &STC) => Mem::Stc(Stc {
            ty,
            dst: read_const_dst(word),
            src: ST_SRC.get(word) as u8,
            size: SIZE3.get(word) as u8,
        }),
        29 if a7 && matches(word, &STSC) => Mem::Stsc(Stsc {
            ty,
            dst: (STSC_DST_HI.get(word) << 8 | STG_OFF_LO.get(word)) as u16,
            src: ST_SRC.get(word) as u8,
            size: SIZE8.get(word) as u8,
        }),
        31 if matches(word, &LDLV) => Mem::Ldlv(Ldlv {
            ty,
            dst: DST.get(word) as u8,
            offset: LDLV_OFF.get(word) as u16,
            size: SIZE8.get(word) as u8,
        }),
        _ => return Err(bad(&format!("no encoding matches (opcode field {opc})"))),
    };
    Ok(Op::Mem(m))
}

fn encode_global(w: &mut u64, g: &Global, a7: bool) -> Result<(), EncodeError> {
    TYPE.set(w, g.ty as u64)?;
    SIZE3.set(w, g.size as u64)?;
    let load = match g.op {
        Opcode::Ldg | Opcode::LdgA => true,
        Opcode::Stg | Opcode::StgA => false,
        op => return Err(EncodeError::new(format!("{op} is not ldg/stg"))),
    };
    let indexed = matches!(g.op, Opcode::LdgA | Opcode::StgA);
    let mismatch = || {
        EncodeError::new(format!(
            "{} on {} does not take this addressing",
            g.op,
            if a7 { "a7xx" } else { "a6xx" }
        ))
    };
    if load {
        DST.set(w, g.reg as u64)?;
        apply(w, if indexed { &LDG_A } else { &LDG });
    } else {
        OPC.set(w, 3)?;
        apply(w, &STG_COMMON);
        STG_VALUE.set(w, g.reg as u64)?;
        *w |= (indexed as u64) << 52;
    }
    let (addr_field, index_field, off_field) = if load {
        (SRC1_LO, A6_SRC2, A7_LDG_OFF)
    } else {
        (STG_ADDR, STG_INDEX, A7_STG_OFF)
    };
    let is_const = write_addr(w, addr_field, g.base)?;
    match g.addr {
        GlobalAddr::Offset(off) if !indexed && !is_const => {
            if load {
                OFF13.set_signed(w, off as i64)?;
            } else {
                STG_OFF_HI.set_signed(w, (off >> 8) as i64)?;
                STG_OFF_LO.set(w, (off & 0xff) as u64)?;
            }
        }
        GlobalAddr::Scaled {
            index,
            shift,
            offset,
        } if indexed && !a7 && !is_const => {
            if g.ty.shift() == 0 && shift != 0 {
                // The 8-bit forms print no index shift.
                return Err(EncodeError::new(format!(
                    "{}.{} takes no index shift",
                    g.op,
                    g.ty.name()
                )));
            }
            index_field.set(w, index as u64)?;
            A6_SHIFT.set(w, shift as u64)?;
            A6_OFF.set(w, offset as u64)?;
        }
        GlobalAddr::Indexed { index, offset } if indexed && a7 => {
            index_field.set(w, index as u64)?;
            A7_SRC1_CONST.set_bool(w, is_const);
            off_field.set(w, offset as u64)?;
        }
        _ => return Err(mismatch()),
    }
    Ok(())
}

fn check_cat6(op: Opcode, generation: IsaGen) -> Result<(), EncodeError> {
    let info = op.info();
    if info.cat != 6 {
        return Err(EncodeError::new(format!("{op} is not a cat6 opcode")));
    }
    if !info.exists_on(generation) {
        return Err(EncodeError::new(format!("{op} exists only on a7xx")));
    }
    Ok(())
}

pub(crate) fn encode(m: &Mem, generation: IsaGen) -> Result<u64, EncodeError> {
    let op = m.opcode();
    check_cat6(op, generation)?;
    let info = op.info();
    let a7 = generation.is_a7xx();
    let mut w = 0u64;
    match m {
        Mem::Global(g) => encode_global(&mut w, g, a7)?,
        Mem::LdgK(k) => {
            apply(&mut w, &LDG_K);
            TYPE.set(&mut w, k.ty as u64)?;
            write_const_dst(&mut w, k.dst)?;
            SRC1_LO.set(&mut w, k.base as u64)?;
            OFF13.set_signed(&mut w, k.offset as i64)?;
            LDGK_SIZE.set(&mut w, k.size as u64)?;
        }
        Mem::Local(l) => {
            OPC.set(&mut w, info.enc as u64)?;
            TYPE.set(&mut w, l.ty as u64)?;
            SIZE8.set(&mut w, l.size as u64)?;
            match l.op {
                Opcode::Ldl | Opcode::Ldp | Opcode::Ldlw => {
                    apply(&mut w, &LD_LOCAL);
                    DST.set(&mut w, l.reg as u64)?;
                    LD_SRC.set(&mut w, l.addr as u64)?;
                    OFF13.set_signed(&mut w, l.offset as i64)?;
                }
                Opcode::Stl | Opcode::Stp | Opcode::Stlw => {
                    apply(&mut w, &ST_LOCAL);
                    ST_SRC.set(&mut w, l.reg as u64)?;
                    ST_DST.set(&mut w, l.addr as u64)?;
                    STG_OFF_HI.set_signed(&mut w, (l.offset >> 8) as i64)?;
                    STG_OFF_LO.set(&mut w, (l.offset & 0xff) as u64)?;
                }
                _ => return Err(EncodeError::new(format!("{op} is not a local access"))),
            }
        }
        Mem::Ldlv(l) => {
            OPC.set(&mut w, 31)?;
            apply(&mut w, &LDLV);
            TYPE.set(&mut w, l.ty as u64)?;
            DST.set(&mut w, l.dst as u64)?;
            LDLV_OFF.set(&mut w, l.offset as u64)?;
            SIZE8.set(&mut w, l.size as u64)?;
        }
        Mem::Stc(s) => {
            OPC.set(&mut w, 28)?;
            apply(&mut w, &STC);
            TYPE.set(&mut w, s.ty as u64)?;
            write_const_dst(&mut w, s.dst)?;
            ST_SRC.set(&mut w, s.src as u64)?;
            SIZE3.set(&mut w, s.size as u64)?;
        }
        Mem::Stsc(s) => {
            OPC.set(&mut w, 29)?;
            apply(&mut w, &STSC);
            TYPE.set(&mut w, s.ty as u64)?;
            if s.dst >> 13 != 0 {
                return Err(EncodeError::new(format!(
                    "stsc destination c[{}] past 13 bits",
                    s.dst
                )));
            }
            STSC_DST_HI.set(&mut w, (s.dst >> 8) as u64)?;
            STG_OFF_LO.set(&mut w, (s.dst & 0xff) as u64)?;
            ST_SRC.set(&mut w, s.src as u64)?;
            SIZE8.set(&mut w, s.size as u64)?;
        }
        Mem::Resinfo(r) => {
            OPC.set(&mut w, 15)?;
            apply(&mut w, &RESINFO);
            TYPE.set(&mut w, r.ty as u64)?;
            D_MINUS_ONE.set(
                &mut w,
                minus_one(D_MINUS_ONE, r.d as u16, "dimension count")?,
            )?;
            DST.set(&mut w, r.dst as u64)?;
            let im = write_src8(&mut w, SSBO, r.ssbo)?;
            SSBO_IM.set_bool(&mut w, im);
        }
        Mem::Atomic(a) => {
            if !info.has(flags::ATOMIC) || info.sub != 0 {
                return Err(EncodeError::new(format!("{op} is not an atomic.* opcode")));
            }
            OPC.set(&mut w, info.enc as u64)?;
            apply(&mut w, &ATOMIC);
            ATOMIC_GLOBAL.set_bool(&mut w, op.name().starts_with("atomic.g."));
            TYPE.set(&mut w, a.ty as u64)?;
            TYPED.set_bool(&mut w, a.typed);
            D_MINUS_ONE.set(
                &mut w,
                minus_one(D_MINUS_ONE, a.d as u16, "dimension count")?,
            )?;
            TYPE_SIZE_MINUS_ONE.set(
                &mut w,
                minus_one(TYPE_SIZE_MINUS_ONE, a.type_size as u16, "type size")?,
            )?;
            DST.set(&mut w, a.dst as u64)?;
            let im = write_src8(&mut w, SRC1_LO, a.src1)?;
            ATOMIC_SRC1_IM.set_bool(&mut w, im);
            let im = write_src8(&mut w, SRC2_HI, a.src2)?;
            SRC2_IM.set_bool(&mut w, im);
        }
        Mem::Ray(r) => {
            OPC.set(&mut w, 14)?;
            apply(&mut w, &RAY);
            DST.set(&mut w, r.dst as u64)?;
            let is_const = write_addr(&mut w, SRC1_LO, r.bvh)?;
            A7_SRC1_CONST.set_bool(&mut w, is_const);
            A6_SRC2.set(&mut w, r.src2 as u64)?;
            SRC2_HI.set(&mut w, r.src3 as u64)?;
            RAY_SRC4.set(&mut w, r.src4 as u64)?;
        }
        Mem::Shfl(s) => {
            OPC.set(&mut w, 27)?;
            apply(&mut w, &SHFL);
            SHFL_MODE.set(&mut w, s.mode as u64)?;
            TYPE.set(&mut w, s.ty as u64)?;
            DST.set(&mut w, s.dst as u64)?;
            SHFL_SRC1.set(&mut w, s.src1 as u64)?;
            let im = write_src8(&mut w, SRC2_HI, s.src2)?;
            SRC2_IM.set_bool(&mut w, im);
        }
        Mem::Ldc(l) => {
            A6_OPC.set(&mut w, 0b011110)?;
            apply(&mut w, &LDC);
            write_desc(&mut w, l.desc)?;
            let im = write_src8(&mut w, SRC2_HI, l.src1)?;
            LDC_SRC1_IM.set_bool(&mut w, im);
            let im = write_src8(&mut w, SSBO, l.src2)?;
            if im != (l.desc.mode == IndexMode::Imm) {
                return Err(EncodeError::new(
                    "the UBO index is an immediate exactly when the mode is imm",
                ));
            }
            if l.op == Opcode::LdcK {
                w |= 1 << 52;
                LDC_LOAD_SIZE.set(&mut w, minus_one(LDC_LOAD_SIZE, l.size, "ldc.k size")?)?;
            } else {
                LDC_U.set_bool(&mut w, l.u);
                LDC_COMPONENT.set(&mut w, l.component as u64)?;
                TYPE_SIZE_MINUS_ONE
                    .set(&mut w, minus_one(TYPE_SIZE_MINUS_ONE, l.size, "ldc size")?)?;
                DST.set(&mut w, l.dst as u64)?;
            }
        }
        Mem::GetId(g) => {
            A6_OPC.set(&mut w, info.enc as u64)?;
            apply(&mut w, &GETID);
            if g.op == Opcode::Getfiberid {
                HAS_OFFSET.set_bool(&mut w, true);
            }
            TYPE.set(&mut w, g.ty as u64)?;
            DST.set(&mut w, g.dst as u64)?;
        }
        Mem::ResinfoB(r) => {
            A6_OPC.set(&mut w, info.enc as u64)?;
            apply(&mut w, &RESINFO_B);
            write_desc(&mut w, r.desc)?;
            TYPED.set_bool(&mut w, r.typed);
            D_MINUS_ONE.set(
                &mut w,
                minus_one(D_MINUS_ONE, r.d as u16, "dimension count")?,
            )?;
            TYPE_SIZE_MINUS_ONE.set(
                &mut w,
                minus_one(TYPE_SIZE_MINUS_ONE, r.type_size as u16, "type size")?,
            )?;
            TYPE.set(&mut w, r.ty as u64)?;
            DST.set(&mut w, r.dst as u64)?;
            let im = write_src8(&mut w, SSBO, r.ssbo)?;
            if im != (r.desc.mode == IndexMode::Imm) {
                return Err(EncodeError::new(
                    "the buffer index is an immediate exactly when the mode is imm",
                ));
            }
        }
        Mem::Ibo(i) => {
            if info.sub != 1
                || !(info.has(flags::ATOMIC) || matches!(op, Opcode::StibB | Opcode::LdibB))
            {
                return Err(EncodeError::new(format!(
                    "{op} is not stib.b/ldib.b/atomic.b"
                )));
            }
            A6_OPC.set(&mut w, info.enc as u64)?;
            apply(&mut w, &IBO_BASE);
            write_desc(&mut w, i.desc)?;
            TYPED.set_bool(&mut w, i.typed);
            D_MINUS_ONE.set(
                &mut w,
                minus_one(D_MINUS_ONE, i.d as u16, "dimension count")?,
            )?;
            TYPE_SIZE_MINUS_ONE.set(
                &mut w,
                minus_one(TYPE_SIZE_MINUS_ONE, i.type_size as u16, "type size")?,
            )?;
            TYPE.set(&mut w, i.ty as u64)?;
            IBO_SRC1.set(&mut w, i.reg as u64)?;
            SRC2_HI.set(&mut w, i.coord as u64)?;
            let im = write_src8(&mut w, SSBO, i.ssbo)?;
            if im != (i.desc.mode == IndexMode::Imm) {
                return Err(EncodeError::new(
                    "the buffer index is an immediate exactly when the mode is imm",
                ));
            }
            let sel = if info.has(flags::ATOMIC) { 3 } else { 2 };
            w |= sel << 52;
            if let Some(off) = i.offset {
                if off == 0 || off > 127 {
                    return Err(EncodeError::new(format!(
                        "{op} offset {off} is outside 1..=127 (0 prints as none)"
                    )));
                }
                HAS_OFFSET.set_bool(&mut w, true);
                OFFSET_HI.set(&mut w, (off >> 5) as u64)?;
                OFFSET_LO.set(&mut w, (off & 31) as u64)?;
            }
        }
    }
    Ok(w)
}
