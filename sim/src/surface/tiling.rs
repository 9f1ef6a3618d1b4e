//! Where an element of a surface lies in memory, per tile mode.
//!
//! `TILE6_LINEAR`: rows of `pitch` bytes.
//!
//! `TILE6_3` (facts from the description in Mesa's fd6_tiled_memcpy.cc;
//! the code here is the model's own), four levels:
//! 1. 256-byte tiles of 256/cpp pixels, the pixel's index interleaving its
//!    coordinate bits from the lowest: x0 y0 x1 y1 x2 x3 x4 y2 (as many as
//!    the tile holds), so a tile is 32x8 pixels at 1 byte, 32x4 at 2, 16x4
//!    at 4, 8x4 at 8, 4x4 at 16 and 4x2 at 32 bytes a pixel. Samples of a
//!    pixel are stored together (cpp counts them all).
//! 2. 2 KiB macrotiles of 2x4 tiles, the tile's index within one being
//!    b0 = x0 ^ y1, b1 = x0 ^ y1 ^ y0, b2 = x0 ^ y0 (tile coordinates); below
//!    16 bytes a pixel, b1 ^= x1 in the 4-channel macrotile mode, and also
//!    b2 ^= x2 ^ y2 in the 8-channel mode the kernel picks on newer parts.
//! 3. Pairs of macrotiles side by side, x1 giving b3: 4 KiB macrotiles of
//!    4x4 tiles, laid out in rows.
//! 4. Bank swizzling: where the stride between macrotile rows is a multiple
//!    of 2^(hbb + k) bytes (hbb the highest bank bit, one more for 1-byte
//!    pixels), bits of the macrotile row are xor'ed into the offset: bit 0
//!    into hbb - 1 (level 2, k = 0), bit 1 into hbb (level 3, k = 1), bit 2
//!    into hbb + 1 (level 1, k = 2), for the levels the kernel enables.
//!
//! Single-sampled R8G8 surfaces hold each 16x8 block as a 32x8 R8 tile,
//! red in the left half and green in the right: [`super::Surface`] reads
//! them as an R8 surface of twice the width.
//!
//! `TILE6_2` is the layout of surfaces in GMEM, which is not public; the
//! model's choice is in `crate::gmem`.

use parsnip_registers::gpu::GpuInfo;

/// The kernel's UBWC and bank configuration of a GPU, which TILE6_3
/// addresses depend on (RBBM_NC_MODE_CNTL and the *_NC_MODE_CNTL registers
/// the kernel programs; the msm driver's `a6xx_calc_ubwc_config`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankConfig {
    pub highest_bank_bit: u32,
    pub eight_channel: bool,
    /// Bit 0: level 1, bit 1: level 2, bit 2: level 3.
    pub swizzle_levels: u32,
}

impl BankConfig {
    pub fn of(info: &GpuInfo) -> Self {
        Self {
            highest_bank_bit: info.highest_bank_bit,
            eight_channel: info.ubwc_macrotile_8_channel,
            swizzle_levels: info.ubwc_bank_swizzle_levels,
        }
    }
}

/// The index of pixel (x, y) within its 256-byte tile.
fn pixel_index(x: u32, y: u32) -> u32 {
    (x & 1)
        | (y & 1) << 1
        | (x >> 1 & 1) << 2
        | (y >> 1 & 1) << 3
        | (x >> 2 & 7) << 4
        | (y >> 2 & 1) << 7
}

/// The geometry of one TILE6_3 surface: its pixel size, pitch and the
/// bank swizzle its pitch selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Macrotiled {
    /// Bytes of a pixel (all its samples).
    pub cpp: u32,
    /// Pixels of a 256-byte tile, as log2 width and height.
    tile_w_log2: u32,
    tile_h_log2: u32,
    eight_channel: bool,
    /// Bytes from one row of macrotiles to the next.
    macrotile_pitch: u64,
    /// Which macrotile-row bits are xor'ed in, and where bit 0 goes.
    bank_mask: u32,
    bank_shift: u32,
}

impl Macrotiled {
    /// The geometry for `cpp`-byte pixels in rows of `pitch` bytes, or why
    /// the hardware cannot lay such a surface out.
    pub fn new(cpp: u32, pitch: u64, banks: BankConfig) -> Result<Self, String> {
        if !matches!(cpp, 1 | 2 | 4 | 8 | 16 | 32) {
            return Err(format!(
                "a TILE6_3 surface of {cpp}-byte pixels: the tiled layout is known for 1 to 32 \
                 bytes a pixel (powers of two) only"
            ));
        }
        // The tile's pixel count fixes how many interleaved bits it uses.
        let bits = (256 / cpp).trailing_zeros();
        const IS_Y: [bool; 8] = [false, true, false, true, false, false, false, true];
        let tile_h_log2 = IS_Y[..bits as usize].iter().filter(|&&y| y).count() as u32;
        let tile_w_log2 = bits - tile_h_log2;
        // A 4 KiB macrotile is 4x4 tiles.
        let macrotile_row_bytes = u64::from(4u32 << tile_w_log2) * u64::from(cpp);
        if pitch == 0 || !pitch.is_multiple_of(macrotile_row_bytes) {
            return Err(format!(
                "a TILE6_3 pitch of {pitch} bytes for {cpp}-byte pixels: it must be a multiple of \
                 a macrotile's width, {macrotile_row_bytes} bytes"
            ));
        }
        let stride = pitch / macrotile_row_bytes;
        // 1-byte pixels need the stride aligned twice as much.
        let extra = u32::from(cpp == 1);
        let hbb = banks.highest_bank_bit;
        let aligned = |k: u32| stride.is_multiple_of(1u64 << (hbb + extra + k - 12));
        let mut bank_mask = 0;
        if banks.swizzle_levels & 2 != 0 && aligned(0) {
            bank_mask |= 1;
        }
        if banks.swizzle_levels & 4 != 0 && aligned(1) {
            bank_mask |= 2;
        }
        if banks.swizzle_levels & 1 != 0 && aligned(2) {
            bank_mask |= 4;
        }
        Ok(Self {
            cpp,
            tile_w_log2,
            tile_h_log2,
            eight_channel: banks.eight_channel,
            macrotile_pitch: stride * 4096,
            bank_mask,
            bank_shift: hbb - 1,
        })
    }

    /// Pixels of a 256-byte tile: (width, height).
    pub fn tile_extent(&self) -> (u32, u32) {
        (1 << self.tile_w_log2, 1 << self.tile_h_log2)
    }

    /// The byte offset of pixel (x, y) from the surface's base.
    pub fn offset(&self, x: u32, y: u32) -> u64 {
        let xb = x >> self.tile_w_log2;
        let yb = y >> self.tile_h_log2;
        let within = pixel_index(
            x & ((1 << self.tile_w_log2) - 1),
            y & ((1 << self.tile_h_log2) - 1),
        );
        let small = self.cpp < 16;
        // Tile-index bits from x: b0..b2 from x0, the 4-channel b1 ^= x1
        // (8-channel: also b2 ^= x2), b3 = x1 and the macrotile column above.
        let x_swizzle = match (small, self.eight_channel) {
            (false, _) => 0,
            (true, false) => xb & 0b010,
            (true, true) => xb & 0b110,
        };
        let x_bits = ((xb & 1) * 0b111) ^ x_swizzle ^ ((xb >> 1) << 3);
        let y_swizzle = if small && self.eight_channel {
            yb & 0b100
        } else {
            0
        };
        let y_bits = ((yb & 1) * 0b110) ^ ((yb >> 1 & 1) * 0b011) ^ y_swizzle;
        let row = yb >> 2;
        let bank = u64::from(row & self.bank_mask) << self.bank_shift;
        let tile = (u64::from(x_bits ^ y_bits) << 8) ^ bank;
        tile + u64::from(row) * self.macrotile_pitch + u64::from(within * self.cpp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A660: BankConfig = BankConfig {
        highest_bank_bit: 16,
        eight_channel: true,
        swizzle_levels: 0x6,
    };

    /// Offsets worked out by hand from the rules in the module doc (not
    /// from the code): 4-byte pixels, 16x4-pixel tiles.
    #[test]
    fn four_byte_pixels_follow_the_published_rules() {
        let t = Macrotiled::new(4, 256, A660).unwrap();
        assert_eq!(t.tile_extent(), (16, 4));
        // Within a tile: x0 y0 x1 y1 x2 x3.
        assert_eq!(t.offset(1, 0), 4);
        assert_eq!(t.offset(0, 1), 8);
        assert_eq!(t.offset(2, 0), 16);
        assert_eq!(t.offset(4, 0), 64);
        // (15, 3): x bits in b0 b2 b4 b5, y bits in b1 b3: index 63.
        assert_eq!(t.offset(15, 3), 63 * 4);
        // Tile (1, 0): x0 = 1 sets b0, b1 and b2: tile 7.
        assert_eq!(t.offset(16, 0), 7 * 256);
        // Tile (0, 1): y0 sets b1 and b2: tile 6.
        assert_eq!(t.offset(0, 4), 6 * 256);
        assert_eq!(t.offset(16, 4), 256);
        // Tile (2, 0): x1 sets b1 (below 16 bytes a pixel) and b3: 10.
        assert_eq!(t.offset(32, 0), 10 * 256);
        // Tile (0, 2): y1 sets b0 and b1: 3.
        assert_eq!(t.offset(0, 8), 3 * 256);
        // Tile (0, 4): the next macrotile row (16 rows of 256 bytes down),
        // and y2 sets b2 in the 8-channel mode.
        assert_eq!(t.offset(0, 16), 4096 + 4 * 256);
        // Tile (4, 0): the next 4 KiB macrotile, and x2 sets b2.
        assert_eq!(t.offset(64, 0), 4096 + 4 * 256);
    }

    #[test]
    fn the_4_channel_mode_leaves_x2_and_y2_alone() {
        let four = BankConfig {
            highest_bank_bit: 15,
            eight_channel: false,
            swizzle_levels: 0x6,
        };
        let t = Macrotiled::new(4, 256, four).unwrap();
        assert_eq!(t.offset(0, 16), 4096);
        assert_eq!(t.offset(64, 0), 4096);
        assert_eq!(t.offset(32, 0), 10 * 256);
    }

    #[test]
    fn sixteen_byte_pixels_skip_the_small_pixel_swizzle() {
        let t = Macrotiled::new(16, 1024, A660).unwrap();
        assert_eq!(t.tile_extent(), (4, 4));
        // Tile (2, 0): only b3 from x1.
        assert_eq!(t.offset(8, 0), 8 * 256);
        // Tile (0, 4): the next macrotile row, no y2 swizzle.
        assert_eq!(t.offset(0, 16), 16 * 1024);
    }

    #[test]
    fn other_pixel_sizes_have_their_tile_shapes() {
        let shape = |cpp, pitch| Macrotiled::new(cpp, pitch, A660).unwrap().tile_extent();
        assert_eq!(shape(1, 128), (32, 8));
        assert_eq!(shape(2, 256), (32, 4));
        assert_eq!(shape(8, 512), (8, 4));
        assert_eq!(shape(32, 2048), (4, 2));
        // 1-byte pixels: (31, 7) has every interleaved bit set.
        assert_eq!(Macrotiled::new(1, 128, A660).unwrap().offset(31, 7), 255);
    }

    #[test]
    fn aligned_strides_swizzle_banks() {
        // 1024 pixels of 4 bytes: macrotile rows 64 KiB = 2^16 apart, so
        // level 2 moves bit 0 of the macrotile row into bit 15; level 3
        // would need 2^17.
        let t = Macrotiled::new(4, 4096, A660).unwrap();
        assert_eq!(t.offset(0, 16), 0x10000 + ((4 * 256) ^ 0x8000));
        assert_eq!(t.offset(0, 32), 0x20000);
        // 2048 pixels: rows 2^17 apart, levels 2 and 3.
        let t = Macrotiled::new(4, 8192, A660).unwrap();
        assert_eq!(
            t.offset(0, 48),
            3 * 0x20000 + ((4 * 256) ^ 0x8000 ^ 0x10000)
        );
        // 1-byte pixels need twice the alignment: 4096 pixels of 1 byte
        // are rows of 2^17 bytes, only level 2.
        let t = Macrotiled::new(1, 4096, A660).unwrap();
        assert_eq!(t.offset(0, 32), 0x20000 + ((4 * 256) ^ 0x8000));
    }

    #[test]
    fn impossible_geometries_are_refused() {
        assert!(Macrotiled::new(3, 256, A660).is_err());
        assert!(Macrotiled::new(64, 4096, A660).is_err());
        let e = Macrotiled::new(4, 320, A660).unwrap_err();
        assert!(
            e.contains("multiple of a macrotile's width, 256 bytes"),
            "{e}"
        );
    }
}
