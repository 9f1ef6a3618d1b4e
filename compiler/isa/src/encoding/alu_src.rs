//! The source encodings shared by the ALU categories: the 16-bit `#multisrc`
//! of cat2/cat4 and the 13-bit `#cat3-src` (from `ir3-common.xml` and
//! `ir3-cat3.xml`), and the destination precision rule of cat2/cat3/cat4.

use crate::bits::{field, flag, Field};
use crate::error::EncodeError;
use crate::operand::{Operand, Reg, SrcKind, FLUT};

const MS_REG: Field = field("SRC", 0, 7);
const MS_LAST: Field = flag("LAST", 10);
const MS_CONST: Field = field("CONST", 0, 10);
const MS_IMM: Field = field("IMMED", 0, 10);
const MS_FLUT: Field = field("IMMED", 0, 9);
const MS_FLUT_HALF: Field = flag("FLUT_HALF", 10);
const MS_REL: Field = field("OFFSET", 0, 9);
const MS_REL_CONST: Field = flag("REL_CONST", 10);
const MS_MODE: Field = field("MODE", 11, 13);
const MS_NEG: Field = flag("NEG", 14);
const MS_ABS: Field = flag("ABS", 15);

/// Decodes a `#multisrc` (16 bits) read at precision `half`. `r` is the
/// source's repeat flag, which lives outside the 16 bits.
pub(crate) fn decode_multisrc(bits: u64, half: bool) -> Result<Operand, &'static str> {
    let mut op = Operand {
        half,
        neg: MS_NEG.get_bool(bits),
        abs: MS_ABS.get_bool(bits),
        ..Operand::default()
    };
    op.kind = match MS_MODE.get(bits) {
        0b000 => {
            op.last = MS_LAST.get_bool(bits);
            SrcKind::Reg(MS_REG.get(bits) as u8)
        }
        0b001 => {
            let off = MS_REL.get_signed(bits) as i16;
            if MS_REL_CONST.get_bool(bits) {
                SrcKind::RelConst(off)
            } else {
                SrcKind::RelReg(off)
            }
        }
        // The XML's pattern is `x10`: bit 13 is don't-care.
        0b010 | 0b110 => SrcKind::Const(MS_CONST.get(bits) as u16),
        0b100 => SrcKind::Imm(MS_IMM.get_signed(bits) as i32),
        0b101 => {
            let index = MS_FLUT.get(bits);
            if index as usize >= FLUT.len() {
                return Err("float lookup table index past its 12 entries");
            }
            // The half flag of a lookup source is its own bit; it must agree
            // with the instruction's precision (checked by the encoder).
            op.half = MS_FLUT_HALF.get_bool(bits);
            SrcKind::FLut(index as u8)
        }
        _ => return Err("undefined source mode"),
    };
    Ok(op)
}

/// Encodes a `#multisrc` into its 16 bits (the `(r)` and precision bits are
/// the caller's).
pub(crate) fn encode_multisrc(op: &Operand) -> Result<u64, EncodeError> {
    let mut w = 0u64;
    MS_NEG.set_bool(&mut w, op.neg);
    MS_ABS.set_bool(&mut w, op.abs);
    if op.last && !matches!(op.kind, SrcKind::Reg(_)) {
        return Err(EncodeError::new("(last) applies to register sources only"));
    }
    match op.kind {
        SrcKind::Reg(n) => {
            MS_REG.set(&mut w, n as u64)?;
            MS_LAST.set_bool(&mut w, op.last);
        }
        SrcKind::RelReg(off) | SrcKind::RelConst(off) => {
            MS_MODE.set(&mut w, 0b001)?;
            MS_REL.set_signed(&mut w, off as i64)?;
            MS_REL_CONST.set_bool(&mut w, matches!(op.kind, SrcKind::RelConst(_)));
        }
        SrcKind::Const(n) => {
            MS_MODE.set(&mut w, 0b010)?;
            MS_CONST.set(&mut w, n as u64)?;
        }
        SrcKind::Imm(v) => {
            MS_MODE.set(&mut w, 0b100)?;
            MS_IMM.set_signed(&mut w, v as i64)?;
        }
        SrcKind::FLut(i) => {
            if i as usize >= FLUT.len() {
                return Err(EncodeError::new(format!(
                    "float lookup table index {i} past its 12 entries"
                )));
            }
            MS_MODE.set(&mut w, 0b101)?;
            MS_FLUT.set(&mut w, i as u64)?;
            MS_FLUT_HALF.set_bool(&mut w, op.half);
        }
    }
    Ok(w)
}

const C3_REG: Field = field("SRC", 0, 7);
const C3_LAST: Field = flag("LAST", 10);
const C3_CONST: Field = field("CONST", 0, 10);
const C3_IMM: Field = field("IMMED", 0, 11);
const C3_REL: Field = field("OFFSET", 0, 9);
const C3_REL_CONST: Field = flag("REL_CONST", 10);
const C3_MODE: Field = field("MODE", 11, 12);

/// Decodes a `#cat3-src` (13 bits). With `immediates` (the XML's
/// `IMMED_ENCODING`) the const form holds a 12-bit immediate instead.
pub(crate) fn decode_cat3_src(bits: u64, half: bool, immediates: bool) -> Operand {
    let mut op = Operand {
        half,
        ..Operand::default()
    };
    op.kind = match C3_MODE.get(bits) {
        0b00 => {
            op.last = C3_LAST.get_bool(bits);
            SrcKind::Reg(C3_REG.get(bits) as u8)
        }
        0b01 => {
            let off = C3_REL.get_signed(bits) as i16;
            if C3_REL_CONST.get_bool(bits) {
                SrcKind::RelConst(off)
            } else {
                SrcKind::RelReg(off)
            }
        }
        _ if immediates => SrcKind::Imm(C3_IMM.get(bits) as i32),
        // Bit 11 is asserted 0 in the const form.
        _ => SrcKind::Const(C3_CONST.get(bits) as u16),
    };
    op
}

/// Encodes a `#cat3-src` into its 13 bits (modifiers are the caller's).
pub(crate) fn encode_cat3_src(op: &Operand, immediates: bool) -> Result<u64, EncodeError> {
    let mut w = 0u64;
    if op.last && !matches!(op.kind, SrcKind::Reg(_)) {
        return Err(EncodeError::new("(last) applies to register sources only"));
    }
    match op.kind {
        SrcKind::Reg(n) => {
            C3_REG.set(&mut w, n as u64)?;
            C3_LAST.set_bool(&mut w, op.last);
        }
        SrcKind::RelReg(off) | SrcKind::RelConst(off) => {
            C3_MODE.set(&mut w, 0b01)?;
            C3_REL.set_signed(&mut w, off as i64)?;
            C3_REL_CONST.set_bool(&mut w, matches!(op.kind, SrcKind::RelConst(_)));
        }
        SrcKind::Const(n) if !immediates => {
            C3_MODE.set(&mut w, 0b10)?;
            C3_CONST.set(&mut w, n as u64)?;
        }
        SrcKind::Imm(v) if immediates => {
            if !(0..=0xfff).contains(&v) {
                return Err(EncodeError::new(format!(
                    "cat3 immediate {v} is outside 0..=4095"
                )));
            }
            w |= 1 << 12;
            C3_IMM.set(&mut w, v as u64)?;
        }
        SrcKind::Const(_) => {
            return Err(EncodeError::new(
                "this cat3 encoding takes immediates, not consts, in src1/src3",
            ))
        }
        SrcKind::Imm(_) | SrcKind::FLut(_) => {
            return Err(EncodeError::new(
                "this cat3 encoding takes consts, not immediates",
            ))
        }
    }
    Ok(w)
}

/// The `DST_CONV` bit for a destination given the source precision
/// (`#dest-half`: the destination is half when `FULL == DST_CONV`, except
/// that numbers above `a0.w` (p0 and r63) are always full).
pub(crate) fn dst_conv(dst: Reg, src_half: bool) -> Result<bool, EncodeError> {
    if dst.num > 0xf7 {
        if dst.half {
            return Err(EncodeError::new(
                "p0 and r63 destinations cannot be half registers here",
            ));
        }
        return Ok(false);
    }
    Ok(dst.half != src_half)
}

/// The destination precision given `DST_CONV` and the source precision.
pub(crate) fn dst_half(num: u8, conv: bool, src_half: bool) -> bool {
    num <= 0xf7 && (conv != src_half)
}
