//! What a tool sees after each piece of rendering work: the model calls a
//! [`WorkObserver`] after every draw, blit event and CP_BLIT, with a
//! [`WorkDone`] that renders the bound colour targets as RGBA8 images, so a
//! trace can be looked at step by step (`parsnip-replay --draw-images`).
//!
//! The targets are RB_MRT[0 .. RB_FS_OUTPUT_CNTL1.MRT] whose BUF_INFO was
//! programmed, as the RB sees them: in a bin pass
//! ([`crate::gmem::bin::render_bin`]) the bin's pixels come from GMEM
//! (RB_MRT[i].BASE_GMEM) and the rest from the target in memory, which
//! holds what earlier bins stored; otherwise all from memory. The image
//! covers the framebuffer from (0, 0) to GRAS_SC_SCREEN_SCISSOR[0]'s
//! bottom-right corner (drivers set it to the render area or the
//! application's scissor), or before any draw programmed it to
//! GRAS_SC_WINDOW_SCISSOR's (the render area in sysmem, the bin in a bin
//! pass); sample 0 of each pixel is shown, sRGB targets encoded back to
//! sRGB, integer ones clamped to 255.

use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::regs::{self, ArrayRegister, Register};
use parsnip_registers::Chip;

use crate::gmem::bin::render_bin;
use crate::gmem::Gmem;
use crate::memory::AddressSpace;
use crate::register_file::RegisterFile;
use crate::surface::format::{linear_to_srgb, Texel};
use crate::surface::registers::{color_target, color_target_in_gmem};
use crate::surface::{Surface, SurfaceError};

/// The largest image a capture makes, per side (the largest framebuffer).
const MAX_SIDE: u32 = 16384;

/// The kind of work just done, and its number among the submit's work
/// of that kind (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    Draw(u32),
    /// A BLIT event (GMEM clear, load or store).
    BlitEvent(u32),
    /// CP_BLIT (the 2D engine).
    Blit2d(u32),
}

/// Called after each piece of work.
pub type WorkObserver = Box<dyn FnMut(&WorkDone) + Send>;

/// One colour target as an image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetImage {
    /// RB_MRT index.
    pub target: u32,
    pub width: u32,
    pub height: u32,
    /// RGBA8, row 0 first.
    pub rgba: Vec<u8>,
}

/// The GPU's state just after `work`.
pub struct WorkDone<'a> {
    pub work: Work,
    pub(crate) regs: &'a RegisterFile,
    pub(crate) memory: &'a AddressSpace,
    pub(crate) gmem: &'a Gmem,
    pub(crate) info: &'static GpuInfo,
}

/// A register's value with no strict check (0 if never written).
fn raw<R: Register>(regs: &RegisterFile) -> u32 {
    R::offset(regs.chip()).map_or(0, |o| regs.read(o))
}

fn raw_at<R: ArrayRegister>(regs: &RegisterFile, i: u32) -> Option<u32> {
    let o = R::offset(regs.chip(), i).ok()?;
    regs.is_programmed(o).then(|| regs.read(o))
}

impl WorkDone<'_> {
    /// The framebuffer size the images cover.
    fn extent(&self) -> (u32, u32) {
        let (x, y) = match raw_at::<regs::GrasScScreenScissorBr>(self.regs, 0) {
            Some(raw) => {
                let s = regs::GrasScScreenScissorBr::from_raw(raw);
                (s.x, s.y)
            }
            None => {
                let w = regs::GrasScWindowScissorBr::from_raw(raw::<regs::GrasScWindowScissorBr>(
                    self.regs,
                ));
                (w.x, w.y)
            }
        };
        ((x + 1).min(MAX_SIDE), (y + 1).min(MAX_SIDE))
    }

    /// The bound colour targets, each as an image.
    pub fn color_targets(&self) -> Result<Vec<TargetImage>, SurfaceError> {
        let mrt = regs::RbFsOutputCntl1::from_raw(raw::<regs::RbFsOutputCntl1>(self.regs)).mrt;
        let bin = render_bin(self.regs)?;
        let (width, height) = self.extent();
        let mut images = Vec::new();
        for i in 0..mrt.min(crate::rb::TARGETS as u32) {
            let programmed = match self.regs.chip() {
                Chip::A6xx => raw_at::<regs::a6xx::RbMrtBufInfo>(self.regs, i),
                Chip::A7xx => raw_at::<regs::a7xx::RbMrtBufInfo>(self.regs, i),
            };
            if programmed.is_none() {
                continue;
            }
            let in_memory = match raw_at::<regs::RbMrtBase>(self.regs, i) {
                Some(_) => Some(color_target(self.regs, self.info, i, 0)?),
                None => None,
            };
            let in_gmem = match &bin {
                Some(b) => Some((b, color_target_in_gmem(self.regs, self.info, i, b)?)),
                None => None,
            };
            let mut rgba = vec![0u8; (width * height * 4) as usize];
            for y in 0..height {
                for x in 0..width {
                    let texel = match &in_gmem {
                        Some((b, s)) if contains(&b.rect(), x, y) => {
                            let (lx, ly) = b.local(x, y);
                            Some(pixel(s, self.gmem.memory()?, lx, ly)?)
                        }
                        _ => match &in_memory {
                            Some(s) => Some(pixel(s, self.memory, x, y)?),
                            None => None,
                        },
                    };
                    if let Some(p) = texel {
                        let at = ((y * width + x) * 4) as usize;
                        rgba[at..at + 4].copy_from_slice(&p);
                    }
                }
            }
            images.push(TargetImage {
                target: i,
                width,
                height,
                rgba,
            });
        }
        Ok(images)
    }
}

fn contains(r: &crate::gmem::bin::PixelRect, x: u32, y: u32) -> bool {
    (r.x0..=r.x1).contains(&x) && (r.y0..=r.y1).contains(&y)
}

/// Sample 0 of pixel (x, y) of `s` as RGBA8.
fn pixel(s: &Surface, memory: &AddressSpace, x: u32, y: u32) -> Result<[u8; 4], SurfaceError> {
    let srgb = s.desc.srgb;
    Ok(match s.read_texel(memory, x, y, 0)? {
        Texel::Float(v) => std::array::from_fn(|c| {
            let l = if srgb && c < 3 {
                linear_to_srgb(v[c])
            } else {
                v[c]
            };
            (l.clamp(0.0, 1.0) * 255.0).round() as u8
        }),
        Texel::Int(v) => std::array::from_fn(|c| v[c].min(255) as u8),
    })
}
