//! Printing and parsing of the pieces many instructions share: registers,
//! consts, relative addresses, modifiers, immediates and float literals.
//!
//! Floats print as C's `%f` does, the way freedreno's disassembler prints
//! them, when that text reads back to the same bits; otherwise (values `%f`
//! would round, NaNs) they print as their raw bits `0x...`, so that every
//! instruction's text assembles back to the same word.

use super::cursor::{Cursor, PResult};
use crate::eval::float::{f16_to_f32, f32_to_f16};
use crate::operand::{A0_X, FLUT, P0_X};
use crate::types::{Round, SWIZZLE};

/// `r1.y`, or `a0.x`/`p0.y` for the address and predicate registers
/// (`#reg-gpr`).
pub(crate) fn gpr(num: u8) -> String {
    let comp = SWIZZLE[(num & 3) as usize];
    match num & !3 {
        A0_X => format!("a0.{comp}"),
        P0_X => format!("p0.{comp}"),
        _ => format!("r{}.{comp}", num >> 2),
    }
}

/// `r61.x`: the register spelling of `#cat6-src`, which has no a0/p0 names.
pub(crate) fn plain_gpr(num: u8) -> String {
    format!("r{}.{}", num >> 2, SWIZZLE[(num & 3) as usize])
}

/// `c12.x`.
pub(crate) fn konst(num: u16) -> String {
    format!("c{}.{}", num >> 2, SWIZZLE[(num & 3) as usize])
}

/// `r<a0.x>`, `r<a0.x + 5>`; cat3 writes the zero offset out
/// (`show_zero`).
pub(crate) fn relative(file: char, offset: i16, show_zero: bool) -> String {
    if offset == 0 && !show_zero {
        format!("{file}<a0.x>")
    } else {
        format!("{file}<a0.x + {offset}>")
    }
}

/// Parses `.x` .. `.w`, giving the component number.
pub(crate) fn swizzle(c: &mut Cursor) -> PResult<u8> {
    c.expect(".")?;
    match c
        .peek()
        .and_then(|ch| SWIZZLE.iter().position(|&s| s == ch))
    {
        Some(i) => {
            c.set_pos(c.pos() + 1);
            Ok(i as u8)
        }
        None => c.error(format!("expected a component x/y/z/w, found {}", c.found())),
    }
}

/// Parses a register `rN.c`, `a0.c` or `p0.c` (no `h`).
pub(crate) fn parse_gpr(c: &mut Cursor) -> PResult<u8> {
    let start = c.pos();
    if c.eat("a0") {
        return Ok(A0_X | swizzle(c)?);
    }
    if c.eat("p0") {
        return Ok(P0_X | swizzle(c)?);
    }
    if !c.eat("r") || !c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        c.set_pos(start);
        return c.error(format!("expected a register, found {}", c.found()));
    }
    let index = c.int_in(0, 63, "register index")? as u8;
    Ok(index << 2 | swizzle(c)?)
}

/// Parses a const `cN.c` (no `h`), with `bits` bits of number.
pub(crate) fn parse_const(c: &mut Cursor, bits: u32) -> PResult<u16> {
    if !c.eat("c") {
        return c.error(format!("expected a const, found {}", c.found()));
    }
    let index = c.int_in(0, (1 << (bits - 2)) - 1, "const index")? as u16;
    Ok(index << 2 | swizzle(c)? as u16)
}

/// Parses a register source of an ALU instruction after its `h`: `rN.c`,
/// `a0.x`, `cN.c`, `r<a0.x + N>` or `c<a0.x + N>`.
pub(crate) fn parse_reg_source(c: &mut Cursor) -> PResult<crate::operand::SrcKind> {
    use crate::operand::SrcKind;
    Ok(if c.eat("r<") {
        SrcKind::RelReg(parse_relative_body(c, -512, 511)?)
    } else if c.eat("c<") {
        SrcKind::RelConst(parse_relative_body(c, -512, 511)?)
    } else if c.peek() == Some('c') {
        SrcKind::Const(parse_const(c, 11)?)
    } else {
        SrcKind::Reg(parse_gpr(c)?)
    })
}

/// Parses the rest of `r<a0.x + N>` after `r<` (or `c<`).
pub(crate) fn parse_relative_body(c: &mut Cursor, min: i64, max: i64) -> PResult<i16> {
    c.skip_ws();
    if !c.eat("a0.x") {
        return c.error(format!("expected `a0.x`, found {}", c.found()));
    }
    c.skip_ws();
    let mut offset = 0;
    if c.eat("+") {
        c.skip_ws();
        offset = c.int_in(min, max, "relative offset")?;
    } else if c.peek() == Some('-') {
        offset = c.int_in(min, max, "relative offset")?;
    }
    c.expect(">")?;
    Ok(offset as i16)
}

/// The source modifiers written before an operand.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Modifiers {
    pub neg: bool,
    pub abs: bool,
    pub r: bool,
    pub last: bool,
}

/// Parses any run of `(neg)`, `(abs)`, `(absneg)`, `(r)`, `(last)`.
pub(crate) fn parse_modifiers(c: &mut Cursor) -> Modifiers {
    let mut m = Modifiers::default();
    loop {
        c.skip_ws();
        if c.eat("(neg)") {
            m.neg = true;
        } else if c.eat("(absneg)") {
            m.neg = true;
            m.abs = true;
        } else if c.eat("(abs)") {
            m.abs = true;
        } else if c.eat("(r)") {
            m.r = true;
        } else if c.eat("(last)") {
            m.last = true;
        } else {
            return m;
        }
    }
}

/// `(neg)`, `(abs)` or `(absneg)`.
pub(crate) fn absneg(neg: bool, abs: bool) -> &'static str {
    match (neg, abs) {
        (false, false) => "",
        (true, false) => "(neg)",
        (false, true) => "(abs)",
        (true, true) => "(absneg)",
    }
}

/// The text between balanced parentheses at the cursor (which must be at
/// `(`), returning the inside.
pub(crate) fn parenthesized<'a>(c: &mut Cursor<'a>) -> PResult<&'a str> {
    let start = c.pos();
    let rest = c.rest();
    if !rest.starts_with('(') {
        return c.error(format!("expected `(`, found {}", c.found()));
    }
    let mut depth = 0;
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    c.set_pos(start + i + 1);
                    return Ok(&rest[1..i]);
                }
            }
            _ => {}
        }
    }
    c.error_at(start, "unbalanced parentheses")
}

/// The index of a float lookup table name such as `1/pi`.
pub(crate) fn flut_index(name: &str) -> Option<u8> {
    FLUT.iter().position(|(n, _)| *n == name).map(|i| i as u8)
}

/// C's `%f`.
fn percent_f(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{x:.6}")
}

/// The text of f32 bits inside `(...)`: `%f` when lossless, else `0x...`.
pub(crate) fn f32_text(bits: u32) -> String {
    let x = f32::from_bits(bits);
    if !x.is_nan() {
        let text = percent_f(x as f64);
        if parse_float(&text).map(|v| (v as f32).to_bits()) == Some(bits) {
            return text;
        }
    }
    format!("0x{bits:x}")
}

/// The text of f16 bits inside `h(...)`: `%f` when lossless, else `0x...`.
pub(crate) fn f16_text(bits: u16) -> String {
    let x = f16_to_f32(bits);
    if !x.is_nan() {
        let text = percent_f(x as f64);
        if parse_float(&text).map(|v| f32_to_f16(v as f32, Round::Even)) == Some(bits) {
            return text;
        }
    }
    format!("0x{bits:x}")
}

fn parse_float(text: &str) -> Option<f64> {
    match text {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        // Parse as f32 (correctly rounded) and widen, so that reading
        // `0.100000` gives the f32 nearest 0.1.
        _ => text.parse::<f32>().ok().map(|v| v as f64),
    }
}

/// Parses the inside of `(...)` as the bits of an f32: a decimal number,
/// `inf`, or raw bits `0x...`.
pub(crate) fn parse_f32_bits(c: &Cursor, pos: usize, text: &str) -> PResult<u32> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x") {
        return u32::from_str_radix(hex, 16)
            .or_else(|_| c.error_at(pos, format!("`{t}` is not 32 bits of hex")));
    }
    match parse_float(t) {
        Some(v) => Ok((v as f32).to_bits()),
        None => c.error_at(pos, format!("`{t}` is not a number")),
    }
}

/// Parses the inside of `h(...)` as the bits of an f16.
pub(crate) fn parse_f16_bits(c: &Cursor, pos: usize, text: &str) -> PResult<u16> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x") {
        return u16::from_str_radix(hex, 16)
            .or_else(|_| c.error_at(pos, format!("`{t}` is not 16 bits of hex")));
    }
    match parse_float(t) {
        Some(v) => Ok(f32_to_f16(v as f32, Round::Even)),
        None => c.error_at(pos, format!("`{t}` is not a number")),
    }
}

/// Parses the text of an integer (`-3`, `0x10`), for the insides of `h(...)`.
pub(crate) fn parse_int_text(text: &str) -> Option<i64> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t),
    };
    let v = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if !digits.is_empty() && digits.chars().all(|ch| ch.is_ascii_digit()) {
        digits.parse::<i64>().ok()?
    } else {
        return None;
    };
    Some(if negative { -v } else { v })
}

/// `+N` for a positive offset, `-N` for a negative one, nothing for zero
/// (the XML's `offset` type).
pub(crate) fn signed_offset(v: i64) -> String {
    match v {
        0 => String::new(),
        v if v > 0 => format!("+{v}"),
        v => format!("{v}"),
    }
}

/// `+N`, or nothing for zero (the XML's `uoffset` type).
pub(crate) fn unsigned_offset(v: u64) -> String {
    if v == 0 {
        String::new()
    } else {
        format!("+{v}")
    }
}

/// Parses an optional `+N`/`-N` offset; none is 0.
pub(crate) fn parse_offset(c: &mut Cursor, min: i64, max: i64) -> PResult<i64> {
    c.skip_ws();
    if c.peek() == Some('+') || c.peek() == Some('-') {
        let negative = c.eat("-");
        if !negative {
            c.eat("+");
        }
        c.skip_ws();
        let start = c.pos();
        let v = c.uint()? as i64;
        let v = if negative { -v } else { v };
        if v < min || v > max {
            return c.error_at(start, format!("offset {v} is outside {min}..={max}"));
        }
        Ok(v)
    } else {
        Ok(0)
    }
}
