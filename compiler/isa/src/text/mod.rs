//! freedreno's assembly syntax: printing an [`Instr`] and parsing one line.
//!
//! The syntax is the one freedreno's isaspec disassembler prints from the
//! display templates of the ISA XML (and `ir3-disasm-vectors.tsv` checks). Each
//! category module holds the printer and the parser of its instructions side
//! by side, so that the two stay each other's inverse.

mod alu;
mod cat0;
mod cat1;
mod cat3;
mod cat5;
mod cat6;
mod cat7;
pub(crate) mod cursor;
pub(crate) mod operand;

use std::fmt;

use cursor::{Cursor, PResult};

use crate::gen::IsaGen;
use crate::instr::{Instr, Op};
use crate::opcode::Opcode;

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_instr(self, None))
    }
}

/// The text of an instruction; a branch target prints as `label` when given.
pub(crate) fn print_instr(instr: &Instr, label: Option<&str>) -> String {
    let mut out = String::new();
    match &instr.op {
        Op::Flow(f) => cat0::print(instr, f, label, &mut out),
        Op::Mov(_) | Op::MovMsk(_) | Op::MovMulti(_) => cat1::print(instr, &mut out),
        Op::Alu(a) => alu::print(instr, a, &mut out),
        Op::Alu3(a) => cat3::print(instr, a, &mut out),
        Op::Sfu(s) => alu::print_sfu(instr, s, &mut out),
        Op::Tex(t) => cat5::print(instr, t, &mut out),
        Op::Bare(Opcode::Tcinv) => {
            sync(instr, false, &mut out);
            jp(instr, &mut out);
            out.push_str("tcinv");
        }
        Op::Mem(m) => cat6::print(instr, m, &mut out),
        _ => cat7::print(instr, &mut out),
    }
    out
}

/// `(sy)`, then `(ss)` where the category has it.
fn sync(instr: &Instr, with_ss: bool, out: &mut String) {
    if instr.sy {
        out.push_str("(sy)");
    }
    if with_ss && instr.ss {
        out.push_str("(ss)");
    }
}

fn jp(instr: &Instr, out: &mut String) {
    if instr.jp {
        out.push_str("(jp)");
    }
}

/// The flags before a cat2/cat3/cat4 mnemonic: `(sy)(ss)(jp)(sat)`, then
/// `(nopN) ` when `nop` is given or `(rptN)`, then `(ul)`.
fn alu_prefix(instr: &Instr, sat: bool, nop: Option<u8>, repeat: u8, ul: bool, out: &mut String) {
    sync(instr, true, out);
    jp(instr, out);
    if sat {
        out.push_str("(sat)");
    }
    match nop {
        Some(n) => out.push_str(&format!("(nop{n}) ")),
        None if repeat > 0 => out.push_str(&format!("(rpt{repeat})")),
        None => {}
    }
    if ul {
        out.push_str("(ul)");
    }
}

/// The parenthesised flags written before a mnemonic: `(sy)`, `(rpt2)`,
/// `(nop3)`, ... Category parsers take the ones they know; any left over is
/// an error.
pub(crate) struct Prefix {
    items: Vec<(String, u8, usize)>,
}

impl Prefix {
    fn parse(c: &mut Cursor) -> PResult<Prefix> {
        let mut items = Vec::new();
        loop {
            c.skip_ws();
            let pos = c.pos();
            if c.peek() != Some('(') {
                return Ok(Prefix { items });
            }
            c.eat("(");
            let name = c.take_while(|ch| ch.is_ascii_alphabetic() || ch == '_');
            let name = name.to_string();
            let count = if name == "rpt" || name == "nop" {
                c.int_in(0, 7, &format!("({name}N) count"))? as u8
            } else {
                0
            };
            if !c.eat(")") {
                return c.error(format!(
                    "expected `)` closing `({name}`, found {}",
                    c.found()
                ));
            }
            if !matches!(
                name.as_str(),
                "sy" | "ss" | "jp" | "eq" | "sat" | "ul" | "rpt" | "nop"
            ) {
                return c.error_at(pos, format!("unknown flag `({name})`"));
            }
            items.push((name, count, pos));
        }
    }

    /// Takes a flag such as `sy`.
    pub fn flag(&mut self, name: &str) -> bool {
        self.count(name).is_some()
    }

    /// Takes a counted flag such as `rpt`, giving its count.
    pub fn count(&mut self, name: &str) -> Option<u8> {
        let i = self.items.iter().position(|(n, _, _)| n == name)?;
        Some(self.items.remove(i).1)
    }

    fn finish(&self, c: &Cursor, op: Opcode) -> PResult<()> {
        match self.items.first() {
            Some((name, _, pos)) => c.error_at(*pos, format!("`({name})` does not apply to {op}")),
            None => Ok(()),
        }
    }
}

/// A mnemonic split into the opcode it names and the `.`-separated words
/// after it.
pub(crate) struct Mnemonic<'a> {
    pub op: Opcode,
    /// The first word as written (`mov`, `cov`, `mova`, ...).
    pub spelled: &'a str,
    pub suffix: Vec<&'a str>,
    pub pos: usize,
}

impl<'a> Mnemonic<'a> {
    fn parse(c: &mut Cursor<'a>) -> PResult<Mnemonic<'a>> {
        let pos = c.pos();
        let word = c.word();
        if word.is_empty() {
            return c.error(format!("expected an instruction, found {}", c.found()));
        }
        let parts: Vec<&str> = word.split('.').collect();
        let spelled = parts[0];
        if matches!(spelled, "cov" | "mova" | "mova1") {
            return Ok(Mnemonic {
                op: Opcode::Mov,
                spelled,
                suffix: parts[1..].to_vec(),
                pos,
            });
        }
        for n in (1..=parts.len()).rev() {
            if let Some(op) = Opcode::from_name(&parts[..n].join(".")) {
                return Ok(Mnemonic {
                    op,
                    spelled,
                    suffix: parts[n..].to_vec(),
                    pos,
                });
            }
        }
        c.error_at(pos, format!("unknown instruction `{word}`"))
    }

    /// A reader over the suffix words, in order.
    pub fn words(&self) -> Words<'a> {
        Words {
            words: self.suffix.clone(),
            next: 0,
            pos: self.pos,
        }
    }
}

/// The suffix words of a mnemonic, read in order.
pub(crate) struct Words<'a> {
    words: Vec<&'a str>,
    next: usize,
    pos: usize,
}

impl<'a> Words<'a> {
    pub fn peek(&self) -> Option<&'a str> {
        self.words.get(self.next).copied()
    }

    pub fn next(&mut self) -> Option<&'a str> {
        let w = self.peek();
        if w.is_some() {
            self.next += 1;
        }
        w
    }

    /// Takes the next word if it is `w`.
    pub fn take(&mut self, w: &str) -> bool {
        if self.peek() == Some(w) {
            self.next += 1;
            true
        } else {
            false
        }
    }

    /// The next word, which must exist.
    pub fn expect(&mut self, c: &Cursor, what: &str) -> PResult<&'a str> {
        match self.next() {
            Some(w) => Ok(w),
            None => c.error_at(self.pos, format!("the instruction name lacks its {what}")),
        }
    }

    /// Takes a `baseN` word (a descriptor set, 0..=7) if it is next.
    pub fn take_base(&mut self) -> Option<u8> {
        let n = self
            .peek()
            .and_then(|w| w.strip_prefix("base"))
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|&n| n < 8)?;
        self.next += 1;
        Some(n)
    }

    pub fn finish(&self, c: &Cursor) -> PResult<()> {
        match self.peek() {
            Some(w) => c.error_at(
                self.pos,
                format!("unexpected `.{w}` in the instruction name"),
            ),
            None => Ok(()),
        }
    }
}

/// A branch target as written: a number of instructions or a label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Offset(i32),
    Label(String, usize),
}

/// What one line of assembly holds.
pub(crate) enum Parsed {
    Instr(Instr, Option<Target>),
    /// `raw 0x...`: a word written as is.
    Raw(u64),
}

/// Parses an instruction (without label or comment) from the cursor to the
/// end of the line.
pub(crate) fn parse_instr(c: &mut Cursor, generation: IsaGen) -> PResult<Parsed> {
    c.skip_ws();
    if c.rest().starts_with("raw") && c.rest()[3..].starts_with(char::is_whitespace) {
        c.eat("raw");
        c.skip_ws();
        let at = c.pos();
        if !c.rest().starts_with("0x") && !c.rest().starts_with("0X") {
            return c.error("expected the raw word as 0x followed by hex digits");
        }
        let word = c
            .uint()
            .or_else(|_| c.error_at(at, "the raw word is 64 bits of hex"))?;
        c.finish()?;
        return Ok(Parsed::Raw(word));
    }
    let mut prefix = Prefix::parse(c)?;
    c.skip_ws();
    let m = Mnemonic::parse(c)?;
    if !m.op.info().exists_on(generation) {
        return c.error_at(m.pos, format!("{} does not exist on {generation}", m.op));
    }
    let mut target = None;
    let op = match m.op.cat() {
        0 => {
            let (f, t) = cat0::parse(c, &mut prefix, &m)?;
            target = t;
            Op::Flow(f)
        }
        1 => cat1::parse(c, &mut prefix, &m)?,
        2 => alu::parse(c, &mut prefix, &m)?,
        3 => cat3::parse(c, &mut prefix, &m)?,
        4 => alu::parse_sfu(c, &mut prefix, &m)?,
        5 if m.op == Opcode::Tcinv => {
            m.words().finish(c)?;
            Op::Bare(Opcode::Tcinv)
        }
        5 => cat5::parse(c, &m, generation)?,
        6 => cat6::parse(c, &m, generation)?,
        _ => cat7::parse(c, &m)?,
    };
    let instr = Instr {
        sy: prefix.flag("sy"),
        jp: prefix.flag("jp"),
        ss: if matches!(m.op.cat(), 5 | 6) || m.op == Opcode::Tcinv {
            false
        } else {
            prefix.flag("ss")
        },
        op,
    };
    prefix.finish(c, m.op)?;
    c.finish()?;
    Ok(Parsed::Instr(instr, target))
}
