//! cat7 syntax: `fence.g.l.r.w`, `(sy)bar.g`, `sleep.l`, `dccln.all`, `lock`,
//! `alias.tex.b32.1 r40.x, (0x6)`, `alias.rt.f16.0 rt0.w, h(1.000000)`.

use super::cursor::{Cursor, PResult};
use super::operand::{
    f16_text, f32_text, gpr, konst, parenthesized, parse_const, parse_f16_bits, parse_f32_bits,
    parse_gpr, parse_int_text, swizzle,
};
use super::{jp, sync, Mnemonic};
use crate::instr::{Alias, AliasScope, AliasSrc, Barrier, CacheOp, Instr, Op, Sleep};
use crate::opcode::Opcode;
use crate::types::SWIZZLE;

fn h(half: bool) -> &'static str {
    if half {
        "h"
    } else {
        ""
    }
}

pub(super) fn print(instr: &Instr, out: &mut String) {
    sync(instr, true, out);
    jp(instr, out);
    out.push_str(instr.opcode().name());
    match &instr.op {
        Op::Barrier(b) => {
            for (on, s) in [(b.g, ".g"), (b.l, ".l"), (b.r, ".r"), (b.w, ".w")] {
                if on {
                    out.push_str(s);
                }
            }
        }
        Op::Sleep(s) => out.push_str(if s.long { ".l" } else { ".s" }),
        Op::Cache(c) => out.push_str(if c.all { ".all" } else { ".shr" }),
        Op::Alias(a) => out.push_str(&alias_text(a)),
        _ => {}
    }
}

fn alias_text(a: &Alias) -> String {
    let scope = match a.scope {
        AliasScope::Tex => "tex",
        AliasScope::Rt => "rt",
        AliasScope::Mem => "mem",
    };
    let half = !a.size32;
    let dst = if a.scope == AliasScope::Rt {
        format!("rt{}.{}", a.dst >> 2, SWIZZLE[(a.dst & 3) as usize])
    } else {
        format!("{}{}", h(half), gpr(a.dst))
    };
    let src = match a.src {
        AliasSrc::Reg(n) => format!("{}{}", h(half), gpr(n)),
        AliasSrc::Const(n) => format!("{}{}", h(half), konst(n)),
        AliasSrc::Imm(v) => match (a.int, a.size32) {
            (false, false) => format!("h({})", f16_text(v as u16)),
            (false, true) => format!("({})", f32_text(v)),
            (true, false) => format!("h(0x{v:x})"),
            (true, true) => format!("(0x{v:x})"),
        },
    };
    format!(
        ".{scope}.{}{}.{} {dst}, {src}",
        if a.int { "b" } else { "f" },
        if a.size32 { 32 } else { 16 },
        a.table_size_minus_one
    )
}

pub(super) fn parse(c: &mut Cursor, m: &Mnemonic) -> PResult<Op> {
    let mut words = m.words();
    let op = match m.op {
        Opcode::Bar | Opcode::Fence => {
            let b = Barrier {
                op: m.op,
                g: words.take("g"),
                l: words.take("l"),
                r: words.take("r"),
                w: words.take("w"),
            };
            Op::Barrier(b)
        }
        Opcode::Sleep => Op::Sleep(Sleep {
            long: match words.expect(c, "duration (.s or .l)")? {
                "l" => true,
                "s" => false,
                w => return c.error_at(m.pos, format!("expected .s or .l, found `.{w}`")),
            },
        }),
        Opcode::Dccln | Opcode::Dcinv | Opcode::Dcflu => Op::Cache(CacheOp {
            op: m.op,
            all: match words.expect(c, "`.all` or `.shr`")? {
                "all" => true,
                "shr" => false,
                w => return c.error_at(m.pos, format!("expected .all or .shr, found `.{w}`")),
            },
        }),
        Opcode::Alias => {
            let scope = match words.expect(c, "scope")? {
                "tex" => AliasScope::Tex,
                "rt" => AliasScope::Rt,
                "mem" => AliasScope::Mem,
                w => return c.error_at(m.pos, format!("unknown alias scope `.{w}`")),
            };
            let (int, size32) = match words.expect(c, "type (f16, f32, b16, b32)")? {
                "f16" => (false, false),
                "f32" => (false, true),
                "b16" => (true, false),
                "b32" => (true, true),
                w => return c.error_at(m.pos, format!("unknown alias type `.{w}`")),
            };
            let w = words.expect(c, "table size")?;
            let table_size_minus_one = match w.parse::<u8>() {
                Ok(n) if n < 16 => n,
                _ => return c.error_at(m.pos, format!("bad alias table size `.{w}`")),
            };
            words.finish(c)?;
            c.skip_ws();
            let half = !size32;
            let dst = if scope == AliasScope::Rt {
                c.expect("rt")?;
                let n = c.int_in(0, 7, "render target")? as u8;
                n << 2 | swizzle(c)?
            } else {
                if c.eat("h") != half {
                    return c.error("the destination's `h` must match the alias size");
                }
                parse_gpr(c)?
            };
            c.expect(",")?;
            c.skip_ws();
            let pos = c.pos();
            let src = if c.rest().starts_with("h(") || c.peek() == Some('(') {
                if c.eat("h") != half {
                    return c.error_at(pos, "a 16-bit alias immediate is written h(...)");
                }
                let text = parenthesized(c)?;
                let bits = if int {
                    match parse_int_text(text) {
                        Some(v) if v >= 0 && v <= u32::MAX as i64 => v as u32,
                        _ => return c.error_at(pos, format!("`{text}` is not an integer")),
                    }
                } else if half {
                    parse_f16_bits(c, pos, text)? as u32
                } else {
                    parse_f32_bits(c, pos, text)?
                };
                AliasSrc::Imm(bits)
            } else {
                if c.eat("h") != half {
                    return c.error_at(pos, "the source's `h` must match the alias size");
                }
                if c.peek() == Some('c') {
                    AliasSrc::Const(parse_const(c, 11)?)
                } else {
                    AliasSrc::Reg(parse_gpr(c)?)
                }
            };
            return Ok(Op::Alias(Alias {
                scope,
                int,
                size32,
                table_size_minus_one,
                dst,
                src,
            }));
        }
        op => Op::Bare(op),
    };
    words.finish(c)?;
    Ok(op)
}
