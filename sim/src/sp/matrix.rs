//! `wmm` and `wmm.accu` (cat3), as their `<doc>` in ir3-cat3.xml defines
//! them: with x the four consecutive registers from the first source and y
//! those from the second, `result = x * (y1 + y2 + y3 + y4)` (a vec4),
//! written to consecutive registers from the destination
//! `1 << (imm / 32)` times, the immediate third source being 0..160.
//! `wmm.accu` adds the result to the destination registers instead, "however
//! the first reg of the result is always overwritten": the destination's
//! first register takes the result's x, the others accumulate.
//!
//! Arithmetic is float at the sources' precision, each operation rounded
//! to nearest even (the sum left to right, then the products), as the
//! model's other float operations; the destination's precision is its own
//! (DST_FULL). `(neg)` negates every component of its source.

use parsnip_isa::eval::float::{f16_to_f32, f32_to_f16};
use parsnip_isa::{Alu3, Opcode, Round, SrcKind};

use super::lanes::lanes;
use super::trap::{error, Trap};
use super::wave_registers::WaveRegisters;

/// The largest immediate the XML allows: 32 copies.
const MAX_IMM: i32 = 160;

pub(crate) fn execute(regs: &mut WaveRegisters, a: &Alu3, mask: u128) -> Result<(), Trap> {
    let [x, y, n] = &a.srcs;
    let (SrcKind::Reg(xr), SrcKind::Reg(yr)) = (x.kind, y.kind) else {
        return error(format!("{}: its first two sources must be registers", a.op));
    };
    let copies = match n.kind {
        SrcKind::Imm(v) if (0..=MAX_IMM).contains(&v) => 1u32 << (v / 32),
        _ => {
            return error(format!(
                "{}: the third source must be an immediate in 0..={MAX_IMM}",
                a.op
            ))
        }
    };
    let half = x.half;
    let round = |v: f32| {
        if half {
            f16_to_f32(f32_to_f16(v, Round::Even))
        } else {
            v
        }
    };
    let value = |bits: u32| {
        if half {
            f16_to_f32(bits as u16)
        } else {
            f32::from_bits(bits)
        }
    };
    let store = |v: f32| {
        if a.dst.half {
            u32::from(f32_to_f16(v, Round::Even))
        } else {
            v.to_bits()
        }
    };
    let load = |bits: u32| {
        if a.dst.half {
            f16_to_f32(bits as u16)
        } else {
            f32::from_bits(bits)
        }
    };
    let accumulate = a.op == Opcode::WmmAccu;
    for lane in lanes(mask) {
        let mut xs = [0f32; 4];
        let mut sum = 0f32;
        for (k, xk) in xs.iter_mut().enumerate() {
            let sign = |neg: bool| if neg { -1.0 } else { 1.0 };
            let xv = regs.read(regs.locate(i64::from(xr) + k as i64, half)?, lane)?;
            let yv = regs.read(regs.locate(i64::from(yr) + k as i64, y.half)?, lane)?;
            *xk = sign(x.neg) * value(xv);
            let yv = sign(y.neg) * value(yv);
            sum = if k == 0 { yv } else { round(sum + yv) };
        }
        let result = xs.map(|v| round(v * sum));
        for i in 0..4 * copies as i64 {
            let loc = regs.locate(i64::from(a.dst.num) + i, a.dst.half)?;
            let r = result[(i % 4) as usize];
            let v = if accumulate && i != 0 {
                store(load(regs.read(loc, lane)?) + r)
            } else {
                store(r)
            };
            regs.write(loc, lane, v);
        }
    }
    Ok(())
}
