//! cat1 (moves and conversions) encoding, from `ir3-cat1.xml`.

use crate::bits::{apply, field, fixed, flag, Field, Fixed};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Mov, MovDst, MovMsk, MovMulti, Op};
use crate::opcode::Opcode;
use crate::operand::{Operand, SrcKind, A0_X, A1_X};
use crate::types::{Round, Type};

const SRC_IMM: Field = field("IMMED", 0, 31);
const SRC_CONST: Field = field("CONST", 0, 10);
const SRC_GPR: Field = field("SRC", 0, 7);
const SRC_LAST: Field = flag("LAST", 10);
const SRC_REL_OFF: Field = field("OFFSET", 0, 9);
const SRC_REL_CONST: Field = flag("REL_CONST", 10);
const SRC_REL: Field = flag("REL", 11);
const DST: Field = field("DST", 32, 39);
const REPEAT: Field = field("REPEAT", 40, 41);
const SUB_OPC: Field = field("SUB_OPC", 40, 41);
const SRC_R: Field = flag("SRC_R", 43);
const UL: Field = flag("UL", 45);
const DST_TYPE: Field = field("DST_TYPE", 46, 48);
const DST_REL: Field = flag("DST_REL", 49);
const SRC_TYPE: Field = field("SRC_TYPE", 50, 52);
const SRC_MODE: Field = field("SRC_MODE", 53, 54);
const ROUND: Field = field("ROUND", 55, 56);
const OPC: Field = field("OPC", 57, 58);

/// The byte-wide register slots of `swz`/`gat`/`sct` after slot 0.
const SLOT: [Field; 3] = [
    field("SLOT1", 8, 15),
    field("SLOT2", 16, 23),
    field("SLOT3", 24, 31),
];

const MOVMSK_TYPES: [Fixed; 2] = [fixed(46, 48, 3), fixed(50, 52, 3)];

/// True when the `mov` is shown as `mova` (to `a0.x`, s16 to s16) or `mova1`
/// (to `a1.x`, u16 to u16), the XML's overrides of `#instruction-cat1-mov`.
pub(crate) fn mova_form(m: &Mov) -> Option<&'static str> {
    match (m.dst, m.src_type, m.dst_type) {
        (MovDst::Reg(A0_X), Type::S16, Type::S16) => Some("mova"),
        (MovDst::Reg(A1_X), Type::U16, Type::U16) => Some("mova1"),
        _ => None,
    }
}

fn read_dst(word: u64) -> MovDst {
    if DST_REL.get_bool(word) {
        MovDst::Rel(DST.get(word) as u8)
    } else {
        MovDst::Reg(DST.get(word) as u8)
    }
}

fn write_dst(word: &mut u64, dst: MovDst) {
    let (rel, num) = match dst {
        MovDst::Reg(n) => (false, n),
        MovDst::Rel(n) => (true, n),
    };
    DST_REL.set_bool(word, rel);
    *word |= (num as u64) << DST.lo;
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let src_type = Type::from_bits(SRC_TYPE.get(word));
    let dst_type = Type::from_bits(DST_TYPE.get(word));
    let round = Round::from_bits(ROUND.get(word));
    let ul = UL.get_bool(word);
    match OPC.get(word) {
        0 => {
            let half = src_type.is_half_cat1();
            let mut src = Operand {
                half,
                r: SRC_R.get_bool(word),
                ..Operand::default()
            };
            src.kind = match SRC_MODE.get(word) {
                0 if SRC_REL.get_bool(word) => {
                    let off = SRC_REL_OFF.get_signed(word) as i16;
                    if SRC_REL_CONST.get_bool(word) {
                        SrcKind::RelConst(off)
                    } else {
                        SrcKind::RelReg(off)
                    }
                }
                0 => {
                    src.last = SRC_LAST.get_bool(word);
                    SrcKind::Reg(SRC_GPR.get(word) as u8)
                }
                1 => SrcKind::Const(SRC_CONST.get(word) as u16),
                2 => SrcKind::Imm(SRC_IMM.get(word) as u32 as i32),
                _ => {
                    return Err(DecodeError::undefined(
                        word,
                        generation,
                        "cat1 source mode 3",
                    ))
                }
            };
            Ok(Op::Mov(Mov {
                src_type,
                dst_type,
                dst: read_dst(word),
                src,
                repeat: REPEAT.get(word) as u8,
                ul,
                round,
            }))
        }
        2 => {
            let op = Opcode::find(1, 2, SUB_OPC.get(word) as u8)
                .ok_or_else(|| DecodeError::undefined(word, generation, "cat1 sub-opcode 3"))?;
            let (ndst, nsrc) = MovMulti::counts(op);
            let mut m = MovMulti {
                op,
                src_type,
                dst_type,
                dsts: [0; 4],
                srcs: [0; 4],
                ul,
                round,
            };
            m.dsts[0] = DST.get(word) as u8;
            m.srcs[0] = SRC_GPR.get(word) as u8;
            // The other slots hold the remaining sources, then destinations.
            let slots = (1..nsrc)
                .map(|i| (true, i))
                .chain((1..ndst).map(|i| (false, i)));
            for (slot, (is_src, i)) in SLOT.iter().zip(slots) {
                let reg = slot.get(word) as u8;
                if is_src {
                    m.srcs[i] = reg;
                } else {
                    m.dsts[i] = reg;
                }
            }
            Ok(Op::MovMulti(m))
        }
        _ => Ok(Op::MovMsk(MovMsk {
            dst: read_dst(word),
            repeat: REPEAT.get(word) as u8,
            ul,
        })),
    }
}

pub(crate) fn encode_mov(m: &Mov) -> Result<u64, EncodeError> {
    let mut w = 0u64;
    OPC.set(&mut w, 0)?;
    SRC_TYPE.set(&mut w, m.src_type as u64)?;
    DST_TYPE.set(&mut w, m.dst_type as u64)?;
    ROUND.set(&mut w, m.round as u64)?;
    UL.set_bool(&mut w, m.ul);
    REPEAT.set(&mut w, m.repeat as u64)?;
    write_dst(&mut w, m.dst);
    if m.src.neg || m.src.abs {
        return Err(EncodeError::new("cat1 sources take no (neg)/(abs)"));
    }
    if m.src.half != m.src_type.is_half_cat1() {
        return Err(EncodeError::new(format!(
            "a {} source is read at {} precision",
            m.src_type.name(),
            if m.src_type.is_half_cat1() {
                "half"
            } else {
                "full"
            }
        )));
    }
    SRC_R.set_bool(&mut w, m.src.r);
    match m.src.kind {
        SrcKind::Reg(n) => {
            SRC_GPR.set(&mut w, n as u64)?;
            SRC_LAST.set_bool(&mut w, m.src.last);
        }
        SrcKind::Const(n) => {
            SRC_MODE.set(&mut w, 1)?;
            SRC_CONST.set(&mut w, n as u64)?;
        }
        SrcKind::RelReg(off) | SrcKind::RelConst(off) => {
            SRC_REL.set_bool(&mut w, true);
            SRC_REL_CONST.set_bool(&mut w, matches!(m.src.kind, SrcKind::RelConst(_)));
            SRC_REL_OFF.set_signed(&mut w, off as i64)?;
        }
        SrcKind::Imm(v) => {
            SRC_MODE.set(&mut w, 2)?;
            SRC_IMM.set(&mut w, v as u32 as u64)?;
            // f16 and s16 immediates show 16 bits only.
            if matches!(m.src_type, Type::F16 | Type::S16) && (v as u32) >> 16 != 0 {
                return Err(EncodeError::new(format!(
                    "a {} immediate holds 16 bits, not {:#x}",
                    m.src_type.name(),
                    v as u32
                )));
            }
            if m.src.r && mova_form(m).is_none() {
                return Err(EncodeError::new(
                    "(r) on an immediate exists only for mova/mova1",
                ));
            }
        }
        SrcKind::FLut(_) => return Err(EncodeError::new("cat1 has no float lookup table")),
    }
    if matches!(m.dst, MovDst::Rel(A0_X | A1_X)) && mova_form_types(m.src_type, m.dst_type) {
        // freedreno prints these as mova/mova1, losing the relative flag.
        return Err(EncodeError::new(
            "a relative mov destination 244/245 with mova types prints as mova",
        ));
    }
    Ok(w)
}

fn mova_form_types(src: Type, dst: Type) -> bool {
    (src, dst) == (Type::S16, Type::S16) || (src, dst) == (Type::U16, Type::U16)
}

pub(crate) fn encode_movmsk(m: &MovMsk) -> Result<u64, EncodeError> {
    let mut w = 0u64;
    OPC.set(&mut w, 3)?;
    apply(&mut w, &MOVMSK_TYPES);
    REPEAT.set(&mut w, m.repeat as u64)?;
    UL.set_bool(&mut w, m.ul);
    write_dst(&mut w, m.dst);
    Ok(w)
}

pub(crate) fn encode_multi(m: &MovMulti) -> Result<u64, EncodeError> {
    let info = m.op.info();
    if info.cat != 1 || info.enc != 2 {
        return Err(EncodeError::new(format!("{} is not swz/gat/sct", m.op)));
    }
    let mut w = 0u64;
    OPC.set(&mut w, 2)?;
    SUB_OPC.set(&mut w, info.sub as u64)?;
    SRC_TYPE.set(&mut w, m.src_type as u64)?;
    DST_TYPE.set(&mut w, m.dst_type as u64)?;
    ROUND.set(&mut w, m.round as u64)?;
    UL.set_bool(&mut w, m.ul);
    DST.set(&mut w, m.dsts[0] as u64)?;
    SRC_GPR.set(&mut w, m.srcs[0] as u64)?;
    let (ndst, nsrc) = MovMulti::counts(m.op);
    let regs = (1..nsrc)
        .map(|i| m.srcs[i])
        .chain((1..ndst).map(|i| m.dsts[i]));
    for (slot, reg) in SLOT.iter().zip(regs) {
        slot.set(&mut w, reg as u64)?;
    }
    Ok(w)
}
