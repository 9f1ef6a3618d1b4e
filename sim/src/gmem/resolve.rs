//! The resolve engine: what a BLIT event (CP_EVENT_WRITE BLIT on a6xx,
//! CP_EVENT_WRITE7 BLIT on a7xx) does with the `RB_BLIT_*` state.
//!
//! RB_BLIT_INFO.TYPE says what (a6xx.xml's a6xx_blit_event_type):
//! - CLEAR: fill a GMEM surface with RB_BLIT_CLEAR_COLOR_DW0-3;
//! - STORE: copy a GMEM surface to memory, resolving samples when memory
//!   has fewer (a "resolve");
//! - STORE_AND_CLEAR: both, in that order;
//! - LOAD: copy memory into GMEM (a "restore" or "unresolve").
//!
//! The GMEM side is the surface at RB_BLIT_BASE_GMEM, in RB_BLIT_DST_INFO's
//! format, with RB_BLIT_GMEM_MSAA_CNTL's samples, laid out for the bin of
//! RB_BIN_CONTROL2 at RB_WINDOW_OFFSET2 (see [`super::bin`]). The memory
//! side is RB_BLIT_DST with RB_BLIT_DST_INFO's tile mode, swap and samples,
//! and its UBWC flags when FLAGS is set. The pixels are those of
//! RB_BLIT_SCISSOR_TL/BR (framebuffer coordinates) inside the bin: a bin at
//! the framebuffer's edge resolves only what the scissor keeps, and a
//! scissor that misses the bin does nothing.
//!
//! Facts the model follows:
//! - The clear value is the GMEM element's bits, little-endian from DW0
//!   (Turnip's tu_pack_clear_value packs the components one after the
//!   other, in WZYX order, into the four dwords).
//! - CLEAR_MASK is a component mask; with DEPTH set it is 1 for depth and
//!   2 for stencil (a6xx.xml's doc of RB_BLIT_INFO). Turnip clears D24S8
//!   without DEPTH through its RGBA8 alias, depth being components 0-2 and
//!   stencil component 3 ("component_mask is 0x7 for depth and 0x8 for
//!   stencil"): the same bytes either way.
//! - SAMPLE_0: a resolve takes sample 0 instead of averaging (a6xx.xml).
//!   The model averages normalized and float formats in their stored
//!   encoding (RB_BLIT_DST_INFO has no sRGB bit); averaging integers or
//!   depth is not public, so those resolves need SAMPLE_0.
//! - A memory side with a swap other than WZYX is reordered on the way, by
//!   component.
//! - a7xx's RB_BLIT_CLEAR_MODE = CLEAR_MODE_SYSMEM makes a CLEAR fill the
//!   memory side instead of GMEM (Turnip clears sysmem attachments so on
//!   a7xx); the bin plays no part then, only the scissor.
//!
//! Not public, each an error naming it: RB_BLIT_DST_INFO.UNK15, a nonzero
//! RB_UNKNOWN_88D0 on a clear, sample counts that neither match nor
//! resolve to one, and a sysmem clear with a swap. LAST and BUFFER_ID only
//! group resolves for the CCU's scheduling; they change no byte.

use parsnip_registers::enums::{A3xxColorSwap, A6xxBlitEventType, A6xxFormat};
use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::regs::{self, Register};
use parsnip_registers::Chip;

use super::bin::{Bin, PixelRect};
use super::Gmem;
use crate::memory::AddressSpace;
use crate::register_file::RegisterFile;
use crate::surface::format::{format_name, NumberClass, Texel};
use crate::surface::registers::{resolve_destination, resolve_info};
use crate::surface::{sample_count, Surface, SurfaceError};

fn read<R: Register>(regs: &RegisterFile) -> Result<u32, SurfaceError> {
    Ok(regs.programmed::<R>()? as u32)
}

fn not_public(what: impl Into<String>) -> SurfaceError {
    SurfaceError::NotModelled(what.into())
}

/// Runs one BLIT event on the state in `regs`.
pub fn blit_event(
    regs: &RegisterFile,
    memory: &AddressSpace,
    gmem: &Gmem,
    info: &GpuInfo,
) -> Result<(), SurfaceError> {
    let blit = regs::RbBlitInfo::from_raw(read::<regs::RbBlitInfo>(regs)?);
    let dst_info = resolve_info(regs)?;
    if dst_info.unk15 {
        return Err(not_public(
            "RB_BLIT_DST_INFO.UNK15: what it does is not public",
        ));
    }
    let scissor = {
        let tl = regs::RbBlitScissorTl::from_raw(read::<regs::RbBlitScissorTl>(regs)?);
        let br = regs::RbBlitScissorBr::from_raw(read::<regs::RbBlitScissorBr>(regs)?);
        PixelRect {
            x0: tl.x,
            y0: tl.y,
            x1: br.x,
            y1: br.y,
        }
    };
    let clears = matches!(
        blit.r#type,
        A6xxBlitEventType::BLIT_EVENT_CLEAR | A6xxBlitEventType::BLIT_EVENT_STORE_AND_CLEAR
    );
    let clear = if clears {
        let unknown = read::<regs::RbUnknown88d0>(regs)?;
        if unknown != 0 {
            return Err(not_public(format!(
                "RB_UNKNOWN_88D0 = {unknown:#x} on a clear: what it does is not public (drivers \
                 write 0)"
            )));
        }
        Some(ClearValue::read(regs, &blit, dst_info.format)?)
    } else {
        None
    };

    if regs.chip() == Chip::A7xx && clears {
        use parsnip_registers::enums::A7xxBlitClearMode;
        let mode = regs::RbBlitClearMode::from_raw(read::<regs::RbBlitClearMode>(regs)?);
        if mode.clear_mode == A7xxBlitClearMode::CLEAR_MODE_SYSMEM {
            if blit.r#type != A6xxBlitEventType::BLIT_EVENT_CLEAR {
                return Err(not_public(
                    "a STORE_AND_CLEAR blit event in CLEAR_MODE_SYSMEM: what it stores from is \
                     not public",
                ));
            }
            let dst = resolve_destination(regs, info, &dst_info)?;
            if dst.desc.swap != A3xxColorSwap::WZYX {
                return Err(not_public(
                    "a CLEAR_MODE_SYSMEM clear of a swapped surface: how the clear value is \
                     ordered then is not public",
                ));
            }
            let value = clear.as_ref().expect("clears read the value");
            return fill(&dst, memory, scissor, None, value);
        }
    }

    let bin = Bin::for_resolve(regs)?;
    let samples = sample_count(
        regs::RbBlitGmemMsaaCntl::from_raw(read::<regs::RbBlitGmemMsaaCntl>(regs)?).samples,
    );
    let base = u64::from(regs::RbBlitBaseGmem::from_raw(read::<regs::RbBlitBaseGmem>(regs)?).0);
    let gmem_surface = bin.surface(dst_info.format, samples, base, false, info)?;
    let footprint = bin.footprint(gmem_surface.element.bytes * samples);
    if base + footprint > u64::from(gmem.bytes()) {
        return Err(SurfaceError::Invalid(format!(
            "a blit event's GMEM surface at {base:#x} of {footprint:#x} bytes ({}x{} pixels of \
             {}, {samples} samples) runs past the GPU's {:#x} bytes of GMEM",
            bin.width,
            bin.height,
            format_name(dst_info.format),
            gmem.bytes()
        )));
    }
    let gmem_memory = gmem.memory()?;
    let Some(area) = scissor.intersect(&bin.rect()) else {
        return Ok(());
    };
    let side = GmemSide {
        surface: &gmem_surface,
        memory: gmem_memory,
        bin,
    };
    match blit.r#type {
        A6xxBlitEventType::BLIT_EVENT_CLEAR => {
            let value = clear.as_ref().expect("clears read the value");
            fill(side.surface, side.memory, area, Some(bin), value)?;
        }
        A6xxBlitEventType::BLIT_EVENT_STORE | A6xxBlitEventType::BLIT_EVENT_STORE_AND_CLEAR => {
            let dst = resolve_destination(regs, info, &dst_info)?;
            store(&side, &dst, memory, area, blit.sample_0 || blit.depth)?;
            if let Some(value) = &clear {
                fill(side.surface, side.memory, area, Some(bin), value)?;
            }
        }
        A6xxBlitEventType::BLIT_EVENT_LOAD => {
            let src = resolve_destination(regs, info, &dst_info)?;
            load(&side, &src, memory, area)?;
        }
        other => {
            return Err(SurfaceError::Invalid(format!(
                "RB_BLIT_INFO.TYPE {}: no such blit event",
                other.0
            )))
        }
    }
    Ok(())
}

/// The GMEM surface of a blit event and the bin it is laid out for.
struct GmemSide<'a> {
    surface: &'a Surface,
    memory: &'a AddressSpace,
    bin: Bin,
}

/// The element a clear writes and which of its bits.
struct ClearValue {
    bytes: [u8; 16],
    /// The bits of the element written.
    mask: u128,
    len: usize,
}

impl ClearValue {
    fn read(
        regs: &RegisterFile,
        blit: &regs::RbBlitInfo,
        format: A6xxFormat,
    ) -> Result<ClearValue, SurfaceError> {
        let words = [
            read::<regs::RbBlitClearColorDw0>(regs)?,
            read::<regs::RbBlitClearColorDw1>(regs)?,
            read::<regs::RbBlitClearColorDw2>(regs)?,
            read::<regs::RbBlitClearColorDw3>(regs)?,
        ];
        let mut bytes = [0u8; 16];
        for (i, w) in words.iter().enumerate() {
            bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        let len = crate::surface::format::element_layout(format)?.bytes as usize;
        let all = if len >= 16 {
            u128::MAX
        } else {
            (1u128 << (8 * len)) - 1
        };
        let m = blit.clear_mask as u8;
        let mask = if blit.depth {
            depth_clear_bits(format, m)?
        } else if m == 0xf {
            all
        } else {
            let texel = crate::surface::format::TexelFormat::new(format, A3xxColorSwap::WZYX)
                .map_err(|e| {
                    not_public(format!(
                        "a clear of components {m:#x} of {}: {}",
                        format_name(format),
                        e.0
                    ))
                })?;
            texel.component_bits(m)
        };
        Ok(ClearValue {
            bytes,
            mask: mask & all,
            len,
        })
    }

    /// `old` with the clear's bits written over it.
    fn apply(&self, old: &[u8]) -> [u8; 16] {
        let mut o = [0u8; 16];
        o[..self.len].copy_from_slice(&old[..self.len]);
        let old = u128::from_le_bytes(o);
        let new = u128::from_le_bytes(self.bytes);
        (old & !self.mask | new & self.mask).to_le_bytes()
    }

    fn is_whole(&self) -> bool {
        self.len >= 16 || self.mask == (1u128 << (8 * self.len)) - 1
    }
}

/// The bits a depth clear (RB_BLIT_INFO.DEPTH) writes: 1 depth, 2 stencil.
fn depth_clear_bits(format: A6xxFormat, mask: u8) -> Result<u128, SurfaceError> {
    let (depth, stencil): (u128, u128) = match format {
        A6xxFormat::FMT6_Z24_UNORM_S8_UINT
        | A6xxFormat::FMT6_Z24_UINT_S8_UINT
        | A6xxFormat::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8 => (0x00ff_ffff, 0xff00_0000),
        A6xxFormat::FMT6_16_UNORM => (0xffff, 0),
        A6xxFormat::FMT6_32_FLOAT => (0xffff_ffff, 0),
        A6xxFormat::FMT6_8_UINT => (0, 0xff),
        other => {
            return Err(SurfaceError::Invalid(format!(
                "a depth clear (RB_BLIT_INFO.DEPTH) of {}, which is no depth or stencil format",
                format_name(other)
            )))
        }
    };
    if mask & !3 != 0 {
        return Err(not_public(format!(
            "a depth clear with CLEAR_MASK {mask:#x}: only 1 (depth) and 2 (stencil) are known"
        )));
    }
    Ok(if mask & 1 != 0 { depth } else { 0 } | if mask & 2 != 0 { stencil } else { 0 })
}

/// Writes the clear into every sample of `area` of `surface` (in bin
/// coordinates when `bin` is given).
fn fill(
    surface: &Surface,
    memory: &AddressSpace,
    area: PixelRect,
    bin: Option<Bin>,
    value: &ClearValue,
) -> Result<(), SurfaceError> {
    let mut old = [0u8; 16];
    for (x, y) in area.pixels() {
        let (lx, ly) = bin.map_or((x, y), |b| b.local(x, y));
        for s in 0..surface.desc.samples {
            let new = if value.is_whole() {
                value.bytes
            } else {
                surface.read_element(memory, lx, ly, s, &mut old)?;
                value.apply(&old)
            };
            surface.write_element(memory, lx, ly, s, &new[..value.len])?;
        }
    }
    Ok(())
}

/// Whether two surfaces hold their components in the same order, so that
/// elements copy as bytes.
fn same_order(a: &Surface, b: &Surface) -> bool {
    a.desc.swap == b.desc.swap && a.desc.format == b.desc.format
}

/// Copies sample `from_sample` of (fx, fy) in `from` to sample `to_sample`
/// of (tx, ty) in `to`.
fn copy_sample(
    from: (&Surface, &AddressSpace),
    (fx, fy, from_sample): (u32, u32, u32),
    to: (&Surface, &AddressSpace),
    (tx, ty, to_sample): (u32, u32, u32),
) -> Result<(), SurfaceError> {
    if same_order(from.0, to.0) {
        let mut e = [0u8; 16];
        from.0.read_element(from.1, fx, fy, from_sample, &mut e)?;
        to.0.write_element(to.1, tx, ty, to_sample, &e[..to.0.element.bytes as usize])
    } else {
        let t = from.0.read_texel(from.1, fx, fy, from_sample)?;
        to.0.write_texel(to.1, tx, ty, to_sample, t, 0xf)
    }
}

/// STORE: GMEM to memory, resolving when memory has one sample.
fn store(
    side: &GmemSide<'_>,
    dst: &Surface,
    memory: &AddressSpace,
    area: PixelRect,
    sample_0: bool,
) -> Result<(), SurfaceError> {
    check_formats(side.surface, dst)?;
    let (gs, ds) = (side.surface.desc.samples, dst.desc.samples);
    let resolve = gs > 1 && ds == 1;
    if gs != ds && !resolve {
        return Err(not_public(format!(
            "a store of {gs}-sample GMEM to a {ds}-sample surface: only equal counts and resolves \
             to one sample are known"
        )));
    }
    let averaging = resolve && !sample_0;
    if averaging {
        let format = side.surface.texel_format()?;
        if format.is_integer() || format.class == NumberClass::DepthStencil {
            return Err(not_public(format!(
                "averaging the samples of {} (a resolve without RB_BLIT_INFO.SAMPLE_0): what the \
                 hardware does is not public",
                format_name(format.format)
            )));
        }
    }
    let from = (side.surface, side.memory);
    for (x, y) in area.pixels() {
        let (lx, ly) = side.bin.local(x, y);
        if averaging {
            let mut sum = [0f32; 4];
            for s in 0..gs {
                if let Texel::Float(v) = side.surface.read_texel(side.memory, lx, ly, s)? {
                    sum.iter_mut().zip(v).for_each(|(a, b)| *a += b);
                }
            }
            let mean = Texel::Float(sum.map(|c| c / gs as f32));
            dst.write_texel(memory, x, y, 0, mean, 0xf)?;
        } else if resolve {
            copy_sample(from, (lx, ly, 0), (dst, memory), (x, y, 0))?;
        } else {
            for s in 0..gs {
                copy_sample(from, (lx, ly, s), (dst, memory), (x, y, s))?;
            }
        }
    }
    Ok(())
}

/// LOAD: memory into GMEM, sample for sample.
fn load(
    side: &GmemSide<'_>,
    src: &Surface,
    memory: &AddressSpace,
    area: PixelRect,
) -> Result<(), SurfaceError> {
    check_formats(side.surface, src)?;
    let (gs, ms) = (side.surface.desc.samples, src.desc.samples);
    if gs != ms {
        return Err(not_public(format!(
            "a load of a {ms}-sample surface into {gs}-sample GMEM: what the hardware does is not \
             public"
        )));
    }
    let to = (side.surface, side.memory);
    for (x, y) in area.pixels() {
        let (lx, ly) = side.bin.local(x, y);
        for s in 0..gs {
            copy_sample((src, memory), (x, y, s), to, (lx, ly, s))?;
        }
    }
    Ok(())
}

/// Both sides of a store or load use RB_BLIT_DST_INFO's format, so only a
/// compressed (block) format can differ in shape.
fn check_formats(gmem: &Surface, mem: &Surface) -> Result<(), SurfaceError> {
    if gmem.element.bytes != mem.element.bytes {
        return Err(SurfaceError::Invalid(format!(
            "a blit event between {}-byte GMEM and {}-byte memory elements",
            gmem.element.bytes, mem.element.bytes
        )));
    }
    Ok(())
}
