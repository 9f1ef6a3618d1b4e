//! cat5 syntax: `sam.base1 (f32)(xyzw)r1.x, r0.z, s#3, t#2`,
//! `isam.v.s2en.uniform.base0 (u32)(xyzw)r1.y, r0.x+3, r2.y`,
//! `sam.base0 (f32)(xyzw)r0.x, r0.z, s#1, a1.x`, `brcst.active.w8 (u32)(x)r0.z, r0.y`.

use super::cursor::{Cursor, PResult};
use super::operand::{gpr, parenthesized, parse_gpr};
use super::{jp, sync, Mnemonic};
use crate::encoding::cat5::{is_subgroup, src2_is_reg};
use crate::gen::IsaGen;
use crate::instr::{A1Imm, DescMode, Instr, Op, Tex, TexDesc};
use crate::opcode::{flags, Opcode};
use crate::types::{wrmask_name, Type, SWIZZLE, TYPES};

fn h(half: bool) -> &'static str {
    if half {
        "h"
    } else {
        ""
    }
}

pub(super) fn print(instr: &Instr, t: &Tex, out: &mut String) {
    sync(instr, false, out);
    jp(instr, out);
    let info = t.op.info();
    out.push_str(t.op.name());
    if t.op == Opcode::BrcstActive {
        out.push_str(&format!(
            ".w{}",
            2u64.checked_shl(t.cluster.into()).unwrap_or(0)
        ));
    }
    if !is_subgroup(t.op) {
        let isam = t.op == Opcode::Isam;
        for (on, name) in [
            (t.is_3d, ".3d"),
            (t.array, ".a"),
            (t.o, ".o"),
            (t.p && !isam, ".p"),
            (t.s, if isam { ".v" } else { ".s" }),
        ] {
            if on {
                out.push_str(name);
            }
        }
        match t.desc {
            TexDesc::Direct { .. } => {}
            TexDesc::Indexed { mode, base, .. } => {
                out.push_str(".s2en");
                out.push_str(if mode.is_uniform() {
                    ".uniform"
                } else {
                    ".nonuniform"
                });
                if mode.is_bindless() {
                    out.push_str(&format!(".base{base}"));
                }
            }
            TexDesc::BindlessImm { base, .. } | TexDesc::BindlessA1 { base, .. } => {
                out.push_str(&format!(".base{base}"));
            }
        }
        if isam && t.one_d {
            out.push_str(".1d");
        }
    }
    out.push(' ');
    if info.has(flags::TYPE) {
        out.push_str(&format!("({})", t.ty.name()));
    }
    out.push_str(&format!(
        "({}){}{}",
        wrmask_name(t.wrmask),
        h(t.ty.is_half()),
        gpr(t.dst)
    ));
    if let Some(s) = t.src1 {
        out.push_str(&format!(", {}{}", h(t.half_src), gpr(s)));
    }
    if let Some(off) = t.offset {
        out.push_str(&format!("+{off}"));
    }
    if let Some(s) = t.src2 {
        out.push_str(&format!(", {}{}", h(t.half_src), gpr(s)));
    }
    let samp = |n: u8| {
        if info.has(flags::SAMP) {
            format!(", s#{n}")
        } else {
            String::new()
        }
    };
    let tex = |n: u8| {
        if info.has(flags::TEX) {
            format!(", t#{n}")
        } else {
            String::new()
        }
    };
    match t.desc {
        _ if is_subgroup(t.op) => {}
        TexDesc::Direct { samp: s, tex: x }
        | TexDesc::BindlessImm {
            samp: s, tex: x, ..
        } => {
            out.push_str(&samp(s));
            out.push_str(&tex(x));
        }
        TexDesc::Indexed { mode, reg, .. } => {
            out.push_str(&format!(", {}{}", h(!mode.is_bindless()), gpr(reg)));
            if mode.uses_a1() {
                out.push_str(", a1.x");
            }
        }
        TexDesc::BindlessA1 { imm, .. } => {
            out.push_str(&match imm {
                A1Imm::Samp(n) => samp(n),
                A1Imm::Tex(n) => tex(n),
            });
            out.push_str(", a1.x");
        }
    }
}

fn parse_type(c: &mut Cursor) -> PResult<Type> {
    let pos = c.pos();
    let text = parenthesized(c)?;
    match TYPES.iter().find(|t| t.name() == text) {
        Some(t) => Ok(*t),
        None => c.error_at(pos, format!("unknown type `({text})`")),
    }
}

fn parse_wrmask(c: &mut Cursor) -> PResult<u8> {
    let pos = c.pos();
    let text = parenthesized(c)?;
    let mut mask = 0u8;
    for ch in text.chars() {
        match SWIZZLE.iter().position(|&s| s == ch) {
            Some(i) if mask & (1 << i) == 0 => mask |= 1 << i,
            _ => return c.error_at(pos, format!("bad write mask `({text})`")),
        }
    }
    Ok(mask)
}

/// Parses `, s#N` / `, t#N`.
fn parse_numbered(c: &mut Cursor, prefix: &str, max: u8) -> PResult<u8> {
    c.expect(",")?;
    c.expect(prefix)?;
    Ok(c.int_in(0, max as i64, prefix)? as u8)
}

/// Parses a register with an `h` prefix, giving the number and precision.
fn parse_reg(c: &mut Cursor) -> PResult<(u8, bool)> {
    c.skip_ws();
    let half = c.eat("h");
    Ok((parse_gpr(c)?, half))
}

/// Consumes `, a1.x` if it follows.
fn parse_a1(c: &mut Cursor) -> bool {
    let save = c.pos();
    c.skip_ws();
    if c.eat(",") {
        c.skip_ws();
        if c.eat("a1.x") {
            return true;
        }
    }
    c.set_pos(save);
    false
}

pub(super) fn parse(c: &mut Cursor, m: &Mnemonic, generation: IsaGen) -> PResult<Op> {
    let op = m.op;
    let info = op.info();
    let isam = op == Opcode::Isam;
    let mut words = m.words();
    let mut t = Tex::new(op);
    let (mut s2en, mut uniform, mut nonuniform, mut base) = (false, false, false, None);
    if op == Opcode::BrcstActive {
        let w = words.expect(c, "cluster size `.wN`")?;
        match w
            .strip_prefix('w')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| n.is_power_of_two() && (2..=16).contains(n))
        {
            Some(n) => t.cluster = (n.trailing_zeros() - 1) as u8,
            None => return c.error_at(m.pos, format!("bad cluster size `.{w}`")),
        }
    } else if !is_subgroup(op) {
        t.is_3d = words.take("3d");
        t.array = words.take("a");
        t.o = words.take("o");
        t.p = !isam && words.take("p");
        t.s = words.take(if isam { "v" } else { "s" });
        s2en = words.take("s2en");
        uniform = words.take("uniform");
        nonuniform = !uniform && words.take("nonuniform");
        base = words.take_base();
        t.one_d = isam && words.take("1d");
    }
    words.finish(c)?;
    c.skip_ws();
    if info.has(flags::TYPE) {
        t.ty = parse_type(c)?;
    }
    t.wrmask = parse_wrmask(c)?;
    let pos = c.pos();
    let (dst, dst_half) = parse_reg(c)?;
    if dst_half != t.ty.is_half() {
        return c.error_at(
            pos,
            format!(
                "a ({}) result is written to {}",
                t.ty.name(),
                if t.ty.is_half() {
                    "a half register"
                } else {
                    "a full register"
                }
            ),
        );
    }
    t.dst = dst;
    let mut halves = Vec::new();
    if info.nsrc > 0 {
        c.expect(",")?;
        let (r, half) = parse_reg(c)?;
        t.src1 = Some(r);
        halves.push(half);
        if isam && c.peek() == Some('+') {
            c.eat("+");
            t.offset = Some(c.int_in(0, 255, "offset")? as u8);
        }
    }
    if is_subgroup(op) && info.nsrc > 1 || !is_subgroup(op) && src2_is_reg(op, t.o) {
        c.expect(",")?;
        let (r, half) = parse_reg(c)?;
        t.src2 = Some(r);
        halves.push(half);
    }
    if let Some(&first) = halves.first() {
        if halves.iter().any(|&h| h != first) {
            return c.error("texture sources must all be full or all be half registers");
        }
        t.half_src = first;
    }
    if is_subgroup(op) {
        return Ok(Op::Tex(t));
    }
    let has_samp = info.has(flags::SAMP);
    let has_tex = info.has(flags::TEX);
    t.desc = if s2en {
        c.expect(",")?;
        let pos = c.pos();
        let (reg, half) = parse_reg(c)?;
        let a1 = parse_a1(c);
        let bindless = base.is_some();
        if half == bindless {
            return c.error_at(
                pos,
                if bindless {
                    "a bindless index is a full register"
                } else {
                    "a non-bindless s2en index is a half register"
                },
            );
        }
        let mode = match (bindless, a1, nonuniform) {
            (false, false, false) => DescMode::Uniform,
            (false, false, true) => DescMode::Nonuniform,
            (false, true, _) => return c.error("a1.x goes with bindless (.baseN) access only"),
            (true, true, false) => DescMode::BindlessA1Uniform,
            (true, false, true) => DescMode::BindlessNonuniform,
            (true, true, true) => DescMode::BindlessA1Nonuniform,
            (true, false, false) => DescMode::BindlessUniform,
        };
        if !uniform && !nonuniform {
            return c.error_at(m.pos, ".s2en needs .uniform or .nonuniform");
        }
        TexDesc::Indexed {
            mode,
            reg,
            base: base.unwrap_or(0),
        }
    } else if let Some(base) = base {
        // a6xx names the sampler and a7xx the texture next to a1.x; peek at
        // the end of the line to know which form this is.
        let with_a1 = c.rest().trim_end().ends_with("a1.x");
        if with_a1 {
            let imm = if generation.is_a7xx() {
                A1Imm::Tex(if has_tex {
                    parse_numbered(c, "t#", 255)?
                } else {
                    0
                })
            } else {
                A1Imm::Samp(if has_samp {
                    parse_numbered(c, "s#", 255)?
                } else {
                    0
                })
            };
            if !parse_a1(c) {
                return c.error("expected `, a1.x`");
            }
            TexDesc::BindlessA1 { base, imm }
        } else {
            let samp = if has_samp {
                parse_numbered(c, "s#", 15)?
            } else {
                0
            };
            let tex = if has_tex {
                parse_numbered(c, "t#", 15)?
            } else {
                0
            };
            TexDesc::BindlessImm { base, samp, tex }
        }
    } else {
        if uniform || nonuniform {
            return c.error_at(m.pos, ".uniform/.nonuniform go with .s2en");
        }
        let samp = if has_samp {
            parse_numbered(c, "s#", 15)?
        } else {
            0
        };
        let tex = if has_tex {
            parse_numbered(c, "t#", 127)?
        } else {
            0
        };
        TexDesc::Direct { samp, tex }
    };
    Ok(Op::Tex(t))
}
