//! cat5: what compute shaders use of the texture unit, and the subgroup
//! operations encoded with it.
//!
//! - `isam`/`isaml`: texel fetch at integer coordinates from a texel buffer
//!   or a linear image, converted by the descriptor's format and written to
//!   the destination components the write mask enables, in consecutive
//!   registers (the blob writes `saml (f32)(yz)r1.z`: y to r1.z, z to r1.w);
//!   `isaml` takes the level from its second source and only level 0 is
//!   modelled. Coordinates past the image read 0. The coordinates are x
//!   and y (plus the layer or slice), `.1d` or not.
//! - `isam.v`: a vector load of elements of the instruction's type from a
//!   buffer, as ir3 loads read-only storage buffers (see `vector_fetch`).
//! - `getsize`: width, height, depth (or layers) and the number of levels.
//! - `getbuf`: the texel count of a buffer texture in `.x`, all that
//!   freedreno's ir3 reads of it (Mesa's emit_tex_txs uses it for buffers,
//!   as the blob does, because `getsize`'s dimensions stop at 0x7ff0).
//!   What `.yzw` hold is not publicly known: the model writes 0 there. On a
//!   texture that is not a buffer it is an error.
//! - `brcst.active.wN` (the XML's doc): in each cluster of N fibers, the
//!   upper half receives the source of the highest active fiber of the
//!   lower half; with none active, nothing changes.
//! - `quad_shuffle.*`: subgroupQuadBroadcast and the quad swaps (the XML's
//!   docs), between the four fibers of each quad.
//!
//! Filtered sampling and gathers (`sam`, `samb`, `saml`, `samgq`,
//! `gather4*`), and fetches from tiled or compressed images, are
//! `super::sampling`'s; derivatives `super::derivatives`'. The OpenCL
//! queries and the other cat5 instructions are errors naming the
//! instruction.
//!
//! Which texture: `t#n` in the instruction, or from registers (`.s2en`):
//! for bindless instructions a full register holding the texture and the
//! next holding the sampler, otherwise two half registers, sampler first
//! (Mesa's `get_tex_samp_tex_src`: "the indirect source is now a vec2
//! instead of hvec2"). With `a1.x`, Mesa puts the index shifted left by 3
//! there: the texture on a6xx, the sampler on a7xx.

use parsnip_isa::{A1Imm, AliasSrc, Opcode, Tex, TexDesc};

use super::buffer_ops::{texel_to_registers, untyped_bounds};
use super::descriptors::{Image, Kind, Slot};
use super::dispatch::DispatchContext;
use super::lanes::{first_lane, lanes};
use super::memory_ops::{element, from_bytes};
use super::texel_format::texel_format;
use super::trap::{error, Trap};
use super::wave::Wave;

/// Reads source register `num` of a texture instruction for fiber `lane`,
/// through the alias table.
pub(super) fn source(
    w: &Wave,
    ctx: &DispatchContext,
    num: u32,
    half: bool,
    lane: usize,
) -> Result<u32, Trap> {
    match w.alias.lookup(num, half) {
        Some(AliasSrc::Reg(r)) => w.regs.read(w.regs.locate(i64::from(r), half)?, lane),
        Some(AliasSrc::Const(c)) => {
            if half {
                ctx.consts.read_half(i64::from(c), false)
            } else {
                ctx.consts.read(i64::from(c))
            }
        }
        Some(AliasSrc::Imm(v)) => Ok(v),
        None => w.regs.read(w.regs.locate(i64::from(num), half)?, lane),
    }
}

/// The texture slot fiber `lane` uses.
pub(super) fn texture_slot(
    w: &Wave,
    ctx: &DispatchContext,
    t: &Tex,
    mask: u128,
    lane: usize,
) -> Result<Slot, Trap> {
    Ok(match t.desc {
        TexDesc::Direct { tex, .. } => Slot {
            bindless: None,
            index: u32::from(tex),
        },
        TexDesc::BindlessImm { base, tex, .. } => Slot {
            bindless: Some(base),
            index: u32::from(tex),
        },
        TexDesc::BindlessA1 { base, imm } => Slot {
            bindless: Some(base),
            index: match imm {
                A1Imm::Tex(tex) => u32::from(tex),
                A1Imm::Samp(_) => w.regs.a1(lane) >> 3,
            },
        },
        TexDesc::Indexed { mode, reg, base } => {
            let from = if mode.is_uniform() {
                first_lane(mask).unwrap_or(lane)
            } else {
                lane
            };
            let reg = u32::from(reg);
            if mode.is_bindless() {
                Slot {
                    bindless: Some(base),
                    index: source(w, ctx, reg, false, from)?,
                }
            } else {
                Slot {
                    bindless: None,
                    index: source(w, ctx, reg + 1, true, from)?,
                }
            }
        }
    })
}

fn texture(ctx: &mut DispatchContext, s: Slot) -> Result<Image, Trap> {
    let raw = ctx.descriptors.fetch(ctx.d, ctx.memory, Kind::Texture, s)?;
    Ok(Image::decode(&raw, ctx.d.a7xx))
}

/// Writes the enabled components of `values` to consecutive registers.
pub(super) fn write_result(
    w: &mut Wave,
    t: &Tex,
    values: [u32; 4],
    lane: usize,
) -> Result<(), Trap> {
    let half = t.ty.is_half();
    let mut reg = i64::from(t.dst);
    for (c, &v) in values.iter().enumerate() {
        if t.wrmask >> c & 1 != 0 {
            let loc = w.regs.locate(reg, half)?;
            w.regs.write(loc, lane, v);
            reg += 1;
        }
    }
    Ok(())
}

pub(crate) fn execute(
    w: &mut Wave,
    t: &Tex,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let result = match t.op {
        Opcode::Isam | Opcode::Isaml => fetch(w, t, mask, ctx),
        Opcode::Getsize => get_size(w, t, mask, ctx),
        Opcode::Getbuf => get_buffer_size(w, t, mask, ctx),
        Opcode::BrcstActive => broadcast(w, t, mask),
        Opcode::QuadShuffleBrcst
        | Opcode::QuadShuffleHoriz
        | Opcode::QuadShuffleVert
        | Opcode::QuadShuffleDiag => quad_shuffle(w, t, mask),
        Opcode::Dsx | Opcode::Dsy | Opcode::Dsxpp1 | Opcode::Dsypp1 => {
            super::derivatives::execute(w, t, mask, ctx)
        }
        Opcode::Sam
        | Opcode::Samb
        | Opcode::Saml
        | Opcode::Samgq
        | Opcode::Gather4r
        | Opcode::Gather4g
        | Opcode::Gather4b
        | Opcode::Gather4a => super::sampling::execute(w, t, mask, ctx),
        op => error(format!(
            "{op} is not modelled (texel fetch and size queries are)"
        )),
    };
    w.alias.clear();
    result
}

fn fetch(w: &mut Wave, t: &Tex, mask: u128, ctx: &mut DispatchContext) -> Result<(), Trap> {
    if t.s {
        return vector_fetch(w, t, mask, ctx);
    }
    let Some(src) = t.src1 else {
        return error("a texel fetch without coordinates");
    };
    // Always x and y, then the layer or slice (Mesa's ir3: "hw doesn't do
    // 1d", it patches in y = 0); `.1d` (bit 18 clear) does not change
    // that: Turnip's 2D image loads carry it.
    let n = if t.is_3d || t.array { 3 } else { 2 };
    for lane in lanes(mask) {
        let img = texture(ctx, texture_slot(w, ctx, t, mask, lane)?)?;
        if super::sampling::fetches_through_surfaces(&img) {
            super::sampling::fetch(w, t, mask, ctx, lane)?;
            continue;
        }
        img.check_layout()?;
        if t.op == Opcode::Isaml {
            let Some(lod) = t.src2 else {
                return error("isaml without a level");
            };
            let level = source(w, ctx, u32::from(lod), t.half_src, lane)?;
            if level != 0 {
                return error(format!(
                    "a texel fetch from level {level}: only level 0 is modelled"
                ));
            }
        }
        let mut coords = [0u32; 3];
        for (i, c) in coords.iter_mut().enumerate().take(n) {
            *c = source(w, ctx, u32::from(src) + i as u32, t.half_src, lane)?;
        }
        if t.half_src {
            coords = coords.map(|c| c as u16 as i16 as i32 as u32);
        }
        coords[0] = coords[0].wrapping_add(u32::from(t.offset.unwrap_or(0)));
        let fmt = texel_format(img.format, img.swap)?;
        let [x, y, z] = coords;
        let inside = if img.is_buffer() {
            // A buffer is one row: y is not looked at.
            u64::from(x) < img.texels
        } else {
            x < img.width && y < img.height.max(1) && z < img.depth.max(1)
        };
        let values = if inside {
            let addr = if img.is_buffer() {
                img.base + (u64::from(img.start_texel) + u64::from(x)) * u64::from(fmt.bytes)
            } else {
                img.base
                    + u64::from(z) * img.array_pitch
                    + u64::from(y) * img.pitch
                    + u64::from(x) * u64::from(fmt.bytes)
            };
            let mut bytes = vec![0u8; fmt.bytes as usize];
            ctx.memory.read(addr, &mut bytes)?;
            texel_to_registers(fmt.decode(&bytes), t.ty)
        } else {
            [0; 4]
        };
        write_result(w, t, values, lane)?;
    }
    Ok(())
}

/// `isam.v`: a vector load from a buffer through the texture cache (how
/// ir3 loads read-only storage buffers, Mesa's `has_isam_v`). Like an
/// untyped IBO access it counts elements of the instruction's type from
/// the buffer's first texel, whatever the descriptor's format: Turnip
/// loads u32 vectors at dword offsets through a buffer's 16-bit descriptor
/// (turnip/*/strided_vec4). The coordinate is one register plus the
/// immediate offset (`r1.x+4`, SRC2_IMM_OFFSET); result component `c` is
/// element `x + c`, and elements past the buffer read 0.
fn vector_fetch(w: &mut Wave, t: &Tex, mask: u128, ctx: &mut DispatchContext) -> Result<(), Trap> {
    let Some(src) = t.src1 else {
        return error("isam.v without a coordinate");
    };
    let (size, _, sign_extend) = element(t.ty);
    for lane in lanes(mask) {
        let img = texture(ctx, texture_slot(w, ctx, t, mask, lane)?)?;
        if !img.is_buffer() {
            return error("isam.v of a texture that is not a buffer: not modelled");
        }
        let (start, end) = untyped_bounds(&img)?;
        let x = source(w, ctx, u32::from(src), t.half_src, lane)?;
        let x = if t.half_src {
            x as u16 as i16 as i32 as u32
        } else {
            x
        };
        let x = x.wrapping_add(u32::from(t.offset.unwrap_or(0)));
        let mut values = [0u32; 4];
        for (c, v) in values.iter_mut().enumerate() {
            let at = start + (u64::from(x) + c as u64) * size as u64;
            if t.wrmask >> c & 1 == 0 || at + size as u64 > end {
                continue;
            }
            let mut bytes = [0u8; 4];
            ctx.memory.read(img.base + at, &mut bytes[..size])?;
            *v = from_bytes(&bytes[..size], sign_extend);
        }
        write_result(w, t, values, lane)?;
    }
    Ok(())
}

fn get_size(w: &mut Wave, t: &Tex, mask: u128, ctx: &mut DispatchContext) -> Result<(), Trap> {
    for lane in lanes(mask) {
        let img = texture(ctx, texture_slot(w, ctx, t, mask, lane)?)?;
        let values = if img.is_buffer() {
            [img.texels as u32, 1, 1, 1]
        } else {
            [img.width, img.height.max(1), img.depth.max(1), img.levels]
        };
        write_result(w, t, values, lane)?;
    }
    Ok(())
}

fn get_buffer_size(
    w: &mut Wave,
    t: &Tex,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    for lane in lanes(mask) {
        let img = texture(ctx, texture_slot(w, ctx, t, mask, lane)?)?;
        if !img.is_buffer() {
            return error("getbuf of a texture that is not a buffer is not modelled");
        }
        let Ok(texels) = u32::try_from(img.texels) else {
            return error(format!("getbuf of a buffer of {} texels", img.texels));
        };
        write_result(w, t, [texels, 0, 0, 0], lane)?;
    }
    Ok(())
}

fn broadcast(w: &mut Wave, t: &Tex, mask: u128) -> Result<(), Trap> {
    let Some(src) = t.src1 else {
        return error("brcst.active without a source");
    };
    let cluster = 2u32 << t.cluster;
    let half = t.ty.is_half();
    let src = w.regs.locate(i64::from(src), half)?;
    let mut writes = Vec::new();
    for start in (0..128).step_by(cluster as usize) {
        let lower = ((1u128 << (cluster / 2)) - 1) << start;
        let active_lower = lower & mask;
        if active_lower == 0 {
            continue;
        }
        let from = 127 - active_lower.leading_zeros() as usize;
        let v = w.regs.read(src, from)?;
        let upper = ((1u128 << (cluster / 2)) - 1) << (start + cluster / 2);
        for lane in lanes(upper & mask) {
            writes.push((lane, v));
        }
    }
    let mut values = [0u32; 4];
    for (lane, v) in writes {
        values[0] = v;
        write_result(w, t, values, lane)?;
    }
    Ok(())
}

fn quad_shuffle(w: &mut Wave, t: &Tex, mask: u128) -> Result<(), Trap> {
    let Some(src) = t.src1 else {
        return error("quad_shuffle without a source");
    };
    let half = t.ty.is_half();
    let src_loc = w.regs.locate(i64::from(src), half)?;
    let mut writes = Vec::new();
    for lane in lanes(mask) {
        let quad = lane & !3;
        let from = match t.op {
            Opcode::QuadShuffleHoriz => lane ^ 1,
            Opcode::QuadShuffleVert => lane ^ 2,
            Opcode::QuadShuffleDiag => lane ^ 3,
            _ => {
                let Some(idx) = t.src2 else {
                    return error("quad_shuffle.brcst without an index");
                };
                let i = w.regs.read(w.regs.locate(i64::from(idx), false)?, lane)?;
                quad + (i as usize & 3)
            }
        };
        writes.push((lane, w.regs.read(src_loc, from)?));
    }
    for (lane, v) in writes {
        write_result(w, t, [v, 0, 0, 0], lane)?;
    }
    Ok(())
}
