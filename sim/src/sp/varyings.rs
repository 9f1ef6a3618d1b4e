//! The fragment shader's varying reads: `bary.f`, `flat.b` and `ldlv`.
//!
//! - `bary.f dst, inloc, ij` interpolates VPC location `inloc` of the
//!   fiber's primitive with the weights (i, j) in the register pair `ij`:
//!   P0 + i (P1 - P0) + j (P2 - P0), the weights of vertices 1 and 2 the
//!   rasterizer wrote (see `gras::setup`). How the VPC interpolates the
//!   location (VPC_VARYING_INTERP) applies: a flat location reads the
//!   provoking vertex, the ZERO and ONE modes read 0.0 and 1.0, and on a
//!   point the VPC_VARYING_PS_REPL locations read the point sprite
//!   coordinate instead. `(rptN)` steps the destination and, with `(r)`,
//!   the location; the ij pair stays.
//! - `flat.b dst, inloc, ...` reads location `inloc` of the provoking
//!   vertex as raw bits (Mesa's a6xx flat inputs; its second source is
//!   not read).
//! - `ldlv.<type> dst, l[off], n` reads `n` locations from `off` of the
//!   provoking vertex ("read directly from varying storage").
//!
//! A location VPC_VAR disables holds nothing the vertex shader wrote, so
//! reading it is an error; so is interpolating over a RECTLIST rectangle,
//! whose varying interpolation is not publicly documented.

use parsnip_isa::eval::float::f32_to_f16;
use parsnip_isa::{Alu, Ldlv, Opcode, Round, SrcKind};

use super::dispatch::DispatchContext;
use super::fragment::FragmentWave;
use super::lanes::lanes;
use super::trap::{error, Trap};
use super::wave::Wave;
use crate::pc::Shape;
use crate::vpc::{Interpolation, PointCoord};

fn fragment<'c>(ctx: &'c DispatchContext, what: &str) -> Result<&'c FragmentWave, Trap> {
    ctx.fragment.as_ref().ok_or_else(|| {
        Trap::Error(format!(
            "{what} reads varyings, which only fragment shaders have"
        ))
    })
}

/// `bary.f` and `flat.b`.
pub(crate) fn execute_alu(
    w: &mut Wave,
    a: &Alu,
    mask: u128,
    ctx: &DispatchContext,
) -> Result<(), Trap> {
    let data = fragment(ctx, &a.op.to_string())?;
    for step in 0..=u32::from(a.repeat) {
        let dst = w
            .regs
            .locate(i64::from(a.dst.num) + i64::from(step), a.dst.half)?;
        let loc_step = if a.src1.r { step } else { 0 };
        for lane in lanes(mask) {
            let location = match a.src1.kind {
                SrcKind::Imm(v) => (v as u32).wrapping_add(loc_step),
                SrcKind::Reg(n) => {
                    let r = w
                        .regs
                        .locate(i64::from(n) + i64::from(loc_step), a.src1.half)?;
                    w.regs.read(r, lane)?
                }
                _ => {
                    return error(format!(
                        "{} with a location that is neither an immediate nor a register",
                        a.op
                    ))
                }
            } as usize;
            if !data.is_enabled(location) {
                return error(format!(
                    "{} reads varying location {location}, which VPC_VAR[{}].DISABLE disables",
                    a.op,
                    location / 32
                ));
            }
            let value = if a.op == Opcode::FlatB {
                data.vertex(lane, 3)[location]
            } else {
                let Some(ij) = a.src2 else {
                    return error("bary.f without its ij source");
                };
                let SrcKind::Reg(ij) = ij.kind else {
                    return error("bary.f whose ij source is not a register");
                };
                interpolate(w, data, location, u32::from(ij), lane)?
            };
            let value = if a.dst.half && a.op == Opcode::BaryF {
                u32::from(f32_to_f16(f32::from_bits(value), Round::Even))
            } else {
                value
            };
            w.regs.write(dst, lane, value);
        }
    }
    Ok(())
}

/// `bary.f`'s value of `location` for fiber `lane`, as f32 bits, with the
/// weights in register pair `ij`.
fn interpolate(
    w: &Wave,
    data: &FragmentWave,
    location: usize,
    ij: u32,
    lane: usize,
) -> Result<u32, Trap> {
    let read = |r: u32| -> Result<f32, Trap> {
        Ok(f32::from_bits(
            w.regs.read(w.regs.locate(i64::from(r), false)?, lane)?,
        ))
    };
    let smooth = data.interpolation[location] == Interpolation::Smooth;
    let (i, j) = if smooth {
        (read(ij)?, read(ij + 1)?)
    } else {
        (0.0, 0.0)
    };
    interpolate_at(data, location, (i, j), lane)
}

/// The value of `location` for fiber `lane` with weights `(i, j)`, as the
/// VPC's interpolation mode for it says.
pub(crate) fn interpolate_at(
    data: &FragmentWave,
    location: usize,
    (i, j): (f32, f32),
    lane: usize,
) -> Result<u32, Trap> {
    let prim = data.primitive(lane);
    if prim.setup.shape == Shape::Rect {
        return error(
            "bary.f over a RECTLIST rectangle: how the hardware interpolates varyings across one is \
             not publicly documented",
        );
    }
    if prim.setup.shape == Shape::Point {
        if let Some(s) = prim.setup.sprite {
            let (x, y) = data.position[lane];
            let coord = |p: f32, c: f64| (0.5 + (f64::from(p) - c) / s.size) as f32;
            match data.point_coord[location] {
                PointCoord::None => {}
                PointCoord::S => return Ok(coord(x, s.x).to_bits()),
                PointCoord::T => return Ok(coord(y, s.y).to_bits()),
                PointCoord::OneMinusT => return Ok((1.0 - coord(y, s.y)).to_bits()),
            }
        }
    }
    Ok(match data.interpolation[location] {
        Interpolation::Flat => data.vertex(lane, 3)[location],
        Interpolation::Zero => 0f32.to_bits(),
        Interpolation::One => 1f32.to_bits(),
        Interpolation::Smooth => {
            let p = |v: usize| f32::from_bits(data.vertex(lane, v)[location]);
            let (p0, p1, p2) = (p(0), p(1), p(2));
            (p0 + i * (p1 - p0) + j * (p2 - p0)).to_bits()
        }
    })
}

/// `ldlv`.
pub(crate) fn ldlv(w: &mut Wave, l: &Ldlv, mask: u128, ctx: &DispatchContext) -> Result<(), Trap> {
    let data = fragment(ctx, "ldlv")?;
    let half = l.ty.is_half();
    for c in 0..u32::from(l.size) {
        let location = usize::from(l.offset) + c as usize;
        if !data.is_enabled(location) {
            return error(format!(
                "ldlv reads varying location {location}, which VPC_VAR[{}].DISABLE disables",
                location / 32
            ));
        }
        let dst = w.regs.locate(i64::from(l.dst) + i64::from(c), half)?;
        for lane in lanes(mask) {
            let v = data.vertex(lane, 3)[location];
            let v = if half && l.ty.is_float() {
                u32::from(f32_to_f16(f32::from_bits(v), Round::Even))
            } else {
                v
            };
            w.regs.write(dst, lane, v);
        }
    }
    Ok(())
}
