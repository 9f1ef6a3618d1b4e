//! cat7 (barriers, caches, the alias table) encoding, from `ir3-cat7.xml`.

use crate::bits::{apply, field, fixed, flag, matches, Field, Fixed};
use crate::error::{DecodeError, EncodeError};
use crate::gen::IsaGen;
use crate::instr::{Alias, AliasScope, AliasSrc, Barrier, CacheOp, Op, Sleep};
use crate::opcode::Opcode;

const OPC: Field = field("OPC", 55, 58);
const W: Field = flag("W", 51);
const R: Field = flag("R", 52);
const L: Field = flag("L", 53);
const G: Field = flag("G", 54);
const TYPE: Field = flag("TYPE", 51);

const BARRIER: [Fixed; 1] = [fixed(49, 49, 1)];
const DATA: [Fixed; 1] = [fixed(54, 54, 0)];
const CCINV: [Fixed; 2] = [fixed(49, 49, 1), fixed(51, 54, 0b1010)];
const LOCK: [Fixed; 1] = [fixed(45, 54, 0b1000010000)];
const UNLOCK: [Fixed; 1] = [fixed(45, 54, 0b1001010000)];

const ALIAS_SRC_REG: Field = field("SRC", 0, 7);
const ALIAS_SRC_CONST: Field = field("SRC", 0, 10);
const ALIAS_SRC_IMM: Field = field("SRC", 0, 31);
const ALIAS_DST: Field = field("DST", 32, 39);
const ALIAS_DST_RT: Field = field("DST", 32, 36);
const TABLE_SIZE_MINUS_ONE: Field = field("TABLE_SIZE_MINUS_ONE", 40, 43);
const SCOPE_LO: Field = flag("SCOPE_LO", 47);
const ALIAS_TYPE: Field = flag("TYPE", 48);
const SCOPE_HI: Field = flag("SCOPE_HI", 49);
const TYPE_SIZE: Field = flag("TYPE_SIZE", 50);
const SRC_REG_TYPE: Field = field("SRC_REG_TYPE", 51, 52);
const ALIAS: [Fixed; 1] = [fixed(54, 54, 1)];

fn a7xx_only(word: u64, generation: IsaGen, op: Opcode) -> Result<(), DecodeError> {
    if generation.is_a7xx() {
        Ok(())
    } else {
        Err(DecodeError::undefined(
            word,
            generation,
            format!("{op} exists only on a7xx"),
        ))
    }
}

pub(crate) fn decode(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let opc = OPC.get(word);
    let undefined = || DecodeError::undefined(word, generation, format!("cat7 opcode {opc}"));
    Ok(match opc {
        0 | 1 if matches(word, &BARRIER) => Op::Barrier(Barrier {
            op: if opc == 0 { Opcode::Bar } else { Opcode::Fence },
            g: G.get_bool(word),
            l: L.get_bool(word),
            r: R.get_bool(word),
            w: W.get_bool(word),
        }),
        2 => Op::Sleep(Sleep {
            long: TYPE.get_bool(word),
        }),
        3 => Op::Bare(Opcode::Icinv),
        5 if matches(word, &CCINV) => {
            a7xx_only(word, generation, Opcode::Ccinv)?;
            Op::Bare(Opcode::Ccinv)
        }
        4..=6 if matches(word, &DATA) => Op::Cache(CacheOp {
            op: [Opcode::Dccln, Opcode::Dcinv, Opcode::Dcflu][opc as usize - 4],
            all: TYPE.get_bool(word),
        }),
        7 if matches(word, &LOCK) || matches(word, &UNLOCK) => {
            let op = if matches(word, &LOCK) {
                Opcode::Lock
            } else {
                Opcode::Unlock
            };
            a7xx_only(word, generation, op)?;
            Op::Bare(op)
        }
        8 if matches(word, &ALIAS) => {
            a7xx_only(word, generation, Opcode::Alias)?;
            decode_alias(word, generation)?
        }
        _ => return Err(undefined()),
    })
}

fn decode_alias(word: u64, generation: IsaGen) -> Result<Op, DecodeError> {
    let scope = match SCOPE_HI.get(word) << 1 | SCOPE_LO.get(word) {
        0 => AliasScope::Tex,
        1 => AliasScope::Rt,
        // Scopes 2 and 3 both print `mem`; only 2 reads back from text.
        _ => AliasScope::Mem,
    };
    let src = match SRC_REG_TYPE.get(word) {
        0 => AliasSrc::Reg(ALIAS_SRC_REG.get(word) as u8),
        1 => AliasSrc::Const(ALIAS_SRC_CONST.get(word) as u16),
        2 => AliasSrc::Imm(ALIAS_SRC_IMM.get(word) as u32),
        _ => {
            return Err(DecodeError::undefined(
                word,
                generation,
                "alias source type 3",
            ))
        }
    };
    Ok(Op::Alias(Alias {
        scope,
        int: ALIAS_TYPE.get_bool(word),
        size32: TYPE_SIZE.get_bool(word),
        table_size_minus_one: TABLE_SIZE_MINUS_ONE.get(word) as u8,
        dst: if scope == AliasScope::Rt {
            ALIAS_DST_RT.get(word) as u8
        } else {
            ALIAS_DST.get(word) as u8
        },
        src,
    }))
}

pub(crate) fn encode(op: &Op, generation: IsaGen) -> Result<u64, EncodeError> {
    let mut w = 0u64;
    let opcode = match op {
        Op::Barrier(b) => {
            apply(&mut w, &BARRIER);
            G.set_bool(&mut w, b.g);
            L.set_bool(&mut w, b.l);
            R.set_bool(&mut w, b.r);
            W.set_bool(&mut w, b.w);
            b.op
        }
        Op::Sleep(s) => {
            TYPE.set_bool(&mut w, s.long);
            Opcode::Sleep
        }
        Op::Cache(c) => {
            TYPE.set_bool(&mut w, c.all);
            c.op
        }
        Op::Bare(o @ Opcode::Icinv) => *o,
        Op::Bare(o @ Opcode::Ccinv) => {
            apply(&mut w, &CCINV);
            *o
        }
        Op::Bare(o @ Opcode::Lock) => {
            apply(&mut w, &LOCK);
            *o
        }
        Op::Bare(o @ Opcode::Unlock) => {
            apply(&mut w, &UNLOCK);
            *o
        }
        Op::Alias(a) => {
            apply(&mut w, &ALIAS);
            SCOPE_LO.set(&mut w, (a.scope as u64) & 1)?;
            SCOPE_HI.set(&mut w, (a.scope as u64) >> 1)?;
            ALIAS_TYPE.set_bool(&mut w, a.int);
            TYPE_SIZE.set_bool(&mut w, a.size32);
            TABLE_SIZE_MINUS_ONE.set(&mut w, a.table_size_minus_one as u64)?;
            if a.scope == AliasScope::Rt {
                ALIAS_DST_RT.set(&mut w, a.dst as u64)?;
            } else {
                ALIAS_DST.set(&mut w, a.dst as u64)?;
            }
            match a.src {
                AliasSrc::Reg(n) => ALIAS_SRC_REG.set(&mut w, n as u64)?,
                AliasSrc::Const(n) => {
                    SRC_REG_TYPE.set(&mut w, 1)?;
                    ALIAS_SRC_CONST.set(&mut w, n as u64)?;
                }
                AliasSrc::Imm(v) => {
                    SRC_REG_TYPE.set(&mut w, 2)?;
                    ALIAS_SRC_IMM.set(&mut w, v as u64)?;
                    if !a.size32 && v >> 16 != 0 {
                        return Err(EncodeError::new(format!(
                            "a 16-bit alias immediate holds 16 bits, not {v:#x}"
                        )));
                    }
                }
            }
            Opcode::Alias
        }
        _ => return Err(EncodeError::new("not a cat7 instruction")),
    };
    let info = opcode.info();
    if info.cat != 7 {
        return Err(EncodeError::new(format!("{opcode} is not a cat7 opcode")));
    }
    if !info.exists_on(generation) {
        return Err(EncodeError::new(format!("{opcode} exists only on a7xx")));
    }
    OPC.set(&mut w, info.enc as u64)?;
    Ok(w)
}
