//! cat2 (one and two source ALU) encoding, from `ir3-cat2.xml`.

use super::alu_src::{decode_multisrc, dst_conv, dst_half, encode_multisrc};
use crate::bits::{field, flag, Field};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Alu, Op};
use crate::opcode::{flags, Opcode};
use crate::operand::{Operand, Reg};
use crate::types::Cond;

const SRC1: Field = field("SRC1", 0, 15);
const SRC2: Field = field("SRC2", 16, 31);
const DST: Field = field("DST", 32, 39);
const REPEAT: Field = field("REPEAT", 40, 41);
const SAT: Field = flag("SAT", 42);
const SRC1_R: Field = flag("SRC1_R", 43);
const UL: Field = flag("UL", 45);
const DST_CONV: Field = flag("DST_CONV", 46);
const EI: Field = flag("EI", 47);
const COND: Field = field("COND", 48, 50);
const INPUT_SUB: Field = flag("INPUT_SUB", 50);
const SRC2_R: Field = flag("SRC2_R", 51);
const FULL: Field = flag("FULL", 52);
const OPC: Field = field("OPC", 53, 58);

/// `bary.f` and `flat.b` show their `(r)` bits as `(r)` even without a
/// repeat; every other cat2 opcode uses them for `(nopN)` then.
pub(crate) fn has_nop_syntax(op: Opcode) -> bool {
    !matches!(op, Opcode::BaryF | Opcode::FlatB)
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let opc = OPC.get(word) as u8;
    let sub = if opc == 57 {
        INPUT_SUB.get(word) as u8
    } else {
        0
    };
    let op = Opcode::find(2, opc, sub)
        .ok_or_else(|| DecodeError::undefined(word, generation, format!("cat2 opcode {opc}")))?;
    let info = op.info();
    if info.has(flags::A7XX) && !generation.is_a7xx() {
        return Err(DecodeError::undefined(word, generation, "a7xx-only opcode"));
    }
    let src_half = !FULL.get_bool(word);
    let bad = |why: &str| DecodeError::undefined(word, generation, format!("{}: {why}", op));
    let mut src1 = decode_multisrc(SRC1.get(word), src_half).map_err(bad)?;
    let mut src2 = if info.nsrc == 2 {
        Some(decode_multisrc(SRC2.get(word), src_half).map_err(bad)?)
    } else {
        None
    };
    let cond = if info.has(flags::COND) {
        Cond::from_bits(COND.get(word)).ok_or_else(|| bad("condition code 6 or 7"))?
    } else {
        Cond::default()
    };
    let repeat = REPEAT.get(word) as u8;
    let (r1, r2) = (SRC1_R.get_bool(word), SRC2_R.get_bool(word));
    let mut nop = 0;
    if !has_nop_syntax(op) || repeat > 0 {
        src1.r = r1;
        if let Some(s) = src2.as_mut() {
            s.r = r2;
        }
    } else {
        nop = r1 as u8 | (r2 as u8) << 1;
    }
    let num = DST.get(word) as u8;
    Ok(Op::Alu(Alu {
        op,
        dst: Reg {
            num,
            half: dst_half(num, DST_CONV.get_bool(word), src_half),
        },
        src1,
        src2,
        cond,
        repeat,
        nop,
        sat: SAT.get_bool(word),
        ul: UL.get_bool(word),
        ei: EI.get_bool(word),
    }))
}

fn check_precision(src: &Operand, half: bool) -> Result<(), EncodeError> {
    if src.half != half {
        return Err(EncodeError::new(
            "cat2 sources must all be full or all be half precision",
        ));
    }
    Ok(())
}

pub(crate) fn encode(a: &Alu) -> Result<u64, EncodeError> {
    let info = a.op.info();
    if info.cat != 2 {
        return Err(EncodeError::new(format!("{} is not a cat2 opcode", a.op)));
    }
    let mut w = 0u64;
    OPC.set(&mut w, info.enc as u64)?;
    if info.enc == 57 {
        INPUT_SUB.set(&mut w, info.sub as u64)?;
    }
    let half = a.src1.half;
    FULL.set_bool(&mut w, !half);
    SRC1.set(&mut w, encode_multisrc(&a.src1)?)?;
    match (info.nsrc, &a.src2) {
        (2, Some(s)) => {
            check_precision(s, half)?;
            SRC2.set(&mut w, encode_multisrc(s)?)?;
        }
        (2, None) => return Err(EncodeError::new(format!("{} takes two sources", a.op))),
        (_, Some(_)) => return Err(EncodeError::new(format!("{} takes one source", a.op))),
        _ => {}
    }
    if info.has(flags::COND) {
        COND.set(&mut w, a.cond as u64)?;
    }
    REPEAT.set(&mut w, a.repeat as u64)?;
    let r2 = a.src2.is_some_and(|s| s.r);
    if has_nop_syntax(a.op) && a.repeat == 0 {
        if a.src1.r || r2 {
            return Err(EncodeError::new("(r) needs (rptN)"));
        }
        if a.nop > 3 {
            return Err(EncodeError::new(format!("(nop{}) is more than 3", a.nop)));
        }
        SRC1_R.set_bool(&mut w, a.nop & 1 != 0);
        SRC2_R.set_bool(&mut w, a.nop & 2 != 0);
    } else {
        if a.nop != 0 {
            return Err(EncodeError::new(
                "(nopN) cannot go with (rptN) or on bary.f/flat.b",
            ));
        }
        SRC1_R.set_bool(&mut w, a.src1.r);
        SRC2_R.set_bool(&mut w, r2);
    }
    DST.set(&mut w, a.dst.num as u64)?;
    DST_CONV.set_bool(&mut w, dst_conv(a.dst, half)?);
    SAT.set_bool(&mut w, a.sat);
    UL.set_bool(&mut w, a.ul);
    EI.set_bool(&mut w, a.ei);
    Ok(w)
}
