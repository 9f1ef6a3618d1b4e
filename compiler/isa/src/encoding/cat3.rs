//! cat3 (three source ALU) encoding, from `ir3-cat3.xml`.
//!
//! Four layouts share the category, told apart by bit 13 and the opcode:
//! the plain one (`mad`, `sel`, `sad`; precision by opcode, `(sat)` in bit
//! 42), the alternative one of a6xx (`shrm`..`andg`: immediates instead of
//! consts, precision in bit 42), `dp2acc`/`dp4acc` (sign and packing instead
//! of the first negates) and `wmm`/`wmm.accu` (precision in bit 31,
//! destination precision in bit 46).

use super::alu_src::{decode_cat3_src, dst_conv, dst_half, encode_cat3_src};
use crate::bits::{field, flag, Field};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Alu3, DotMode, Op};
use crate::opcode::{flags, Opcode};
use crate::operand::{Operand, Reg, SrcKind};

const SRC1: Field = field("SRC1", 0, 12);
const ALT: Field = flag("ALT", 13);
const SRC1_NEG: Field = flag("SRC1_NEG", 14);
const SRC2_R: Field = flag("SRC2_R", 15);
const SRC3: Field = field("SRC3", 16, 28);
const SRC3_R: Field = flag("SRC3_R", 29);
const SRC2_NEG: Field = flag("SRC2_NEG", 30);
const SRC3_NEG: Field = flag("SRC3_NEG", 31);
const DST: Field = field("DST", 32, 39);
const REPEAT: Field = field("REPEAT", 40, 41);
const BIT42: Field = flag("SAT/FULL", 42);
const SRC1_R: Field = flag("SRC1_R", 43);
const UL: Field = flag("UL", 45);
const BIT46: Field = flag("DST_CONV", 46);
const SRC2: Field = field("SRC2", 47, 54);
const OPC: Field = field("OPC", 55, 58);

/// The layout an opcode uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    Plain,
    Alt,
    Dot,
    Wmm,
}

pub(crate) fn layout(op: Opcode) -> Layout {
    match op.info().sub {
        0 => Layout::Plain,
        1 => Layout::Alt,
        2 | 3 => Layout::Dot,
        _ => Layout::Wmm,
    }
}

/// Whether src1/src3 hold immediates (the XML's `IMMED_ENCODING`).
pub(crate) fn takes_immediates(layout: Layout) -> bool {
    matches!(layout, Layout::Alt | Layout::Wmm)
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let opc = OPC.get(word) as u8;
    let sub = match (ALT.get_bool(word), opc) {
        (false, _) => 0,
        (true, 8..=12) => 1,
        (true, 13) => 2 + BIT46.get(word) as u8,
        (true, 14) => 4 + BIT42.get(word) as u8,
        (true, _) => {
            return Err(DecodeError::undefined(
                word,
                generation,
                format!("cat3 alternative opcode {opc}"),
            ))
        }
    };
    let op = Opcode::find(3, opc, sub)
        .ok_or_else(|| DecodeError::undefined(word, generation, format!("cat3 opcode {opc}")))?;
    let layout = layout(op);
    let half = match layout {
        Layout::Plain => op.info().has(flags::HALF),
        Layout::Alt => !BIT42.get_bool(word),
        Layout::Dot => false,
        Layout::Wmm => !SRC3_NEG.get_bool(word),
    };
    let immediates = takes_immediates(layout);
    let mut srcs = [
        decode_cat3_src(SRC1.get(word), half, immediates),
        Operand {
            half,
            ..Operand::reg(SRC2.get(word) as u8)
        },
        decode_cat3_src(SRC3.get(word), half, immediates),
    ];
    let repeat = if layout == Layout::Dot {
        0
    } else {
        REPEAT.get(word) as u8
    };
    let (r1, r2) = (SRC1_R.get_bool(word), SRC2_R.get_bool(word));
    let nop_form = layout == Layout::Dot || (repeat == 0 && (r1 || r2));
    let nop = if nop_form {
        r1 as u8 | (r2 as u8) << 1
    } else {
        srcs[0].r = r1;
        srcs[1].r = r2;
        srcs[2].r = SRC3_R.get_bool(word);
        0
    };
    let mut dot = DotMode::default();
    let mut sat = false;
    let num = DST.get(word) as u8;
    let mut dst = Reg { num, half: false };
    match layout {
        Layout::Plain | Layout::Alt => {
            srcs[0].neg = SRC1_NEG.get_bool(word);
            srcs[1].neg = SRC2_NEG.get_bool(word);
            srcs[2].neg = SRC3_NEG.get_bool(word);
            sat = layout == Layout::Plain && BIT42.get_bool(word);
            dst.half = dst_half(num, BIT46.get_bool(word), half);
        }
        Layout::Dot => {
            dot.mixed = SRC1_NEG.get_bool(word);
            dot.high = SRC2_NEG.get_bool(word);
            srcs[2].neg = SRC3_NEG.get_bool(word);
            sat = BIT42.get_bool(word);
        }
        Layout::Wmm => {
            srcs[0].neg = SRC1_NEG.get_bool(word);
            srcs[1].neg = SRC2_NEG.get_bool(word);
            dst.half = !BIT46.get_bool(word);
        }
    }
    Ok(Op::Alu3(Alu3 {
        op,
        dst,
        srcs,
        repeat,
        nop,
        sat,
        ul: UL.get_bool(word),
        dot,
    }))
}

pub(crate) fn encode(a: &Alu3) -> Result<u64, EncodeError> {
    let info = a.op.info();
    if info.cat != 3 {
        return Err(EncodeError::new(format!("{} is not a cat3 opcode", a.op)));
    }
    let layout = layout(a.op);
    let half = a.srcs[1].half;
    if a.srcs.iter().any(|s| s.half != half) {
        return Err(EncodeError::new(
            "cat3 sources must all be full or all be half precision",
        ));
    }
    if !matches!(a.srcs[1].kind, SrcKind::Reg(_)) || a.srcs[1].last {
        return Err(EncodeError::new("cat3 src2 is a plain register"));
    }
    if a.srcs.iter().any(|s| s.abs) {
        return Err(EncodeError::new("cat3 sources take no (abs)"));
    }
    let mut w = 0u64;
    OPC.set(&mut w, info.enc as u64)?;
    let immediates = takes_immediates(layout);
    SRC1.set(&mut w, encode_cat3_src(&a.srcs[0], immediates)?)?;
    if let SrcKind::Reg(n) = a.srcs[1].kind {
        SRC2.set(&mut w, n as u64)?;
    }
    SRC3.set(&mut w, encode_cat3_src(&a.srcs[2], immediates)?)?;
    UL.set_bool(&mut w, a.ul);
    match layout {
        Layout::Plain | Layout::Alt => {
            if layout == Layout::Plain && half != info.has(flags::HALF) {
                return Err(EncodeError::new(format!(
                    "{} reads {} precision sources",
                    a.op,
                    if half { "full" } else { "half" }
                )));
            }
            ALT.set_bool(&mut w, layout == Layout::Alt);
            SRC1_NEG.set_bool(&mut w, a.srcs[0].neg);
            SRC2_NEG.set_bool(&mut w, a.srcs[1].neg);
            SRC3_NEG.set_bool(&mut w, a.srcs[2].neg);
            BIT42.set_bool(
                &mut w,
                if layout == Layout::Plain {
                    a.sat
                } else {
                    !half
                },
            );
            BIT46.set_bool(&mut w, dst_conv(a.dst, half)?);
        }
        Layout::Dot => {
            if half || a.dst.half {
                return Err(EncodeError::new(format!("{} is full precision", a.op)));
            }
            ALT.set_bool(&mut w, true);
            BIT46.set_bool(&mut w, info.sub == 3);
            SRC1_NEG.set_bool(&mut w, a.dot.mixed);
            SRC2_NEG.set_bool(&mut w, a.dot.high);
            SRC3_NEG.set_bool(&mut w, a.srcs[2].neg);
            BIT42.set_bool(&mut w, a.sat);
        }
        Layout::Wmm => {
            ALT.set_bool(&mut w, true);
            BIT42.set_bool(&mut w, info.sub == 5);
            SRC1_NEG.set_bool(&mut w, a.srcs[0].neg);
            SRC2_NEG.set_bool(&mut w, a.srcs[1].neg);
            SRC3_NEG.set_bool(&mut w, !half);
            BIT46.set_bool(&mut w, !a.dst.half);
        }
    }
    DST.set(&mut w, a.dst.num as u64)?;
    if layout != Layout::Dot {
        REPEAT.set(&mut w, a.repeat as u64)?;
    }
    let any_r = a.srcs[0].r || a.srcs[1].r;
    if layout == Layout::Dot || (a.repeat == 0 && a.nop > 0) {
        if a.nop > 3 {
            return Err(EncodeError::new(format!("(nop{}) is more than 3", a.nop)));
        }
        if any_r || a.srcs[2].r {
            return Err(EncodeError::new("(r) cannot go with (nopN)"));
        }
        SRC1_R.set_bool(&mut w, a.nop & 1 != 0);
        SRC2_R.set_bool(&mut w, a.nop & 2 != 0);
    } else {
        if a.nop != 0 {
            return Err(EncodeError::new("(nopN) cannot go with (rptN)"));
        }
        if a.repeat == 0 && any_r {
            return Err(EncodeError::new("(r) on src1/src2 needs (rptN)"));
        }
        SRC1_R.set_bool(&mut w, a.srcs[0].r);
        SRC2_R.set_bool(&mut w, a.srcs[1].r);
        SRC3_R.set_bool(&mut w, a.srcs[2].r);
    }
    Ok(w)
}
