//! The sampling instructions (`sam`, `samb`, `saml`, `samgq`,
//! `gather4r/g/b/a`) and texel fetches from tiled or compressed images:
//! what the shader processor hands the texture processor ([`crate::tp`])
//! for each fiber, and what it writes back.
//!
//! Sources, as Mesa's ir3 lays them out (ir3_compiler_nir.c, emit_tex):
//! the first is a vector of consecutive registers: the coordinates (two,
//! three with `.3d`, which 3D and cube lookups set; 1D lookups pass t =
//! 0.5), then the shadow reference with `.s`, the array index with `.a`,
//! the projection divisor with `.p`; for `samgq` it is padded to four and
//! followed by the x then the y derivatives (two or three each). The
//! second holds the texel offsets with `.o` (one per coordinate, a cube's
//! two) and then `saml`'s level of detail or `samb`'s bias. `.p` divides
//! the coordinates and the reference by the divisor.
//!
//! `sam` and `samb` take their level of detail from the quad: the
//! coordinates' differences between the top-left fiber and its right and
//! lower neighbours (coarse derivatives, one per quad, helpers
//! included), so they exist only in fragment shaders. Gathers read level
//! 0.
//!
//! Which sampler, besides the texture (`super::texture`): `s#n` in the
//! instruction, or from registers with `.s2en` (the register after the
//! texture's for bindless, the half register before it otherwise); in
//! bindless modes with `a1.x` the low three bits of `a1.x` name the
//! sampler's descriptor set, and the rest its index on a7xx (the texture's
//! on a6xx) (get_bindless_samp_src in ir3).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use parsnip_isa::eval::float::f16_to_f32;
use parsnip_isa::{A1Imm, Opcode, Tex, TexDesc, Type};
use parsnip_registers::enums::A6xxTileMode;
use parsnip_registers::gpu::GpuInfo;

use super::buffer_ops::texel_to_registers;
use super::descriptors::{Image, Kind, Slot};
use super::dispatch::DispatchContext;
use super::fragment::{Prefetch, PrefetchOp};
use super::lanes::{first_lane, lanes};
use super::texture::{source, texture_slot, write_result};
use super::trap::{error, Trap};
use super::varyings::interpolate_at;
use super::wave::Wave;
use crate::tp::lod::Lod;
use crate::tp::sampler::Sampler;
use crate::tp::view::Texture;
use crate::tp::{self, Lookup};

/// The textures and samplers a launch has decoded, by slot.
#[derive(Default)]
pub(crate) struct TextureCache {
    textures: HashMap<Slot, Texture>,
    samplers: HashMap<Slot, Sampler>,
}

impl TextureCache {
    /// The texture in slot `slot`, whose descriptor is `raw`.
    fn texture(
        &mut self,
        raw: [u32; 16],
        slot: Slot,
        gpu: &'static GpuInfo,
    ) -> Result<&mut Texture, Trap> {
        match self.textures.entry(slot) {
            Entry::Occupied(e) => Ok(e.into_mut()),
            Entry::Vacant(e) => Ok(e.insert(Texture::decode(&raw, gpu)?)),
        }
    }
}

/// The texture and sampler of a lookup, decoded once per launch.
fn texture_and_sampler<'c>(
    ctx: &'c mut DispatchContext,
    tex: Slot,
    samp: Slot,
) -> Result<(&'c mut Texture, Sampler), Trap> {
    let sampler = match ctx.textures.samplers.get(&samp) {
        Some(s) => *s,
        None => {
            let raw = ctx
                .descriptors
                .fetch(ctx.d, ctx.memory, Kind::Sampler, samp)?;
            let s = Sampler::decode(&[raw[0], raw[1], raw[2], raw[3]])?;
            ctx.textures.samplers.insert(samp, s);
            s
        }
    };
    let raw = ctx
        .descriptors
        .fetch(ctx.d, ctx.memory, Kind::Texture, tex)?;
    let texture = ctx.textures.texture(raw, tex, ctx.d.gpu)?;
    Ok((texture, sampler))
}

/// The texture and sampler of `slots`, which [`texture_and_sampler`]
/// decoded.
fn cached<'c>(ctx: &'c mut DispatchContext, slots: (Slot, Slot)) -> (&'c mut Texture, Sampler) {
    let sampler = ctx.textures.samplers[&slots.1];
    let texture = ctx
        .textures
        .textures
        .get_mut(&slots.0)
        .expect("decoded by texture_and_sampler");
    (texture, sampler)
}

/// The sampler slot fiber `lane` uses.
fn sampler_slot(
    w: &Wave,
    ctx: &DispatchContext,
    t: &Tex,
    mask: u128,
    lane: usize,
) -> Result<Slot, Trap> {
    Ok(match t.desc {
        TexDesc::Direct { samp, .. } => Slot {
            bindless: None,
            index: u32::from(samp),
        },
        TexDesc::BindlessImm { base, samp, .. } => Slot {
            bindless: Some(base),
            index: u32::from(samp),
        },
        TexDesc::BindlessA1 { imm, .. } => {
            let a1 = w.regs.a1(lane);
            Slot {
                bindless: Some((a1 & 7) as u8),
                index: match imm {
                    A1Imm::Samp(s) => u32::from(s),
                    A1Imm::Tex(_) => a1 >> 3,
                },
            }
        }
        TexDesc::Indexed { mode, reg, base } => {
            let from = if mode.is_uniform() {
                first_lane(mask).unwrap_or(lane)
            } else {
                lane
            };
            let reg = u32::from(reg);
            if mode.is_bindless() {
                let set = if mode.uses_a1() {
                    (w.regs.a1(from) & 7) as u8
                } else {
                    base
                };
                Slot {
                    bindless: Some(set),
                    index: source(w, ctx, reg + 1, false, from)?,
                }
            } else {
                Slot {
                    bindless: None,
                    index: source(w, ctx, reg, true, from)?,
                }
            }
        }
    })
}

/// A float source component.
fn float(w: &Wave, ctx: &DispatchContext, reg: u32, half: bool, lane: usize) -> Result<f32, Trap> {
    let raw = source(w, ctx, reg, half, lane)?;
    Ok(if half {
        f16_to_f32(raw as u16)
    } else {
        f32::from_bits(raw)
    })
}

/// An integer source component (offsets), sign-extended from a half.
fn int(w: &Wave, ctx: &DispatchContext, reg: u32, half: bool, lane: usize) -> Result<i32, Trap> {
    let raw = source(w, ctx, reg, half, lane)?;
    Ok(if half {
        raw as u16 as i16 as i32
    } else {
        raw as i32
    })
}

/// What one fiber's sources say.
#[derive(Clone, Copy, Debug, Default)]
struct Inputs {
    coords: [f32; 3],
    compare: Option<f32>,
    layer: Option<f32>,
    ddx: [f32; 3],
    ddy: [f32; 3],
    offsets: [i32; 3],
    lod: f32,
}

fn read_inputs(w: &Wave, ctx: &DispatchContext, t: &Tex, lane: usize) -> Result<Inputs, Trap> {
    let Some(src1) = t.src1 else {
        return error(format!("{} without coordinates", t.op));
    };
    let src1 = u32::from(src1);
    let half = t.half_src;
    let n = if t.is_3d { 3 } else { 2 };
    let mut i = Inputs::default();
    let mut at = src1;
    for c in 0..n {
        i.coords[c] = float(w, ctx, at, half, lane)?;
        at += 1;
    }
    if t.s {
        i.compare = Some(float(w, ctx, at, half, lane)?);
        at += 1;
    }
    if t.array {
        i.layer = Some(float(w, ctx, at, half, lane)?);
        at += 1;
    }
    if t.p {
        let q = float(w, ctx, at, half, lane)?;
        at += 1;
        for c in i.coords.iter_mut().take(n) {
            *c /= q;
        }
        if let Some(r) = &mut i.compare {
            *r /= q;
        }
    }
    if t.op == Opcode::Samgq {
        at = at.max(src1 + 4);
        for c in 0..n {
            i.ddx[c] = float(w, ctx, at, half, lane)?;
            at += 1;
        }
        for c in 0..n {
            i.ddy[c] = float(w, ctx, at, half, lane)?;
            at += 1;
        }
    }
    let wants_lod = matches!(t.op, Opcode::Saml | Opcode::Samb);
    if t.o || wants_lod {
        let Some(src2) = t.src2 else {
            return error(format!("{} without its second source", t.op));
        };
        let mut at = u32::from(src2);
        if t.o {
            // A cube's offsets are two, as every lookup's are at least.
            let count = if t.is_3d { 3 } else { 2 };
            for c in 0..count {
                i.offsets[c] = int(w, ctx, at, half, lane)?;
                at += 1;
            }
        }
        if wants_lod {
            i.lod = float(w, ctx, at, half, lane)?;
        }
    }
    Ok(i)
}

/// Whether `isam`/`isaml` of `img` goes through the surface module: a
/// tiled or compressed image.
pub(crate) fn fetches_through_surfaces(img: &Image) -> bool {
    !img.is_buffer() && (img.flag || img.tile_mode != A6xxTileMode::TILE6_LINEAR)
}

/// `isam`/`isaml` of a tiled or compressed image for fiber `lane`:
/// integer coordinates x, y and (3D, arrays) the layer, `isaml`'s level
/// in its second source; 0 outside the image.
pub(crate) fn fetch(
    w: &mut Wave,
    t: &Tex,
    mask: u128,
    ctx: &mut DispatchContext,
    lane: usize,
) -> Result<(), Trap> {
    let Some(src) = t.src1 else {
        return error("a texel fetch without coordinates");
    };
    let src = u32::from(src);
    let mut coords = [0u32; 3];
    let n = if t.is_3d || t.array { 3 } else { 2 };
    for (c, v) in coords.iter_mut().enumerate().take(n) {
        let raw = source(w, ctx, src + c as u32, t.half_src, lane)?;
        *v = if t.half_src {
            raw as u16 as i16 as i32 as u32
        } else {
            raw
        };
    }
    coords[0] = coords[0].wrapping_add(u32::from(t.offset.unwrap_or(0)));
    let level = match (t.op, t.src2) {
        (Opcode::Isaml, Some(l)) => source(w, ctx, u32::from(l), t.half_src, lane)?,
        (Opcode::Isaml, None) => return error("isaml without a level"),
        _ => 0,
    };
    let slot = texture_slot(w, ctx, t, mask, lane)?;
    let raw = ctx
        .descriptors
        .fetch(ctx.d, ctx.memory, Kind::Texture, slot)?;
    let memory = ctx.memory;
    let texture = ctx.textures.texture(raw, slot, ctx.d.gpu)?;
    let [mut x, mut y, layer] = coords;
    if texture.image.tile_mode == A6xxTileMode::TILE6_2 {
        // GMEM holds only the bin: framebuffer coordinates to bin ones
        // (a coordinate left of or above the bin wraps and reads nothing).
        let (wx, wy) = ctx.d.gmem_window;
        x = x.wrapping_sub(wx);
        y = y.wrapping_sub(wy);
    }
    let texel = tp::fetch(texture, memory, level, layer, x, y)?;
    let values = texel.map_or([0; 4], |v| texel_to_registers(v, t.ty));
    write_result(w, t, values, lane)
}

/// Runs a sampling instruction.
pub(crate) fn execute(
    w: &mut Wave,
    t: &Tex,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let implicit = matches!(t.op, Opcode::Sam | Opcode::Samb);
    if implicit && ctx.fragment.is_none() {
        return error(format!(
            "{} takes its level of detail from a quad of fragments: it exists only in fragment \
             shaders",
            t.op
        ));
    }
    // Every fiber's sources first: the results may overwrite them.
    let mut inputs = [Inputs::default(); 128];
    let needed = if implicit {
        let mut quads = 0u128;
        for lane in lanes(mask) {
            quads |= 0xf << (lane & !3);
        }
        quads & w.fibers
    } else {
        mask
    };
    for lane in lanes(needed) {
        inputs[lane] = read_inputs(w, ctx, t, lane)?;
    }
    let mut results = Vec::with_capacity(mask.count_ones() as usize);
    // The slots of the previous fiber: most lookups use one texture.
    let mut previous: Option<(Slot, Slot)> = None;
    let memory = ctx.memory;
    for lane in lanes(mask) {
        let i = inputs[lane];
        let lod = match t.op {
            Opcode::Saml => Lod::Explicit(i.lod),
            Opcode::Samgq => Lod::Gradients {
                ddx: i.ddx,
                ddy: i.ddy,
                bias: 0.0,
            },
            Opcode::Sam | Opcode::Samb => {
                let q = lane & !3;
                let d = |other: usize| {
                    let (a, b) = (inputs[q].coords, inputs[other].coords);
                    [b[0] - a[0], b[1] - a[1], b[2] - a[2]]
                };
                Lod::Gradients {
                    ddx: d(q + 1),
                    ddy: d(q + 2),
                    bias: if t.op == Opcode::Samb { i.lod } else { 0.0 },
                }
            }
            _ => Lod::Base,
        };
        let lookup = Lookup {
            coords: i.coords,
            layer: i.layer,
            compare: i.compare,
            offsets: i.offsets,
            lod,
        };
        let slots = (
            texture_slot(w, ctx, t, mask, lane)?,
            sampler_slot(w, ctx, t, mask, lane)?,
        );
        if previous != Some(slots) {
            // Decodes (or finds) them; the lookups below use the cache.
            texture_and_sampler(ctx, slots.0, slots.1)?;
            previous = Some(slots);
        }
        let (texture, sampler) = cached(ctx, slots);
        let texel = match t.op {
            Opcode::Gather4r => tp::gather(texture, &sampler, memory, &lookup, 0)?,
            Opcode::Gather4g => tp::gather(texture, &sampler, memory, &lookup, 1)?,
            Opcode::Gather4b => tp::gather(texture, &sampler, memory, &lookup, 2)?,
            Opcode::Gather4a => tp::gather(texture, &sampler, memory, &lookup, 3)?,
            _ => tp::sample(texture, &sampler, memory, &lookup)?,
        };
        results.push((lane, texel_to_registers(texel, t.ty)));
    }
    for (lane, values) in results {
        write_result(w, t, values, lane)?;
    }
    Ok(())
}

/// Runs texture prefetch `p` for the fibers of the wave about to start:
/// the coordinates are varying locations `p.location` and the next,
/// interpolated with perspective at the pixel centre, the level of detail
/// the quad's, as for `sam`.
pub(crate) fn prefetch(w: &mut Wave, ctx: &mut DispatchContext, p: &Prefetch) -> Result<(), Trap> {
    let data = ctx
        .fragment
        .as_ref()
        .expect("prefetches run for fragment waves");
    let location = p.location as usize;
    for l in [location, location + 1] {
        if !data.is_enabled(l) {
            return error(format!(
                "SP_FS_PREFETCH reads varying location {l}, which VPC_VAR[{}].DISABLE disables",
                l / 32
            ));
        }
    }
    let mut coords = [[0f32; 2]; 128];
    for lane in lanes(w.fibers) {
        let (x, y) = data.quads[lane / 4].quad.pixel(lane % 4);
        let setup = &data.primitive(lane).setup;
        let (i, j) = setup.perspective(f64::from(x) + 0.5, f64::from(y) + 0.5);
        let ij = (i as f32, j as f32);
        for (c, v) in coords[lane].iter_mut().enumerate() {
            *v = f32::from_bits(interpolate_at(data, location + c, ij, lane)?);
        }
    }
    let slot = |(bindless, index): (Option<u8>, u32)| Slot { bindless, index };
    let memory = ctx.memory;
    let (texture, sampler) = texture_and_sampler(ctx, slot(p.texture), slot(p.sampler))?;
    let ty = if p.half { Type::F16 } else { Type::F32 };
    for lane in lanes(w.fibers) {
        let q = lane & !3;
        let d = |other: usize| {
            let (a, b) = (coords[q], coords[other]);
            [b[0] - a[0], b[1] - a[1], 0.0]
        };
        let lookup = Lookup {
            coords: [coords[lane][0], coords[lane][1], 0.0],
            layer: None,
            compare: None,
            offsets: [0; 3],
            lod: Lod::Gradients {
                ddx: d(q + 1),
                ddy: d(q + 2),
                bias: 0.0,
            },
        };
        let texel = match p.op {
            PrefetchOp::Sample => tp::sample(texture, &sampler, memory, &lookup)?,
            PrefetchOp::Gather(c) => tp::gather(texture, &sampler, memory, &lookup, c.into())?,
        };
        let values = texel_to_registers(texel, ty);
        let mut reg = i64::from(p.dst.0);
        for (c, &v) in values.iter().enumerate() {
            if p.wrmask >> c & 1 != 0 {
                let loc = w.regs.locate(reg, p.half)?;
                w.regs.write(loc, lane, v);
                reg += 1;
            }
        }
    }
    Ok(())
}
