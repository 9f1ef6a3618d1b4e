//! UBWC (Qualcomm's lossless colour compression) as the model stores it.
//!
//! The hardware's compressed encoding is not public, so the model chooses
//! its own, which every unit that reads or writes a UBWC surface shares
//! through [`super::Surface`]:
//! - The data of a compressed block stays in the surface's TILE6_3 layout,
//!   uncompressed: the model's "compression" is the identity.
//! - The flag (metadata) buffer holds one byte per UBWC block, at
//!   `flags + (y / block height) * flag pitch + x / block width`. The block
//!   sizes are fdl6's (`fdl6_get_ubwc_blockwidth`), so the bytes stay inside
//!   the flag buffer a driver laid out by Mesa's rules. A block the model
//!   wrote compressed holds [`COMPRESSED`]; 0 (what fresh memory holds) is
//!   an uncompressed block. Any other value was written by something else,
//!   and since the hardware's encoding is not public, reading it is an
//!   error.
//! - The address space remembers which 256-byte data tiles hold compressed
//!   blocks ([`CompressedTiles`]), so that an access that does not use the
//!   flags is caught: reading a compressed surface without its flags is an
//!   error (on hardware it reads garbage), and writing one without its
//!   flags marks the tile, so that a later compressed read of it, whose
//!   flags still say compressed, is an error too. The record of a tile
//!   lapses when its flag byte no longer holds [`COMPRESSED`] (the memory
//!   was reused) or its buffer is unmapped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;

/// The flag byte of a block the model wrote compressed.
pub const COMPRESSED: u8 = 0xc3;

/// UBWC block extent in pixels for a surface (fdl6_get_ubwc_blockwidth):
/// `cpp` bytes a pixel with all its samples.
pub fn block_extent(cpp: u32, samples: u32, r8g8: bool, y8: bool) -> Option<(u32, u32)> {
    if r8g8 {
        return Some((16, 8));
    }
    if y8 {
        return Some((32, 8));
    }
    if samples > 1 && cpp / samples <= 2 {
        return match samples {
            2 => Some((8, 4)),
            4 => Some((4, 4)),
            8 => Some((4, 2)),
            _ => None,
        };
    }
    match cpp {
        1 | 2 | 4 => Some((16, 4)),
        8 => Some((8, 4)),
        16 => Some((4, 4)),
        32 => Some((4, 2)),
        _ => None,
    }
}

/// A surface's flag buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagBuffer {
    pub base: u64,
    /// Bytes from one row of flag bytes to the next.
    pub pitch: u64,
    /// The pixels one flag byte covers.
    pub block: (u32, u32),
}

impl FlagBuffer {
    /// Where the flag byte of pixel (x, y) is.
    pub fn byte_address(&self, x: u32, y: u32) -> u64 {
        self.base + u64::from(y / self.block.1) * self.pitch + u64::from(x / self.block.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    flag: u64,
    /// Written since without the flags.
    overwritten: bool,
}

/// The 256-byte data tiles that hold compressed blocks, by address.
#[derive(Default)]
pub struct CompressedTiles {
    any: AtomicBool,
    tiles: Mutex<HashMap<u64, Record>>,
}

/// The tile a data address is in.
pub fn tile_of(address: u64) -> u64 {
    address & !0xff
}

/// What the record says about a data tile read or written without flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plain {
    /// No compressed block there.
    Clear,
    /// The tile holds a compressed block whose flag byte is at this address.
    Compressed { flag: u64 },
}

impl CompressedTiles {
    /// Records that the tile at `tile` was written compressed, its flag byte
    /// at `flag`.
    pub fn mark_compressed(&self, tile: u64, flag: u64) {
        self.any.store(true, Ordering::Relaxed);
        self.tiles.lock().insert(
            tile,
            Record {
                flag,
                overwritten: false,
            },
        );
    }

    /// The record of `tile`, if it has one: the flag byte it was written
    /// with and whether it was overwritten without flags since.
    pub fn record(&self, tile: u64) -> Option<(u64, bool)> {
        if !self.any.load(Ordering::Relaxed) {
            return None;
        }
        self.tiles
            .lock()
            .get(&tile)
            .map(|r| (r.flag, r.overwritten))
    }

    /// Whether `tile` is recorded compressed (and not overwritten since), so
    /// that a plain access must check its flag byte.
    pub fn plain_access(&self, tile: u64) -> Plain {
        match self.record(tile) {
            Some((flag, false)) => Plain::Compressed { flag },
            _ => Plain::Clear,
        }
    }

    /// Notes a plain write over a compressed tile.
    pub fn mark_overwritten(&self, tile: u64) {
        if let Some(r) = self.tiles.lock().get_mut(&tile) {
            r.overwritten = true;
        }
    }

    /// Drops the record of `tile` (its flag byte changed: reused memory).
    pub fn forget(&self, tile: u64) {
        self.tiles.lock().remove(&tile);
    }

    /// Drops the records of tiles, and of flag bytes, in `start..end` (an
    /// unmapped buffer).
    pub fn forget_range(&self, start: u64, end: u64) {
        if !self.any.load(Ordering::Relaxed) {
            return;
        }
        self.tiles
            .lock()
            .retain(|&tile, r| !(start..end).contains(&tile) && !(start..end).contains(&r.flag));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_are_fdl6s() {
        assert_eq!(block_extent(4, 1, false, false), Some((16, 4)));
        assert_eq!(block_extent(1, 1, false, false), Some((16, 4)));
        assert_eq!(block_extent(8, 1, false, false), Some((8, 4)));
        assert_eq!(block_extent(16, 1, false, false), Some((4, 4)));
        assert_eq!(block_extent(2, 1, true, false), Some((16, 8)));
        assert_eq!(block_extent(1, 1, false, true), Some((32, 8)));
        // 2-byte pixels at 4x: 8 bytes, but the small-pixel MSAA sizes.
        assert_eq!(block_extent(8, 4, false, false), Some((4, 4)));
        assert_eq!(block_extent(64, 1, false, false), None);
    }

    #[test]
    fn records_lapse_with_their_buffer() {
        let t = CompressedTiles::default();
        assert_eq!(t.plain_access(0x1000), Plain::Clear);
        t.mark_compressed(0x1000, 0x800);
        assert_eq!(t.plain_access(0x1000), Plain::Compressed { flag: 0x800 });
        t.mark_overwritten(0x1000);
        assert_eq!(t.plain_access(0x1000), Plain::Clear);
        assert_eq!(t.record(0x1000), Some((0x800, true)));
        t.mark_compressed(0x1100, 0x801);
        t.forget_range(0x800, 0x900);
        assert_eq!(t.record(0x1100), None);
    }
}
