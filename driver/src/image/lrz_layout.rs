//! Where a depth image keeps its LRZ (low-resolution Z) buffer: after the
//! image's planes, one Z16 value per LRZ pixel of level 0 for every layer,
//! then the fast-clear buffer with its metadata (the direction byte and
//! the depth view the buffer was cleared for) on GPUs that have either.
//!
//! The facts are freedreno's (`fdl6_lrz_layout_init`, freedreno_lrz.h's
//! `fd_lrzfc_layout`) and agree with the model's `sim/src/lrz/layout.rs`:
//!
//! - An LRZ pixel covers 8x8 pixels; the buffer is super-sampled, so the
//!   image's extent is first doubled in height for 2 samples, in width and
//!   height for 4, and in width and twice in height for 8.
//! - The pitch (LRZ pixels a row) and the rows a layer are both aligned to
//!   32; a layer is `pitch * rows * 2` bytes. A layer is thus a multiple of
//!   2 KiB, which keeps the fast-clear buffer after the last layer at the
//!   64-byte alignment GRAS_LRZ_FAST_CLEAR_BUFFER_BASE asks for.
//! - The fast-clear buffer holds one bit per 16x4 LRZ pixels; the hardware
//!   has room for 512 bytes of them on a6xx and 1024 on a7xx. A bigger
//!   image still gets the buffer (for the direction byte) but may not use
//!   fast clear. The buffer is 518 bytes on a6xx (the bits, the direction
//!   byte, a pad byte and the 32-bit depth view; 520 reserved, as Turnip
//!   reserves) and 6144 on a7xx (two
//!   1024-byte bit buffers, 512 bytes of metadata, 1536 of padding and the
//!   two bit buffers of the second direction).
//! - An image whose LRZ rows over all layers exceed what one clear blit
//!   reaches (2^14 rows) gets no LRZ buffer, as in freedreno.

use parsnip_registers::gpu::LrzFacts;
use parsnip_registers::Chip;

/// Pixels across and down one LRZ pixel covers before super-sampling.
const LRZ_PIXEL: u32 = 8;
/// Pitch and rows-a-layer alignment, in LRZ pixels.
const LRZ_ALIGN: u32 = 32;
/// LRZ pixels across and down one fast-clear bit covers.
const FC_BLOCK: (u32, u32) = (16, 4);
/// Rows one LRZ clear blit reaches.
const MAX_CLEAR_ROWS: u32 = 1 << 14;
/// GRAS_LRZ_BUFFER_BASE's alignment (a6xx.xml, `align=256`).
pub const BUFFER_ALIGN: u64 = 256;

/// The fast-clear buffer's size and its bit capacity, per generation.
fn fast_clear_buffer(chip: Chip) -> (u64, u32) {
    match chip {
        // 518 bytes of content; Turnip's images reserve 520 (the a660
        // depth_bias_cull trace's depth BO ends 520 bytes past the
        // fast-clear base).
        Chip::A6xx => (520, 512),
        Chip::A7xx => (6144, 1024),
    }
}

/// An image's LRZ buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LrzLayout {
    /// From the start of the image.
    pub offset: u64,
    /// LRZ pixels a row (GRAS_LRZ_BUFFER_PITCH.PITCH).
    pub pitch: u32,
    /// Rows a layer.
    pub rows: u32,
    /// Bytes a layer (GRAS_LRZ_BUFFER_PITCH.ARRAY_PITCH).
    pub layer_size: u32,
    pub layers: u32,
    /// The fast-clear buffer and its metadata, from the start of the image.
    pub fast_clear_offset: Option<u64>,
    /// Whether the fast-clear bits fit the hardware's buffer and the GPU
    /// fast-clears at all.
    pub fast_clear: bool,
    /// Bytes from `offset` to the end of the fast-clear buffer.
    pub size: u64,
}

/// The LRZ buffer of a depth plane of `width` x `height` pixels with
/// `samples` samples and `layers` layers, placed at `offset`; `None` when
/// it would be too tall to clear in one blit.
pub fn lrz_layout(
    offset: u64,
    width: u32,
    height: u32,
    samples: u32,
    layers: u32,
    chip: Chip,
    facts: LrzFacts,
) -> Option<LrzLayout> {
    let (w, h) = match samples {
        2 => (width, height * 2),
        4 => (width * 2, height * 2),
        8 => (width * 2, height * 4),
        _ => (width, height),
    };
    let across = w.div_ceil(LRZ_PIXEL);
    let down = h.div_ceil(LRZ_PIXEL);
    let pitch = across.next_multiple_of(LRZ_ALIGN);
    let rows = down.next_multiple_of(LRZ_ALIGN);
    if rows.checked_mul(layers)? > MAX_CLEAR_ROWS {
        return None;
    }
    let layer_size = pitch * rows * 2;
    let offset = offset.next_multiple_of(BUFFER_ALIGN);
    let mut size = u64::from(layer_size) * u64::from(layers);
    let (fc_size, fc_capacity) = fast_clear_buffer(chip);
    let blocks = across.div_ceil(FC_BLOCK.0) * down.div_ceil(FC_BLOCK.1);
    let fc_bytes = blocks.div_ceil(8) * layers;
    let fast_clear = facts.fast_clear && fc_bytes <= fc_capacity;
    let fast_clear_offset = (facts.fast_clear || facts.direction_tracking).then(|| {
        let at = offset + size;
        size += fc_size;
        at
    });
    Some(LrzLayout {
        offset,
        pitch,
        rows,
        layer_size,
        layers,
        fast_clear_offset,
        fast_clear,
        size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    fn of(gpu_name: &str, offset: u64, w: u32, h: u32, samples: u32, layers: u32) -> LrzLayout {
        let g = gpu::by_name(gpu_name).unwrap();
        lrz_layout(offset, w, h, samples, layers, g.chip, g.lrz).unwrap()
    }

    #[test]
    fn a_96x64_d16_matches_turnips_lrz_registers() {
        // depth_bias_cull_sysmem.log (a660): GRAS_LRZ_BUFFER_BASE at
        // BO + 20480, GRAS_LRZ_BUFFER_PITCH PITCH 32 ARRAY_PITCH 2048,
        // GRAS_LRZ_FAST_CLEAR_BUFFER_BASE at BO + 22528, a 23048-byte BO
        // (28672 on a740).
        let l = of("a660", 20480, 96, 64, 1, 1);
        assert_eq!((l.offset, l.pitch, l.layer_size), (20480, 32, 2048));
        assert_eq!(l.fast_clear_offset, Some(20480 + 2048));
        assert!(l.fast_clear);
        assert_eq!(l.size, 2048 + 520);
        // a7xx's fast-clear buffer is 6 KiB.
        assert_eq!(of("a740", 20480, 96, 64, 1, 1).size, 2048 + 6144);
    }

    #[test]
    fn older_gpus_have_no_fast_clear_buffer() {
        let l = of("a630", 4096, 96, 64, 1, 1);
        assert_eq!(l.fast_clear_offset, None);
        assert!(!l.fast_clear);
        assert_eq!(l.size, 2048);
    }

    #[test]
    fn samples_super_sample_the_buffer() {
        // 256x256: 32x32 LRZ pixels single-sampled; 4 samples double both,
        // 8 samples double the width and quadruple the height.
        let one = of("a660", 0, 256, 256, 1, 1);
        assert_eq!((one.pitch, one.rows), (32, 32));
        let four = of("a660", 0, 256, 256, 4, 1);
        assert_eq!((four.pitch, four.rows), (64, 64));
        let eight = of("a660", 0, 256, 256, 8, 1);
        assert_eq!((eight.pitch, eight.rows), (64, 128));
        let two = of("a660", 0, 256, 256, 2, 1);
        assert_eq!((two.pitch, two.rows), (32, 64));
    }

    #[test]
    fn too_many_fast_clear_bits_keep_the_buffer_but_not_fast_clear() {
        // 4096x4096: 512x512 LRZ pixels, 32x128 blocks = 4096 bits = 512
        // bytes: fits a6xx exactly. Two layers do not, on a6xx; on a7xx
        // (1024 bytes) they do.
        assert!(of("a660", 0, 4096, 4096, 1, 1).fast_clear);
        let two = of("a660", 0, 4096, 4096, 1, 2);
        assert!(!two.fast_clear);
        assert!(two.fast_clear_offset.is_some());
        assert!(of("a740", 0, 4096, 4096, 1, 2).fast_clear);
    }

    #[test]
    fn an_lrz_buffer_too_tall_for_one_clear_is_refused() {
        let g = gpu::by_name("a660").unwrap();
        // 16384 pixels tall: 2048 rows a layer; 8 layers reach 2^14.
        assert!(lrz_layout(0, 64, 16384, 1, 8, g.chip, g.lrz).is_some());
        assert!(lrz_layout(0, 64, 16384, 1, 9, g.chip, g.lrz).is_none());
    }

    #[test]
    fn the_buffer_is_placed_at_its_registers_alignment() {
        assert_eq!(of("a660", 4097, 16, 16, 1, 1).offset, 4096 + 256);
    }
}
