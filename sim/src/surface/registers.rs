//! Surfaces as the registers describe them, read through strict mode so
//! that a stale or missing register is reported by name. A unit calls these
//! when it uses the surface: a register that only matters for a surface a
//! draw or blit does not touch is never read.
//!
//! UBWC is on, per surface (a6xx.xml): for the 2D engine, the FLAGS bit of
//! RB_2D_DST_INFO / SP_PS_2D_SRC_INFO; for render targets and depth on
//! a6xx, RB_RENDER_CNTL.FLAG_MRTS / FLAG_DEPTH, and on a7xx the
//! LOSSLESSCOMPEN bit of RB_MRT[i].BUF_INFO / RB_DEPTH_BUFFER_INFO. The
//! flag buffer registers are read only then. a6xx has no tile mode for
//! depth and stencil: they are always TILE6_3 (Mesa's fd6_layout: "Linear
//! D/S is not supported by HW").

use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xxDepthFormat, A6xxFormat, A6xxTexType, A6xxTileMode,
};
use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::regs::{self, a6xx, a7xx, ArrayRegister, Register};
use parsnip_registers::Chip;

use super::format::{element_layout, DepthFormat};
use super::{sample_count, Surface, SurfaceDesc, SurfaceError};
use crate::gmem::bin::Bin;
use crate::register_file::RegisterFile;

fn read<R: Register>(regs: &RegisterFile) -> Result<u64, SurfaceError> {
    Ok(regs.programmed::<R>()?)
}

fn read_at<R: ArrayRegister>(regs: &RegisterFile, i: u32) -> Result<u64, SurfaceError> {
    Ok(regs.programmed_at::<R>(i)?)
}

/// The surface fields of a decoded RB_2D_DST_INFO or SP_PS_2D_SRC_INFO
/// (`$i`), its MUTABLEEN being `$mutable`.
macro_rules! surf_info {
    ($i:expr, $mutable:expr) => {
        SurfInfo {
            format: $i.color_format,
            tile_mode: $i.tile_mode,
            swap: $i.color_swap,
            flags: $i.flags,
            srgb: $i.srgb,
            samples: sample_count($i.samples),
            mutable: $mutable,
        }
    };
}

/// The fields the 2D engine's source and destination info registers share.
struct SurfInfo {
    format: A6xxFormat,
    tile_mode: A6xxTileMode,
    swap: A3xxColorSwap,
    flags: bool,
    srgb: bool,
    samples: u32,
    mutable: bool,
}

/// The 2D engine's destination: RB_2D_DST_INFO, RB_2D_DST, RB_2D_DST_PITCH,
/// and the flags. It has no size.
pub fn blit_destination(regs: &RegisterFile, info: &GpuInfo) -> Result<Surface, SurfaceError> {
    let i = match regs.chip() {
        Chip::A6xx => {
            let i = a6xx::Rb2dDstInfo::from_raw(read::<a6xx::Rb2dDstInfo>(regs)? as u32);
            surf_info!(i, false)
        }
        Chip::A7xx => {
            let i = a7xx::Rb2dDstInfo::from_raw(read::<a7xx::Rb2dDstInfo>(regs)? as u32);
            surf_info!(i, i.mutableen)
        }
    };
    let flags = if i.flags {
        Some((
            read::<regs::Rb2dDstFlags>(regs)?,
            u64::from(
                regs::Rb2dDstFlagsPitch::from_raw(read::<regs::Rb2dDstFlagsPitch>(regs)? as u32).0,
            ),
        ))
    } else {
        None
    };
    Surface::new(
        SurfaceDesc {
            base: read::<regs::Rb2dDst>(regs)?,
            format: i.format,
            swap: i.swap,
            srgb: i.srgb,
            tile_mode: i.tile_mode,
            pitch: u64::from(
                regs::Rb2dDstPitch::from_raw(read::<regs::Rb2dDstPitch>(regs)? as u32).0,
            ),
            samples: i.samples,
            extent: None,
            flags,
            mutable: i.mutable,
        },
        info,
    )
}

/// What SP_PS_2D_SRC_INFO says besides the surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlitSourceControl {
    pub filter: bool,
    pub samples_average: bool,
    /// Bits whose meaning is not public, set (UNK17, 19, 21, 23-26, 28).
    pub unknown_bits: u32,
}

/// The 2D engine's source: SP_PS_2D_SRC_INFO, _SIZE, SP_PS_2D_SRC, _PITCH,
/// the flags, and on a7xx TPL1_2D_SRC_CNTL (a buffer source may start at a
/// texel offset from a 64-byte aligned address).
pub fn blit_source(
    regs: &RegisterFile,
    info: &GpuInfo,
) -> Result<(Surface, BlitSourceControl), SurfaceError> {
    macro_rules! src_info {
        ($t:ty, $mutable:expr) => {{
            let i = <$t>::from_raw(read::<$t>(regs)? as u32);
            let unknown_bits = u32::from(i.unk17)
                | u32::from(i.unk19) << 1
                | u32::from(i.unk21) << 2
                | i.unk23 << 3
                | u32::from(i.unk28) << 7;
            (
                surf_info!(i, $mutable(&i)),
                BlitSourceControl {
                    filter: i.filter,
                    samples_average: i.samples_average,
                    unknown_bits,
                },
            )
        }};
    }
    let chip = regs.chip();
    let (i, control) = match chip {
        Chip::A6xx => src_info!(a6xx::SpPs2dSrcInfo, |_: &a6xx::SpPs2dSrcInfo| false),
        Chip::A7xx => src_info!(a7xx::SpPs2dSrcInfo, |i: &a7xx::SpPs2dSrcInfo| i.mutableen),
    };
    let size = regs::SpPs2dSrcSize::from_raw(read::<regs::SpPs2dSrcSize>(regs)? as u32);
    let mut base = read::<regs::SpPs2dSrc>(regs)?;
    let pitch = match chip {
        Chip::A6xx => {
            let p = a6xx::SpPs2dSrcPitch::from_raw(read::<a6xx::SpPs2dSrcPitch>(regs)? as u32);
            if p.unk0 != 0 {
                return Err(SurfaceError::NotModelled(format!(
                    "SP_PS_2D_SRC_PITCH.UNK0 = {:#x}: what it does is not public",
                    p.unk0
                )));
            }
            p.pitch
        }
        Chip::A7xx => {
            let p = a7xx::SpPs2dSrcPitch::from_raw(read::<a7xx::SpPs2dSrcPitch>(regs)? as u32);
            let cntl = a7xx::Tpl12dSrcCntl::from_raw(read::<a7xx::Tpl12dSrcCntl>(regs)? as u32);
            if cntl.raw_copy {
                return Err(SurfaceError::NotModelled(
                    "TPL1_2D_SRC_CNTL.RAW_COPY: what it does is not public".into(),
                ));
            }
            match cntl.r#type {
                A6xxTexType::A6XX_TEX_2D => {
                    // a6xx.xml: pitch bits 3-9 must be zero unless the
                    // source is an A6XX_TEX_IMG_BUFFER.
                    if !p.pitch.is_multiple_of(64) {
                        return Err(SurfaceError::Invalid(format!(
                            "an SP_PS_2D_SRC_PITCH of {} bytes for a 2D source: it must be a \
                             multiple of 64 unless TPL1_2D_SRC_CNTL.TYPE is A6XX_TEX_IMG_BUFFER",
                            p.pitch
                        )));
                    }
                }
                A6xxTexType::A6XX_TEX_IMG_BUFFER => {
                    let texel = element_layout(i.format)?.bytes;
                    base += u64::from(cntl.start_offset_texels * texel);
                }
                other => {
                    return Err(SurfaceError::NotModelled(format!(
                        "a 2D engine source of TPL1_2D_SRC_CNTL.TYPE {}: only 2D images and \
                         A6XX_TEX_IMG_BUFFER are known to work",
                        other.name(chip).unwrap_or("?")
                    )))
                }
            }
            p.pitch
        }
    };
    let flags =
        if i.flags {
            Some((
                read::<regs::SpPs2dSrcFlags>(regs)?,
                u64::from(
                    regs::SpPs2dSrcFlagsPitch::from_raw(
                        read::<regs::SpPs2dSrcFlagsPitch>(regs)? as u32
                    )
                    .0,
                ),
            ))
        } else {
            None
        };
    let surface = Surface::new(
        SurfaceDesc {
            base,
            format: i.format,
            swap: i.swap,
            srgb: i.srgb,
            tile_mode: i.tile_mode,
            pitch: u64::from(pitch),
            samples: i.samples,
            extent: Some((size.width, size.height)),
            flags,
            mutable: i.mutable,
        },
        info,
    )?;
    Ok((surface, control))
}

/// RB_MRT[index].BUF_INFO (and on a6xx RB_RENDER_CNTL's flags): format,
/// tile mode, swap, UBWC, MUTABLEEN.
fn color_info(
    regs: &RegisterFile,
    index: u32,
) -> Result<(A6xxFormat, A6xxTileMode, A3xxColorSwap, bool, bool), SurfaceError> {
    Ok(match regs.chip() {
        Chip::A6xx => {
            let b =
                a6xx::RbMrtBufInfo::from_raw(read_at::<a6xx::RbMrtBufInfo>(regs, index)? as u32);
            let cntl = a6xx::RbRenderCntl::from_raw(read::<a6xx::RbRenderCntl>(regs)? as u32);
            (
                b.color_format,
                b.color_tile_mode,
                b.color_swap,
                cntl.flag_mrts >> index & 1 != 0,
                false,
            )
        }
        Chip::A7xx => {
            let b =
                a7xx::RbMrtBufInfo::from_raw(read_at::<a7xx::RbMrtBufInfo>(regs, index)? as u32);
            (
                b.color_format,
                b.color_tile_mode,
                b.color_swap,
                b.losslesscompen,
                b.mutableen,
            )
        }
    })
}

/// RB_DEST_MSAA_CNTL's samples.
fn dest_samples(regs: &RegisterFile) -> Result<A3xxMsaaSamples, SurfaceError> {
    Ok(regs::RbDestMsaaCntl::from_raw(read::<regs::RbDestMsaaCntl>(regs)? as u32).samples)
}

/// Colour target `index`, layer `layer`: RB_MRT[index].BUF_INFO, PITCH,
/// ARRAY_PITCH, BASE, its sRGB bit in RB_SRGB_CNTL, the sample count of
/// RB_DEST_MSAA_CNTL, and its flags when UBWC is on.
pub fn color_target(
    regs: &RegisterFile,
    info: &GpuInfo,
    index: u32,
    layer: u32,
) -> Result<Surface, SurfaceError> {
    let (format, tile_mode, swap, compressed, mutable) = color_info(regs, index)?;
    let srgb = read::<regs::RbSrgbCntl>(regs)? >> index & 1 != 0;
    let samples = dest_samples(regs)?;
    let pitch =
        u64::from(regs::RbMrtPitch::from_raw(read_at::<regs::RbMrtPitch>(regs, index)? as u32).0);
    let array_pitch =
        regs::RbMrtArrayPitch::from_raw(read_at::<regs::RbMrtArrayPitch>(regs, index)? as u32).0;
    let base = read_at::<regs::RbMrtBase>(regs, index)? + u64::from(layer) * array_pitch;
    let flags = if compressed {
        let p = regs::RbMrtFlagBufferPitch::from_raw(read_at::<regs::RbMrtFlagBufferPitch>(
            regs, index,
        )? as u32);
        let addr = read_at::<regs::RbMrtFlagBufferAddr>(regs, index)?;
        Some((
            addr + u64::from(layer) * u64::from(p.array_pitch),
            u64::from(p.pitch),
        ))
    } else {
        None
    };
    Surface::new(
        SurfaceDesc {
            base,
            format,
            swap,
            srgb,
            tile_mode,
            pitch,
            samples: sample_count(samples),
            extent: None,
            flags,
            mutable,
        },
        info,
    )
}

/// A depth or stencil buffer's surface: no swap, sRGB or size.
fn depth_stencil_desc(
    base: u64,
    format: A6xxFormat,
    tile_mode: A6xxTileMode,
    pitch: u64,
    samples: A3xxMsaaSamples,
    flags: Option<(u64, u64)>,
) -> SurfaceDesc {
    SurfaceDesc {
        base,
        format,
        swap: A3xxColorSwap::WZYX,
        srgb: false,
        tile_mode,
        pitch,
        samples: sample_count(samples),
        extent: None,
        flags,
        mutable: false,
    }
}

/// RB_DEPTH_BUFFER_INFO (and on a6xx RB_RENDER_CNTL's flag): format, tile
/// mode, UBWC.
fn depth_info(regs: &RegisterFile) -> Result<(A6xxDepthFormat, A6xxTileMode, bool), SurfaceError> {
    Ok(match regs.chip() {
        Chip::A6xx => {
            let d =
                a6xx::RbDepthBufferInfo::from_raw(read::<a6xx::RbDepthBufferInfo>(regs)? as u32);
            let cntl = a6xx::RbRenderCntl::from_raw(read::<a6xx::RbRenderCntl>(regs)? as u32);
            (d.depth_format, A6xxTileMode::TILE6_3, cntl.flag_depth)
        }
        Chip::A7xx => {
            let d =
                a7xx::RbDepthBufferInfo::from_raw(read::<a7xx::RbDepthBufferInfo>(regs)? as u32);
            (d.depth_format, d.tilemode, d.losslesscompen)
        }
    })
}

/// The colour format with a depth format's bytes, for its surface's
/// elements.
pub fn depth_element(format: A6xxDepthFormat) -> A6xxFormat {
    match format {
        A6xxDepthFormat::DEPTH6_16 => A6xxFormat::FMT6_16_UNORM,
        A6xxDepthFormat::DEPTH6_24_8 => A6xxFormat::FMT6_Z24_UNORM_S8_UINT,
        _ => A6xxFormat::FMT6_32_FLOAT,
    }
}

/// The depth buffer, layer `layer`: RB_DEPTH_BUFFER_INFO, PITCH,
/// ARRAY_PITCH, BASE, RB_DEST_MSAA_CNTL's samples, and the flags when UBWC
/// is on. The surface's elements are depth texels of the returned format.
pub fn depth_buffer(
    regs: &RegisterFile,
    info: &GpuInfo,
    layer: u32,
) -> Result<(Surface, DepthFormat), SurfaceError> {
    let (format, tile_mode, compressed) = depth_info(regs)?;
    let depth = DepthFormat::new(format)?;
    let element = depth_element(format);
    let samples = dest_samples(regs)?;
    let pitch = u64::from(
        regs::RbDepthBufferPitch::from_raw(read::<regs::RbDepthBufferPitch>(regs)? as u32).0,
    );
    let array_pitch = regs::RbDepthBufferArrayPitch::from_raw(
        read::<regs::RbDepthBufferArrayPitch>(regs)? as u32,
    )
    .0;
    let base = read::<regs::RbDepthBufferBase>(regs)? + u64::from(layer) * array_pitch;
    let flags = if compressed {
        let p = regs::RbDepthFlagBufferPitch::from_raw(
            read::<regs::RbDepthFlagBufferPitch>(regs)? as u32
        );
        let addr = read::<regs::RbDepthFlagBufferBase>(regs)?;
        Some((
            addr + u64::from(layer) * u64::from(p.array_pitch),
            u64::from(p.pitch),
        ))
    } else {
        None
    };
    let desc = depth_stencil_desc(base, element, tile_mode, pitch, samples, flags);
    Ok((Surface::new(desc, info)?, depth))
}

/// RB_STENCIL_INFO: whether stencil is separate, and its tile mode.
fn stencil_info(regs: &RegisterFile) -> Result<(bool, A6xxTileMode), SurfaceError> {
    Ok(match regs.chip() {
        Chip::A6xx => {
            let s = a6xx::RbStencilInfo::from_raw(read::<a6xx::RbStencilInfo>(regs)? as u32);
            (s.separate_stencil, A6xxTileMode::TILE6_3)
        }
        Chip::A7xx => {
            let s = a7xx::RbStencilInfo::from_raw(read::<a7xx::RbStencilInfo>(regs)? as u32);
            (s.separate_stencil, s.tilemode)
        }
    })
}

/// The separate stencil buffer, layer `layer`, when RB_STENCIL_INFO has
/// SEPARATE_STENCIL (None otherwise): 8-bit stencil texels at
/// RB_STENCIL_BUFFER_BASE, never compressed.
pub fn stencil_buffer(
    regs: &RegisterFile,
    info: &GpuInfo,
    layer: u32,
) -> Result<Option<Surface>, SurfaceError> {
    let (separate, tile_mode) = stencil_info(regs)?;
    if !separate {
        return Ok(None);
    }
    let samples = dest_samples(regs)?;
    let pitch = u64::from(
        regs::RbStencilBufferPitch::from_raw(read::<regs::RbStencilBufferPitch>(regs)? as u32).0,
    );
    let array_pitch = u64::from(
        regs::RbStencilBufferArrayPitch::from_raw(
            read::<regs::RbStencilBufferArrayPitch>(regs)? as u32
        )
        .0,
    );
    let base = read::<regs::RbStencilBufferBase>(regs)? + u64::from(layer) * array_pitch;
    let desc = depth_stencil_desc(
        base,
        A6xxFormat::FMT6_8_UINT,
        tile_mode,
        pitch,
        samples,
        None,
    );
    Surface::new(desc, info).map(Some)
}

/// What RB_BLIT_DST_INFO says, on either chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolveInfo {
    pub format: A6xxFormat,
    pub tile_mode: A6xxTileMode,
    pub swap: A3xxColorSwap,
    pub samples: u32,
    pub flags: bool,
    pub mutable: bool,
    /// UNK15, whose meaning is not public.
    pub unk15: bool,
}

/// RB_BLIT_DST_INFO: the format of a blit event's GMEM side and the layout
/// of its memory side.
pub fn resolve_info(regs: &RegisterFile) -> Result<ResolveInfo, SurfaceError> {
    macro_rules! info {
        ($t:ty, $mutable:expr) => {{
            let i = <$t>::from_raw(read::<$t>(regs)? as u32);
            ResolveInfo {
                format: i.color_format,
                tile_mode: i.tile_mode,
                swap: i.color_swap,
                samples: sample_count(i.samples),
                flags: i.flags,
                mutable: $mutable(&i),
                unk15: i.unk15,
            }
        }};
    }
    Ok(match regs.chip() {
        Chip::A6xx => info!(a6xx::RbBlitDstInfo, |_: &a6xx::RbBlitDstInfo| false),
        Chip::A7xx => info!(a7xx::RbBlitDstInfo, |i: &a7xx::RbBlitDstInfo| i.mutableen),
    })
}

/// The memory side of a blit event (what a resolve stores to, a restore
/// loads from, an a7xx sysmem clear fills): RB_BLIT_DST_INFO, RB_BLIT_DST,
/// RB_BLIT_DST_PITCH, and RB_BLIT_FLAG_DST(_PITCH) when FLAGS is set.
pub fn resolve_destination(
    regs: &RegisterFile,
    info: &GpuInfo,
    i: &ResolveInfo,
) -> Result<Surface, SurfaceError> {
    let flags = if i.flags {
        let p = regs::RbBlitFlagDstPitch::from_raw(read::<regs::RbBlitFlagDstPitch>(regs)? as u32);
        Some((read::<regs::RbBlitFlagDst>(regs)?, u64::from(p.pitch)))
    } else {
        None
    };
    Surface::new(
        SurfaceDesc {
            base: read::<regs::RbBlitDst>(regs)?,
            format: i.format,
            swap: i.swap,
            srgb: false,
            tile_mode: i.tile_mode,
            pitch: u64::from(
                regs::RbBlitDstPitch::from_raw(read::<regs::RbBlitDstPitch>(regs)? as u32).0,
            ),
            samples: i.samples,
            extent: None,
            flags,
            mutable: i.mutable,
        },
        info,
    )
}

/// Colour target `index` in GMEM, laid out for `bin`: RB_MRT[index]'s
/// format, RB_SRGB_CNTL, RB_DEST_MSAA_CNTL, and RB_MRT[index].BASE_GMEM.
/// Its tile mode, swap, UBWC, pitch and base are memory's and play no part
/// (GMEM holds components in WZYX order; see `crate::gmem`).
pub fn color_target_in_gmem(
    regs: &RegisterFile,
    info: &GpuInfo,
    index: u32,
    bin: &Bin,
) -> Result<Surface, SurfaceError> {
    let (format, ..) = color_info(regs, index)?;
    let srgb = read::<regs::RbSrgbCntl>(regs)? >> index & 1 != 0;
    let samples = sample_count(dest_samples(regs)?);
    let base = regs::RbMrtBaseGmem::from_raw(read_at::<regs::RbMrtBaseGmem>(regs, index)? as u32);
    bin.surface(format, samples, u64::from(base.0), srgb, info)
}

/// The depth buffer in GMEM, laid out for `bin`: RB_DEPTH_BUFFER_INFO's
/// format and RB_DEPTH_BUFFER_BASE_GMEM.
pub fn depth_buffer_in_gmem(
    regs: &RegisterFile,
    info: &GpuInfo,
    bin: &Bin,
) -> Result<(Surface, DepthFormat), SurfaceError> {
    let (format, ..) = depth_info(regs)?;
    let depth = DepthFormat::new(format)?;
    let samples = sample_count(dest_samples(regs)?);
    let base =
        regs::RbDepthBufferBaseGmem::from_raw(read::<regs::RbDepthBufferBaseGmem>(regs)? as u32);
    let surface = bin.surface(
        depth_element(format),
        samples,
        u64::from(base.0),
        false,
        info,
    )?;
    Ok((surface, depth))
}

/// The separate stencil buffer in GMEM, when RB_STENCIL_INFO has
/// SEPARATE_STENCIL: 8-bit texels at RB_STENCIL_BUFFER_BASE_GMEM.
pub fn stencil_buffer_in_gmem(
    regs: &RegisterFile,
    info: &GpuInfo,
    bin: &Bin,
) -> Result<Option<Surface>, SurfaceError> {
    let (separate, _) = stencil_info(regs)?;
    if !separate {
        return Ok(None);
    }
    let samples = sample_count(dest_samples(regs)?);
    let base = regs::RbStencilBufferBaseGmem::from_raw(
        read::<regs::RbStencilBufferBaseGmem>(regs)? as u32,
    );
    bin.surface(
        A6xxFormat::FMT6_8_UINT,
        samples,
        u64::from(base.0),
        false,
        info,
    )
    .map(Some)
}
