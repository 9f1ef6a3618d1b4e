//! The 2D engine: CP_BLIT's BLIT_OP_SCALE, which fills or copies a
//! rectangle of one surface from a solid colour or from another surface,
//! scaling, flipping, filtering, resolving multisampled sources and
//! converting formats on the way (adreno_pm4.xml: "reads through UCHE,
//! writes through the CCU"; the model has no caches, so the flushes
//! drivers put around blits have nothing to do).
//!
//! State, all read through strict mode when the blit runs: [`state`] for
//! the control registers, [`crate::surface::registers`] for the
//! destination (RB_2D_DST_*) and, unless the blit is a solid fill, the
//! source (SP_PS_2D_SRC_*); [`sampling`] says which source pixels each
//! destination pixel takes. Each destination pixel is then:
//! - for the float path (IFMT UNORM8, UNORM8_SRGB, FLOAT16, FLOAT32): the
//!   source texel decoded to floats (sRGB sources to linear), rounded
//!   through halves for FLOAT16, and encoded in the destination format
//!   (linear to sRGB for an sRGB destination). The model does not narrow
//!   the UNORM8 path to 8 bits: for the formats drivers use it with (8 bits
//!   a component or fewer) the result is the same;
//! - for the integer path (INT8/16/32): the integers, wrapped to the
//!   destination's field sizes;
//! - for R2D_RAW: the element's bytes, which must be the same size.
//!
//! Turnip does buffer<->image copies (vkCmdCopyBufferToImage,
//! vkCmdCopyImageToBuffer, vkCmdUpdateBuffer's staging copy,
//! vkCmdFillBuffer) as such blits with a linear surface over the buffer
//! (on a7xx a buffer source may start at a texel offset from a 64-byte
//! aligned address: TPL1_2D_SRC_CNTL's A6XX_TEX_IMG_BUFFER).
//!
//! Not modelled, each an error naming it: BLIT_OP_FILL and BLIT_OP_COPY
//! (the older ops, with coordinates in the packet, which no a6xx/a7xx
//! driver uses and whose behaviour there is not public), multisampled
//! destinations, and what [`state`] lists.

mod sampling;
mod state;

use parsnip_registers::gpu::GpuInfo;

use crate::memory::AddressSpace;
use crate::register_file::RegisterFile;
use crate::surface::format::{Texel, TexelFormat};
use crate::surface::registers::{blit_destination, blit_source};
use crate::surface::{format, Surface, SurfaceError};

use sampling::Sampler;
use state::{BlitState, Pipeline, Precision, Rect, Source};

fn not_public(what: impl Into<String>) -> SurfaceError {
    SurfaceError::NotModelled(what.into())
}

/// Runs one BLIT_OP_SCALE on the state in `regs`, reading `memory` and
/// writing `dst_memory`: the 2D engine "reads through UCHE, writes through
/// the CCU cache" (adreno_pm4.xml, CP_BLIT), which strict caches model
/// ([`crate::ccu`]); coherent, both are memory.
pub(crate) fn scale(
    regs: &RegisterFile,
    memory: &AddressSpace,
    dst_memory: &AddressSpace,
    info: &GpuInfo,
) -> Result<(), SurfaceError> {
    let state = BlitState::read(regs)?;
    let dst = blit_destination(regs, info)?;
    if dst.desc.samples > 1 {
        return Err(not_public(
            "a multisampled 2D engine destination: drivers draw to those, and what CP_BLIT does \
             with one is not public",
        ));
    }
    let dst_format = destination_format(&state, &dst)?;
    let mut area = state.dst;
    if let Some(s) = state.scissor {
        area = Rect {
            x0: area.x0.max(s.x0),
            y0: area.y0.max(s.y0),
            x1: area.x1.min(s.x1),
            y1: area.y1.min(s.y1),
        };
    }
    if area.width() <= 0 || area.height() <= 0 {
        return Ok(());
    }
    match state.source {
        Source::Solid(colour) => {
            let texel = solid_texel(&state, dst_format, colour)?;
            for y in area.y0..=area.y1 {
                for x in area.x0..=area.x1 {
                    dst.write_texel(dst_memory, x as u32, y as u32, 0, texel, state.write_mask)?;
                }
            }
        }
        Source::Surface(src_rect) => {
            let (src, control) = blit_source(regs, info)?;
            if control.unknown_bits != 0 {
                return Err(not_public(
                    "SP_PS_2D_SRC_INFO sets UNK17, UNK19, UNK21, UNK23 or UNK28: what they do is \
                     not public",
                ));
            }
            if src_rect.width() <= 0 || src_rect.height() <= 0 {
                return Err(SurfaceError::Invalid(format!(
                    "a 2D blit source rectangle of {}x{} pixels",
                    src_rect.width(),
                    src_rect.height()
                )));
            }
            let extent = src.desc.extent.unwrap_or((0, 0));
            if extent.0 == 0 || extent.1 == 0 {
                return Err(SurfaceError::Invalid(
                    "SP_PS_2D_SRC_SIZE is empty: a 2D blit from nothing".into(),
                ));
            }
            check_source(&state, &src, control.filter, control.samples_average)?;
            let sampler = Sampler {
                surface: &src,
                memory,
                src: src_rect,
                dst: state.dst,
                hflip: state.hflip,
                vflip: state.vflip,
                filter: control.filter,
                average: control.samples_average,
                extent,
            };
            copy(&state, &sampler, &dst, dst_memory, area)?;
        }
    }
    Ok(())
}

/// The destination's texel format (None for a raw copy), checked against
/// the path IFMT and SP_2D_DST_FORMAT select.
fn destination_format(
    state: &BlitState,
    dst: &Surface,
) -> Result<Option<TexelFormat>, SurfaceError> {
    if state.pipeline == Pipeline::Raw {
        return Ok(None);
    }
    let format = dst.texel_format()?;
    let integer = state.pipeline == Pipeline::Integer;
    if format.is_integer() != integer {
        return Err(not_public(format!(
            "a 2D blit with IFMT for {} values into {}: what the engine converts then is not \
             public",
            if integer { "integer" } else { "float" },
            format::format_name(format.format)
        )));
    }
    let (sint, uint) = state.dst_integer;
    let (want_sint, want_uint) = (
        format.class == format::NumberClass::Sint,
        format.class == format::NumberClass::Uint,
    );
    if (sint, uint) != (want_sint, want_uint) {
        return Err(not_public(format!(
            "SP_2D_DST_FORMAT says SINT={} UINT={} for a {} destination: what the engine does \
             then is not public",
            u8::from(sint),
            u8::from(uint),
            format::format_name(format.format)
        )));
    }
    Ok(Some(format))
}

fn check_source(
    state: &BlitState,
    src: &Surface,
    filter: bool,
    average: bool,
) -> Result<(), SurfaceError> {
    match state.pipeline {
        Pipeline::Raw => {
            if filter || average {
                return Err(not_public("a raw 2D blit that filters or resolves"));
            }
        }
        pipeline => {
            let format = src.texel_format()?;
            let integer = pipeline == Pipeline::Integer;
            if format.is_integer() != integer {
                return Err(not_public(format!(
                    "a 2D blit from {} with IFMT for {} values: what the engine converts then is \
                     not public",
                    format::format_name(format.format),
                    if integer { "integer" } else { "float" }
                )));
            }
            if integer && (filter || average) {
                return Err(not_public(
                    "filtering or averaging an integer 2D blit source: not public",
                ));
            }
        }
    }
    Ok(())
}

/// The solid colour as a texel for the destination: per IFMT (see
/// [`state`]).
fn solid_texel(
    state: &BlitState,
    dst: Option<TexelFormat>,
    colour: [u32; 4],
) -> Result<Texel, SurfaceError> {
    Ok(match state.pipeline {
        Pipeline::Raw => {
            return Err(not_public(
                "a solid fill with IFMT R2D_RAW: how the colour is taken is not public",
            ))
        }
        Pipeline::Integer => Texel::Int(colour),
        Pipeline::Float(precision) => {
            let signed = dst.is_some_and(|f| f.class == format::NumberClass::Snorm);
            let mut v = [0f32; 4];
            for (c, out) in v.iter_mut().enumerate() {
                let raw = colour[c];
                *out = match precision {
                    Precision::Unorm8 { srgb } => {
                        let x = if signed {
                            (f32::from(raw as u8 as i8) / 127.0).max(-1.0)
                        } else {
                            f32::from(raw as u8) / 255.0
                        };
                        if srgb && c < 3 {
                            format::srgb_to_linear(x)
                        } else {
                            x
                        }
                    }
                    Precision::Half => parsnip_isa::eval::float::f16_to_f32(raw as u16),
                    Precision::Single => f32::from_bits(raw),
                };
            }
            Texel::Float(v)
        }
    })
}

/// Rounds a float texel the way the FLOAT16 path carries it.
fn through_half(t: Texel) -> Texel {
    use parsnip_isa::eval::float::{f16_to_f32, f32_to_f16};
    match t {
        Texel::Float(v) => {
            Texel::Float(v.map(|c| f16_to_f32(f32_to_f16(c, parsnip_isa::Round::Even))))
        }
        other => other,
    }
}

fn copy(
    state: &BlitState,
    sampler: &Sampler<'_>,
    dst: &Surface,
    dst_memory: &AddressSpace,
    area: Rect,
) -> Result<(), SurfaceError> {
    let memory = sampler.memory;
    if state.pipeline == Pipeline::Raw {
        let bytes = dst.element.bytes as usize;
        if sampler.surface.element.bytes as usize != bytes {
            return Err(not_public(format!(
                "a raw 2D blit from {}-byte to {}-byte elements",
                sampler.surface.element.bytes, bytes
            )));
        }
        let mut element = [0u8; 16];
        for y in area.y0..=area.y1 {
            for x in area.x0..=area.x1 {
                let (sx, sy) = sampler.nearest(x, y);
                sampler
                    .surface
                    .read_element(memory, sx, sy, 0, &mut element)?;
                dst.write_element(dst_memory, x as u32, y as u32, 0, &element[..bytes])?;
            }
        }
        return Ok(());
    }
    let half = state.pipeline == Pipeline::Float(Precision::Half);
    for y in area.y0..=area.y1 {
        for x in area.x0..=area.x1 {
            let mut texel = sampler.sample(x, y)?;
            if half {
                texel = through_half(texel);
            }
            dst.write_texel(dst_memory, x as u32, y as u32, 0, texel, state.write_mask)?;
        }
    }
    Ok(())
}
