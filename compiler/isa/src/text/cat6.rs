//! cat6 syntax: `ldg.u32 r1.z, g[r1.z+7], 1`,
//! `stg.a.u32 g[r2.x+(((r1.x<<2)+3)<<2)], r5.x, 1`, `stl.u32 l[r0.z], r1.x, 1`,
//! `ldc.offset0.1.uniform r0.x, 0, r0.x`,
//! `stib.b.untyped.1d.u32.4.imm.base0 r2.y, r5.z+1, 4`, `shfl.up.u16 hr3.y, hr0.y, 5`.

use super::cursor::{Cursor, PResult};
use super::operand::{gpr, parse_gpr, plain_gpr, signed_offset, swizzle, unsigned_offset};
use super::{jp, sync, Mnemonic};
use crate::gen::IsaGen;
use crate::instr::{
    AddrSrc, Atomic, BufferDesc, ConstDst, GetId, Global, GlobalAddr, Ibo, IndexMode, Instr, Ldc,
    LdgK, Ldlv, Local, Mem, Op, RayIntersection, Resinfo, ResinfoB, Shfl, ShflMode, Src8, Stc,
    Stsc,
};
use crate::opcode::{flags, Opcode};
use crate::types::{Type, SWIZZLE, TYPES};

fn h(half: bool) -> &'static str {
    if half {
        "h"
    } else {
        ""
    }
}

/// A `#cat6-src`: an immediate or `rN.c`.
fn src8(s: Src8) -> String {
    match s {
        Src8::Reg(n) => plain_gpr(n),
        Src8::Imm(v) => v.to_string(),
    }
}

/// A `#cat6-src-const-or-gpr`.
fn addr(a: AddrSrc) -> String {
    match a {
        AddrSrc::Reg(n) => plain_gpr(n),
        AddrSrc::Const(n) => format!("c{}.{}", n >> 2, SWIZZLE[(n & 3) as usize]),
    }
}

fn const_dst(d: ConstDst) -> String {
    match d {
        ConstDst::Imm(v) => v.to_string(),
        ConstDst::A1(v) => format!("a1.x{}", unsigned_offset(v as u64)),
    }
}

/// The name of a type, `u64` for value 6 of an atomic (`#type-atomic`).
fn type_name(ty: Type, atomic: bool) -> &'static str {
    if atomic && ty == Type::U8 {
        "u64"
    } else {
        ty.name()
    }
}

fn desc_suffix(d: BufferDesc) -> String {
    let mode = match d.mode {
        IndexMode::Imm => "imm",
        IndexMode::Uniform => "uniform",
        IndexMode::Nonuniform => "nonuniform",
    };
    if d.bindless {
        format!("{mode}.base{}", d.base)
    } else {
        mode.to_string()
    }
}

fn typed(t: bool) -> &'static str {
    if t {
        "typed"
    } else {
        "untyped"
    }
}

/// The address inside `g[...]` of `ldg`/`stg` and their `.a` forms.
fn global_address(g: &Global) -> String {
    let base = addr(g.base);
    match g.addr {
        GlobalAddr::Offset(off) => format!("{base}{}", signed_offset(off as i64)),
        GlobalAddr::Indexed { index, offset } => format!("{base}+{}+{offset}", gpr(index)),
        GlobalAddr::Scaled {
            index,
            shift,
            offset,
        } => {
            let tshift = g.ty.shift();
            let off = unsigned_offset(offset as u64);
            let index = gpr(index);
            // The overrides of the XML's `ldg.a` display, in order.
            if tshift == 0 {
                format!("{base}+{index}{off}")
            } else if offset == 0 {
                format!("{base}+({index}<<{})", tshift + shift as u32)
            } else if shift == 0 {
                format!("{base}+(({index}{off})<<{tshift})")
            } else {
                format!("{base}+((({index}<<{shift}){off})<<{tshift})")
            }
        }
    }
}

pub(super) fn print(instr: &Instr, m: &Mem, out: &mut String) {
    sync(instr, false, out);
    jp(instr, out);
    let name = m.opcode().name();
    let text = match m {
        Mem::Global(g) => {
            let half = h(g.ty.is_half());
            let address = global_address(g);
            if matches!(g.op, Opcode::Ldg | Opcode::LdgA) {
                format!(
                    "{name}.{} {half}{}, g[{address}], {}",
                    g.ty.name(),
                    gpr(g.reg),
                    g.size
                )
            } else {
                format!(
                    "{name}.{} g[{address}], {half}{}, {}",
                    g.ty.name(),
                    gpr(g.reg),
                    g.size
                )
            }
        }
        Mem::LdgK(k) => format!(
            "{name}.{} c[{}], g[{}{}], {}",
            k.ty.name(),
            const_dst(k.dst),
            plain_gpr(k.base),
            signed_offset(k.offset as i64),
            k.size
        ),
        Mem::Local(l) => {
            let space = if matches!(l.op, Opcode::Ldp | Opcode::Stp) {
                'p'
            } else {
                'l'
            };
            let address = format!("{space}[{}{}]", gpr(l.addr), signed_offset(l.offset as i64));
            match l.op {
                Opcode::Ldl | Opcode::Ldlw => format!(
                    "{name}.{} {}, {address}, {}",
                    l.ty.name(),
                    gpr(l.reg),
                    l.size
                ),
                Opcode::Ldp => format!(
                    "{name}.{} {}{}, {address}, {}",
                    l.ty.name(),
                    h(l.ty.is_half()),
                    gpr(l.reg),
                    l.size
                ),
                _ => format!(
                    "{name}.{} {address}, {}, {}",
                    l.ty.name(),
                    gpr(l.reg),
                    l.size
                ),
            }
        }
        Mem::Ldlv(l) => format!(
            "{name}.{} {}, l[{}], {}",
            l.ty.name(),
            gpr(l.dst),
            l.offset,
            l.size
        ),
        Mem::Stc(s) => format!(
            "{name}.{} c[{}], {}, {}",
            s.ty.name(),
            const_dst(s.dst),
            gpr(s.src),
            s.size
        ),
        Mem::Stsc(s) => format!("{name}.{} c[{}], {}, {}", s.ty.name(), s.dst, s.src, s.size),
        Mem::Resinfo(r) => format!(
            "{name}.{}.{}d {}, g[{}]",
            r.ty.name(),
            r.d,
            gpr(r.dst),
            src8(r.ssbo)
        ),
        Mem::Atomic(a) => {
            let global = a.op.name().starts_with("atomic.g.");
            let head = format!(
                "{name}.{}.{}d.{}.{}",
                typed(a.typed),
                a.d,
                type_name(a.ty, global),
                a.type_size
            );
            if global {
                format!(
                    "{head}.g {}, {}, {}",
                    gpr(a.dst),
                    src8(a.src1),
                    src8(a.src2)
                )
            } else {
                format!(
                    "{head}.l {}, l[{}], {}",
                    gpr(a.dst),
                    src8(a.src1),
                    src8(a.src2)
                )
            }
        }
        Mem::Ray(r) => format!(
            "{name} {}, [{}], {}, {}, {}",
            gpr(r.dst),
            addr(r.bvh),
            gpr(r.src2),
            gpr(r.src3),
            gpr(r.src4)
        ),
        Mem::Ldc(l) if l.op == Opcode::LdcK => format!(
            "ldc.{}.k.{} c[a1.x], {}, {}",
            l.size,
            desc_suffix(l.desc),
            src8(l.src1),
            src8(l.src2)
        ),
        Mem::Ldc(l) => format!(
            "ldc{}.offset{}.{}.{} {}, {}, {}",
            if l.u { ".u" } else { "" },
            l.component,
            l.size,
            desc_suffix(l.desc),
            gpr(l.dst),
            src8(l.src1),
            src8(l.src2)
        ),
        Mem::GetId(g) => format!("{name}.{} {}", g.ty.name(), gpr(g.dst)),
        Mem::ResinfoB(r) => format!(
            "{name}.{}.{}d.{}.{}.{} {}, {}",
            typed(r.typed),
            r.d,
            r.ty.name(),
            r.type_size,
            desc_suffix(r.desc),
            gpr(r.dst),
            src8(r.ssbo)
        ),
        Mem::Ibo(i) => {
            let atomic = i.op.info().has(flags::ATOMIC);
            let head = format!(
                "{name}.{}.{}d.{}.{}.{}",
                typed(i.typed),
                i.d,
                type_name(i.ty, atomic),
                i.type_size,
                desc_suffix(i.desc)
            );
            if atomic {
                format!("{head} {}, {}, {}", gpr(i.reg), gpr(i.coord), src8(i.ssbo))
            } else {
                format!(
                    "{head} {}{}, {}{}, {}",
                    h(i.ty.is_half()),
                    gpr(i.reg),
                    gpr(i.coord),
                    unsigned_offset(i.offset.unwrap_or(0) as u64),
                    src8(i.ssbo)
                )
            }
        }
        Mem::Shfl(s) => {
            let mode = match s.mode {
                ShflMode::Xor => "xor",
                ShflMode::Up => "up",
                ShflMode::Down => "down",
                ShflMode::Rup => "rup",
                ShflMode::Rdown => "rdown",
            };
            let half = h(s.ty.is_half());
            format!(
                "{name}.{mode}.{} {half}{}, {half}{}, {}",
                s.ty.name(),
                gpr(s.dst),
                gpr(s.src1),
                src8(s.src2)
            )
        }
    };
    out.push_str(&text);
}

/// Parses a type name, `u64` meaning value 6 when `atomic`.
fn parse_type(c: &Cursor, m: &Mnemonic, w: &str, atomic: bool) -> PResult<Type> {
    if atomic && w == "u64" {
        return Ok(Type::U8);
    }
    match TYPES.iter().find(|t| t.name() == w) {
        Some(t) if !(atomic && *t == Type::U8) => Ok(*t),
        _ => c.error_at(m.pos, format!("unknown type `.{w}`")),
    }
}

/// Parses `Nd` (1d .. 4d).
fn parse_dims(c: &Cursor, m: &Mnemonic, w: &str) -> PResult<u8> {
    match w.strip_suffix('d').and_then(|n| n.parse::<u8>().ok()) {
        Some(d @ 1..=4) => Ok(d),
        _ => c.error_at(
            m.pos,
            format!("expected a dimension count 1d..4d, found `.{w}`"),
        ),
    }
}

fn parse_small(c: &Cursor, m: &Mnemonic, w: &str, lo: u16, hi: u16, what: &str) -> PResult<u16> {
    match w.parse::<u16>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => c.error_at(m.pos, format!("expected {what} {lo}..={hi}, found `.{w}`")),
    }
}

fn parse_typed(c: &Cursor, m: &Mnemonic, w: &str) -> PResult<bool> {
    match w {
        "typed" => Ok(true),
        "untyped" => Ok(false),
        _ => c.error_at(m.pos, format!("expected .typed or .untyped, found `.{w}`")),
    }
}

/// Parses `imm`/`uniform`/`nonuniform` and an optional `baseN` after it.
fn parse_desc(c: &Cursor, m: &Mnemonic, words: &mut super::Words) -> PResult<BufferDesc> {
    let mode = match words.expect(c, "mode (.imm, .uniform, .nonuniform)")? {
        "imm" => IndexMode::Imm,
        "uniform" => IndexMode::Uniform,
        "nonuniform" => IndexMode::Nonuniform,
        w => {
            return c.error_at(
                m.pos,
                format!("expected .imm, .uniform or .nonuniform, found `.{w}`"),
            )
        }
    };
    let mut d = BufferDesc {
        mode,
        ..BufferDesc::default()
    };
    if let Some(n) = words.take_base() {
        d.bindless = true;
        d.base = n;
    }
    Ok(d)
}

/// Parses a `#cat6-src`: an unsigned immediate when `imm`, else `rN.c`.
fn parse_src8(c: &mut Cursor, imm: bool) -> PResult<Src8> {
    c.skip_ws();
    if imm {
        Ok(Src8::Imm(c.int_in(0, 255, "immediate")? as u8))
    } else {
        Ok(Src8::Reg(parse_gpr(c)?))
    }
}

/// Parses a `#cat6-src` that may be either.
fn parse_src8_any(c: &mut Cursor) -> PResult<Src8> {
    c.skip_ws();
    let imm = c.peek().is_some_and(|ch| ch.is_ascii_digit());
    parse_src8(c, imm)
}

fn parse_addr(c: &mut Cursor) -> PResult<AddrSrc> {
    c.skip_ws();
    if c.eat("c") {
        let index = c.int_in(0, 63, "const index")? as u8;
        Ok(AddrSrc::Const(index << 2 | swizzle(c)?))
    } else {
        Ok(AddrSrc::Reg(parse_gpr(c)?))
    }
}

fn parse_half_reg(c: &mut Cursor, half: bool, ty: Type) -> PResult<u8> {
    c.skip_ws();
    let pos = c.pos();
    if c.eat("h") != half {
        return c.error_at(
            pos,
            format!(
                "a {} value is in a {} register",
                ty.name(),
                if half { "half (hrN.c)" } else { "full (rN.c)" }
            ),
        );
    }
    parse_gpr(c)
}

fn parse_const_dst(c: &mut Cursor) -> PResult<ConstDst> {
    c.expect("c[")?;
    c.skip_ws();
    let d = if c.eat("a1.x") {
        let off = super::operand::parse_offset(c, 0, 255)?;
        ConstDst::A1(off as u8)
    } else {
        ConstDst::Imm(c.int_in(0, 255, "const")? as u8)
    };
    c.expect("]")?;
    Ok(d)
}

fn parse_size(c: &mut Cursor, max: i64) -> PResult<u8> {
    c.expect(",")?;
    c.skip_ws();
    Ok(c.int_in(0, max, "size")? as u8)
}

/// Parses the inside of `g[...]` for the addressing `op` has on `generation`.
fn parse_global_address(
    c: &mut Cursor,
    op: Opcode,
    ty: Type,
    generation: IsaGen,
) -> PResult<(AddrSrc, GlobalAddr)> {
    c.expect("g[")?;
    let pos = c.pos();
    let base = parse_addr(c)?;
    let indexed = matches!(op, Opcode::LdgA | Opcode::StgA);
    let address = if !indexed {
        GlobalAddr::Offset(super::operand::parse_offset(c, -4096, 4095)? as i32)
    } else if generation.is_a7xx() {
        c.expect("+")?;
        c.skip_ws();
        let index = parse_gpr(c)?;
        c.expect("+")?;
        c.skip_ws();
        let offset = c.int_in(0, 255, "offset")? as u8;
        GlobalAddr::Indexed { index, offset }
    } else {
        parse_scaled(c, ty)?
    };
    if matches!(address, GlobalAddr::Offset(_) | GlobalAddr::Scaled { .. })
        && matches!(base, AddrSrc::Const(_))
    {
        return c.error_at(pos, "only the a7xx .a forms take a const base");
    }
    c.expect("]")?;
    Ok((base, address))
}

/// Parses `+{index}{off}`, `+({index}<<N)`, `+(({index}{off})<<N)` or
/// `+((({index}<<S){off})<<N)`: the a6xx `.a` address after the base.
fn parse_scaled(c: &mut Cursor, ty: Type) -> PResult<GlobalAddr> {
    let tshift = ty.shift() as i64;
    c.expect("+")?;
    c.skip_ws();
    let pos = c.pos();
    let mut parens = 0;
    while c.eat("(") {
        parens += 1;
        c.skip_ws();
    }
    let index = parse_gpr(c)?;
    let mut shift = 0i64;
    let mut offset = 0i64;
    let mut shifts = Vec::new();
    // Read what closes each parenthesis: `<<N`, `+N` and `)`.
    loop {
        c.skip_ws();
        if c.eat("<<") {
            c.skip_ws();
            shifts.push(c.int_in(0, 31, "shift")?);
        } else if c.peek() == Some('+') {
            offset = super::operand::parse_offset(c, 0, 3)?;
        } else if parens > 0 && c.eat(")") {
            parens -= 1;
        } else {
            break;
        }
    }
    if parens != 0 {
        return c.error("unbalanced parentheses in the address");
    }
    // The outermost shift is the type's; the inner one the index's.
    match (tshift, shifts.as_slice(), offset) {
        (0, [], _) => {}
        (t, [full], 0) if *full >= t => shift = full - t,
        (t, [outer], _) if *outer == t => {}
        (t, [inner, outer], _) if *outer == t => shift = *inner,
        _ => {
            return c.error_at(
                pos,
                format!(
                    "this address does not scale by the {}-byte size of .{}",
                    1 << tshift,
                    ty.name()
                ),
            )
        }
    }
    if shift > 3 {
        return c.error_at(pos, format!("index shift {shift} is more than 3"));
    }
    Ok(GlobalAddr::Scaled {
        index,
        shift: shift as u8,
        offset: offset as u8,
    })
}

/// Parses `[l|p][reg±off]`.
fn parse_local_address(c: &mut Cursor, space: char) -> PResult<(u8, i32)> {
    c.expect(&format!("{space}["))?;
    c.skip_ws();
    let reg = parse_gpr(c)?;
    let off = super::operand::parse_offset(c, -4096, 4095)?;
    c.expect("]")?;
    Ok((reg, off as i32))
}

pub(super) fn parse(c: &mut Cursor, m: &Mnemonic, generation: IsaGen) -> PResult<Op> {
    let op = m.op;
    let mut words = m.words();
    let atomic = op.info().has(flags::ATOMIC);
    let mem = match op {
        Opcode::Ldg | Opcode::LdgA | Opcode::Stg | Opcode::StgA => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            let load = matches!(op, Opcode::Ldg | Opcode::LdgA);
            let (reg, base, address);
            if load {
                reg = parse_half_reg(c, ty.is_half(), ty)?;
                c.expect(",")?;
                c.skip_ws();
                (base, address) = parse_global_address(c, op, ty, generation)?;
            } else {
                c.skip_ws();
                (base, address) = parse_global_address(c, op, ty, generation)?;
                c.expect(",")?;
                reg = parse_half_reg(c, ty.is_half(), ty)?;
            }
            Mem::Global(Global {
                op,
                ty,
                reg,
                base,
                addr: address,
                size: parse_size(c, 7)?,
            })
        }
        Opcode::LdgK => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            let dst = parse_const_dst(c)?;
            c.expect(",")?;
            c.expect("g[")?;
            c.skip_ws();
            let base = parse_gpr(c)?;
            let offset = super::operand::parse_offset(c, -4096, 4095)? as i32;
            c.expect("]")?;
            Mem::LdgK(LdgK {
                ty,
                dst,
                base,
                offset,
                size: parse_size(c, 15)?,
            })
        }
        Opcode::Ldl | Opcode::Ldp | Opcode::Ldlw | Opcode::Stl | Opcode::Stp | Opcode::Stlw => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            let space = if matches!(op, Opcode::Ldp | Opcode::Stp) {
                'p'
            } else {
                'l'
            };
            let (reg, addr, offset);
            if matches!(op, Opcode::Ldl | Opcode::Ldp | Opcode::Ldlw) {
                reg = parse_half_reg(c, op == Opcode::Ldp && ty.is_half(), ty)?;
                c.expect(",")?;
                c.skip_ws();
                (addr, offset) = parse_local_address(c, space)?;
            } else {
                c.skip_ws();
                (addr, offset) = parse_local_address(c, space)?;
                c.expect(",")?;
                c.skip_ws();
                reg = parse_gpr(c)?;
            }
            Mem::Local(Local {
                op,
                ty,
                reg,
                addr,
                offset,
                size: parse_size(c, 255)?,
            })
        }
        Opcode::Ldlv => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            c.skip_ws();
            let dst = parse_gpr(c)?;
            c.expect(",")?;
            c.expect("l[")?;
            c.skip_ws();
            let offset = c.int_in(0, 8191, "offset")? as u16;
            c.expect("]")?;
            Mem::Ldlv(Ldlv {
                ty,
                dst,
                offset,
                size: parse_size(c, 255)?,
            })
        }
        Opcode::Stc | Opcode::Stsc => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            c.skip_ws();
            if op == Opcode::Stc {
                let dst = parse_const_dst(c)?;
                c.expect(",")?;
                c.skip_ws();
                let src = parse_gpr(c)?;
                Mem::Stc(Stc {
                    ty,
                    dst,
                    src,
                    size: parse_size(c, 7)?,
                })
            } else {
                c.expect("c[")?;
                c.skip_ws();
                let dst = c.int_in(0, 8191, "const")? as u16;
                c.expect("]")?;
                c.expect(",")?;
                c.skip_ws();
                let src = c.int_in(0, 255, "shared const")? as u8;
                Mem::Stsc(Stsc {
                    ty,
                    dst,
                    src,
                    size: parse_size(c, 255)?,
                })
            }
        }
        Opcode::Resinfo => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            let d = parse_dims(c, m, words.expect(c, "dimensions")?)?;
            words.finish(c)?;
            c.skip_ws();
            let dst = parse_gpr(c)?;
            c.expect(",")?;
            c.expect("g[")?;
            let ssbo = parse_src8_any(c)?;
            c.expect("]")?;
            Mem::Resinfo(Resinfo { ty, d, dst, ssbo })
        }
        Opcode::RayIntersection => {
            words.finish(c)?;
            c.skip_ws();
            let dst = parse_gpr(c)?;
            c.expect(",")?;
            c.expect("[")?;
            let bvh = parse_addr(c)?;
            c.expect("]")?;
            let mut regs = [0u8; 3];
            for r in &mut regs {
                c.expect(",")?;
                c.skip_ws();
                *r = parse_gpr(c)?;
            }
            Mem::Ray(RayIntersection {
                dst,
                bvh,
                src2: regs[0],
                src3: regs[1],
                src4: regs[2],
            })
        }
        Opcode::Ldc | Opcode::LdcK => {
            let u = words.take("u");
            if !u && words.peek().is_some_and(|w| w.parse::<u16>().is_ok()) {
                // `ldc.N.k.<mode>`
                let size = parse_small(c, m, words.expect(c, "size")?, 1, 256, "size")?;
                if !words.take("k") {
                    return c.error_at(m.pos, "expected `ldc.N.k.<mode>`");
                }
                let desc = parse_desc(c, m, &mut words)?;
                words.finish(c)?;
                c.expect("c[")?;
                c.expect("a1.x")?;
                c.expect("]")?;
                c.expect(",")?;
                let src1 = parse_src8_any(c)?;
                c.expect(",")?;
                let src2 = parse_src8(c, desc.mode == IndexMode::Imm)?;
                Mem::Ldc(Ldc {
                    op: Opcode::LdcK,
                    u: false,
                    component: 0,
                    size,
                    dst: 0,
                    src1,
                    src2,
                    desc,
                })
            } else {
                let w = words.expect(c, "`.offsetN`")?;
                let component = match w.strip_prefix("offset").and_then(|n| n.parse::<u8>().ok()) {
                    Some(n @ 0..=3) => n,
                    _ => {
                        return c
                            .error_at(m.pos, format!("expected .offset0...offset3, found `.{w}`"))
                    }
                };
                let size = parse_small(c, m, words.expect(c, "component count")?, 1, 4, "size")?;
                let desc = parse_desc(c, m, &mut words)?;
                words.finish(c)?;
                c.skip_ws();
                let dst = parse_gpr(c)?;
                c.expect(",")?;
                let src1 = parse_src8_any(c)?;
                c.expect(",")?;
                let src2 = parse_src8(c, desc.mode == IndexMode::Imm)?;
                Mem::Ldc(Ldc {
                    op: Opcode::Ldc,
                    u,
                    component,
                    size,
                    dst,
                    src1,
                    src2,
                    desc,
                })
            }
        }
        Opcode::Getspid | Opcode::Getwid | Opcode::Getfiberid => {
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            c.skip_ws();
            Mem::GetId(GetId {
                op,
                ty,
                dst: parse_gpr(c)?,
            })
        }
        Opcode::Shfl => {
            let mode = match words.expect(c, "mode")? {
                "xor" => ShflMode::Xor,
                "up" => ShflMode::Up,
                "down" => ShflMode::Down,
                "rup" => ShflMode::Rup,
                "rdown" => ShflMode::Rdown,
                w => return c.error_at(m.pos, format!("unknown shfl mode `.{w}`")),
            };
            let ty = parse_type(c, m, words.expect(c, "type")?, false)?;
            words.finish(c)?;
            let dst = parse_half_reg(c, ty.is_half(), ty)?;
            c.expect(",")?;
            let src1 = parse_half_reg(c, ty.is_half(), ty)?;
            c.expect(",")?;
            let src2 = parse_src8_any(c)?;
            Mem::Shfl(Shfl {
                mode,
                ty,
                dst,
                src1,
                src2,
            })
        }
        _ if atomic && op.info().sub == 0 => {
            let typed = parse_typed(c, m, words.expect(c, "`.typed`/`.untyped`")?)?;
            let d = parse_dims(c, m, words.expect(c, "dimensions")?)?;
            let global = op.name().starts_with("atomic.g.");
            let ty = parse_type(c, m, words.expect(c, "type")?, global)?;
            let type_size = parse_small(c, m, words.expect(c, "type size")?, 1, 4, "type size")?;
            if !words.take(if global { "g" } else { "l" }) {
                return c.error_at(
                    m.pos,
                    format!("{op} ends in .{}", if global { "g" } else { "l" }),
                );
            }
            words.finish(c)?;
            c.skip_ws();
            let dst = parse_gpr(c)?;
            c.expect(",")?;
            let src1 = if global {
                parse_src8_any(c)?
            } else {
                c.expect("l[")?;
                let s = parse_src8_any(c)?;
                c.expect("]")?;
                s
            };
            c.expect(",")?;
            let src2 = parse_src8_any(c)?;
            Mem::Atomic(Atomic {
                op,
                typed,
                d,
                ty,
                type_size: type_size as u8,
                dst,
                src1,
                src2,
            })
        }
        _ => {
            // resinfo.b, resbase, stib.b, ldib.b, atomic.b.*
            let typed = parse_typed(c, m, words.expect(c, "`.typed`/`.untyped`")?)?;
            let d = parse_dims(c, m, words.expect(c, "dimensions")?)?;
            let ty = parse_type(c, m, words.expect(c, "type")?, atomic)?;
            let type_size =
                parse_small(c, m, words.expect(c, "type size")?, 1, 4, "type size")? as u8;
            let desc = parse_desc(c, m, &mut words)?;
            words.finish(c)?;
            if matches!(op, Opcode::ResinfoB | Opcode::Resbase) {
                c.skip_ws();
                let dst = parse_gpr(c)?;
                c.expect(",")?;
                let ssbo = parse_src8(c, desc.mode == IndexMode::Imm)?;
                Mem::ResinfoB(ResinfoB {
                    op,
                    typed,
                    d,
                    ty,
                    type_size,
                    desc,
                    dst,
                    ssbo,
                })
            } else {
                let reg = if atomic {
                    c.skip_ws();
                    parse_gpr(c)?
                } else {
                    parse_half_reg(c, ty.is_half(), ty)?
                };
                c.expect(",")?;
                c.skip_ws();
                let coord = parse_gpr(c)?;
                let offset = if atomic {
                    None
                } else {
                    match super::operand::parse_offset(c, 0, 127)? {
                        0 => None,
                        n => Some(n as u8),
                    }
                };
                c.expect(",")?;
                let ssbo = parse_src8(c, desc.mode == IndexMode::Imm)?;
                Mem::Ibo(Ibo {
                    op,
                    typed,
                    d,
                    ty,
                    type_size,
                    desc,
                    reg,
                    coord,
                    offset,
                    ssbo,
                })
            }
        }
    };
    Ok(Op::Mem(mem))
}
