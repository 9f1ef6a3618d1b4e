//! Where the shader stages read their descriptor sets (a6xx.xml): each
//! bind point has its own bindless bases, SP_CS_BINDLESS_BASE[i] for
//! compute and SP_BINDLESS_BASE[i] for every graphics stage, each
//! mirrored on a6xx in HLSQ_CS_BINDLESS_BASE / HLSQ_BINDLESS_BASE (a7xx
//! has no HLSQ copies). After a base changes, HLSQ_INVALIDATE_CMD's
//! CS_BINDLESS or GFX_BINDLESS bit of that base drops what the SP cached
//! from the old set, as Turnip's descriptor-set state does (its a660
//! `mip_lod` stream: SP_BINDLESS_BASE[0], HLSQ_BINDLESS_BASE[0], then
//! HLSQ_INVALIDATE_CMD GFX_BINDLESS = 0x1f).
//!
//! Descriptors are 64 bytes (BINDLESS_DESCRIPTOR_64B), the size every
//! descriptor set layout uses.

use parsnip_registers::enums::A6xxBindlessDescriptorSize;
use parsnip_registers::regs::{self, a6xx, a7xx, ArrayRegister};
use parsnip_registers::Chip;

use crate::sink::PacketSink;

/// The shader stages a set of bindless bases serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindPoint {
    Compute,
    /// The vertex and fragment (and every other graphics) stage.
    Graphics,
}

/// The size of the descriptors in every set.
pub const DESCRIPTOR_SIZE: A6xxBindlessDescriptorSize =
    A6xxBindlessDescriptorSize::BINDLESS_DESCRIPTOR_64B;

/// How many bindless bases `chip` has: 5 on a6xx, 8 on a7xx (the length
/// of SP_BINDLESS_BASE and SP_CS_BINDLESS_BASE).
pub fn base_count(chip: Chip) -> u32 {
    regs::SpBindlessBaseDescriptor::layout(chip).map_or(0, |(_, _, len)| len)
}

/// A mask with a bit for every bindless base of `chip`.
pub fn all_bases(chip: Chip) -> u32 {
    (1 << base_count(chip)) - 1
}

/// Points bindless base `index` of `point` at the set whose descriptors
/// start at `iova`.
pub fn bindless_base<S: PacketSink>(
    s: &mut S,
    point: BindPoint,
    index: u32,
    iova: u64,
) -> Result<(), S::Error> {
    let a6xx = s.chip() == Chip::A6xx;
    match point {
        BindPoint::Compute => {
            s.array_reg(
                &regs::SpCsBindlessBaseDescriptor {
                    desc_size: DESCRIPTOR_SIZE,
                    addr: iova,
                },
                index,
            )?;
            if a6xx {
                s.array_reg(
                    &regs::HlsqCsBindlessBaseDescriptor {
                        desc_size: DESCRIPTOR_SIZE,
                        addr: iova,
                    },
                    index,
                )?;
            }
        }
        BindPoint::Graphics => {
            s.array_reg(
                &regs::SpBindlessBaseDescriptor {
                    desc_size: DESCRIPTOR_SIZE,
                    addr: iova,
                },
                index,
            )?;
            if a6xx {
                s.array_reg(
                    &regs::HlsqBindlessBaseDescriptor {
                        desc_size: DESCRIPTOR_SIZE,
                        addr: iova,
                    },
                    index,
                )?;
            }
        }
    }
    Ok(())
}

/// HLSQ_INVALIDATE_CMD of the bindless bases in `mask` of `point` alone.
pub fn invalidate_bindless<S: PacketSink>(
    s: &mut S,
    point: BindPoint,
    mask: u32,
) -> Result<(), S::Error> {
    let (cs, gfx) = match point {
        BindPoint::Compute => (mask, 0),
        BindPoint::Graphics => (0, mask),
    };
    match s.chip() {
        Chip::A6xx => s.reg(&a6xx::HlsqInvalidateCmd {
            cs_bindless: cs,
            gfx_bindless: gfx,
            ..Default::default()
        }),
        Chip::A7xx => s.reg(&a7xx::HlsqInvalidateCmd {
            cs_bindless: cs,
            gfx_bindless: gfx,
            ..Default::default()
        }),
    }
}

/// Binds each set of `sets` that is `Some(iova)` at its index, then
/// invalidates them: the whole of a bind point's descriptor state, for
/// callers that bind once (the compiler's and the model's draw tests).
pub fn bind_sets<S: PacketSink>(
    s: &mut S,
    point: BindPoint,
    sets: &[Option<u64>],
) -> Result<(), S::Error> {
    let mut mask = 0;
    for (i, set) in sets.iter().enumerate() {
        if let Some(iova) = *set {
            bindless_base(s, point, i as u32, iova)?;
            mask |= 1 << i;
        }
    }
    if mask != 0 {
        invalidate_bindless(s, point, mask)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;

    /// The register a type 4 header writes (adreno_pm4.xml: bits 8-26).
    fn offset(header: u32) -> u32 {
        header >> 8 & 0x7ffff
    }

    #[test]
    fn graphics_sets_go_to_the_graphics_bases_and_their_hlsq_mirror_on_a6xx() {
        let mut w = StateWriter::new(Chip::A6xx);
        bind_sets(&mut w, BindPoint::Graphics, &[None, Some(0x1_0003_8000)]).unwrap();
        // a6xx.xml: SP_BINDLESS_BASE at 0xab10, stride 2; HLSQ_BINDLESS_BASE
        // at 0xbb20; DESC_SIZE (bits 0-1) 64B = 3, ADDR from bit 2 (the
        // address itself, 4-byte aligned); HLSQ_INVALIDATE_CMD at 0xbb08
        // with GFX_BINDLESS at bits 14-18. Turnip's a660 mip_lod stream has
        // the same dwords for its set 0: 00038003 00000001.
        assert_eq!(offset(w.dwords[0]), 0xab12);
        assert_eq!(&w.dwords[1..3], &[0x0003_8003, 1]);
        assert_eq!(offset(w.dwords[3]), 0xbb22);
        assert_eq!(&w.dwords[4..6], &[0x0003_8003, 1]);
        assert_eq!(offset(w.dwords[6]), 0xbb08);
        assert_eq!(w.dwords[7], 0b10 << 14);
        assert_eq!(w.dwords.len(), 8);
    }

    #[test]
    fn a7xx_has_no_hlsq_mirror_and_compute_keeps_its_own_bases() {
        let mut w = StateWriter::new(Chip::A7xx);
        bind_sets(&mut w, BindPoint::Compute, &[Some(0x4000)]).unwrap();
        // a6xx.xml: SP_CS_BINDLESS_BASE at 0xa9e8; a7xx's
        // HLSQ_INVALIDATE_CMD at 0xab1f, CS_BINDLESS at bits 9-16.
        assert_eq!(offset(w.dwords[0]), 0xa9e8);
        assert_eq!(&w.dwords[1..3], &[0x4003, 0]);
        assert_eq!(offset(w.dwords[3]), 0xab1f);
        assert_eq!(w.dwords[4], 1 << 9);
        assert_eq!(w.dwords.len(), 5);
        assert_eq!(all_bases(Chip::A7xx), 0xff);
        assert_eq!(all_bases(Chip::A6xx), 0x1f);
    }
}
