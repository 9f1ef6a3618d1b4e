//! `dsx`, `dsy`, `dsxpp.1` and `dsypp.1`: screen-space derivatives across
//! the 2x2 quad of fragments (fibers 4k..4k+3: top-left, top-right,
//! bottom-left, bottom-right).
//!
//! Mesa's ir3 uses `dsx`/`dsy` for coarse derivatives (ddx, ddx_coarse)
//! and `dsxpp.1`/`dsypp.1` for fine ones (ddx_fine, issued twice, the
//! second with `.p`, ir3_legalize.c): a coarse derivative is the same for
//! the whole quad, taken along its top row (x) or left column (y); a fine
//! one is taken along each fiber's own row or column. Helper fibers take
//! part, which is what they exist for. Each component the write mask
//! enables is the derivative of the next source register, written to the
//! next destination register, as for the other cat5 instructions.

use parsnip_isa::eval::float::{f16_to_f32, f32_to_f16};
use parsnip_isa::{Opcode, Round, Tex};

use super::dispatch::DispatchContext;
use super::lanes::lanes;
use super::trap::{error, Trap};
use super::wave::Wave;

pub(crate) fn execute(
    w: &mut Wave,
    t: &Tex,
    mask: u128,
    ctx: &DispatchContext,
) -> Result<(), Trap> {
    if ctx.fragment.is_none() {
        return error(format!(
            "{}: derivatives exist only in fragment shaders",
            t.op
        ));
    }
    let Some(src) = t.src1 else {
        return error(format!("{} without a source", t.op));
    };
    let half = t.half_src;
    let dst_half = t.ty.is_half();
    // Every fiber of a quad with an active fiber is read, helpers included.
    let mut quads = 0u128;
    for lane in lanes(mask) {
        quads |= 0xf << (lane & !3);
    }
    let wrmask = if t.wrmask == 0 { 1 } else { t.wrmask };
    for (k, dst) in (0..wrmask.count_ones()).zip(i64::from(t.dst)..) {
        let loc = w.regs.locate(i64::from(src) + i64::from(k), half)?;
        let mut values = [0f32; 128];
        for lane in lanes(quads & w.fibers) {
            let raw = w.regs.read(loc, lane)?;
            values[lane] = if half {
                f16_to_f32(raw as u16)
            } else {
                f32::from_bits(raw)
            };
        }
        let mut results = [0u32; 128];
        for lane in lanes(mask) {
            let q = lane & !3;
            let (tl, tr, bl, br) = (values[q], values[q + 1], values[q + 2], values[q + 3]);
            let (bottom, right) = (lane & 2 != 0, lane & 1 != 0);
            let d = match t.op {
                Opcode::Dsx => tr - tl,
                Opcode::Dsy => bl - tl,
                Opcode::Dsxpp1 if bottom => br - bl,
                Opcode::Dsxpp1 => tr - tl,
                _ if right => br - tr,
                _ => bl - tl,
            };
            results[lane] = if dst_half {
                u32::from(f32_to_f16(d, Round::Even))
            } else {
                d.to_bits()
            };
        }
        let out = w.regs.locate(dst, dst_half)?;
        w.regs.write_lanes(out, mask, &results);
    }
    Ok(())
}
