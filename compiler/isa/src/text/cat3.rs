//! cat3 syntax: `mad.f32 r1.y, (neg)c12.x, r1.x, c12.y`,
//! `(nop3) shlg hr8.x, 8, hr8.x, 12`, `(sat)(nop3) dp2acc.mixed.low r0.z, ...`,
//! `(nop3) wmm.accu hr0.z, (neg)hr0.w, hr0.w, 2`.

use super::cursor::{Cursor, PResult};
use super::operand::{gpr, konst, parse_gpr, parse_modifiers, parse_reg_source, relative};
use super::{alu_prefix, Mnemonic, Prefix};
use crate::encoding::cat3::{layout, Layout};
use crate::instr::{Alu3, DotMode, Instr, Op};
use crate::operand::{Operand, Reg, SrcKind};

fn h(half: bool) -> &'static str {
    if half {
        "h"
    } else {
        ""
    }
}

/// A `#cat3-src` (src1/src3) without its negate and repeat flags.
fn cat3_src(s: &Operand) -> String {
    let hh = h(s.half);
    match s.kind {
        SrcKind::Reg(n) => format!("{}{hh}{}", if s.last { "(last)" } else { "" }, gpr(n)),
        SrcKind::Const(n) => format!("{hh}{}", konst(n)),
        SrcKind::Imm(v) => v.to_string(),
        SrcKind::RelReg(o) => format!("{hh}{}", relative('r', o, true)),
        SrcKind::RelConst(o) => format!("{hh}{}", relative('c', o, true)),
        SrcKind::FLut(_) => "<flut>".into(),
    }
}

pub(super) fn print(instr: &Instr, a: &Alu3, out: &mut String) {
    let layout = layout(a.op);
    let nop_form = layout == Layout::Dot || (a.repeat == 0 && a.nop > 0);
    alu_prefix(instr, a.sat, nop_form.then_some(a.nop), a.repeat, a.ul, out);
    out.push_str(a.op.name());
    let [s1, s2, s3] = &a.srcs;
    let neg = |s: &Operand| if s.neg { "(neg)" } else { "" };
    let r = |s: &Operand| if s.r && !nop_form { "(r)" } else { "" };
    if layout == Layout::Dot {
        out.push_str(if a.dot.mixed { ".mixed" } else { ".unsigned" });
        out.push_str(if a.dot.high { ".high" } else { ".low" });
        out.push_str(&format!(
            " {}, {}, {}, {}{}",
            gpr(a.dst.num),
            cat3_src(s1),
            gpr(match s2.kind {
                SrcKind::Reg(n) => n,
                _ => 0,
            }),
            neg(s3),
            cat3_src(s3)
        ));
        return;
    }
    let src2 = match s2.kind {
        SrcKind::Reg(n) => n,
        _ => 0,
    };
    out.push_str(&format!(
        " {}{}, {}{}{}, {}{}{}{}, {}{}{}",
        h(a.dst.half),
        gpr(a.dst.num),
        neg(s1),
        r(s1),
        cat3_src(s1),
        neg(s2),
        r(s2),
        h(s2.half),
        gpr(src2),
        neg(s3),
        r(s3),
        cat3_src(s3)
    ));
}

fn parse_src(c: &mut Cursor) -> PResult<Operand> {
    let mods = parse_modifiers(c);
    let mut op = Operand {
        neg: mods.neg,
        abs: mods.abs,
        r: mods.r,
        last: mods.last,
        ..Operand::default()
    };
    if c.peek().is_some_and(|ch| ch.is_ascii_digit() || ch == '-') {
        op.kind = SrcKind::Imm(c.int_in(0, 0xfff, "cat3 immediate")? as i32);
        return Ok(op);
    }
    op.half = c.eat("h");
    op.kind = parse_reg_source(c)?;
    Ok(op)
}

pub(super) fn parse(c: &mut Cursor, prefix: &mut Prefix, m: &Mnemonic) -> PResult<Op> {
    let layout = layout(m.op);
    let mut words = m.words();
    let mut dot = DotMode::default();
    if layout == Layout::Dot {
        dot.mixed = match words.expect(c, "signedness (.mixed or .unsigned)")? {
            "mixed" => true,
            "unsigned" => false,
            w => return c.error_at(m.pos, format!("expected .mixed or .unsigned, found `.{w}`")),
        };
        dot.high = match words.expect(c, "packing (.low or .high)")? {
            "high" => true,
            "low" => false,
            w => return c.error_at(m.pos, format!("expected .low or .high, found `.{w}`")),
        };
    }
    words.finish(c)?;
    c.skip_ws();
    let dst_half = c.eat("h");
    let dst = Reg {
        num: parse_gpr(c)?,
        half: dst_half,
    };
    c.expect(",")?;
    let mut s1 = parse_src(c)?;
    c.expect(",")?;
    let s2 = parse_src(c)?;
    if !matches!(s2.kind, SrcKind::Reg(_)) {
        return c.error("cat3's second source is a register");
    }
    c.expect(",")?;
    let mut s3 = parse_src(c)?;
    // Immediates take the instruction's precision, which src2 shows.
    for s in [&mut s1, &mut s3] {
        if matches!(s.kind, SrcKind::Imm(_)) {
            s.half = s2.half;
        }
    }
    Ok(Op::Alu3(Alu3 {
        op: m.op,
        dst,
        srcs: [s1, s2, s3],
        repeat: prefix.count("rpt").unwrap_or(0),
        nop: prefix.count("nop").unwrap_or(0),
        sat: prefix.flag("sat"),
        ul: prefix.flag("ul"),
        dot,
    }))
}
