//! GMEM: the GPU's on-chip tile memory, and the bin the registers say is
//! in it.
//!
//! - [`Gmem`]: the memory itself, `gmem_bytes` of the GPU catalogue
//!   (Mesa's freedreno_devices.py), addressed by byte offset. Registers
//!   name offsets into it (`RB_BLIT_BASE_GMEM`, `RB_MRT[i].BASE_GMEM`,
//!   `RB_DEPTH_BUFFER_BASE_GMEM`, `RB_STENCIL_BUFFER_BASE_GMEM`), and the
//!   UCHE (the texture unit, shader loads) reads it through an aperture of
//!   the GPU's address space, which the kernel places at MSM_PARAM_GMEM_BASE
//!   when it programs UCHE_GMEM_RANGE_MIN/MAX at start-up (msm's
//!   a6xx_gpu.c), so whoever plays the kernel maps it
//!   ([`crate::Gpu::map_gmem_aperture`]). Its contents belong to the GPU,
//!   not to a context, and start as zeros.
//! - [`bin`]: the bin rectangle (`RB_BIN_CONTROL2` and `RB_WINDOW_OFFSET2`
//!   for the resolve engine, `RB_BIN_CONTROL` and `RB_WINDOW_OFFSET` for
//!   rendering) and how a pixel of the framebuffer finds its place in GMEM.
//! - [`resolve`]: the blit events that clear GMEM, load it from memory and
//!   store (resolve) it to memory.
//!
//! The layout of a surface in GMEM is not public (drivers call it
//! TILE6_2). The model's choice: the bin's pixels row by row, a row being
//! the bin's width times the bytes of a pixel with all its samples, each
//! pixel's samples one after the other. It matches what drivers program
//! for the texture unit when they sample GMEM (a pitch of the bin width
//! times the pixel size, Turnip's tu_clear_blit.cc and tu_cmd_buffer.cc),
//! and every unit of the model that touches GMEM goes through
//! [`bin::Bin::surface`], so they all agree.

pub mod bin;
pub mod resolve;

use std::sync::Arc;

use parsnip_registers::gpu::GpuInfo;

use crate::memory::{AddressSpace, Backing, OwnedBacking};
use crate::surface::SurfaceError;

/// The on-chip tile memory of one GPU.
pub struct Gmem {
    /// GMEM as an address space of its own, offset 0 being its first byte,
    /// so that surfaces in it are read and written like any other.
    memory: Result<AddressSpace, String>,
    /// The same bytes, for the aperture in the GPU's address space.
    backing: Option<Arc<OwnedBacking>>,
    bytes: u32,
}

impl Gmem {
    /// The GMEM of `info`, zeroed.
    pub fn new(info: &GpuInfo) -> Self {
        let bytes = info.gmem_bytes;
        let backing = OwnedBacking::zeroed(bytes as usize)
            .map(Arc::new)
            .map_err(|e| format!("GMEM of {bytes} bytes could not be allocated: {e}"));
        let memory = backing.clone().and_then(|backing| {
            let space = AddressSpace::new();
            space
                .map(0, backing)
                .map_err(|e| format!("GMEM could not be mapped: {e}"))?;
            Ok(space)
        });
        Self {
            memory,
            backing: backing.ok(),
            bytes,
        }
    }

    /// GMEM's bytes as a buffer to map into an address space, if it has
    /// any.
    pub(crate) fn backing(&self) -> Option<Arc<dyn Backing>> {
        self.backing
            .clone()
            .filter(|_| self.bytes != 0)
            .map(|b| b as Arc<dyn Backing>)
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> u32 {
        self.bytes
    }

    /// GMEM's bytes, addressed by GMEM offset.
    pub fn memory(&self) -> Result<&AddressSpace, SurfaceError> {
        if self.bytes == 0 {
            return Err(SurfaceError::Invalid(
                "this GPU has no GMEM, and a unit used it".into(),
            ));
        }
        self.memory
            .as_ref()
            .map_err(|why| SurfaceError::NotModelled(why.clone()))
    }

    /// Reads `out.len()` bytes at GMEM offset `offset` (for tools and tests).
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), SurfaceError> {
        self.memory()?
            .read(offset, out)
            .map_err(|f| past_end(self.bytes, f.iova))
    }
}

/// The error for an access at GMEM offset `at`, which is past its end.
pub(crate) fn past_end(bytes: u32, at: u64) -> SurfaceError {
    SurfaceError::Invalid(format!(
        "GMEM offset {at:#x} is past the end of the GPU's {bytes:#x} bytes of GMEM"
    ))
}
