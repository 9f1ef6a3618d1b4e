//! Where a render pass's attachments live in GMEM.
//!
//! GMEM is cut into blocks of 8 tile-aligned pixel rows' worth of bytes
//! (8 x tile_align_w x tile_align_h bytes: 12 KiB on a660, 24 KiB on a740,
//! a multiple of the 4 KiB the BASE_GMEM registers address), and each
//! attachment the pass draws to gets a run of whole blocks in proportion
//! to its bytes a pixel, in attachment order, so that every attachment
//! holds the same number of pixels. The bin may then have as many pixels
//! as the tightest attachment holds. This is the layout Turnip's GMEM
//! streams show: on a660 an RGBA8 colour and a D16 depth attachment sit
//! at 0 and 0xff000 (85 of 128 blocks of 12 KiB for 4 of the 6 bytes a
//! pixel), two RGBA8 colours at 0 and 0xc0000; on a740 the same at 0 and
//! 0x1fe000, and 0 and 0x180000 (depth_bias_cull_gmem.log,
//! input_attachment_gmem.log). The whole of GMEM is used, as Turnip's
//! streams use it for passes whose draws write no memory through the CCU
//! (the CCU keeps its caches in GMEM).
//!
//! An attachment of 8n bytes a pixel or more takes a multiple of n
//! blocks, as Turnip's do, so that its share stays a whole number of
//! tile-aligned rows of its pixels.

use parsnip_registers::gpu::GpuInfo as CatalogueEntry;

/// Blocks are this many rows of tile-aligned pixels (log2).
const BLOCK_ROWS_LOG2: u32 = 3;

/// One attachment as GMEM sees it: bytes a pixel, all samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GmemAttachment {
    pub bytes_per_pixel: u32,
}

/// The GMEM offsets of a pass's attachments and the bin pixels they allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GmemLayout {
    /// Per attachment of the pass: its GMEM offset, or `None` for one the
    /// pass does not keep in GMEM.
    pub offsets: Vec<Option<u32>>,
    /// The most pixels a bin may have.
    pub bin_pixels: u32,
    /// What bin widths must be multiples of: the GPU's tile alignment,
    /// doubled when an attachment of one byte a pixel would otherwise
    /// have a row pitch that is not a multiple of 64 bytes (the texture
    /// unit's pitch alignment, for reading it as an input attachment).
    pub tile_align_w: u32,
}

/// Why a pass's attachments do not fit GMEM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoesNotFit(pub String);

impl GmemLayout {
    /// The layout of `attachments` (per attachment of the pass, `None` for
    /// one not in GMEM) on `gpu`.
    pub fn new(
        gpu: &CatalogueEntry,
        attachments: &[Option<GmemAttachment>],
    ) -> Result<GmemLayout, DoesNotFit> {
        if gpu.gmem_bytes == 0 {
            return Err(DoesNotFit(format!("the {} has no GMEM", gpu.name)));
        }
        let used = || attachments.iter().flatten();
        let mut tile_align_w = gpu.tile_align_w;
        let mut rows_log2 = BLOCK_ROWS_LOG2;
        if used().any(|a| a.bytes_per_pixel == 1) && !tile_align_w.is_multiple_of(64) {
            tile_align_w *= 2;
            rows_log2 -= 1;
        }
        let block = (1 << rows_log2) * tile_align_w * gpu.tile_align_h;
        let mut bytes_left: u32 = used().map(|a| a.bytes_per_pixel).sum();
        if bytes_left == 0 {
            // Nothing in GMEM: any bin size does.
            return Ok(GmemLayout {
                offsets: vec![None; attachments.len()],
                bin_pixels: u32::MAX,
                tile_align_w,
            });
        }
        let mut blocks_left = gpu.gmem_bytes / block;
        let mut offset = 0;
        let mut bin_pixels = u32::MAX;
        let mut offsets = Vec::with_capacity(attachments.len());
        for a in attachments {
            let Some(a) = a else {
                offsets.push(None);
                continue;
            };
            let cpp = a.bytes_per_pixel;
            let align = (cpp >> BLOCK_ROWS_LOG2).max(1);
            let share = u64::from(blocks_left) * u64::from(cpp) / u64::from(bytes_left);
            let blocks = ((share as u32) & !(align - 1)).max(align);
            if blocks > blocks_left {
                return Err(DoesNotFit(format!(
                    "{} attachments of {} bytes a pixel in all do not fit the {} KiB of GMEM",
                    used().count(),
                    used().map(|a| a.bytes_per_pixel).sum::<u32>(),
                    gpu.gmem_bytes / 1024
                )));
            }
            offsets.push(Some(offset));
            blocks_left -= blocks;
            bytes_left -= cpp;
            offset += blocks * block;
            bin_pixels = bin_pixels.min(blocks * block / cpp);
        }
        Ok(GmemLayout {
            offsets,
            bin_pixels,
            tile_align_w,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    fn px(bytes_per_pixel: u32) -> Option<GmemAttachment> {
        Some(GmemAttachment { bytes_per_pixel })
    }

    #[test]
    fn attachments_share_gmem_by_their_bytes_a_pixel_as_turnip_lays_them() {
        // The offsets of Turnip's streams (see the module's doc; the
        // traces themselves are read by tests/gmem_layout_vs_turnip.rs).
        let a660 = gpu::by_name("a660").unwrap();
        let a740 = gpu::by_name("a740").unwrap();
        for (g, depth, second) in [(a660, 0xff000, 0xc0000), (a740, 0x1fe000, 0x180000)] {
            let l = GmemLayout::new(g, &[px(4), px(2)]).unwrap();
            assert_eq!(l.offsets, vec![Some(0), Some(depth)], "{}", g.name);
            let l = GmemLayout::new(g, &[px(4), None, px(4)]).unwrap();
            assert_eq!(l.offsets, vec![Some(0), None, Some(second)], "{}", g.name);
            assert_eq!(l.tile_align_w, 96);
            // Each RGBA8 half holds its pixels.
            assert_eq!(l.bin_pixels, second / 4);
        }
    }

    #[test]
    fn too_many_bytes_do_not_fit_and_one_byte_doubles_the_alignment() {
        let a660 = gpu::by_name("a660").unwrap();
        // 128 blocks: 129 attachments cannot each have one.
        let many = vec![px(4); 129];
        let e = GmemLayout::new(a660, &many).unwrap_err();
        assert!(e.0.contains("do not fit"), "{e:?}");
        let l = GmemLayout::new(a660, &[px(1)]).unwrap();
        assert_eq!(l.tile_align_w, 192);
        assert_eq!(l.offsets, vec![Some(0)]);
        let none = GmemLayout::new(a660, &[None]).unwrap();
        assert_eq!(none.offsets, vec![None]);
    }
}
