//! cat0 syntax: `(rpt2)nop`, `kill p0.x`, `br !p0.x, #3`, `brac.3 #30`,
//! `getlast.w8 #4`, `shps #l4`.

use super::cursor::{Cursor, PResult};
use super::{jp, sync, Mnemonic, Prefix, Target};
use crate::encoding::cat0::{form, Form};
use crate::instr::{Flow, Instr, Pred};
use crate::types::SWIZZLE;

fn pred(p: Option<Pred>) -> String {
    let p = p.unwrap_or_default();
    format!(
        "{}p0.{}",
        if p.inv { "!" } else { "" },
        SWIZZLE[(p.comp & 3) as usize]
    )
}

pub(super) fn print(instr: &Instr, f: &Flow, label: Option<&str>, out: &mut String) {
    sync(instr, true, out);
    let form = form(f.op);
    let eq = !matches!(form, Form::Target | Form::Getlast);
    if eq && f.eq {
        out.push_str("(eq)");
    }
    jp(instr, out);
    if form == Form::NoOperand && f.repeat > 0 {
        out.push_str(&format!("(rpt{})", f.repeat));
    }
    out.push_str(f.op.name());
    let target = match label {
        Some(l) => format!("#{l}"),
        None => format!("#{}", f.target),
    };
    match form {
        Form::NoOperand => {}
        Form::Kill => out.push_str(&format!(" {}", pred(f.pred))),
        Form::Target | Form::Brax => out.push_str(&format!(" {target}")),
        Form::Getlast => out.push_str(&format!(
            ".w{} {target}",
            2u64.checked_shl(f.cluster.into()).unwrap_or(0)
        )),
        Form::Brac => out.push_str(&format!(".{} {target}", f.index)),
        Form::Branch1 => out.push_str(&format!(" {}, {target}", pred(f.pred))),
        Form::Branch2 => out.push_str(&format!(" {}, {}, {target}", pred(f.pred), pred(f.pred2))),
    }
}

fn parse_pred(c: &mut Cursor) -> PResult<Pred> {
    c.skip_ws();
    let inv = c.eat("!");
    if !c.eat("p0.") {
        return c.error(format!(
            "expected a predicate p0.x..p0.w, found {}",
            c.found()
        ));
    }
    match c
        .peek()
        .and_then(|ch| SWIZZLE.iter().position(|&s| s == ch))
    {
        Some(comp) => {
            c.set_pos(c.pos() + 1);
            Ok(Pred {
                comp: comp as u8,
                inv,
            })
        }
        None => c.error(format!("expected a component x/y/z/w, found {}", c.found())),
    }
}

fn parse_target(c: &mut Cursor) -> PResult<Target> {
    c.expect("#")?;
    let pos = c.pos();
    if c.peek()
        .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
    {
        let name = c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        return Ok(Target::Label(name.to_string(), pos));
    }
    let v = c.int_in(i32::MIN as i64, i32::MAX as i64, "branch offset")?;
    Ok(Target::Offset(v as i32))
}

pub(super) fn parse(
    c: &mut Cursor,
    prefix: &mut Prefix,
    m: &Mnemonic,
) -> PResult<(Flow, Option<Target>)> {
    let mut f = Flow::new(m.op);
    let mut words = m.words();
    let form = form(m.op);
    if !matches!(form, Form::Target | Form::Getlast) {
        f.eq = prefix.flag("eq");
    }
    if form == Form::NoOperand {
        f.repeat = prefix.count("rpt").unwrap_or(0);
    }
    match form {
        Form::Getlast => {
            let w = words.expect(c, "cluster size `.wN`")?;
            let size = w
                .strip_prefix('w')
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| n.is_power_of_two() && (2..=256).contains(n));
            match size {
                Some(n) => f.cluster = (n.trailing_zeros() - 1) as u8,
                None => return c.error_at(m.pos, format!("bad cluster size `.{w}`")),
            }
        }
        Form::Brac => {
            let w = words.expect(c, "index `.N`")?;
            match w.parse::<u8>().ok().filter(|&n| n < 32) {
                Some(n) => f.index = n,
                None => return c.error_at(m.pos, format!("bad brac index `.{w}`")),
            }
        }
        _ => {}
    }
    words.finish(c)?;
    let target = match form {
        Form::NoOperand => None,
        Form::Kill => {
            f.pred = Some(parse_pred(c)?);
            None
        }
        Form::Target | Form::Brax | Form::Getlast | Form::Brac => Some(parse_target(c)?),
        Form::Branch1 => {
            f.pred = Some(parse_pred(c)?);
            c.expect(",")?;
            Some(parse_target(c)?)
        }
        Form::Branch2 => {
            f.pred = Some(parse_pred(c)?);
            c.expect(",")?;
            f.pred2 = Some(parse_pred(c)?);
            c.expect(",")?;
            Some(parse_target(c)?)
        }
    };
    Ok((f, target))
}
