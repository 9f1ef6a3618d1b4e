//! How a framebuffer is cut into bins, and the bins grouped into VSC
//! pipes.
//!
//! Bins are all the same size, a multiple of the GPU's tile alignment
//! (tile_align_w x tile_align_h of the catalogue, the width perhaps
//! doubled by the GMEM layout) and at most tile_max_w x tile_max_h, with
//! no more pixels than GMEM holds for the pass's attachments. The
//! framebuffer starts as one bin, rounded up to the alignment (Turnip's
//! a660 stream bins a 64x64 framebuffer as one 96x64 bin); a bin too wide
//! or too tall for the hardware, or too large for GMEM, is split: the
//! longer side first. Bins run from the framebuffer's top-left corner,
//! row by row; the last column and row may reach past its edges (the
//! window scissor and the resolve scissor keep the pixels outside from
//! being drawn or stored).
//!
//! The binning pass writes visibility per VSC pipe, each pipe covering a
//! rectangle of bins; there are num_vsc_pipes of them, so pipes start as
//! one bin and grow (the narrower side first) until they are few enough.

use parsnip_hw_state::vsc::VscPipe;
use parsnip_registers::gpu::GpuInfo as CatalogueEntry;

use super::gmem_layout::GmemLayout;

/// One bin: its top-left pixel and size (which may reach past the
/// framebuffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bin {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// A framebuffer's bins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BinLayout {
    pub bin_width: u32,
    pub bin_height: u32,
    /// Bins across and down.
    pub columns: u32,
    pub rows: u32,
    /// Bins a VSC pipe covers across and down, and pipes across and down.
    pub pipe_width: u32,
    pub pipe_height: u32,
    pub pipe_columns: u32,
    pub pipe_rows: u32,
}

impl BinLayout {
    /// The bins of a `width` x `height` framebuffer whose attachments are
    /// laid out in GMEM as `gmem` says; `min_bins` bins across and down at
    /// least (as far as the alignment allows: `PARSNIP_DEBUG=forcebin`
    /// asks for 2).
    pub fn new(
        gpu: &CatalogueEntry,
        gmem: &GmemLayout,
        width: u32,
        height: u32,
        min_bins: u32,
    ) -> Result<BinLayout, String> {
        let (align_w, align_h) = (gmem.tile_align_w, gpu.tile_align_h);
        let bin_w = |n: u32| width.div_ceil(n).next_multiple_of(align_w);
        let bin_h = |n: u32| height.div_ceil(n).next_multiple_of(align_h);
        let (mut across, mut down) = (min_bins.max(1), min_bins.max(1));
        while bin_w(across) > gpu.tile_max_w {
            across += 1;
        }
        while bin_h(down) > gpu.tile_max_h {
            down += 1;
        }
        while u64::from(bin_w(across)) * u64::from(bin_h(down)) > u64::from(gmem.bin_pixels) {
            if bin_w(across) == align_w && bin_h(down) == align_h {
                return Err(format!(
                    "GMEM holds {} pixels of the pass's attachments, less than one {align_w}x{align_h} bin",
                    gmem.bin_pixels
                ));
            }
            if bin_w(across) > bin_h(down) {
                across += 1;
            } else {
                down += 1;
            }
        }
        let (bin_width, bin_height) = (bin_w(across), bin_h(down));
        let columns = width.div_ceil(bin_width);
        let rows = height.div_ceil(bin_height);
        let (mut pipe_width, mut pipe_height) = (1, 1);
        while columns.div_ceil(pipe_width) * rows.div_ceil(pipe_height) > gpu.num_vsc_pipes {
            if pipe_width < pipe_height {
                pipe_width += 1;
            } else {
                pipe_height += 1;
            }
        }
        Ok(BinLayout {
            bin_width,
            bin_height,
            columns,
            rows,
            pipe_width,
            pipe_height,
            pipe_columns: columns.div_ceil(pipe_width),
            pipe_rows: rows.div_ceil(pipe_height),
        })
    }

    /// Every bin, row by row.
    pub fn bins(&self) -> impl Iterator<Item = Bin> + '_ {
        (0..self.rows).flat_map(move |r| {
            (0..self.columns).map(move |c| Bin {
                x: c * self.bin_width,
                y: r * self.bin_height,
                width: self.bin_width,
                height: self.bin_height,
            })
        })
    }

    /// Each VSC pipe's bins: first column and row, columns and rows (the
    /// last pipes of a row or column may have fewer), pipe by pipe, row by
    /// row (VSC_PIPE_CONFIG's X, Y, W, H).
    pub fn pipes(&self) -> Vec<VscPipe> {
        let mut pipes = Vec::new();
        for py in 0..self.pipe_rows {
            for px in 0..self.pipe_columns {
                let (x, y) = (px * self.pipe_width, py * self.pipe_height);
                let w = self.pipe_width.min(self.columns - x);
                let h = self.pipe_height.min(self.rows - y);
                pipes.push(VscPipe {
                    x,
                    y,
                    width: w,
                    height: h,
                });
            }
        }
        pipes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiling::gmem_layout::GmemAttachment;
    use parsnip_registers::gpu;

    fn layout(gpu: &CatalogueEntry, cpps: &[u32]) -> GmemLayout {
        let a: Vec<_> = cpps
            .iter()
            .map(|&bytes_per_pixel| Some(GmemAttachment { bytes_per_pixel }))
            .collect();
        GmemLayout::new(gpu, &a).unwrap()
    }

    #[test]
    fn odd_sizes_get_aligned_bins_covering_them() {
        for name in ["a660", "a740"] {
            let g = gpu::by_name(name).unwrap();
            let l = layout(g, &[4, 2]);
            for (w, h) in [(1, 1), (65, 33), (4097, 3)] {
                let b = BinLayout::new(g, &l, w, h, 1).unwrap();
                assert_eq!(b.bin_width % g.tile_align_w, 0);
                assert_eq!(b.bin_height % g.tile_align_h, 0);
                assert!(b.bin_width <= g.tile_max_w && b.bin_height <= g.tile_max_h);
                assert!(b.columns * b.bin_width >= w && b.rows * b.bin_height >= h);
                assert!((b.columns - 1) * b.bin_width < w && (b.rows - 1) * b.bin_height < h);
                assert_eq!(b.bins().count() as u32, b.columns * b.rows);
            }
            let one = BinLayout::new(g, &l, 1, 1, 1).unwrap();
            assert_eq!((one.columns, one.rows), (1, 1));
        }
    }

    #[test]
    fn a_large_framebuffer_is_split_until_each_bin_fits_gmem() {
        let g = gpu::by_name("a660").unwrap();
        // Four RGBA32F attachments: 64 bytes a pixel.
        let l = layout(g, &[16, 16, 16, 16]);
        let b = BinLayout::new(g, &l, 4096, 4096, 1).unwrap();
        assert!(b.bin_width * b.bin_height <= l.bin_pixels, "{b:?}");
        assert!(b.columns * b.rows > 1);
        // Pipes cover every bin once, and are no more than the GPU has.
        let pipes = b.pipes();
        assert!(pipes.len() as u32 <= g.num_vsc_pipes);
        let covered: u32 = pipes.iter().map(|p| p.width * p.height).sum();
        assert_eq!(covered, b.columns * b.rows);
    }
}
