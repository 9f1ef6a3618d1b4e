//! cat5 (texture, derivatives, subgroup broadcast) encoding, from
//! `ir3-cat5.xml`.

use crate::bits::{field, flag, Field};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{A1Imm, DescMode, Op, Tex, TexDesc};
use crate::opcode::{flags, Opcode};
use crate::types::Type;

const FULL: Field = flag("FULL", 0);
const SRC1: Field = field("SRC1", 1, 8);
const SRC2: Field = field("SRC2", 9, 16);
const ISAM_1D_INV: Field = flag("1D", 18);
const BASE_HI: Field = field("BASE_HI", 19, 20);
const W: Field = field("W", 19, 20);
const SAMP: Field = field("SAMP", 21, 24);
const TEX: Field = field("TEX", 25, 31);
const SRC3: Field = field("SRC3", 21, 28);
const DESC_MODE: Field = field("DESC_MODE", 29, 31);
const DST: Field = field("DST", 32, 39);
const WRMASK: Field = field("WRMASK", 40, 43);
const TYPE: Field = field("TYPE", 44, 46);
const BASE_LO: Field = flag("BASE_LO", 47);
const IS_3D: Field = flag("3D", 48);
const ARRAY: Field = flag("A", 49);
const SV: Field = flag("SV", 50);
const S2EN_BINDLESS: Field = flag("S2EN_BINDLESS", 51);
const O: Field = flag("O", 52);
const P: Field = flag("P", 53);
const OPC: Field = field("OPC", 54, 58);

/// Where `src2` is printed: as a register when `.o` is set or the opcode takes
/// two sources (`#cat5-src2`).
pub(crate) fn src2_is_reg(op: Opcode, o: bool) -> bool {
    o || op.info().nsrc > 1
}

/// True for `brcst.active` and the `quad_shuffle.*` opcodes, which have no
/// sampler, texture or flags.
pub(crate) fn is_subgroup(op: Opcode) -> bool {
    op.info().enc == 31
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let opc = OPC.get(word) as u8;
    let op = match opc {
        28 => return Ok(Op::Bare(Opcode::Tcinv)),
        31 => {
            let variant = P.get(word) << 2 | if P.get_bool(word) { W.get(word) } else { 0 };
            Opcode::find(5, 31, variant as u8)
        }
        _ => Opcode::find(5, opc, 0),
    }
    .ok_or_else(|| DecodeError::undefined(word, generation, format!("cat5 opcode {opc}")))?;
    let info = op.info();
    let has_samp = info.has(flags::SAMP);
    let has_tex = info.has(flags::TEX);
    let mut t = Tex::new(op);
    if info.has(flags::TYPE) {
        t.ty = Type::from_bits(TYPE.get(word));
    }
    t.wrmask = WRMASK.get(word) as u8;
    t.dst = DST.get(word) as u8;
    if info.nsrc > 0 {
        t.src1 = Some(SRC1.get(word) as u8);
    }
    if is_subgroup(op) {
        if op == Opcode::BrcstActive {
            t.cluster = W.get(word) as u8;
        }
        if info.nsrc > 1 {
            t.src2 = Some(SRC2.get(word) as u8);
        }
    } else {
        t.is_3d = IS_3D.get_bool(word);
        t.array = ARRAY.get_bool(word);
        t.o = O.get_bool(word);
        t.s = SV.get_bool(word);
        if op == Opcode::Isam {
            t.one_d = !ISAM_1D_INV.get_bool(word);
            if !t.o && P.get_bool(word) {
                t.offset = Some(SRC2.get(word) as u8);
            }
        } else {
            t.p = P.get_bool(word);
        }
        if src2_is_reg(op, t.o) {
            t.src2 = Some(SRC2.get(word) as u8);
        }
        t.desc = if S2EN_BINDLESS.get_bool(word) {
            let base = (BASE_HI.get(word) << 1 | BASE_LO.get(word)) as u8;
            let src3 = SRC3.get(word) as u8;
            match DESC_MODE.get(word) {
                6 => TexDesc::BindlessImm {
                    base,
                    samp: if has_samp { src3 & 0xf } else { 0 },
                    tex: if has_tex { src3 >> 4 } else { 0 },
                },
                7 => TexDesc::BindlessA1 {
                    base,
                    imm: if generation.is_a7xx() {
                        A1Imm::Tex(if has_tex { src3 } else { 0 })
                    } else {
                        A1Imm::Samp(if has_samp { src3 } else { 0 })
                    },
                },
                m => {
                    let mode = DescMode::from_bits(m).expect("modes 0..=5");
                    TexDesc::Indexed {
                        mode,
                        reg: src3,
                        base: if mode.is_bindless() { base } else { 0 },
                    }
                }
            }
        } else {
            TexDesc::Direct {
                samp: if has_samp { SAMP.get(word) as u8 } else { 0 },
                tex: if has_tex { TEX.get(word) as u8 } else { 0 },
            }
        };
    }
    if t.src1.is_some() || t.src2.is_some() {
        t.half_src = !FULL.get_bool(word);
    }
    Ok(Op::Tex(t))
}

fn write_base(word: &mut u64, base: u8) -> Result<(), EncodeError> {
    if base > 7 {
        return Err(EncodeError::new(format!("descriptor set {base} is past 7")));
    }
    BASE_LO.set(word, (base & 1) as u64)?;
    BASE_HI.set(word, (base >> 1) as u64)
}

pub(crate) fn encode(t: &Tex, generation: IsaGen) -> Result<u64, EncodeError> {
    let info = t.op.info();
    if info.cat != 5 || t.op == Opcode::Tcinv {
        return Err(EncodeError::new(format!(
            "{} is not a cat5 texture opcode",
            t.op
        )));
    }
    let mut w = 0u64;
    OPC.set(&mut w, info.enc as u64)?;
    if info.enc == 31 {
        P.set(&mut w, (info.sub >> 2) as u64)?;
        if info.sub >= 4 {
            W.set(&mut w, (info.sub & 3) as u64)?;
        }
    }
    TYPE.set(&mut w, t.ty as u64)?;
    WRMASK.set(&mut w, t.wrmask as u64)?;
    DST.set(&mut w, t.dst as u64)?;
    if let Some(s) = t.src1 {
        SRC1.set(&mut w, s as u64)?;
    }
    if let Some(s) = t.src2 {
        SRC2.set(&mut w, s as u64)?;
    }
    if t.src1.is_some() || t.src2.is_some() {
        FULL.set_bool(&mut w, !t.half_src);
    }
    if t.op == Opcode::BrcstActive {
        W.set(&mut w, t.cluster as u64)?;
    }
    if is_subgroup(t.op) {
        return Ok(w);
    }
    IS_3D.set_bool(&mut w, t.is_3d);
    ARRAY.set_bool(&mut w, t.array);
    O.set_bool(&mut w, t.o);
    SV.set_bool(&mut w, t.s);
    if t.op == Opcode::Isam {
        ISAM_1D_INV.set_bool(&mut w, !t.one_d);
        if let Some(off) = t.offset {
            if off == 0 {
                return Err(EncodeError::new(
                    "an isam offset of 0 prints as no offset; leave it out",
                ));
            }
            P.set_bool(&mut w, true);
            SRC2.set(&mut w, off as u64)?;
        }
    } else {
        P.set_bool(&mut w, t.p);
    }
    let has_samp = info.has(flags::SAMP);
    let has_tex = info.has(flags::TEX);
    match t.desc {
        TexDesc::Direct { samp, tex } => {
            SAMP.set(&mut w, samp as u64)?;
            TEX.set(&mut w, tex as u64)?;
        }
        TexDesc::Indexed { mode, reg, base } => {
            S2EN_BINDLESS.set_bool(&mut w, true);
            DESC_MODE.set(&mut w, mode as u64)?;
            SRC3.set(&mut w, reg as u64)?;
            write_base(&mut w, base)?;
        }
        TexDesc::BindlessImm { base, samp, tex } => {
            S2EN_BINDLESS.set_bool(&mut w, true);
            DESC_MODE.set(&mut w, 6)?;
            if samp > 15 || tex > 15 {
                return Err(EncodeError::new(
                    "bindless immediate sampler and texture numbers are 4 bits",
                ));
            }
            SRC3.set(&mut w, (tex << 4 | samp) as u64)?;
            write_base(&mut w, base)?;
        }
        TexDesc::BindlessA1 { base, imm } => {
            S2EN_BINDLESS.set_bool(&mut w, true);
            DESC_MODE.set(&mut w, 7)?;
            let (value, shown) = match (imm, generation.is_a7xx()) {
                (A1Imm::Samp(v), false) => (v, has_samp),
                (A1Imm::Tex(v), true) => (v, has_tex),
                _ => {
                    return Err(EncodeError::new(format!(
                        "with a1.x, the {generation} instruction names the {}",
                        if generation.is_a7xx() {
                            "texture"
                        } else {
                            "sampler"
                        }
                    )))
                }
            };
            if value != 0 && !shown {
                return Err(EncodeError::new(format!(
                    "{} takes no number from the instruction here",
                    t.op
                )));
            }
            SRC3.set(&mut w, value as u64)?;
            write_base(&mut w, base)?;
        }
    }
    Ok(w)
}
