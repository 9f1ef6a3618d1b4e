//! Where the LRZ unit keeps things in memory: the LRZ buffer of 16-bit
//! depths, one per block of pixels, and the fast-clear buffer after it
//! with its bit per group of LRZ pixels and the direction-tracking
//! metadata.
//!
//! - The LRZ buffer (GRAS_LRZ_BUFFER_BASE): one Z16_UNORM value per LRZ
//!   pixel, `PITCH` LRZ pixels a row, `ARRAY_PITCH` bytes a layer
//!   (GRAS_LRZ_BUFFER_PITCH, a6xx.xml). An LRZ pixel covers 8x8 pixels of
//!   a single-sampled buffer; the buffer is super-sampled with MSAA, so
//!   with 2 samples it covers 8x4 pixels, with 4 samples 4x4 and with 8
//!   samples 4x2 (the sizes fdl6_lrz_layout_init in freedreno_lrz_layout.h
//!   gives: height doubled for 2 samples, width and height for 4, height
//!   again for 8). The model addresses LRZ pixels row by row over the
//!   pitch, which is how Turnip clears the buffer (a linear Z16 blit of
//!   `PITCH * 2` bytes a row, tu_lrz.cc); any order of the values within
//!   a uniformly cleared buffer looks the same to a driver.
//! - The fast-clear buffer (GRAS_LRZ_FAST_CLEAR_BUFFER_BASE): one bit per
//!   16x4 LRZ pixels, 0 while they still hold the clear value, 1 once
//!   written ("appears to store 1b/block", a6xx.xml; the 16x4 blocks are
//!   freedreno_lrz_layout.h's nblocksx/nblocksy). It is 512 bytes on a6xx;
//!   a7xx has two of 1024 bytes for the two CP threads (BV and BR), of
//!   which the model's single thread uses the first (freedreno_lrz.h,
//!   fd_lrzfc_layout). The bit order within the bytes is not public: the
//!   model numbers blocks row by row over the pitch, low bit first, which
//!   only the model reads back.
//! - Metadata after the fast-clear bits (freedreno_lrz.h): the direction
//!   byte (0 disabled, 1 less, 2 greater, 3 not set yet, fd_lrz_gpu_dir)
//!   and the GRAS_LRZ_DEPTH_VIEW the buffer was cleared for; on a7xx also
//!   the clear depth (GRAS_LRZ_CLEAR_DEPTH_F32) fast-cleared blocks hold.

use parsnip_registers::Chip;

/// Pixels (x, y) one LRZ pixel covers for `samples` samples per pixel.
pub(crate) fn lrz_pixel_size(samples: usize) -> (u32, u32) {
    match samples {
        2 => (8, 4),
        4 => (4, 4),
        8 => (4, 2),
        _ => (8, 8),
    }
}

/// LRZ pixels one fast-clear bit covers.
pub(crate) const FC_BLOCK: (u32, u32) = (16, 4);

/// The direction byte's values (fd_lrz_gpu_dir, freedreno_lrz.h).
pub(crate) mod direction {
    pub const DISABLED: u8 = 0;
    pub const LESS: u8 = 1;
    pub const GREATER: u8 = 2;
    pub const NOT_SET: u8 = 3;
}

/// Offsets within the fast-clear buffer, per generation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastClearLayout {
    /// Bytes of fast-clear bits the BR thread uses, from offset 0.
    pub bits: u64,
    /// Further ranges of fast-clear bits that LRZ_CLEAR also clears (the BV
    /// thread's and a7xx's second-direction buffers).
    pub other_bits: &'static [(u64, u64)],
    pub direction: u64,
    pub depth_view: u64,
    /// a7xx: the clear depth, as an f32.
    pub clear_depth: Option<u64>,
}

impl FastClearLayout {
    pub fn of(chip: Chip) -> FastClearLayout {
        match chip {
            // fc1[512], then dir_track, a pad byte and the depth view.
            Chip::A6xx => FastClearLayout {
                bits: 512,
                other_bits: &[],
                direction: 512,
                depth_view: 514,
                clear_depth: None,
            },
            // fc1_a[1024], fc1_b[1024], 512 bytes of metadata (dir_track
            // at 0, the depth view at 48, the clear depth at 56), 1536
            // of padding, fc2_a and fc2_b.
            Chip::A7xx => FastClearLayout {
                bits: 1024,
                other_bits: &[(1024, 1024), (4096, 2048)],
                direction: 2048,
                depth_view: 2048 + 48,
                clear_depth: Some(2048 + 56),
            },
        }
    }
}

/// The LRZ buffer's geometry from GRAS_LRZ_BUFFER_*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LrzLayout {
    pub base: u64,
    /// LRZ pixels a row.
    pub pitch: u32,
    /// Bytes a layer.
    pub array_pitch: u32,
    /// Pixels an LRZ pixel covers.
    pub pixel: (u32, u32),
}

impl LrzLayout {
    /// The LRZ pixel holding framebuffer pixel (x, y).
    pub fn lrz_pixel(&self, x: u32, y: u32) -> (u32, u32) {
        (x / self.pixel.0, y / self.pixel.1)
    }

    /// The address of LRZ pixel (lx, ly) of `layer`, `None` past the pitch.
    pub fn address(&self, layer: u32, lx: u32, ly: u32) -> Option<u64> {
        (lx < self.pitch).then(|| {
            self.base
                + u64::from(layer) * u64::from(self.array_pitch)
                + (u64::from(ly) * u64::from(self.pitch) + u64::from(lx)) * 2
        })
    }

    /// The fast-clear bit of LRZ pixel (lx, ly) of `layer`: byte offset
    /// and bit.
    pub fn fast_clear_bit(&self, layer: u32, lx: u32, ly: u32) -> (u64, u32) {
        let per_row = self.pitch.div_ceil(FC_BLOCK.0);
        let rows = (self.array_pitch / (self.pitch.max(1) * 2)).div_ceil(FC_BLOCK.1);
        let index = u64::from(layer) * u64::from(per_row * rows)
            + u64::from(ly / FC_BLOCK.1) * u64::from(per_row)
            + u64::from(lx / FC_BLOCK.0);
        (index / 8, (index % 8) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_and_fast_clear_bits_by_hand() {
        // Turnip's a660 depth_bias_cull stream: PITCH 32, ARRAY_PITCH 2048.
        let l = LrzLayout {
            base: 0x1000,
            pitch: 32,
            array_pitch: 2048,
            pixel: lrz_pixel_size(1),
        };
        assert_eq!(l.lrz_pixel(17, 63), (2, 7));
        assert_eq!(l.address(0, 2, 7), Some(0x1000 + (7 * 32 + 2) * 2));
        assert_eq!(l.address(1, 0, 0), Some(0x1000 + 2048));
        assert_eq!(l.address(0, 32, 0), None);
        // Two blocks a row (32 / 16); LRZ pixel (17, 5) is in block row 1,
        // column 1: block 3.
        assert_eq!(l.fast_clear_bit(0, 17, 5), (0, 3));
        // 32 rows a layer: 8 block rows of 2, 16 bits a layer.
        assert_eq!(l.fast_clear_bit(1, 0, 0), (2, 0));
        assert_eq!(lrz_pixel_size(4), (4, 4));
    }
}
