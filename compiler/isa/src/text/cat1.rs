//! cat1 syntax: `mov.f32f32 r0.x, c8.x`, `cov.s32s16 hr0.x, r0.x`,
//! `mova a0.x, hr0.x`, `movmsk.w128 r48.x`, `swz.u32u32 r1.x, r0.w, r0.y, r0.z`.

use super::cursor::{Cursor, PResult};
use super::operand::{
    f16_text, f32_text, gpr, konst, parenthesized, parse_f16_bits, parse_f32_bits, parse_gpr,
    parse_modifiers, parse_reg_source, parse_relative_body, relative,
};
use super::{jp, sync, Mnemonic, Prefix};
use crate::encoding::cat1::mova_form;
use crate::instr::{Instr, Mov, MovDst, MovMsk, MovMulti, Op};
use crate::opcode::Opcode;
use crate::operand::{Operand, SrcKind, A0_X, A1_X};
use crate::types::{Round, Type, ROUNDS, TYPES};

fn h(half: bool) -> &'static str {
    if half {
        "h"
    } else {
        ""
    }
}

/// An immediate in the source type (`#cat1-immed-src`).
fn immediate(ty: Type, bits: u32) -> String {
    match ty {
        Type::F16 => format!("h({})", f16_text(bits as u16)),
        Type::F32 => format!("({})", f32_text(bits)),
        Type::U32 if bits > 0x1000 => format!("0x{bits:x}"),
        Type::S16 => (bits as u16 as i16).to_string(),
        Type::S32 => (bits as i32).to_string(),
        _ => bits.to_string(),
    }
}

fn src_text(m: &Mov) -> String {
    let s = &m.src;
    let r = if s.r { "(r)" } else { "" };
    match s.kind {
        SrcKind::Reg(n) => format!(
            "{}{r}{}{}",
            if s.last { "(last)" } else { "" },
            h(s.half),
            gpr(n)
        ),
        SrcKind::Const(n) => format!("{r}{}{}", h(s.half), konst(n)),
        SrcKind::RelReg(o) => format!("{r}{}{}", h(s.half), relative('r', o, false)),
        SrcKind::RelConst(o) => format!("{r}{}{}", h(s.half), relative('c', o, false)),
        SrcKind::Imm(v) => immediate(m.src_type, v as u32),
        SrcKind::FLut(_) => "<flut>".into(),
    }
}

fn dst_text(dst: MovDst, half: bool) -> String {
    match dst {
        MovDst::Reg(n) => format!("{}{}", h(half), gpr(n)),
        MovDst::Rel(n) => format!("{}{}", h(half), relative('r', n as i16, false)),
    }
}

fn prefix_flags(instr: &Instr, repeat: Option<u8>, ul: bool, out: &mut String) {
    sync(instr, true, out);
    jp(instr, out);
    if let Some(n) = repeat.filter(|&n| n > 0) {
        out.push_str(&format!("(rpt{n})"));
    }
    if ul {
        out.push_str("(ul)");
    }
}

pub(super) fn print(instr: &Instr, out: &mut String) {
    match &instr.op {
        Op::Mov(m) => {
            prefix_flags(instr, Some(m.repeat), m.ul, out);
            match mova_form(m) {
                Some(name) => out.push_str(&format!(
                    "{name} {}{}, {}{}",
                    m.round.prefix(),
                    if name == "mova" { "a0.x" } else { "a1.x" },
                    if m.src.r { "(r)" } else { "" },
                    src_text(m)
                )),
                None => out.push_str(&format!(
                    "{}.{}{} {}{}, {}",
                    if m.src_type != m.dst_type {
                        "cov"
                    } else {
                        "mov"
                    },
                    m.src_type.name(),
                    m.dst_type.name(),
                    m.round.prefix(),
                    dst_text(m.dst, m.dst_type.is_half_cat1()),
                    src_text(m)
                )),
            }
        }
        Op::MovMsk(m) => {
            prefix_flags(instr, None, m.ul, out);
            out.push_str(&format!(
                "movmsk.w{} {}",
                (m.repeat as u32 + 1) * 32,
                dst_text(m.dst, false)
            ));
        }
        Op::MovMulti(m) => {
            prefix_flags(instr, None, m.ul, out);
            let (ndst, nsrc) = MovMulti::counts(m.op);
            let dh = h(m.dst_type.is_half_cat1());
            let sh = h(m.src_type.is_half_cat1());
            let regs: Vec<String> = m.dsts[..ndst]
                .iter()
                .map(|&d| format!("{dh}{}", gpr(d)))
                .chain(m.srcs[..nsrc].iter().map(|&s| format!("{sh}{}", gpr(s))))
                .collect();
            out.push_str(&format!(
                "{}.{}{} {}{}",
                m.op.name(),
                m.src_type.name(),
                m.dst_type.name(),
                m.round.prefix(),
                regs.join(", ")
            ));
        }
        _ => {}
    }
}

/// Parses a type name at the start of `s`, longest name first (`u8_32`
/// before `u8`).
fn type_prefix(s: &str) -> Option<(Type, &str)> {
    let mut types = TYPES;
    types.sort_by_key(|t| std::cmp::Reverse(t.name().len()));
    types
        .iter()
        .find(|t| s.starts_with(t.name()))
        .map(|t| (*t, &s[t.name().len()..]))
}

/// Parses `f32u16` into the source and destination types.
fn type_pair(c: &Cursor, m: &Mnemonic, word: &str) -> PResult<(Type, Type)> {
    if let Some((a, rest)) = type_prefix(word) {
        if let Some((b, "")) = type_prefix(rest) {
            return Ok((a, b));
        }
    }
    c.error_at(
        m.pos,
        format!("expected two types such as `f32u32`, found `{word}`"),
    )
}

fn parse_round(c: &mut Cursor) -> Round {
    c.skip_ws();
    for r in ROUNDS {
        if !r.prefix().is_empty() && c.eat(r.prefix()) {
            return r;
        }
    }
    Round::Zero
}

/// Parses an `h` prefix that must agree with the type's precision.
fn half_prefix(c: &mut Cursor, half: bool, ty: Type) -> PResult<()> {
    let pos = c.pos();
    if c.eat("h") != half {
        return c.error_at(
            pos,
            format!(
                "a {} register is written {}",
                ty.name(),
                if half { "hrN.c" } else { "rN.c" }
            ),
        );
    }
    Ok(())
}

fn parse_dst(c: &mut Cursor, ty: Type) -> PResult<MovDst> {
    c.skip_ws();
    half_prefix(c, ty.is_half_cat1(), ty)?;
    if c.eat("r<") {
        let off = parse_relative_body(c, 0, 255)?;
        return Ok(MovDst::Rel(off as u8));
    }
    Ok(MovDst::Reg(parse_gpr(c)?))
}

fn parse_immediate(c: &mut Cursor, ty: Type) -> PResult<i32> {
    let pos = c.pos();
    let bits: u32 = match ty {
        Type::F16 => {
            if !c.eat("h") || c.peek() != Some('(') {
                return c.error("an f16 immediate is written h(value)");
            }
            let p = c.pos();
            let text = parenthesized(c)?;
            parse_f16_bits(c, p, text)? as u32
        }
        Type::F32 => {
            if c.peek() != Some('(') {
                return c.error("an f32 immediate is written (value)");
            }
            let text = parenthesized(c)?;
            parse_f32_bits(c, pos, text)?
        }
        Type::S16 => (c.int_in(-0x8000, 0xffff, "s16 immediate")? as u32) & 0xffff,
        Type::S32 => c.int_in(i32::MIN as i64, u32::MAX as i64, "s32 immediate")? as u32,
        _ => c.int_in(0, u32::MAX as i64, "immediate")? as u32,
    };
    Ok(bits as i32)
}

fn parse_src(c: &mut Cursor, ty: Type) -> PResult<Operand> {
    let mods = parse_modifiers(c);
    if mods.neg || mods.abs {
        return c.error("cat1 sources take no (neg)/(abs)");
    }
    let half = ty.is_half_cat1();
    let mut op = Operand {
        half,
        r: mods.r,
        last: mods.last,
        ..Operand::default()
    };
    let is_imm = c.rest().starts_with("h(")
        || c.peek() == Some('(')
        || c.peek().is_some_and(|ch| ch.is_ascii_digit() || ch == '-');
    if is_imm {
        op.kind = SrcKind::Imm(parse_immediate(c, ty)?);
        return Ok(op);
    }
    half_prefix(c, half, ty)?;
    op.kind = parse_reg_source(c)?;
    Ok(op)
}

fn multi_regs(c: &mut Cursor, n: usize, ty: Type, first: bool) -> PResult<[u8; 4]> {
    let mut regs = [0; 4];
    for (i, r) in regs.iter_mut().take(n).enumerate() {
        if !(first && i == 0) {
            c.expect(",")?;
        }
        c.skip_ws();
        half_prefix(c, ty.is_half_cat1(), ty)?;
        *r = parse_gpr(c)?;
    }
    Ok(regs)
}

pub(super) fn parse(c: &mut Cursor, prefix: &mut Prefix, m: &Mnemonic) -> PResult<Op> {
    let ul = prefix.flag("ul");
    let mut words = m.words();
    match m.op {
        Opcode::Mov => {
            let repeat = prefix.count("rpt").unwrap_or(0);
            if let Some((ty, name, num)) = match m.spelled {
                "mova" => Some((Type::S16, "a0.x", A0_X)),
                "mova1" => Some((Type::U16, "a1.x", A1_X)),
                _ => None,
            } {
                words.finish(c)?;
                let round = parse_round(c);
                c.expect(name)?;
                c.expect(",")?;
                let src = parse_src(c, ty)?;
                return Ok(Op::Mov(Mov {
                    src_type: ty,
                    dst_type: ty,
                    dst: MovDst::Reg(num),
                    src,
                    repeat,
                    ul,
                    round,
                }));
            }
            let (src_type, dst_type) = type_pair(c, m, words.expect(c, "types")?)?;
            words.finish(c)?;
            let round = parse_round(c);
            let dst = parse_dst(c, dst_type)?;
            c.expect(",")?;
            let src = parse_src(c, src_type)?;
            Ok(Op::Mov(Mov {
                src_type,
                dst_type,
                dst,
                src,
                repeat,
                ul,
                round,
            }))
        }
        Opcode::Movmsk => {
            let w = words.expect(c, "width `.wN`")?;
            let repeat = match w {
                "w32" => 0,
                "w64" => 1,
                "w96" => 2,
                "w128" => 3,
                _ => return c.error_at(m.pos, format!("bad movmsk width `.{w}`")),
            };
            words.finish(c)?;
            c.skip_ws();
            let dst = if c.eat("r<") {
                MovDst::Rel(parse_relative_body(c, 0, 255)? as u8)
            } else {
                MovDst::Reg(parse_gpr(c)?)
            };
            Ok(Op::MovMsk(MovMsk { dst, repeat, ul }))
        }
        _ => {
            let (src_type, dst_type) = type_pair(c, m, words.expect(c, "types")?)?;
            words.finish(c)?;
            let round = parse_round(c);
            let (ndst, nsrc) = MovMulti::counts(m.op);
            let dsts = multi_regs(c, ndst, dst_type, true)?;
            let srcs = multi_regs(c, nsrc, src_type, false)?;
            Ok(Op::MovMulti(MovMulti {
                op: m.op,
                src_type,
                dst_type,
                dsts,
                srcs,
                ul,
                round,
            }))
        }
    }
}
