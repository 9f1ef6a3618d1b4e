//! The index stream of a draw: generated (DI_SRC_SEL_AUTO_INDEX) or
//! fetched from an index buffer (DI_SRC_SEL_DMA) of 8, 16 or 32-bit
//! indices, with primitive restart.
//!
//! CP_DRAW_INDX_OFFSET (adreno_pm4.xml) gives the buffer's address
//! (INDX_BASE), its length in indices (MAX_INDICES) and the first index to
//! read (FIRST_INDX): index `i` of the draw is element FIRST_INDX + i of
//! the buffer. Turnip passes firstIndex there and the whole bound buffer as
//! the base and length (tu_CmdDrawIndexed). For generated indices the
//! stream is FIRST_INDX, FIRST_INDX + 1, ...; Turnip and freedreno always
//! program 0 and put firstVertex in VFD_INDEX_OFFSET instead.
//!
//! Primitive restart (PC_PRIMITIVE_CNTL_0.PRIMITIVE_RESTART) applies to
//! fetched indices equal to PC_RESTART_INDEX; Turnip programs 0xffff for
//! 16-bit indices and 0xffffffff for 32-bit ones (turnip/README.md:
//! strip_restart).
//!
//! What the hardware fetches for an index past MAX_INDICES is not publicly
//! documented, so such a draw is an error.

use parsnip_registers::enums::A4xxIndexSize;

use crate::draw_context::DrawError;
use crate::memory::AddressSpace;
use crate::report::Unit;

/// The width of fetched indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IndexSize {
    Bits8,
    Bits16,
    Bits32,
}

impl IndexSize {
    /// CP_DRAW_INDX_OFFSET's INDEX_SIZE; `None` for the value 3, which
    /// names no size.
    pub fn from_field(size: A4xxIndexSize) -> Option<IndexSize> {
        match size {
            A4xxIndexSize::INDEX4_SIZE_8_BIT => Some(IndexSize::Bits8),
            A4xxIndexSize::INDEX4_SIZE_16_BIT => Some(IndexSize::Bits16),
            A4xxIndexSize::INDEX4_SIZE_32_BIT => Some(IndexSize::Bits32),
            _ => None,
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            IndexSize::Bits8 => 1,
            IndexSize::Bits16 => 2,
            IndexSize::Bits32 => 4,
        }
    }
}

/// Where a draw's indices come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IndexSource {
    /// first, first + 1, ...
    Auto { first: u32 },
    /// Elements `first..` of the buffer of `max` indices at `base`.
    Dma {
        base: u64,
        size: IndexSize,
        first: u32,
        max: u32,
    },
}

/// One element of the index stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Index {
    Vertex(u32),
    /// A primitive restart.
    Restart,
}

/// The `count` indices of a draw, with restarts where `restart` says.
pub(crate) fn fetch(
    memory: &AddressSpace,
    source: IndexSource,
    count: u32,
    restart: Option<u32>,
) -> Result<Vec<Index>, DrawError> {
    match source {
        IndexSource::Auto { first } => Ok((0..count)
            .map(|i| Index::Vertex(first.wrapping_add(i)))
            .collect()),
        IndexSource::Dma {
            base,
            size,
            first,
            max,
        } => {
            let end = u64::from(first) + u64::from(count);
            if end > u64::from(max) {
                return Err(DrawError::not_modelled(
                    Unit::Pc,
                    format!(
                        "indices {first}..{end} of an index buffer of MAX_INDICES {max}: what \
                         the hardware fetches past the end is not publicly documented"
                    ),
                ));
            }
            let bytes = size.bytes();
            let mut raw = vec![0u8; (u64::from(count) * bytes) as usize];
            memory
                .read(base + u64::from(first) * bytes, &mut raw)
                .map_err(|f| DrawError::fault(Unit::Pc, f))?;
            let value = |i: usize| -> u32 {
                match size {
                    IndexSize::Bits8 => u32::from(raw[i]),
                    IndexSize::Bits16 => {
                        u32::from(u16::from_le_bytes([raw[2 * i], raw[2 * i + 1]]))
                    }
                    IndexSize::Bits32 => {
                        u32::from_le_bytes(raw[4 * i..4 * i + 4].try_into().unwrap())
                    }
                }
            };
            Ok((0..count as usize)
                .map(|i| {
                    let v = value(i);
                    if restart == Some(v) {
                        Index::Restart
                    } else {
                        Index::Vertex(v)
                    }
                })
                .collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::OwnedBacking;
    use std::sync::Arc;

    #[test]
    fn indices_of_each_width_and_restarts() {
        let mem = AddressSpace::new();
        let bytes = [1u8, 0, 0xff, 0xff, 3, 0, 4, 0];
        mem.map(0x1000, Arc::new(OwnedBacking::from_bytes(&bytes).unwrap()))
            .unwrap();
        let src = |size, first, max| IndexSource::Dma {
            base: 0x1000,
            size,
            first,
            max,
        };
        use Index::*;
        assert_eq!(
            fetch(&mem, src(IndexSize::Bits16, 0, 4), 4, Some(0xffff)).unwrap(),
            [Vertex(1), Restart, Vertex(3), Vertex(4)]
        );
        // Without restart 0xffff is an index like any other.
        assert_eq!(
            fetch(&mem, src(IndexSize::Bits16, 1, 4), 2, None).unwrap(),
            [Vertex(0xffff), Vertex(3)]
        );
        assert_eq!(
            fetch(&mem, src(IndexSize::Bits8, 2, 8), 3, Some(0xff)).unwrap(),
            [Restart, Restart, Vertex(3)]
        );
        assert_eq!(
            fetch(&mem, src(IndexSize::Bits32, 0, 2), 2, None).unwrap(),
            [Vertex(0xffff_0001), Vertex(0x0004_0003)]
        );
        assert!(fetch(&mem, src(IndexSize::Bits16, 2, 4), 3, None).is_err());
        assert_eq!(
            fetch(&mem, IndexSource::Auto { first: 5 }, 3, Some(6)).unwrap(),
            [Vertex(5), Vertex(6), Vertex(7)]
        );
    }
}
