//! Encoding instructions to 64-bit words and decoding them back.
//!
//! Each category has its own module with a `decode` that reads the fields its
//! text form shows and an `encode` that writes them. The public functions
//! below add what makes the two exact inverses: [`decode`] refuses a word that
//! does not re-encode to itself (a don't-care or unused bit is set), and
//! [`encode`] refuses an instruction that does not decode back to itself (a
//! field its encoding cannot hold is set).

mod alu_src;
pub(crate) mod cat0;
pub(crate) mod cat1;
pub(crate) mod cat2;
pub(crate) mod cat3;
mod cat4;
pub(crate) mod cat5;
mod cat6;
mod cat7;

use crate::bits::{field, flag, Field};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Instr, Op};
use crate::opcode::Opcode;

const CAT: Field = field("CAT", 61, 63);
const SS: Field = flag("SS", 44);
const JP: Field = flag("JP", 59);
const SY: Field = flag("SY", 60);

/// Categories whose bit 44 is `(ss)`.
fn has_ss(cat: u64, op: &Op) -> bool {
    !matches!(cat, 5 | 6) && !matches!(op, Op::Bare(Opcode::Tcinv))
}

/// Decodes a word without checking that it is canonical.
fn decode_fields(word: u64, generation: IsaGen) -> Result<Instr, DecodeError> {
    let cat = CAT.get(word);
    let op = match cat {
        0 => cat0::decode(word, generation)?,
        1 => cat1::decode(word, generation)?,
        2 => cat2::decode(word, generation)?,
        3 => cat3::decode(word, generation)?,
        4 => cat4::decode(word, generation)?,
        5 => cat5::decode(word, generation)?,
        6 => cat6::decode(word, generation)?,
        _ => cat7::decode(word, generation)?,
    };
    Ok(Instr {
        sy: SY.get_bool(word),
        jp: JP.get_bool(word),
        ss: has_ss(cat, &op) && SS.get_bool(word),
        op,
    })
}

/// Encodes an instruction without checking that it decodes back.
fn encode_fields(instr: &Instr, generation: IsaGen) -> Result<u64, EncodeError> {
    let opcode = instr.opcode();
    let info = opcode.info();
    if !info.exists_on(generation) {
        return Err(EncodeError::new(format!(
            "{opcode} does not exist on {generation}"
        )));
    }
    let mut word = match &instr.op {
        Op::Flow(f) => cat0::encode(f)?,
        Op::Mov(m) => cat1::encode_mov(m)?,
        Op::MovMsk(m) => cat1::encode_movmsk(m)?,
        Op::MovMulti(m) => cat1::encode_multi(m)?,
        Op::Alu(a) => cat2::encode(a)?,
        Op::Alu3(a) => cat3::encode(a)?,
        Op::Sfu(s) => cat4::encode(s)?,
        Op::Tex(t) => cat5::encode(t, generation)?,
        Op::Bare(Opcode::Tcinv) => 28 << 54,
        Op::Mem(m) => cat6::encode(m, generation)?,
        op => cat7::encode(op, generation)?,
    };
    let cat = info.cat as u64;
    CAT.set(&mut word, cat)?;
    SY.set_bool(&mut word, instr.sy);
    JP.set_bool(&mut word, instr.jp);
    if instr.ss {
        if !has_ss(cat, &instr.op) {
            return Err(EncodeError::new(format!("{opcode} has no (ss) bit")));
        }
        SS.set_bool(&mut word, true);
    }
    Ok(word)
}

/// Decodes one instruction word. Fails for words that are no instruction of
/// `generation`, and for words that set bits the ISA XML marks don't-care or
/// that the instruction's text form cannot show: for every word this accepts,
/// `encode(decode(w)) == w`.
pub fn decode(word: u64, generation: IsaGen) -> Result<Instr, DecodeError> {
    let instr = decode_fields(word, generation)?;
    let canonical = match encode_fields(&instr, generation) {
        Ok(w) => w,
        Err(e) => {
            return Err(DecodeError::undefined(
                word,
                generation,
                format!("fields out of range for {}: {e}", instr.opcode()),
            ))
        }
    };
    if canonical != word {
        return Err(DecodeError::NonCanonical {
            word,
            canonical,
            extra: canonical ^ word,
            instr: instr.to_string(),
        });
    }
    Ok(instr)
}

/// Decodes like [`decode`] but accepts words with don't-care or unused bits
/// set, as hardware would execute them (the blob and garbage memory set
/// some). Returns the instruction and the bits it ignored.
pub fn decode_permissive(word: u64, generation: IsaGen) -> Result<(Instr, u64), DecodeError> {
    let instr = decode_fields(word, generation)?;
    let canonical = encode_fields(&instr, generation).map_err(|e| {
        DecodeError::undefined(
            word,
            generation,
            format!("fields out of range for {}: {e}", instr.opcode()),
        )
    })?;
    Ok((instr, canonical ^ word))
}

/// Encodes one instruction. Fails when a field is out of range, when the
/// opcode does not exist on `generation`, or when the instruction sets a field
/// its encoding cannot hold: for every instruction this accepts,
/// `decode(encode(x)) == x`.
pub fn encode(instr: &Instr, generation: IsaGen) -> Result<u64, EncodeError> {
    let word = encode_fields(instr, generation)?;
    match decode_fields(word, generation) {
        Ok(back) if back == *instr => Ok(word),
        Ok(back) => Err(EncodeError::new(format!(
            "`{instr}` sets a field its encoding cannot hold: it would encode as `{back}` \
             ({back:?} instead of {instr:?})"
        ))),
        Err(e) => Err(EncodeError::new(format!("`{instr}` does not encode: {e}"))),
    }
}
