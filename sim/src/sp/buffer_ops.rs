//! cat6 instructions that reach memory through a descriptor: UBO loads
//! (`ldc`, and `ldc.k` into the const file), storage buffer and image
//! access (`ldib.b`, `stib.b`, `atomic.b.*`) and `resinfo.b`/`resbase`.
//!
//! Which descriptor: an immediate index, or an index in a register, the
//! same for every fiber (`.uniform`: the first active fiber's) or per fiber
//! (`.nonuniform`); bindless instructions index the descriptor set `.baseN`.
//!
//! Offsets and coordinates:
//! - `ldc.offsetC.N dst, off, ubo`: N dwords from vec4 `off`, component C
//!   (Mesa loads UBOs with NIR's `load_ubo_vec4`, its offset in vec4s, and
//!   puts the component in `.offsetC`);
//! - `ldc.N.k c[a1.x], off, ubo`: N vec4s to the const file at component
//!   a1.x (the XML's doc);
//! - untyped IBO access: the coordinate (plus the immediate offset) counts
//!   elements of the instruction's type, whatever the descriptor's format
//!   (Turnip's a740 shader stores `i * 2` with `stib.b.untyped.1d.u32` at
//!   coordinate `i` through a descriptor of 16-bit texels, and the result
//!   buffer holds it at byte 4i);
//! - typed access: texel coordinates, converted through the descriptor's
//!   format (see [`super::texel_format`]).
//!
//! Bounds: a UBO descriptor holds its size in vec4s and a storage
//! descriptor its size in texels; Turnip sizes both to the bound range and
//! relies on them for robustBufferAccess. Past the end a load returns 0 and
//! a store or atomic does nothing (the behaviour robustBufferAccess2 asks
//! for, which Turnip exposes).

use parsnip_isa::eval::atomic::AtomicOp;
use parsnip_isa::{BufferDesc, Ibo, IndexMode, Ldc, Opcode, ResinfoB, Src8, Type};

use super::descriptors::{Image, Kind, Slot, Ubo};
use super::dispatch::DispatchContext;
use super::lanes::{first_lane, lanes};
use super::memory_ops::{
    atomic_in_memory, atomic_op, atomic_operand, element, full, load_elements, store_elements,
    write_atomic_result,
};
use super::sampling::fetches_through_surfaces;
use super::texel_format::{texel_format, Texel};
use super::trap::{error, Trap};
use super::wave_registers::WaveRegisters;
use crate::surface::texture::TextureImage;
use crate::surface::Surface;
use crate::tp::surface_trap;

/// The descriptor slot fiber `lane` addresses.
fn slot(
    regs: &WaveRegisters,
    desc: BufferDesc,
    index: Src8,
    mask: u128,
    lane: usize,
) -> Result<Slot, Trap> {
    let index = match (desc.mode, index) {
        (IndexMode::Imm, Src8::Imm(i)) => u32::from(i),
        (IndexMode::Imm, Src8::Reg(r)) => u32::from(r),
        (IndexMode::Uniform, Src8::Reg(r)) => {
            let first = first_lane(mask).unwrap_or(lane);
            full(regs, u32::from(r), first)?
        }
        (IndexMode::Nonuniform, Src8::Reg(r)) => full(regs, u32::from(r), lane)?,
        (_, Src8::Imm(i)) => u32::from(i),
    };
    Ok(Slot {
        bindless: desc.bindless.then_some(desc.base),
        index,
    })
}

fn ubo(ctx: &mut DispatchContext, s: Slot) -> Result<Ubo, Trap> {
    let raw = ctx.descriptors.fetch(ctx.d, ctx.memory, Kind::Ubo, s)?;
    Ok(Ubo::decode(&raw))
}

/// A storage buffer or image: its raw descriptor and what it says.
fn image(ctx: &mut DispatchContext, s: Slot) -> Result<([u32; 16], Image), Trap> {
    let raw = ctx.descriptors.fetch(ctx.d, ctx.memory, Kind::Ibo, s)?;
    Ok((raw, Image::decode(&raw, ctx.d.a7xx)))
}

/// Layer (or 3D slice) `layer` of a tiled or UBWC-compressed storage
/// image (Turnip's storage images are TILE6_3, and UBWC on a740), through
/// the surface module that the blitter and the render backend use too.
fn image_surface(ctx: &DispatchContext, raw: &[u32; 16], layer: u32) -> Result<Surface, Trap> {
    TextureImage::from_descriptor(raw, ctx.d.gpu.chip)
        .surface(0, layer, ctx.d.gpu)
        .map_err(surface_trap)
}

/// Whether texel `coords` is inside image `img` (not a buffer).
fn inside_image(img: &Image, [x, y, z]: [u32; 3]) -> bool {
    x < img.width && y < img.height.max(1) && z < img.depth.max(1)
}

/// `count` dwords of a UBO from byte `at`, 0 past its end.
fn ubo_dwords(ctx: &DispatchContext, u: Ubo, at: u64, count: usize) -> Result<Vec<u32>, Trap> {
    let mut out = vec![0u32; count];
    for (i, v) in out.iter_mut().enumerate() {
        let a = at + 4 * i as u64;
        if a + 4 <= u.size {
            *v = ctx.memory.read_u32(u.base + a)?;
        }
    }
    Ok(out)
}

pub(crate) fn ldc(
    regs: &mut WaveRegisters,
    l: &Ldc,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let offset = |regs: &WaveRegisters, lane: usize| -> Result<u64, Trap> {
        Ok(u64::from(match l.src1 {
            Src8::Imm(v) => u32::from(v),
            Src8::Reg(r) => full(regs, u32::from(r), lane)?,
        }))
    };
    if l.op == Opcode::LdcK {
        let Some(lane) = first_lane(mask) else {
            return Ok(());
        };
        let u = ubo(ctx, slot(regs, l.desc, l.src2, mask, lane)?)?;
        let values = ubo_dwords(ctx, u, offset(regs, lane)? * 16, usize::from(l.size) * 4)?;
        let dst = i64::from(regs.a1(lane));
        for (i, v) in values.into_iter().enumerate() {
            ctx.consts.write(dst + i as i64, v)?;
        }
        return Ok(());
    }
    // `.u`: the destination is a shared register, written once.
    let fibers = if l.u {
        mask & mask.wrapping_neg()
    } else {
        mask
    };
    for lane in lanes(fibers) {
        let u = ubo(ctx, slot(regs, l.desc, l.src2, mask, lane)?)?;
        let at = offset(regs, lane)? * 16 + u64::from(l.component) * 4;
        let values = ubo_dwords(ctx, u, at, usize::from(l.size))?;
        for (i, v) in values.into_iter().enumerate() {
            let loc = regs.locate(i64::from(l.dst) + i as i64, false)?;
            regs.write(loc, lane, v);
        }
    }
    Ok(())
}

/// Where a typed access to texel `coords` of `img` is, if it is inside.
fn texel_address(img: &Image, coords: [u32; 3], bytes: u32) -> Option<u64> {
    let [x, y, z] = coords;
    if img.is_buffer() {
        return (u64::from(x) < img.texels)
            .then(|| img.base + (u64::from(img.start_texel) + u64::from(x)) * u64::from(bytes));
    }
    inside_image(img, coords).then(|| {
        img.base
            + u64::from(z) * img.array_pitch
            + u64::from(y) * img.pitch
            + u64::from(x) * u64::from(bytes)
    })
}

/// A texel's components as the registers of an instruction of type `ty`
/// hold them: floats for float types, integers otherwise (a mismatch
/// between the format and the type moves the bits unconverted).
pub(crate) fn texel_to_registers(t: Texel, ty: Type) -> [u32; 4] {
    match (t, ty) {
        (Texel::Float(v), Type::F16) => v.map(|x| {
            u32::from(parsnip_isa::eval::float::f32_to_f16(
                x,
                parsnip_isa::Round::Even,
            ))
        }),
        (Texel::Float(v), _) => v.map(f32::to_bits),
        (Texel::Int(v), _) => v,
    }
}

fn registers_to_texel(values: [u32; 4], ty: Type) -> Texel {
    match ty {
        Type::F32 => Texel::Float(values.map(f32::from_bits)),
        Type::F16 => Texel::Float(values.map(|v| parsnip_isa::eval::float::f16_to_f32(v as u16))),
        Type::S16 => Texel::Int(values.map(|v| v as u16 as i16 as i32 as u32)),
        _ => Texel::Int(values),
    }
}

/// `ldib.b`, `stib.b` and `atomic.b.*`.
pub(crate) fn ibo(
    regs: &mut WaveRegisters,
    i: &Ibo,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    for lane in lanes(mask) {
        let (raw, img) = image(ctx, slot(regs, i.desc, i.ssbo, mask, lane)?)?;
        let mut coords = [0u32; 3];
        for (d, c) in coords
            .iter_mut()
            .enumerate()
            .take(usize::from(i.d).clamp(1, 3))
        {
            *c = full(regs, u32::from(i.coord) + d as u32, lane)?;
        }
        coords[0] = coords[0].wrapping_add(u32::from(i.offset.unwrap_or(0)));
        match i.op {
            Opcode::LdibB | Opcode::StibB if i.typed && fetches_through_surfaces(&img) => {
                typed_surface(regs, i, &raw, &img, coords, lane, ctx)?
            }
            Opcode::LdibB | Opcode::StibB if i.typed => {
                img.check_layout()?;
                typed(regs, i, &img, coords, lane, ctx)?
            }
            Opcode::LdibB | Opcode::StibB => {
                img.check_layout()?;
                untyped(regs, i, &img, coords[0], lane, ctx)?
            }
            _ => {
                img.check_layout()?;
                ibo_atomic(regs, i, &img, coords, lane, ctx)?
            }
        }
    }
    Ok(())
}

/// The bytes of a buffer an untyped access may touch, from its base:
/// `(first, end)`.
pub(crate) fn untyped_bounds(img: &Image) -> Result<(u64, u64), Trap> {
    let texel = u64::from(texel_format(img.format, img.swap)?.bytes);
    let start = u64::from(img.start_texel) * texel;
    Ok((start, start + img.texels * texel))
}

fn untyped(
    regs: &mut WaveRegisters,
    i: &Ibo,
    img: &Image,
    coord: u32,
    lane: usize,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let (size, _, _) = element(i.ty);
    let count = usize::from(i.type_size);
    let (start, end) = untyped_bounds(img)?;
    let first = start + u64::from(coord) * size as u64;
    if i.op == Opcode::StibB {
        let bytes = store_elements(regs, u32::from(i.reg), i.ty, count, lane)?;
        for (k, e) in bytes.chunks_exact(size).enumerate() {
            let at = first + (k * size) as u64;
            if at + size as u64 <= end {
                ctx.memory.write(img.base + at, e)?;
            }
        }
    } else {
        let mut bytes = vec![0u8; count * size];
        for (k, e) in bytes.chunks_exact_mut(size).enumerate() {
            let at = first + (k * size) as u64;
            if at + size as u64 <= end {
                ctx.memory.read(img.base + at, e)?;
            }
        }
        load_elements(regs, u32::from(i.reg), i.ty, &bytes, lane)?;
    }
    Ok(())
}

fn typed(
    regs: &mut WaveRegisters,
    i: &Ibo,
    img: &Image,
    coords: [u32; 3],
    lane: usize,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let fmt = texel_format(img.format, img.swap)?;
    let half = i.ty.is_half();
    let count = usize::from(i.type_size).min(4);
    let addr = texel_address(img, coords, fmt.bytes);
    if i.op == Opcode::StibB {
        let Some(addr) = addr else { return Ok(()) };
        let mut values = [0u32; 4];
        for (k, v) in values.iter_mut().enumerate().take(count) {
            *v = regs.read(regs.locate(i64::from(i.reg) + k as i64, half)?, lane)?;
        }
        ctx.memory
            .write(addr, &fmt.encode(registers_to_texel(values, i.ty))?)?;
    } else {
        let values = match addr {
            Some(addr) => {
                let mut bytes = vec![0u8; fmt.bytes as usize];
                ctx.memory.read(addr, &mut bytes)?;
                texel_to_registers(fmt.decode(&bytes), i.ty)
            }
            None => [0; 4],
        };
        for (k, &v) in values.iter().enumerate().take(count) {
            let loc = regs.locate(i64::from(i.reg) + k as i64, half)?;
            regs.write(loc, lane, v);
        }
    }
    Ok(())
}

/// Typed `ldib.b`/`stib.b` of a tiled or compressed image: the same
/// conversions as [`typed`], the texel found by the surface module.
fn typed_surface(
    regs: &mut WaveRegisters,
    i: &Ibo,
    raw: &[u32; 16],
    img: &Image,
    coords: [u32; 3],
    lane: usize,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let half = i.ty.is_half();
    let count = usize::from(i.type_size).min(4);
    let inside = inside_image(img, coords);
    let [x, y, layer] = coords;
    if i.op == Opcode::StibB {
        if !inside {
            return Ok(());
        }
        let mut values = [0u32; 4];
        for (k, v) in values.iter_mut().enumerate().take(count) {
            *v = regs.read(regs.locate(i64::from(i.reg) + k as i64, half)?, lane)?;
        }
        let texel = registers_to_texel(values, i.ty);
        image_surface(ctx, raw, layer)?
            .write_texel(ctx.memory, x, y, 0, texel, 0xf)
            .map_err(surface_trap)?;
    } else {
        let values = if inside {
            let texel = image_surface(ctx, raw, layer)?
                .read_texel(ctx.memory, x, y, 0)
                .map_err(surface_trap)?;
            texel_to_registers(texel, i.ty)
        } else {
            [0; 4]
        };
        for (k, &v) in values.iter().enumerate().take(count) {
            let loc = regs.locate(i64::from(i.reg) + k as i64, half)?;
            regs.write(loc, lane, v);
        }
    }
    Ok(())
}

/// `atomic.b.<op> reg, coord, ibo`: `reg` receives the old value; the
/// operand is in the next register and, for `cmpxchg`, the comparand in the
/// one after (Mesa's `emit_intrinsic_atomic_ssbo`: "src1.x - is actually
/// destination register, src1.y - is 'data' except for cmpxchg where src2.y
/// is 'compare', src1.z - is 'data' for cmpxchg", which puts NIR's swap
/// value in .y and its comparator in .z).
fn ibo_atomic(
    regs: &mut WaveRegisters,
    i: &Ibo,
    img: &Image,
    coords: [u32; 3],
    lane: usize,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let op = atomic_op(i.op)?;
    let wide = i.ty == Type::U8;
    let bytes: u64 = if wide { 8 } else { 4 };
    let signed = i.ty == Type::S32;
    if wide && op == AtomicOp::CmpXchg {
        return error("a 64-bit compare-exchange: its operand layout is not publicly documented");
    }
    let reg = u32::from(i.reg);
    let value = atomic_operand(regs, reg, 1, wide, lane)?;
    let compare = if op == AtomicOp::CmpXchg {
        atomic_operand(regs, reg, 2, wide, lane)?
    } else {
        0
    };
    let addr = if i.typed {
        let fmt = texel_format(img.format, img.swap)?;
        if u64::from(fmt.bytes) != bytes || !fmt.is_integer() {
            return error(format!(
                "a {}-byte atomic on an image of {}-byte texels",
                bytes, fmt.bytes
            ));
        }
        texel_address(img, coords, fmt.bytes)
    } else {
        let (start, end) = untyped_bounds(img)?;
        let at = start + u64::from(coords[0]) * bytes;
        (at + bytes <= end).then_some(img.base + at)
    };
    let old = match addr {
        Some(addr) => atomic_in_memory(ctx, addr, op, signed, wide, value, compare)?,
        None => 0,
    };
    write_atomic_result(regs, reg, old, wide, lane)
}

/// `resinfo.b`: the size of a storage buffer or image in three registers
/// (the XML's doc: "returns image/ssbo dimensions (3 components)"): a
/// buffer's texel count, or an image's width, height and depth (layers).
/// `resbase`: the address of the bindless descriptor, in two registers.
pub(crate) fn resinfo(
    regs: &mut WaveRegisters,
    r: &ResinfoB,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let half = r.ty.is_half();
    for lane in lanes(mask) {
        let s = slot(regs, r.desc, r.ssbo, mask, lane)?;
        let values: [u32; 3] = if r.op == Opcode::Resbase {
            let Some(set) = s.bindless else {
                return error("resbase of a descriptor that is not bindless");
            };
            let Some(Some(base)) = ctx.d.bindless.get(set as usize) else {
                return error(format!(
                    "resbase in descriptor set {set}, but SP_CS_BINDLESS_BASE[{set}] was not \
                     programmed"
                ));
            };
            let addr = base.iova + u64::from(s.index) * u64::from(base.descriptor_size);
            [addr as u32, (addr >> 32) as u32, 0]
        } else {
            let (_, img) = image(ctx, s)?;
            if img.is_buffer() {
                [img.texels as u32, 0, 0]
            } else {
                [img.width, img.height, img.depth]
            }
        };
        let n = if r.op == Opcode::Resbase { 2 } else { 3 };
        for (k, &v) in values.iter().enumerate().take(n) {
            let loc = regs.locate(i64::from(r.dst) + k as i64, half)?;
            regs.write(loc, lane, v);
        }
    }
    Ok(())
}
