//! cat4 (special function unit) encoding, from `ir3-cat4.xml`.

use super::alu_src::{decode_multisrc, dst_conv, dst_half, encode_multisrc};
use crate::bits::{field, flag, Field};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Op, Sfu};
use crate::opcode::Opcode;
use crate::operand::Reg;

const SRC: Field = field("SRC", 0, 15);
const DST: Field = field("DST", 32, 39);
const REPEAT: Field = field("REPEAT", 40, 41);
const SAT: Field = flag("SAT", 42);
const SRC_R: Field = flag("SRC_R", 43);
const UL: Field = flag("UL", 45);
const DST_CONV: Field = flag("DST_CONV", 46);
const FULL: Field = flag("FULL", 52);
const OPC: Field = field("OPC", 53, 58);

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let opc = OPC.get(word) as u8;
    let op = Opcode::find(4, opc, 0)
        .ok_or_else(|| DecodeError::undefined(word, generation, format!("cat4 opcode {opc}")))?;
    let half = !FULL.get_bool(word);
    let mut src = decode_multisrc(SRC.get(word), half)
        .map_err(|why| DecodeError::undefined(word, generation, format!("{op}: {why}")))?;
    src.r = SRC_R.get_bool(word);
    let num = DST.get(word) as u8;
    Ok(Op::Sfu(Sfu {
        op,
        dst: Reg {
            num,
            half: dst_half(num, DST_CONV.get_bool(word), half),
        },
        src,
        repeat: REPEAT.get(word) as u8,
        sat: SAT.get_bool(word),
        ul: UL.get_bool(word),
    }))
}

pub(crate) fn encode(s: &Sfu) -> Result<u64, EncodeError> {
    let info = s.op.info();
    if info.cat != 4 {
        return Err(EncodeError::new(format!("{} is not a cat4 opcode", s.op)));
    }
    let mut w = 0u64;
    OPC.set(&mut w, info.enc as u64)?;
    FULL.set_bool(&mut w, !s.src.half);
    SRC.set(&mut w, encode_multisrc(&s.src)?)?;
    SRC_R.set_bool(&mut w, s.src.r);
    DST.set(&mut w, s.dst.num as u64)?;
    DST_CONV.set_bool(&mut w, dst_conv(s.dst, s.src.half)?);
    REPEAT.set(&mut w, s.repeat as u64)?;
    SAT.set_bool(&mut w, s.sat);
    UL.set_bool(&mut w, s.ul);
    Ok(w)
}
