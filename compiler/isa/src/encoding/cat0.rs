//! cat0 (flow control) encoding, from `ir3-cat0.xml`.

use crate::bits::{field, flag, Field};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Flow, Op, Pred};
use crate::opcode::Opcode;

const IMMED: Field = field("IMMED", 0, 31);
const INDEX: Field = field("INDEX", 32, 36);
const BRTYPE: Field = field("BRTYPE", 37, 39);
const REPEAT: Field = field("REPEAT", 40, 42);
const INV2: Field = flag("INV2", 45);
const COMP2: Field = field("COMP2", 46, 47);
const EQ: Field = flag("EQ", 48);
const OPC_HI: Field = flag("OPC_HI", 49);
const INV1: Field = flag("INV1", 52);
const COMP1: Field = field("COMP1", 53, 54);
const W: Field = field("W", 52, 54);
const OPC: Field = field("OPC", 55, 58);

/// The operand layouts of cat0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `nop`, `end`, ... : `(rptN)`, `(eq)`, no operand.
    NoOperand,
    /// `kill p0.x`.
    Kill,
    /// `jump #t`, `call`, `bkt`, `getone`, `shps`.
    Target,
    /// `getlast.wN #t`.
    Getlast,
    /// `brac.N #t`.
    Brac,
    /// `brax #t` (the XML gives it no display; we print it like `jump`).
    Brax,
    /// `br p0.x, #t`, `bany`, `ball`.
    Branch1,
    /// `brao p0.x, p0.y, #t`, `braa`.
    Branch2,
}

pub(crate) fn form(op: Opcode) -> Form {
    use Opcode::*;
    match op {
        Kill => Form::Kill,
        Jump | Call | Bkt | Getone | Shps => Form::Target,
        Getlast => Form::Getlast,
        Brac => Form::Brac,
        Brax => Form::Brax,
        Br | Bany | Ball => Form::Branch1,
        Brao | Braa => Form::Branch2,
        _ => Form::NoOperand,
    }
}

fn read_pred(word: u64, inv: Field, comp: Field) -> Pred {
    Pred {
        comp: comp.get(word) as u8,
        inv: inv.get_bool(word),
    }
}

fn write_pred(word: &mut u64, p: Option<Pred>, inv: Field, comp: Field) -> Result<(), EncodeError> {
    let p = p.ok_or_else(|| EncodeError::new("branch without its predicate"))?;
    inv.set_bool(word, p.inv);
    comp.set(word, p.comp as u64)
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let opc = (OPC_HI.get(word) << 4 | OPC.get(word)) as u8;
    let op = if opc == 0x01 {
        Opcode::find(0, 1, BRTYPE.get(word) as u8)
            .ok_or_else(|| DecodeError::undefined(word, generation, "cat0 branch type 7"))?
    } else {
        Opcode::find(0, opc, 0).ok_or_else(|| {
            DecodeError::undefined(word, generation, format!("cat0 opcode {opc:#x}"))
        })?
    };
    let mut f = Flow::new(op);
    let target = IMMED.get_signed(word) as i32;
    match form(op) {
        Form::NoOperand => {
            f.repeat = REPEAT.get(word) as u8;
            f.eq = EQ.get_bool(word);
        }
        Form::Kill => {
            f.eq = EQ.get_bool(word);
            f.pred = Some(read_pred(word, INV1, COMP1));
        }
        Form::Target => f.target = target,
        Form::Getlast => {
            f.target = target;
            f.cluster = W.get(word) as u8;
        }
        Form::Brac => {
            f.eq = EQ.get_bool(word);
            f.target = target;
            f.index = INDEX.get(word) as u8;
        }
        Form::Brax => {
            f.eq = EQ.get_bool(word);
            f.target = target;
        }
        Form::Branch1 => {
            f.eq = EQ.get_bool(word);
            f.target = target;
            f.pred = Some(read_pred(word, INV1, COMP1));
        }
        Form::Branch2 => {
            f.eq = EQ.get_bool(word);
            f.target = target;
            f.pred = Some(read_pred(word, INV1, COMP1));
            f.pred2 = Some(read_pred(word, INV2, COMP2));
        }
    }
    Ok(Op::Flow(f))
}

pub(crate) fn encode(f: &Flow) -> Result<u64, EncodeError> {
    let info = f.op.info();
    if info.cat != 0 {
        return Err(EncodeError::new(format!("{} is not a cat0 opcode", f.op)));
    }
    let mut w = 0u64;
    OPC.set(&mut w, (info.enc & 0xf) as u64)?;
    OPC_HI.set(&mut w, (info.enc >> 4) as u64)?;
    if info.enc == 0x01 {
        BRTYPE.set(&mut w, info.sub as u64)?;
    }
    EQ.set_bool(&mut w, f.eq);
    REPEAT.set(&mut w, f.repeat as u64)?;
    match form(f.op) {
        Form::NoOperand => {}
        Form::Kill => write_pred(&mut w, f.pred, INV1, COMP1)?,
        Form::Target | Form::Brax => {}
        Form::Getlast => W.set(&mut w, f.cluster as u64)?,
        Form::Brac => INDEX.set(&mut w, f.index as u64)?,
        Form::Branch1 => write_pred(&mut w, f.pred, INV1, COMP1)?,
        Form::Branch2 => {
            write_pred(&mut w, f.pred, INV1, COMP1)?;
            write_pred(&mut w, f.pred2, INV2, COMP2)?;
        }
    }
    if info.has(crate::opcode::flags::TARGET) {
        IMMED.set_signed(&mut w, f.target as i64)?;
    }
    Ok(w)
}
