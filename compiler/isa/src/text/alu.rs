//! cat2 and cat4 syntax, whose sources are both `#multisrc`:
//! `(nop3) cmps.f.lt r1.x, (abs)r1.x, c16.x`, `add.f r1.w, r2.x, (neg)(pi)`,
//! `(sy)mul.f hr1.x, hr1.x, h(0.5)`, `rcp r2.z, r0.w`.

use super::cursor::{Cursor, PResult};
use super::operand::{
    absneg, flut_index, gpr, konst, parenthesized, parse_gpr, parse_int_text, parse_modifiers,
    parse_reg_source, relative,
};
use super::{alu_prefix, Mnemonic, Prefix};
use crate::encoding::cat2::has_nop_syntax;
use crate::instr::{Alu, Instr, Op, Sfu};
use crate::opcode::flags;
use crate::operand::{Operand, Reg, SrcKind, FLUT};
use crate::types::{Cond, CONDS};

fn h(half: bool) -> &'static str {
    if half {
        "h"
    } else {
        ""
    }
}

/// A `#multisrc` source: `(last)(neg)(r)hr1.x`, `(abs)c8.x`, `h(-1)`, `(pi)`.
pub(super) fn multisrc(s: &Operand) -> String {
    let an = absneg(s.neg, s.abs);
    let r = if s.r { "(r)" } else { "" };
    let hh = h(s.half);
    match s.kind {
        SrcKind::Reg(n) => format!(
            "{}{an}{r}{hh}{}",
            if s.last { "(last)" } else { "" },
            gpr(n)
        ),
        SrcKind::Const(n) => format!("{an}{r}{hh}{}", konst(n)),
        SrcKind::Imm(v) if s.half => format!("{an}{r}h({v})"),
        SrcKind::Imm(v) => format!("{an}{r}{v}"),
        SrcKind::FLut(i) => format!("{an}{r}{hh}({})", FLUT.get(i as usize).map_or("?", |f| f.0)),
        SrcKind::RelReg(o) => format!("{an}{r}{hh}{}", relative('r', o, false)),
        SrcKind::RelConst(o) => format!("{an}{r}{hh}{}", relative('c', o, false)),
    }
}

pub(super) fn parse_multisrc(c: &mut Cursor) -> PResult<Operand> {
    let mods = parse_modifiers(c);
    let mut op = Operand {
        neg: mods.neg,
        abs: mods.abs,
        r: mods.r,
        last: mods.last,
        ..Operand::default()
    };
    let pos = c.pos();
    let half_paren = c.rest().starts_with("h(");
    if half_paren || c.peek() == Some('(') {
        op.half = c.eat("h");
        let text = parenthesized(c)?;
        op.kind = match (op.half, parse_int_text(text)) {
            (true, Some(v)) => {
                if !(-1024..=1023).contains(&v) {
                    return c.error_at(pos, format!("immediate {v} is outside -1024..=1023"));
                }
                SrcKind::Imm(v as i32)
            }
            _ => match flut_index(text) {
                Some(i) => SrcKind::FLut(i),
                None => {
                    return c.error_at(
                        pos,
                        format!("`({text})` is not one of the float constants (0.0) .. (4.0)"),
                    )
                }
            },
        };
        return Ok(op);
    }
    if c.peek().is_some_and(|ch| ch.is_ascii_digit() || ch == '-') {
        op.kind = SrcKind::Imm(c.int_in(-1024, 1023, "immediate")? as i32);
        return Ok(op);
    }
    op.half = c.eat("h");
    op.kind = parse_reg_source(c)?;
    Ok(op)
}

fn dst(d: Reg) -> String {
    format!("{}{}", h(d.half), gpr(d.num))
}

fn parse_dst(c: &mut Cursor) -> PResult<Reg> {
    c.skip_ws();
    let half = c.eat("h");
    Ok(Reg {
        num: parse_gpr(c)?,
        half,
    })
}

pub(super) fn print(instr: &Instr, a: &Alu, out: &mut String) {
    let nop_form = has_nop_syntax(a.op) && a.repeat == 0 && a.nop > 0;
    alu_prefix(instr, a.sat, nop_form.then_some(a.nop), a.repeat, a.ul, out);
    out.push_str(a.op.name());
    if a.op.info().has(flags::COND) {
        out.push('.');
        out.push_str(a.cond.name());
    }
    out.push(' ');
    if a.ei {
        out.push_str("(ei)");
    }
    out.push_str(&dst(a.dst));
    out.push_str(", ");
    out.push_str(&multisrc(&a.src1));
    if let Some(s) = &a.src2 {
        out.push_str(", ");
        out.push_str(&multisrc(s));
    }
}

pub(super) fn parse(c: &mut Cursor, prefix: &mut Prefix, m: &Mnemonic) -> PResult<Op> {
    let info = m.op.info();
    let mut words = m.words();
    let cond = if info.has(flags::COND) {
        let w = words.expect(c, "condition (.lt, .le, ...)")?;
        match CONDS.iter().find(|k| k.name() == w) {
            Some(k) => *k,
            None => return c.error_at(m.pos, format!("unknown condition `.{w}`")),
        }
    } else {
        Cond::default()
    };
    words.finish(c)?;
    c.skip_ws();
    let ei = c.eat("(ei)");
    let dst = parse_dst(c)?;
    c.expect(",")?;
    let src1 = parse_multisrc(c)?;
    let src2 = if info.nsrc > 1 {
        c.expect(",")?;
        Some(parse_multisrc(c)?)
    } else {
        None
    };
    Ok(Op::Alu(Alu {
        op: m.op,
        dst,
        src1,
        src2,
        cond,
        repeat: prefix.count("rpt").unwrap_or(0),
        nop: prefix.count("nop").unwrap_or(0),
        sat: prefix.flag("sat"),
        ul: prefix.flag("ul"),
        ei,
    }))
}

pub(super) fn print_sfu(instr: &Instr, s: &Sfu, out: &mut String) {
    alu_prefix(instr, s.sat, None, s.repeat, s.ul, out);
    out.push_str(&format!(
        "{} {}, {}",
        s.op.name(),
        dst(s.dst),
        multisrc(&s.src)
    ));
}

pub(super) fn parse_sfu(c: &mut Cursor, prefix: &mut Prefix, m: &Mnemonic) -> PResult<Op> {
    m.words().finish(c)?;
    let dst = parse_dst(c)?;
    c.expect(",")?;
    let src = parse_multisrc(c)?;
    Ok(Op::Sfu(Sfu {
        op: m.op,
        dst,
        src,
        repeat: prefix.count("rpt").unwrap_or(0),
        sat: prefix.flag("sat"),
        ul: prefix.flag("ul"),
    }))
}
